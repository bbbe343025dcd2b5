// simtlab's instrumentation pass (an LLVM pass plugin, loaded by clang with
// -fpass-plugin), memory step: in device code — functions annotated
// __global__/__device__ by simtlab's CUDA headers, and every function they call —
// it puts a call of the simulator's runtime before each load, store, atomic and
// memory intrinsic that remains after optimization, with the site of its source
// location, and gives barriers, collectives and atomics their sites; each group
// of basic blocks records its estimated SASS instructions (count_insts.cpp). The
// floating-point step is count_fp.cpp. See docs/frontend.md.
#include "address_spaces.hpp"
#include "canonical_nan.hpp"
#include "count_fp.hpp"
#include "math_sequences.hpp"
#include "inline_device.hpp"
#include "plain_twin.hpp"
#include "count_insts.hpp"
#include "int_division.hpp"
#include "local_bounds.hpp"
#include "loop_tags.hpp"
#include "host_entry.hpp"
#include "device_code.hpp"
#include "sites.hpp"
#include "startup_calls.hpp"
#include "device_heap_calls.hpp"
#include "pass_options.hpp"
#include "red_or_atom.hpp"
#include "fused_shared.hpp"
#include "unwritten_shared.hpp"

#include "sim/types/events.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>
#include <llvm/Transforms/IPO/AlwaysInliner.h>

#include <algorithm>
#include <cstdlib>
#include <set>
#include <vector>

namespace simt::pass {

using namespace llvm;

namespace {

// A pointer the simulated thread owns or that is not device memory: its locals
// (allocas, by-value arguments), constant data (string literals, tables) and
// __constant__ variables (read through the constant cache: no LDG on the GPU).
// __shared__ variables are thread_local globals and stay instrumented; any other
// global goes to the runtime, which faults on it (it is host memory).
bool statically_private(Value* ptr, const Annotated& marked) {
  const Value* base = getUnderlyingObject(ptr, 0);
  if (isa<AllocaInst>(base)) return true;
  if (const auto* arg = dyn_cast<Argument>(base)) return arg->hasByValAttr();
  if (const auto* gv = dyn_cast<GlobalVariable>(base))
    return !gv->isThreadLocal() && (gv->isConstant() || marked.constant_variables.count(gv));
  return false;
}

// The simulator's own state: thread-locals the runtime library defines
// (t_thread, t_geometry ...) and what is reached through them (threadIdx,
// blockDim ...). Our headers' code is skipped by its debug location already; this
// catches their loads that an optimization moved and left without one (LICM).
// A loop may merge the hoisted loads of the state into a phi (CUB's row_major_tid in a
// token loop): every object the pointer can come from must be runtime state.
bool runtime_state(Value* ptr) {
  SmallVector<const Value*, 4> bases;
  getUnderlyingObjects(ptr, bases, nullptr, 0);
  return !bases.empty() && std::all_of(bases.begin(), bases.end(), [](const Value* base) {
    if (const auto* load = dyn_cast<LoadInst>(base)) base = getUnderlyingObject(load->getPointerOperand(), 0);
    const auto* gv = dyn_cast<GlobalVariable>(base);
    return gv && gv->isThreadLocal() && gv->isDeclaration();
  });
}

// A pointer that cannot be the simulated thread's local: every object it can come
// from is a __shared__ variable (a thread_local global the module defines) or a
// pointer parameter of a kernel (the host passed it; a fiber stack is no address the
// host can know). Its access skips the stack test (simt_cuda/hooks.h).
bool never_local(Value* ptr, const Annotated& marked) {
  SmallVector<const Value*, 4> bases;
  getUnderlyingObjects(ptr, bases, nullptr, 0);
  return !bases.empty() && std::all_of(bases.begin(), bases.end(), [&](const Value* base) {
    if (const auto* gv = dyn_cast<GlobalVariable>(base)) return gv->isThreadLocal() && !gv->isDeclaration();
    const auto* arg = dyn_cast<Argument>(base);
    return arg && !arg->hasByValAttr() &&
           std::find(marked.kernels.begin(), marked.kernels.end(), arg->getParent()) != marked.kernels.end();
  });
}

// A __device__ variable would be host memory here: refused at compile time,
// naming the line, rather than faulting at run time.
const GlobalVariable* device_variable(Value* ptr, const Annotated& marked) {
  const auto* gv = dyn_cast<GlobalVariable>(getUnderlyingObject(ptr, 0));
  return gv && marked.device_variables.count(gv) && !marked.constant_variables.count(gv) ? gv : nullptr;
}

class Instrumenter {
 public:
  Instrumenter(Module& m, const RuntimeFiles& runtime, const Annotated& marked)
      : m_(m), runtime_(runtime), marked_(marked), sites_(m, runtime), blocks_(m, runtime, sites_) {
    LLVMContext& c = m.getContext();
    Type* i8p = Type::getInt8PtrTy(c);
    Type* i32 = Type::getInt32Ty(c);
    Type* i64 = Type::getInt64Ty(c);
    Type* v = Type::getVoidTy(c);
    access_ = entry_point(m, "__simt_access", FunctionType::get(i8p, {i8p, i32, i32, i8p}, false));
    access_nonlocal_ = entry_point(m, "__simt_access_nonlocal", FunctionType::get(i8p, {i8p, i32, i32, i8p}, false));
    translate_ = entry_point(m, "__simt_translate", FunctionType::get(i8p, {i8p}, false));
    translate_dram_ = entry_point(m, "__simt_translate_dram",
                                  FunctionType::get(i8p, {i8p, i32, i32, PointerType::getUnqual(i64)}, false));
    translate_dram_range_ = m.getOrInsertFunction("__simt_translate_dram_range", i8p, i8p, i64, i32);
    range_ = m.getOrInsertFunction("__simt_access_range", i8p, i8p, i64, i32, i32, i8p);
    access_volatile_ = m.getOrInsertFunction("__simt_access_volatile", i8p, i8p, i32, i32, i8p);
    (void)v;
  }

