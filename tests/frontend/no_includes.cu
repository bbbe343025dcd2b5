// nvcc includes cuda_runtime.h before every .cu file: this one includes nothing
// and still uses __global__, threadIdx, cudaMalloc and the launch syntax.
__global__ void fill(int* out) { out[threadIdx.x] = 2 * threadIdx.x; }

int main() {
  int* out;
  cudaMalloc(&out, 32 * sizeof(int));
  fill<<<1, 32>>>(out);
  int host[32];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  return host[31] == 62 ? 0 : 1;
}
