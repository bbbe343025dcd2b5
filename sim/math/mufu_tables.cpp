#include "sim/math/mufu_tables.hpp"

#include <lzma.h>
#include <sys/mman.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

// The compressed tables are part of the library's read-only data, so a program or a
// Python-loaded library finds them without a path.
#define SIMT_EMBED(name, file)                                               \
  asm(".section .rodata\n.balign 16\n.hidden " #name "\n.globl " #name "\n" #name \
      ":\n.incbin \"" SIMT_MUFU_TABLE_DIR "/" file "\"\n.hidden " #name "_end\n.globl " #name "_end\n" #name \
      "_end:\n.previous\n");                                                 \
  extern "C" const unsigned char name[], name##_end[];

SIMT_EMBED(simt_mufu_ex2_pos, "ex2_pos.tbl.xz")
SIMT_EMBED(simt_mufu_ex2_neg, "ex2_neg.tbl.xz")
SIMT_EMBED(simt_mufu_rcp, "rcp.tbl.xz")
SIMT_EMBED(simt_mufu_rsq, "rsq.tbl.xz")
SIMT_EMBED(simt_mufu_lg2_one, "lg2_one.tbl.xz")
SIMT_EMBED(simt_mufu_lg2_half, "lg2_half.tbl.xz")
SIMT_EMBED(simt_mufu_sin_quarter, "sin_quarter.tbl.xz")
SIMT_EMBED(simt_mufu_cos_quarter, "cos_quarter.tbl.xz")

