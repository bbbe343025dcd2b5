#include "port/port.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <string>

using simt::port::port_source;

namespace {

std::string ported(const std::string& src) {
  auto r = port_source(src);
  REQUIRE_MESSAGE(r.ok(), simt::port::format_issues("t.cu", r));
  return r.output;
}

bool has(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
long lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

std::string first_error(const std::string& src) {
  auto r = port_source(src);
  return r.errors.empty() ? "" : std::to_string(r.errors[0].line) + ": " + r.errors[0].message;
}

}  // namespace

TEST_CASE("port: launches become simt::launch, arguments untouched") {
  std::string out = ported("#include <cuda_runtime.h>\n__global__ void k(int n) {}\nint main() {\n  k<<<dim3((n + 255) / 256, 1), 256, 0, s>>>(f(a, b), n);\n}\n");
  CHECK(has(out, "simt::launch(k, dim3((n + 255) / 256, 1), 256, 0, s)(f(a, b), n);"));
}

TEST_CASE("port: template kernels, qualified names, launches over several lines") {
  std::string src =
      "#include <cuda_runtime.h>\nint main() {\n  ns::tiled<float, Tile<4>><<<grid,\n     block>>>(\n    a, b);\n"
      "  k<<<1, 1>>>(x); // k<<<2, 2>>>(comment)\n  puts(\"k<<<3,3>>>()\");\n}\n";
  std::string out = ported(src);
  CHECK(has(out, "simt::launch(ns::tiled<f32, Tile<4>>, grid,\n     block)(\n    a, b);"));
  CHECK(has(out, "simt::launch(k, 1, 1)(x); // k<<<2, 2>>>(comment)"));
  CHECK(has(out, "puts(\"k<<<3,3>>>()\")"));
  CHECK(lines(out) == lines(src));
  CHECK(port_source(src).launches == 2);
}

TEST_CASE("port: device code gets instrumented types, host code keeps its own") {
  std::string src =
      "#include <cuda_runtime.h>\n"
      "__device__ float sq(float x) { return x * x; }\n"
      "__global__ void k(const float* a, unsigned int* cnt, const long long* big, double* d, int n) {\n"
      "  __shared__ int hist[32];\n"
      "  int i = threadIdx.x; // float stays in comments\n"
      "  float m = std::numeric_limits<float>::max();\n"
      "}\n"
      "int main() { float* h; int n; double x; }\n";
  std::string out = ported(src);
  CHECK(has(out, "__device__ f32 sq(f32 x)"));
  CHECK(has(out, "k(const f32* a, u32* cnt, const i64* big, f64* d, int n)"));
  CHECK(has(out, "__shared__ i32 hist[32];"));
  CHECK(has(out, "int i = threadIdx.x; // float stays in comments"));
  CHECK(has(out, "f32 m = std::numeric_limits<float>::max();"));
  CHECK(has(out, "int main() { float* h; int n; double x; }"));
}

TEST_CASE("port: templates and qualifiers before __global__ are device code too") {
  std::string out = ported("#include <cuda_runtime.h>\ntemplate <int B>\n__global__ void __launch_bounds__(256) k(float* a) { a[0] = 1; }\nstatic __device__ __forceinline__ float f(float v) { return v; }\n");
  CHECK(has(out, "__launch_bounds__(256) k(f32* a)"));
  CHECK(has(out, "__forceinline__ f32 f(f32 v)"));
}

TEST_CASE("port: extern __shared__ becomes SIMT_DYNAMIC_SHARED") {
  std::string out = ported("#include <cuda_runtime.h>\n__global__ void k() {\n  extern __shared__ __align__(16) float smem[];\n  extern __shared__ unsigned int counts[];\n}\n");
  CHECK(has(out, "SIMT_DYNAMIC_SHARED(f32, smem);"));
  CHECK(has(out, "SIMT_DYNAMIC_SHARED(u32, counts);"));
}

TEST_CASE("port: conditional operands are wrapped so f32 and float mix") {
  std::string out = ported("#include <cuda_runtime.h>\n__global__ void k(float* a, int n) {\n  int i = threadIdx.x;\n  float v = i < n ? a[i] : c ? 1.0f : 2.0f;\n  f(i > 0 ? a[i] : 0.0f, 3);\n}\nint h(int x) { return x ? 1 : 2; }\n");
  CHECK(has(out, "f32 v = i < n ? simt::val(a[i]) : simt::val(c ? simt::val(1.0f) : simt::val(2.0f));"));
  CHECK(has(out, "f(i > 0 ? simt::val(a[i]) : simt::val(0.0f), 3);"));
  CHECK(has(out, "return x ? 1 : 2;"));  // host code untouched
}

TEST_CASE("port: portable math and __ldg in device code") {
  std::string out = ported("#include <cuda_runtime.h>\n__global__ void k(const float* a, float* b) {\n  b[0] = expf(a[0]) + __fdividef(1.0f, __ldg(&a[1]));\n}\nint main() { return expf(1.0f) > 2; }\n");
  CHECK(has(out, "b[0] = simt::expf(a[0]) + simt::__fdividef(1.0f, (*(&a[1])));"));
  CHECK(has(out, "int main() { return expf(1.0f) > 2; }"));
}

TEST_CASE("port: host math in device code is a warning, not an error") {
  auto r = port_source("#include <cuda_runtime.h>\n__global__ void k(float* a) { a[0] = sinf(a[0]); }\n");
  CHECK(r.ok());
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].line == 2);
}

