// The calls simtlab's CUDA headers make into the simulator. A call of
// __simt_site_NAME(args) is rewritten by the instrumentation pass into
// __simt_NAME_at(args, site), the site being the user's source location after
// inlining (sim/compiler/pass/instrument.cpp); everything else in these headers is
// not instrumented, so they say explicitly which accesses they make.
#pragma once
#include <cstdint>

extern "C" {
void __simt_site_access(const void* p, unsigned size, unsigned op);  // op: 0 load, 1 store, 2 atomic, 3 reduction
// An atomic's access and its result: the pass makes the access a reduction (RED) when
// the optimizer deleted every value marker of its token (sim/compiler/pass/red_or_atom.hpp).
unsigned __simt_atomic_access(const void* p, unsigned size, unsigned may_reduce);
std::uint64_t __simt_atomic_value(std::uint64_t bits, unsigned token);
void __simt_site_barrier(int value);
void __simt_site_grid_sync();  // cooperative_groups::grid_group::sync()
int __simt_grid_is_valid();    // not a marker: grid_group::is_valid() (sim/exec/runtime_hooks.cpp)
std::uint64_t __simt_site_collective(int kind, std::uint32_t mask, std::uint64_t value, int arg, int width);
std::uint32_t __simt_site_activemask();
// A floating-point instruction simtlab's headers execute for the kernel (fp16/bf16),
// one marker per kind: the per-site table holds one kind per site, and a marker's
// name is part of its site's key (instrument.cpp).
void __simt_site_fp_hadd();
void __simt_site_fp_hmul();
void __simt_site_fp_hfma();
void __simt_site_fp_hadd2();
void __simt_site_fp_hmul2();
void __simt_site_fp_hfma2();
void __simt_site_fp_fadd();
void __simt_site_fp_fmul();
void __simt_site_fp_ffma();
// One SASS instruction of simtlab's headers that no FP counter counts (IDP4A, an
// F2FP conversion): the instruction estimate charges it (pass/count_insts.cpp: every
// marker call is one instruction); the runtime does nothing with it.
void __simt_site_sass();
// A CUDA feature the simulator cannot run: the launch fails with this message at the user's line.
void __simt_site_unsupported(const char* what);
}
