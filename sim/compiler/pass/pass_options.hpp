// The pass's switches are options of simtlab's one table (sim/options/options.inc,
// the pass_* rows): clang loads the plugin in the process `simt exec` starts, which
// hands it $SIMT_OPTIONS; read once.
#pragma once
#include "sim/options/options.hpp"

namespace simt::pass {

const Options& pass_options();

}  // namespace simt::pass
