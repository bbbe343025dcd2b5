// The options of this process (sim/options/options.hpp): read once from
// $SIMT_OPTIONS when first asked for. `simt run`, which runs kernels in its own
// process, replaces them with its flags applied (sim/shortcuts/launch.hpp, use_options).
#pragma once
#include "sim/options/options.hpp"

namespace simt {

const Options& runtime_options();
Options& mutable_runtime_options();

}  // namespace simt
