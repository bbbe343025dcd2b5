// Runtime calls of real programs that the simulator answers on the host
// (docs/frontend.md): symbols of __constant__ data are host memory here.
#pragma once
#include "sim/cuda/runtime.hpp"

#include <cstring>

template <class T>
cudaError_t cudaMemcpyToSymbol(T& symbol, const void* src, std::size_t count, std::size_t offset = 0,
                               cudaMemcpyKind = cudaMemcpyHostToDevice) {
  if (offset + count > sizeof(T)) return cudaErrorInvalidValue;
  simt::note_untracked_host_write();  // kernels read it: no launch after this is a skipped repeat
  std::memcpy(reinterpret_cast<char*>(&symbol) + offset, simt::runtime_view(src), count);  // src may be device memory
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t count, std::size_t offset = 0,
                                 cudaMemcpyKind = cudaMemcpyDeviceToHost) {
  if (offset + count > sizeof(T)) return cudaErrorInvalidValue;
  std::memcpy(simt::runtime_view(dst), reinterpret_cast<const char*>(&symbol) + offset, count);
  return cudaSuccess;
}

// ---- Calls real programs make that follow from the ones the runtime has.
// Streams, events, cudaMemsetAsync and cudaMallocManaged: sim/cuda/runtime.hpp.
// Page-locked memory is mapped into every GPU's address space and reachable from all
// of them (as with UVA): the flags CUDA takes are accepted and change nothing.
enum { cudaHostAllocDefault = 0, cudaHostAllocPortable = 1, cudaHostAllocMapped = 2, cudaHostAllocWriteCombined = 4 };
inline cudaError_t cudaHostAlloc(void** p, std::size_t n, unsigned flags) {
  if (flags > 7) return cudaErrorInvalidValue;
  return cudaMallocHost(p, n);
}
template <class T> cudaError_t cudaHostAlloc(T** p, std::size_t n, unsigned flags) {
  return cudaHostAlloc(reinterpret_cast<void**>(p), n, flags);
}
template <class T> cudaError_t cudaHostGetDevicePointer(T** device_ptr, void* host_ptr, unsigned flags) {
  return cudaHostGetDevicePointer(reinterpret_cast<void**>(device_ptr), host_ptr, flags);
}
// Device flags (scheduling, cudaDeviceMapHost): a simulated GPU always maps host
// memory, and how the host waits does not change what it computes.
enum {
  cudaDeviceScheduleAuto = 0, cudaDeviceScheduleSpin = 1, cudaDeviceScheduleYield = 2,
  cudaDeviceScheduleBlockingSync = 4, cudaDeviceBlockingSync = 4, cudaDeviceMapHost = 8,
  cudaDeviceLmemResizeToMax = 16,
};
inline cudaError_t cudaSetDeviceFlags(unsigned flags) { return flags > 31 ? cudaErrorInvalidValue : cudaSuccess; }
inline cudaError_t cudaGetDeviceFlags(unsigned* flags) {
  if (!flags) return cudaErrorInvalidValue;
  *flags = cudaDeviceMapHost;
  return cudaSuccess;
}
// Stream-ordered allocation (CUDA 11.2): memory usable by the work enqueued on the
// stream after the call. simtlab runs a stream's work in order as it is enqueued, so a
// plain allocation now (on the current device) and a plain free give the stream what it
// would see. Memory pools (cudaMemPool*, cudaMallocFromPoolAsync) are not provided.
inline cudaError_t cudaMallocAsync(void** p, std::size_t n, cudaStream_t) { return cudaMalloc(p, n); }
template <class T> cudaError_t cudaMallocAsync(T** p, std::size_t n, cudaStream_t stream) {
  return cudaMallocAsync(reinterpret_cast<void**>(p), n, stream);
}
inline cudaError_t cudaFreeAsync(void* p, cudaStream_t) { return cudaFree(p); }
inline cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width,
                                std::size_t height, cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch) return cudaErrorInvalidValue;
  for (std::size_t r = 0; r < height; ++r) {
    cudaError_t e = cudaMemcpy(static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch,
                               width, kind);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
inline cudaError_t cudaProfilerStart() { return cudaSuccess; }
inline cudaError_t cudaProfilerStop() { return cudaSuccess; }

// How many host threads may use a device (CUDA's values). A simulated device is in
// the default mode: any number of threads and processes.
enum cudaComputeMode {
  cudaComputeModeDefault = 0,
  cudaComputeModeExclusive = 1,
  cudaComputeModeProhibited = 2,
  cudaComputeModeExclusiveProcess = 3,
};

// The attributes real programs ask for, from the simulated device's properties.
// CUDA 13 dropped clockRate and computeMode from cudaDeviceProp, so code asks here
// (NVIDIA's samples' helper_cuda.h picks its device with ClockRate, ComputeMode and
// Integrated).
enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrClockRate = 13,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrIntegrated = 18,
  cudaDevAttrComputeMode = 20,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrCooperativeLaunch = 95,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
};
inline cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  cudaDeviceProp p;
  if (cudaError_t e = cudaGetDeviceProperties(&p, device); e != cudaSuccess) return e;
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = int(p.sharedMemPerBlock); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrClockRate: *value = p.clockRate; break;  // kHz
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrIntegrated: *value = 0; break;  // the simulated GPUs are discrete
    case cudaDevAttrComputeMode: *value = cudaComputeModeDefault; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = int(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrCooperativeLaunch: *value = 1; break;  // cudaLaunchCooperativeKernel runs grid.sync()
    default: return cudaErrorInvalidValue;  // not simulated: an error, never a made-up number
  }
  return cudaSuccess;
}
