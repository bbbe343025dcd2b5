// thrust/sort.h: simtlab's Thrust sorts (thrust/detail/algorithms.h) and is_sorted (algorithms_more.h).
#pragma once
#include <thrust/detail/algorithms.h>
#include <thrust/detail/algorithms_more.h>
