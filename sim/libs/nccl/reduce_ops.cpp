#include "sim/libs/nccl/reduce_ops.hpp"

#include "sim/math/narrow_float.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace simt::nccl {
namespace {

// One element type: how its values combine.
template <class T>
struct Plain {
  static T mul(T a, T b) { return a * b; }
  static T add(T a, T b) { return a + b; }
  static T max(T a, T b) { return std::max(a, b); }
  static T min(T a, T b) { return std::min(a, b); }
  static T scale_for(int n) { return T(1) / T(n); }
};

// fmax/fmin semantics for floating types (NCCL: fmaxf/fminf).
template <class T>
struct Floating : Plain<T> {
  static T max(T a, T b) { return std::fmax(a, b); }
  static T min(T a, T b) { return std::fmin(a, b); }
};

// half and bf16 as their bits; every result rounded once to the format. A sum or
// product of two such values computed in double is exact for half and, for bf16,
// rounded twice harmlessly (53 >= 2 x 8 + 2 bits), so one rounding to the format
// gives the correctly rounded result the GPU's __hadd/__hmul give.
namespace narrow = simt::cuda::narrow;

template <const narrow::Format& F>
struct Narrow {
  using T = std::uint16_t;
  static double v(T b) { return narrow::to_double(b, F); }
  static T r(double x) { return narrow::from_double(x, F); }  // NaN: the canonical one, as HADD gives
  static T mul(T a, T b) { return r(v(a) * v(b)); }
  static T add(T a, T b) { return r(v(a) + v(b)); }
  static T max(T a, T b) { return r(std::fmax(v(a), v(b))); }
  static T min(T a, T b) { return r(std::fmin(v(a), v(b))); }
  static T scale_for(int n) { return r(1.0 / n); }
};

template <class Ops, class T>
T combine(T a, T b, RedOp op) {
  switch (op) {
    case RedOp::sum: return Ops::add(a, b);
    case RedOp::prod: return Ops::mul(a, b);
    case RedOp::max: return Ops::max(a, b);
    case RedOp::min: return Ops::min(a, b);
    case RedOp::avg: return Ops::add(a, b);  // the inputs were scaled (floating) or are divided at the end
  }
  return a;
}

template <class Ops, class T, bool PreMul>
void run_load(void* acc, const void* x, std::size_t count, RedOp op, int n) {
  T* a = static_cast<T*>(acc);
  const T* in = static_cast<const T*>(x);
  if (PreMul && op == RedOp::avg) {
    const T s = Ops::scale_for(n);
    for (std::size_t i = 0; i < count; ++i) a[i] = Ops::mul(in[i], s);
  } else {
    std::memmove(a, in, count * sizeof(T));
  }
}

template <class Ops, class T, bool PreMul>
void run_accumulate(void* acc, const void* x, std::size_t count, RedOp op, int n) {
  T* a = static_cast<T*>(acc);
  const T* in = static_cast<const T*>(x);
  const T s = PreMul && op == RedOp::avg ? Ops::scale_for(n) : T{};
  for (std::size_t i = 0; i < count; ++i) {
    const T b = PreMul && op == RedOp::avg ? Ops::mul(in[i], s) : in[i];
    a[i] = combine<Ops>(a[i], b, op);
  }
}

// Calls f<Ops, T, PreMul>() for the type.
template <template <class, class, bool> class F, class... A>
void dispatch(DataType t, A... args) {
  switch (t) {
    case DataType::int8: return F<Plain<std::int8_t>, std::int8_t, false>::run(args...);
    case DataType::uint8: return F<Plain<std::uint8_t>, std::uint8_t, false>::run(args...);
    case DataType::int32: return F<Plain<std::int32_t>, std::int32_t, false>::run(args...);
    case DataType::uint32: return F<Plain<std::uint32_t>, std::uint32_t, false>::run(args...);
    case DataType::int64: return F<Plain<std::int64_t>, std::int64_t, false>::run(args...);
    case DataType::uint64: return F<Plain<std::uint64_t>, std::uint64_t, false>::run(args...);
    case DataType::float16: return F<Narrow<narrow::kHalf>, std::uint16_t, true>::run(args...);
    case DataType::float32: return F<Floating<float>, float, true>::run(args...);
    case DataType::float64: return F<Floating<double>, double, true>::run(args...);
    case DataType::bfloat16: return F<Narrow<narrow::kBf16>, std::uint16_t, true>::run(args...);
  }
  throw std::invalid_argument("unknown NCCL data type");
}

template <class Ops, class T, bool PreMul>
struct Load {
  static void run(void* acc, const void* x, std::size_t count, RedOp op, int n) { run_load<Ops, T, PreMul>(acc, x, count, op, n); }
};
template <class Ops, class T, bool PreMul>
struct Accumulate {
  static void run(void* acc, const void* x, std::size_t count, RedOp op, int n) {
    run_accumulate<Ops, T, PreMul>(acc, x, count, op, n);
  }
};
template <class Ops, class T, bool PreMul>
struct Finish {
  static void run(void* acc, std::size_t count, RedOp op, int n) {
    if constexpr (!PreMul) {
      if (op != RedOp::avg) return;
      T* a = static_cast<T*>(acc);
      for (std::size_t i = 0; i < count; ++i) a[i] = static_cast<T>(a[i] / static_cast<T>(n));
    }
  }
};

}  // namespace

bool valid_type(int t) { return t >= 0 && t <= static_cast<int>(DataType::bfloat16); }
bool valid_op(int op) { return op >= 0 && op <= static_cast<int>(RedOp::avg); }

std::size_t type_size(DataType t) {
  switch (t) {
    case DataType::int8:
    case DataType::uint8: return 1;
    case DataType::float16:
    case DataType::bfloat16: return 2;
    case DataType::int32:
    case DataType::uint32:
    case DataType::float32: return 4;
    case DataType::int64:
    case DataType::uint64:
    case DataType::float64: return 8;
  }
  return 0;
}

std::string type_name(DataType t) {
  static const char* names[] = {"ncclInt8",    "ncclUint8",   "ncclInt32",   "ncclUint32",  "ncclInt64",
                                "ncclUint64",  "ncclFloat16", "ncclFloat32", "ncclFloat64", "ncclBfloat16"};
  return names[static_cast<int>(t)];
}

std::string op_name(RedOp op) {
  static const char* names[] = {"ncclSum", "ncclProd", "ncclMax", "ncclMin", "ncclAvg"};
  return names[static_cast<int>(op)];
}

void load_first(void* acc, const void* x, std::size_t count, DataType t, RedOp op, int ranks) {
  dispatch<Load>(t, acc, x, count, op, ranks);
}
void accumulate(void* acc, const void* x, std::size_t count, DataType t, RedOp op, int ranks) {
  dispatch<Accumulate>(t, acc, x, count, op, ranks);
}
void finish(void* acc, std::size_t count, DataType t, RedOp op, int ranks) { dispatch<Finish>(t, acc, count, op, ranks); }

}  // namespace simt::nccl
