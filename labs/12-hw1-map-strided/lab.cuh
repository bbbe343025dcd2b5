// Lab 12 harness (labs/12-hw1-map-strided/README.md): the tensors, the CPU reference
// and the comparison. Your file includes it and defines launch_map.
//
// A tensor the way MiniTorch stores it: a flat storage plus a shape and a strides
// array. Element (i0, i1, i2) lives at storage[i0 * strides[0] + i1 * strides[1] +
// i2 * strides[2]]. The input here is a permuted VIEW of a contiguous a x b x c
// storage — x.permute(2, 1, 0) — so its shape is (c, b, a) and its strides
// (1, c, b * c): same storage, different strides. The output has the view's shape and
// is contiguous, strides (b * a, a, 1).
#pragma once
#include "simtlab_lab.cuh"

constexpr int kMaxDims = 8;  // the most dimensions a tensor may have (MiniTorch's MAX_DIMS)

// The function map applies to every element.
__host__ __device__ inline float fn(float x) { return x * x + 1.0f; }

// out[index] = fn(in[index]) for every index of the shared shape (out_shape and
// in_shape hold the same sizes). Shapes and strides are arrays of `dims` ints in
// device memory, as in MiniTorch's CUDA backend.
void launch_map(float* out, const int* out_shape, const int* out_strides, int out_size, const float* in,
                const int* in_shape, const int* in_strides, int dims);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int a = int(c.size("a", 4)), b = int(c.size("b", 6)), cc = int(c.size("c", 32));
  const int size = a * b * cc;
  const std::vector<float> storage = lab::Random(12).floats(size, -3.0f, 3.0f);
  // The view x.permute(2, 1, 0) of the contiguous (a, b, c) storage.
  const std::vector<int> in_shape = {cc, b, a}, in_strides = {1, cc, b * cc};
  const std::vector<int> out_shape = in_shape, out_strides = {b * a, a, 1};

  std::vector<float> want(size);
  for (int i0 = 0; i0 < cc; ++i0)
    for (int i1 = 0; i1 < b; ++i1)
      for (int i2 = 0; i2 < a; ++i2)
        want[i0 * out_strides[0] + i1 * out_strides[1] + i2 * out_strides[2]] =
            fn(storage[i0 * in_strides[0] + i1 * in_strides[1] + i2 * in_strides[2]]);

  const float* d_in = c.to_device("in", storage);
  const int* d_in_shape = c.to_device("in_shape", in_shape);
  const int* d_in_strides = c.to_device("in_strides", in_strides);
  const int* d_out_shape = c.to_device("out_shape", out_shape);
  const int* d_out_strides = c.to_device("out_strides", out_strides);
  float* d_out = c.output<float>("out", size);
  launch_map(d_out, d_out_shape, d_out_strides, size, d_in, d_in_shape, d_in_strides, 3);
  if (c.launched("launch_map")) c.expect_equal("out", c.to_host(d_out, size), want);
  return c.finish();
}
