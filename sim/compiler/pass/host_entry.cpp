#include "host_entry.hpp"

#include "device_code.hpp"

#include <llvm/IR/IRBuilder.h>

namespace simt::pass {

using namespace llvm;

namespace {

// A call the optimizer must keep at a kernel's entry until the end: without it a
// kernel whose body does nothing visible (empty, or arithmetic it never stores) is
// inferred to have no effects, and the launch's probe call of it is deleted as dead.
constexpr const char* kKeepMarker = "__simt_kernel_keep";

}  // namespace

PreservedAnalyses KeepKernelsOutOfLine::run(Module& m, ModuleAnalysisManager&) {
  Annotated marked = annotated(m);
  FunctionCallee keep = m.getOrInsertFunction(kKeepMarker, Type::getVoidTy(m.getContext()));
  for (Function* kernel : marked.kernels) {
    kernel->removeFnAttr(Attribute::AlwaysInline);
    kernel->addFnAttr(Attribute::NoInline);
    if (kernel->isDeclaration()) continue;
    IRBuilder<> b(&*kernel->getEntryBlock().getFirstInsertionPt());
    if (DISubprogram* sp = kernel->getSubprogram())
      b.SetCurrentDebugLocation(DILocation::get(m.getContext(), sp->getLine(), 0, sp));
    b.CreateCall(keep);
  }
  return marked.kernels.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

PreservedAnalyses ReturnWhenCalledFromHost::run(Module& m, ModuleAnalysisManager&) {
  Annotated marked = annotated(m);
  if (marked.kernels.empty()) return PreservedAnalyses::all();
  LLVMContext& c = m.getContext();
  // __simt_kernel_entry(self): true on a simulated thread; on the host it notes the
  // kernel's address (a launch's probe, sim/cuda/launch.hpp) and the kernel returns.
  FunctionCallee entry = m.getOrInsertFunction("__simt_kernel_entry", Type::getInt1Ty(c), Type::getInt8PtrTy(c));
  // The entry check is an opaque call too: the keep markers have done their work.
  if (Function* keep = m.getFunction(kKeepMarker)) {
    for (User* u : make_early_inc_range(keep->users()))
      if (auto* call = dyn_cast<CallInst>(u)) call->eraseFromParent();
    if (keep->use_empty()) keep->eraseFromParent();
  }
  for (Function* kernel : marked.kernels) {
    if (!kernel->getReturnType()->isVoidTy()) continue;  // a __global__ function returns void
    BasicBlock& body = kernel->getEntryBlock();
    BasicBlock* check = BasicBlock::Create(c, "simt.entry", kernel, &body);
    BasicBlock* leave = BasicBlock::Create(c, "simt.from_host", kernel, &body);
    IRBuilder<> b(check);
    if (DISubprogram* sp = kernel->getSubprogram())  // calls in a function with debug info need a location
      b.SetCurrentDebugLocation(DILocation::get(c, sp->getLine(), 0, sp));
    Value* self = b.CreatePointerCast(kernel, Type::getInt8PtrTy(c));
    b.CreateCondBr(b.CreateCall(entry, {self}), &body, leave);
    IRBuilder<>(leave).CreateRetVoid();
  }
  return PreservedAnalyses::none();
}

}  // namespace simt::pass
