// Reduce one dimension of a tensor with sum or max (MiniTorch's tensor_reduce):
// a (1024,1024) tensor reduced over dim 1 gives (1024,1).
//
// One block per output element. Its threads walk the reduced dimension with a
// block-sized stride, each keeping a running partial, then combine the partials
// in shared memory by halving (tid < s), a fixed order, so the result is
// bit-identical on any machine. When the reduced dimension is the contiguous one
// a warp's loads are 32 neighbouring floats (4 sectors); reducing over dim 0
// instead makes neighbouring lanes 1024 floats apart: 32 sectors per request.
#include "kernels/harness.hpp"
#include "kernels/strided_tensor.cuh"
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

enum ReduceOp : int { kSum = 0, kMaxOp = 1 };

__device__ inline float combine(int op, float x, float y) { return op == kSum ? x + y : fmaxf(x, y); }

// blockDim.x must be a power of two; dynamic shared memory holds one partial per thread.
__global__ void reduce_dim(float* out, StridedTensor in, int dim, int op) {
  extern __shared__ float partial[];
  const int tid = threadIdx.x;
  // The output is `in` with shape[dim] = 1; find where this block's row starts.
  int index[kMaxDims];
  int rest = blockIdx.x;
  for (int d = in.dims - 1; d >= 0; --d) {
    const int size = d == dim ? 1 : int(in.shape[d]);
    index[d] = rest % size;
    rest /= size;
  }
  const int start = index_to_position(index, in.strides, in.dims);
  const int stride = in.strides[dim], length = in.shape[dim];

  float acc = op == kSum ? 0.0f : -INFINITY;
  for (int k = tid; k < length; k += blockDim.x) acc = combine(op, acc, in.data[start + k * stride]);
  partial[tid] = acc;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (tid < s) partial[tid] = combine(op, partial[tid], partial[tid + s]);
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = partial[0];
}

namespace {

using namespace simt::kernels;
using strided::Shape;

int reduce_op(const std::string& name) {
  if (name == "sum") return kSum;
  if (name == "max") return kMaxOp;
  throw std::invalid_argument("--op must be sum or max, got '" + name + "'");
}

struct Problem {
  Shape shape;
  int dim;
  int op;
};

Problem problem(const Params& p) {
  Problem pr{strided::parse_shape(p.text("shape"), "--shape"), static_cast<int>(p.integer("dim", 0)),
             reduce_op(p.text("op"))};
  if (pr.dim < 0 || pr.dim >= int(pr.shape.size()))
    throw std::invalid_argument("--dim must name a dimension of --shape (0.." + std::to_string(pr.shape.size() - 1) + ")");
  return pr;
}

Outputs run(const Params& p) {
  const Problem pr = problem(p);
  const int block = static_cast<int>(p.integer("block"));
  if (block <= 0 || (block & (block - 1)) != 0) throw std::invalid_argument("--block must be a power of two");
  const int outputs = static_cast<int>(strided::numel(pr.shape) / pr.shape[pr.dim]);
  strided::DeviceTensor in(test_values(strided::numel(pr.shape), 1), pr.shape, strided::contiguous_strides(pr.shape));
  float* d_out;
  cudaMalloc(&d_out, outputs * sizeof(float));
  reduce_dim<<<outputs, block, block * sizeof(float)>>>(d_out, in.view(), pr.dim, pr.op);
  std::vector<float> out(outputs);
  cudaMemcpy(out.data(), d_out, outputs * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_out);
  return {{{"out", out}}};
}

Check check(const Params& p, const Outputs& out) {
  const Problem pr = problem(p);
  const std::vector<float> in = test_values(strided::numel(pr.shape), 1);
  const Shape strides = strided::contiguous_strides(pr.shape);
  Shape out_shape = pr.shape;
  out_shape[pr.dim] = 1;
  // Inputs are multiples of 1/64 and the sums stay far below 2^18, so every
  // partial sum is exact in float and any summation order gives the same bits.
  std::vector<float> want(strided::numel(out_shape));
  for (long long o = 0; o < (long long)want.size(); ++o) {
    const long long start = strided::position(strided::unravel(o, out_shape), strides);
    float acc = pr.op == kSum ? 0.0f : -INFINITY;
    for (int k = 0; k < pr.shape[pr.dim]; ++k) {
      const float x = in[start + (long long)k * strides[pr.dim]];
      acc = pr.op == kSum ? acc + x : std::max(acc, x);
    }
    want[o] = acc;
  }
  return compare(out.at("out").data, want, 0.0, p.text("op") + " over dim " + p.text("dim"));
}

Registration reg({"reduce_dim", "sum or max over one dimension of a tensor; one block per output, shared-memory tree",
                  {{"shape", "1024,1024", "tensor shape"},
                   {"dim", "1", "dimension to reduce"},
                   {"op", "sum", "sum or max"},
                   {"block", "256", "threads per block (a power of two)"}},
                  run, check});

}  // namespace
