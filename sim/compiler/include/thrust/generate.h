// thrust/generate.h: simtlab's Thrust algorithms (thrust/detail/algorithms.h).
#pragma once
#include <thrust/detail/algorithms.h>
