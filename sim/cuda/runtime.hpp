// The subset of the CUDA runtime API a course program's host code uses, on the
// simulated device. Error codes and messages are CUDA's.
#pragma once
#include "sim/types/cuda_errors.hpp"
#include "sim/types/vector_types.hpp"

#include <cstddef>

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };

enum cudaMemoryType {
  cudaMemoryTypeUnregistered = 0,
  cudaMemoryTypeHost = 1,
  cudaMemoryTypeDevice = 2,
  cudaMemoryTypeManaged = 3,
};
struct cudaPointerAttributes {
  cudaMemoryType type;
  int device;
  void* devicePointer;
  void* hostPointer;
  long reserved[8];
};

struct CUstream_st;
using cudaStream_t = CUstream_st*;
struct CUevent_st;
using cudaEvent_t = CUevent_st*;

struct cudaDeviceProp {
  char name[256];
  std::size_t totalGlobalMem;
  std::size_t sharedMemPerBlock;
  std::size_t sharedMemPerBlockOptin;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int multiProcessorCount;
  int major, minor;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  int regsPerMultiprocessor;
  std::size_t sharedMemPerMultiprocessor;
  int clockRate;  // kHz
};

cudaError_t cudaMalloc(void** ptr, std::size_t bytes);
template <class T> cudaError_t cudaMalloc(T** ptr, std::size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
}
cudaError_t cudaFree(void* ptr);
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr);
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes);
template <class T> cudaError_t cudaMallocHost(T** ptr, std::size_t bytes) {
  return cudaMallocHost(reinterpret_cast<void**>(ptr), bytes);
}
cudaError_t cudaFreeHost(void* ptr);
// The device address of page-locked memory: the same pointer (one address space).
cudaError_t cudaHostGetDevicePointer(void** device_ptr, void* host_ptr, unsigned flags);
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* dst, int value, std::size_t bytes);
cudaError_t cudaMemsetAsync(void* dst, int value, std::size_t bytes, cudaStream_t stream = nullptr);
enum { cudaMemAttachGlobal = 1, cudaMemAttachHost = 2 };
// Managed memory is device memory the host may also touch; its presence turns
// off the skipping of repeated launches (sim/shortcuts/repeat_launch.hpp).
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal);
template <class T> cudaError_t cudaMallocManaged(T** ptr, std::size_t bytes, unsigned flags = cudaMemAttachGlobal) {
  return cudaMallocManaged(reinterpret_cast<void**>(ptr), bytes, flags);
}
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaDeviceReset();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorString(cudaError_t e);
const char* cudaGetErrorName(cudaError_t e);
cudaError_t cudaGetDeviceCount(int* n);
cudaError_t cudaSetDevice(int d);
cudaError_t cudaGetDevice(int* d);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device);
// Free and total device memory of the current GPU: total is totalGlobalMem; what the
// program's allocations and the device heap take is not free.
cudaError_t cudaMemGetInfo(std::size_t* free, std::size_t* total);
enum cudaLimit {
  cudaLimitStackSize = 0,
  cudaLimitPrintfFifoSize = 1,
  cudaLimitMallocHeapSize = 2,
  cudaLimitDevRuntimeSyncDepth = 3,
  cudaLimitDevRuntimePendingLaunchCount = 4,
  cudaLimitMaxL2FetchGranularity = 5,
  cudaLimitPersistingL2CacheSize = 6,
};
// The device heap's size (sim/memory/device_heap.hpp) is the limit that changes
// what a kernel gets; the others are kept and reported as CUDA 13 reports them.
cudaError_t cudaDeviceGetLimit(std::size_t* value, cudaLimit limit);
cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value);
// Several simulated GPUs (`simt exec --gpus N`): GPUs of one node reach each other's
// memory once peer access is enabled; copies between them go over the node's link.
cudaError_t cudaDeviceCanAccessPeer(int* can_access, int device, int peer_device);
cudaError_t cudaDeviceEnablePeerAccess(int peer_device, unsigned flags);
cudaError_t cudaDeviceDisablePeerAccess(int peer_device);
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes);
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, std::size_t bytes,
                                cudaStream_t stream = nullptr);
