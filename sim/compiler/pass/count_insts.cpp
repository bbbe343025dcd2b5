#include "count_insts.hpp"
#include "canonical_nan.hpp"
#include "pass_options.hpp"

#include "carried_chain.hpp"
#include "device_code.hpp"
#include "fused_shared.hpp"

#include "sim/types/events.hpp"

#include <llvm/ADT/DepthFirstIterator.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace simt::pass {

using namespace llvm;

namespace {

// Integer division by a value known only at run time: nvcc's sequence (IABS, I2F.RP,
// MUFU.RCP, F2I, IMAD.HI and corrections; no IABS and sign fix-ups unsigned). Read
// from nvcc 13's SASS of tests/cuda/int_sequences.cu, one rolled loop per case, less
// the loop's own 9 instructions (docs/counters.md, "Instructions (estimate)"):
// where the divisor changes from one iteration to the next (a shape loaded per
// dimension), the whole sequence runs every time; where it is fixed for the loop
// (micro_int_div's), nvcc hoists the reciprocal (10 instructions signed, 7
// unsigned) and the loop keeps the multiply-high and the corrections. The remainder
// of the same operands reuses the quotient (IMAD.MOV + IMAD, and a register copy).
struct DivideCost {
  unsigned divide, remainder_alone, remainder_after_divide;
};
constexpr DivideCost kSignedVarying{24, 22, 3}, kUnsignedVarying{18, 17, 3};
constexpr DivideCost kSignedInvariant{13, 11, 3}, kUnsignedInvariant{9, 8, 2};
constexpr unsigned kSignedReciprocal = 10, kUnsignedReciprocal = 7;  // hoisted to the loop's preheader
// By a constant: a multiply-high and shifts.
constexpr unsigned kDivideByConstant = 3;
// IEEE fdiv and sqrt (--prec-div/--prec-sqrt, the default): MUFU.RCP/RSQ and FFMA refinements.
constexpr unsigned kFpSequence = 8;
// A call nvcc keeps (CALL.REL and RET); a library routine (expf ...) is a short
// sequence around one MUFU.
constexpr unsigned kCall = 2, kLibraryCall = 8;

// simtlab's headers: threadIdx and blockIdx are an S2R each on the GPU, blockDim and
// gridDim an LDC from the constant bank (each a load of a thread-local here).
unsigned runtime_estimate(const Instruction& i) {
  const auto* ld = dyn_cast<LoadInst>(&i);
  if (!ld) return 0;
  const auto* gv = dyn_cast<GlobalVariable>(ld->getPointerOperand()->stripPointerCasts());
  if (!gv || !gv->isThreadLocal()) return 0;
  const StringRef file = i.getDebugLoc() ? i.getDebugLoc()->getFilename() : "";
  return file.endswith("device_builtins.h") ? 1 : 0;  // else the counting hooks' own reads
}

// What every thread of a kernel runs before its first line: the stack pointer
// (LDC R1), the global-memory descriptor (ULDC.64) and one constant-bank load per
// argument used. Calibrated on micro_empty (2 instructions) and micro_copy (16, of
// which 10 are its lines): docs/validation/h200-instructions.md.
unsigned kernel_entry_estimate(const Function& f) {
  if (!f.getName().contains("simt_kernel")) return 0;  // __global__ functions carry this ABI tag
  unsigned used = 0;
  for (const Argument& a : f.args()) used += a.use_empty() ? 0 : 1;
  return 1 + (used ? 1 : 0) + used;
}

bool divisor_is_constant(const Instruction& i) { return isa<Constant>(i.getOperand(1)); }

bool is_division(const Instruction& i) {
  switch (i.getOpcode()) {
    case Instruction::SDiv: case Instruction::UDiv: case Instruction::SRem: case Instruction::URem: return true;
    default: return false;
  }
}

const DivideCost& divide_cost(const Instruction& i, const LoopInfo* loops) {
  const bool is_signed = i.getOpcode() == Instruction::SDiv || i.getOpcode() == Instruction::SRem;
  const Loop* l = loops ? loops->getLoopFor(i.getParent()) : nullptr;
  const bool invariant = l && l->isLoopInvariant(i.getOperand(1));
  if (invariant) return is_signed ? kSignedInvariant : kUnsignedInvariant;
  return is_signed ? kSignedVarying : kUnsignedVarying;
}

// A remainder whose quotient is computed too (x % d next to x / d).
bool has_matching_divide(const Instruction& rem) {
  const Instruction::BinaryOps div = rem.getOpcode() == Instruction::SRem ? Instruction::SDiv : Instruction::UDiv;
  for (const User* u : rem.getOperand(0)->users())
    if (const auto* b = dyn_cast<BinaryOperator>(u); b && b->getOpcode() == div && b->getOperand(1) == rem.getOperand(1))
      return true;
  return false;
}

unsigned call_estimate(const CallBase& call) {
  const Function* callee = call.getCalledFunction();
  if (!callee) return kCall;
  const StringRef name = callee->getName();
  if (name.startswith("__simt_site_") || name == "__simt_atomic_access") return 1;  // a barrier, collective or atomic
  if (name.startswith("__simt_cuda_")) return kLibraryCall;  // expf ... with CUDA's bits (sim/math)
  if (name.startswith("__simt_")) return 0;       // simtlab's counting hooks
  if (const auto* in = dyn_cast<IntrinsicInst>(&call)) {
    switch (in->getIntrinsicID()) {
      case Intrinsic::sqrt: return kFpSequence;
      case Intrinsic::memcpy: case Intrinsic::memmove: case Intrinsic::memset: return 2;
      default: break;
    }
    // Debug info, lifetimes, assumptions: nothing; fma, min/max, abs, bit counts: one.
    return in->isAssumeLikeIntrinsic() || isa<DbgInfoIntrinsic>(in) ? 0 : 1;
  }
  return callee->isDeclaration() ? kLibraryCall : kCall;
}

// A single-use operand of `i` with one of the given opcodes, in i's block: nvcc
// fuses the two into one instruction (IMAD = mul + add, LEA = shift + add, IADD3 =
// add + add, LOP3 = up to three logic operations).
bool fuses_with_operand(const Instruction& i, std::initializer_list<unsigned> opcodes) {
  for (const Value* v : i.operands())
    if (const auto* op = dyn_cast<Instruction>(v); op && op->hasOneUse() && op->getParent() == i.getParent())
      for (unsigned code : opcodes)
        if (op->getOpcode() == code) return true;
  return false;
}

// x << 32 >> 32 and the like: moving an int between 32 and 64 bits, which the
// GPU's IMAD.WIDE does for free.
bool widening_shift(const Instruction& i) {
  if (!i.getType()->isIntegerTy(64)) return false;
  const auto* amount = dyn_cast<ConstantInt>(i.getOperand(1));
  return amount && amount->getZExtValue() == 32;
}

// An address: constant indices are an immediate offset (0); an int index,
// sign- or zero-extended, one IMAD.WIDE; a 64-bit index (a long sum, or the
// induction variable clang widens to 64 bits, which nvcc turns into a walked
// pointer) LEA + LEA.HI.X or IADD3 + IADD3.X: 2. An index that is another
// address's index plus a constant (clang's unrolled copies) is that pointer with an
// immediate offset: 0. tests/cuda/int_sequences.cu: seq_gather32, seq_gather64,
// seq_pos64, seq_loop.
bool offset_of_sibling(const GetElementPtrInst& gep, const Value* index) {
  const auto* op = dyn_cast<BinaryOperator>(index);
  if (!op || (op->getOpcode() != Instruction::Add && op->getOpcode() != Instruction::Or) ||
      !isa<ConstantInt>(op->getOperand(1)))
    return false;
  const Value* base = op->getOperand(0);
  for (const User* u : base->users())
    if (const auto* other = dyn_cast<GetElementPtrInst>(u);
        other && other != &gep && other->getParent() == gep.getParent() &&
        other->getPointerOperand() == gep.getPointerOperand() && other->getNumIndices() == gep.getNumIndices())
      return true;
  return false;
}

// An int value that clang widened: a sign/zero extension, or an nsw/nuw add, sub
// or multiply of such values (clang moves the extension of `a + b` onto a and b;
// nvcc keeps the 32-bit sum and one IMAD.WIDE).
bool widened_int(const Value* v, int depth = 0) {
  if (isa<SExtInst>(v) || isa<ZExtInst>(v) || isa<ConstantInt>(v)) return true;
  const auto* op = dyn_cast<BinaryOperator>(v);
  if (!op || depth > 3) return false;
  const auto* c = dyn_cast<ConstantInt>(op->getOperand(1));
  switch (op->getOpcode()) {
    case Instruction::And: return c && c->getValue().getActiveBits() <= 32;  // a masked 32-bit field
    case Instruction::LShr: return c && c->getZExtValue() >= 32;           // the high half
    case Instruction::Add: case Instruction::Sub: case Instruction::Mul:
      if (!op->hasNoSignedWrap() && !op->hasNoUnsignedWrap()) return false;
      return widened_int(op->getOperand(0), depth + 1) && widened_int(op->getOperand(1), depth + 1);
    default: return false;
  }
}

unsigned address_estimate(const GetElementPtrInst& gep) {
  if (gep.hasAllConstantIndices()) return 0;
  const Value* index = nullptr;
  for (const Use& u : gep.indices())
    if (!isa<Constant>(u.get())) {
      if (index) return 1;  // several variable indices: leave as one
      index = u.get();
    }
  if (!index->getType()->isIntegerTy(64) || widened_int(index)) return 1;
  if (offset_of_sibling(gep, index)) return 0;
  // The same variable index on the same base earlier in the block, other indices
  // constant: one address, immediate offsets (clang's unrolled As[ty][0..15]).
  for (const Instruction* p = gep.getPrevNode(); p; p = p->getPrevNode())
    if (const auto* other = dyn_cast<GetElementPtrInst>(p);
        other && other->getPointerOperand() == gep.getPointerOperand() && other->getNumIndices() == gep.getNumIndices() &&
        std::find(other->idx_begin(), other->idx_end(), index) != other->idx_end())
      return 0;
  return 2;
}

unsigned arithmetic_estimate(const Instruction& i) {
  using I = Instruction;
  switch (i.getOpcode()) {
    case I::Shl: case I::AShr: case I::LShr:
      return widening_shift(i) ? 0 : 1;
    case I::Add: case I::Sub:
      return fuses_with_operand(i, {I::Mul, I::Shl, I::LShr, I::Add, I::Sub}) ? 0 : 1;
    case I::And: case I::Or: case I::Xor:
      return fuses_with_operand(i, {I::And, I::Or, I::Xor}) ? 0 : 1;
    default: return 1;
  }
}

// An unconditional branch to the header of a loop that contains it: the loop's back edge.
bool jumps_back(const BranchInst& br, const LoopInfo* loops) {
  if (!loops) return false;
  const Loop* l = loops->getLoopFor(br.getParent());
  return l && br.getSuccessor(0) == l->getHeader();
}

// A loop nvcc leaves rolled: `#pragma unroll 1`, or the remainder loop clang's own
// runtime unrolling left behind (it marks it so: the leftover 1-3 iterations), which
// nvcc's code has too. With 2 or 3 dimensions, HW1's index loops run only that
// remainder, every iteration with its compare, branch and pointer steps
// (docs/validation/h200-instructions.md).
bool stays_rolled(const Loop& l) { return findOptionMDForLoop(&l, "llvm.loop.unroll.disable") != nullptr; }

}  // namespace

