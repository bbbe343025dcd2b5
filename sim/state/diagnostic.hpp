// A sanitizer finding or a launch error, reported once per launch with enough
// context (kernel, block, thread, source line, address, allocation) to fix it.
#pragma once
#include "sim/types/events.hpp"
#include "sim/types/vector_types.hpp"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace simt {

enum class DiagKind {
  OutOfBoundsGlobal,
  OutOfBoundsShared,
  OutOfBoundsLocal,  // an index past a local array (sim/compiler/pass/local_bounds.hpp)
  InvalidAddress,   // neither device memory nor the thread's own stack (e.g. a host pointer)
  Misaligned,
  SharedRace,
  GlobalRace,
  UninitializedShared,
  DivergentBarrier,
  Deadlock,
  WarpSyncMisuse,
  DeviceAssert,
  Trap,             // __trap(): the launch fails with cudaErrorLaunchFailure, as on the GPU
  StackOverflow,
  LaunchConfig,
  ExitedBeforeBarrier,  // a warning: runs as on the H200, where exited threads count as arrived
  ExitedBeforeCollective,  // a warning: a *_sync mask names exited lanes; runs as on the H200
  Unsupported,          // a CUDA feature the simulator cannot run (a cooperative grid too large to hold)
};


struct Diagnostic {
  DiagKind kind;
  std::string message;     // one line, human-readable, names the fix where possible
  std::string kernel;      // filled in by the launch
  uint3 block{};
  uint3 thread{};
  Site site = nullptr;     // resolved to file:line when reported
  std::string location;    // "file.cu:42" once resolved
  std::uint64_t address = 0;
  std::string allocation;  // description of the nearest allocation / shared variable
  bool warning = false;    // reported, but the launch succeeds
};

// Thrown inside a simulated thread to abandon its block; caught by the executor.
struct KernelFault : std::exception {
  Diagnostic diag;
  explicit KernelFault(Diagnostic d) : diag(std::move(d)) {}
  const char* what() const noexcept override { return "simulated kernel fault"; }
};

const char* diag_kind_name(DiagKind k);
// "simt: <kind> in kernel K, block (x,y,z), thread (x,y,z), at file:line:\n  message".
std::string format_diagnostic(const Diagnostic& d);

}  // namespace simt
