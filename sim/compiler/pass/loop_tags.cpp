#include "loop_tags.hpp"

#include "count_insts.hpp"
#include "pass_options.hpp"
#include "sim/types/events.hpp"

#include <llvm/Analysis/AssumptionCache.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>

namespace simt::pass {

using namespace llvm;

namespace {

// An instruction nvcc turns into a branch in SASS although it is one instruction in
// the IR: an IEEE division or square root (a reciprocal estimate, then a call of the
// slow path for arguments out of its range; docs/validation/data/sass of
// layernorm_welford shows CALL.REL in each unrolled copy).
bool branches_in_sass(const Instruction& i) {
  if (i.getOpcode() == Instruction::FDiv) return !cast<FPMathOperator>(i).hasAllowReciprocal();
  if (const auto* c = dyn_cast<IntrinsicInst>(&i))
    return c->getIntrinsicID() == Intrinsic::sqrt && !c->hasApproxFunc() && c->getType()->isFloatTy();
  return false;
}

enum class Store { None, Shared, Global };

// Where an instruction stores. A store to global memory may be what the loop's next
// global load reads: nvcc keeps that load after it (softmax_warp_per_row's
// `yr[j] = expf(xr[j] - m) * inv`: load, MUFU, store, load, ... in the SASS). A store
// to a __shared__ variable (a global variable here) cannot alias a global load — the
// GEMMs' tile loops batch their loads — but may be what the next shared load reads
// (a scan through shared memory). The thread's own stack is neither.
Store stores(const Instruction& i) {
  if (const auto* st = dyn_cast<StoreInst>(&i)) {
    const Value* object = getUnderlyingObject(st->getPointerOperand());
    if (isa<AllocaInst>(object)) return Store::None;
    return isa<GlobalVariable>(object) ? Store::Shared : Store::Global;
  }
  return isa<AtomicRMWInst>(i) || isa<AtomicCmpXchgInst>(i) ? Store::Global : Store::None;
}

// A barrier: the loads after it wait for it.
bool barrier(const Instruction& i) {
  const auto* call = dyn_cast<CallBase>(&i);
  const Function* f = call ? call->getCalledFunction() : nullptr;
  return f && (f->getName().contains("syncthreads") || f->getName().contains("barrier"));
}

// A call of a function (not an LLVM intrinsic): simtlab's math functions are calls
// here and straight-line MUFU code in SASS, but a branch around one is a real branch.
// simtlab's access markers (`__simt_site_*`, simt_cuda/markers.h: a float4 or __half
// load or store through a reference) are one memory instruction in SASS: a guarded
// float4 load (`if (in) v = *p`) is a predicated LDG.128 (matmul_warptile's SASS).
bool calls(const Instruction& i) {
  const auto* call = dyn_cast<CallBase>(&i);
  if (!call || isa<IntrinsicInst>(i)) return false;
  const Function* f = call->getCalledFunction();
  return !(f && f->getName().startswith("__simt_site_access"));
}

// The loop's tag bits. Its body is one block, or a guard nvcc predicates (up to four
// blocks, no calls: `if (in bounds) tile[i] = a[j]; else tile[i] = 0`), with nothing
// that branches in SASS and no barrier: nvcc unrolls it and hoists the copies' global
// loads together unless a global store lies between them, and its shared accesses
// unless any store does.
unsigned batch_bits(const Loop& l) {
  const bool one_block = l.getNumBlocks() == 1;
  if (!one_block && l.getNumBlocks() > 4) return 0;
  Store most = Store::None;
  for (const BasicBlock* b : l.blocks())
    for (const Instruction& i : *b) {
      if (branches_in_sass(i) || barrier(i) || (!one_block && calls(i))) return 0;
      most = std::max(most, stores(i));
    }
  return (most != Store::Global ? kSiteLoopBatched : 0) | (most == Store::None ? kSiteLoopSharedBatched : 0);
}

// An arm of a small if-region nvcc predicates (no branch in SASS): a block of at most
// 16 instructions and no calls, whose only predecessor ends in a conditional branch
// and whose other side is either the arm's successor (a triangle) or another such arm
// with the same successor (a diamond). Returns that predecessor, the region's head.
const BasicBlock* head_of_arm(const BasicBlock* a) {
  auto small = [](const BasicBlock* b) {
    return b->size() <= 16 && std::none_of(b->begin(), b->end(), [](const Instruction& i) { return calls(i); });
  };
  const BasicBlock* p = a->getUniquePredecessor();
  const auto* br = p ? dyn_cast<BranchInst>(p->getTerminator()) : nullptr;
  const BasicBlock* join = a->getUniqueSuccessor();
  if (!br || !br->isConditional() || !join || !small(a)) return nullptr;
  const BasicBlock* other = br->getSuccessor(0) == a ? br->getSuccessor(1) : br->getSuccessor(0);
  if (other == join) return p;
  return other->getUniquePredecessor() == p && other->getUniqueSuccessor() == join && small(other) ? p : nullptr;
}

// The head of the predicated region the block belongs to — as an arm, or as the join
// every one of whose predecessors is the head or an arm of it — or null.
const BasicBlock* predicated_head(const BasicBlock& b) {
  if (const BasicBlock* h = head_of_arm(&b)) return h;
  const BasicBlock* head = nullptr;
  bool through_arm = false;
  for (const BasicBlock* q : predecessors(&b)) {
    const BasicBlock* h = head_of_arm(q);
    through_arm |= h != nullptr;
    if (!h) h = q;
    if (head && h != head) return nullptr;
    head = h;
  }
  return through_arm ? head : nullptr;
}

// The largest body, in estimated SASS instructions an iteration, that nvcc unrolls
// 16 deep: layernorm_two_pass_mean's 7, attention_bwd_rowdot's 11, gemv_fp16's 19;
// gemv_fp8's 21 (fp8 and half conversions) stays 4 deep.
constexpr unsigned kDeepLoopBody = 20;
// A loop bounded to this many iterations or fewer is unrolled whole or by its bound
// (matmul_blocktile_2d's tile copies, at most 4 a thread).
constexpr unsigned kDeepLoopTrips = 16;

unsigned body_estimate(const Loop& l, const RuntimeFiles& runtime, const LoopInfo& loops) {
  unsigned n = 0;
  for (const BasicBlock* b : l.blocks())
    for (const Instruction& i : *b) n += sass_estimate(i, runtime, &loops);
  return n;
}

// A loop whose body holds a barrier, or nested in one that does.
bool under_barrier(const Loop* l) {
  for (; l; l = l->getParentLoop())
    for (const BasicBlock* b : l->blocks())
      if (std::any_of(b->begin(), b->end(), [](const Instruction& i) { return barrier(i); })) return true;
  return false;
}

// kSiteLoopDeep (sim/types/events.hpp) for a batched loop. A loop inside a loop with
// barriers copies a tile, a few elements a thread between two barriers, whatever bound
// the IR shows (matmul_blocktile_2d's copies: 4 LDG a block in SASS).
bool unrolled_deep(const Loop& l, unsigned body, ScalarEvolution& se) {
  if (!l.isInnermost() || body > kDeepLoopBody || under_barrier(l.getParentLoop())) return false;
  const unsigned most = se.getSmallConstantMaxTripCount(&l);  // 0: not bounded by a constant
  return most == 0 || most > kDeepLoopTrips;
}

}  // namespace

bool batches_global_loads(const Loop& l) { return (batch_bits(l) & kSiteLoopBatched) != 0; }

void LoopTags::compute(Function& f, const RuntimeFiles& runtime) {
  tags_.clear();
  ordinals_.clear();
  if (f.isDeclaration()) return;
  // A predicated region is one block in SASS: its arms and join take the head's number,
  // unless the head holds a barrier: what follows it waits for the barrier (a k loop
  // that LLVM unrolled twice: the second step's copies after the first's barrier).
  unsigned next = 1;
  for (const BasicBlock& b : f) {
    const BasicBlock* head = predicated_head(b);
    if (head && std::any_of(head->begin(), head->end(), [](const Instruction& i) { return barrier(i); }))
      head = nullptr;
    const auto it = head ? ordinals_.find(head) : ordinals_.end();
    ordinals_.emplace(&b, it != ordinals_.end() ? it->second : next++);
  }
  DominatorTree dt(f);
  LoopInfo loops(dt);
  TargetLibraryInfoImpl tlii(Triple(f.getParent()->getTargetTriple()));
  TargetLibraryInfo tli(tlii);
  AssumptionCache ac(f);
  ScalarEvolution se(f, tli, ac, dt, loops);
  const bool debug = pass_options().pass_debug_loops;
  std::map<const Loop*, unsigned> tag_of;
  for (const Loop* top : loops)
    for (const Loop* l : top->getLoopsInPreorder()) {
      unsigned bits = batch_bits(*l);
      const unsigned body = body_estimate(*l, runtime, loops);
      if ((bits & kSiteLoopBatched) && unrolled_deep(*l, body, se)) bits |= kSiteLoopDeep;
      if (debug)
        errs() << "simt loop " << f.getName() << " id " << next_id_ << ": body " << body << " instructions, at most "
               << se.getSmallConstantMaxTripCount(l) << " trips (0: unbounded), innermost " << l->isInnermost()
               << (bits & kSiteLoopBatched ? ", batched" : "") << (bits & kSiteLoopDeep ? ", 16 deep" : "") << "\n";
      tag_of[l] = (next_id_ & kSiteLoopIdMask) | bits;
      next_id_ = next_id_ % kSiteLoopIdMask + 1;
    }
  for (const BasicBlock& b : f)
    if (const Loop* l = loops.getLoopFor(&b)) tags_[&b] = tag_of.at(l);
}

unsigned LoopTags::barriers_before(const Instruction& i) {
  unsigned n = 0;
  for (const Instruction& j : *i.getParent()) {
    if (&j == &i) break;
    n += barrier(j);
  }
  return n;
}

unsigned LoopTags::ordinal(const BasicBlock* b) const {
  const auto it = ordinals_.find(b);
  return it == ordinals_.end() ? 0 : it->second;
}

unsigned LoopTags::of(const BasicBlock* b) const {
  const auto it = tags_.find(b);
  return it == tags_.end() ? 0 : it->second;
}

}  // namespace simt::pass
