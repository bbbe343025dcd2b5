// CUDA that simtlab cannot run, named by its tokens (syntax.hpp, unsupported_constructs).
// `simt exec` asks only after clang has failed on a file (cli/program_build.cpp), so a
// name inside an `#if` branch that is not compiled never refuses a file that builds.
#include "sim/compiler/syntax/context.hpp"
#include "sim/compiler/syntax/passes.hpp"
#include "sim/compiler/syntax/syntax.hpp"

#include <regex>
#include <set>
#include <string>

namespace simt::syntax {

namespace {

struct Construct {
  const char* name;    // what the learner wrote, in CUDA's words
  const char* advice;  // what to do instead
};

constexpr Construct kTextures{
    "texture and surface objects (tex1Dfetch, tex2D, surf2Dwrite, cudaCreateTextureObject, cudaArray)",
    "read the data through a plain pointer into cudaMalloc'd memory (const T* __restrict__ or __ldg), doing the "
    "addressing and filtering in code"};
constexpr Construct kGraphs{
    "CUDA graphs and stream capture (cudaGraph*, cudaStreamBeginCapture)",
    "launch the kernels and copies on the stream directly, in the order the graph runs them"};
constexpr Construct kClusters{
    "thread-block clusters and cudaLaunchKernelEx (__cluster_dims__, cluster launch attributes, this_cluster())",
    "launch with kernel<<<grid, block, shared, stream>>>; blocks exchange data through global memory, not "
    "distributed shared memory"};
constexpr Construct kDriver{
    "the CUDA driver API (cuInit, cuCtx*, cuMem*, cuModule*, cuLaunchKernel, CUdeviceptr ...)",
    "use the runtime API (cudaMalloc, cudaMemcpy, kernel<<<...>>>); kernels must come from the program's .cu "
    "files, not from PTX or cubin loaded at run time"};
constexpr Construct kPools{
    "CUDA memory pools (cudaMemPool*, cudaMallocFromPoolAsync, cudaDeviceGetDefaultMemPool)",
    "call cudaMallocAsync and cudaFreeAsync without a pool: simtlab provides those, as plain allocation"};
constexpr Construct kPtx{
    "inline PTX assembly (asm(\"...\") in device code)",
    "write it in CUDA C++: the intrinsic that does the same (__shfl_sync, __ballot_sync, atomicAdd, __ldg, "
    "threadIdx.x % 32 for %laneid ...); device code is compiled for the CPU, which cannot run PTX"};
constexpr Construct kDynamicParallelism{
    "a kernel launched from device code (dynamic parallelism)",
    "launch the child kernel from the host after the parent returns, or do its work in the parent with a loop"};

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The driver API: cu + an upper-case group name (cuMemAlloc, cuCtxCreate ...) and its CU types.
bool driver_name(std::string_view s) {
  static const char* const kGroups[] = {"cuInit", "cuDevice", "cuCtx", "cuMem", "cuModule", "cuLaunch", "cuStream",
                                        "cuEvent", "cuFunc", "cuLink", "cuLibrary", "cuKernel", "cuPointer",
                                        "cuDriverGetVersion", "cuGetErrorString", "cuGetErrorName", "cuOccupancy",
                                        "cuTexObject", "cuSurfObject", "cuArray", "cuGraph", "cuIpc", "cuProfiler",
                                        "cuGetProcAddress", "cuPrimaryCtx"};
  static const std::set<std::string_view> kTypes = {"CUdevice", "CUcontext", "CUmodule", "CUfunction", "CUdeviceptr",
                                                    "CUresult", "CUlibrary", "CUkernel", "CUlinkState", "CUjit_option"};
  if (kTypes.count(s)) return true;
  for (const char* g : kGroups)
    if (starts_with(s, g)) return true;
  return false;
}

const Construct* identifier_construct(const Context& c, std::size_t i) {
  const std::string_view s = c.tok(i).text;
  static const std::set<std::string_view> kTextureNames = {
      "cudaTextureObject_t", "cudaSurfaceObject_t", "cudaCreateTextureObject", "cudaCreateSurfaceObject",
      "cudaDestroyTextureObject", "cudaDestroySurfaceObject", "cudaBindTexture", "cudaBindTexture2D",
      "cudaBindTextureToArray", "cudaMallocArray", "cudaMalloc3DArray", "cudaArray_t", "cudaCreateChannelDesc",
      "cudaMemcpyToArray", "cudaMemcpy2DToArray", "cudaResourceDesc", "cudaTextureDesc"};
  if (kTextureNames.count(s) || starts_with(s, "tex1D") || starts_with(s, "tex2D") || starts_with(s, "tex3D") ||
      starts_with(s, "texCubemap") || starts_with(s, "surf1D") || starts_with(s, "surf2D") ||
      starts_with(s, "surf3D") || (s == "texture" && c.is(i + 1, "<")))
    return &kTextures;
  if (starts_with(s, "cudaGraph") || starts_with(s, "cudaStreamBeginCapture") || s == "cudaStreamEndCapture" ||
      starts_with(s, "cudaStreamCapture") || s == "cudaStreamIsCapturing" || starts_with(s, "cudaStreamGetCaptureInfo"))
    return &kGraphs;
  if (s == "__cluster_dims__" || starts_with(s, "cudaLaunchKernelEx") || s == "cudaLaunchAttributeClusterDimension" ||
      s == "this_cluster" || s == "cluster_group" || s == "cudaOccupancyMaxActiveClusters" ||
      s == "cudaOccupancyMaxPotentialClusterSize" || s == "cudaFuncAttributeNonPortableClusterSizeAllowed" ||
      s == "cudaFuncAttributeRequiredClusterWidth")
    return &kClusters;
  if (starts_with(s, "cudaMemPool") || s == "cudaMallocFromPoolAsync" || s == "cudaDeviceGetDefaultMemPool" ||
      s == "cudaDeviceSetMemPool" || s == "cudaDeviceGetMemPool")
    return &kPools;
  if (driver_name(s)) return &kDriver;
  return nullptr;
}

// asm [volatile] ( "..." "..." : ...): PTX when its text names a PTX special register
// (%%laneid), a typed instruction (mov.u32, ld.global.f32) or a register declaration.
bool is_ptx_asm(const Context& c, std::size_t i) {
  const std::string_view s = c.tok(i).text;
  if (s != "asm" && s != "__asm__" && s != "__asm") return false;
  std::size_t j = i + 1;
  while (c.is(j, "volatile") || c.is(j, "__volatile__") || c.is(j, "goto")) ++j;
  if (!c.is(j, "(")) return false;
  std::string text;
  for (++j; j < c.size() && c.tok(j).kind == TokenKind::String; ++j) text += c.tok(j).text;
  static const std::regex ptx(R"(%%[a-z]|\.(b|u|s|f)(8|16|32|64)\b|\.(reg|pred|global|shared|local|param|sync)\b)");
  return std::regex_search(text, ptx);
}

}  // namespace

std::vector<Issue> unsupported_constructs(std::string_view source) {
  Context c(source);
  mark_device_code(c);
  std::vector<Issue> found;
  std::set<const Construct*> named;  // each construct once, at its first use
  auto note = [&](const Construct* k, std::size_t i) {
    if (!k || !named.insert(k).second) return;
    found.push_back({c.tok(i).line, c.tok(i).column,
                     std::string(k->name) + " cannot run on simtlab: " + k->advice +
                         " (docs/frontend.md#cuda-that-simtlab-does-not-run)"});
  };
  for (std::size_t i = 0; i < c.size(); ++i) {
    const Token& t = c.tok(i);
    if (t.is("<<<") && c.device[i]) note(&kDynamicParallelism, i);
    if (t.kind != TokenKind::Identifier) continue;
    if (is_ptx_asm(c, i)) note(&kPtx, i);
    else note(identifier_construct(c, i), i);
  }
  return found;
}

}  // namespace simt::syntax