namespace simt::mufu {
namespace {

[[noreturn]] void corrupt(const char* what) {
  std::fprintf(stderr, "simt: the MUFU table %s in libsimt_sim is damaged; rebuild simtlab\n", what);
  std::abort();
}

// The whole xz stream, decoded.
std::vector<unsigned char> decompress(const char* what, const unsigned char* begin, const unsigned char* end) {
  lzma_stream z = LZMA_STREAM_INIT;
  if (lzma_stream_decoder(&z, UINT64_MAX, 0) != LZMA_OK) corrupt(what);
  std::vector<unsigned char> out(std::size_t(1) << 24);
  z.next_in = begin;
  z.avail_in = std::size_t(end - begin);
  lzma_ret r = LZMA_OK;
  while (r == LZMA_OK) {
    if (z.total_out == out.size()) out.resize(out.size() * 2);
    z.next_out = out.data() + z.total_out;
    z.avail_out = out.size() - z.total_out;
    r = lzma_code(&z, LZMA_FINISH);
  }
  out.resize(z.total_out);
  lzma_end(&z);
  if (r != LZMA_STREAM_END) corrupt(what);
  return out;
}

// "SIMTMUF1", count (u32), first value (u32), then per value a signed byte delta
// from the previous one, or 0x80 and the value itself in four bytes.
std::vector<std::uint32_t> decode(const char* what, const unsigned char* begin, const unsigned char* end) {
  const std::vector<unsigned char> raw = decompress(what, begin, end);
  if (raw.size() < 16 || std::memcmp(raw.data(), "SIMTMUF1", 8) != 0) corrupt(what);
  std::uint32_t count, first;
  std::memcpy(&count, raw.data() + 8, 4);
  std::memcpy(&first, raw.data() + 12, 4);
  if (count == 0) corrupt(what);
  std::vector<std::uint32_t> table(count);
  table[0] = first;
  std::size_t at = 16;
  for (std::uint32_t i = 1; i < count; ++i) {
    if (at >= raw.size()) corrupt(what);
    if (raw[at] == 0x80) {
      if (at + 5 > raw.size()) corrupt(what);
      std::memcpy(&table[i], raw.data() + at + 1, 4);
      at += 5;
    } else {
      table[i] = table[i - 1] + std::uint32_t(std::int32_t(std::int8_t(raw[at])));
      at += 1;
    }
  }
  if (at != raw.size()) corrupt(what);
  return table;
}

// Memory for a table read at random places: in 2 MiB pages where the kernel allows
// (transparent huge pages), so that lookups do not miss the TLB as well as the cache.
struct HugePageMemory {
  std::uint8_t* data = nullptr;
  std::size_t bytes = 0;
  HugePageMemory() = default;
  explicit HugePageMemory(std::size_t n) : bytes((n + kHuge - 1) / kHuge * kHuge) {
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    madvise(p, bytes, MADV_HUGEPAGE);  // advice only: 4 KiB pages work the same, slower
    data = static_cast<std::uint8_t*>(p);
  }
  HugePageMemory(HugePageMemory&& o) noexcept : data(std::exchange(o.data, nullptr)), bytes(o.bytes) {}
  HugePageMemory& operator=(HugePageMemory&& o) noexcept {
    std::swap(data, o.data);
    std::swap(bytes, o.bytes);
    return *this;
  }
  ~HugePageMemory() {
    if (data) munmap(data, bytes);
  }
  bool empty() const { return data == nullptr; }
  static constexpr std::size_t kHuge = std::size_t(2) << 20;
};

// The 2-bit corrections of a table to its smooth function, or nothing (the caller
// keeps the full table) where one does not fit in -2..+1.
HugePageMemory corrections(const std::vector<std::uint32_t>& values, Smooth s) {
  HugePageMemory fix((values.size() + 3) / 4);  // zero-filled
  for (std::uint32_t k = 0; k < values.size(); ++k) {
    const std::uint32_t c = values[k] - smooth_bits(s, k) + 2u;
    if (c > 3u) return {};
    fix.data[k >> 2] = std::uint8_t(fix.data[k >> 2] | (c << ((k & 3u) * 2)));
  }
  return fix;
}

// A decoded table with a smooth function: its corrections when they fit (the full
// table is then released), else the full table.
Table keep_compact(std::vector<std::uint32_t>& full, HugePageMemory& fix, Smooth s) {
  fix = corrections(full, s);
  if (fix.empty()) return Table(full.data());
  std::vector<std::uint32_t>().swap(full);
  return Table(fix.data, s);
}

struct Decoded {
  std::vector<std::uint32_t> ex2_pos, ex2_neg, rcp, rsq, lg2_one, lg2_half, sin_quarter, cos_quarter;
  HugePageMemory ex2_pos_fix, ex2_neg_fix, rcp_fix, rsq_fix;
  std::once_flag ex2_once, rcp_once, rsq_once, lg2_once, sin_once;
  std::atomic<unsigned> ready{0};  // the Need flags decoded: later calls skip call_once
  Tables view{};
};

Decoded& decoded() {
  static Decoded d;
  return d;
}

}  // namespace

// Decodes one embedded table into `storage` and returns its data.
#define SIMT_DECODE(storage, name) \
  (storage = decode(#name, simt_mufu_##name, simt_mufu_##name##_end), storage.data())


const Tables& tables(unsigned need) {
  Decoded& d = decoded();
  Tables& v = d.view;
  // Called once per math function call: std::call_once alone costs a TLS lookup.
  if ((d.ready.load(std::memory_order_acquire) & need) == need) return v;
  if (need & kEx2)
    std::call_once(d.ex2_once, [&] {
      SIMT_DECODE(d.ex2_pos, ex2_pos);
      SIMT_DECODE(d.ex2_neg, ex2_neg);
      v.ex2_pos = keep_compact(d.ex2_pos, d.ex2_pos_fix, Smooth::Ex2Pos);
      v.ex2_neg = keep_compact(d.ex2_neg, d.ex2_neg_fix, Smooth::Ex2Neg);
    });
  if (need & kRcp)
    std::call_once(d.rcp_once, [&] {
      SIMT_DECODE(d.rcp, rcp);
      v.rcp = keep_compact(d.rcp, d.rcp_fix, Smooth::Rcp);
    });
  if (need & kRsq)
    std::call_once(d.rsq_once, [&] {
      SIMT_DECODE(d.rsq, rsq);
      v.rsq = keep_compact(d.rsq, d.rsq_fix, Smooth::Rsq);
    });
  if (need & kLg2)
    std::call_once(d.lg2_once, [&] {
      v.lg2_one = SIMT_DECODE(d.lg2_one, lg2_one);
      v.lg2_half = SIMT_DECODE(d.lg2_half, lg2_half);
    });
  if (need & kSin)
    std::call_once(d.sin_once, [&] {
      v.sin_quarter = SIMT_DECODE(d.sin_quarter, sin_quarter);
      v.cos_quarter = SIMT_DECODE(d.cos_quarter, cos_quarter);
    });
  d.ready.fetch_or(need, std::memory_order_release);
  return v;
}
#undef SIMT_DECODE

}  // namespace simt::mufu
