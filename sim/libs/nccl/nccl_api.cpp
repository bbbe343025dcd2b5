// NCCL's C API (sim/compiler/include/nccl.h) over the communicators of
// communicator.hpp: argument checks with NCCL's result codes, and the calls.
#include "sim/libs/nccl/nccl_api.h"

#include "sim/cuda/runtime.hpp"
#include "sim/exec/devices.hpp"
#include "sim/libs/nccl/communicator.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cstring>
#include <random>

struct ncclComm {
  std::shared_ptr<simt::nccl::Clique> clique;
  int rank = 0;
  int device = 0;
  bool finalized = false;
};

namespace {

using simt::nccl::Call;
using simt::nccl::DataType;
using simt::nccl::Func;
using simt::nccl::RedOp;

ncclResult_t refuse(ncclResult_t code, const std::string& message) {
  fmt::print(stderr, "simt: nccl: {}\n", message);
  return code;
}

ncclResult_t result(const simt::nccl::Outcome& o) { return static_cast<ncclResult_t>(o.code); }

std::string id_text(const ncclUniqueId& id) { return std::string(id.internal, sizeof id.internal); }

ncclResult_t init_rank(ncclComm_t* comm, int nranks, const ncclUniqueId& id, int rank) {
  if (!comm) return refuse(ncclInvalidArgument, "ncclCommInitRank: comm is null");
  if (nranks < 1) return refuse(ncclInvalidArgument, fmt::format("ncclCommInitRank: nranks {} < 1", nranks));
  std::string error;
  auto clique = simt::nccl::clique_for_id(id_text(id), nranks, error);
  if (error.empty()) error = simt::nccl::join(*clique, rank, simt::current_device());
  if (!error.empty()) return refuse(ncclInvalidArgument, "ncclCommInitRank: " + error);
  *comm = new ncclComm{clique, rank, simt::current_device()};
  simt::nccl::note_driven_by_this_thread(*clique, rank);
  return ncclSuccess;
}

ncclResult_t check_comm(ncclComm_t comm, const char* api) {
  if (!comm) return refuse(ncclInvalidArgument, fmt::format("{}: comm is null", api));
  if (comm->finalized) return refuse(ncclInvalidUsage, fmt::format("{}: the communicator was finalized", api));
  return ncclSuccess;
}

ncclResult_t issue(Func f, const void* send, void* recv, std::size_t count, ncclDataType_t type, int op, int root,
                   int peer, ncclComm_t comm, cudaStream_t stream) {
  const simt::RuntimeLock lock;
  const std::string api = simt::nccl::func_name(f);
  if (ncclResult_t e = check_comm(comm, api.c_str())) return e;
  if (!simt::nccl::valid_type(type)) return refuse(ncclInvalidArgument, fmt::format("{}: unknown datatype {}", api, int(type)));
  if (!simt::nccl::valid_op(op)) return refuse(ncclInvalidArgument, fmt::format("{}: unknown reduction op {}", api, op));
  Call c;
  c.func = f;
  c.send = send;
  c.recv = recv;
  c.count = count;
  c.type = static_cast<DataType>(type);
  c.op = static_cast<RedOp>(op);
  c.root = root;
  c.peer = peer;
  c.stream = stream;
  c.rank = comm->rank;
  c.clique = comm->clique;
  if (std::string why = simt::nccl::check_call(c, comm->device); !why.empty()) return refuse(ncclInvalidArgument, why);
  return result(simt::nccl::submit(std::move(c)));
}

}  // namespace

ncclResult_t ncclGetVersion(int* version) {
  if (!version) return ncclInvalidArgument;
  *version = NCCL_VERSION_CODE;
  return ncclSuccess;
}

// Unique within the process: a counter, and random bits so that two programs'
// ids differ too.
ncclResult_t ncclGetUniqueId(ncclUniqueId* id) {
  if (!id) return refuse(ncclInvalidArgument, "ncclGetUniqueId: uniqueId is null");
  static std::atomic<std::uint64_t> counter{0};
  static const std::uint64_t salt = std::random_device{}();
  std::memset(id->internal, 0, sizeof id->internal);
  const std::uint64_t words[2] = {++counter, salt};
  std::memcpy(id->internal, words, sizeof words);
  return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t* comm, int nranks, ncclUniqueId id, int rank) {
  const simt::RuntimeLock lock;
  return init_rank(comm, nranks, id, rank);
}

ncclResult_t ncclCommInitRankConfig(ncclComm_t* comm, int nranks, ncclUniqueId id, int rank, ncclConfig_t*) {
  const simt::RuntimeLock lock;
  return init_rank(comm, nranks, id, rank);
}

ncclResult_t ncclCommInitAll(ncclComm_t* comms, int ndev, const int* devlist) {
  const simt::RuntimeLock lock;
  if (!comms || ndev < 1) return refuse(ncclInvalidArgument, "ncclCommInitAll: comms is null or ndev < 1");
  auto clique = simt::nccl::new_clique(ndev);
  for (int r = 0; r < ndev; ++r) {
    const int device = devlist ? devlist[r] : r;
    if (!simt::valid_device(device))
      return refuse(ncclInvalidArgument,
                    fmt::format("ncclCommInitAll: GPU {} does not exist: the program has {} (simt exec --gpus N)",
                                device, simt::device_count()));
    if (std::string e = simt::nccl::join(*clique, r, device); !e.empty())
      return refuse(ncclInvalidArgument, "ncclCommInitAll: " + e);
  }
  for (int r = 0; r < ndev; ++r) {
    comms[r] = new ncclComm{clique, r, devlist ? devlist[r] : r};
    simt::nccl::note_driven_by_this_thread(*clique, r);
  }
  return ncclSuccess;
}

