// The compiler front end's syntax step: port's launch and dynamic-shared passes,
// nothing else. Types, includes and expressions stay the learner's.
#include "port/context.hpp"
#include "port/passes.hpp"
#include "port/port.hpp"

#include <algorithm>

namespace simt::port {

PortResult syntax_source(std::string_view source) {
  Context c(source);
  c.keep_types = true;
  mark_device_code(c);
  c.result.errors.clear();  // about the f32 rewrite, which this step does not make
  rewrite_dynamic_shared(c);
  rewrite_launches(c);
  if (c.result.errors.empty()) c.result.output = c.apply_edits();
  return std::move(c.result);
}

bool needs_syntax_step(std::string_view source) {
  Context c(source);
  for (std::size_t i = 0; i < c.size(); ++i)
    if (c.is(i, "<<<") || (c.is(i, "extern") && c.is(i + 1, "__shared__"))) return true;
  return false;
}

}  // namespace simt::port
