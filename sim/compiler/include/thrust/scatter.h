// thrust/scatter.h: scatter and scatter_if (thrust/gather.h).
#pragma once
#include <thrust/gather.h>
