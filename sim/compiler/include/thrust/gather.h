// thrust/gather.h: gather, gather_if, scatter, scatter_if. As in CUDA 13's Thrust, a
// gather is a transform reading through a permutation_iterator and a scatter one
// writing through it (cub::detail::transform::transform_kernel); the _if forms are
// Thrust's transform_if, a cub::detail::for_each::static_kernel. On host iterators
// they run as loops on the host.
#pragma once
#include <thrust/detail/algorithms.h>
#include <thrust/iterator/permutation_iterator.h>

namespace thrust {
namespace detail {

template <class In, class Stencil, class Out, class Pred> struct CopyIfStencilOp {  // transform_if's body
  In in;
  Stencil stencil;
  Out out;
  mutable Pred pred;
  __device__ void operator()(long long i) const {
    if (pred(stencil[i])) out[i] = in[i];
  }
};
struct IdentityPred {
  template <class T> __host__ __device__ bool operator()(const T& x) const { return bool(x); }
};

template <class P, class MapIt, class In, class Out> Out gather_on(MapIt map_first, MapIt map_last, In input, Out result) {
  const long long n = map_last - map_first;
  if constexpr (on_device_all_v<P, MapIt, In, Out>) {
    auto from = make_permutation_iterator(raw(input), raw(map_first));
    transform_index(CopyOp<decltype(from), decltype(raw(result))>{from, raw(result)}, n);
  } else {
    for (long long i = 0; i < n; ++i) result[i] = input[map_first[i]];
  }
  return result + n;
}

template <class P, class MapIt, class Stencil, class In, class Out, class Pred = IdentityPred>
Out gather_if_on(MapIt map_first, MapIt map_last, Stencil stencil, In input, Out result, Pred pred = {}) {
  const long long n = map_last - map_first;
  if constexpr (on_device_all_v<P, MapIt, Stencil, In, Out>) {
    auto from = make_permutation_iterator(raw(input), raw(map_first));
    for_each_index(CopyIfStencilOp<decltype(from), decltype(raw(stencil)), decltype(raw(result)), Pred>{from, raw(stencil), raw(result), pred},
                   n);
  } else {
    for (long long i = 0; i < n; ++i)
      if (pred(stencil[i])) result[i] = input[map_first[i]];
  }
  return result + n;
}

template <class P, class In, class MapIt, class Out> void scatter_on(In first, In last, MapIt map, Out result) {
  const long long n = last - first;
  if constexpr (on_device_all_v<P, In, MapIt, Out>) {
    auto to = make_permutation_iterator(raw(result), raw(map));
    transform_index(CopyOp<decltype(raw(first)), decltype(to)>{raw(first), to}, n);
  } else {
    for (long long i = 0; i < n; ++i) result[map[i]] = first[i];
  }
}

template <class P, class In, class MapIt, class Stencil, class Out, class Pred = IdentityPred>
void scatter_if_on(In first, In last, MapIt map, Stencil stencil, Out result, Pred pred = {}) {
  const long long n = last - first;
  if constexpr (on_device_all_v<P, In, MapIt, Stencil, Out>) {
    auto to = make_permutation_iterator(raw(result), raw(map));
    for_each_index(CopyIfStencilOp<decltype(raw(first)), decltype(raw(stencil)), decltype(to), Pred>{raw(first), raw(stencil), to, pred}, n);
  } else {
    for (long long i = 0; i < n; ++i)
      if (pred(stencil[i])) result[map[i]] = first[i];
  }
}

}  // namespace detail

SIMT_THRUST_POLICY_FORMS(gather)
SIMT_THRUST_POLICY_FORMS(gather_if)
SIMT_THRUST_POLICY_FORMS(scatter)
SIMT_THRUST_POLICY_FORMS(scatter_if)

}  // namespace thrust
