// Zip: out = a op b with numpy broadcasting (MiniTorch's tensor_zip). The two
// inputs have different shapes; shapes are aligned on their last dimension and a
// size-1 (or missing) dimension is stretched, so by default a (64,1,256) and
// b (64,256) give out (64,64,256).
//
// One thread per output element. A warp's 32 outputs are 32 consecutive
// elements of the last dimension, and both inputs are contiguous there, so every
// load and store is 4 sectors. The broadcast inputs are small: each of their
// sectors is requested 64 times (from different blocks), which the compulsory
// DRAM estimate counts once while the sector counters count every request.
#include "kernels/harness.hpp"
#include "kernels/strided_tensor.cuh"
#include <cuda_runtime.h>

#include <string>
#include <vector>

enum BinaryOp : int { kAdd = 0, kSub = 1, kMul = 2, kMax = 3 };

__device__ inline float apply_binary(int op, float x, float y) {
  switch (op) {
    case kAdd: return x + y;
    case kSub: return x - y;
    case kMul: return x * y;
    default: return fmaxf(x, y);
  }
}

__global__ void zip_broadcast(float* out, const int* out_shape, int out_dims, int size, StridedTensor a, StridedTensor b,
                              int op) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= size) return;
  int out_index[kMaxDims], a_index[kMaxDims], b_index[kMaxDims];
  to_index(i, out_shape, out_dims, out_index);
  broadcast_index(out_index, out_dims, a.shape, a.dims, a_index);
  broadcast_index(out_index, out_dims, b.shape, b.dims, b_index);
  const float x = a.data[index_to_position(a_index, a.strides, a.dims)];
  const float y = b.data[index_to_position(b_index, b.strides, b.dims)];
  out[i] = apply_binary(op, x, y);
}

namespace {

using namespace simt::kernels;
using strided::Shape;

int binary_op(const std::string& name) {
  if (name == "add") return kAdd;
  if (name == "sub") return kSub;
  if (name == "mul") return kMul;
  if (name == "max") return kMax;
  throw std::invalid_argument("--op must be add, sub, mul or max, got '" + name + "'");
}

float binary_reference(int op, float x, float y) {
  switch (op) {
    case kAdd: return x + y;
    case kSub: return x - y;
    case kMul: return x * y;
    default: return x > y ? x : y;
  }
}

struct Shapes {
  Shape a, b, out;
};

Shapes shapes(const Params& p) {
  Shapes s{strided::parse_shape(p.text("a"), "--a"), strided::parse_shape(p.text("b"), "--b"), {}};
  s.out = strided::broadcast_shapes(s.a, s.b);
  return s;
}

Outputs run(const Params& p) {
  const Shapes s = shapes(p);
  const int op = binary_op(p.text("op"));
  const int block = static_cast<int>(p.integer("block"));
  const int size = static_cast<int>(strided::numel(s.out));
  strided::DeviceTensor a(test_values(strided::numel(s.a), 1), s.a, strided::contiguous_strides(s.a));
  strided::DeviceTensor b(test_values(strided::numel(s.b), 2), s.b, strided::contiguous_strides(s.b));
  int* d_out_shape = strided::upload(s.out);
  float* d_out;
  cudaMalloc(&d_out, size * sizeof(float));
  zip_broadcast<<<(size + block - 1) / block, block>>>(d_out, d_out_shape, int(s.out.size()), size,
                                                                   a.view(), b.view(), op);
  std::vector<float> out(size);
  cudaMemcpy(out.data(), d_out, size * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_out);
  cudaFree(d_out_shape);
  return {{{"out", out}}};
}

Check check(const Params& p, const Outputs& out) {
  const Shapes s = shapes(p);
  const int op = binary_op(p.text("op"));
  const std::vector<float> a = test_values(strided::numel(s.a), 1), b = test_values(strided::numel(s.b), 2);
  // Broadcasting by hand: index the inputs with stride 0 along stretched dimensions.
  auto broadcast_strides = [&](const Shape& shape) {
    Shape strides(s.out.size(), 0), own = strided::contiguous_strides(shape);
    for (std::size_t d = 0; d < shape.size(); ++d)
      if (shape[d] != 1) strides[d + s.out.size() - shape.size()] = own[d];
    return strides;
  };
  const Shape a_strides = broadcast_strides(s.a), b_strides = broadcast_strides(s.b);
  std::vector<float> want(strided::numel(s.out));
  for (long long i = 0; i < (long long)want.size(); ++i) {
    const Shape index = strided::unravel(i, s.out);
    want[i] = binary_reference(op, a[strided::position(index, a_strides)], b[strided::position(index, b_strides)]);
  }
  return compare(out.at("out").data, want, 0.0, "out = a " + p.text("op") + " b, broadcast");
}

Registration reg({"zip", "out = a op b with numpy broadcasting of two differently-shaped tensors, MiniTorch's tensor_zip",
                  {{"a", "64,1,256", "shape of a"},
                   {"b", "64,256", "shape of b"},
                   {"op", "add", "add, sub, mul or max"},
                   {"block", "256", "threads per block"}},
                  run, check});

}  // namespace
