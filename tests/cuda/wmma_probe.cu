// Tensor-core probe for the H200 (nvcc 13, sm_90): the wmma tiles of
// tests/cuda/wmma_cases.cuh (outputs and hashes), each fragment's element layout,
// and small count_* kernels for Nsight Compute (docs/validation/h200-tensor-cores.md).
//
//   nvcc -std=c++20 -arch=sm_90 --fmad=false -I. -o wmma_probe tests/cuda/wmma_probe.cu
//   ./wmma_probe OUTDIR        all of it (tests/cuda/run_wmma_gpu.sh)
//   ./wmma_probe OUTDIR count  only the count_* kernels, once each (for ncu)
//
// OUTDIR receives wmma_hashes.txt (config kind hash), <config>.bin (per tile: A, B,
// C, D as 32-bit words of element bits, logical row-major order) and
// wmma_layouts.txt (per fragment: for each lane, the (row*cols+col) of each x[i]).
#include "tests/cuda/wmma_cases.cuh"
#include "tests/cuda/wmma_count_kernels.cuh"

#include <cstdio>
#include <string>

using namespace nvcuda;
using wmma_cases::kConfigs;

namespace {

template <class Mem> Mem make(float v) {
  if constexpr (std::is_same_v<Mem, half>) return __float2half(v);
  else if constexpr (std::is_same_v<Mem, __nv_bfloat16>) return __float2bfloat16(v);
  else return Mem(v);
}

// Element i of a lane's fragment holds the (row, col) whose code lo + 16 hi it reads.
template <class Frag> __device__ void write_codes(const Frag& lo, const Frag& hi, int* out) {
  const int lane = threadIdx.x;
  for (int i = 0; i < lo.num_elements; ++i)
    out[lane * lo.num_elements + i] = int(float(hi.x[i])) * 16 + int(float(lo.x[i]));
}
template <class Use, int M, int N, int K, class Frag, class Mem, class L>
__global__ void layout_probe(const Mem* lo, const Mem* hi, int ldm, int* out) {
  wmma::fragment<Use, M, N, K, Frag, L> f, g;
  wmma::load_matrix_sync(f, lo, ldm);
  wmma::load_matrix_sync(g, hi, ldm);
  write_codes(f, g, out);
}
template <int M, int N, int K, class T>
__global__ void layout_probe_acc(const T* lo, const T* hi, int ldm, bool row, int* out) {
  wmma::fragment<wmma::accumulator, M, N, K, T> f, g;
  wmma::load_matrix_sync(f, lo, ldm, row ? wmma::mem_row_major : wmma::mem_col_major);
  wmma::load_matrix_sync(g, hi, ldm, row ? wmma::mem_row_major : wmma::mem_col_major);
  write_codes(f, g, out);
}

template <class Mem> void codes(int rows, int cols, bool row, Mem** lo, Mem** hi, int* ldm) {
  *ldm = wmma_cases::ldm_of(rows, cols, row);
  const int size = wmma_cases::padded_size(rows, cols, row);
  std::vector<Mem> l(size, make<Mem>(0)), h(size, make<Mem>(0));
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) {
      const int at = row ? i * *ldm + j : j * *ldm + i, code = i * cols + j;
      l[at] = make<Mem>(float(code % 16));
      h[at] = make<Mem>(float(code / 16));
    }
  cudaMalloc(lo, size * sizeof(Mem));
  cudaMalloc(hi, size * sizeof(Mem));
  cudaMemcpy(*lo, l.data(), size * sizeof(Mem), cudaMemcpyHostToDevice);
  cudaMemcpy(*hi, h.data(), size * sizeof(Mem), cudaMemcpyHostToDevice);
}

void print_codes(FILE* f, const std::string& title, const int* dev, int n) {
  std::vector<int> h(32 * n);
  cudaMemcpy(h.data(), dev, h.size() * sizeof(int), cudaMemcpyDeviceToHost);
  std::fprintf(f, "%s num_elements=%d\n", title.c_str(), n);
  for (int lane = 0; lane < 32; ++lane) {
    std::fprintf(f, "%2d:", lane);
    for (int i = 0; i < n; ++i) std::fprintf(f, " %d", h[lane * n + i]);
    std::fprintf(f, "\n");
  }
}

