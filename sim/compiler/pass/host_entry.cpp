#include "host_entry.hpp"

#include "device_code.hpp"

#include <llvm/IR/IRBuilder.h>

namespace simt::pass {

using namespace llvm;

PreservedAnalyses KeepKernelsOutOfLine::run(Module& m, ModuleAnalysisManager&) {
  Annotated marked = annotated(m);
  for (Function* kernel : marked.kernels) {
    kernel->removeFnAttr(Attribute::AlwaysInline);
    kernel->addFnAttr(Attribute::NoInline);
  }
  return marked.kernels.empty() ? PreservedAnalyses::all() : PreservedAnalyses::none();
}

PreservedAnalyses ReturnWhenCalledFromHost::run(Module& m, ModuleAnalysisManager&) {
  Annotated marked = annotated(m);
  if (marked.kernels.empty()) return PreservedAnalyses::all();
  LLVMContext& c = m.getContext();
  FunctionCallee on_device = m.getOrInsertFunction("__simt_on_simulated_thread", Type::getInt1Ty(c));
  for (Function* kernel : marked.kernels) {
    if (!kernel->getReturnType()->isVoidTy()) continue;  // a __global__ function returns void
    BasicBlock& body = kernel->getEntryBlock();
    BasicBlock* check = BasicBlock::Create(c, "simt.entry", kernel, &body);
    BasicBlock* leave = BasicBlock::Create(c, "simt.from_host", kernel, &body);
    IRBuilder<> b(check);
    if (DISubprogram* sp = kernel->getSubprogram())  // calls in a function with debug info need a location
      b.SetCurrentDebugLocation(DILocation::get(c, sp->getLine(), 0, sp));
    b.CreateCondBr(b.CreateCall(on_device), &body, leave);
    IRBuilder<>(leave).CreateRetVoid();
  }
  return PreservedAnalyses::none();
}

}  // namespace simt::pass
