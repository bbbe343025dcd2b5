// thrust/pair.h: thrust::pair is std::pair here.
#pragma once
#include <thrust/detail/algorithms.h>
