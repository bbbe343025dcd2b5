// simtlab's instrumentation pass (an LLVM pass plugin, loaded by clang with
// -fpass-plugin). In device code — functions annotated __global__/__device__ by
// simtlab's CUDA headers, and every function they call — it puts a call of the
// simulator's runtime before each load, store, atomic and memory intrinsic, and
// before each floating-point add, subtract, multiply, divide, fma and square root,
// each with the site of its source location. See docs/frontend.md.
#include "sites.hpp"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>

#include <set>
#include <vector>

namespace simt::pass {

using namespace llvm;

namespace {

// The values of simt::MemOp and simt::FpOp (sim/events.hpp).
enum Mem : unsigned { Load = 0, Store = 1, Atomic = 2 };
enum Fp : unsigned { FAdd = 0, FMul = 1, FFma = 2, DAdd = 3, DMul = 4, DFma = 5, FDiv = 6, DDiv = 7, FSqrt = 8, DSqrt = 9 };

// simtlab's CUDA header defines __simt_runtime_header as its own path:
// .../sim/compiler/include/cuda_runtime.h. Its root's sim/ holds the runtime.
std::string runtime_prefix(const Module& m) {
  const GlobalVariable* gv = m.getNamedGlobal("__simt_runtime_header");
  if (!gv || !gv->hasInitializer()) return {};
  const auto* data = dyn_cast<ConstantDataSequential>(gv->getInitializer());
  if (!data || !data->isString()) return {};
  std::string path(data->getAsCString());
  std::size_t at = path.rfind("sim/compiler/include/");
  return at == std::string::npos ? std::string() : path.substr(0, at + 4);
}

// Functions the user marked as device code: __global__ and __device__ expand to
// annotate attributes, which clang lists in llvm.global.annotations.
std::vector<Function*> annotated_device_functions(Module& m) {
  std::vector<Function*> out;
  GlobalVariable* ann = m.getNamedGlobal("llvm.global.annotations");
  if (!ann || !ann->hasInitializer()) return out;
  auto* array = dyn_cast<ConstantArray>(ann->getInitializer());
  if (!array) return out;
  for (Value* op : array->operands()) {
    auto* entry = dyn_cast<ConstantStruct>(op);
    if (!entry || entry->getNumOperands() < 2) continue;
    auto* fn = dyn_cast<Function>(entry->getOperand(0)->stripPointerCasts());
    auto* str = dyn_cast<GlobalVariable>(entry->getOperand(1)->stripPointerCasts());
    if (!fn || !str || !str->hasInitializer()) continue;
    auto* text = dyn_cast<ConstantDataSequential>(str->getInitializer());
    if (!text || !text->isString()) continue;
    StringRef s = text->getAsCString();
    if ((s == "simt_global" || s == "simt_device") && !fn->isDeclaration()) out.push_back(fn);
  }
  return out;
}

bool is_runtime_function(const Function& f, const RuntimeFiles& runtime) {
  const DISubprogram* sp = f.getSubprogram();
  return f.getName().startswith("__simt_") || (sp && runtime.contains(sp));
}

// Device code: the annotated functions and everything they call that is defined
// in this module and is not simtlab's own machinery.
std::set<Function*> device_functions(Module& m, const RuntimeFiles& runtime) {
  std::vector<Function*> work = annotated_device_functions(m);
  std::set<Function*> seen(work.begin(), work.end());
  while (!work.empty()) {
    Function* f = work.back();
    work.pop_back();
    for (Instruction& i : instructions(*f)) {
      auto* call = dyn_cast<CallBase>(&i);
      Function* callee = call ? call->getCalledFunction() : nullptr;
      if (!callee || callee->isDeclaration() || is_runtime_function(*callee, runtime)) continue;
      if (seen.insert(callee).second) work.push_back(callee);
    }
  }
  return seen;
}

// A pointer the simulated thread owns or that is not device memory: its locals
// (allocas, by-value arguments) and host-side constant globals. __shared__
// variables are thread_local globals and stay instrumented.
bool statically_private(Value* ptr) {
  const Value* base = getUnderlyingObject(ptr, 0);
  if (isa<AllocaInst>(base)) return true;
  if (const auto* arg = dyn_cast<Argument>(base)) return arg->hasByValAttr();
  if (const auto* gv = dyn_cast<GlobalVariable>(base)) return !gv->isThreadLocal() && gv->isConstant();
  return false;
}

class Instrumenter {
 public:
  Instrumenter(Module& m, const RuntimeFiles& runtime) : m_(m), runtime_(runtime), sites_(m, runtime) {
    LLVMContext& c = m.getContext();
    Type* i8p = Type::getInt8PtrTy(c);
    Type* i32 = Type::getInt32Ty(c);
    Type* i64 = Type::getInt64Ty(c);
    Type* v = Type::getVoidTy(c);
    access_ = m.getOrInsertFunction("__simt_access", v, i8p, i32, i32, i8p);
    range_ = m.getOrInsertFunction("__simt_access_range", v, i8p, i64, i32, i32, i8p);
    fp_ = m.getOrInsertFunction("__simt_fp", v, i32, i8p);
  }

