#include "sim/cuda/runtime.hpp"

#include "sim/exec/executor.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/report/launch_record.hpp"
#include "sim/report/report.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

namespace {

cudaError_t g_last_error = cudaSuccess;     // what cudaGetLastError reports
cudaError_t g_pending_fault = cudaSuccess;  // a kernel fault, reported by the next synchronising call
bool g_report_faults = true;
std::map<const void*, std::size_t> g_dynamic_shared_limits;

cudaError_t record(cudaError_t e) {
  if (e != cudaSuccess) g_last_error = e;
  return e;
}

// A fault surfaces at the next synchronising call, as on the GPU.
cudaError_t take_fault() {
  cudaError_t e = g_pending_fault;
  g_pending_fault = cudaSuccess;
  return e;
}

bool is_device_range(const void* p, std::size_t bytes) {
  return simt::GlobalMemory::instance().find(reinterpret_cast<std::uintptr_t>(p), bytes) != nullptr;
}
bool is_device_pointer(const void* p) {
  return simt::GlobalMemory::instance().contains(reinterpret_cast<std::uintptr_t>(p));
}

}  // namespace

namespace simt {

void note_launch_result(int error) {
  const LaunchRecord& rec = launch_records().back();
  if (error == 0) {
    if (g_report_faults)  // warnings: the launch succeeded
      for (const Diagnostic& d : rec.diagnostics) fmt::print(stderr, "{}\n", format_diagnostic(d));
    return;
  }
  if (g_report_faults)
    for (const Diagnostic& d : rec.diagnostics) fmt::print(stderr, "{}\n", format_diagnostic(d));
  if (error == cudaErrorInvalidConfiguration || error == cudaErrorInvalidValue) {
    g_last_error = static_cast<cudaError_t>(error);  // a launch error: reported by cudaGetLastError
  } else {
    g_pending_fault = static_cast<cudaError_t>(error);
    g_last_error = static_cast<cudaError_t>(error);
  }
}

void set_report_faults(bool on) { g_report_faults = on; }

std::size_t dynamic_shared_limit(const void* fn) {
  auto it = g_dynamic_shared_limits.find(fn);
  return it == g_dynamic_shared_limits.end() ? 0 : it->second;
}

}  // namespace simt

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) {
  if (!ptr) return record(cudaErrorInvalidValue);
  void* p = simt::GlobalMemory::instance().allocate(bytes);
  if (!p || simt::GlobalMemory::instance().bytes_in_use() > simt::device_limits().global_memory_bytes) {
    if (p) simt::GlobalMemory::instance().release(p);
    *ptr = nullptr;
    return record(cudaErrorMemoryAllocation);
  }
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFree(void* ptr) {
  if (!ptr) return cudaSuccess;
  return simt::GlobalMemory::instance().release(ptr) ? cudaSuccess : record(cudaErrorInvalidDevicePointer);
}

cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) {
  *ptr = std::malloc(bytes ? bytes : 1);
  return *ptr ? cudaSuccess : record(cudaErrorMemoryAllocation);
}
cudaError_t cudaFreeHost(void* ptr) {
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (cudaError_t f = take_fault()) return record(f);
  if (bytes == 0) return cudaSuccess;
  if (!dst || !src) return record(cudaErrorInvalidValue);
  bool dst_dev = is_device_pointer(dst), src_dev = is_device_pointer(src);
  switch (kind) {
    case cudaMemcpyHostToDevice: if (!dst_dev || src_dev) return record(cudaErrorInvalidValue); break;
    case cudaMemcpyDeviceToHost: if (dst_dev || !src_dev) return record(cudaErrorInvalidValue); break;
    case cudaMemcpyDeviceToDevice: if (!dst_dev || !src_dev) return record(cudaErrorInvalidValue); break;
    case cudaMemcpyHostToHost: if (dst_dev || src_dev) return record(cudaErrorInvalidValue); break;
    case cudaMemcpyDefault: break;
    default: return record(cudaErrorInvalidMemcpyDirection);
  }
  if ((dst_dev && !is_device_range(dst, bytes)) || (src_dev && !is_device_range(src, bytes)))
    return record(cudaErrorInvalidValue);  // past the end of the allocation
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t cudaMemset(void* dst, int value, std::size_t bytes) {
  if (!is_device_range(dst, bytes)) return record(cudaErrorInvalidValue);
  std::memset(dst, value, bytes);
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() { return record(take_fault()); }
cudaError_t cudaDeviceReset() {
  g_pending_fault = g_last_error = cudaSuccess;
  return cudaSuccess;
}
cudaError_t cudaGetLastError() {
  cudaError_t e = g_last_error;
  g_last_error = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() { return g_last_error; }

const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
    case cudaErrorAssert: return "device-side assert triggered";
    case cudaErrorMisalignedAddress: return "misaligned address";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
  }
  return "unrecognized error code";
}

const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
    case cudaErrorAssert: return "cudaErrorAssert";
    case cudaErrorMisalignedAddress: return "cudaErrorMisalignedAddress";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
  }
  return "cudaErrorUnknown";
}

