// The launch a program makes, with the shortcuts that wrap it: repeats skipped,
// launches deferred or replayed, long grids sampled (sim/shortcuts/launch.cpp).
#pragma once
#include "sim/exec/executor.hpp"

namespace simt {

// Returns a cudaError_t value and appends a LaunchRecord.
int execute_launch(const void* kernel_fn, const LaunchConfig& cfg, const KernelBody& body);
// Appends the record of a skipped repeat of launch match.record_index (sim/shortcuts/repeat_launch.hpp).
struct RepeatMatch;
void append_repeat_record(const RepeatMatch& match);
// Forgets every record, with the repeats, deferred launches and replays that point at them.
void clear_launch_records();
// Replaces the process's options (`simt run`: its flags over $SIMT_OPTIONS) and the
// settings that start from them: the race checks, the workers, the repeat mode.
void use_options(const Options& o);

}  // namespace simt
