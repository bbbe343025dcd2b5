#include "sim/options/runtime_options.hpp"

namespace simt {

Options& mutable_runtime_options() {
  static Options options = options_from_environment();
  return options;
}

const Options& runtime_options() { return mutable_runtime_options(); }

}  // namespace simt
