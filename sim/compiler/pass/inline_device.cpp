#include "inline_device.hpp"

#include "device_code.hpp"

#include <algorithm>

namespace simt::pass {

using namespace llvm;

namespace {

bool calls_itself(const Function& f) {
  for (const User* u : f.users())
    if (const auto* call = dyn_cast<CallBase>(u); call && call->getFunction() == &f) return true;
  return false;
}

}  // namespace

PreservedAnalyses InlineDeviceFunctions::run(Module& m, ModuleAnalysisManager&) {
  Annotated marked = annotated(m);
  bool changed = false;
  for (Function* f : marked.functions) {
    const bool kernel = std::find(marked.kernels.begin(), marked.kernels.end(), f) != marked.kernels.end();
    if (kernel || f->isDeclaration() || f->hasFnAttribute(Attribute::NoInline) || f->isVarArg() || calls_itself(*f))
      continue;
    f->addFnAttr(Attribute::AlwaysInline);
    changed = true;
  }
  return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

}  // namespace simt::pass