// The loop control of innermost loops without a barrier: nvcc unrolls them (by 4
// where the trip count is known only at run time), clang -O2 for the CPU mostly does
// not; the latch's branch, its compare and the induction step are charged a quarter
// each, except in a loop that stays rolled.
void SassEstimate::find_loop_control(const LoopInfo& loops) {
  loops_ = &loops;
  quarter_.clear();
  for (const Loop* top : loops)
    for (const Loop* l : depth_first(top)) {
      if (!l->isInnermost() || has_barrier(*l) || stays_rolled(*l)) continue;
      const BasicBlock* latch = l->getLoopLatch();
      const auto* br = latch ? dyn_cast<BranchInst>(latch->getTerminator()) : nullptr;
      if (!br || !br->isConditional()) continue;
      quarter_.insert(br);
      // A pointer nvcc walks through the loop (a 64-bit index): one increment per
      // unrolled iteration, the copies use immediate offsets.
      for (const BasicBlock* b : l->blocks())
        for (const Instruction& i : *b)
          if (const auto* gep = dyn_cast<GetElementPtrInst>(&i); gep && address_estimate(*gep) == 2) quarter_.insert(gep);
      if (const auto* cmp = dyn_cast<ICmpInst>(br->getCondition())) {
        quarter_.insert(cmp);
        for (const Value* v : cmp->operands())
          if (const auto* step = dyn_cast<BinaryOperator>(v); step && step->getOpcode() == Instruction::Add)
            quarter_.insert(step);
      }
    }
}

