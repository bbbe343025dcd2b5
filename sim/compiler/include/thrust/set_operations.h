// thrust/set_operations.h: set_union, set_intersection, set_difference and
// set_symmetric_difference of two sorted ranges, and their _by_key forms, with the
// standard library's multiset rule: of a class of equivalent items, m in the first
// range and k in the second, the first min(m, k) of each are matched; intersection
// keeps the first range's matched ones, difference its unmatched ones, union the first
// range whole and the second's unmatched ones, symmetric difference the unmatched ones
// of both. Kept items stay in order; a union or symmetric difference merges the two
// kept sequences, the first range's item first among equivalents.
//
// On the device an item's rank in its class and the class's size in the other range
// are binary searches, so each item decides alone whether it is kept: one compaction
// (cub::DeviceSelect's kernels) per range, and a merge launch where two ranges are
// kept. (CUDA 13's Thrust runs a merge path over tiles: other launches, the same
// result.) On the host the same rule, item by item.
#pragma once
#include <thrust/detail/algorithms_more.h>
#include <thrust/merge.h>
#include <thrust/pair.h>

#include <vector>

namespace thrust {
namespace detail {

// Whether item i of `self` (n items) is kept: matched (its rank in its class is below
// the class's size in `other`) when KeepMatched, unmatched otherwise.
template <bool KeepMatched, class Self, class Other, class Comp> struct SetFlags {
  Self self;
  long long n;
  Other other;
  long long n_other;
  mutable Comp comp;
  __host__ __device__ bool operator()(long long i) const {
    const long long rank = i - search_one<search::lower>(self, n, self[i], comp);
    const long long in_other = search_one<search::upper>(other, n_other, self[i], comp) -
                               search_one<search::lower>(other, n_other, self[i], comp);
    return (rank < in_other) == KeepMatched;
  }
};

// A kept item's key, and its value where there is one, at its output slot.
template <class KIn, class VIn, class KOut, class VOut> struct CopyKeyValue {
  KIn k;
  VIn v;
  KOut ko;
  VOut vo;
  __device__ void operator()(long long slot, long long i) const {
    ko[slot] = k[i];
    vo[slot] = v[i];
  }
};

template <bool KeepMatched, class Self, class Other, class Comp>
SetFlags<KeepMatched, Self, Other, Comp> set_flags(Self self, long long n, Other other, long long n_other, Comp comp) {
  return {self, n, other, n_other, comp};
}

// The kept items of the first range alone: intersection (matched) or difference.
template <bool KeepMatched, class P, class In1, class In2, class Out, class Comp>
Out set_first_on(In1 f1, In1 l1, In2 f2, In2 l2, Out out, Comp comp, const char* what) {
  const long long n1 = l1 - f1, n2 = l2 - f2;
  if constexpr (on_device_all_v<P, In1, In2, Out>) {
    auto a = raw(f1);
    const auto flags = set_flags<KeepMatched>(a, n1, raw(f2), n2, comp);
    return out + select_into(flags, a, raw(out), n1, what);
  } else {
    const auto flags = set_flags<KeepMatched>(f1, n1, f2, n2, comp);
    for (long long i = 0; i < n1; ++i)
      if (flags(i)) *out++ = f1[i];
    return out;
  }
}
template <bool KeepMatched, class P, class K1, class K2, class V1, class KOut, class VOut, class Comp>
::thrust::pair<KOut, VOut> set_first_by_key_on(K1 kf1, K1 kl1, K2 kf2, K2 kl2, V1 vf1, KOut kout, VOut vout, Comp comp,
                                               const char* what) {
  const long long n1 = kl1 - kf1, n2 = kl2 - kf2;
  if constexpr (on_device_all_v<P, K1, K2, V1, KOut, VOut>) {
    auto k = raw(kf1);
    const auto flags = set_flags<KeepMatched>(k, n1, raw(kf2), n2, comp);
    using Write = CopyKeyValue<decltype(k), decltype(raw(vf1)), decltype(raw(kout)), decltype(raw(vout))>;
    const long long kept = select_write(flags, Write{k, raw(vf1), raw(kout), raw(vout)}, n1, what);
    return {kout + kept, vout + kept};
  } else {
    const auto flags = set_flags<KeepMatched>(kf1, n1, kf2, n2, comp);
    for (long long i = 0; i < n1; ++i)
      if (flags(i)) *kout++ = kf1[i], *vout++ = vf1[i];
    return {kout, vout};
  }
}

// The unmatched items of `self` (against `other`) copied into device buffers.
template <class K, class V> struct Kept {
  DeviceBuffer<K> keys;
  DeviceBuffer<V> values;
  long long n = 0;
  explicit Kept(long long capacity) : keys(capacity), values(capacity) {}
};
template <class Self, class Other, class Vals, class Comp>
void keep_unmatched(Self self, long long n, Other other, long long n_other, Vals vals, Comp comp,
                    Kept<value_t<Self>, value_t<Vals>>& into, const char* what) {
  const auto flags = set_flags<false>(self, n, other, n_other, comp);
  using K = value_t<Self>;
  using V = value_t<Vals>;
  into.n = select_write(flags, CopyKeyValue<Self, Vals, K*, V*>{self, vals, into.keys.p, into.values.p}, n, what);
}

// Union (the first range whole) or symmetric difference (its unmatched items), merged
// with the second range's unmatched items. Keys only: the values are the keys again.
template <bool Symmetric, class P, class In1, class In2, class Out, class Comp>
Out set_merged_on(In1 f1, In1 l1, In2 f2, In2 l2, Out out, Comp comp, const char* what) {
  const long long n1 = l1 - f1, n2 = l2 - f2;
  if constexpr (on_device_all_v<P, In1, In2, Out>) {
    using K = value_t<In1>;
    auto a = raw(f1);
    auto b = raw(f2);
    Kept<K, K> second(n2);
    keep_unmatched(b, n2, a, n1, b, comp, second, what);
    if constexpr (Symmetric) {
      Kept<K, K> first(n1);
      keep_unmatched(a, n1, b, n2, a, comp, first, what);
      return merge_on<device_policy>(first.keys.p, first.keys.p + first.n, second.keys.p, second.keys.p + second.n, out,
                                     comp);
    } else {
      return merge_on<device_policy>(a, a + n1, second.keys.p, second.keys.p + second.n, out, comp);
    }
  } else {
    std::vector<value_t<In1>> first, second;
    const auto keep1 = set_flags<false>(f1, n1, f2, n2, comp);
    const auto keep2 = set_flags<false>(f2, n2, f1, n1, comp);
    for (long long i = 0; i < n1; ++i)
      if (!Symmetric || keep1(i)) first.push_back(f1[i]);
    for (long long j = 0; j < n2; ++j)
      if (keep2(j)) second.push_back(f2[j]);
    return std::merge(first.begin(), first.end(), second.begin(), second.end(), out, comp);
  }
}
template <bool Symmetric, class P, class K1, class K2, class V1, class V2, class KOut, class VOut, class Comp>
::thrust::pair<KOut, VOut> set_merged_by_key_on(K1 kf1, K1 kl1, K2 kf2, K2 kl2, V1 vf1, V2 vf2, KOut kout, VOut vout,
                                                Comp comp, const char* what) {
  const long long n1 = kl1 - kf1, n2 = kl2 - kf2;
  if constexpr (on_device_all_v<P, K1, K2, V1, V2, KOut, VOut>) {
    using K = value_t<K1>;
    using V = value_t<V1>;
    auto a = raw(kf1);
    auto b = raw(kf2);
    Kept<K, V> second(n2);
    keep_unmatched(b, n2, a, n1, raw(vf2), comp, second, what);
    if constexpr (Symmetric) {
      Kept<K, V> first(n1);
      keep_unmatched(a, n1, b, n2, raw(vf1), comp, first, what);
      return merge_by_key_on<device_policy>(first.keys.p, first.keys.p + first.n, second.keys.p,
                                            second.keys.p + second.n, first.values.p, second.values.p, kout, vout, comp);
    } else {
      return merge_by_key_on<device_policy>(a, a + n1, second.keys.p, second.keys.p + second.n, raw(vf1),
                                            second.values.p, kout, vout, comp);
    }
  } else {
    std::vector<value_t<K1>> k1, k2;
    std::vector<value_t<V1>> v1, v2;
    const auto keep1 = set_flags<false>(kf1, n1, kf2, n2, comp);
    const auto keep2 = set_flags<false>(kf2, n2, kf1, n1, comp);
    for (long long i = 0; i < n1; ++i)
      if (!Symmetric || keep1(i)) k1.push_back(kf1[i]), v1.push_back(vf1[i]);
    for (long long j = 0; j < n2; ++j)
      if (keep2(j)) k2.push_back(kf2[j]), v2.push_back(vf2[j]);
    return merge_by_key_on<host_policy>(k1.begin(), k1.end(), k2.begin(), k2.end(), v1.begin(), v2.begin(), kout, vout,
                                        comp);
  }
}

template <class P, class In1, class In2, class Out, class Comp = ::thrust::less<>>
Out set_intersection_on(In1 f1, In1 l1, In2 f2, In2 l2, Out out, Comp comp = {}) {
  return set_first_on<true, P>(f1, l1, f2, l2, out, comp, "thrust::set_intersection");
}
template <class P, class In1, class In2, class Out, class Comp = ::thrust::less<>>
Out set_difference_on(In1 f1, In1 l1, In2 f2, In2 l2, Out out, Comp comp = {}) {
  return set_first_on<false, P>(f1, l1, f2, l2, out, comp, "thrust::set_difference");
}
template <class P, class In1, class In2, class Out, class Comp = ::thrust::less<>>
Out set_union_on(In1 f1, In1 l1, In2 f2, In2 l2, Out out, Comp comp = {}) {
  return set_merged_on<false, P>(f1, l1, f2, l2, out, comp, "thrust::set_union");
}
template <class P, class In1, class In2, class Out, class Comp = ::thrust::less<>>
Out set_symmetric_difference_on(In1 f1, In1 l1, In2 f2, In2 l2, Out out, Comp comp = {}) {
  return set_merged_on<true, P>(f1, l1, f2, l2, out, comp, "thrust::set_symmetric_difference");
}

// (keys1, keys2, values1, keys_out, values_out[, comp]): no second values.
template <class P, class K1, class K2, class V1, class KOut, class VOut, class Comp = ::thrust::less<>>
::thrust::pair<KOut, VOut> set_intersection_by_key_on(K1 kf1, K1 kl1, K2 kf2, K2 kl2, V1 vf1, KOut kout, VOut vout,
                                                      Comp comp = {}) {
  return set_first_by_key_on<true, P>(kf1, kl1, kf2, kl2, vf1, kout, vout, comp, "thrust::set_intersection_by_key");
}
// (keys1, keys2, values1, values2, keys_out, values_out[, comp]).
template <class P, class K1, class K2, class V1, class V2, class KOut, class VOut, class Comp = ::thrust::less<>>
::thrust::pair<KOut, VOut> set_difference_by_key_on(K1 kf1, K1 kl1, K2 kf2, K2 kl2, V1 vf1, V2, KOut kout, VOut vout,
                                                    Comp comp = {}) {
  return set_first_by_key_on<false, P>(kf1, kl1, kf2, kl2, vf1, kout, vout, comp, "thrust::set_difference_by_key");
}
template <class P, class K1, class K2, class V1, class V2, class KOut, class VOut, class Comp = ::thrust::less<>>
::thrust::pair<KOut, VOut> set_union_by_key_on(K1 kf1, K1 kl1, K2 kf2, K2 kl2, V1 vf1, V2 vf2, KOut kout, VOut vout,
                                               Comp comp = {}) {
  return set_merged_by_key_on<false, P>(kf1, kl1, kf2, kl2, vf1, vf2, kout, vout, comp, "thrust::set_union_by_key");
}
template <class P, class K1, class K2, class V1, class V2, class KOut, class VOut, class Comp = ::thrust::less<>>
::thrust::pair<KOut, VOut> set_symmetric_difference_by_key_on(K1 kf1, K1 kl1, K2 kf2, K2 kl2, V1 vf1, V2 vf2, KOut kout,
                                                              VOut vout, Comp comp = {}) {
  return set_merged_by_key_on<true, P>(kf1, kl1, kf2, kl2, vf1, vf2, kout, vout, comp,
                                       "thrust::set_symmetric_difference_by_key");
}

}  // namespace detail

SIMT_THRUST_POLICY_FORMS(set_intersection)
SIMT_THRUST_POLICY_FORMS(set_difference)
SIMT_THRUST_POLICY_FORMS(set_union)
SIMT_THRUST_POLICY_FORMS(set_symmetric_difference)
SIMT_THRUST_POLICY_FORMS(set_intersection_by_key)
SIMT_THRUST_POLICY_FORMS(set_difference_by_key)
SIMT_THRUST_POLICY_FORMS(set_union_by_key)
SIMT_THRUST_POLICY_FORMS(set_symmetric_difference_by_key)

}  // namespace thrust
