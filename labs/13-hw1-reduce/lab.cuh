// Lab 13 harness (labs/13-hw1-reduce/README.md): the tensor, the CPU reference and the
// comparison. Your file includes it and defines launch_reduce.
//
// `a` is a contiguous 3-D tensor (MiniTorch storage + shape + strides); the output is
// `a` summed over dimension `dim`: the same shape with shape[dim] = 1, contiguous.
#pragma once
#include "simtlab_lab.cuh"

constexpr int kMaxDims = 8;   // MiniTorch's MAX_DIMS
constexpr int kThreads = 64;  // threads per block; the reduced dimension has at most 64 elements

// out[index] = sum over j of a[index with index[dim] = j], for every index of out_shape
// (out_shape is a_shape with a 1 at `dim`). Shapes and strides: `dims` ints in device memory.
void launch_reduce(float* out, const int* out_shape, const int* out_strides, int out_size, const float* a,
                   const int* a_shape, const int* a_strides, int dim, int dims);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const std::vector<int> shape = {int(c.size("d0", 7)), int(c.size("d1", 33)), int(c.size("d2", 5))};
  const int dim = int(c.size("dim", 1));
  if (dim < 0 || dim > 2 || shape[dim] > kThreads) {
    std::fprintf(stderr, "lab: dim must be 0, 1 or 2 and shape[dim] at most %d\n", kThreads);
    return 2;
  }
  const std::vector<int> strides = {shape[1] * shape[2], shape[2], 1};
  std::vector<int> out_shape = shape;
  out_shape[dim] = 1;
  const std::vector<int> out_strides = {out_shape[1] * out_shape[2], out_shape[2], 1};
  const int size = shape[0] * shape[1] * shape[2], out_size = size / shape[dim];
  const std::vector<float> a = lab::Random(13).floats(size, -1.0f, 1.0f);

  std::vector<float> want(out_size);
  for (int i0 = 0; i0 < out_shape[0]; ++i0)
    for (int i1 = 0; i1 < out_shape[1]; ++i1)
      for (int i2 = 0; i2 < out_shape[2]; ++i2) {
        int index[3] = {i0, i1, i2};
        double s = 0;  // exact enough: at most 64 terms in double
        for (int j = 0; j < shape[dim]; ++j) {
          index[dim] = j;
          s += a[index[0] * strides[0] + index[1] * strides[1] + index[2] * strides[2]];
        }
        want[i0 * out_strides[0] + i1 * out_strides[1] + i2 * out_strides[2]] = float(s);
      }

  const float* d_a = c.to_device("a", a);
  const int* d_shape = c.to_device("a_shape", shape);
  const int* d_strides = c.to_device("a_strides", strides);
  const int* d_out_shape = c.to_device("out_shape", out_shape);
  const int* d_out_strides = c.to_device("out_strides", out_strides);
  float* d_out = c.output<float>("out", out_size);
  launch_reduce(d_out, d_out_shape, d_out_strides, out_size, d_a, d_shape, d_strides, dim, 3);
  // The kernel's order of additions is its own (a tree, or a loop): compared within a
  // bound. Any order of m <= 64 terms in [-1, 1] added in a tree of depth d is off by at
  // most d * 2^-24 * m (d = 6: 2.3e-5); a left-to-right loop (d = m - 1) by at most
  // 63 * 64 * 2^-24 = 2.4e-4. The tolerance admits both; the per-thread targets, not
  // the tolerance, say how the work is split.
  if (c.launched("launch_reduce")) c.expect_near("out", c.to_host(d_out, out_size), want, 2.5e-4, 0);
  return c.finish();
}
