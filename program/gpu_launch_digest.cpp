// The GPU side of `simt validate`: preloaded (LD_PRELOAD) into a program built by
// nvcc with `-cudart shared`, it follows cudaMalloc/cudaFree and, after every kernel
// launch, synchronises and writes a digest of every live allocation to the file of
// the option validate_digests, in the format of sim/exec/launch_digest.hpp, and,
// with validate_dump_dir, the bytes of the allocations that changed
// (sim/exec/launch_dump.hpp, shared with the simulator's writer). Its options
// come from $SIMT_OPTIONS, like the simulator's (sim/options/options.hpp). Built on the GPU
// machine by program/validate_gpu.sh (-I the tree's root, for that header);
// not part of simtlab's build.
#include "sim/exec/launch_dump.hpp"

#include <cuda_runtime_api.h>
#include <cxxabi.h>
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace {

struct Live {
  std::uint64_t id;
  void* ptr;
  std::size_t bytes;
};

std::mutex g_mutex;
std::vector<Live> g_live;
std::map<cudaKernel_t, const void*> g_kernel_functions;  // CUDA 13 launches by handle
std::uint64_t g_next_id = 0;
unsigned g_launch = 0;

template <class F>
F real(const char* name) {
  void* f = dlsym(RTLD_NEXT, name);
  if (!f) {
    std::fprintf(stderr, "gpu_launch_digest: %s not found (build the program with -cudart shared)\n", name);
    std::abort();
  }
  return reinterpret_cast<F>(f);
}

// "void matmul<16>(float const*, ...)" -> "matmul<16>": the simulator's spelling.
std::string kernel_name(const void* func) {
  const char* mangled = nullptr;
  if (!func || cudaFuncGetName(&mangled, func) != cudaSuccess || !mangled) return "?";
  int status = 0;
  char* plain = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  std::string name = status == 0 && plain ? plain : mangled;
  std::free(plain);
  if (name.rfind("void ", 0) == 0) name.erase(0, 5);  // templates demangle with their return type
  int depth = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    if (name[i] == '(' && depth == 0) return name.substr(0, i);
  }
  return name;
}

void track(void* p, std::size_t bytes) {
  std::lock_guard lock(g_mutex);
  g_live.push_back({++g_next_id, p, bytes});
}

cudaError_t after_launch(const void* func, cudaError_t launched) {
  static const simt::Options options = simt::options_from_environment();
  const std::string& path = options.validate_digests;
  cudaError_t status = launched != cudaSuccess ? launched : cudaDeviceSynchronize();
  static simt::validate_dump::LaunchDump dump(options);  // validate_dump_dir
  if (path.empty() && !dump.enabled()) return launched;
  std::lock_guard lock(g_mutex);
  const unsigned launch = ++g_launch;
  std::FILE* f = path.empty() ? nullptr : std::fopen(path.c_str(), launch == 1 ? "w" : "a");
  if (f) std::fprintf(f, "launch %u error %d kernel %s\n", launch, int(status), kernel_name(func).c_str());
  std::vector<unsigned char> host;
  for (const Live& a : g_live) {
    host.resize(a.bytes);
    if (a.bytes && cudaMemcpy(host.data(), a.ptr, a.bytes, cudaMemcpyDeviceToHost) != cudaSuccess) continue;
    const std::uint64_t hash = simt::validate_dump::fnv1a(host.data(), a.bytes);
    if (f)
      std::fprintf(f, "alloc %llu %zu %016llx\n", static_cast<unsigned long long>(a.id), a.bytes,
                   static_cast<unsigned long long>(hash));
    dump.allocation(launch, a.id, host.data(), a.bytes, hash);
  }
  if (f) std::fclose(f);
  return launched;
}

}  // namespace

extern "C" {

cudaError_t cudaMalloc(void** p, size_t bytes) {
  static auto f = real<cudaError_t (*)(void**, size_t)>("cudaMalloc");
  cudaError_t e = f(p, bytes);
  if (e == cudaSuccess) track(*p, bytes);
  return e;
}

cudaError_t cudaMallocManaged(void** p, size_t bytes, unsigned int flags) {
  static auto f = real<cudaError_t (*)(void**, size_t, unsigned int)>("cudaMallocManaged");
  cudaError_t e = f(p, bytes, flags);
  if (e == cudaSuccess) track(*p, bytes);
  return e;
}

cudaError_t cudaFree(void* p) {
  static auto f = real<cudaError_t (*)(void*)>("cudaFree");
  {
    std::lock_guard lock(g_mutex);
    for (std::size_t i = 0; i < g_live.size(); ++i)
      if (g_live[i].ptr == p) {
        g_live.erase(g_live.begin() + i);
        break;
      }
  }
  return f(p);
}

cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                             cudaStream_t stream) {
  static auto f = real<cudaError_t (*)(const void*, dim3, dim3, void**, size_t, cudaStream_t)>("cudaLaunchKernel");
  return after_launch(func, f(func, grid, block, args, shared, stream));
}

// CUDA 13's `<<<...>>>` (crt/host_runtime.h): the stub looks its kernel's handle up
// once with __cudaGetKernel, then launches through __cudaLaunchKernel.
cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* func) {
  static auto f = real<cudaError_t (*)(cudaKernel_t*, const void*)>("__cudaGetKernel");
  cudaError_t e = f(kernel, func);
  if (e == cudaSuccess) {
    std::lock_guard lock(g_mutex);
    g_kernel_functions[*kernel] = func;
  }
  return e;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                               cudaStream_t stream) {
  static auto f = real<cudaError_t (*)(cudaKernel_t, dim3, dim3, void**, size_t, cudaStream_t)>("__cudaLaunchKernel");
  const void* func = nullptr;
  {
    std::lock_guard lock(g_mutex);
    func = g_kernel_functions[kernel];
  }
  return after_launch(func, f(kernel, grid, block, args, shared, stream));
}

}  // extern "C"
