// Integer division by zero and INT_MIN / -1 in a kernel: the values the H200 computes
// (docs/validation/h200-int-division.md), not the CPU's SIGFPE. Rows 0-7 are the
// probe's (tests/cuda/int_division_probe.cu), printed as the H200 printed them
// (docs/validation/data/int_division/int_division_h200.txt); then ordinary divisions,
// the 64-bit cases at the edge of nvcc's 32-bit path, and narrow types (promoted to
// int). Operands come from memory so nothing folds. With the argument "nonzero" every
// divisor 0 or -1 is 3 (nothing traps): the same kernels, for comparing instruction
// counts between builds with and without the pass's guard.
#include <cstdint>
#include <cstdio>
#include <cstring>

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

// unsigned short and signed char operands: C++ divides them as int.
__global__ void divide_narrow(const unsigned short* a, const unsigned short* b, int* q, int* r, const signed char* sa,
                              const signed char* sb, int* sq, int* sr, int n) {
  const int i = threadIdx.x;
  if (i >= n) return;
  q[i] = a[i] / b[i];
  r[i] = a[i] % b[i];
  sq[i] = sa[i] / sb[i];
  sr[i] = sa[i] % sb[i];
}

template <class T>
T* upload(const T* h, int n) {
  T* d;
  cudaMalloc(&d, n * sizeof(T));
  cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <class T>
T* output(int n) {
  T* d;
  cudaMalloc(&d, n * sizeof(T));
  return d;
}

template <class T>
void download(T* h, const T* d, int n) {
  cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
}

int main(int argc, char** argv) {
  const bool nonzero = argc > 1 && std::strcmp(argv[1], "nonzero") == 0;
  std::printf("before the kernels\n");
  std::fflush(stdout);
  const int n = 12;
  int a[n] = {7, -7, 0, INT32_MAX, INT32_MIN, INT32_MIN, 1, -1, 7, -7, -1, 0};
  int b[n] = {0, 0, 0, 0, 0, -1, 0, 0, 2, 2, 0, 0};
  if (nonzero)
    for (int& d : b) d = d == 0 || d == -1 ? 3 : d;
  unsigned ua[n], ub[n];
  long long la[n], lb[n];
  unsigned long long ula[n], ulb[n];
  for (int i = 0; i < n; ++i) {
    ua[i] = unsigned(a[i]), ub[i] = unsigned(b[i]);
    la[i] = a[i], lb[i] = b[i];
    ula[i] = (unsigned long long)(long long)a[i], ulb[i] = (unsigned long long)(long long)b[i];
  }
  la[4] = INT64_MIN, la[5] = INT64_MIN;                // the 64-bit overflow case
  la[10] = 4294967295ll, ula[10] = 4294967295ull;      // high half zero: nvcc's 32-bit path
  la[11] = 4294967296ll, ula[11] = 4294967296ull;      // one bit above it: the 64-bit path
  int *q = output<int>(n), *r = output<int>(n);
  unsigned *uq = output<unsigned>(n), *ur = output<unsigned>(n);
  long long *lq = output<long long>(n), *lr = output<long long>(n);
  unsigned long long *ulq = output<unsigned long long>(n), *ulr = output<unsigned long long>(n);
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

  const int m = 3;
  unsigned short na[m] = {7, 65535, 9}, nb[m] = {0, 0, 2};
  signed char sa[m] = {7, -128, -9}, sb[m] = {0, 0, 2};
  if (nonzero)
    for (int i = 0; i < m; ++i) nb[i] = nb[i] ? nb[i] : 3, sb[i] = sb[i] ? sb[i] : 3;
  int *nq = output<int>(m), *nr = output<int>(m), *sq = output<int>(m), *sr = output<int>(m);
  divide_narrow<<<1, 32>>>(upload(na, m), upload(nb, m), nq, nr, upload(sa, m), upload(sb, m), sq, sr, m);
  e = cudaDeviceSynchronize();
  std::printf("status %s\n", cudaGetErrorString(e));
  int hnq[m], hnr[m], hsq[m], hsr[m];
  download(hnq, nq, m), download(hnr, nr, m), download(hsq, sq, m), download(hsr, sr, m);
  for (int i = 0; i < m; ++i)
    std::printf("u16 %d / %d = %d rem %d | i8 %d / %d = %d rem %d\n", na[i], nb[i], hnq[i], hnr[i], sa[i], sb[i], hsq[i],
                hsr[i]);
  std::printf("after the kernels\n");
  return 0;
}
