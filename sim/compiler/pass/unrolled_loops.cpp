#include "unrolled_loops.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace simt::pass {

using namespace llvm;

namespace {

// The unrolled size (trip count x IR instructions of the body) up to which nvcc is
// taken to unroll a constant-trip loop completely. nvcc's own threshold is not
// documented; the loops this must catch (64-wide register rows, 16- and 32-wide
// tiles) stay well under it, a 1024-iteration copy loop well over.
constexpr std::uint64_t kFullUnrollBudget = 4096;

struct ConstantTrip {
  const PHINode* iv = nullptr;
  const Instruction* step = nullptr;  // iv + S
  const Instruction* compare = nullptr;
  const BranchInst* latch = nullptr;
  std::uint64_t trips = 0;
};

// `iv = phi [C0, preheader], [iv + S, latch]` with the latch leaving on a compare of
// iv + S (or iv) with a constant C1: (C1 - C0) / S iterations, rounded up.
std::optional<ConstantTrip> constant_trip(const Loop& l) {
  const BasicBlock* latch = l.getLoopLatch();
  const BasicBlock* pre = l.getLoopPredecessor();  // the way in; not always a dedicated preheader
  const auto* br = latch ? dyn_cast<BranchInst>(latch->getTerminator()) : nullptr;
  if (!pre || !br || !br->isConditional()) return std::nullopt;
  const auto* cmp = dyn_cast<ICmpInst>(br->getCondition());
  const auto* limit = cmp ? dyn_cast<ConstantInt>(cmp->getOperand(1)) : nullptr;
  if (!limit) return std::nullopt;
  const Value* lhs = cmp->getOperand(0);
  for (const PHINode& phi : l.getHeader()->phis()) {
    const auto* start = dyn_cast<ConstantInt>(phi.getIncomingValueForBlock(pre));
    const auto* step = dyn_cast<BinaryOperator>(phi.getIncomingValueForBlock(latch));
    if (!start || !step || step->getOpcode() != Instruction::Add || step->getOperand(0) != &phi) continue;
    const auto* by = dyn_cast<ConstantInt>(step->getOperand(1));
    if (!by || (lhs != step && lhs != &phi)) continue;
    const std::int64_t s = by->getSExtValue(), from = start->getSExtValue(), to = limit->getSExtValue();
    if (s == 0 || (to - from) / s <= 0) return std::nullopt;
    const std::uint64_t trips = std::uint64_t(((to - from) + s - (s > 0 ? 1 : -1)) / s) + (lhs == &phi ? 1 : 0);
    return ConstantTrip{&phi, step, cmp, br, trips};
  }
  return std::nullopt;
}

// A value that is the induction variable of an unrolled loop plus, or-ed with, or
// scaled by what the loop does not change: in each copy an address's base register
// plus an immediate offset. With `constants_only`, by constants alone: an index that
// is a constant in every copy, as a register array's must be.
bool offset_of(const Value* v, const Loop& l, const PHINode* iv, bool constants_only, int depth = 0) {
  if (v == iv) return true;
  const auto* op = dyn_cast<BinaryOperator>(v);
  if (!op || depth > 4 || !l.contains(op)) return false;
  switch (op->getOpcode()) {
    case Instruction::Add: case Instruction::Or: case Instruction::Shl: case Instruction::Mul: break;
    default: return false;
  }
  auto fixed = [&](const Value* x) { return constants_only ? isa<ConstantInt>(x) : l.isLoopInvariant(x); };
  const Value *a = op->getOperand(0), *b = op->getOperand(1);
  if (fixed(b)) return offset_of(a, l, iv, constants_only, depth + 1);
  if (fixed(a)) return offset_of(b, l, iv, constants_only, depth + 1);
  return false;
}

// Only addresses and the loop's own control use it.
bool feeds_addresses_only(const Instruction& i, const ConstantTrip& t) {
  for (const User* u : i.users()) {
    if (u == t.compare || u == t.iv) continue;
    if (isa<GetElementPtrInst>(u)) continue;
    if (isa<BinaryOperator>(u) || isa<SExtInst>(u) || isa<ZExtInst>(u))
      if (feeds_addresses_only(*cast<Instruction>(u), t)) continue;
    return false;
  }
  return true;
}

// A use of the whole array that keeps it in registers: its lifetime and a memset
// (zeroing registers: nothing), a copy to or from memory (clang's form of an
// unrolled element-by-element copy; the stores or loads remain, so it stays charged).
bool whole_array_use(const IntrinsicInst& in, std::vector<const Instruction*>& vanishing) {
  if (in.isLifetimeStartOrEnd() || in.getIntrinsicID() == Intrinsic::memset) {
    vanishing.push_back(&in);
    return true;
  }
  return in.getIntrinsicID() == Intrinsic::memcpy || in.getIntrinsicID() == Intrinsic::memmove;
}

}  // namespace

