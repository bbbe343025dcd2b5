#include "fused_shared.hpp"

#include <llvm/ADT/MapVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/Support/KnownBits.h>

#include <cstdint>
#include <map>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace simt::pass {

using namespace llvm;

namespace {

constexpr std::int64_t kWord = 4;

// An address as array + sum of (value x bytes) + constant bytes, through nested GEPs.
struct Decomposed {
  const GlobalVariable* array = nullptr;
  std::vector<std::pair<const Value*, std::int64_t>> terms;  // sorted: the run's key
  std::int64_t constant = 0;
  unsigned aligned_bits = 0;  // the variable terms' common power of two, in bits of bytes
};

// x + c, or x | c where c lies in x's known-zero low bits (clang's unrolled copies
// index iv, iv | 1, iv | 2 ...): x and c.
std::pair<const Value*, std::int64_t> split_constant(const Value* v, const DataLayout& dl) {
  const auto* op = dyn_cast<BinaryOperator>(v);
  const auto* c = op ? dyn_cast<ConstantInt>(op->getOperand(1)) : nullptr;
  if (!c || c->getBitWidth() > 64) return {v, 0};
  if (op->getOpcode() == Instruction::Add) return {op->getOperand(0), c->getSExtValue()};
  if (op->getOpcode() == Instruction::Or &&
      computeKnownBits(op->getOperand(0), dl).countMinTrailingZeros() >= c->getValue().getActiveBits())
    return {op->getOperand(0), c->getSExtValue()};
  return {v, 0};
}

// v x scale as variable terms and a constant: a sum of variables splits into its
// addends, so that a fully unrolled loop's copies `(iv | 1) + row` and `iv + row`
// share the terms iv and row and differ by a constant.
void add_terms(const Value* v, std::int64_t scale, const DataLayout& dl, std::map<const Value*, std::int64_t>& terms,
               std::int64_t& constant, int depth = 0) {
  const auto* op = dyn_cast<BinaryOperator>(v);
  if (op && op->getOpcode() == Instruction::Add && !isa<ConstantInt>(op->getOperand(1)) && depth < 4) {
    add_terms(op->getOperand(0), scale, dl, terms, constant, depth + 1);
    add_terms(op->getOperand(1), scale, dl, terms, constant, depth + 1);
    return;
  }
  const auto [base, offset] = split_constant(v, dl);
  terms[base] += scale;
  constant += offset * scale;
}

bool decompose(const Value* ptr, const DataLayout& dl, Decomposed& out) {
  std::map<const Value*, std::int64_t> terms;
  const Value* p = ptr->stripPointerCasts();
  while (const auto* gep = dyn_cast<GEPOperator>(p)) {
    MapVector<Value*, APInt> vars;
    APInt constant(64, 0);
    if (!gep->collectOffset(dl, 64, vars, constant)) return false;
    out.constant += constant.getSExtValue();
    for (auto& [v, scale] : vars) add_terms(v, scale.getSExtValue(), dl, terms, out.constant);
    p = gep->getPointerOperand()->stripPointerCasts();
  }
  const auto* gv = dyn_cast<GlobalVariable>(p);
  if (!gv || !gv->isThreadLocal() || gv->isDeclaration() || gv->getAlign().valueOrOne().value() < 16) return false;
  out.array = gv;
  out.aligned_bits = 4;  // 16 bytes, unless a term says less
  for (auto& [v, scale] : terms) {
    if (scale == 0) continue;
    const unsigned known = computeKnownBits(v, dl).countMinTrailingZeros();
    const unsigned bits = std::min(63u, known + unsigned(__builtin_ctzll(static_cast<unsigned long long>(scale))));
    out.aligned_bits = std::min(out.aligned_bits, bits);
    out.terms.emplace_back(v, scale);
  }
  return true;
}

// `epoch`: a run does not reach across an access of the other kind to its array (a
// load after a store to the same array waits for it: thread 0's serial scan of
// chunk sums, read and rewritten word by word, stays scalar on the GPU) nor across a
// barrier.
struct RunKey {
  const GlobalVariable* array;
  std::vector<std::pair<const Value*, std::int64_t>> terms;
  bool store;
  unsigned epoch;
  bool operator<(const RunKey& o) const {
    return std::tie(array, terms, store, epoch) < std::tie(o.array, o.terms, o.store, o.epoch);
  }
};

bool is_barrier(const Instruction& i) {
  const auto* call = dyn_cast<CallBase>(&i);
  const Function* callee = call ? call->getCalledFunction() : nullptr;
  return callee && callee->getName().startswith("__simt_site_barrier");
}

struct Run {
  unsigned aligned_bits = 0;
  std::map<std::int64_t, const Instruction*> by_offset;  // the first access at each offset
};

bool word_access(const Instruction& i, const DataLayout& dl) {
  if (const auto* ld = dyn_cast<LoadInst>(&i)) return ld->isSimple() && dl.getTypeStoreSize(ld->getType()) == kWord;
  if (const auto* st = dyn_cast<StoreInst>(&i))
    return st->isSimple() && dl.getTypeStoreSize(st->getValueOperand()->getType()) == kWord;
  return false;
}

// Wide instructions of `width` bytes out of the offsets still unfused: their
// leaders and followers join `out`.
void fuse(Run& run, std::int64_t width, FusedShared& out) {
  if ((std::int64_t(1) << run.aligned_bits) % width != 0) return;
  for (auto it = run.by_offset.begin(); it != run.by_offset.end();) {
    const std::int64_t first = it->first;
    bool whole = first % width == 0;
    for (std::int64_t o = first + kWord; whole && o < first + width; o += kWord) whole = run.by_offset.count(o) != 0;
    if (!whole) {
      ++it;
      continue;
    }
    out.leaders.emplace(it->second, unsigned(width));
    for (std::int64_t o = first + kWord; o < first + width; o += kWord) {
      out.followers.insert(run.by_offset[o]);
      run.by_offset.erase(o);
    }
    it = run.by_offset.erase(it);
  }
}

}  // namespace

std::set<const Instruction*> fused_shared_followers(const Function& f) { return fused_shared_runs(f).followers; }

FusedShared fused_shared_runs(const Function& f) {
  FusedShared fused;
  const DataLayout& dl = f.getParent()->getDataLayout();
  for (const BasicBlock& b : f) {
    std::map<RunKey, Run> runs;
    std::map<std::pair<const GlobalVariable*, bool>, unsigned> epochs;  // (array, store) -> epoch
    unsigned barriers = 0;
    for (const Instruction& i : b) {
      if (is_barrier(i)) ++barriers;
      if (!isa<LoadInst>(i) && !isa<StoreInst>(i)) continue;
      const bool store = isa<StoreInst>(i);
      Decomposed d;
      if (!decompose(getLoadStorePointerOperand(&i), dl, d)) continue;
      ++epochs[{d.array, !store}];  // the other kind's runs end here
      if (!word_access(i, dl) || d.constant % kWord != 0) continue;
      Run& run = runs[{d.array, d.terms, store, epochs[{d.array, store}] + (barriers << 16)}];
      run.aligned_bits = run.by_offset.empty() ? d.aligned_bits : std::min(run.aligned_bits, d.aligned_bits);
      run.by_offset.emplace(d.constant, &i);
    }
    for (auto& [key, run] : runs) {
      fuse(run, 4 * kWord, fused);
      fuse(run, 2 * kWord, fused);
    }
  }
  return fused;
}

}  // namespace simt::pass
