// Race checks keep a shadow of 16 bytes for every 4-byte word of device memory a
// launch touches: four times the data. A program whose buffers need more shadow than
// the machine can hold would be killed for memory half way through (llm.c's
// softmax_forward at its default size: 3.3 GB of buffers, 20.7 GB in all). Before each
// launch, the shadow the live device memory could need is compared with this
// machine's memory; past half of it the race checks are turned off, once and loudly,
// and the program goes on with every other check (docs/exec.md, "Programs too large
// to check"). The option races=always keeps them on regardless.
#pragma once
#include <cstdint>

namespace simt {

// Turns the race checks off, with a warning on stderr naming launch `launch_number`
// (1-based), when the race shadow of the device memory in use would not fit.
void fit_race_shadow(std::uint64_t launch_number);
// Whether fit_race_shadow would turn the race checks off now.
bool race_shadow_too_big();

// The memory this process may use: physical memory, or its cgroup's limit if lower.
std::uint64_t usable_memory_bytes();

}  // namespace simt
