// Map: out = f(in) elementwise, where `in` is a strided, non-contiguous view
// (MiniTorch's tensor_map). By default the view swaps the last two dimensions of
// a contiguous storage, as x.permute(0, 2, 1) would.
//
// One thread per output element, the output contiguous. Stores are coalesced
// (4 sectors per warp), but the loads follow the view's innermost stride: with
// the default view, neighbouring lanes read floats 128 apart, so every load
// request touches 32 sectors of which it uses 4 bytes each.
#include "kernels/harness.hpp"
#include "kernels/map.cuh"
#include "kernels/strided_tensor.cuh"
#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace {

using namespace simt::kernels;
using strided::Shape;

int unary_op(const std::string& name) {
  if (name == "neg") return kNeg;
  if (name == "relu") return kRelu;
  if (name == "square") return kSquare;
  throw std::invalid_argument("--op must be neg, relu or square, got '" + name + "'");
}

float unary_reference(int op, float x) { return op == kNeg ? -x : op == kRelu ? (x > 0 ? x : 0.0f) : x * x; }

// The view: `permute` reorders the dimensions of a contiguous `shape` storage.
struct View {
  Shape storage_shape, shape, strides;
};

View make_view(const Params& p) {
  View v;
  v.storage_shape = strided::parse_shape(p.text("shape"), "--shape");
  const Shape perm = strided::parse_list(p.text("permute"), "--permute", 0);
  const Shape storage_strides = strided::contiguous_strides(v.storage_shape);
  std::vector<bool> used(v.storage_shape.size());
  if (perm.size() != v.storage_shape.size())
    throw std::invalid_argument("--permute must list one axis per dimension of --shape");
  for (int axis : perm) {
    if (axis >= int(used.size()) || used[axis])
      throw std::invalid_argument("--permute must be a permutation of 0.." + std::to_string(used.size() - 1));
    used[axis] = true;
    v.shape.push_back(v.storage_shape[axis]);
    v.strides.push_back(storage_strides[axis]);
  }
  return v;
}

Outputs run(const Params& p) {
  const View v = make_view(p);
  const int op = unary_op(p.text("op"));
  const int block = static_cast<int>(p.integer("block"));
  const int size = static_cast<int>(strided::numel(v.shape));
  strided::DeviceTensor in(test_values(size, 1), v.shape, v.strides);
  float* d_out;
  cudaMalloc(&d_out, size * sizeof(float));
  map_strided<<<(size + block - 1) / block, block>>>(d_out, size, in.view(), op);
  std::vector<float> out(size);
  cudaMemcpy(out.data(), d_out, size * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_out);
  return {{{"out", out}}};
}

Check check(const Params& p, const Outputs& out) {
  const View v = make_view(p);
  const int op = unary_op(p.text("op"));
  const long long size = strided::numel(v.shape);
  const std::vector<float> storage = test_values(size, 1);
  std::vector<float> want(size);
  for (long long i = 0; i < size; ++i)
    want[i] = unary_reference(op, storage[strided::position(strided::unravel(i, v.shape), v.strides)]);
  return compare(out.at("out").data, want, 0.0, "out = " + p.text("op") + "(in viewed with permute " + p.text("permute") + ")");
}

Registration reg({"map", "out = f(in) over a permuted (non-contiguous) view, MiniTorch's tensor_map; strided loads",
                  {{"shape", "64,128,128", "shape of the contiguous storage"},
                   {"permute", "0,2,1", "the view's axis order (0,2,1 swaps the last two axes)"},
                   {"op", "relu", "neg, relu or square"},
                   {"block", "256", "threads per block"}},
                  run, check});

}  // namespace
