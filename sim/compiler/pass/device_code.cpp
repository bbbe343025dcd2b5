#include "device_code.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

namespace simt::pass {

using namespace llvm;

std::string runtime_prefix(const Module& m) {
  const GlobalVariable* gv = m.getNamedGlobal("__simt_runtime_header");
  if (!gv || !gv->hasInitializer()) return {};
  const auto* data = dyn_cast<ConstantDataSequential>(gv->getInitializer());
  if (!data || !data->isString()) return {};
  std::string path(data->getAsCString());
  std::size_t at = path.rfind("sim/compiler/include/");
  return at == std::string::npos ? std::string() : path.substr(0, at + 4);
}

FunctionCallee entry_point(Module& m, const std::string& name, FunctionType* type) {
  if (Function* inline_copy = m.getFunction(name + "_inline"); inline_copy && !inline_copy->isDeclaration())
    return FunctionCallee(type, inline_copy);
  return m.getOrInsertFunction(name, type);
}

Annotated annotated(Module& m) {
  Annotated out;
  GlobalVariable* ann = m.getNamedGlobal("llvm.global.annotations");
  if (!ann || !ann->hasInitializer()) return out;
  auto* array = dyn_cast<ConstantArray>(ann->getInitializer());
  if (!array) return out;
  for (Value* op : array->operands()) {
    auto* entry = dyn_cast<ConstantStruct>(op);
    if (!entry || entry->getNumOperands() < 2) continue;
    Value* target = entry->getOperand(0)->stripPointerCasts();
    auto* str = dyn_cast<GlobalVariable>(entry->getOperand(1)->stripPointerCasts());
    if (!str || !str->hasInitializer()) continue;
    auto* text = dyn_cast<ConstantDataSequential>(str->getInitializer());
    if (!text || !text->isString()) continue;
    StringRef s = text->getAsCString();
    auto* fn = dyn_cast<Function>(target);
    auto* var = dyn_cast<GlobalVariable>(target);
    if (fn && (s == "simt_global" || s == "simt_device") && !fn->isDeclaration()) out.functions.push_back(fn);
    if (fn && s == "simt_global" && !fn->isDeclaration()) out.kernels.push_back(fn);
    if (var && s == "simt_device") out.device_variables.insert(var);
    if (var && s == "simt_constant") out.constant_variables.insert(var);
  }
  return out;
}

namespace {
bool is_runtime_function(const Function& f, const RuntimeFiles& runtime) {
  const DISubprogram* sp = f.getSubprogram();
  return f.getName().startswith("__simt_") || (sp && runtime.uninstrumented(sp));
}
}  // namespace

std::set<Function*> device_functions(const Annotated& marked, const RuntimeFiles& runtime,
                                     std::set<Function*>* helpers) {
  std::vector<Function*> work = marked.functions;
  std::set<Function*> seen(work.begin(), work.end());
  while (!work.empty()) {
    Function* f = work.back();
    work.pop_back();
    // Called functions, and functions whose address device code takes (function
    // pointers, e.g. a reduction passed to a helper): either may run on a thread.
    for (Instruction& i : instructions(*f)) {
      for (Value* op : i.operands()) {
        auto* callee = dyn_cast<Function>(op->stripPointerCasts());
        if (!callee || callee->isDeclaration() || is_runtime_function(*callee, runtime)) continue;
        if (seen.insert(callee).second) work.push_back(callee);
      }
    }
  }
  if (helpers) {
    std::vector<Function*> todo(seen.begin(), seen.end());
    while (!todo.empty()) {
      Function* f = todo.back();
      todo.pop_back();
      for (Instruction& i : instructions(*f))
        for (Value* op : i.operands()) {
          auto* callee = dyn_cast<Function>(op->stripPointerCasts());
          if (!callee || callee->isDeclaration() || callee->getName().startswith("__simt_") || seen.count(callee))
            continue;
          if (helpers->insert(callee).second) todo.push_back(callee);
        }
    }
  }
  return seen;
}

void ensure_location(CallBase& call) {
  if (call.getDebugLoc()) return;
  if (DISubprogram* sp = call.getFunction()->getSubprogram())
    call.setDebugLoc(DILocation::get(call.getContext(), 0, 0, sp));
}

}  // namespace simt::pass