// Streams and events run on the simulated clock (sim/clock/device_clock.hpp).
enum { cudaStreamDefault = 0, cudaStreamNonBlocking = 1 };
enum { cudaEventDefault = 0, cudaEventBlockingSync = 1, cudaEventDisableTiming = 2 };
cudaError_t cudaStreamCreate(cudaStream_t* s);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* s, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags = 0);
cudaError_t cudaStreamQuery(cudaStream_t s);
cudaError_t cudaEventCreate(cudaEvent_t* e);
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* e, unsigned flags);
cudaError_t cudaEventQuery(cudaEvent_t e);
cudaError_t cudaEventDestroy(cudaEvent_t e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaFuncSetAttributeImpl(const void* fn, cudaFuncAttribute attr, int value);
template <class F> cudaError_t cudaFuncSetAttribute(F* fn, cudaFuncAttribute attr, int value) {
  return cudaFuncSetAttributeImpl(reinterpret_cast<const void*>(fn), attr, value);
}
// Blocks of `fn` with `block_size` threads and `dynamic_shared` bytes one SM holds at
// once: threads, shared memory (static + dynamic) and blocks per SM; registers are
// not known to the simulator and never limit (sim/exec/launch_checks.cpp).
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorImpl(int* blocks, const void* fn, int block_size,
                                                             std::size_t dynamic_shared);
template <class F>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, F* fn, int block_size,
                                                          std::size_t dynamic_shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorImpl(blocks, reinterpret_cast<const void*>(fn), block_size,
                                                          dynamic_shared);
}

#include "sim/exec/host_lock.hpp"

#include <mutex>

namespace simt {
// Every runtime call and launch holds this while it runs: programs whose host
// threads drive GPUs at once are served one call at a time (the simulator's
// singletons are not shared otherwise), except that launches on different GPUs run
// their blocks at the same time (sim/exec/host_lock.hpp). Recursive: a call may run
// deferred launches. A launch takes it as RuntimeLock(RuntimeLock::Launch).
using RuntimeLock = HostLock;
std::recursive_mutex& runtime_mutex();
// The simulated GPU a stream belongs to (the legacy stream: the current device);
// -1 for a stream that was never created or was destroyed.
int stream_device(const void* stream);
// Called after every launch with its cudaError_t and stream: reports faults to
// stderr when enabled and puts the launch on the simulated clock.
void note_launch_result(int error, const void* stream);
// What cudaGetLastError reports next on the calling thread, when error is not 0: the
// error of a launch its batch ran on another thread (sim/cuda/launch_batch.hpp).
void record_launch_error(int error);
// Why a launch on `stream` cannot run, also kept for cudaGetLastError: the device's
// sticky error after a fault, or cudaErrorInvalidResourceHandle for a stream that was
// never created or was destroyed; 0 when it may run.
int launch_refusal(const void* stream);
// The host wrote memory kernels may read without going through a copy the
// runtime sees (cudaMemcpyToSymbol): the next launch is never a skipped repeat.
void note_untracked_host_write();
// Where the runtime reads or writes the bytes of p: the host mapping of a device
// address (the device view is guarded in programs built by the compiler front end,
// sim/memory/global_memory.hpp), any other address itself.
const void* runtime_view(const void* p);
inline void* runtime_view(void* p) { return const_cast<void*>(runtime_view(static_cast<const void*>(p))); }
void set_report_faults(bool on);  // default on: a failing launch prints its diagnostic
// Clears the current device's sticky error (an illegal address, a device assert)
// without cudaDeviceReset's freeing of every allocation: for harnesses that plant
// many faults in one process, as simtlab's own tests do. Programs call cudaDeviceReset.
void forget_sticky_error();
}  // namespace simt
