// thrust/adjacent_difference.h: simtlab's Thrust algorithms (thrust/detail/algorithms_more.h).
#pragma once
#include <thrust/detail/algorithms_more.h>
