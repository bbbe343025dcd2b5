#include "carried_chain.hpp"

#include "canonical_nan.hpp"
#include "loop_tags.hpp"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <algorithm>
#include <map>

namespace simt::pass {

using namespace llvm;

namespace {

// Dependent-issue latencies in tenths of a clock, from one thread's chains of 4096
// dependent operations on the H200 (chain_latency_h200.txt, "alone"): FADD, FMUL and
// FFMA 4.5 clocks; an IEEE division 64.0, sqrtf 62.5, rsqrtf 44.8, expf 49.0. Integer
// and compare/select steps are taken as the FP pipe's 4.5 (IMAD, ISETP, SEL); an
// integer division by a value known at run time as the path from its dividend to its
// quotient, measured on the H100 (docs/validation/data/short_kernels/
// chain_latency_h100_int.txt: `x / d + 12345` 75.3 clocks an iteration signed, 64.1
// unsigned, less the add's 4.5; nvcc hoists the divisor's reciprocal out of the
// loop); a shared load as the catalog's shared latency (29 clocks).
constexpr unsigned kArith = 45, kFdiv = 640, kSqrt = 625, kRsqrt = 448, kLibrary = 490, kShared = 290;
constexpr unsigned kSignedDivide = 708, kUnsignedDivide = 596;

unsigned call_latency(const CallBase& call) {
  const Function* f = call.getCalledFunction();
  if (!f) return 0;
  const StringRef name = f->getName();
  if (const auto* in = dyn_cast<IntrinsicInst>(&call)) {
    switch (in->getIntrinsicID()) {
      case Intrinsic::fma: case Intrinsic::fmuladd: case Intrinsic::minnum: case Intrinsic::maxnum:
      case Intrinsic::minimum: case Intrinsic::maximum: case Intrinsic::fabs: case Intrinsic::smin:
      case Intrinsic::smax: case Intrinsic::umin: case Intrinsic::umax: case Intrinsic::abs:
        return kArith;
      case Intrinsic::sqrt: return kSqrt;
      default: return 0;
    }
  }
  if (name.startswith("__simt_cuda_")) return name.contains("rsqrt") ? kRsqrt : kLibrary;  // expf, logf ... (sim/math)
  return 0;  // simtlab's hooks, collectives and atomics: charged elsewhere or not at all
}

bool shared_load(const LoadInst& ld) {
  const auto* gv = dyn_cast<GlobalVariable>(getUnderlyingObject(ld.getPointerOperand()));
  return gv && gv->isThreadLocal() && !gv->isDeclaration();  // a __shared__ array is a worker's thread-local here
}

unsigned latency(const Instruction& i) {
  if (canonical_nan_step(i)) return 0;  // simtlab's NaN bits: the GPU's FP units do it themselves
  switch (i.getOpcode()) {
    case Instruction::FAdd: case Instruction::FSub: case Instruction::FMul: case Instruction::FCmp:
    case Instruction::Add: case Instruction::Sub: case Instruction::Mul: case Instruction::Shl:
    case Instruction::LShr: case Instruction::AShr: case Instruction::And: case Instruction::Or:
    case Instruction::Xor: case Instruction::ICmp: case Instruction::Select: case Instruction::SIToFP:
    case Instruction::UIToFP: case Instruction::FPToSI: case Instruction::FPToUI: case Instruction::FPExt:
    case Instruction::FPTrunc:
      return kArith;
    case Instruction::FDiv: return kFdiv;
    case Instruction::SDiv: case Instruction::SRem:
      return isa<Constant>(i.getOperand(1)) ? 3 * kArith : kSignedDivide;
    case Instruction::UDiv: case Instruction::URem:
      return isa<Constant>(i.getOperand(1)) ? 3 * kArith : kUnsignedDivide;
    case Instruction::Load: return shared_load(cast<LoadInst>(i)) ? kShared : 0;
    case Instruction::Call: return call_latency(cast<CallBase>(i));
    default: return 0;  // phis, casts, addresses: no instruction of their own on the chain
  }
}

// A warp collective (a shuffle, a vote) in the load-use chain: the catalog's dependent
// shuffle on the H200 (30.3 clocks, micro_shuffle_chain).
constexpr unsigned kCollective = 303;

bool collective(const Instruction& i) {
  const auto* call = dyn_cast<CallBase>(&i);
  const Function* f = call ? call->getCalledFunction() : nullptr;
  if (!f) return false;
  const StringRef name = f->getName();
  return name == "__simt_site_collective" || name == "__simt_collective_at";
}

// A load from global memory whose address moves with the loop: not a __shared__
// array, not the thread's stack, not a value read from one place every iteration
// (the launch's geometry, which is a register on the GPU).
bool moving_global_load(const Loop& l, const LoadInst& ld) {
  if (shared_load(ld) || isa<AllocaInst>(getUnderlyingObject(ld.getPointerOperand()))) return false;
  return !l.isLoopInvariant(ld.getPointerOperand());
}

// The longest chain from `from`'s users to `to`, within one iteration of `l`'s body
// (its own blocks, not inner loops'), in tenths; -1 when `to` is not reached.
class Chains {
 public:
  Chains(const Loop& l, const LoopInfo& loops) : l_(l), loops_(loops) {}
  long longest(const Instruction* from, const Value* to) {
    memo_.clear();
    to_ = to;
    return after(from);
  }