template <int M, int N, int K, class Frag, class Mem, class T> void layouts(FILE* f, const char* name) {
  int* out;
  cudaMalloc(&out, 32 * 64 * sizeof(int));
  for (bool row : {true, false}) {
    Mem *lo, *hi;
    int ldm;
    const char* lay = row ? "row" : "col";
    codes(M, K, row, &lo, &hi, &ldm);
    if (row) layout_probe<wmma::matrix_a, M, N, K, Frag, Mem, wmma::row_major><<<1, 32>>>(lo, hi, ldm, out);
    else layout_probe<wmma::matrix_a, M, N, K, Frag, Mem, wmma::col_major><<<1, 32>>>(lo, hi, ldm, out);
    print_codes(f, std::string(name) + " a " + lay, out, wmma::fragment<wmma::matrix_a, M, N, K, Frag, wmma::row_major>::num_elements);
    cudaFree(lo), cudaFree(hi);
    codes(K, N, row, &lo, &hi, &ldm);
    if (row) layout_probe<wmma::matrix_b, M, N, K, Frag, Mem, wmma::row_major><<<1, 32>>>(lo, hi, ldm, out);
    else layout_probe<wmma::matrix_b, M, N, K, Frag, Mem, wmma::col_major><<<1, 32>>>(lo, hi, ldm, out);
    print_codes(f, std::string(name) + " b " + lay, out, wmma::fragment<wmma::matrix_b, M, N, K, Frag, wmma::row_major>::num_elements);
    cudaFree(lo), cudaFree(hi);
    T *clo, *chi;
    codes(M, N, row, &clo, &chi, &ldm);
    layout_probe_acc<M, N, K, T><<<1, 32>>>(clo, chi, ldm, row, out);
    print_codes(f, std::string(name) + " c " + lay, out, wmma::fragment<wmma::accumulator, M, N, K, T>::num_elements);
    cudaFree(clo), cudaFree(chi);
  }
  cudaFree(out);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out = argc > 1 ? argv[1] : ".";
  if (argc > 2 && std::string(argv[2]) == "count") {
    wmma_count::run_counts();
    return 0;
  }
  FILE* hashes = std::fopen((out + "/wmma_hashes.txt").c_str(), "w");
  for (int i = 0; i < wmma_cases::kConfigCount; ++i) {
    const auto& cfg = kConfigs[i];
    FILE* bin = std::fopen((out + "/" + cfg.name + ".bin").c_str(), "wb");
    for (int kind = 0; kind < wmma_cases::kKindCount; ++kind) {
      const wmma_cases::Result r = wmma_cases::run(i, kind);
      std::fprintf(hashes, "%s %s %016llx\n", cfg.name, wmma_cases::kKinds[kind],
                   (unsigned long long)wmma_cases::hash(cfg, r));
      for (std::size_t t = 0; t < r.tiles.size(); ++t)
        for (const auto* v : {&r.tiles[t].a, &r.tiles[t].b, &r.tiles[t].c, &r.d[t]})
          std::fwrite(v->data(), 4, v->size(), bin);
    }
    std::fclose(bin);
  }
  std::fclose(hashes);
  FILE* lay = std::fopen((out + "/wmma_layouts.txt").c_str(), "w");
  layouts<16, 16, 16, half, half, float>(lay, "f16_f32_m16n16k16");
  layouts<32, 8, 16, half, half, float>(lay, "f16_f32_m32n8k16");
  layouts<8, 32, 16, half, half, float>(lay, "f16_f32_m8n32k16");
  layouts<16, 16, 16, half, half, half>(lay, "f16_f16_m16n16k16");
  layouts<32, 8, 16, half, half, half>(lay, "f16_f16_m32n8k16");
  layouts<8, 32, 16, half, half, half>(lay, "f16_f16_m8n32k16");
  layouts<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float>(lay, "bf16_f32_m16n16k16");
  layouts<32, 8, 16, __nv_bfloat16, __nv_bfloat16, float>(lay, "bf16_f32_m32n8k16");
  layouts<8, 32, 16, __nv_bfloat16, __nv_bfloat16, float>(lay, "bf16_f32_m8n32k16");
  layouts<16, 16, 16, signed char, signed char, int>(lay, "s8_s32_m16n16k16");
  layouts<32, 8, 16, signed char, signed char, int>(lay, "s8_s32_m32n8k16");
  layouts<8, 32, 16, signed char, signed char, int>(lay, "s8_s32_m8n32k16");
  layouts<16, 16, 16, unsigned char, unsigned char, int>(lay, "u8_s32_m16n16k16");
  layouts<16, 16, 8, wmma::precision::tf32, float, float>(lay, "tf32_f32_m16n16k8");
  std::fclose(lay);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("wmma probe: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
