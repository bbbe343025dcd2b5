// thrust::host_vector: std::vector (a device_vector converts to and from it).
#pragma once
#include <vector>

namespace thrust {
template <class T, class Alloc = std::allocator<T>> using host_vector = std::vector<T, Alloc>;
}
