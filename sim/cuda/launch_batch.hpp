// One host thread's launches onto several GPUs, run at once (docs/multi-gpu.md, "One
// host thread, several GPUs").
//
// A kernel launch is asynchronous in CUDA: the host thread goes on while the GPU runs
// it, so a program that drives every GPU from one thread (`for each GPU: cudaSetDevice,
// launch`) keeps them all busy together. The simulator executes a launch where it is
// made; for such a program to use the host's cores as well, a launch made while
// several GPUs are simulated waits in its thread's batch. The batch runs when the
// thread next calls the runtime for anything but another launch, the choice of GPU or
// its last error (sim/exec/host_lock.hpp): each GPU's launches in order on a thread
// kept for that GPU, the GPUs at once. Results are those of running each launch when
// it was made: a launch sees the earlier ones of its GPU done, and launches of
// different GPUs are unordered on GPUs too. Counters, outputs and simulated times are
// the same as one launch at a time; as with a host thread per GPU, the records of
// different GPUs' launches are in the order they finished, and which launches were
// deferred may differ from run to run.
#pragma once
#include "sim/shortcuts/launch.hpp"

namespace simt {

// Takes the launch into the calling thread's batch and returns true; or runs the batch
// (on this thread) and returns false, and the caller runs the launch now: with one
// simulated GPU, with concurrent_gpus=0, for a cooperative launch, or when the
// arguments cannot be copied. Called with the runtime's lock held, after the launch's
// own checks (launch_refusal); a configuration the GPU refuses runs now, so that
// cudaGetLastError reports it at once.
bool join_launch_batch(const void* kernel_fn, const LaunchConfig& cfg, const KernelBody& body);

// Runs the calling thread's batch on this thread, in order (the program's end, the
// thread's end).
void run_launch_batch();

}  // namespace simt
