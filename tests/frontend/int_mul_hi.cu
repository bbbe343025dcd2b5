// __mul24/__umul24 (the low 32 bits of the product of the low 24 bits, signed and
// unsigned) and __mulhi/__umulhi/__mul64hi/__umul64hi (the high half of the full
// product), on inputs chosen to show the sign of bit 23 and the ignored high byte.
#include <cstdio>

__global__ void muls(const int* a, const int* b, int* i32, unsigned* u32, long long* i64, unsigned long long* u64) {
  i32[0] = __mul24(a[0], b[0]);  // -5 * 7
  i32[1] = __mul24(a[1], b[1]);  // high bytes ignored: 3 * 5
  i32[2] = __mul24(a[2], b[2]);  // 0x800000 is -2^23
  i32[3] = __mul24(a[3], b[3]);  // (2^23 - 1)^2, low 32 bits
  u32[0] = __umul24(unsigned(a[4]), unsigned(b[4]));  // (2^24 - 1)^2, low 32 bits
  u32[1] = __umul24(unsigned(a[2]), unsigned(b[2]));  // 0x800000 * 2
  i32[4] = __mulhi(a[5], b[5]);  // -2 * 2^30 = -2^31: high word -1
  i32[5] = __mulhi(a[6], b[6]);  // (2^31 - 1)^2 >> 32
  u32[2] = __umulhi(unsigned(a[4]), unsigned(b[4]));  // (2^32 - 1)^2 >> 32
  i64[0] = __mul64hi((long long)a[0], 5LL);           // -5 * 5: high -1
  i64[1] = __mul64hi(1LL << 62, (long long)b[3] + 1);  // 2^62 * 2^23 >> 64 = 2^21
  u64[0] = __umul64hi(~0ULL, ~0ULL);
  u64[1] = __umul64hi(0x123456789abcdef0ULL, (unsigned long long)b[2] << 40);
}

int main() {
  const int a[7] = {-5, 0x7f000003, 0x00800000, 0x007fffff, -1, -2, 0x7fffffff};
  const int b[7] = {7, 0x12000005, 2, 0x007fffff, -1, 0x40000000, 0x7fffffff};
  int *da, *db, *di;
  unsigned* du;
  long long* dl;
  unsigned long long* dul;
  cudaMalloc(&da, sizeof a);
  cudaMalloc(&db, sizeof b);
  cudaMalloc(&di, 6 * sizeof(int));
  cudaMalloc(&du, 3 * sizeof(unsigned));
  cudaMalloc(&dl, 2 * sizeof(long long));
  cudaMalloc(&dul, 2 * sizeof(unsigned long long));
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  muls<<<1, 1>>>(da, db, di, du, dl, dul);
  int i32[6];
  unsigned u32[3];
  long long i64[2];
  unsigned long long u64[2];
  cudaMemcpy(i32, di, sizeof i32, cudaMemcpyDeviceToHost);
  cudaMemcpy(u32, du, sizeof u32, cudaMemcpyDeviceToHost);
  cudaMemcpy(i64, dl, sizeof i64, cudaMemcpyDeviceToHost);
  cudaMemcpy(u64, dul, sizeof u64, cudaMemcpyDeviceToHost);
  printf("mul24 %d %d %d %d\n", i32[0], i32[1], i32[2], i32[3]);
  printf("umul24 %u %u\n", u32[0], u32[1]);
  printf("mulhi %d %d umulhi %u\n", i32[4], i32[5], u32[2]);
  printf("mul64hi %lld %lld umul64hi %llx %llx\n", i64[0], i64[1], u64[0], u64[1]);
  return 0;
}
