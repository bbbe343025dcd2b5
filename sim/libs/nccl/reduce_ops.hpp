// NCCL's element types and reduction operators on the host bytes of device
// buffers, rounded as the GPU rounds them: half and bf16 reduce in their own
// precision, as NCCL's FuncSum/FuncProd/FuncMinMax do (__hadd, __hmul on sm_80+),
// each step rounded to nearest even; floats and doubles in IEEE arithmetic.
// ncclAvg is NCCL's PreMulSum for floating types (each input times 1/n in its own
// type, then summed) and SumPostDiv for integers (summed, then divided by n):
// src/enqueue.cc, hostToDevRedOp.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace simt::nccl {

enum class DataType { int8, uint8, int32, uint32, int64, uint64, float16, float32, float64, bfloat16 };
enum class RedOp { sum, prod, max, min, avg };

bool valid_type(int t);
bool valid_op(int op);
std::size_t type_size(DataType t);
std::string type_name(DataType t);  // "ncclFloat32"
std::string op_name(RedOp op);      // "ncclSum"

// The first step of a reduction: acc = x (ncclAvg on floating types: x times 1/n).
void load_first(void* acc, const void* x, std::size_t count, DataType t, RedOp op, int ranks);
// acc = acc (op) x, element by element (ncclAvg: acc + x times 1/n).
void accumulate(void* acc, const void* x, std::size_t count, DataType t, RedOp op, int ranks);
// After the last step: ncclAvg on integers divides by n; nothing otherwise.
void finish(void* acc, std::size_t count, DataType t, RedOp op, int ranks);

}  // namespace simt::nccl
