// More of simtlab's Thrust algorithms: inner_product, the binary searches, copy_if and
// the remove family, unique, tabulate. Device forms launch the kernels CUDA 13's Thrust
// launches for them (CUB's reduction for inner_product, cub::DeviceSelect's kernels for
// the compactions, a transform_kernel per searched value, a for_each kernel for
// tabulate); host forms are the standard library's or plain loops.
#pragma once
#include <thrust/detail/algorithms.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>
#include <thrust/iterator/zip_iterator.h>

#include <algorithm>
#include <numeric>

namespace thrust {
namespace detail {

// inner_product: CUB's TransformReduce over the two ranges zipped, each pair combined by
// op2, the products folded by op1 from init (Thrust's transform_reduce of a zip).
template <class Op2> struct ApplyToPair {
  mutable Op2 op;  // called as it is: a functor's operator() need not be const
  template <class Tuple> __host__ __device__ auto operator()(const Tuple& t) const { return op(::cuda::std::get<0>(t), ::cuda::std::get<1>(t)); }
};
template <class P, class In1, class In2, class T, class Op1 = ::cuda::std::plus<>, class Op2 = ::cuda::std::multiplies<>>
T inner_product_on(In1 first1, In1 last1, In2 first2, T init, Op1 op1 = {}, Op2 op2 = {}) {
  if constexpr (on_device_all_v<P, In1, In2>) {
    const long long n = last1 - first1;
    auto z = make_zip_iterator(raw(first1), raw(first2));
    DeviceScalar<T> out;
    with_temp_storage([&](void* t, std::size_t& b) {
      return cub::DeviceReduce::TransformReduce(t, b, z, out.p, n, op1, ApplyToPair<Op2>{op2}, init);
    }, "thrust::inner_product");
    return out.get();
  } else {
    for (; first1 != last1; ++first1, ++first2) init = op1(init, op2(*first1, *first2));
    return init;
  }
}

// The binary searches, one thread per searched value (a transform_kernel, as Thrust's).
enum class search { lower, upper, found };
template <search S, class It, class Comp, class T> __host__ __device__ auto search_one(It a, long long n, const T& v, Comp comp) {
  long long lo = 0, hi = n;
  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    const bool right = S == search::upper ? !comp(v, a[mid]) : bool(comp(a[mid], v));
    if (right) lo = mid + 1;
    else hi = mid;
  }
  if constexpr (S == search::found) return lo < n && !comp(v, a[lo]);
  else return lo;
}
template <search S, class It, class Values, class Out, class Comp> struct SearchOp {
  It a;
  long long n;
  Values values;
  Out out;
  mutable Comp comp;
  __device__ void operator()(long long i) const { out[i] = search_one<S>(a, n, values[i], comp); }
};
template <search S, class P, class It, class Values, class Out, class Comp>
Out search_many(It first, It last, Values vf, Values vl, Out out, Comp comp) {
  const long long n = last - first, m = vl - vf;
  if constexpr (on_device_all_v<P, It, Values, Out>) {
    transform_index(SearchOp<S, decltype(raw(first)), decltype(raw(vf)), decltype(raw(out)), Comp>{raw(first), n, raw(vf), raw(out), comp}, m);
  } else {
    for (long long i = 0; i < m; ++i) out[i] = search_one<S>(first, n, vf[i], comp);
  }
  return out + m;
}
// The vectorized forms without a comparator: thrust::less.
template <search S, class P, class It, class Values, class Out> Out search_many(It first, It last, Values vf, Values vl, Out out) {
  return search_many<S, P>(first, last, vf, vl, out, ::thrust::less<>{});
}
// The scalar forms: on the device one thread searches, its answer is read back.
template <search S, class P, class It, class T, class Comp> auto search_scalar(It first, It last, const T& value, Comp comp) {
  const long long n = last - first;
  if constexpr (on_device_v<P, It>) {
    using R = std::conditional_t<S == search::found, bool, long long>;
    DeviceScalar<R> out;
    transform_index(SearchOp<S, decltype(raw(first)), ::thrust::constant_iterator<T>, R*, Comp>{raw(first), n, ::thrust::constant_iterator<T>(value), out.p, comp}, 1);
    if constexpr (S == search::found) return out.get();
    else return first + out.get();
  } else {
    if constexpr (S == search::found) return search_one<S>(first, n, value, comp);
    else return first + search_one<S>(first, n, value, comp);
  }
}
// (values first, values last, out[, comp]) searches many; (value, comp) one.
template <class P, class It, class A, class B, class... R> auto lower_bound_on(It first, It last, const A& a, const B& b, R... r) {
  if constexpr (sizeof...(R) >= 1) return search_many<search::lower, P>(first, last, a, b, r...);
  else return search_scalar<search::lower, P>(first, last, a, b);
}
template <class P, class It, class A> auto lower_bound_on(It first, It last, const A& a) {
  return search_scalar<search::lower, P>(first, last, a, ::thrust::less<>{});
}
template <class P, class It, class A, class B, class... R> auto upper_bound_on(It first, It last, const A& a, const B& b, R... r) {
  if constexpr (sizeof...(R) >= 1) return search_many<search::upper, P>(first, last, a, b, r...);
  else return search_scalar<search::upper, P>(first, last, a, b);
}
template <class P, class It, class A> auto upper_bound_on(It first, It last, const A& a) {
  return search_scalar<search::upper, P>(first, last, a, ::thrust::less<>{});
}
template <class P, class It, class A, class B, class... R> auto binary_search_on(It first, It last, const A& a, const B& b, R... r) {
  if constexpr (sizeof...(R) >= 1) return search_many<search::found, P>(first, last, a, b, r...);
  else return search_scalar<search::found, P>(first, last, a, b);
}
template <class P, class It, class A> auto binary_search_on(It first, It last, const A& a) {
  return search_scalar<search::found, P>(first, last, a, ::thrust::less<>{});
}

// Compactions: cub::DeviceSelect's kernels keep the items whose flag is set, in order.
template <class In, class Stencil, class Pred, bool Keep> struct StencilFlags {
  Stencil stencil;
  mutable Pred pred;
  __device__ bool operator()(long long i) const { return bool(pred(stencil[i])) == Keep; }
};
// Each kept item i calls write(slot, i), slot its place among the kept; returns how many.
template <class Flags, class Write> long long select_write(Flags flags, Write write, long long n, const char* what) {
  DeviceScalar<long long> count;
  with_temp_storage([&](void* t, std::size_t& b) {
    return cub::detail::select::dispatch(t, b, flags, write, count.p, n, nullptr);
  }, what);
  return count.get();
}
template <class Flags, class In, class Out> long long select_into(Flags flags, In in, Out out, long long n, const char* what) {
  return select_write(flags, cub::detail::select::CopyItem<In, Out>{in, out}, n, what);
}

template <class P, class In, class A, class B, class... R> auto copy_if_on(In first, In last, A a, B b, R... r) {
  const long long n = last - first;
  if constexpr (sizeof...(R) == 0) {  // copy_if(first, last, out, pred)
    if constexpr (on_device_all_v<P, In, A>) {
      auto in = raw(first);
      return a + select_into(StencilFlags<decltype(in), decltype(in), B, true>{in, b}, in, raw(a), n, "thrust::copy_if");
    } else {
      return std::copy_if(first, last, a, b);
    }
  } else {  // copy_if(first, last, stencil, out, pred)
    if constexpr (on_device_all_v<P, In, A, B>) {
      auto in = raw(first);
      auto s = raw(a);
      return b + select_into(StencilFlags<decltype(in), decltype(s), R..., true>{s, r...}, in, raw(b), n, "thrust::copy_if");
    } else {
      auto pred = std::get<0>(std::tuple<R...>(r...));
      for (long long i = 0; i < n; ++i)
        if (pred(a[i])) *b++ = first[i];
      return b;
    }
  }
}

template <class P, class It, class A, class... R> It remove_if_on(It first, It last, A a, R... r) {
  const long long n = last - first;
  if constexpr (on_device_all_v<P, It>) {
    // Thrust compacts in place; here the items are copied aside first, then the kept ones
    // compacted back (the same result; one copy kernel more).
    using V = value_t<It>;
    DeviceBuffer<V> copy(n);
    for_each_index(CopyOp<decltype(raw(first)), V*>{raw(first), copy.p}, n);
    if constexpr (sizeof...(R) == 0)
      return first + select_into(StencilFlags<V*, V*, A, false>{copy.p, a}, copy.p, raw(first), n, "thrust::remove_if");
    else
      return first + select_into(StencilFlags<V*, decltype(raw(a)), R..., false>{raw(a), r...}, copy.p, raw(first), n, "thrust::remove_if");
  } else {
    if constexpr (sizeof...(R) == 0) {
      return std::remove_if(first, last, a);
    } else {
      auto pred = std::get<0>(std::tuple<R...>(r...));
      std::vector<value_t<It>> kept;
      for (long long i = 0; i < n; ++i)
        if (!pred(a[i])) kept.push_back(first[i]);
      return std::copy(kept.begin(), kept.end(), first);
    }
  }
}
template <class Pred> struct NotPred {
  mutable Pred pred;
  template <class T> __host__ __device__ bool operator()(const T& x) const { return !pred(x); }
};
template <class P, class In, class Out, class Pred> Out remove_copy_if_on(In first, In last, Out out, Pred pred) {
  return copy_if_on<P>(first, last, out, NotPred<Pred>{pred});
}
template <class T> struct NotEqualTo {
  T value;
  template <class U> __host__ __device__ bool operator()(const U& x) const { return !(x == value); }
};
template <class T> struct IsEqualTo {
  T value;
  template <class U> __host__ __device__ bool operator()(const U& x) const { return x == value; }
};
template <class P, class It, class T> It remove_on(It first, It last, const T& value) {
  return remove_if_on<P>(first, last, IsEqualTo<T>{value});
}
template <class P, class In, class Out, class T> Out remove_copy_on(In first, In last, Out out, const T& value) {
  return copy_if_on<P>(first, last, out, NotEqualTo<T>{value});
}

// unique: the first item of each run of equal items (cub::DeviceSelect::Unique's flags).
template <class In, class Pred> struct RunHeadFlags {
  In in;
  mutable Pred pred;
  __device__ bool operator()(long long i) const { return i == 0 || !pred(in[i - 1], in[i]); }
};
struct WriteNothing {
  __device__ void operator()(long long, long long) const {}
};
template <class P, class It, class Pred = ::thrust::equal_to<>> It unique_on(It first, It last, Pred pred = {}) {
  const long long n = last - first;
  if constexpr (on_device_v<P, It>) {
    using V = value_t<It>;
    DeviceBuffer<V> copy(n);
    for_each_index(CopyOp<decltype(raw(first)), V*>{raw(first), copy.p}, n);
    return first + select_into(RunHeadFlags<V*, Pred>{copy.p, pred}, copy.p, raw(first), n, "thrust::unique");
  } else {
    return std::unique(first, last, pred);
  }
}
template <class P, class In, class Out, class Pred = ::thrust::equal_to<>> Out unique_copy_on(In first, In last, Out out, Pred pred = {}) {
  const long long n = last - first;
  if constexpr (on_device_all_v<P, In, Out>) {
    auto in = raw(first);
    return out + select_into(RunHeadFlags<decltype(in), Pred>{in, pred}, in, raw(out), n, "thrust::unique_copy");
  } else {
    return std::unique_copy(first, last, out, pred);
  }
}
template <class P, class It, class Pred = ::thrust::equal_to<>> long long unique_count_on(It first, It last, Pred pred = {}) {
  const long long n = last - first;
  if constexpr (on_device_v<P, It>) {
    auto in = raw(first);
    DeviceScalar<long long> count;
    with_temp_storage([&](void* t, std::size_t& b) {
      return cub::detail::select::dispatch(t, b, RunHeadFlags<decltype(in), Pred>{in, pred}, WriteNothing{}, count.p, n, nullptr);
    }, "thrust::unique_count");
    return count.get();
  } else {
    long long c = 0;
    for (long long i = 0; i < n; ++i) c += i == 0 || !pred(first[i - 1], first[i]);
    return c;
  }
}

// tabulate: out[i] = f(i) (Thrust's parallel_for: a for_each kernel).
template <class Out, class F> struct TabulateOp {
  Out out;
  mutable F f;
  __device__ void operator()(long long i) const { out[i] = f(typename std::iterator_traits<Out>::difference_type(i)); }
};
template <class P, class It, class F> void tabulate_on(It first, It last, F f) {
  if constexpr (on_device_v<P, It>) {
    for_each_index(TabulateOp<decltype(raw(first)), F>{raw(first), f}, last - first);
  } else {
    const long long n = last - first;
    for (long long i = 0; i < n; ++i) first[i] = f(typename std::iterator_traits<It>::difference_type(i));
  }
}

// Scans by key: CUB's DeviceScan over (head flag, value) items with the segmented
// operator — a run of equal keys starts afresh at its head —, so each run is scanned left
// to right in the order simtlab's DeviceScan scans (integers exact; float sums in that
// order). CUDA 13 runs cub::DeviceScan::InclusiveScanByKey, whose kernels differ.
template <class V> struct alignas(8) Segmented {  // aligned: clang moves 8 bytes at once
  int head;
  V value;
};
template <class Op> struct SegmentedOp {
  mutable Op op;
  template <class V> __host__ __device__ Segmented<V> operator()(const Segmented<V>& a, const Segmented<V>& b) const {
    return {a.head | b.head, b.head ? b.value : V(op(a.value, b.value))};
  }
};
// Item i: its head flag and value; for an exclusive scan the value before it, or init at a head.
template <class Keys, class Values, class Pred, class V, bool EXCLUSIVE> struct SegmentedItem {
  Keys keys;
  Values values;
  mutable Pred pred;
  V init;
  __host__ __device__ Segmented<V> operator()(long long i) const {
    const int head = i == 0 || !pred(keys[i - 1], keys[i]);
    if constexpr (EXCLUSIVE) return {head, head ? init : V(values[i - 1])};
    else return {head, V(values[i])};
  }
};
struct SegmentedValue {
  template <class V> __host__ __device__ V operator()(const Segmented<V>& s) const { return s.value; }
};
template <bool EXCLUSIVE, class P, class KIt, class VIt, class Out, class V, class Pred, class Op>
Out scan_by_key(KIt kf, KIt kl, VIt vf, Out out, V init, Pred pred, Op op, const char* what) {
  const long long n = kl - kf;
  if constexpr (on_device_all_v<P, KIt, VIt, Out>) {
    auto items = make_transform_iterator(counting_iterator<long long>(0),
                                         SegmentedItem<decltype(raw(kf)), decltype(raw(vf)), Pred, V, EXCLUSIVE>{raw(kf), raw(vf), pred, init});
    auto to = make_transform_output_iterator(raw(out), SegmentedValue{});
    with_temp_storage([&](void* t, std::size_t& b) { return cub::DeviceScan::InclusiveScan(t, b, items, to, SegmentedOp<Op>{op}, n); }, what);
  } else {
    V acc = init;
    for (long long i = 0; i < n; ++i) {
      const bool head = i == 0 || !pred(kf[i - 1], kf[i]);
      if constexpr (EXCLUSIVE) {
        if (head) acc = init;
        const V v = vf[i];
        out[i] = acc;
        acc = V(op(acc, v));
      } else {
        const V v = vf[i];
        acc = head ? v : V(op(acc, v));
        out[i] = acc;
      }
    }
  }
  return out + n;
}
template <class P, class KIt, class VIt, class Out, class Pred = ::thrust::equal_to<>, class Op = ::cuda::std::plus<>>
Out inclusive_scan_by_key_on(KIt kf, KIt kl, VIt vf, Out out, Pred pred = {}, Op op = {}) {
  using V = value_t<VIt>;
  return scan_by_key<false, P>(kf, kl, vf, out, V(), pred, op, "thrust::inclusive_scan_by_key");
}
template <class P, class KIt, class VIt, class Out, class T = value_t<VIt>, class Pred = ::thrust::equal_to<>, class Op = ::cuda::std::plus<>>
Out exclusive_scan_by_key_on(KIt kf, KIt kl, VIt vf, Out out, T init = T(), Pred pred = {}, Op op = {}) {
  using V = value_t<VIt>;
  return scan_by_key<true, P>(kf, kl, vf, out, V(init), pred, op, "thrust::exclusive_scan_by_key");
}

// adjacent_difference: out[0] = in[0], out[i] = op(in[i], in[i - 1]) (a transform
// kernel; an in-place call reads a copy of the input, as Thrust does).
template <class In, class Out, class Op> struct AdjacentOp {
  In in;
  Out out;
  mutable Op op;
  __device__ void operator()(long long i) const { out[i] = i == 0 ? in[0] : op(in[i], in[i - 1]); }
};
template <class P, class In, class Out, class Op = ::cuda::std::minus<>> Out adjacent_difference_on(In first, In last, Out out, Op op = {}) {
  const long long n = last - first;
  if constexpr (on_device_all_v<P, In, Out>) {
    using V = value_t<In>;
    DeviceBuffer<V> copy(n);
    for_each_index(CopyOp<decltype(raw(first)), V*>{raw(first), copy.p}, n);
    transform_index(AdjacentOp<V*, decltype(raw(out)), Op>{copy.p, raw(out), op}, n);
  } else {
    std::vector<value_t<In>> in(first, last);
    for (long long i = 0; i < n; ++i) out[i] = i == 0 ? in[0] : op(in[i], in[i - 1]);
  }
  return out + n;
}

// is_sorted: no item below the one before it (a count of those, CUB's reduction).
template <class It, class Comp> struct OutOfOrder {
  It in;
  mutable Comp comp;
  __host__ __device__ long long operator()(long long i) const { return comp(in[i + 1], in[i]) ? 1 : 0; }
};
template <class P, class It, class Comp = ::thrust::less<>> bool is_sorted_on(It first, It last, Comp comp = {}) {
  const long long n = last - first;
  if (n < 2) return true;
  if constexpr (on_device_v<P, It>) {
    using F = OutOfOrder<decltype(raw(first)), Comp>;
    return transform_reduce_on<device_policy>(counting_iterator<long long>(0), counting_iterator<long long>(n - 1), F{raw(first), comp},
                                              0LL, ::cuda::std::plus<>{}) == 0;
  } else {
    return std::is_sorted(first, last, comp);
  }
}

}  // namespace detail

SIMT_THRUST_POLICY_FORMS(inner_product)
SIMT_THRUST_POLICY_FORMS(lower_bound)
SIMT_THRUST_POLICY_FORMS(upper_bound)
SIMT_THRUST_POLICY_FORMS(binary_search)
SIMT_THRUST_POLICY_FORMS(copy_if)
SIMT_THRUST_POLICY_FORMS(remove_if)
SIMT_THRUST_POLICY_FORMS(remove)
SIMT_THRUST_POLICY_FORMS(remove_copy_if)
SIMT_THRUST_POLICY_FORMS(remove_copy)
SIMT_THRUST_POLICY_FORMS(unique)
SIMT_THRUST_POLICY_FORMS(unique_copy)
SIMT_THRUST_POLICY_FORMS(unique_count)
SIMT_THRUST_POLICY_FORMS(tabulate)
SIMT_THRUST_POLICY_FORMS(inclusive_scan_by_key)
SIMT_THRUST_POLICY_FORMS(adjacent_difference)
SIMT_THRUST_POLICY_FORMS(is_sorted)
SIMT_THRUST_POLICY_FORMS(exclusive_scan_by_key)

}  // namespace thrust
