// simtlab's <cub/cub.cuh>: CUB's block and warp primitives and its device-wide
// algorithms, written by simtlab to CUDA 13's algorithms and combining orders
// (docs/frontend.md, "CUB").
#pragma once
#include "cub/block/block_exchange.cuh"
#include "cub/block/block_load.cuh"
#include "cub/block/block_radix_sort.cuh"
#include "cub/block/block_reduce.cuh"
#include "cub/block/block_scan.cuh"
#include "cub/block/block_store.cuh"
#include "cub/device/device_histogram.cuh"
#include "cub/device/device_radix_sort.cuh"
#include "cub/device/device_reduce.cuh"
#include "cub/device/device_run_length_encode.cuh"
#include "cub/device/device_scan.cuh"
#include "cub/device/device_segmented_reduce.cuh"
#include "cub/device/device_select.cuh"
#include "cub/thread/thread_reduce.cuh"
#include "cub/util_key_value.cuh"
#include "cub/warp/warp_reduce.cuh"
#include "cub/warp/warp_scan.cuh"