bool has_barrier(const Loop& l) {
  for (const BasicBlock* b : l.blocks())
    for (const Instruction& i : *b)
      if (const auto* call = dyn_cast<CallBase>(&i))
        if (const Function* callee = call->getCalledFunction();
            callee && (callee->getName() == "__simt_site_barrier" || callee->getName() == "__simt_site_grid_sync"))
          return true;
  return false;
}

void UnrolledLoops::compute(const Function& f, const LoopInfo& loops) {
  gone_.clear();
  std::map<const Loop*, ConstantTrip> unrolled;
  for (const Loop* l : loops.getLoopsInPreorder()) {
    if (!l->isInnermost() || has_barrier(*l)) continue;
    const std::optional<ConstantTrip> t = constant_trip(*l);
    if (!t) continue;
    std::uint64_t body = 0;
    for (const BasicBlock* b : l->blocks()) body += b->sizeWithoutDebug();  // the same with -g or without
    if (t->trips * body > kFullUnrollBudget) continue;
    unrolled.emplace(l, *t);
    gone_.insert({t->latch, t->compare, t->step});
    for (const BasicBlock* b : l->blocks())
      for (const Instruction& i : *b) {
        if (const auto* gep = dyn_cast<GetElementPtrInst>(&i)) {
          bool offsets = true;
          for (const Use& u : gep->indices())
            offsets &= isa<Constant>(u.get()) || l->isLoopInvariant(u.get()) || offset_of(u.get(), *l, t->iv, false);
          if (offsets) gone_.insert(gep);
        } else if (isa<BinaryOperator>(i) && offset_of(&i, *l, t->iv, false) && feeds_addresses_only(i, *t)) {
          gone_.insert(&i);
        }
      }
  }
  // A local array every access of which is at a constant index, in straight-line
  // code or in the copies of an unrolled loop: registers.
  for (const BasicBlock& b : f)
    for (const Instruction& i : b) {
      const auto* array = dyn_cast<AllocaInst>(&i);
      if (!array || !array->getAllocatedType()->isArrayTy()) continue;
      std::vector<const Instruction*> accesses;
      bool registers = true;
      for (const User* u : array->users()) {
        if (const auto* gep = dyn_cast<GetElementPtrInst>(u)) {
          const Loop* l = loops.getLoopFor(gep->getParent());
          const auto it = l ? unrolled.find(l) : unrolled.end();
          for (const Use& idx : gep->indices())
            registers &= isa<Constant>(idx.get()) ||
                         (it != unrolled.end() && offset_of(idx.get(), *l, it->second.iv, true));
          for (const User* access : gep->users()) {
            const auto* ld = dyn_cast<LoadInst>(access);
            const auto* st = dyn_cast<StoreInst>(access);
            registers &= ld || (st && st->getPointerOperand() == gep);
            accesses.push_back(cast<Instruction>(access));
          }
        } else if (const auto* in = dyn_cast<IntrinsicInst>(u)) {
          registers &= whole_array_use(*in, accesses);
        } else if (const auto* cast_ = dyn_cast<BitCastInst>(u)) {
          for (const User* w : cast_->users()) {
            const auto* in = dyn_cast<IntrinsicInst>(w);
            registers &= in && whole_array_use(*in, accesses);
          }
        } else {
          registers = false;
        }
        if (!registers) break;
      }
      if (registers) gone_.insert(accesses.begin(), accesses.end());
    }
}

}  // namespace simt::pass
