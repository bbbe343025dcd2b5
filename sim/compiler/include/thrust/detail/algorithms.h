// simtlab's Thrust algorithms. On device iterators (thrust::device_ptr, or raw
// pointers under the thrust::device policy) they run as kernels on the simulator —
// simple element-wise kernels, and cub::Device* for reductions, scans and sorts, as
// CUDA 13's Thrust calls CUB (so thrust::reduce combines floats in CUB's order); on
// host iterators they run the C++ standard library's algorithm on the host.
#pragma once
#include <cub/cub.cuh>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/detail/system.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/tuple.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace thrust {

template <class A, class B> using pair = std::pair<A, B>;
using std::make_pair;
// thrust::min and thrust::max are cuda::std's in CUDA 13 (thrust/extrema.h).
using std::max;
using std::min;

namespace detail {

// A device iterator: device_ptr, or a fancy iterator over one or over nothing
// (thrust/iterator/detail/system.h).
template <class It> inline constexpr bool is_device_iterator_v = system_of_v<It> != system::host;

// Which side runs: the policy's, else the iterator's (a raw pointer is a host iterator).
struct no_policy {};
template <class Policy, class It> inline constexpr bool on_device_v =
    std::is_same_v<Policy, device_policy> || (std::is_same_v<Policy, no_policy> && is_device_iterator_v<It>);

// Which side runs for an algorithm over several iterators: their systems together.
template <class Policy, class... Its> inline constexpr bool on_device_all_v =
    std::is_same_v<Policy, device_policy> ||
    (std::is_same_v<Policy, no_policy> && (system::any | ... | system_of_v<Its>) != system::host);

template <class It> auto raw(It it) { return device_view(it); }
// Device memory the kernels write and cudaMemcpy can read: a raw pointer.
template <class It> inline constexpr bool is_contiguous_device_v = std::is_pointer_v<decltype(raw(std::declval<It>()))>;
template <class It> using value_t = typename std::iterator_traits<It>::value_type;

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}

// CUB's two calls with a temporary allocation, as Thrust makes them.
template <class F> void with_temp_storage(F f, const char* what) {
  std::size_t bytes = 0;
  check(f(nullptr, bytes), what);
  void* temp = nullptr;
  check(cudaMalloc(&temp, bytes ? bytes : 1), what);
  cudaError_t e = f(temp, bytes);
  cudaFree(temp);
  check(e, what);
}
template <class T> T read_back(const T* d) {
  T v;
  check(cudaMemcpy(&v, d, sizeof(T), cudaMemcpyDeviceToHost), "thrust: reading a result");
  return v;
}
template <class K> struct DeviceBuffer {  // n Ks in device memory
  K* p = nullptr;
  explicit DeviceBuffer(long long n) { check(cudaMalloc(&p, std::max(1LL, n) * sizeof(K)), "thrust: allocating"); }
  ~DeviceBuffer() { cudaFree(p); }
};
template <class T> struct DeviceScalar {  // one T in device memory
  T* p = nullptr;
  DeviceScalar() { check(cudaMalloc(&p, sizeof(T)), "thrust: allocating a result"); }
  ~DeviceScalar() { cudaFree(p); }
  T get() const { return read_back(p); }
};

}  // namespace detail
}  // namespace thrust

// Element-wise work under the names and shapes CUDA 13's Thrust uses on the H200
// (docs/validation/h200-cub.md): fill, sequence and copies run
// cub::detail::for_each::static_kernel (256 threads, 2 items each, striped), transform
// runs cub::detail::transform::transform_kernel (256 threads, 1 item each).
namespace cub::detail::for_each {
template <class F> __global__ void static_kernel(F f, long long n) {
  for (int k = 0; k < 2; ++k) {
    const long long i = (long long)blockIdx.x * 512 + k * 256 + threadIdx.x;
    if (i < n) f(i);
  }
}
}  // namespace cub::detail::for_each
namespace cub::detail::transform {
template <class F> __global__ void transform_kernel(F f, long long n) {
  const long long i = (long long)blockIdx.x * 256 + threadIdx.x;
  if (i < n) f(i);
}
}  // namespace cub::detail::transform

