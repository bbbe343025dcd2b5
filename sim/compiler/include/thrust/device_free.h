// thrust/device_free.h: device_free (thrust/device_malloc.h).
#pragma once
#include <thrust/device_malloc.h>
