// Device-side malloc and free: in device code they take from the simulated device's
// heap (cudaLimitMallocHeapSize, sim/memory/device_heap.hpp), not the host's. The
// front end compiles with -fno-builtin-malloc and -fno-builtin-free, so clang keeps
// every call (a learner's `if (p == NULL)` after a huge request is not folded away).
#pragma once
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

namespace simt::pass {

// Calls of malloc and free in device function f become __simt_device_malloc and
// __simt_device_free; true when f had any.
bool redirect_device_heap(llvm::Function& f);

// A constructor telling the runtime the module's device code uses the heap: it is
// reserved on each GPU before that GPU's first launch.
void note_device_heap_at_startup(llvm::Module& m);

}  // namespace simt::pass