// Sorts by a comparator radix sort cannot take (a user's functor, a struct's operator<):
// a stable merge sort, as CUDA 13's Thrust (cub::DeviceMergeSort) sorts them, so the
// order, equal keys included, is CUB's. simtlab's passes are its own: one
// DeviceMergeSortMergeKernel per doubling of the run width, each thread placing one
// item by a binary search in the neighbouring run (CUB merges tiles by merge-path
// partitions instead; the result is the same, the kernels and their counters are not).
namespace cub::detail::merge_sort {
template <class K, class V, class Comp>
__global__ void DeviceMergeSortMergeKernel(const K* keys_in, K* keys_out, const V* values_in, V* values_out, long long n,
                                           long long width, Comp comp) {
  const long long i = (long long)blockIdx.x * 256 + threadIdx.x;
  if (i >= n) return;
  Comp c = comp;  // a comparator's operator() need not be const
  const long long run = i / width, start = run * width;
  const bool left = run % 2 == 0;
  const long long other = left ? (start + width < n ? start + width : n) : start - width;
  const long long other_end = other + width < n ? other + width : n;
  const K key = keys_in[i];
  // Items of the other run that go first: those below the key (a left item goes before
  // equal right ones), or not above it (a right item goes after equal left ones).
  long long lo = other, hi = left ? other_end : other + width;
  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    const bool before = left ? bool(c(keys_in[mid], key)) : !bool(c(key, keys_in[mid]));
    if (before) lo = mid + 1;
    else hi = mid;
  }
  const long long pos = (left ? start : other) + (i - start) + (lo - other);
  keys_out[pos] = key;
  if constexpr (!std::is_same_v<V, ::cub::NullType>) values_out[pos] = values_in[i];
}
}  // namespace cub::detail::merge_sort

