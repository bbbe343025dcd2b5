// What CUDA 13 answers to the runtime calls a learner gets wrong, and to every call
// after a kernel faults (sticky errors), the device heap (`malloc` in kernels), and
// the memory a device reports and gives: run with nvcc on a GPU, and with `simt exec`.
// Lines starting with '#' are informational (sizes that differ between a real
// device and the simulated one); every other line must be identical
// (tests/cuda/runtime_errors_h200.txt, compared by tests/frontend/runtime_errors.sh).
#include <cstdio>
#include <cstdint>

__global__ void write_one(int* p) { p[0] = 7; }
__global__ void write_far(int* p) { p[1 << 28] = 1; }  // 1 GiB past a 4-byte allocation

// Device heap: a huge request, then 1 MiB blocks one thread keeps until none is left.
__global__ void heap_probe(int* out) {
  void* huge = malloc(std::size_t(1) << 40);
  out[0] = huge == nullptr;
  int n = 0;
  while (n < 1000 && malloc(1 << 20) != nullptr) ++n;
  out[1] = n;
  int cycles = 0;  // what is freed can be taken again
  for (int i = 0; i < 100; ++i) {
    void* p = malloc(1 << 16);
    if (p) { ++cycles; free(p); }
  }
  out[2] = cycles;
}
// Every thread of a block asks for 64 KiB: 256 x 64 KiB is twice the default heap.
__global__ void heap_many(int* out) {
  void* p = malloc(1 << 16);
  if (p) atomicAdd(out, 1);
}

static void line(const char* what, cudaError_t e) {
  printf("%-44s %d %s\n", what, int(e), cudaGetErrorName(e));
}

static void limits_and_memory() {
  std::size_t v = 0;
  line("cudaDeviceGetLimit(MallocHeapSize)", cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize));
  printf("malloc heap default %zu\n", v);
  line("cudaDeviceGetLimit(PrintfFifoSize)", cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
  printf("printf fifo default %zu\n", v);
  line("cudaDeviceGetLimit(StackSize)", cudaDeviceGetLimit(&v, cudaLimitStackSize));
  printf("# stack default %zu\n", v);
  line("cudaDeviceGetLimit(nullptr)", cudaDeviceGetLimit(nullptr, cudaLimitMallocHeapSize));
  line("cudaGetLastError", cudaGetLastError());
  std::size_t free_b = 0, total_b = 0;
  line("cudaMemGetInfo", cudaMemGetInfo(&free_b, &total_b));
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  printf("# free %zu total %zu totalGlobalMem %zu\n", free_b, total_b, prop.totalGlobalMem);
  printf("total equals totalGlobalMem %d, free <= total %d, free > 90%% of total %d\n",
         total_b == prop.totalGlobalMem, free_b <= total_b, free_b > total_b / 10 * 9);
  // Take 4 GiB at a time until the device says no: the count follows the capacity.
  void* chunks[256];
  int n = 0;
  cudaError_t e = cudaSuccess;
  while (n < 256 && (e = cudaMalloc(&chunks[n], std::size_t(4) << 30)) == cudaSuccess) ++n;
  printf("# 4 GiB allocations %d\n", n);
  printf("4 GiB allocations cover 90%% of free memory %d, fit in it %d\n",
         std::size_t(n) * (std::size_t(4) << 30) > free_b / 10 * 9, std::size_t(n) * (std::size_t(4) << 30) <= free_b);
  line("the allocation past the capacity", e);
  line("cudaGetLastError after it", cudaGetLastError());
  std::size_t free_full = 0;
  cudaMemGetInfo(&free_full, &total_b);
  printf("free after them below 4 GiB %d\n", free_full < (std::size_t(4) << 30));
  for (int i = 0; i < n; ++i) cudaFree(chunks[i]);
  void* p = nullptr;
  line("cudaMalloc after freeing them", cudaMalloc(&p, 1 << 20));
  cudaFree(p);
}

static void device_heap() {
  int* out;
  cudaMalloc(&out, 3 * sizeof(int));
  cudaMemset(out, 0, 3 * sizeof(int));
  heap_probe<<<1, 1>>>(out);
  line("heap_probe", cudaDeviceSynchronize());
  int h[3];
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("malloc(1 TiB) is null %d\n", h[0]);
  printf("# 1 MiB blocks from the default heap %d\n", h[1]);
  printf("1 MiB blocks: at least 4 %d, at most 8 %d\n", h[1] >= 4, h[1] <= 8);
  printf("malloc/free of 64 KiB 100 times %d\n", h[2]);
  line("cudaDeviceSetLimit(MallocHeapSize) after use", cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20));
  line("cudaGetLastError", cudaGetLastError());
  std::size_t v = 0;
  cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize);
  printf("malloc heap now %zu\n", v);
  cudaMemset(out, 0, sizeof(int));
  heap_many<<<1, 256>>>(out);
  line("heap_many", cudaDeviceSynchronize());
  int got = 0;
  cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost);
  printf("# 64 KiB blocks for 256 threads %d\n", got);
  cudaFree(out);
}