  // Device code: the user's accesses are counted and checked; those of simtlab's
  // own headers inlined here only reach memory through the host mapping.
  void run(Function& f) {
    loops_.compute(f, runtime_);
    tagged_ = &f;
    fused_ = fused_shared_runs(f);  // on the code as it came, before any call is added
    blocks_.run(f);  // the instruction estimate, before the accesses' calls are added
    std::vector<Instruction*> todo, ours;
    for (Instruction& i : instructions(f))
      (runtime_.uninstrumented_location(i.getDebugLoc().get()) ? ours : todo).push_back(&i);
    for (Instruction* i : todo) instrument(*i);
    for (Instruction* i : ours) translate(*i, false);
    bind_marked_calls(f);  // with the loops' tags, as the accesses above
    // Last: the checks split blocks, which the sites' loop flags above must not see.
    guard_local_bounds(f, todo, sites_);
  }
  // simtlab's functions that device code calls out of line: translated only.
  // With `dram`, a kernel's plain twin: its global loads and stores also feed the DRAM
  // estimate, which counts each sector once a launch, so that a sampled launch's is
  // its every block's, not a scaled sample's (sim/shortcuts/sampling.cpp).
  void run_translate_only(Function& f, bool dram = false) {
    std::vector<Instruction*> all;
    for (Instruction& i : instructions(f)) all.push_back(&i);
    for (Instruction* i : all) translate(*i, dram);
  }
  // Calls of __simt_site_NAME(args) in simtlab's headers become
  // __simt_NAME_at(args, site): barriers, collectives and atomics learn their site.
  void bind_marked_calls(Function& f);
  void redirect_assert(Function& f);
  void finish() {
    sites_.emit_registration();
    blocks_.finish();
  }
  std::size_t sites() const { return sites_.size(); }

