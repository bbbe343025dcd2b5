// Element sizes of the dtypes an LLM budget can be asked about, and the catalog's
// peak key for each (fp16/bf16/fp8/int8 tensor-core rates, fp32 CUDA-core rate).
#pragma once
#include <string>

namespace simt::cost {

struct Dtype {
  std::string name;       // "bf16"
  int bytes = 2;          // per element
  std::string peak_key;   // key into DeviceSpec::peak
};

// Throws std::invalid_argument listing the accepted names.
Dtype parse_dtype(const std::string& name);

// "16.06 GB (14.96 GiB)": decimal for comparison with papers, binary for HBM sizes.
std::string gb_and_gib(double bytes);

}  // namespace simt::cost
