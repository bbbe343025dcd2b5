// simtlab's <cub/cub.cuh>: CUB's block and warp primitives, written by simtlab to
// CUDA 13's algorithms and combining orders (docs/frontend.md, "CUB").
#pragma once
#include "cub/block/block_exchange.cuh"
#include "cub/block/block_load.cuh"
#include "cub/block/block_radix_sort.cuh"
#include "cub/block/block_reduce.cuh"
#include "cub/block/block_scan.cuh"
#include "cub/block/block_store.cuh"
#include "cub/thread/thread_reduce.cuh"
#include "cub/warp/warp_reduce.cuh"
#include "cub/warp/warp_scan.cuh"