 private:
  // The instruction's pointer operand `use` goes through the runtime's call, and the
  // access uses what the call returns: the host mapping of a device address. The
  // pointer itself (the device view) is never dereferenced by compiled code.
  // `is_volatile`: a volatile load or store, which another warp may poll or set between
  // barriers (a flag): its own entry point, which also tells the race check's
  // thread-level ordering (sim/check/release_acquire.hpp), and a site marked volatile.
  // A shared access nvcc fuses with its neighbours (fused_shared.hpp) is recorded
  // once, as the wide access: its run's first word with the run's width; the others
  // only reach memory through the host mapping.
  void access(Instruction& at, Use& use, Type* type, unsigned op, bool is_volatile = false) {
    Value* ptr = use.get();
    if (const GlobalVariable* gv = device_variable(ptr, marked_)) return refuse(at, *gv);
    if (statically_private(ptr, marked_) || runtime_state(ptr)) return;
    if (fused_.followers.count(&at)) return through_host_mapping(at, use);
    IRBuilder<> b(&at);
    const auto wide = fused_.leaders.find(&at);
    unsigned size = wide != fused_.leaders.end() ? wide->second : unsigned(m_.getDataLayout().getTypeStoreSize(type));
    FunctionCallee entry = is_volatile ? access_volatile_ : never_local(ptr, marked_) ? access_nonlocal_ : access_;
    Constant* site = is_volatile ? sites_.site_of(at, "vmem", in_loop(at), kSiteVolatile | block_flags(at), loop_of(at))
                                 : sites_.site_of(at, "mem", in_loop(at), block_flags(at), loop_of(at));
    if (isa<LoadInst>(at)) sites_.note_load_copy(site, at, loops_.ordinal(at.getParent()));
    CallInst* call = b.CreateCall(entry, {b.CreatePointerCast(ptr, b.getInt8PtrTy()), b.getInt32(size),
                                          b.getInt32(op), site});
    ensure_location(*call);
    use.set(b.CreatePointerCast(call, ptr->getType()));
  }
  void range(Instruction& at, Use& use, Value* len, unsigned align, unsigned op) {
    Value* ptr = use.get();
    if (const GlobalVariable* gv = device_variable(ptr, marked_)) return refuse(at, *gv);
    if (statically_private(ptr, marked_)) return;
    IRBuilder<> b(&at);
    CallInst* call = b.CreateCall(range_, {b.CreatePointerCast(ptr, b.getInt8PtrTy()),
                                           b.CreateZExtOrTrunc(len, b.getInt64Ty()), b.getInt32(align),
                                           b.getInt32(op), sites_.site_of(at, "mem", in_loop(at), 0, loop_of(at))});
    ensure_location(*call);
    use.set(b.CreatePointerCast(call, ptr->getType()));
  }
  void through_host_mapping(Instruction& at, Use& use, Type* type = nullptr, unsigned op = Load) {
    Value* ptr = use.get();
    if (statically_private(ptr, marked_) || runtime_state(ptr)) return;
    IRBuilder<> b(&at);
    CallInst* call =
        type ? b.CreateCall(translate_dram_, {b.CreatePointerCast(ptr, b.getInt8PtrTy()),
                                              b.getInt32(unsigned(m_.getDataLayout().getTypeStoreSize(type))),
                                              b.getInt32(op), last_sector_slot(*at.getFunction())})
             : b.CreateCall(translate_, {b.CreatePointerCast(ptr, b.getInt8PtrTy())});
    ensure_location(*call);
    use.set(b.CreatePointerCast(call, ptr->getType()));
  }
  // memcpy/memset: with `len`, the plain twin's, whose bytes feed the DRAM estimate (a
  // loop that zeroes an output before accumulating into it is a memset: unseen, its
  // sectors' later reads would count as DRAM reads).
  void range_through_host_mapping(Instruction& at, Use& use, Value* len, unsigned op) {
    if (!len) return through_host_mapping(at, use);
    Value* ptr = use.get();
    if (statically_private(ptr, marked_) || runtime_state(ptr)) return;
    IRBuilder<> b(&at);
    CallInst* call = b.CreateCall(translate_dram_range_, {b.CreatePointerCast(ptr, b.getInt8PtrTy()),
                                                          b.CreateZExtOrTrunc(len, b.getInt64Ty()), b.getInt32(op)});
    ensure_location(*call);
    use.set(b.CreatePointerCast(call, ptr->getType()));
  }
  // An access outside loops of the (optimised) control flow runs at most once per
  // thread, so a fully unrolled loop's copies are marked straight-line in their site
  // record (sites.hpp).
  bool in_loop(const Instruction& at) const { return loop_of(at) != 0; }
  unsigned loop_of(const Instruction& at) const { return loops_.of(at.getParent()); }
  unsigned block_flags(const Instruction& at) const {
    return (loops_.ordinal(at.getParent()) & 0xFFFFu) << kSiteBlockShift;
  }
  void instrument(Instruction& i);
  void translate(Instruction& i, bool dram);
  void refuse(Instruction& at, const GlobalVariable& gv) {
    const DILocation* loc = runtime_.user_frame(at.getDebugLoc().get());
    std::string where = loc ? (loc->getFilename() + ":" + Twine(loc->getLine()) + ":" + Twine(loc->getColumn())).str() : "?";
    std::string name = gv.hasName() ? std::string(gv.getName()) : "?";
    at.getContext().emitError(&at, where + ": __device__ variable " + name +
                                       " is not supported by the simulator yet; cudaMalloc the data and pass a "
                                       "pointer (docs/frontend.md)");
  }

