// thrust::device and thrust::host: which side an algorithm runs on when its iterators
// are raw pointers (a raw pointer is a host iterator unless thrust::device says not).
#pragma once

namespace thrust {
namespace detail {
struct device_policy {};
struct host_policy {};
}  // namespace detail
inline constexpr detail::device_policy device{};
inline constexpr detail::host_policy host{};
namespace cuda {
inline constexpr detail::device_policy par{};
}
}  // namespace thrust
