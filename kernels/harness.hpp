// How a course kernel plugs into simtlab: a name, parameters with defaults, a
// host driver that runs it (plain CUDA host code, so the same driver builds
// with nvcc for validation on a GPU), and a CPU reference that checks it.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace simt::kernels {

struct Param {
  std::string name;
  std::string default_value;
  std::string help;
};

class Params {
 public:
  Params() = default;
  explicit Params(std::map<std::string, std::string> v) : values_(std::move(v)) {}
  // A whole number in [lo, hi] (sizes: "4096", "4k", "1Mi"); by default a positive
  // int, since every size and block edge is one. Throws naming the parameter and
  // the range if missing, malformed or out of range.
  long long integer(const std::string& name, long long lo = 1, long long hi = 2147483647) const;
  const std::string& text(const std::string& name) const;
  const std::map<std::string, std::string>& values() const { return values_; }

 private:
  std::map<std::string, std::string> values_;
};

// A named array the driver copied back from the device, compared bit for bit
// between the simulator and a GPU, and checked against the reference.
struct Buffer {
  std::string name;
  std::vector<float> data;
};

struct Outputs {
  std::vector<Buffer> buffers;
  const Buffer& at(const std::string& name) const;
};

struct Check {
  bool ok = false;
  double max_abs_err = 0;
  double tolerance = 0;
  std::string detail;  // what was compared, and the first mismatch if any
};

struct KernelSpec {
  std::string name;
  std::string summary;
  std::vector<Param> params;
  std::function<Outputs(const Params&)> run;                  // CUDA host code: both builds
  std::function<Check(const Params&, const Outputs&)> check;  // CPU reference: simulator build only
};

std::vector<KernelSpec>& registry();
const KernelSpec& find_kernel(const std::string& name);  // throws with a near-miss suggestion
Params with_defaults(const KernelSpec& k, std::map<std::string, std::string> given);  // rejects unknown names

struct Registration {
  explicit Registration(KernelSpec spec) { registry().push_back(std::move(spec)); }
};

// Deterministic inputs, identical in both builds: values k/64 - 1 for small
// integers k, exactly representable so sums are reproducible everywhere.
std::vector<float> test_values(std::size_t n, std::uint32_t seed);

// max |a-b| over two arrays; fills check.ok against the tolerance.
Check compare(const std::vector<float>& got, const std::vector<float>& want, double tolerance, const std::string& what);

}  // namespace simt::kernels
