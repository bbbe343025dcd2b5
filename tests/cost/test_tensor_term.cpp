// The tensor-core term: library GEMMs' tensor FLOPs at the device's dense peak.
#include "cost/kernel/kernel_time.hpp"
#include "cost/kernel/tensor_term.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace simt::cost;

namespace {

// A 4096^3 bf16 GEMM as sim/libs/gemm_launch.cpp records it (32 x 32 tiles).
KernelCounters bf16_gemm() {
  KernelCounters c;
  c.kernel = "cublasGemmEx";
  c.threads_per_block = 256;
  c.blocks = 32 * 32;
  const double n = 4096;
  c.tensor_16bit_flops = 2 * n * n * n;
  c.ld_requests = 2 * n * n * 2 * 32 / 512;
  c.ld_sectors = 16 * c.ld_requests;
  c.st_requests = n * n * 2 / 512;
  c.st_sectors = 16 * c.st_requests;
  c.warp_inst = c.ld_requests + c.st_requests;
  c.thread_inst = 32 * c.warp_inst;
  c.dram_read_bytes = 2 * n * n * 2;
  c.dram_write_bytes = n * n * 2;
  return c;
}

}  // namespace

TEST_CASE("tensor term: FLOPs over the dense tensor peak of the input precision") {
  const DeviceSpec& h200 = Catalog::builtin().device("H200");
  KernelCounters c = bf16_gemm();
  auto t = tensor_term(h200, c);
  REQUIRE(t);
  CHECK(t->seconds == doctest::Approx(c.tensor_16bit_flops / h200.peak_for("bf16").value));
  c.tensor_tf32_flops = c.tensor_16bit_flops;  // TF32 runs at half the 16-bit rate
  CHECK(tensor_term(h200, c)->seconds ==
        doctest::Approx(c.tensor_16bit_flops / h200.peak_for("bf16").value +
                        c.tensor_tf32_flops / h200.peak_for("tf32").value));
  CHECK_FALSE(tensor_term(h200, KernelCounters{}));
}

TEST_CASE("tensor term: a large bf16 GEMM is bound by the tensor cores, not the FP32 pipe") {
  KernelTime k = kernel_time(Catalog::builtin().device("H200"), bf16_gemm());
  CHECK(k.bound == "tensor");
  CHECK(k.predicted_s < 200e-6);  // 137 GFLOP at about 1 PFLOP/s dense bf16
  CHECK(k.predicted_s > 100e-6);
}
