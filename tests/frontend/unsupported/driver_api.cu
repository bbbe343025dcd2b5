#include <cstdio>
#include <cuda.h>
int main() {
  cuInit(0);  // line 4
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  CUcontext ctx;
  cuCtxCreate(&ctx, 0, dev);
  CUdeviceptr p;
  cuMemAlloc(&p, 128);
  printf("allocated\n");
  return 0;
}