 private:
  long after(const Instruction* x) {
    long best = -1;
    for (const User* u : x->users()) {
      const auto* i = dyn_cast<Instruction>(u);
      if (!i || !l_.contains(i) || loops_.getLoopFor(i->getParent()) != &l_) continue;
      if (isa<PHINode>(i) && i->getParent() == l_.getHeader()) continue;  // the next iteration
      const long rest = i == to_ ? 0 : through(i);
      if (rest >= 0) best = std::max(best, long(latency(*i)) + rest);
    }
    return best;
  }
  long through(const Instruction* i) {
    auto [it, fresh] = memo_.try_emplace(i, -1);
    if (fresh) it->second = after(i);  // within one iteration the users form no cycle
    return it->second;
  }
  const Loop& l_;
  const LoopInfo& loops_;
  const Value* to_ = nullptr;
  std::map<const Instruction*, long> memo_;
};

// The longest chain from a value's users to the end of one iteration of `l`'s body
// (its own blocks; the header's phis are the next iteration), in tenths.
class UseChains {
 public:
  UseChains(const Loop& l, const LoopInfo& loops) : l_(l), loops_(loops) {}
  long after(const Instruction* x) {
    long best = 0;
    for (const User* u : x->users()) {
      const auto* i = dyn_cast<Instruction>(u);
      if (!i || loops_.getLoopFor(i->getParent()) != &l_) continue;
      if (isa<PHINode>(i) && i->getParent() == l_.getHeader()) continue;
      best = std::max(best, long(collective(*i) ? kCollective : latency(*i)) + through(i));
    }
    return best;
  }

 private:
  long through(const Instruction* i) {
    if (const auto it = memo_.find(i); it != memo_.end()) return it->second;
    const long c = after(i);  // within one iteration the users form no cycle
    memo_[i] = c;
    return c;
  }
  const Loop& l_;
  const LoopInfo& loops_;
  std::map<const Instruction*, long> memo_;
};

// An induction variable: the phi's next value is the phi plus or minus a step fixed for
// the loop — a constant, or a value read from an address fixed for the loop (simtlab
// reads `blockDim.x` of a grid-stride loop from the launch's geometry each iteration;
// on the GPU it is a register). Its one add is issued ahead of the body that uses it.
// A sum of loaded elements (`n += count[i]`) is a chain: the address moves.
bool fixed_for(const Loop& l, const Value* v) {
  while (const auto* cast = dyn_cast<CastInst>(v)) v = cast->getOperand(0);
  if (l.isLoopInvariant(v)) return true;
  const auto* load = dyn_cast<LoadInst>(v);
  return load && l.isLoopInvariant(load->getPointerOperand());
}

bool induction(const Loop& l, const PHINode& phi, const Value* next) {
  const auto* op = dyn_cast<BinaryOperator>(next);
  if (!op || (op->getOpcode() != Instruction::Add && op->getOpcode() != Instruction::Sub)) return false;
  const Value *a = op->getOperand(0), *b = op->getOperand(1);
  if (a == &phi) return fixed_for(l, b);
  return op->getOpcode() == Instruction::Add && b == &phi && fixed_for(l, a);
}

// The chain from `i` to the end of the straight-line code: its own latency and the
// longest chain of its users outside loops, which `chain` holds already.
long straight_chain_from(const Instruction& i, const LoopInfo& loops, const std::map<const Instruction*, long>& chain) {
  long rest = 0;
  for (const User* u : i.users()) {
    const auto* user = dyn_cast<Instruction>(u);
    if (!user || loops.getLoopFor(user->getParent())) continue;
    if (const auto it = chain.find(user); it != chain.end()) rest = std::max(rest, it->second);
  }
  return (isa<LoadInst>(i) ? 0 : long(latency(i))) + rest;
}

}  // namespace

unsigned straight_chain_tenths(const Function& f, const LoopInfo& loops) {
  // Post-order visits a block after the blocks it leads to (outside loops the code is
  // acyclic), and a block's instructions are taken last to first: every user's chain
  // is known before its operand's.
  std::map<const Instruction*, long> chain;
  long most = 0;
  for (const BasicBlock* b : post_order(&f.getEntryBlock())) {
    if (loops.getLoopFor(b)) continue;
    for (const Instruction& i : reverse(*b)) {
      const long c = straight_chain_from(i, loops, chain);
      chain[&i] = c;
      most = std::max(most, c);
    }
  }
  return static_cast<unsigned>(most);
}

unsigned carried_chain_tenths(const Loop& l, const LoopInfo& loops) {
  const BasicBlock* latch = l.getLoopLatch();
  if (!latch) return 0;
  Chains chains(l, loops);
  long most = 0;
  for (const PHINode& phi : l.getHeader()->phis()) {
    const auto* next = dyn_cast<Instruction>(phi.getIncomingValueForBlock(latch));
    if (!next || induction(l, phi, next)) continue;
    most = std::max(most, chains.longest(&phi, next));
  }
  return static_cast<unsigned>(most);
}

unsigned load_use_chain_tenths(const Loop& l, const LoopInfo& loops) {
  if (batches_global_loads(l)) return 0;
  UseChains chains(l, loops);
  long most = 0;
  for (const BasicBlock* b : l.blocks()) {
    if (loops.getLoopFor(b) != &l) continue;
    for (const Instruction& i : *b)
      if (const auto* ld = dyn_cast<LoadInst>(&i); ld && moving_global_load(l, *ld))
        most = std::max(most, chains.after(ld));
  }
  return static_cast<unsigned>(most);
}

}  // namespace simt::pass