// The reciprocals nvcc hoists out of loops, in quarters, per preheader: one per
// divisor fixed for the loop (a quotient and a remainder share it).
std::map<const BasicBlock*, unsigned> SassEstimate::hoisted_reciprocals(const Function& f) const {
  std::map<const BasicBlock*, unsigned> extra;
  if (!loops_) return extra;
  std::set<std::pair<const Loop*, const Value*>> seen;
  for (const BasicBlock& b : f)
    for (const Instruction& i : b) {
      if (!is_division(i) || divisor_is_constant(i) || runtime_.uninstrumented_location(i.getDebugLoc().get())) continue;
      const Loop* l = loops_->getLoopFor(&b);
      if (!l || !l->isLoopInvariant(i.getOperand(1)) || !l->getLoopPreheader()) continue;
      if (!seen.insert({l, i.getOperand(1)}).second) continue;
      const bool is_signed = i.getOpcode() == Instruction::SDiv || i.getOpcode() == Instruction::SRem;
      extra[l->getLoopPreheader()] += 4 * (is_signed ? kSignedReciprocal : kUnsignedReciprocal);
    }
  return extra;
}

void SassEstimate::find_fused_shared(const Function& f) { fused_ = fused_shared_followers(f); }

unsigned SassEstimate::quarters(const Instruction& i) const {
  if (fused_.count(&i) || unrolled_.vanishes(i)) return 0;
  const unsigned n = sass_estimate(i, runtime_, loops_);
  return quarter_.count(&i) ? n : 4 * n;
}

