// simtlab's <nccl.h>: NCCL's API over the simulated GPUs of one program
// (`simt exec --gpus N`). Data really moves between the devices' memories, reduced
// in the order of NCCL's ring (sim/libs/nccl/ring_order.hpp), and every call is
// put on the simulated clock of each rank's stream, priced by the collective
// model calibrated on two H200s (cost/comm/nccl_model.hpp). docs/multi-gpu.md
// says what is modelled and what is not.
//
// The bootstraps NCCL offers in one process work: ncclCommInitAll, and
// ncclCommInitRank for every rank between ncclGroupStart/ncclGroupEnd or from one
// host thread per rank. A thread that drives several ranks must group their calls,
// as NCCL requires; simtlab says so instead of hanging.
#pragma once
#include "cuda_runtime.h"
#include "sim/libs/nccl/nccl_api.h"