TEST_CASE("port: the dialect include never moves a line") {
  SUBCASE("replaces cuda_runtime.h") {
    std::string out = ported("#include <stdio.h>\n#include <cuda_runtime.h> // runtime\nint x;\n");
    CHECK(out == "#include <stdio.h>\n#include \"sim/cuda/dialect.cuh\" // runtime\nint x;\n");
  }
  SUBCASE("fills a blank line before the first declaration") {
    std::string out = ported("#include <stdio.h>\n\nint x;\n");
    CHECK(out == "#include <stdio.h>\n#include \"sim/cuda/dialect.cuh\"\nint x;\n");
  }
  SUBCASE("goes in front of a leading // comment") {
    std::string out = ported("// my kernel\n#include <stdio.h>\nint x;\n");
    CHECK(out == "#include \"sim/cuda/dialect.cuh\" // my kernel\n#include <stdio.h>\nint x;\n");
  }
  SUBCASE("no room: a new first line and #line 1") {
    auto r = port_source("#include <stdio.h>\nint x;\n");
    CHECK(r.output == "#include \"sim/cuda/dialect.cuh\"\n#line 1\n#include <stdio.h>\nint x;\n");
    CHECK(r.new_first_line);
  }
  SUBCASE("a second runtime include leaves an empty line; the dialect include stays") {
    CHECK(ported("#include <cuda_runtime.h>\n#include \"device_launch_parameters.h\"\nint x;\n") ==
          "#include \"sim/cuda/dialect.cuh\"\n\nint x;\n");
    CHECK(ported("#include \"sim/cuda/dialect.cuh\"\nint x;\n") == "#include \"sim/cuda/dialect.cuh\"\nint x;\n");
  }
  SUBCASE("not inside an #if block") {
    std::string out = ported("#ifdef X\n\n#endif\n\nint x;\n");
    CHECK(out == "#ifdef X\n\n#endif\n#include \"sim/cuda/dialect.cuh\"\nint x;\n");
  }
}

TEST_CASE("port: porting twice changes nothing more") {
  std::string src = "#include <cuda_runtime.h>\n__global__ void k(float* a, int n) { a[0] = n > 0 ? a[1] : 0.0f; }\nint main() { k<<<1, 32>>>(p, 4); }\n";
  std::string once = ported(src);
  auto twice = port_source(once);
  CHECK(twice.ok());
  // The second pass only re-wraps conditionals already wrapped; launches, types, include are stable.
  CHECK(twice.launches == 0);
  CHECK(has(twice.output, "simt::launch(k, 1, 32)(p, 4)"));
  CHECK(has(twice.output, "k(f32* a, int n)"));
}

