// The memory accesses of wmma::load_matrix_sync and store_matrix_sync, lane by lane,
// as sm_90's SASS makes them (nvcc 13, docs/validation/h200-tensor-cores.md): the
// fragment's distinct elements, in x[] order, packed four bytes to a register; a
// register whose elements are consecutive in memory is one 4-byte access (two such
// registers side by side, 8-byte aligned, one 8-byte access: LDG.64/STG.64); a
// 16-bit register across memory lines is read as the 4-byte word of its 8x8 block
// that lane l would read untransposed, and transposed in registers (MOVM.16.MT88);
// an 8-bit one is read byte by byte (LDG.U8). From shared memory, 16-bit A and B
// fragments come by ldmatrix (LDSM.16.M88.4 / MT88.4): up to four 8x8 blocks per
// instruction, lane l giving the 16-byte row l % 8 of block l / 8.
// Each lane makes the same accesses in the same order, so that the simulator groups
// the k-th access of every lane into one warp-level instruction.
#pragma once
#include "simt_cuda/markers.h"
#include "sim/state/context.hpp"

namespace simt::cuda::wmma_detail {

struct Access {
  long pos;      // in elements from the fragment's pointer
  unsigned bytes;
};
// At most 16 distinct elements a lane: 16 accesses (bytes of 8-bit elements).
struct Plan {
  Access a[32];
  int n = 0;
  void add(long pos, unsigned bytes) { a[n++] = {pos, bytes}; }
};

// Where matrix element `code` (row * cols + col) lies, in elements from the pointer.
inline long position(int code, int cols, unsigned ldm, bool row_major) {
  const int r = code / cols, c = code % cols;
  return row_major ? long(r) * ldm + c : long(c) * ldm + r;
}

// The fragment's distinct elements of `lane`, in x[] order of first appearance.
inline int distinct(const unsigned short* table, int elements, int lane, int* codes) {
  int n = 0;
  for (int i = 0; i < elements; ++i) {
    const int code = table[lane * elements + i];
    bool seen = false;
    for (int j = 0; j < n; ++j) seen = seen || codes[j] == code;
    if (!seen) codes[n++] = code;
  }
  return n;
}

inline bool in_shared(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const AddressMap& m = t_address_map;
  return a - m.statics_lo < m.statics_size || a - m.dynamic_lo < m.dynamic_reserved;
}

// The 8x8 block (in memory lines and offsets) holding element `pos`.
inline void block_origin(long pos, unsigned ldm, long* line, long* off) {
  *line = pos / ldm & ~7L;
  *off = pos % ldm & ~7L;
}

// ldmatrix: registers in groups of four blocks, one 16-byte row per lane.
inline Plan ldmatrix_plan(const long* first_of_register, int registers, unsigned ldm, int lane) {
  Plan plan;
  for (int g = 0; g < registers; g += 4) {
    const int blocks = registers - g < 4 ? registers - g : 4;
    long line, off;
    block_origin(first_of_register[g + (lane / 8) % blocks], ldm, &line, &off);
    plan.add((line + lane % 8) * ldm + off, 16);
  }
  return plan;
}

// The accesses of `lane` for a fragment of element size `size` bytes.
inline Plan plan(const unsigned short* table, int elements, int cols, unsigned ldm, bool row_major, unsigned size,
                 bool ldmatrix, int lane) {
  int codes[32];
  const int n = distinct(table, elements, lane, codes);
  const int per = size >= 4 ? 1 : int(4 / size);  // elements a register
  long first[16];
  bool consecutive[16];
  const int registers = n / per;
  for (int r = 0; r < registers; ++r) {
    first[r] = position(codes[r * per], cols, ldm, row_major);
    consecutive[r] = true;
    for (int i = 1; i < per; ++i)
      consecutive[r] = consecutive[r] && position(codes[r * per + i], cols, ldm, row_major) == first[r] + i;
  }
  if (ldmatrix && size == 2) return ldmatrix_plan(first, registers, ldm, lane);
  Plan plan;
  for (int r = 0; r < registers; ++r) {
    if (consecutive[r]) {
      const bool pair = r + 1 < registers && consecutive[r + 1] && first[r + 1] == first[r] + per &&
                        (first[r] * size) % 8 == 0;
      plan.add(first[r], pair ? 8 : 4);
      r += pair;
    } else if (size == 2) {  // MOVM: the untransposed word of the same block
      long line, off;
      block_origin(first[r], ldm, &line, &off);
      plan.add((line + lane / 4) * ldm + off + 2 * (lane % 4), 4);
    } else {
      for (int i = 0; i < per; ++i) plan.add(position(codes[r * per + i], cols, ldm, row_major), size);
    }
  }
  return plan;
}

// The marker accesses of a plan: what the simulator counts and checks. Inlined into
// the kernel, as every function here that makes a marker call: a marker's site is
// the kernel's source line only when the call is inlined there.
[[gnu::always_inline]] inline void touch(const void* base, unsigned size, const Plan& p, unsigned op) {
  const auto* b = static_cast<const unsigned char*>(base);
  for (int i = 0; i < p.n; ++i) __simt_site_access(b + p.a[i].pos * size, p.a[i].bytes, op);
}

}  // namespace simt::cuda::wmma_detail
