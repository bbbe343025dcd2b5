// thrust/scan.h: simtlab's Thrust scans (thrust/detail/algorithms.h; by key: algorithms_more.h).
#pragma once
#include <thrust/detail/algorithms.h>
#include <thrust/detail/algorithms_more.h>