static void wrong_arguments() {
  int* d;
  cudaMalloc(&d, 64);
  int host[16];
  line("cudaMalloc(nullptr, 64)", cudaMalloc(static_cast<void**>(nullptr), 64));
  void* zero = &zero;
  line("cudaMalloc(&p, 0)", cudaMalloc(&zero, 0));
  printf("cudaMalloc(&p, 0) gives nullptr %d\n", zero == nullptr);
  line("cudaMemcpy kind 7", cudaMemcpy(host, d, 64, cudaMemcpyKind(7)));
  line("cudaMemcpy DtoH into device memory", cudaMemcpy(d, d, 64, cudaMemcpyDeviceToHost));
  line("cudaMemcpy past the allocation", cudaMemcpy(host, d, 128, cudaMemcpyDeviceToHost));
  line("cudaMemcpy nullptr", cudaMemcpy(nullptr, d, 64, cudaMemcpyDeviceToHost));
  line("cudaMemset of a host pointer", cudaMemset(host, 0, 64));
  line("cudaMemset past the allocation", cudaMemset(d, 0, 65));
  line("cudaFree of a host pointer", cudaFree(host));
  line("cudaFree(nullptr)", cudaFree(nullptr));
  line("cudaSetDevice(99)", cudaSetDevice(99));
  line("cudaSetDevice(-1)", cudaSetDevice(-1));
  cudaDeviceProp prop;
  line("cudaGetDeviceProperties(&p, 99)", cudaGetDeviceProperties(&prop, 99));
  line("cudaGetDeviceCount(nullptr)", cudaGetDeviceCount(nullptr));
  line("cudaGetLastError", cudaGetLastError());
  line("cudaGetLastError again", cudaGetLastError());
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  float ms = 0;
  line("cudaEventElapsedTime unrecorded", cudaEventElapsedTime(&ms, a, b));
  cudaEventRecord(a);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  line("cudaEventElapsedTime(nullptr, a, b)", cudaEventElapsedTime(nullptr, a, b));
  cudaEvent_t nt;
  cudaEventCreateWithFlags(&nt, cudaEventDisableTiming);
  cudaEventRecord(nt);
  cudaEventSynchronize(nt);
  line("cudaEventElapsedTime DisableTiming", cudaEventElapsedTime(&ms, a, nt));
  line("cudaEventCreateWithFlags(&e, 0x80)", cudaEventCreateWithFlags(&nt, 0x80));
  cudaStream_t s;
  line("cudaStreamCreateWithFlags(&s, 4)", cudaStreamCreateWithFlags(&s, 4));
  line("cudaFuncSetAttribute 300 KiB", cudaFuncSetAttribute(write_one, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 << 10));
  line("cudaGetLastError", cudaGetLastError());
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  cudaFree(d);
}

// An illegal address: CUDA's error is sticky. Every later call that needs the
// context returns it until cudaDeviceReset.
static void sticky_errors() {
  int *d, *before;
  cudaMalloc(&d, sizeof(int));
  cudaMalloc(&before, sizeof(int));
  write_far<<<1, 1>>>(d);
  line("launch of the faulting kernel", cudaGetLastError());
  line("cudaDeviceSynchronize", cudaDeviceSynchronize());
  line("cudaDeviceSynchronize again", cudaDeviceSynchronize());
  line("cudaGetLastError", cudaGetLastError());
  line("cudaGetLastError again", cudaGetLastError());
  line("cudaPeekAtLastError", cudaPeekAtLastError());
  int* p = nullptr;
  line("cudaMalloc", cudaMalloc(&p, 16));
  int h = 0;
  line("cudaMemcpy DtoH", cudaMemcpy(&h, before, sizeof h, cudaMemcpyDeviceToHost));
  line("cudaMemcpy HtoD", cudaMemcpy(before, &h, sizeof h, cudaMemcpyHostToDevice));
  line("cudaMemset", cudaMemset(before, 0, sizeof h));
  write_one<<<1, 1>>>(before);
  line("launch after the fault", cudaGetLastError());
  cudaStream_t s;
  line("cudaStreamCreate", cudaStreamCreate(&s));
  cudaEvent_t e;
  line("cudaEventCreate", cudaEventCreate(&e));
  line("cudaFree", cudaFree(before));
  int n = 0;
  line("cudaGetDeviceCount", cudaGetDeviceCount(&n));
  line("cudaGetDevice", cudaGetDevice(&n));
  line("cudaSetDevice(0)", cudaSetDevice(0));
  cudaDeviceProp prop;
  line("cudaGetDeviceProperties", cudaGetDeviceProperties(&prop, 0));
  std::size_t f = 0, t = 0;
  line("cudaMemGetInfo", cudaMemGetInfo(&f, &t));
  line("cudaDeviceReset", cudaDeviceReset());
  line("cudaGetLastError after the reset", cudaGetLastError());
  line("cudaMalloc after the reset", cudaMalloc(&p, sizeof(int)));
  write_one<<<1, 1>>>(p);
  line("launch after the reset", cudaGetLastError());
  line("cudaDeviceSynchronize after the reset", cudaDeviceSynchronize());
  line("cudaMemcpy after the reset", cudaMemcpy(&h, p, sizeof h, cudaMemcpyDeviceToHost));
  printf("value after the reset %d\n", h);
  // Memory from before the reset belongs to the context the reset destroyed.
  line("cudaFree of memory from before the reset", cudaFree(d));
  line("cudaGetLastError", cudaGetLastError());
  line("cudaMemcpy from memory from before the reset", cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost));
  line("cudaGetLastError", cudaGetLastError());
  write_one<<<1, 1>>>(d);
  line("launch on memory from before the reset", cudaGetLastError());
  line("cudaDeviceSynchronize", cudaDeviceSynchronize());
  line("cudaMalloc", cudaMalloc(&p, 16));
}

int main() {
  printf("== limits and memory\n");
  limits_and_memory();
  printf("== device heap\n");
  device_heap();
  printf("== wrong arguments\n");
  wrong_arguments();
  printf("== sticky errors\n");
  sticky_errors();
  printf("== end\n");
  return 0;
}
