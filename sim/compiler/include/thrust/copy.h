// thrust/copy.h: copy (thrust/detail/algorithms.h) and copy_if (thrust/detail/algorithms_more.h).
#pragma once
#include <thrust/detail/algorithms.h>
#include <thrust/detail/algorithms_more.h>