unsigned sass_estimate(const Instruction& i, const RuntimeFiles& runtime, const LoopInfo* loops) {
  const bool ours = runtime.uninstrumented_location(i.getDebugLoc().get());
  if (const auto* call = dyn_cast<CallBase>(&i)) {
    const Function* callee = call->getCalledFunction();
    const bool marker = callee && callee->getName().startswith("__simt_site_");
    return ours && !marker ? 0 : call_estimate(*call);  // markers live in our headers; other calls there are ours
  }
  if (ours) return runtime_estimate(i);
  if (canonical_nan_step(i)) return 0;  // the GPU makes its NaN itself
  switch (i.getOpcode()) {
    // Folded into other instructions: register moves, address widening, offsets.
    case Instruction::PHI: case Instruction::BitCast: case Instruction::PtrToInt: case Instruction::IntToPtr:
    case Instruction::AddrSpaceCast: case Instruction::SExt: case Instruction::ZExt: case Instruction::Trunc:
    case Instruction::ExtractValue: case Instruction::InsertValue: case Instruction::Freeze:
    case Instruction::Alloca: case Instruction::Unreachable:
      return 0;
    case Instruction::GetElementPtr: return address_estimate(cast<GetElementPtrInst>(i));
    case Instruction::Br:
      // An unconditional jump is mostly a fall-through, except a loop's way back: a
      // real BRA on the GPU, and in `while (*flag == 0) {}` compiled to a register
      // loop the only instruction there is, which the watchdog must see counted.
      return cast<BranchInst>(i).isConditional() || jumps_back(cast<BranchInst>(i), loops) ? 1 : 0;
    case Instruction::Switch:
      return 2 * cast<SwitchInst>(i).getNumCases();  // compare and branch per case
    case Instruction::SDiv: case Instruction::UDiv:
      return divisor_is_constant(i) ? kDivideByConstant : divide_cost(i, loops).divide;
    case Instruction::SRem: case Instruction::URem:
      if (divisor_is_constant(i)) return kDivideByConstant;
      return has_matching_divide(i) ? divide_cost(i, loops).remainder_after_divide : divide_cost(i, loops).remainder_alone;
    case Instruction::FDiv: return kFpSequence;
    default: return arithmetic_estimate(i);  // integer and FP arithmetic, compares, selects, conversions, memory, ret
  }
}

BlockCounter::BlockCounter(Module& m, const RuntimeFiles& runtime, SiteTable& sites)
    : runtime_(runtime), sites_(sites), estimate_(runtime), folder_(m), debug_(pass_options().pass_debug_insts) {
  LLVMContext& c = m.getContext();
  hook_ = entry_point(m, "__simt_block",
                      FunctionType::get(Type::getVoidTy(c), {Type::getInt32Ty(c), Type::getInt8PtrTy(c)}, false));
}

