// thrust/merge.h: merge and merge_by_key of two sorted ranges, stable: of equivalent
// items, those of the first range come first. On the device one thread per item finds
// where it goes by a binary search in the other range (a merge path item by item) and
// writes it there: one transform_kernel launch (CUDA 13's Thrust launches
// cub::DeviceMerge's kernels; the names differ, the result does not). On the host the
// standard library's merge.
#pragma once
#include <thrust/detail/algorithms_more.h>
#include <thrust/pair.h>

#include <algorithm>

namespace thrust {
namespace detail {

// Item i of the first range lands after the second range's items that order before
// it; item j of the second after the first range's items that do not order after it.
template <class A, class B, class Out, class Comp> struct MergeOp {
  A a;
  long long n1;
  B b;
  long long n2;
  Out out;
  mutable Comp comp;
  __device__ long long place(long long i) const {
    return i < n1 ? i + search_one<search::lower>(b, n2, a[i], comp)
                  : (i - n1) + search_one<search::upper>(a, n1, b[i - n1], comp);
  }
  __device__ void operator()(long long i) const { out[place(i)] = i < n1 ? a[i] : b[i - n1]; }
};
template <class Keys, class VA, class VB, class VOut> struct MergeByKeyOp {
  Keys keys;  // a MergeOp over the keys
  VA va;
  VB vb;
  VOut vout;
  __device__ void operator()(long long i) const {
    const long long p = keys.place(i);
    keys.out[p] = i < keys.n1 ? keys.a[i] : keys.b[i - keys.n1];
    vout[p] = i < keys.n1 ? va[i] : vb[i - keys.n1];
  }
};

template <class P, class In1, class In2, class Out, class Comp = ::thrust::less<>>
Out merge_on(In1 first1, In1 last1, In2 first2, In2 last2, Out out, Comp comp = {}) {
  const long long n1 = last1 - first1, n2 = last2 - first2;
  if constexpr (on_device_all_v<P, In1, In2, Out>) {
    using Op = MergeOp<decltype(raw(first1)), decltype(raw(first2)), decltype(raw(out)), Comp>;
    transform_index(Op{raw(first1), n1, raw(first2), n2, raw(out), comp}, n1 + n2);
    return out + (n1 + n2);
  } else {
    return std::merge(first1, last1, first2, last2, out, comp);
  }
}

template <class P, class K1, class K2, class V1, class V2, class KOut, class VOut, class Comp = ::thrust::less<>>
::thrust::pair<KOut, VOut> merge_by_key_on(K1 kf1, K1 kl1, K2 kf2, K2 kl2, V1 vf1, V2 vf2, KOut kout, VOut vout,
                                           Comp comp = {}) {
  const long long n1 = kl1 - kf1, n2 = kl2 - kf2;
  if constexpr (on_device_all_v<P, K1, K2, V1, V2, KOut, VOut>) {
    using Keys = MergeOp<decltype(raw(kf1)), decltype(raw(kf2)), decltype(raw(kout)), Comp>;
    using Op = MergeByKeyOp<Keys, decltype(raw(vf1)), decltype(raw(vf2)), decltype(raw(vout))>;
    transform_index(Op{Keys{raw(kf1), n1, raw(kf2), n2, raw(kout), comp}, raw(vf1), raw(vf2), raw(vout)}, n1 + n2);
  } else {
    long long i = 0, j = 0, k = 0;
    for (; i < n1 || j < n2; ++k) {
      const bool second = i == n1 || (j < n2 && comp(kf2[j], kf1[i]));
      kout[k] = second ? kf2[j] : kf1[i];
      vout[k] = second ? vf2[j++] : vf1[i++];
    }
  }
  return {kout + (n1 + n2), vout + (n1 + n2)};
}

}  // namespace detail

SIMT_THRUST_POLICY_FORMS(merge)
SIMT_THRUST_POLICY_FORMS(merge_by_key)

}  // namespace thrust
