// cub::KeyValuePair and the ArgMin/ArgMax operators over it (CUB's semantics: the
// smaller/larger value wins; among equal values, the smaller key, i.e. the first index).
#pragma once
#include "cub/util_type.cuh"

namespace cub {

template <class K, class V> struct KeyValuePair {
  using Key = K;
  using Value = V;
  K key;
  V value;
  __host__ __device__ __forceinline__ KeyValuePair() : key(), value() {}
  __host__ __device__ __forceinline__ KeyValuePair(const K& k, const V& v) : key(k), value(v) {}
  __host__ __device__ __forceinline__ bool operator!=(const KeyValuePair& b) const { return value != b.value || key != b.key; }
};

struct ArgMin {
  template <class K, class V>
  __host__ __device__ __forceinline__ KeyValuePair<K, V> operator()(const KeyValuePair<K, V>& a, const KeyValuePair<K, V>& b) const {
    return (b.value < a.value || (a.value == b.value && b.key < a.key)) ? b : a;
  }
};
struct ArgMax {
  template <class K, class V>
  __host__ __device__ __forceinline__ KeyValuePair<K, V> operator()(const KeyValuePair<K, V>& a, const KeyValuePair<K, V>& b) const {
    return (b.value > a.value || (a.value == b.value && b.key < a.key)) ? b : a;
  }
};

}  // namespace cub
