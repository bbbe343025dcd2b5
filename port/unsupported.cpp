// Constructs the simulator cannot run. Each is an error at its line, so the user
// learns what to change instead of getting a program that computes something else.
#include "port/passes.hpp"

#include <cctype>
#include <map>
#include <set>
#include <string>

namespace simt::port {

namespace {

const std::map<std::string_view, std::string_view>& refused_identifiers() {
  static const std::map<std::string_view, std::string_view> m = {
      {"texture", "texture references are not supported by the simulator; read the array through a pointer"},
      {"surface", "surface references are not supported by the simulator"},
      {"tex1Dfetch", "texture fetches are not supported by the simulator; read the array through a pointer"},
      {"tex1D", "texture fetches are not supported by the simulator; read the array through a pointer"},
      {"tex2D", "texture fetches are not supported by the simulator; read the array through a pointer"},
      {"tex3D", "texture fetches are not supported by the simulator; read the array through a pointer"},
      {"cudaTextureObject_t", "texture objects are not supported by the simulator"},
      {"cudaSurfaceObject_t", "surface objects are not supported by the simulator"},
      {"asm", "inline PTX assembly cannot run on the simulator; use the CUDA C++ intrinsic instead"},
      {"__asm__", "inline PTX assembly cannot run on the simulator; use the CUDA C++ intrinsic instead"},
      {"__asm", "inline PTX assembly cannot run on the simulator; use the CUDA C++ intrinsic instead"},
      {"__managed__", "managed (unified) memory is not supported; use cudaMalloc and cudaMemcpy"},
      {"__grid_constant__", "__grid_constant__ parameters are not supported by the simulator"},
      {"wmma", "warp-level matrix operations (wmma) are not supported by the simulator"},
      {"nvcuda", "warp-level matrix operations (nvcuda::wmma) are not supported by the simulator"},
      {"__half", "half precision (__half) is not supported by the simulator yet"},
      {"__half2", "half precision (__half2) is not supported by the simulator yet"},
      {"half2", "half precision (half2) is not supported by the simulator yet"},
      {"__nv_bfloat16", "bfloat16 is not supported by the simulator yet"},
      {"cooperative_groups", "cooperative groups are not supported by `simt port`; use __syncthreads and the *_sync warp intrinsics"},
      {"__shfl", "__shfl (pre-Volta, no mask) is removed in CUDA 9+; use __shfl_sync(0xffffffff, ...)"},
      {"__shfl_up", "__shfl_up (no mask) is removed in CUDA 9+; use __shfl_up_sync(0xffffffff, ...)"},
      {"__shfl_down", "__shfl_down (no mask) is removed in CUDA 9+; use __shfl_down_sync(0xffffffff, ...)"},
      {"__shfl_xor", "__shfl_xor (no mask) is removed in CUDA 9+; use __shfl_xor_sync(0xffffffff, ...)"},
      {"__ballot", "__ballot (no mask) is removed in CUDA 9+; use __ballot_sync(0xffffffff, ...)"},
      {"__any", "__any (no mask) is removed in CUDA 9+; use __any_sync(0xffffffff, ...)"},
      {"__all", "__all (no mask) is removed in CUDA 9+; use __all_sync(0xffffffff, ...)"},
  };
  return m;
}

// The CUDA runtime functions sim/cuda/runtime.hpp implements. Any other cuda*( call
// is refused: a missing function should be reported here, not as a link error.
const std::set<std::string_view>& runtime_subset() {
  static const std::set<std::string_view> s = {
      "cudaMalloc", "cudaFree", "cudaMallocHost", "cudaFreeHost", "cudaMemcpy", "cudaMemcpyAsync",
      "cudaMemset", "cudaDeviceSynchronize", "cudaDeviceReset", "cudaGetLastError", "cudaPeekAtLastError",
      "cudaGetErrorString", "cudaGetErrorName", "cudaGetDeviceCount", "cudaSetDevice", "cudaGetDevice",
      "cudaGetDeviceProperties", "cudaStreamCreate", "cudaStreamDestroy", "cudaStreamSynchronize",
      "cudaEventCreate", "cudaEventDestroy", "cudaEventRecord", "cudaEventSynchronize",
      "cudaEventElapsedTime", "cudaFuncSetAttribute"};
  return s;
}

std::string runtime_reason(std::string_view name) {
  if (name == "cudaMemcpyToSymbol" || name == "cudaMemcpyFromSymbol" || name == "cudaGetSymbolAddress")
    return "__constant__/__device__ symbols cannot be written from the host in the simulator build; "
           "pass the data as a kernel argument (a pointer to cudaMalloc'd memory)";
  if (name == "cudaLaunchCooperativeKernel" || name == "cudaLaunchKernel" || name == "cudaLaunchKernelEx")
    return std::string(name) + " is not supported; launch with <<<grid, block>>>";
  if (name == "cudaMallocManaged") return "managed (unified) memory is not supported; use cudaMalloc and cudaMemcpy";
  return std::string(name) + " is not in the simulator's CUDA runtime subset (sim/cuda/runtime.hpp)";
}

bool is_call(const Context& c, std::size_t i) { return c.is(i + 1, "("); }

void check_identifiers(Context& c) {
  const auto& refused = refused_identifiers();
  for (std::size_t i = 0; i < c.size(); ++i) {
    const Token& t = c.tok(i);
    if (t.kind != TokenKind::Identifier) continue;
    bool member = i > 0 && (c.is(i - 1, ".") || c.is(i - 1, "->"));
    if (member) continue;
    if (auto it = refused.find(t.text); it != refused.end()) {
      c.error(t, std::string(it->second));
    } else if (t.text.starts_with("cuda") && t.text.size() > 4 && std::isupper(static_cast<unsigned char>(t.text[4])) &&
               is_call(c, i) && !runtime_subset().contains(t.text)) {
      c.error(t, runtime_reason(t.text));
    } else if (t.is("__CUDA_ARCH__")) {
      c.warn(t, "the simulator build does not define __CUDA_ARCH__: the host branch of this test is compiled");
    }
  }
}

// `<<<` in device code is a launch from a kernel.
void check_device_launches(Context& c) {
  for (std::size_t i = 0; i < c.size(); ++i)
    if (c.device[i] && c.is(i, "<<<"))
      c.error(c.tok(i), "dynamic parallelism (a kernel launch inside device code) is not supported by the simulator");
}

// Macros are not expanded by `simt port`; a launch or asm inside one cannot be rewritten.
void check_directives(Context& c) {
  for (const Token& t : c.tokens) {
    if (t.kind != TokenKind::Directive) continue;
    if (t.text.find("<<<") != std::string_view::npos)
      c.error(t, "a <<<...>>> launch inside a macro cannot be ported; write the launch outside the macro");
  }
}

// Device code reaches the struct through a pointer (`Particle* p`): a struct
// passed by value is a kernel parameter, not device memory, and costs nothing.
bool pointee_in_device_code(const Context& c, std::string_view name) {
  for (std::size_t i = 0; i + 1 < c.size(); ++i)
    if (c.device[i] && c.tok(i).text == name && c.is(i + 1, "*")) return true;
  return false;
}

// A host-side struct with float members that kernels reach through pointers: its members are plain
// floats, so the kernel's accesses to them are invisible. Port cannot retype them
// (host code passes such members to printf and the like), so it says so.
void check_plain_structs(Context& c) {
  for (std::size_t i = 0; i + 2 < c.size(); ++i) {
    if (c.device[i] || !(c.is(i, "struct") || c.is(i, "class")) || c.tok(i + 1).kind != TokenKind::Identifier) continue;
    std::size_t open = i + 2;
    while (open < c.size() && !c.is(open, "{") && !c.is(open, ";")) ++open;
    if (!c.is(open, "{")) continue;
    std::size_t close = c.closing(open);
    bool fp = false;
    for (std::size_t j = open; j < close && !fp; ++j) fp = c.is(j, "float") || c.is(j, "double");
    if (fp && pointee_in_device_code(c, c.tok(i + 1).text))
      c.warn(c.tok(i), "struct " + std::string(c.tok(i + 1).text) +
                           " has float/double members: kernel accesses to them are not counted "
                           "(declare them f32/f64 to count them; docs/dialect.md)");
    i = close;
  }
}

}  // namespace

void check_unsupported(Context& c) {
  check_identifiers(c);
  check_plain_structs(c);
  check_device_launches(c);
  check_directives(c);
}

}  // namespace simt::port
