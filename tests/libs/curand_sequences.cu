// cuRAND's device API: XORWOW (curandState) and Philox4_32_10 seeded per thread
// as dropout kernels do (curand_init(seed, thread id, offset, &state)). Prints
// each generator's outputs for a few threads as bits and a hash over all threads,
// so the nvcc build on a GPU and simtlab's must print the same integer and
// uniform lines (docs/validation/h200-cudalibs.md); normals are printed as values
// (simtlab's Box-Muller uses sinf/cosf where CUDA uses __sincosf). Self-checks:
// Philox4x32-10's published known answer (Random123: counter 0, key 0), and
// XORWOW's skipahead against stepping.
#include <cuda_runtime.h>
#include <curand_kernel.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

constexpr int kThreads = 256, kPer = 16;

template <class State>
__global__ void draw(unsigned long long seed, unsigned* ints, float* uniforms, float* normals, double* doubles) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  State s;
  curand_init(seed, id, id % 5, &s);
  for (int k = 0; k < 4; ++k) ints[id * kPer + k] = curand(&s);
  for (int k = 0; k < 4; ++k) uniforms[id * kPer + k] = curand_uniform(&s);
  for (int k = 0; k < 3; ++k) normals[id * kPer + k] = curand_normal(&s);  // odd: uses the cached second value
  doubles[id] = curand_uniform_double(&s);
  ints[id * kPer + 4] = curand(&s);
}
__global__ void philox_vectors(unsigned long long seed, unsigned* ints, float* uniforms, float* normals) {
  const int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t s;
  curand_init(seed, id, 0, &s);
  curand(&s);  // STATE = 1: curand4 then spans two Philox outputs
  uint4 a = curand4(&s);
  float4 u = curand_uniform4(&s);
  float4 n = curand_normal4(&s);
  ints[4 * id] = a.x; ints[4 * id + 1] = a.y; ints[4 * id + 2] = a.z; ints[4 * id + 3] = a.w;
  uniforms[4 * id] = u.x; uniforms[4 * id + 1] = u.y; uniforms[4 * id + 2] = u.z; uniforms[4 * id + 3] = u.w;
  normals[4 * id] = n.x; normals[4 * id + 1] = n.y; normals[4 * id + 2] = n.z; normals[4 * id + 3] = n.w;
}
// Known answers and skipahead consistency, one thread.
__global__ void self_checks(unsigned* out) {
  curandStatePhilox4_32_10_t p;
  curand_init(0, 0, 0, &p);
  for (int k = 0; k < 4; ++k) out[k] = curand(&p);
  curandState a, b;
  curand_init(42, 3, 0, &a);
  curand_init(42, 3, 0, &b);
  for (int k = 0; k < 1000; ++k) curand(&a);
  skipahead(1000ull, &b);
  out[4] = curand(&a) == curand(&b);
  curandState c, d;
  curand_init(42, 5, 0, &c);
  curand_init(42, 2, 0, &d);
  skipahead_sequence(3ull, &d);
  out[5] = curand(&c) == curand(&d);
}

template <class T> static std::vector<T> fetch(const T* d, size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}
template <class T> static unsigned hash_bits(const std::vector<T>& v) {
  unsigned h = 2166136261u;
  for (const T& x : v) {
    unsigned char b[sizeof(T)];
    std::memcpy(b, &x, sizeof(T));
    for (unsigned char c : b) h = (h ^ c) * 16777619u;
  }
  return h;
}
static unsigned bits(float f) { unsigned b; std::memcpy(&b, &f, 4); return b; }

template <class State> static void run(const char* name, unsigned* di, float* du, float* dn, double* dd) {
  cudaMemset(di, 0, kThreads * kPer * 4);
  cudaMemset(du, 0, kThreads * kPer * 4);
  cudaMemset(dn, 0, kThreads * kPer * 4);
  draw<State><<<kThreads / 128, 128>>>(1234ull, di, du, dn, dd);
  auto ints = fetch(di, kThreads * kPer);
  auto uni = fetch(du, kThreads * kPer);
  auto nor = fetch(dn, kThreads * kPer);
  auto dbl = fetch(dd, kThreads);
  for (int t : {0, 1, 77, 255}) {
    printf("%s t%-3d curand %08x %08x %08x %08x %08x  uniform %08x %08x  double %.17g\n", name, t, ints[t * kPer],
           ints[t * kPer + 1], ints[t * kPer + 2], ints[t * kPer + 3], ints[t * kPer + 4], bits(uni[t * kPer]),
           bits(uni[t * kPer + 3]), dbl[t]);
    printf("%s t%-3d normal %.9g %.9g %.9g\n", name, t, nor[t * kPer], nor[t * kPer + 1], nor[t * kPer + 2]);
  }
  printf("%s hash curand %08x uniform %08x double %08x\n", name, hash_bits(ints), hash_bits(uni), hash_bits(dbl));
  std::vector<float> normals;
  for (int t = 0; t < kThreads; ++t) for (int k = 0; k < 3; ++k) normals.push_back(nor[t * kPer + k]);
  FILE* f = fopen((std::string("normals_") + name + ".txt").c_str(), "w");
  if (f) { for (float x : normals) fprintf(f, "%08x\n", bits(x)); fclose(f); }
}

int main() {
  unsigned* di; float *du, *dn; double* dd;
  cudaMalloc(&di, kThreads * kPer * 4);
  cudaMalloc(&du, kThreads * kPer * 4);
  cudaMalloc(&dn, kThreads * kPer * 4);
  cudaMalloc(&dd, kThreads * 8);

  self_checks<<<1, 1>>>(di);
  auto k = fetch(di, 6);
  const bool kat = k[0] == 0x6627e8d5u && k[1] == 0xe169c58du && k[2] == 0xbc57ac4cu && k[3] == 0x9b00dbd8u;
  printf("philox known answer (ctr 0, key 0): %08x %08x %08x %08x %s\n", k[0], k[1], k[2], k[3], kat ? "ok" : "MISMATCH");
  printf("xorwow skipahead(1000) == 1000 steps: %s\n", k[4] ? "ok" : "MISMATCH");
  printf("xorwow subsequence 2 + skipahead_sequence(3) == subsequence 5: %s\n", k[5] ? "ok" : "MISMATCH");

  run<curandState>("xorwow", di, du, dn, dd);
  run<curandStatePhilox4_32_10_t>("philox", di, du, dn, dd);

  philox_vectors<<<kThreads / 128, 128>>>(99ull, di, du, dn);
  auto v = fetch(di, 4 * kThreads);
  auto u = fetch(du, 4 * kThreads);
  auto n = fetch(dn, 4 * kThreads);
  printf("philox4 t0 curand4 %08x %08x %08x %08x  uniform4 %08x %08x %08x %08x\n", v[0], v[1], v[2], v[3], bits(u[0]),
         bits(u[1]), bits(u[2]), bits(u[3]));
  printf("philox4 t0 normal4 %.9g %.9g %.9g %.9g\n", n[0], n[1], n[2], n[3]);
  printf("philox4 hash curand4 %08x uniform4 %08x\n", hash_bits(v), hash_bits(u));
  FILE* f = fopen("normals_philox4.txt", "w");
  if (f) { for (float x : n) fprintf(f, "%08x\n", bits(x)); fclose(f); }
  return kat && k[4] && k[5] ? 0 : 1;
}
