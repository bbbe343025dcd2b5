#include "int_division.hpp"
#include "pass_options.hpp"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Support/KnownBits.h>

#include <vector>

namespace simt::pass {

using namespace llvm;

namespace {

bool is_integer_division(const Instruction& i) {
  switch (i.getOpcode()) {
    case Instruction::SDiv: case Instruction::UDiv: case Instruction::SRem: case Instruction::URem:
      return i.getType()->isIntegerTy();  // vector divisions: left alone (int_division.hpp)
    default: return false;
  }
}

bool is_signed(const Instruction& i) {
  return i.getOpcode() == Instruction::SDiv || i.getOpcode() == Instruction::SRem;
}

// Whether a value whose known bits are `k` can be `v`.
bool could_be(const KnownBits& k, const APInt& v) { return (k.Zero & v).isZero() && (k.One & ~v).isZero(); }

bool divisor_could_be_zero(const Instruction& i, const DataLayout& dl) {
  return !isKnownNonZero(i.getOperand(1), dl);
}

// The one signed division that overflows: the minimum by -1.
bool could_overflow(const Instruction& i, const DataLayout& dl) {
  if (!is_signed(i)) return false;
  const unsigned bits = i.getType()->getIntegerBitWidth();
  return could_be(computeKnownBits(i.getOperand(1), dl), APInt::getAllOnes(bits)) &&
         could_be(computeKnownBits(i.getOperand(0), dl), APInt::getSignedMinValue(bits));
}

// What the H200 returns for x / 0 and x % 0 (int_division.hpp): all ones, except at 64
// bits where nvcc's 32-bit path, taken when both high halves are zero (the divisor's
// is), gives 0xFFFFFFFF.
Value* by_zero_value(IRBuilder<>& b, Value* dividend) {
  auto* type = cast<IntegerType>(dividend->getType());
  Constant* all_ones = Constant::getAllOnesValue(type);
  if (type->getBitWidth() != 64) return all_ones;
  Value* fits_32_bits = b.CreateICmpULT(dividend, ConstantInt::get(type, 1ull << 32));
  return b.CreateSelect(fits_32_bits, ConstantInt::get(type, 0xFFFFFFFFull), all_ones);
}

// The divisor becomes 1 where it is 0 or where the signed division overflows (MIN / 1
// and MIN % 1 are already the H200's MIN / -1 and MIN % -1); a zero divisor's result
// is then replaced by the H200's value.
void guard(Instruction& i, bool zero, bool overflow) {
  IRBuilder<> b(&i);
  b.SetCurrentDebugLocation(i.getDebugLoc());  // the guard is the division's line
  Value* dividend = i.getOperand(0);
  Value* divisor = i.getOperand(1);
  Type* type = i.getType();
  Value* by_zero = b.CreateICmpEQ(divisor, ConstantInt::get(type, 0));
  Value* replace = by_zero;
  if (overflow) {
    Value* by_minus_one = b.CreateICmpEQ(divisor, Constant::getAllOnesValue(type));
    Value* from_min = b.CreateICmpEQ(
        dividend, ConstantInt::get(type, APInt::getSignedMinValue(type->getIntegerBitWidth())));
    Value* overflows = b.CreateAnd(by_minus_one, from_min);
    replace = zero ? b.CreateOr(by_zero, overflows) : overflows;
  }
  i.setOperand(1, b.CreateSelect(replace, ConstantInt::get(type, 1), divisor));
  if (!zero) return;
  b.SetInsertPoint(i.getNextNode());
  b.SetCurrentDebugLocation(i.getDebugLoc());
  Value* result = b.CreateSelect(by_zero, by_zero_value(b, dividend), &i);
  i.replaceUsesWithIf(result, [&](Use& u) { return u.getUser() != result; });
}

}  // namespace

void guard_int_divisions(Function& f) {
  if (pass_options().pass_no_int_division_guard) return;  // to see the CPU's trap (tests/frontend)
  const DataLayout& dl = f.getParent()->getDataLayout();
  struct Todo {
    Instruction* division;
    bool zero, overflow;
  };
  std::vector<Todo> todo;  // decided before any rewrite: a guarded divisor is no longer known
  for (Instruction& i : instructions(f)) {
    if (!is_integer_division(i)) continue;
    const bool zero = divisor_could_be_zero(i, dl), overflow = could_overflow(i, dl);
    if (zero || overflow) todo.push_back({&i, zero, overflow});
  }
  for (const Todo& t : todo) guard(*t.division, t.zero, t.overflow);
}

}  // namespace simt::pass