namespace thrust {
namespace detail {
template <class F> void for_each_index(F f, long long n) {
  if (n <= 0) return;
  check(cub::detail::device::launch(&cub::detail::for_each::static_kernel<F>, int((n + 511) / 512), 256, nullptr, f, n),
        "thrust: launch");
}
template <class F> void transform_index(F f, long long n) {
  if (n <= 0) return;
  check(cub::detail::device::launch(&cub::detail::transform::transform_kernel<F>, int((n + 255) / 256), 256, nullptr, f, n),
        "thrust: launch");
}

template <class Out, class T> struct FillOp {
  Out out;
  T value;
  __device__ void operator()(long long i) const { out[i] = value; }
};
template <class Out, class T> struct SequenceOp {
  Out out;
  T init, step;
  __device__ void operator()(long long i) const { out[i] = init + T(i) * step; }
};
// Functors are called as they are: an operator() need not be const (mutable members).
template <class In, class Out, class F> struct Transform1 {
  In in;
  Out out;
  mutable F f;
  __device__ void operator()(long long i) const { out[i] = f(in[i]); }
};
template <class In1, class In2, class Out, class F> struct Transform2 {
  In1 a;
  In2 b;
  Out out;
  mutable F f;
  __device__ void operator()(long long i) const { out[i] = f(a[i], b[i]); }
};
template <class In, class Out> struct CopyOp {
  In in;
  Out out;
  __device__ void operator()(long long i) const { out[i] = in[i]; }
};
template <class Out, class G> struct GenerateOp {  // each thread calls its own copy of the generator
  Out out;
  G gen;
  __device__ void operator()(long long i) const {
    G g = gen;
    out[i] = g();
  }
};
template <class It, class F> struct ForEachOp {
  It in;
  F f;
  __device__ void operator()(long long i) const {
    F g = f;
    g(in[i]);
  }
};
template <class Pred> struct CountOne {
  mutable Pred pred;
  template <class T> __device__ long long operator()(const T& x) const { return pred(x) ? 1 : 0; }
};
// One thread per run of equal keys folds its values left to right.
template <class Values, class Out, class Op> struct FoldRun {
  Values values;
  Out out;
  mutable Op op;
  const long long* starts;
  const long long* runs;
  long long n;
  __device__ void operator()(long long r) const {
    const long long count = *runs;
    if (r >= count) return;
    const long long end = r + 1 < count ? starts[r + 1] : n;
    auto acc = values[starts[r]];
    for (long long i = starts[r] + 1; i < end; ++i) acc = op(acc, values[i]);
    out[r] = acc;
  }
};

}  // namespace detail

// Each algorithm: a form with a policy, and one without that follows the iterators.
#define SIMT_THRUST_POLICY_FORMS(name)                                                                   \
  template <class It, class... A, std::enable_if_t<!std::is_base_of_v<detail::device_policy, std::decay_t<It>> && \
                                                        !std::is_base_of_v<detail::host_policy, std::decay_t<It>>, int> = 0> \
  auto name(It first, A&&... a) {                                                                      \
    return detail::name##_on<detail::no_policy>(first, std::forward<A>(a)...);                          \
  }                                                                                                    \
  template <class It, class... A> auto name(const detail::device_policy&, It first, A&&... a) {         \
    return detail::name##_on<detail::device_policy>(first, std::forward<A>(a)...);                      \
  }                                                                                                    \
  template <class It, class... A> auto name(const detail::host_policy&, It first, A&&... a) {           \
    return detail::name##_on<detail::host_policy>(first, std::forward<A>(a)...);                        \
  }

namespace detail {

template <class P, class It, class T> void fill_on(It first, It last, const T& value) {
  if constexpr (on_device_v<P, It>) for_each_index(FillOp<decltype(raw(first)), value_t<It>>{raw(first), value_t<It>(value)}, last - first);
  else std::fill(first, last, value);
}

template <class P, class It, class T = value_t<It>> void sequence_on(It first, It last, T init = T(0), T step = T(1)) {
  using V = value_t<It>;
  if constexpr (on_device_v<P, It>) for_each_index(SequenceOp<decltype(raw(first)), V>{raw(first), V(init), V(step)}, last - first);
  else for (V v = V(init); first != last; ++first, v = V(v + V(step))) *first = v;
}

template <class P, class It, class G> void generate_on(It first, It last, G gen) {
  if constexpr (on_device_v<P, It>) for_each_index(GenerateOp<decltype(raw(first)), G>{raw(first), gen}, last - first);
  else std::generate(first, last, gen);
}
template <class P, class It, class Size, class G> It generate_n_on(It first, Size n, G gen) {
  generate_on<P>(first, first + n, gen);
  return first + n;
}

template <class P, class It, class F> It for_each_on(It first, It last, F f) {
  if constexpr (on_device_v<P, It>) for_each_index(ForEachOp<decltype(raw(first)), F>{raw(first), f}, last - first);
  else std::for_each(first, last, f);
  return last;
}
template <class P, class It, class Size, class F> It for_each_n_on(It first, Size n, F f) {
  return for_each_on<P>(first, first + n, f);
}

template <class P, class In, class Out, class F> Out transform_on(In first, In last, Out out, F f) {
  if constexpr (on_device_v<P, In>) {
    transform_index(Transform1<decltype(raw(first)), decltype(raw(out)), F>{raw(first), raw(out), f}, last - first);
    return out + (last - first);
  } else {
    return std::transform(first, last, out, f);
  }
}
template <class P, class In1, class In2, class Out, class F> Out transform_on(In1 first, In1 last, In2 first2, Out out, F f) {
  if constexpr (on_device_v<P, In1>) {
    transform_index(Transform2<decltype(raw(first)), decltype(raw(first2)), decltype(raw(out)), F>{raw(first), raw(first2), raw(out), f},
                   last - first);
    return out + (last - first);
  } else {
    return std::transform(first, last, first2, out, f);
  }
}

template <class P, class In, class Out> Out copy_on(In first, In last, Out out) {
  const long long n = last - first;
  if constexpr (on_device_v<P, In> && (is_device_iterator_v<Out> || std::is_same_v<P, device_policy>)) {
    for_each_index(CopyOp<decltype(raw(first)), decltype(raw(out))>{raw(first), raw(out)}, n);
    return out + n;
  } else if constexpr (on_device_v<P, In>) {  // device to host
    using V = value_t<In>;
    if constexpr (is_contiguous_device_v<In> && std::is_pointer_v<Out>) {
      if (n) check(cudaMemcpy(out, raw(first), n * sizeof(V), cudaMemcpyDeviceToHost), "thrust::copy");
      return out + n;
    } else {  // through a host buffer (any host output), and a device one for a fancy input
      std::vector<V> h(n);
      if constexpr (is_contiguous_device_v<In>) {
        if (n) check(cudaMemcpy(h.data(), raw(first), n * sizeof(V), cudaMemcpyDeviceToHost), "thrust::copy");
      } else if (n) {
        DeviceBuffer<V> d(n);
        for_each_index(CopyOp<decltype(raw(first)), V*>{raw(first), d.p}, n);
        check(cudaMemcpy(h.data(), d.p, n * sizeof(V), cudaMemcpyDeviceToHost), "thrust::copy");
      }
      return std::copy(h.begin(), h.end(), out);
    }
  } else if constexpr (is_device_iterator_v<Out>) {  // host to device
    using V = value_t<Out>;
    std::vector<V> h(first, last);
    if constexpr (is_contiguous_device_v<Out>) {
      if (n) check(cudaMemcpy(raw(out), h.data(), n * sizeof(V), cudaMemcpyHostToDevice), "thrust::copy");
    } else if (n) {  // a fancy output: the values to a device buffer, then a kernel through it
      DeviceBuffer<V> d(n);
      check(cudaMemcpy(d.p, h.data(), n * sizeof(V), cudaMemcpyHostToDevice), "thrust::copy");
      for_each_index(CopyOp<V*, decltype(raw(out))>{d.p, raw(out)}, n);
    }
    return out + n;
  } else {
    return std::copy(first, last, out);
  }
}

template <class P, class It, class T = value_t<It>, class Op = ::cuda::std::plus<>> T reduce_on(It first, It last, T init = T(), Op op = {}) {
  if constexpr (on_device_v<P, It>) {
    DeviceScalar<T> out;
    with_temp_storage([&](void* t, std::size_t& b) { return cub::DeviceReduce::Reduce(t, b, raw(first), out.p, last - first, op, init); },
                      "thrust::reduce");
    return out.get();
  } else {
    return std::accumulate(first, last, init, op);
  }
}

template <class P, class It, class F, class T, class Op> T transform_reduce_on(It first, It last, F f, T init, Op op) {
  if constexpr (on_device_v<P, It>) {
    DeviceScalar<T> out;
    with_temp_storage([&](void* t, std::size_t& b) {
      return cub::DeviceReduce::TransformReduce(t, b, raw(first), out.p, last - first, op, f, init);
    }, "thrust::transform_reduce");
    return out.get();
  } else {
    T acc = init;
    for (; first != last; ++first) acc = op(acc, f(*first));
    return acc;
  }
}

template <class P, class It, class Pred> long long count_if_on(It first, It last, Pred pred) {
  return transform_reduce_on<P>(first, last, CountOne<Pred>{pred}, 0LL, ::cuda::std::plus<>{});
}
template <class T> struct EqualTo {
  T value;
  template <class U> __host__ __device__ bool operator()(const U& x) const { return x == value; }
};
template <class P, class It, class T> long long count_on(It first, It last, const T& value) {
  return count_if_on<P>(first, last, EqualTo<value_t<It>>{value_t<It>(value)});
}

template <class P, class It> It max_element_on(It first, It last) {
  if constexpr (on_device_v<P, It>) {
    if (first == last) return last;
    using V = value_t<It>;
    DeviceScalar<cub::KeyValuePair<int, V>> out;
    with_temp_storage([&](void* t, std::size_t& b) { return cub::DeviceReduce::ArgMax(t, b, raw(first), out.p, int(last - first)); },
                      "thrust::max_element");
    return first + out.get().key;
  } else {
    return std::max_element(first, last);
  }
}
template <class P, class It> It min_element_on(It first, It last) {
  if constexpr (on_device_v<P, It>) {
    if (first == last) return last;
    using V = value_t<It>;
    DeviceScalar<cub::KeyValuePair<int, V>> out;
    with_temp_storage([&](void* t, std::size_t& b) { return cub::DeviceReduce::ArgMin(t, b, raw(first), out.p, int(last - first)); },
                      "thrust::min_element");
    return first + out.get().key;
  } else {
    return std::min_element(first, last);
  }
}

// The merge sort's passes over contiguous device keys (and values), in place.
template <class K, class V, class Comp> void merge_sort_device(K* keys, V* values, long long n, Comp comp) {
  if (n < 2) return;
  DeviceBuffer<K> kb(n);
  DeviceBuffer<V> vb(std::is_same_v<V, ::cub::NullType> ? 1 : n);
  K* kin = keys;
  K* kout = kb.p;
  V* vin = values;
  V* vout = vb.p;
  for (long long width = 1; width < n; width *= 2) {
    check(cub::detail::device::launch(&cub::detail::merge_sort::DeviceMergeSortMergeKernel<K, V, Comp>, int((n + 255) / 256), 256,
                                      nullptr, (const K*)kin, kout, (const V*)vin, vout, n, width, comp),
          "thrust::sort");
    std::swap(kin, kout);
    std::swap(vin, vout);
  }
  if (kin != keys) {
    check(cudaMemcpy(keys, kin, n * sizeof(K), cudaMemcpyDeviceToDevice), "thrust::sort");
    if constexpr (!std::is_same_v<V, ::cub::NullType>)
      check(cudaMemcpy(values, vin, n * sizeof(V), cudaMemcpyDeviceToDevice), "thrust::sort");
  }
}

// Sorts: CUB's radix sort into a temporary buffer, then copied back (Thrust's radix
// path for arithmetic keys with less<> or greater<>). Stable.
template <class Comp, class K> inline constexpr bool descending_v =
    std::is_same_v<Comp, thrust::greater<>> || std::is_same_v<Comp, thrust::greater<K>> ||
    std::is_same_v<Comp, ::cuda::std::greater<>> || std::is_same_v<Comp, ::cuda::std::greater<K>>;
template <class Comp, class K> inline constexpr bool radix_comparator_v =
    descending_v<Comp, K> || std::is_same_v<Comp, thrust::less<>> || std::is_same_v<Comp, thrust::less<K>> ||
    std::is_same_v<Comp, ::cuda::std::less<>> || std::is_same_v<Comp, ::cuda::std::less<K>>;

template <class P, class It, class Comp = thrust::less<>> void sort_on(It first, It last, Comp comp = {}) {
  using K = value_t<It>;
  if constexpr (on_device_v<P, It> && !(std::is_arithmetic_v<K> && radix_comparator_v<Comp, K>)) {
    static_assert(is_contiguous_device_v<It>, "simtlab's thrust::sort by a comparator sorts device memory");
    merge_sort_device<K, ::cub::NullType>(raw(first), nullptr, last - first, comp);
  } else if constexpr (on_device_v<P, It>) {
    const long long n = last - first;
    DeviceBuffer<K> sorted(n);
    with_temp_storage([&](void* t, std::size_t& b) {
      constexpr bool down = descending_v<Comp, K>;
      return down ? cub::DeviceRadixSort::SortKeysDescending(t, b, raw(first), sorted.p, n)
                  : cub::DeviceRadixSort::SortKeys(t, b, raw(first), sorted.p, n);
    }, "thrust::sort");
    if (n) check(cudaMemcpy(raw(first), sorted.p, n * sizeof(K), cudaMemcpyDeviceToDevice), "thrust::sort");
  } else {
    std::stable_sort(first, last, comp);
  }
}
template <class P, class It, class Comp = thrust::less<>> void stable_sort_on(It first, It last, Comp comp = {}) {
  sort_on<P>(first, last, comp);
}

template <class P, class KIt, class VIt, class Comp = thrust::less<>> void sort_by_key_on(KIt kf, KIt kl, VIt vf, Comp comp = {}) {
  using K = value_t<KIt>;
  using V = value_t<VIt>;
  const long long n = kl - kf;
  if constexpr (on_device_v<P, KIt> && !(std::is_arithmetic_v<K> && radix_comparator_v<Comp, K>)) {
    static_assert(is_contiguous_device_v<KIt> && is_contiguous_device_v<VIt>,
                  "simtlab's thrust::sort_by_key by a comparator sorts device memory");
    merge_sort_device<K, V>(raw(kf), raw(vf), n, comp);
  } else if constexpr (on_device_v<P, KIt>) {
    DeviceBuffer<K> keys(n);
    DeviceBuffer<V> values(n);
    with_temp_storage([&](void* t, std::size_t& b) {
      constexpr bool down = descending_v<Comp, K>;
      return down ? cub::DeviceRadixSort::SortPairsDescending(t, b, raw(kf), keys.p, raw(vf), values.p, n)
                  : cub::DeviceRadixSort::SortPairs(t, b, raw(kf), keys.p, raw(vf), values.p, n);
    }, "thrust::sort_by_key");
    if (n) {
      check(cudaMemcpy(raw(kf), keys.p, n * sizeof(K), cudaMemcpyDeviceToDevice), "thrust::sort_by_key");
      check(cudaMemcpy(raw(vf), values.p, n * sizeof(V), cudaMemcpyDeviceToDevice), "thrust::sort_by_key");
    }
  } else {
    std::vector<long long> order(n);
    std::iota(order.begin(), order.end(), 0LL);
    std::stable_sort(order.begin(), order.end(), [&](long long a, long long b) { return comp(kf[a], kf[b]); });
    std::vector<K> k(n);
    std::vector<V> v(n);
    for (long long i = 0; i < n; ++i) { k[i] = kf[order[i]]; v[i] = vf[order[i]]; }
    std::copy(k.begin(), k.end(), kf);
    std::copy(v.begin(), v.end(), vf);
  }
}
template <class P, class KIt, class VIt, class Comp = thrust::less<>> void stable_sort_by_key_on(KIt kf, KIt kl, VIt vf, Comp comp = {}) {
  sort_by_key_on<P>(kf, kl, vf, comp);
}

template <class P, class In, class Out, class Op = ::cuda::std::plus<>> Out inclusive_scan_on(In first, In last, Out out, Op op = {}) {
  const long long n = last - first;
  if constexpr (on_device_v<P, In>) {
    with_temp_storage([&](void* t, std::size_t& b) { return cub::DeviceScan::InclusiveScan(t, b, raw(first), raw(out), op, n); },
                      "thrust::inclusive_scan");
    return out + n;
  } else {
    return std::inclusive_scan(first, last, out, op);
  }
}
template <class P, class In, class Out, class T = value_t<In>, class Op = ::cuda::std::plus<>>
Out exclusive_scan_on(In first, In last, Out out, T init = T(), Op op = {}) {
  const long long n = last - first;
  if constexpr (on_device_v<P, In>) {
    with_temp_storage([&](void* t, std::size_t& b) { return cub::DeviceScan::ExclusiveScan(t, b, raw(first), raw(out), op, init, n); },
                      "thrust::exclusive_scan");
    return out + n;
  } else {
    return std::exclusive_scan(first, last, out, init, op);
  }
}

// reduce_by_key: each run of equal consecutive keys gives its key and the fold of its
// values, left to right.
template <class P, class KIt, class VIt, class KOut, class VOut, class Pred = thrust::equal_to<>, class Op = ::cuda::std::plus<>>
pair<KOut, VOut> reduce_by_key_on(KIt kf, KIt kl, VIt vf, KOut ko, VOut vo, Pred = {}, Op op = {}) {
  const long long n = kl - kf;
  if constexpr (on_device_v<P, KIt>) {
    static_assert(std::is_same_v<Pred, thrust::equal_to<>> || std::is_same_v<Pred, thrust::equal_to<value_t<KIt>>> ||
                      std::is_same_v<Pred, ::cuda::std::equal_to<>> ||
                      std::is_same_v<Pred, ::cuda::std::equal_to<value_t<KIt>>>,
                  "simtlab's thrust::reduce_by_key compares keys with equal_to");
    if (n == 0) return {ko, vo};
    using namespace cub::detail::select;
    DeviceBuffer<long long> starts(n), runs(1);
    CopyItemAndPosition<decltype(raw(kf)), decltype(raw(ko))> write{raw(kf), raw(ko), starts.p};
    with_temp_storage([&](void* t, std::size_t& b) {
      Storage storage;
      if (cudaError_t e = plan(t, b, n, 0, storage); e || !t) return e;
      return run(storage, RunHeads<decltype(raw(kf))>{raw(kf)}, write, runs.p, n, nullptr);
    }, "thrust::reduce_by_key");
    for_each_index(FoldRun<decltype(raw(vf)), decltype(raw(vo)), Op>{raw(vf), raw(vo), op, starts.p, runs.p, n}, n);
    const long long count = read_back(runs.p);
    return {ko + count, vo + count};
  } else {
    long long r = -1;
    for (long long i = 0; i < n; ++i) {
      if (i == 0 || !(kf[i] == kf[i - 1])) { ++r; ko[r] = kf[i]; vo[r] = vf[i]; }
      else vo[r] = op(vo[r], vf[i]);
    }
    return {ko + (r + 1), vo + (r + 1)};
  }
}

}  // namespace detail

SIMT_THRUST_POLICY_FORMS(fill)
SIMT_THRUST_POLICY_FORMS(generate)
SIMT_THRUST_POLICY_FORMS(generate_n)
SIMT_THRUST_POLICY_FORMS(for_each)
SIMT_THRUST_POLICY_FORMS(for_each_n)
SIMT_THRUST_POLICY_FORMS(sequence)
SIMT_THRUST_POLICY_FORMS(transform)
SIMT_THRUST_POLICY_FORMS(copy)
SIMT_THRUST_POLICY_FORMS(reduce)
SIMT_THRUST_POLICY_FORMS(transform_reduce)
SIMT_THRUST_POLICY_FORMS(count_if)
SIMT_THRUST_POLICY_FORMS(count)
SIMT_THRUST_POLICY_FORMS(max_element)
SIMT_THRUST_POLICY_FORMS(min_element)
SIMT_THRUST_POLICY_FORMS(sort)
SIMT_THRUST_POLICY_FORMS(stable_sort)
SIMT_THRUST_POLICY_FORMS(sort_by_key)
SIMT_THRUST_POLICY_FORMS(stable_sort_by_key)
SIMT_THRUST_POLICY_FORMS(inclusive_scan)
SIMT_THRUST_POLICY_FORMS(exclusive_scan)
SIMT_THRUST_POLICY_FORMS(reduce_by_key)
// SIMT_THRUST_POLICY_FORMS stays defined for the other algorithm headers (gather.h ...).

}  // namespace thrust