cudaError_t cudaGetDeviceCount(int* n) {
  *n = 1;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int d) { return d == 0 ? cudaSuccess : record(cudaErrorInvalidDevice); }
cudaError_t cudaGetDevice(int* d) {
  *d = 0;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
  if (device != 0 || !p) return record(cudaErrorInvalidDevice);
  const simt::DeviceLimits& d = simt::device_limits();
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "simtlab simulated %s", d.name.c_str());
  p->totalGlobalMem = d.global_memory_bytes;
  p->sharedMemPerBlock = d.shared_per_block;
  p->sharedMemPerBlockOptin = d.shared_per_block_optin;
  p->regsPerBlock = 65536;
  p->warpSize = 32;
  p->maxThreadsPerBlock = static_cast<int>(d.max_threads_per_block);
  p->maxThreadsDim[0] = static_cast<int>(d.max_block_dim_x);
  p->maxThreadsDim[1] = static_cast<int>(d.max_block_dim_y);
  p->maxThreadsDim[2] = static_cast<int>(d.max_block_dim_z);
  p->maxGridSize[0] = static_cast<int>(d.max_grid_dim_x);
  p->maxGridSize[1] = static_cast<int>(d.max_grid_dim_y);
  p->maxGridSize[2] = static_cast<int>(d.max_grid_dim_z);
  p->multiProcessorCount = static_cast<int>(d.sm_count);
  p->major = d.cc_major;
  p->minor = d.cc_minor;
  p->maxThreadsPerMultiProcessor = static_cast<int>(d.max_threads_per_sm);
  p->regsPerMultiprocessor = static_cast<int>(d.registers_per_sm);
  p->sharedMemPerMultiprocessor = d.shared_per_sm;
  p->clockRate = static_cast<int>(d.clock_khz);
  p->l2CacheSize = static_cast<int>(d.l2_bytes);
  return cudaSuccess;
}

// Streams only order work; every launch here completes before the call returns.
cudaError_t cudaStreamCreate(cudaStream_t* s) {
  *s = reinterpret_cast<cudaStream_t>(new char(0));
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t s) {
  delete reinterpret_cast<char*>(s);
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) { return record(take_fault()); }

// Events measure host wall-clock time of the simulation, not GPU time; the
// roofline model (`simt run`) gives the estimated GPU time.
struct CUevent_st {
  std::chrono::steady_clock::time_point t;
};
cudaError_t cudaEventCreate(cudaEvent_t* e) {
  *e = new CUevent_st{};
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete e;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) {
  e->t = std::chrono::steady_clock::now();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = std::chrono::duration<float, std::milli>(b->t - a->t).count();
  return cudaSuccess;
}

cudaError_t cudaFuncSetAttributeImpl(const void* fn, cudaFuncAttribute attr, int value) {
  if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize || value < 0 ||
      std::size_t(value) > simt::device_limits().shared_per_block_optin)
    return record(cudaErrorInvalidValue);
  g_dynamic_shared_limits[fn] = static_cast<std::size_t>(value);
  return cudaSuccess;
}
