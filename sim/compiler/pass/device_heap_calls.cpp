#include "device_heap_calls.hpp"
#include "startup_calls.hpp"

#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

#include <vector>

namespace simt::pass {

using namespace llvm;

bool redirect_device_heap(Function& f) {
  Module& m = *f.getParent();
  std::vector<CallBase*> calls;
  for (Instruction& i : instructions(f))
    if (auto* call = dyn_cast<CallBase>(&i))
      if (Function* callee = call->getCalledFunction();
          callee && callee->isDeclaration() && (callee->getName() == "malloc" || callee->getName() == "free"))
        calls.push_back(call);
  for (CallBase* call : calls) {
    const bool is_malloc = call->getCalledFunction()->getName() == "malloc";
    call->setCalledFunction(
        m.getOrInsertFunction(is_malloc ? "__simt_device_malloc" : "__simt_device_free", call->getFunctionType()));
    // Never a tail call: the runtime names the line of a bad free by its return address.
    if (auto* ci = dyn_cast<CallInst>(call)) ci->setTailCallKind(CallInst::TCK_NoTail);
  }
  return !calls.empty();
}

void note_device_heap_at_startup(Module& m) { call_at_startup(m, "__simt_program_uses_device_heap"); }

}  // namespace simt::pass
