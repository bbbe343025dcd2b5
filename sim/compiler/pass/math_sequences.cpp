#include "math_sequences.hpp"

#include "device_code.hpp"

#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>

#include <cmath>
#include <map>
#include <string>

namespace simt::pass {

using namespace llvm;

namespace {

// Per call, on the typical path (the inputs of tests/cuda/math_sequences_main.cu;
// data-dependent slow paths differ by at most 0.08 per call on average there: tanhf,
// cosf, erff). MUFU instructions are not FP32 counters in ncu and are not listed.
// From the SASS of nvcc 13 for sm_90 (docs/validation/h200-mufu.md), predicated
// instructions counted where their predicate is typically true: sinf, cosf 7 FFMA
// plus one in odd quadrants and one in quadrants 2 and 3 (8 on average); their
// Payne-Hanek path (|x| >= 105615) is integer and FP64 work, not counted. sinhf is
// |x| < 1 (one FFMA less above), erfcf x >= 0 (one FADD more below), atanf |x| <= 1
// (one FFMA more above), tanf 9 FFMA (8 where |r| is exactly 0x3a00b43c);
// log*f's subnormal and special-value instructions, expm1f's k = 128 and 2^k < 2^-126
// corrections are left out. From the H200's SASS of tests/cuda/mufu_probe.cu's sequences:
// asinf, acosf |x| <= 0.56 (the square-root reduction runs either way; asinf's
// pi/2 - 2w FFMA and acosf's FADD r + r only above, acosf's pi/2 - w FFMA only below);
// atan2f: div.rn's main path (five FFMA) and one FFMA for the octant (none where x > 0
// and |y| <= |x|); cbrtf, rcbrtf: lg2.approx's FMUL x * 2^24 is unconditional (its FADD
// -24 only for subnormals); hypotf: the two |x| are FADDs, sqrt.rn's main path; tanh
// |x| < 0.655 (the polynomial; above, 3 DADD, 1 DMUL, 16 DFMA and 1 FMUL).
const std::map<std::string, FpSequence>& by_name() {
  static const std::map<std::string, FpSequence> table = {
      {"expf", {{FAdd, 1}, {FMul, 1}, {FFma, 4}}},
      {"exp2f", {}},
      {"logf", {{FAdd, 1}, {FMul, 1}, {FFma, 11}}},
      {"log2f", {{FAdd, 2}, {FMul, 2}, {FFma, 11}}},
      {"log10f", {{FAdd, 1}, {FMul, 2}, {FFma, 11}}},
      {"powf", {{FAdd, 13}, {FMul, 10}, {FFma, 19}}},
      {"tanhf", {{FAdd, 1}, {FMul, 2}, {FFma, 5}}},
      {"sinf", {{FMul, 2}, {FFma, 8}}},
      {"cosf", {{FMul, 2}, {FFma, 8}}},
      {"sincosf", {{FMul, 2}, {FFma, 11}}},
      {"tanf", {{FMul, 3}, {FFma, 9}}},
      {"coshf", {{FAdd, 1}, {FMul, 4}, {FFma, 3}}},
      {"sinhf", {{FAdd, 1}, {FMul, 6}, {FFma, 7}}},
      {"erfcf", {{FAdd, 5}, {FMul, 8}, {FFma, 20}}},
      {"log1pf", {{FAdd, 2}, {FMul, 2}, {FFma, 11}}},
      {"expm1f", {{FAdd, 1}, {FMul, 3}, {FFma, 8}}},
      {"exp10f", {{FAdd, 1}, {FMul, 1}, {FFma, 4}}},
      {"atanf", {{FMul, 2}, {FFma, 8}}},
      {"erff", {{FAdd, 1}, {FMul, 1}, {FFma, 7}}},
      {"rsqrtf", {}},
      {"__expf", {{FMul, 1}}},
      {"__logf", {{FMul, 1}}},
      {"__log2f", {}},
      {"__log10f", {{FMul, 1}}},
      {"__powf", {{FMul, 1}}},
      {"__sinf", {{FMul, 1}}},
      {"__sincosf", {{FMul, 1}}},  // one FMUL.RZ by 1/2pi feeds MUFU.SIN and MUFU.COS
      {"__tanf", {{FMul, 2}}},     // that FMUL.RZ, and div.approx's FMUL after MUFU.RCP
      {"__cosf", {{FMul, 1}}},
      {"__fdividef", {{FMul, 1}}},
      {"asinf", {{FMul, 5}, {FFma, 8}}},
      {"acosf", {{FMul, 4}, {FFma, 10}}},
      {"atan2f", {{FAdd, 1}, {FMul, 2}, {FFma, 14}}},
      {"cbrtf", {{FAdd, 1}, {FMul, 5}, {FFma, 2}}},
      {"rcbrtf", {{FAdd, 1}, {FMul, 5}, {FFma, 2}}},
      {"hypotf", {{FAdd, 2}, {FMul, 6}, {FFma, 3}}},
      {"exp", {{DAdd, 1}, {DFma, 14}}},
      {"tanh", {{DMul, 1}, {DFma, 12}}},
      {"log", {{DAdd, 9}, {DMul, 4}, {DFma, 15}}},
  };
  return table;
}

// "expf", "llvm.exp.f32", "_Z6__expff" -> the CUDA name the table uses.
std::string cuda_name(const Function& f) {
  StringRef name = f.getName();
  if (f.isIntrinsic()) {
    const bool single = f.getReturnType()->isFloatTy();
    StringRef base = name.drop_front(5).split('.').first;  // "llvm.exp.f32" -> "exp"
    return (base + (single ? "f" : "")).str();
  }
  std::string plain = demangle(name.str());
  return plain.substr(0, plain.find('('));
}

}  // namespace

FpSequence math_sequence(const Instruction& i) {
  const bool single = i.getType()->getScalarType()->isFloatTy();
  if (i.getOpcode() == Instruction::FDiv && single) {
    // 1/x is a reciprocal (MUFU.RCP and two Newton steps); any other quotient the
    // full IEEE division (MUFU.RCP, five FFMA).
    const auto* one = dyn_cast<ConstantFP>(i.getOperand(0));
    if (one && one->isExactlyValue(1.0)) return {{FAdd, 1}, {FFma, 2}};
    return {{FFma, 5}};
  }
  if (i.getOpcode() == Instruction::FDiv && i.getType()->getScalarType()->isDoubleTy()) {
    // MUFU.RCP64H refined by DFMA; a quotient also takes a DMUL and one FFMA (a range
    // check on the high words), measured with double operands (tests/cuda/ddiv_sequences.cu).
    const auto* one = dyn_cast<ConstantFP>(i.getOperand(0));
    if (one && one->isExactlyValue(1.0)) return {{DFma, 5}};
    return {{DMul, 1}, {DFma, 7}, {FFma, 1}};
  }
  const auto* call = dyn_cast<CallInst>(&i);
  const Function* callee = call ? call->getCalledFunction() : nullptr;
  if (!callee) return {};
  if (callee->getIntrinsicID() == Intrinsic::sqrt) {
    if (i.getType()->isFloatTy()) return {};  // a scalar float root: math_slow_path (0 skips it)
    return single ? FpSequence{{FMul, 2}, {FFma, 2}} : FpSequence{{DMul, 3}, {DFma, 5}};
  }
  auto it = by_name().find(cuda_name(*callee));
  return it == by_name().end() ? FpSequence{} : it->second;
}

// From the H200's SASS of HW4's softmax and LayerNorm (docs/validation/h200-libs-hw4.md):
//   __expf(x):       FMUL t = x * log2(e); t < -126: FMUL t * 0.5 before MUFU.EX2 and
//                    FMUL r * r after (2 more)
//   __fdividef(a,b): |b| < FLT_MIN: FMUL b * 2^24 before MUFU.RCP (1 more)
//   rsqrtf(x):       |x| < FLT_MIN: FMUL x * 2^24 before MUFU.RSQ, r * 2^12 after (2 more)
// Each condition is "not (v >= bound)", as the SASS's FSETP.GEU tests it: NaN takes it.
SlowPath math_slow_path(Instruction& i) {
  auto* call = dyn_cast<CallInst>(&i);
  const Function* callee = call ? call->getCalledFunction() : nullptr;
  if (!callee || !i.getType()->isFloatTy()) return {};
  const std::string name = cuda_name(*callee);
  IRBuilder<> b(&i);
  // sqrt.rn's refinement after MUFU.RSQ (FMUL 2, FFMA 2) runs for every argument but
  // zero, which the H200 returns at once (tests/cuda/ulp_probe.cu's sqrtf of 0 to 1000:
  // FFMA and FMUL 2 short for its one zero, docs/validation/h200-simt-validate.md).
  if (callee->getIntrinsicID() == Intrinsic::sqrt)
    return {{{FMul, 2}, {FFma, 2}}, b.CreateFCmpUNE(call->getArgOperand(0), ConstantFP::get(b.getFloatTy(), 0.0))};
  auto below = [&](Value* v, float bound) { return b.CreateFCmpULT(v, ConstantFP::get(b.getFloatTy(), bound)); };
  auto magnitude = [&](Value* v) { return b.CreateUnaryIntrinsic(Intrinsic::fabs, v); };
  constexpr float kFltMin = 1.175494350822287508e-38f;
  if (name == "__expf" && call->arg_size() == 1) {
    Value* t = b.CreateFMul(call->getArgOperand(0), ConstantFP::get(b.getFloatTy(), 1.4426950216293334961f));
    return {{{FMul, 2}}, below(t, -126.0f)};
  }
  if (name == "__fdividef" && call->arg_size() == 2) return {{{FMul, 1}}, below(magnitude(call->getArgOperand(1)), kFltMin)};
  if (name == "rsqrtf" && call->arg_size() == 1) return {{{FMul, 2}}, below(magnitude(call->getArgOperand(0)), kFltMin)};
  // __logf, __log2f, __log10f (lg2.approx.f32): |x| < FLT_MIN: FMUL x * 2^24 before
  // MUFU.LG2 and FADD -24 after (tests/cuda/mufu_probe.cu's SASS).
  if ((name == "__logf" || name == "__log2f" || name == "__log10f") && call->arg_size() == 1)
    return {{{FMul, 1}, {FAdd, 1}}, below(magnitude(call->getArgOperand(0)), kFltMin)};
  return {};
}

// The C library's names whose CUDA versions simtlab computes with the H200's bits
// (sim/math/cuda_math_entry.cpp), with the number of float (or double: exp, log, tanh)
// arguments; sincosf (float, float*, float*) returns nothing. The others keep the C
// library's values.
void use_cuda_math(Function& f) {
  struct Entry {
    const char* name;
    unsigned floats;
    bool is_double = false;
  };
  static const std::map<std::string, Entry> exact = {
      {"expf", {"__simt_cuda_expf", 1}},     {"exp2f", {"__simt_cuda_exp2f", 1}},
      {"logf", {"__simt_cuda_logf", 1}},     {"tanhf", {"__simt_cuda_tanhf", 1}},
      {"sinf", {"__simt_cuda_sinf", 1}},     {"cosf", {"__simt_cuda_cosf", 1}},
      {"tanf", {"__simt_cuda_tanf", 1}},     {"coshf", {"__simt_cuda_coshf", 1}},
      {"sinhf", {"__simt_cuda_sinhf", 1}},   {"erff", {"__simt_cuda_erff", 1}},
      {"erfcf", {"__simt_cuda_erfcf", 1}},   {"log2f", {"__simt_cuda_log2f", 1}},
      {"log10f", {"__simt_cuda_log10f", 1}}, {"log1pf", {"__simt_cuda_log1pf", 1}},
      {"expm1f", {"__simt_cuda_expm1f", 1}}, {"exp10f", {"__simt_cuda_exp10f", 1}},
      {"atanf", {"__simt_cuda_atanf", 1}},   {"powf", {"__simt_cuda_powf", 2}},
      {"sincosf", {"__simt_cuda_sincosf", 1}}, {"asinf", {"__simt_cuda_asinf", 1}},
      {"acosf", {"__simt_cuda_acosf", 1}},   {"atan2f", {"__simt_cuda_atan2f", 2}},
      {"cbrtf", {"__simt_cuda_cbrtf", 1}},   {"rcbrtf", {"__simt_cuda_rcbrtf", 1}},
      {"hypotf", {"__simt_cuda_hypotf", 2}}, {"exp", {"__simt_cuda_exp", 1, true}},
      {"log", {"__simt_cuda_log", 1, true}}, {"tanh", {"__simt_cuda_tanh", 1, true}}};
  Module& m = *f.getParent();
  for (Instruction& i : instructions(f)) {
    auto* call = dyn_cast<CallInst>(&i);
    const Function* callee = call ? call->getCalledFunction() : nullptr;
    if (!callee) continue;
    auto it = exact.find(cuda_name(*callee));
    if (it == exact.end()) continue;
    // The C signature: float(float...), double(double), or void(float, float*, float*)
    // for sincosf.
    const bool sincos = it->first == "sincosf";
    const bool dbl = it->second.is_double;
    auto real = [dbl](Type* t) { return dbl ? t->isDoubleTy() : t->isFloatTy(); };
    const unsigned args = it->second.floats + (sincos ? 2 : 0);
    if (call->arg_size() != args || !(sincos ? call->getType()->isVoidTy() : real(call->getType()))) continue;
    bool fits = true;
    for (unsigned a = 0; a < args; ++a) {
      Type* t = call->getArgOperand(a)->getType();
      fits &= a < it->second.floats ? real(t) : t->isPointerTy();
    }
    if (!fits) continue;
    FunctionCallee cuda = m.getOrInsertFunction(it->second.name, call->getFunctionType());
    if (auto* decl = dyn_cast<Function>(cuda.getCallee())) {
      if (sincos) {
        decl->setOnlyAccessesArgMemory();
      } else {
        decl->setDoesNotAccessMemory();
      }
      decl->setDoesNotThrow();
      decl->setWillReturn();
    }
    call->setCalledFunction(cuda);
  }
}

// nvcc folds these functions of constant arguments to the correctly rounded value
// (NVVM: expf(0.5f) is 0x3fd3094c, __logf(2.0f) 0x3f317218, not MUFU's bits); it
// keeps rsqrtf and __fdividef. A double-precision evaluation rounded once to float
// gives the same values (asinf, acosf, atan2f checked against nvcc's folded constants;
// the double exp, log and tanh fold to the C library's double, as nvcc's do). cbrtf and
// rcbrtf of a constant: nvcc folds only their lg2.approx (to the correctly rounded
// log2), the rest runs (__simt_cuda_cbrtf_lg2).
void fold_constant_cuda_math(Module& m) {
  using Unary = double (*)(double);
  static const std::map<std::string, Unary> unary = {
      {"__simt_cuda_expf", [](double x) { return std::exp(x); }},
      {"__simt_cuda_fast_expf", [](double x) { return std::exp(x); }},
      {"__simt_cuda_exp2f", [](double x) { return std::exp2(x); }},
      {"__simt_cuda_logf", [](double x) { return std::log(x); }},
      {"__simt_cuda_fast_logf", [](double x) { return std::log(x); }},
      {"__simt_cuda_fast_log2f", [](double x) { return std::log2(x); }},
      {"__simt_cuda_fast_log10f", [](double x) { return std::log10(x); }},
      {"__simt_cuda_tanhf", [](double x) { return std::tanh(x); }},
      {"__simt_cuda_asinf", [](double x) { return std::asin(x); }},
      {"__simt_cuda_acosf", [](double x) { return std::acos(x); }},
      {"__simt_cuda_exp", [](double x) { return std::exp(x); }},
      {"__simt_cuda_log", [](double x) { return std::log(x); }},
      {"__simt_cuda_tanh", [](double x) { return std::tanh(x); }}};
  for (Function& f : m) {
    auto fold = unary.find(f.getName().str());
    const bool pow = f.getName() == "__simt_cuda_fast_powf";
    const bool atan2 = f.getName() == "__simt_cuda_atan2f";
    const bool cbrt = f.getName() == "__simt_cuda_cbrtf" || f.getName() == "__simt_cuda_rcbrtf";
    if (fold == unary.end() && !pow && !atan2 && !cbrt) continue;
    for (User* u : make_early_inc_range(f.users())) {
      auto* call = dyn_cast<CallInst>(u);
      if (!call || call->getCalledFunction() != &f) continue;
      std::vector<double> args;
      for (Value* a : call->args())
        if (auto* c = dyn_cast<ConstantFP>(a))
          args.push_back(c->getType()->isDoubleTy() ? c->getValueAPF().convertToDouble() : c->getValueAPF().convertToFloat());
      if (cbrt && args.size() == 1) {
        IRBuilder<> b(call);
        const std::string lg2 = f.getName().str() + "_lg2";
        FunctionCallee with_log =
            m.getOrInsertFunction(lg2, call->getType(), call->getType(), call->getType());
        Value* log2x = ConstantFP::get(call->getType(), static_cast<float>(std::log2(std::fabs(args[0]))));
        call->replaceAllUsesWith(b.CreateCall(with_log, {call->getArgOperand(0), log2x}));
        call->eraseFromParent();
        continue;
      }
      if (cbrt) continue;
      if (pow && args.size() == 1 && isa<ConstantFP>(call->getArgOperand(0))) {
        // __powf(C, y): nvcc folds __log2f(C) alone, leaving ex2.approx(y * log2 C).
        IRBuilder<> b(call);
        Value* scaled = b.CreateFMul(call->getArgOperand(1),
                                     ConstantFP::get(call->getType(), static_cast<float>(std::log2(args[0]))));
        FunctionCallee exp2 = m.getOrInsertFunction("__simt_cuda_exp2f", call->getType(), call->getType());
        call->replaceAllUsesWith(b.CreateCall(exp2, {scaled}));
        call->eraseFromParent();
        continue;
      }
      if (args.size() != call->arg_size()) continue;
      const double value = pow ? std::pow(args[0], args[1]) : atan2 ? std::atan2(args[0], args[1]) : fold->second(args[0]);
      call->replaceAllUsesWith(call->getType()->isDoubleTy()
                                   ? ConstantFP::get(call->getType(), value)
                                   : ConstantFP::get(call->getType(), static_cast<float>(value)));
      call->eraseFromParent();
    }
  }
}

}  // namespace simt::pass