  void run(Function& f) {
    std::vector<Instruction*> todo;
    for (Instruction& i : instructions(f))
      if (!runtime_.contains_location(i.getDebugLoc().get())) todo.push_back(&i);
    for (Instruction* i : todo) instrument(*i);
  }
  // Calls of __simt_site_NAME(args) in simtlab's headers become
  // __simt_NAME_at(args, site): barriers, collectives and atomics learn their site.
  void bind_marked_calls(Function& f);
  void finish() { sites_.emit_registration(); }
  std::size_t sites() const { return sites_.size(); }

 private:
  void access(Instruction& at, Value* ptr, Type* type, unsigned op) {
    if (statically_private(ptr)) return;
    IRBuilder<> b(&at);
    unsigned size = unsigned(m_.getDataLayout().getTypeStoreSize(type));
    b.CreateCall(access_, {b.CreatePointerCast(ptr, b.getInt8PtrTy()), b.getInt32(size), b.getInt32(op),
                           sites_.site_of(at, "mem")});
  }
  void range(Instruction& at, Value* ptr, Value* len, unsigned align, unsigned op) {
    if (statically_private(ptr)) return;
    IRBuilder<> b(&at);
    b.CreateCall(range_, {b.CreatePointerCast(ptr, b.getInt8PtrTy()), b.CreateZExtOrTrunc(len, b.getInt64Ty()),
                          b.getInt32(align), b.getInt32(op), sites_.site_of(at, "mem")});
  }
  void fp(Instruction& at, Type* type, unsigned single, unsigned dbl) {
    Type* scalar = type->getScalarType();
    if (!scalar->isFloatTy() && !scalar->isDoubleTy()) return;  // half: counted with the fp16 work
    unsigned op = scalar->isFloatTy() ? single : dbl;
    unsigned lanes = type->isVectorTy() ? cast<FixedVectorType>(type)->getNumElements() : 1;
    IRBuilder<> b(&at);
    Constant* site = sites_.site_of(at, "fp" + std::to_string(op));
    for (unsigned k = 0; k < lanes; ++k) b.CreateCall(fp_, {b.getInt32(op), site});
  }
  void instrument(Instruction& i);

