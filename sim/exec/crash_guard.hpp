// Turns a SIGSEGV inside a simulated thread into a diagnostic and a clean exit.
#pragma once

namespace simt {
void guard_this_thread();  // call on every thread that runs blocks
}  // namespace simt
