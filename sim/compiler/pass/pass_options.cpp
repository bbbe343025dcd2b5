#include "pass_options.hpp"

namespace simt::pass {

const Options& pass_options() {
  static const Options options = options_from_environment();
  return options;
}

}  // namespace simt::pass
