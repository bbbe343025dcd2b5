// Instruction sequences, not a benchmark: the SASS nvcc emits for integer division
// and remainder by a value known only at run time, and for 64-bit address arithmetic
// on sign-extended int indices, each in a rolled loop whose trip count comes from
// memory (the shape of MiniTorch-style index arithmetic). The compiler front end's
// instruction estimate (sim/compiler/pass/count_insts.cpp) takes its per-IR-op
// charges from these sequences; docs/counters.md (Instructions (estimate)) lists the
// SASS read. Compile and disassemble:
//   nvcc -arch=sm_90 -O3 --fmad=false -cubin -o s.cubin tests/cuda/int_sequences.cu
//   cuobjdump -sass s.cubin
// Every loop is `#pragma unroll 1` so that one iteration is one copy of the body.

#define LOOP _Pragma("unroll 1") for (int d = 0; d < dims; ++d)

// Baseline: the loop with one load of the divisor's array and an add.
extern "C" __global__ void seq_loop(int* out, const int* s, const int* n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, acc = 0;
  const int dims = *n;
  LOOP acc += x + s[d];
  out[x] = acc;
}

// Divisor loaded in every iteration (varies in the loop).
extern "C" __global__ void seq_sdiv_var(int* out, const int* s, const int* n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, acc = 0;
  const int dims = *n;
  LOOP acc += x / s[d];
  out[x] = acc;
}
extern "C" __global__ void seq_srem_var(int* out, const int* s, const int* n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, acc = 0;
  const int dims = *n;
  LOOP acc += x % s[d];
  out[x] = acc;
}
extern "C" __global__ void seq_sdivrem_var(int* out, const int* s, const int* n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, acc = 0;
  const int dims = *n;
  LOOP {
    const int size = s[d];
    acc += x % size;
    x /= size;
  }
  out[blockIdx.x] = acc + x;
}
extern "C" __global__ void seq_udiv_var(unsigned* out, const unsigned* s, const int* n) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x, acc = 0;
  const int dims = *n;
  LOOP acc += x / s[d];
  out[x] = acc;
}
extern "C" __global__ void seq_urem_var(unsigned* out, const unsigned* s, const int* n) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x, acc = 0;
  const int dims = *n;
  LOOP acc += x % s[d];
  out[x] = acc;
}
extern "C" __global__ void seq_udivrem_var(unsigned* out, const unsigned* s, const int* n) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x, acc = 0;
  const int dims = *n;
  LOOP {
    const unsigned size = s[d];
    acc += x % size;
    x /= size;
  }
  out[blockIdx.x] = acc + x;
}

// Divisor fixed for the loop (a kernel argument): the reciprocal can be hoisted.
extern "C" __global__ void seq_sdiv_inv(int* out, int divisor, const int* n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1000;
  const int dims = *n;
  LOOP x = x / divisor + d + 1000;
  out[blockIdx.x] = x;
}
extern "C" __global__ void seq_srem_inv(int* out, int divisor, const int* n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1000;
  const int dims = *n;
  LOOP x = x % divisor + x + d;
  out[blockIdx.x] = x;
}
extern "C" __global__ void seq_sdivrem_inv(int* out, int divisor, const int* n) {  // micro_int_div's body
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1000, acc = 0;
  const int dims = *n;
  LOOP {
    acc += x % divisor;
    x = x / divisor + d + 1000;
  }
  out[blockIdx.x] = acc + x;
}
extern "C" __global__ void seq_udivrem_inv(unsigned* out, unsigned divisor, const int* n) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x + 1000, acc = 0;
  const int dims = *n;
  LOOP {
    acc += x % divisor;
    x = x / divisor + d + 1000;
  }
  out[blockIdx.x] = acc + x;
}

// micro_int_div exactly (tests/cuda/time_micro.cuh), nvcc's own unrolling.
extern "C" __global__ void seq_micro_int_div(int* out, int divisor, int reps) {
  int x = blockIdx.x * blockDim.x + threadIdx.x + 1000, acc = 0;
  for (int r = 0; r < reps; ++r) {
    acc += x % divisor;
    x = x / divisor + r + 1000;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc + x;
}

// Index arithmetic. A dot product of int index and stride, 32-bit result, then one
// load at that (sign-extended) position.
extern "C" __global__ void seq_pos32(float* out, const float* data, const int* idx, const int* s, const int* n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int dims = *n;
  int pos = 0;
  LOOP pos += idx[d] * s[d];
  out[i] = data[pos];
}
// The same in 64 bits: each product of sign-extended ints added to a long.
extern "C" __global__ void seq_pos64(float* out, const float* data, const int* idx, const int* s, const int* n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int dims = *n;
  long pos = 0;
  LOOP pos += static_cast<long>(idx[d]) * s[d];
  out[i] = data[pos];
}
// A long sum of sign-extended ints.
extern "C" __global__ void seq_add64(float* out, const float* data, const int* s, const int* n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int dims = *n;
  long pos = i;
  LOOP pos += s[d];
  out[i] = data[pos];
}
// Loads at int offsets computed in the loop (address = base + sext(int) * 4).
extern "C" __global__ void seq_gather32(float* out, const float* data, const int* s, const int* n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int dims = *n;
  float acc = 0.0f;
  LOOP acc += data[i + s[d]];
  out[i] = acc;
}
// Loads at long offsets (address = base + long * 4).
extern "C" __global__ void seq_gather64(float* out, const float* data, const long* s, const int* n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int dims = *n;
  float acc = 0.0f;
  LOOP acc += data[i + s[d]];
  out[i] = acc;
}
// A loop over a local int array (index[kMaxDims] with a run-time dims).
extern "C" __global__ void seq_local_array(int* out, const int* s, const int* n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int dims = *n;
  int index[8];
  LOOP index[d] = x + s[d];
  int acc = 0;
  LOOP acc += index[d] * s[d];
  out[x] = acc;
}
