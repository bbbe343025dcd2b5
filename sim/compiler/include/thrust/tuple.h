// thrust/tuple.h: thrust::tuple is cuda::std::tuple, as in CUDA 13 (<cuda/std/tuple>).
#pragma once
#include <cuda/std/tuple>

namespace thrust {
using ::cuda::std::get;
using ::cuda::std::make_tuple;
using ::cuda::std::tie;
using ::cuda::std::tuple;
using ::cuda::std::tuple_element;
using ::cuda::std::tuple_size;
}  // namespace thrust