TEST_CASE("port: unportable constructs are errors at their line") {
  CHECK(first_error("texture<float, 1> t;\n") == "1: texture references are not supported by the simulator; read the array through a pointer");
  CHECK(first_error("int x;\n__global__ void k() {\n  asm volatile(\"trap;\");\n}\n").starts_with("3: inline PTX"));
  CHECK(first_error("__global__ void c() {}\n__global__ void p() {\n  c<<<1, 1>>>();\n}\n").starts_with("3: dynamic parallelism"));
  CHECK(first_error("__constant__ float w[4];\nvoid f() {\n  cudaMemcpyToSymbol(w, h, 16);\n}\n").starts_with("3: __constant__"));
  CHECK(first_error("__device__ float total;\n").starts_with("1: __device__ variables"));
  CHECK(first_error("#define L(k) k<<<1,1>>>()\n").starts_with("1: a <<<...>>> launch inside a macro"));
  CHECK(first_error("#include <cooperative_groups.h>\n").starts_with("1: cooperative groups"));
  CHECK(first_error("#include <cublas_v2.h>\n").starts_with("1: <cublas_v2.h> is a CUDA library"));
  CHECK(first_error("void f() { cudaMemcpy2D(a, 1, b, 1, 1, 1, k); }\n").starts_with("1: cudaMemcpy2D is not in"));
  CHECK(first_error("__global__ void k(float v) { v = __shfl_down(v, 1); }\n").starts_with("1: __shfl_down (no mask)"));
  CHECK(first_error("int main() { k<<<1, 1(x); }\n").starts_with("1: cannot parse this launch"));
  auto r = port_source("texture<float> t;\n");
  CHECK(r.output.empty());  // never a half-ported file
}

TEST_CASE("port: format_issues prints compiler-style lines") {
  auto r = port_source("\n__global__ void k() { asm(\"x\"); }\n");
  CHECK(simt::port::format_issues("a.cu", r).starts_with("a.cu:2:23: error: inline PTX"));
}

TEST_CASE("port: needs_port") {
  CHECK(simt::port::needs_port("__global__ void k() {}\n"));
  CHECK(simt::port::needs_port("#include \"sim/cuda/dialect.cuh\"\nint main() { k<<<1,1>>>(); }\n"));
  CHECK_FALSE(simt::port::needs_port("#include \"sim/cuda/dialect.cuh\"\nint main() { simt::launch(k, 1, 1)(); }\n"));
}

TEST_CASE("port: max/min become simt::max/min in device code; declarations of them stay") {
  std::string out = ported("#include <cuda_runtime.h>\n__device__ float max(float a, float b);\n__global__ void k(float* a) {\n  a[0] = max(a[1], 0.0f) + min(1, 2);\n}\nint h() { return max(1, 2); }\n");
  CHECK(has(out, "__device__ f32 max(f32 a, f32 b);"));
  CHECK(has(out, "a[0] = simt::max(a[1], 0.0f) + simt::min(1, 2);"));
  CHECK(has(out, "int h() { return max(1, 2); }"));
}

TEST_CASE("port: type arguments of a launched kernel template become instrumented types") {
  std::string out = ported("#include <cuda_runtime.h>\nint main() {\n  fill<float, 256><<<1, 256>>>(p);\n  fill<unsigned int><<<1, 1>>>(q);\n}\n");
  CHECK(has(out, "simt::launch(fill<f32, 256>, 1, 256)(p);"));
  CHECK(has(out, "simt::launch(fill<unsigned int>, 1, 1)(q);"));
}

TEST_CASE("port: a host struct with float members that kernels reach by pointer is a warning") {
  auto r = port_source("#include <cuda_runtime.h>\nstruct Particle { float x, y; };\n__global__ void k(Particle* p) { p[0].x = 1; }\n");
  CHECK(r.ok());
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].line == 2);
  // By value it is a kernel parameter, not device memory: nothing to say.
  CHECK(port_source("#include <cuda_runtime.h>\nstruct P { float a; };\n__global__ void k(P p, float* y) { y[0] = p.a; }\n").warnings.empty());
}
