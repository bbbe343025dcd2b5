// What the H200 computes for the integer divisions C++ leaves undefined: x / 0,
// x % 0 and INT_MIN / -1 (and their 64-bit and unsigned forms). A GPU does not trap;
// nvcc's division sequences return a value, which simtlab reproduces
// (docs/validation/h200-int-division.md). Operands come from memory so nothing folds.
#include <cstdint>
#include <cstdio>

__global__ void divide(const int* a, const int* b, int* q, int* r, const unsigned* ua, const unsigned* ub, unsigned* uq,
                       unsigned* ur, const long long* la, const long long* lb, long long* lq, long long* lr,
                       const unsigned long long* ula, const unsigned long long* ulb, unsigned long long* ulq,
                       unsigned long long* ulr, int n) {
  const int i = threadIdx.x;
  if (i >= n) return;
  q[i] = a[i] / b[i];
  r[i] = a[i] % b[i];
  uq[i] = ua[i] / ub[i];
  ur[i] = ua[i] % ub[i];
  lq[i] = la[i] / lb[i];
  lr[i] = la[i] % lb[i];
  ulq[i] = ula[i] / ulb[i];
  ulr[i] = ula[i] % ulb[i];
}

template <class T>
T* upload(const T* h, int n) {
  T* d;
  cudaMalloc(&d, n * sizeof(T));
  cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <class T>
void download(T* h, const T* d, int n) {
  cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
}

int main() {
  const int n = 8;
  const int a[n] = {7, -7, 0, INT32_MAX, INT32_MIN, INT32_MIN, 1, -1};
  const int b[n] = {0, 0, 0, 0, 0, -1, 0, 0};
  unsigned ua[n], ub[n];
  long long la[n], lb[n];
  unsigned long long ula[n], ulb[n];
  for (int i = 0; i < n; ++i) {
    ua[i] = unsigned(a[i]), ub[i] = unsigned(b[i]);
    la[i] = a[i], lb[i] = b[i];
    ula[i] = (unsigned long long)(long long)a[i], ulb[i] = (unsigned long long)(long long)b[i];
  }
  la[4] = INT64_MIN, la[5] = INT64_MIN;  // the 64-bit overflow case
  int *q, *r;
  unsigned *uq, *ur;
  long long *lq, *lr;
  unsigned long long *ulq, *ulr;
  cudaMalloc(&q, n * 4), cudaMalloc(&r, n * 4), cudaMalloc(&uq, n * 4), cudaMalloc(&ur, n * 4);
  cudaMalloc(&lq, n * 8), cudaMalloc(&lr, n * 8), cudaMalloc(&ulq, n * 8), cudaMalloc(&ulr, n * 8);
  divide<<<1, 32>>>(upload(a, n), upload(b, n), q, r, upload(ua, n), upload(ub, n), uq, ur, upload(la, n), upload(lb, n),
                    lq, lr, upload(ula, n), upload(ulb, n), ulq, ulr, n);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("status %s\n", cudaGetErrorString(e));
  int hq[n], hr[n];
  unsigned huq[n], hur[n];
  long long hlq[n], hlr[n];
  unsigned long long hulq[n], hulr[n];
  download(hq, q, n), download(hr, r, n), download(huq, uq, n), download(hur, ur, n);
  download(hlq, lq, n), download(hlr, lr, n), download(hulq, ulq, n), download(hulr, ulr, n);
  for (int i = 0; i < n; ++i)
    std::printf("i32 %d / %d = %d rem %d | u32 %u / %u = %u rem %u | i64 %lld / %lld = %lld rem %lld | u64 %llu / %llu = %llu rem %llu\n",
                a[i], b[i], hq[i], hr[i], ua[i], ub[i], huq[i], hur[i], la[i], lb[i], hlq[i], hlr[i], ula[i], ulb[i],
                hulq[i], hulr[i]);
  return 0;
}
