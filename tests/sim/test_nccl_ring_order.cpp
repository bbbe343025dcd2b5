// The order NCCL's ring adds ranks in (sim/libs/nccl/ring_order.hpp), and the
// arithmetic of each element type and operator (reduce_ops.hpp).
#include "sim/libs/nccl/reduce_ops.hpp"
#include "sim/libs/nccl/ring_order.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

using namespace simt::nccl;

TEST_CASE("chunk c is summed over ranks c+1, c+2, ..., c") {
  CHECK(ring_sum_order(0, 3) == std::vector<int>{1, 2, 0});
  CHECK(ring_sum_order(2, 4) == std::vector<int>{3, 0, 1, 2});
  CHECK(ring_sum_order(7, 8) == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(ring_chunk_of(0, 10, 4) == 0);
  CHECK(ring_chunk_of(3, 10, 4) == 1);  // chunks of ceil(10 / 4) = 3
  CHECK(ring_chunk_of(9, 10, 4) == 3);
}

TEST_CASE("a float all-reduce over 3 ranks shows its order in the last bits") {
  // 1e8 + 1 - 1e8: 0 or 1 depending on which two are added first.
  std::vector<float> a = {1e8f, 1e8f, 1e8f}, b = {1.0f, 1.0f, 1.0f}, c = {-1e8f, -1e8f, -1e8f};
  std::vector<float> out0(3), out1(3), out2(3);
  ring_all_reduce({{a.data(), b.data(), c.data()}, {out0.data(), out1.data(), out2.data()}}, 3, DataType::float32, RedOp::sum);
  // chunk 0 (element 0): (b + c) + a = (1 - 1e8) + 1e8 = 0; chunk 1: (c + a) + b = 1; chunk 2: (a + b) + c = 0.
  CHECK(out0[0] == 0.0f);
  CHECK(out0[1] == 1.0f);
  CHECK(out0[2] == 0.0f);
  CHECK(std::memcmp(out0.data(), out2.data(), 12) == 0);
}

TEST_CASE("half sums round every step to half; avg pre-multiplies floats and post-divides integers") {
  // 2048 + 1 is not a half (11 bits): it rounds to 2048 (ties to even), each step.
  const std::uint16_t h2048 = 0x6800, h1 = 0x3c00;
  std::uint16_t acc = h2048;
  accumulate(&acc, &h1, 1, DataType::float16, RedOp::sum, 2);
  CHECK(acc == h2048);
  float f = 0, x = 3.0f;
  load_first(&f, &x, 1, DataType::float32, RedOp::avg, 4);
  CHECK(f == 0.75f);
  int i = 7, y = 6;
  accumulate(&i, &y, 1, DataType::int32, RedOp::avg, 2);
  finish(&i, 1, DataType::int32, RedOp::avg, 2);
  CHECK(i == 6);  // (7 + 6) / 2, truncated
  std::uint16_t bmax = 0x3f80;  // bf16 1.0
  const std::uint16_t btwo = 0x4000;
  accumulate(&bmax, &btwo, 1, DataType::bfloat16, RedOp::max, 2);
  CHECK(bmax == btwo);
}