ncclResult_t ncclCommFinalize(ncclComm_t comm) {
  const simt::RuntimeLock lock;
  if (ncclResult_t e = check_comm(comm, "ncclCommFinalize")) return e;
  comm->finalized = true;
  return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  const simt::RuntimeLock lock;
  if (!comm) return refuse(ncclInvalidArgument, "ncclCommDestroy: comm is null");
  delete comm;
  return ncclSuccess;
}
ncclResult_t ncclCommAbort(ncclComm_t comm) { return ncclCommDestroy(comm); }

ncclResult_t ncclCommGetAsyncError(ncclComm_t comm, ncclResult_t* async_error) {
  if (!comm || !async_error) return ncclInvalidArgument;
  *async_error = ncclSuccess;
  return ncclSuccess;
}

ncclResult_t ncclCommCount(const ncclComm_t comm, int* count) {
  if (!comm || !count) return ncclInvalidArgument;
  *count = simt::nccl::clique_size(*comm->clique);
  return ncclSuccess;
}
ncclResult_t ncclCommCuDevice(const ncclComm_t comm, int* device) {
  if (!comm || !device) return ncclInvalidArgument;
  *device = comm->device;
  return ncclSuccess;
}
ncclResult_t ncclCommUserRank(const ncclComm_t comm, int* rank) {
  if (!comm || !rank) return ncclInvalidArgument;
  *rank = comm->rank;
  return ncclSuccess;
}

const char* ncclGetErrorString(ncclResult_t r) {
  switch (r) {
    case ncclSuccess: return "no error";
    case ncclUnhandledCudaError: return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
    case ncclSystemError: return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
    case ncclInternalError: return "internal error - please report this issue to the NCCL developers";
    case ncclInvalidArgument: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
    case ncclInvalidUsage: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
    case ncclRemoteError: return "remote process exited or there was a network error";
    case ncclInProgress: return "NCCL operation in progress";
    default: return "unknown result code";
  }
}

const char* ncclGetLastError(ncclComm_t) {
  thread_local std::string text;
  text = simt::nccl::last_error();
  return text.c_str();
}

ncclResult_t ncclGroupStart() {
  simt::nccl::group_start();
  return ncclSuccess;
}
ncclResult_t ncclGroupEnd() {
  const simt::RuntimeLock lock;
  return result(simt::nccl::group_end());
}

ncclResult_t ncclAllReduce(const void* sendbuff, void* recvbuff, std::size_t count, ncclDataType_t datatype,
                           ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream) {
  return issue(Func::all_reduce, sendbuff, recvbuff, count, datatype, op, 0, -1, comm, stream);
}
ncclResult_t ncclBroadcast(const void* sendbuff, void* recvbuff, std::size_t count, ncclDataType_t datatype, int root,
                           ncclComm_t comm, cudaStream_t stream) {
  return issue(Func::broadcast, sendbuff, recvbuff, count, datatype, ncclSum, root, -1, comm, stream);
}
ncclResult_t ncclBcast(void* buff, std::size_t count, ncclDataType_t datatype, int root, ncclComm_t comm,
                       cudaStream_t stream) {
  return ncclBroadcast(buff, buff, count, datatype, root, comm, stream);
}
ncclResult_t ncclReduce(const void* sendbuff, void* recvbuff, std::size_t count, ncclDataType_t datatype,
                        ncclRedOp_t op, int root, ncclComm_t comm, cudaStream_t stream) {
  return issue(Func::reduce, sendbuff, recvbuff, count, datatype, op, root, -1, comm, stream);
}
ncclResult_t ncclAllGather(const void* sendbuff, void* recvbuff, std::size_t sendcount, ncclDataType_t datatype,
                           ncclComm_t comm, cudaStream_t stream) {
  return issue(Func::all_gather, sendbuff, recvbuff, sendcount, datatype, ncclSum, 0, -1, comm, stream);
}
ncclResult_t ncclReduceScatter(const void* sendbuff, void* recvbuff, std::size_t recvcount, ncclDataType_t datatype,
                               ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream) {
  return issue(Func::reduce_scatter, sendbuff, recvbuff, recvcount, datatype, op, 0, -1, comm, stream);
}
ncclResult_t ncclSend(const void* sendbuff, std::size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream) {
  return issue(Func::send, sendbuff, nullptr, count, datatype, ncclSum, 0, peer, comm, stream);
}
ncclResult_t ncclRecv(void* recvbuff, std::size_t count, ncclDataType_t datatype, int peer, ncclComm_t comm,
                      cudaStream_t stream) {
  return issue(Func::recv, nullptr, recvbuff, count, datatype, ncclSum, 0, peer, comm, stream);
}
