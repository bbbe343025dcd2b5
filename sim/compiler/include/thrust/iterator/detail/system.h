// Where a Thrust algorithm runs, decided by its iterators as CUDA 13's Thrust decides it:
// a device_ptr (device_vector's iterator) is the device's, a raw pointer or a standard
// iterator the host's, and counting, constant and discard iterators any system's (they
// go with the others; alone, with the device). A fancy iterator over others takes their
// system. Iterators that name theirs carry `simt_thrust_system`.
#pragma once
#include <type_traits>

namespace thrust {
template <class T> class device_ptr;

namespace detail {

enum class system { host, device, any };

constexpr system combine(system a, system b) {
  if (a == system::any) return b;
  if (b == system::any) return a;
  return a == system::device || b == system::device ? system::device : system::host;
}

constexpr system operator|(system a, system b) { return combine(a, b); }

template <class It, class = void> struct system_of : std::integral_constant<system, system::host> {};
template <class T> struct system_of<device_ptr<T>> : std::integral_constant<system, system::device> {};
template <class It>
struct system_of<It, std::void_t<decltype(It::simt_thrust_system)>> : std::integral_constant<system, It::simt_thrust_system> {};
template <class It> inline constexpr system system_of_v = system_of<std::decay_t<It>>::value;

// The iterator as kernels take it: a device_ptr's raw pointer, a fancy iterator with its
// inner device_ptrs made raw (its `device_view()`), anything else as it is.
template <class T> __host__ __device__ T* device_view(device_ptr<T> p) { return p.get(); }
template <class It> __host__ __device__ auto device_view(const It& it) {
  if constexpr (requires { it.device_view(); }) return it.device_view();
  else return it;
}

}  // namespace detail
}  // namespace thrust