void BlockCounter::run(Function& f) {
  if (pass_options().pass_no_insts) return;  // to measure what counting instructions costs (docs/perf-log.md)
  DominatorTree dt(f);
  PostDominatorTree pdt(f);
  LoopInfo loops(dt);
  estimate_.find_loop_control(loops);
  estimate_.find_fused_shared(f);
  estimate_.find_unrolled(f, loops);
  std::map<const BasicBlock*, unsigned> hoisted = estimate_.hoisted_reciprocals(f);
  // A block runs exactly as often as its immediate dominator when it also
  // post-dominates it within the same loop: the two are control-equivalent, and one
  // record serves both (inlined counting code splits a source block into several).
  std::map<BasicBlock*, BasicBlock*> head;
  std::map<BasicBlock*, unsigned> total;
  std::vector<BasicBlock*> order;
  for (DomTreeNode* node : depth_first(dt.getRootNode())) {
    BasicBlock* b = node->getBlock();
    DomTreeNode* up = node->getIDom();
    BasicBlock* d = up ? up->getBlock() : nullptr;
    head[b] = d && pdt.dominates(b, d) && loops.getLoopFor(b) == loops.getLoopFor(d) ? head[d] : b;
    unsigned n = (b == &f.getEntryBlock() ? 4 * kernel_entry_estimate(f) : 0) + hoisted[b];
    for (Instruction& i : *b) {
      n += estimate_.quarters(i);
      if (debug_) errs() << "simt-insts " << f.getName() << " q=" << estimate_.quarters(i) << " " << i << "\n";
    }
    total[head[b]] += n;
    order.push_back(b);
  }
  std::map<BasicBlock*, const Instruction*> located;  // the site: the group's first line the user wrote
  for (BasicBlock* b : order) {
    if (located.count(head[b])) continue;
    for (const Instruction& i : *b)
      if (const DILocation* loc = runtime_.user_frame(i.getDebugLoc().get());
          loc && loc->getLine() != 0 && !isa<PHINode>(i)) {
        located[head[b]] = &i;
        break;
      }
  }
  std::map<BasicBlock*, Constant*> group_site;
  for (BasicBlock* b : order) {
    if (head[b] != b || total[b] == 0 || b->isEHPad()) continue;
    Instruction* at = &*b->getFirstInsertionPt();
    const Instruction* site_at = located.count(b) ? located[b] : at;
    IRBuilder<> builder(at);
    Constant* site = sites_.site_of(*site_at, "bb" + std::to_string(next_++));
    // A call that will be inlined needs a location in a function with debug info
    // (else the inlined code has none and DWARF emission fails): line 0 if need be.
    DebugLoc where = site_at->getDebugLoc();
    if (!where)
      if (DISubprogram* sp = f.getSubprogram()) where = DILocation::get(f.getContext(), 0, 0, sp);
    builder.CreateCall(hook_, {builder.getInt32(total[b]), site})->setDebugLoc(where);
    group_site[b] = site;
  }
  record_chains(f, loops, group_site);
  if (!pass_options().pass_no_fold_fp) folder_.fold(f, group_site, head);  // unset: to measure (docs/perf-log.md)
}

// Each loop's carried chain, on the record of its header's group (the header runs
// once per iteration and heads its own group: its dominator lies outside the loop);
// the chain of the code outside loops on the entry block's group (once per thread).
void BlockCounter::record_chains(const Function& f, const LoopInfo& loops,
                                 const std::map<BasicBlock*, Constant*>& group_site) {
  const auto entry = group_site.find(const_cast<BasicBlock*>(&f.getEntryBlock()));
  if (entry != group_site.end())
    if (const unsigned tenths = straight_chain_tenths(f, loops))
      folder_.add(entry->second, entry->second, kStraightChainOp, tenths);
  for (const Loop* top : loops)
    for (const Loop* l : depth_first(top)) {
      const auto it = group_site.find(l->getHeader());
      if (it == group_site.end()) continue;
      if (const unsigned tenths = carried_chain_tenths(*l, loops))
        folder_.add(it->second, it->second, kCarriedChainOp, tenths);
      if (const unsigned tenths = load_use_chain_tenths(*l, loops))
        folder_.add(it->second, it->second, kLoadUseChainOp, tenths);
    }
}

}  // namespace simt::pass