  Module& m_;
  const RuntimeFiles& runtime_;
  SiteTable sites_;
  FunctionCallee access_, range_, fp_;
};

void Instrumenter::instrument(Instruction& i) {
  if (auto* ld = dyn_cast<LoadInst>(&i)) return access(i, ld->getPointerOperand(), ld->getType(), Load);
  if (auto* st = dyn_cast<StoreInst>(&i))
    return access(i, st->getPointerOperand(), st->getValueOperand()->getType(), Store);
  if (auto* rmw = dyn_cast<AtomicRMWInst>(&i))
    return access(i, rmw->getPointerOperand(), rmw->getValOperand()->getType(), Atomic);
  if (auto* cas = dyn_cast<AtomicCmpXchgInst>(&i))
    return access(i, cas->getPointerOperand(), cas->getCompareOperand()->getType(), Atomic);
  if (auto* mt = dyn_cast<MemTransferInst>(&i)) {
    range(i, mt->getRawSource(), mt->getLength(), mt->getSourceAlign().valueOrOne().value(), Load);
    return range(i, mt->getRawDest(), mt->getLength(), mt->getDestAlign().valueOrOne().value(), Store);
  }
  if (auto* ms = dyn_cast<MemSetInst>(&i))
    return range(i, ms->getRawDest(), ms->getLength(), ms->getDestAlign().valueOrOne().value(), Store);
  switch (i.getOpcode()) {
    case Instruction::FAdd:
    case Instruction::FSub: return fp(i, i.getType(), FAdd, DAdd);
    case Instruction::FMul: return fp(i, i.getType(), FMul, DMul);
    case Instruction::FDiv: return fp(i, i.getType(), FDiv, DDiv);
    default: break;
  }
  if (auto* in = dyn_cast<IntrinsicInst>(&i)) {
    switch (in->getIntrinsicID()) {
      case Intrinsic::fma:
      case Intrinsic::fmuladd: return fp(i, i.getType(), FFma, DFma);
      case Intrinsic::sqrt: return fp(i, i.getType(), FSqrt, DSqrt);
      default: break;
    }
  }
}

void Instrumenter::bind_marked_calls(Function& f) {
  std::vector<CallInst*> marked;
  for (Instruction& i : instructions(f))
    if (auto* call = dyn_cast<CallInst>(&i))
      if (Function* callee = call->getCalledFunction(); callee && callee->getName().startswith("__simt_site_"))
        marked.push_back(call);
  for (CallInst* call : marked) {
    Function* marker = call->getCalledFunction();
    std::string name = "__simt_" + marker->getName().drop_front(12).str() + "_at";
    std::vector<Type*> params(marker->getFunctionType()->param_begin(), marker->getFunctionType()->param_end());
    params.push_back(Type::getInt8PtrTy(m_.getContext()));
    FunctionCallee target =
        m_.getOrInsertFunction(name, FunctionType::get(marker->getReturnType(), params, false));
    std::vector<Value*> args(call->arg_begin(), call->arg_end());
    args.push_back(sites_.site_of(*call, "call"));
    IRBuilder<> b(call);
    CallInst* replacement = b.CreateCall(target, args);
    replacement->setDebugLoc(call->getDebugLoc());
    if (!call->getType()->isVoidTy()) call->replaceAllUsesWith(replacement);
    call->eraseFromParent();
  }
}

struct SimtInstrumentPass : PassInfoMixin<SimtInstrumentPass> {
  PreservedAnalyses run(Module& m, ModuleAnalysisManager&) {
    RuntimeFiles runtime(runtime_prefix(m));
    Instrumenter inst(m, runtime);
    std::set<Function*> device = device_functions(m, runtime);
    for (Function* f : device) inst.run(*f);
    // Marked calls are bound in every function: host code reaches barriers only by
    // mistake, and the runtime diagnoses that; a site keeps the message precise.
    for (Function& f : m)
      if (!f.isDeclaration()) inst.bind_marked_calls(f);
    inst.finish();
    return device.empty() && inst.sites() == 0 ? PreservedAnalyses::all() : PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};

}  // namespace

}  // namespace simt::pass

extern "C" LLVM_ATTRIBUTE_WEAK ::llvm::PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "simt-instrument", "1", [](llvm::PassBuilder& pb) {
            pb.registerOptimizerLastEPCallback([](llvm::ModulePassManager& mpm, llvm::OptimizationLevel) {
              mpm.addPass(simt::pass::SimtInstrumentPass());
            });
          }};
}
