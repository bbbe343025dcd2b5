#include "sites.hpp"

#include "loop_tags.hpp"
#include "startup_calls.hpp"

#include "sim/types/events.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/Support/Path.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <algorithm>

namespace simt::pass {

using namespace llvm;

namespace {

std::string path_of(const DIScope* scope) {
  if (!scope) return "?";
  SmallString<256> p(scope->getFilename());
  if (!sys::path::is_absolute(p) && !scope->getDirectory().empty()) {
    SmallString<256> dir(scope->getDirectory());
    sys::path::append(dir, p);
    p = dir;
  }
  sys::path::remove_dots(p, true);
  return std::string(p.str());
}

std::string function_of(const DILocation* loc) {
  const DISubprogram* sp = loc->getScope()->getSubprogram();
  return sp ? std::string(sp->getName()) : "?";
}

}  // namespace

bool RuntimeFiles::contains(const DIScope* scope) const {
  return !prefix_.empty() && scope && path_of(scope).rfind(prefix_, 0) == 0;
}

// simtlab's CUDA libraries (CUB's block and warp primitives and device-wide kernels,
// Thrust's element-wise kernels, the
// libcu++ operators they apply — cuda::std::plus reads its operands and adds —,
// cuRAND's device API, cg::reduce's operators and its by-reference load): on the GPU
// their code is compiled into the user's kernel, so their shared-memory traffic,
// shuffles and FP operations are the kernel's.
bool RuntimeFiles::counted(const DIScope* scope) const {
  if (!scope) return false;
  const std::string path = path_of(scope);
  const StringRef file(path);
  return file.contains("sim/compiler/include/cub/") || file.contains("sim/compiler/include/thrust/") ||
         file.contains("sim/compiler/include/cuda/") || file.endswith("sim/compiler/include/curand_kernel.h") ||
         file.endswith("sim/compiler/include/cooperative_groups/reduce.h");
}

const DILocation* RuntimeFiles::user_frame(const DILocation* loc) const {
  while (loc && contains(loc->getScope())) loc = loc->getInlinedAt();
  return loc;
}

Constant* SiteTable::string_constant(const std::string& s) {
  auto [it, fresh] = strings_.try_emplace(s, nullptr);
  if (fresh) {
    IRBuilder<> b(m_.getContext());
    Constant* init = ConstantDataArray::getString(m_.getContext(), s);
    auto* gv = new GlobalVariable(m_, init->getType(), true, GlobalValue::PrivateLinkage, init, "simt.site.str");
    gv->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    it->second = ConstantExpr::getPointerCast(gv, Type::getInt8PtrTy(m_.getContext()));
  }
  return it->second;
}

// { const char* file; const char* function; uint32 line, column, flags, loop } =
// 32 bytes, 8-aligned, so the section is an array of records
// (sim/symbols/compiler_sites.hpp).
SiteTable::Record SiteTable::make_record(const std::string& file, const std::string& function, unsigned line,
                                         unsigned column, bool in_loop, unsigned more_flags, unsigned loop) {
  LLVMContext& c = m_.getContext();
  Type* i8p = Type::getInt8PtrTy(c);
  Type* i32 = Type::getInt32Ty(c);
  StructType* ty = StructType::get(c, {i8p, i8p, i32, i32, i32, i32});
  const unsigned flags = (in_loop ? 0 : kSiteStraightLine) | more_flags;
  Constant* init = ConstantStruct::get(ty, {string_constant(file), string_constant(function),
                                            ConstantInt::get(i32, line), ConstantInt::get(i32, column),
                                            ConstantInt::get(i32, flags), ConstantInt::get(i32, loop)});
  auto* gv = new GlobalVariable(m_, ty, true, GlobalValue::PrivateLinkage, init, "simt.site");
  gv->setSection("simt_sites");
  gv->setAlignment(Align(8));
  appendToCompilerUsed(m_, {gv});
  return {gv, ConstantExpr::getPointerCast(gv, i8p), in_loop, loop, {}, 0};
}

// A later instruction of the site is in a loop: the record loses its straight-line
// mark and takes the loop, if it had none.
void SiteTable::set_in_loop(Record& r, unsigned loop) {
  if (r.in_loop && (r.loop != 0 || loop == 0)) return;
  r.in_loop = true;
  if (r.loop == 0) r.loop = loop;
  set_flag_bits(r, kSiteStraightLine, 0);
  auto* init = cast<ConstantStruct>(r.variable->getInitializer());
  std::vector<Constant*> fields;
  for (unsigned i = 0; i < init->getNumOperands(); ++i) fields.push_back(init->getOperand(i));
  fields[5] = ConstantInt::get(fields[5]->getType(), r.loop);
  r.variable->setInitializer(ConstantStruct::get(init->getType(), fields));
}

// Replaces the record's flag bits under `mask` with `bits`.
void SiteTable::set_flag_bits(Record& r, std::uint32_t mask, std::uint32_t bits) {
  auto* init = cast<ConstantStruct>(r.variable->getInitializer());
  std::vector<Constant*> fields;
  for (unsigned i = 0; i < init->getNumOperands(); ++i) fields.push_back(init->getOperand(i));
  const auto flags = (cast<ConstantInt>(fields[4])->getZExtValue() & ~std::uint64_t(mask)) | (bits & mask);
  fields[4] = ConstantInt::get(fields[4]->getType(), flags);
  r.variable->setInitializer(ConstantStruct::get(init->getType(), fields));
}

void SiteTable::note_load_copy(Constant* site, const Instruction& load, unsigned block) {
  const auto it = by_address_.find(site);
  if (it == by_address_.end()) return;
  Record& r = *it->second;
  const unsigned n = ++r.loads_per_block[{load.getFunction(), block, LoopTags::barriers_before(load)}];
  if (n <= r.copies) return;
  r.copies = n;
  set_flag_bits(r, kSiteCopiesMask << kSiteCopiesShift, std::min(n, kSiteCopiesMask) << kSiteCopiesShift);
}

// The key is the user's frames of the inlining chain (innermost first), so a call
// site that the compiler duplicated stays one site, while one helper inlined at two
// call sites gives two (as nvcc's two copies are two instructions).
Constant* SiteTable::site_of(const Instruction& inst, const std::string& kind, bool in_loop, unsigned flags,
                             unsigned loop) {
  const DILocation* loc = runtime_.user_frame(inst.getDebugLoc().get());
  std::string key = kind;
  // Every frame, simtlab's too: two accesses inside one CUB call (its shared store
  // and load) are two instructions, while the record names the user's line.
  for (const DILocation* l = inst.getDebugLoc().get(); l; l = l->getInlinedAt())
    key += "|" + path_of(l->getScope()) + ":" + std::to_string(l->getLine()) + ":" + std::to_string(l->getColumn());
  if (!loc) key += "|?" + std::string(inst.getFunction()->getName());
  auto it = sites_.find(key);
  if (it == sites_.end()) {
    // No user frame: an FP operation of counted library code, counted before
    // inlining (count_fp.cpp), so its caller is not known yet. Name the library's
    // own line (e.g. cuda/std/functional for CUB's adds) rather than nothing.
    const DILocation* own = inst.getDebugLoc().get();
    if (!loc && own) loc = own;
    Record r = loc ? make_record(path_of(loc->getScope()), function_of(loc), loc->getLine(), loc->getColumn(), in_loop,
                                 flags, loop)
                   : make_record("?", std::string(inst.getFunction()->getName()), 0, 0, in_loop, flags, loop);
    it = sites_.emplace(key, r).first;
    by_address_[it->second.address] = &it->second;
  } else if (in_loop) {
    set_in_loop(it->second, loop);
  }
  return it->second.address;
}

// A constructor that hands the runtime this module's slice of simt_sites; the
// linker's __start_/__stop_ symbols bound it within each executable or library.
void SiteTable::emit_registration() {
  if (!sites_.empty()) register_section_at_startup(m_, "simt_sites", "__simt_register_sites");
}

}  // namespace simt::pass
