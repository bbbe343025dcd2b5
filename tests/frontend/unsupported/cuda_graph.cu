#include <cstdio>
__global__ void add_one(int* out) { out[threadIdx.x] += 1; }
int main() {
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMemset(d, 0, 32 * sizeof(int));
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraph_t graph;  // line 9
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  add_one<<<1, 32, 0, s>>>(d);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  int h = 0;
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h);
  return 0;
}