  Module& m_;
  const RuntimeFiles& runtime_;
  const Annotated& marked_;
  SiteTable sites_;
  LoopTags loops_;  // of the function run() is instrumenting
  FusedShared fused_;  // its shared accesses nvcc makes wide
  const Function* tagged_ = nullptr;  // that function
  BlockCounter blocks_;
  FunctionCallee access_, access_nonlocal_, translate_, translate_dram_, translate_dram_range_, range_, access_volatile_;
};

void Instrumenter::instrument(Instruction& i) {
  if (auto* ld = dyn_cast<LoadInst>(&i)) return access(i, ld->getOperandUse(0), ld->getType(), Load, ld->isVolatile());
  if (auto* st = dyn_cast<StoreInst>(&i))
    return access(i, st->getOperandUse(1), st->getValueOperand()->getType(), Store, st->isVolatile());
  if (auto* rmw = dyn_cast<AtomicRMWInst>(&i)) {  // an unused result is a RED on the GPU (red_or_atom.hpp)
    const bool red = rmw->use_empty() && rmw->getOperation() != AtomicRMWInst::Xchg;
    return access(i, rmw->getOperandUse(0), rmw->getValOperand()->getType(), red ? Reduction : Atomic);
  }
  if (auto* cas = dyn_cast<AtomicCmpXchgInst>(&i))
    return access(i, cas->getOperandUse(0), cas->getCompareOperand()->getType(), Atomic);
  if (auto* mt = dyn_cast<MemTransferInst>(&i)) {
    range(i, mt->getArgOperandUse(1), mt->getLength(), mt->getSourceAlign().valueOrOne().value(), Load);
    return range(i, mt->getArgOperandUse(0), mt->getLength(), mt->getDestAlign().valueOrOne().value(), Store);
  }
  if (auto* ms = dyn_cast<MemSetInst>(&i))
    return range(i, ms->getArgOperandUse(0), ms->getLength(), ms->getDestAlign().valueOrOne().value(), Store);
}

void Instrumenter::translate(Instruction& i, bool dram) {
  if (auto* ld = dyn_cast<LoadInst>(&i)) return through_host_mapping(i, i.getOperandUse(0), dram ? ld->getType() : nullptr);
  if (auto* st = dyn_cast<StoreInst>(&i))
    return through_host_mapping(i, i.getOperandUse(1), dram ? st->getValueOperand()->getType() : nullptr, Store);
  if (isa<AtomicRMWInst>(i) || isa<AtomicCmpXchgInst>(i)) return through_host_mapping(i, i.getOperandUse(0));
  if (auto* mt = dyn_cast<MemTransferInst>(&i)) {
    range_through_host_mapping(i, mt->getArgOperandUse(1), dram ? mt->getLength() : nullptr, Load);
    return range_through_host_mapping(i, mt->getArgOperandUse(0), dram ? mt->getLength() : nullptr, Store);
  }
  if (auto* ms = dyn_cast<MemSetInst>(&i))
    return range_through_host_mapping(i, ms->getArgOperandUse(0), dram ? ms->getLength() : nullptr, Store);
}

// assert() calls the C library's __assert_fail, which the first-loaded libc would
// answer in a ctypes-loaded library (abort); simtlab's copy fails the launch.
void Instrumenter::redirect_assert(Function& f) {
  for (Instruction& i : instructions(f))
    if (auto* call = dyn_cast<CallInst>(&i))
      if (Function* callee = call->getCalledFunction(); callee && callee->getName() == "__assert_fail")
        call->setCalledFunction(m_.getOrInsertFunction("__simt_assert_fail", callee->getFunctionType()));
}

// A load or store through a marker (simt_cuda/narrow_ops.h, load_ref and store_ref),
// not an atomic's (classify_atomics).
bool plain_access(const CallBase& marker) {
  if (marker.getCalledFunction()->getName() != "__simt_site_access" || marker.arg_size() < 3) return false;
  const auto* op = dyn_cast<ConstantInt>(marker.getArgOperand(2));
  return op && op->getZExtValue() <= static_cast<unsigned>(MemOp::Store);
}

bool plain_load(const CallBase& marker) {
  return plain_access(marker) &&
         cast<ConstantInt>(marker.getArgOperand(2))->getZExtValue() == static_cast<unsigned>(MemOp::Load);
}

void Instrumenter::bind_marked_calls(Function& f) {
  // Calls and invokes: a marker inlined where a destructor must run if it throws (a
  // __half loop over a std::vector in host code) is an invoke, and left unbound it
  // was an undefined reference at link time.
  classify_atomics(f);  // its markers become __simt_site_access calls, bound below
  std::vector<CallBase*> marked;
  for (Instruction& i : instructions(f))
    if (auto* call = dyn_cast<CallBase>(&i))
      if (Function* callee = call->getCalledFunction(); callee && callee->getName().startswith("__simt_site_"))
        marked.push_back(call);
  redirect_assert(f);
  for (CallBase* call : marked) {
    Function* marker = call->getCalledFunction();
    std::string name = "__simt_" + marker->getName().drop_front(12).str() + "_at";
    std::vector<Type*> params(marker->getFunctionType()->param_begin(), marker->getFunctionType()->param_end());
    params.push_back(Type::getInt8PtrTy(m_.getContext()));
    FunctionCallee target =
        m_.getOrInsertFunction(name, FunctionType::get(marker->getReturnType(), params, false));
    std::vector<Value*> args(call->arg_begin(), call->arg_end());
    // The marker's name is part of the site's key: one line's HADD and HMUL markers
    // (simt_cuda/markers.h) stay apart, as the FP step's operations do. An access
    // through a marker (a __half, bfloat16 or fp8 value read or written through a
    // reference) is filed like the kernel's own accesses, with the loop it sits in, so
    // that a loop's loads of narrow types overlap as its other loads do.
    const std::string kind = "call|" + marker->getName().str();
    args.push_back(&f == tagged_ && plain_access(*call)
                       ? sites_.site_of(*call, kind, in_loop(*call), block_flags(*call), loop_of(*call))
                       : sites_.site_of(*call, kind));
    if (&f == tagged_ && plain_load(*call))
      sites_.note_load_copy(cast<Constant>(args.back()), *call, loops_.ordinal(call->getParent()));
    IRBuilder<> b(call);
    auto* invoke = dyn_cast<InvokeInst>(call);
    CallBase* replacement = invoke ? static_cast<CallBase*>(b.CreateInvoke(target, invoke->getNormalDest(),
                                                                            invoke->getUnwindDest(), args))
                                   : b.CreateCall(target, args);
    replacement->setDebugLoc(call->getDebugLoc());
    ensure_location(*replacement);
    if (!call->getType()->isVoidTy()) call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
}

// A constructor that guards the device view of simulated memory (sim/symbols/compiler_sites.cpp)
// and lists the module's kernels as instrumented: every module built with simtlab's
// headers, kernels or not, since its host code may hold device pointers too.
void guard_device_memory(Module& m, const std::vector<Function*>& kernels) {
  register_functions_at_startup(m, kernels, "__simt_guard_device_memory");
}

// The option pass_uninstrumented: device code keeps its barriers, warp collectives
// and host entry (it still runs on the simulator), but nothing is counted or
// checked: the uninstrumented reference `simt bench` compares with (docs/perf-log.md).
bool uninstrumented() { return pass_options().pass_uninstrumented; }

struct SimtInstrumentPass : PassInfoMixin<SimtInstrumentPass> {
  PreservedAnalyses run(Module& m, ModuleAnalysisManager&) {
    RuntimeFiles runtime(runtime_prefix(m));
    Annotated marked = annotated(m);
    fold_constant_cuda_math(m);
    bind_fp_counts(m);
    Instrumenter inst(m, runtime, marked);
    std::set<Function*> helpers;
    std::set<Function*> device = device_functions(marked, runtime, &helpers);
    for (Function* f : device) canonicalize_nans(*f);
    // Each kernel's uncounted twin, copied before it is instrumented, for the blocks
    // a sampled launch does not count (plain_twin.hpp).
    std::vector<std::pair<Function*, Function*>> twins;
    if (!uninstrumented() && !pass_options().pass_no_twins)
      for (Function* k : marked.kernels)
        if (k->getReturnType()->isVoidTy()) twins.push_back({k, make_plain_twin(*k)});
    if (!uninstrumented()) {
      for (Function* f : device) inst.run(*f);
      for (Function* f : helpers) inst.run_translate_only(*f);
      for (auto [kernel, twin] : twins) inst.run_translate_only(*twin, true);
    }
    // After the instruction estimate: the guards are the simulator's, not the kernel's.
    for (Function* f : device) guard_int_divisions(*f);
    bool heap = false;
    for (Function* f : device) heap |= redirect_device_heap(*f);
    for (auto [kernel, twin] : twins) redirect_device_heap(*twin);
    if (heap) note_device_heap_at_startup(m);
    for (auto [kernel, twin] : twins) guard_int_divisions(*twin);
    std::vector<Function*> twinned;
    for (auto [kernel, twin] : twins) {
      dispatch_to_twin(*kernel, *twin);  // before everything the instrumented kernel does
      twinned.push_back(kernel);
    }
    register_twins(m, twinned);
    // Marked calls are bound in every function: host code reaches barriers only by
    // mistake, and the runtime diagnoses that; a site keeps the message precise.
    for (Function& f : m)
      if (!f.isDeclaration()) inst.bind_marked_calls(f);
    inst.finish();
    // Uninstrumented kernels touch the device view itself: listed as not
    // instrumented, their launches open it (sim/memory/global_memory.hpp).
    if (!runtime.prefix().empty())
      guard_device_memory(m, uninstrumented() ? std::vector<Function*>{} : marked.kernels);
    return PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};

}  // namespace

}  // namespace simt::pass

// Floating-point operations are counted where the source has them, before any
// optimization (count_fp.cpp), each count carrying its operation's value so that one
// the optimizer folds to a constant is dropped at the end, as nvcc folds it; __device__
// functions are inlined as nvcc inlines them (inline_device.cpp); memory accesses are
// counted where they remain after optimization.
extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "simt-instrument", "1", [](llvm::PassBuilder& pb) {
            pb.registerPipelineStartEPCallback([](llvm::ModulePassManager& mpm, llvm::OptimizationLevel) {
              mpm.addPass(simt::pass::KeepKernelsOutOfLine());
              mpm.addPass(simt::pass::PureAtomicValues());
              if (!simt::pass::uninstrumented()) mpm.addPass(simt::pass::MarkUnwrittenSharedReads());
              mpm.addPass(simt::pass::InlineDeviceFunctions());
              if (!simt::pass::uninstrumented()) mpm.addPass(simt::pass::count_fp_pass());
            });
            pb.registerPeepholeEPCallback([](llvm::FunctionPassManager& fpm, llvm::OptimizationLevel) {
              fpm.addPass(simt::pass::SeparateAddressSpaces());
            });
            pb.registerOptimizerLastEPCallback([](llvm::ModulePassManager& mpm, llvm::OptimizationLevel) {
              mpm.addPass(simt::pass::ReturnWhenCalledFromHost());
              mpm.addPass(simt::pass::SimtInstrumentPass());
              mpm.addPass(llvm::AlwaysInlinerPass());  // the entry points' fast paths (simt_cuda/hooks.h)
              mpm.addPass(simt::pass::PromoteLastSectorSlots());
            });
          }};
}
