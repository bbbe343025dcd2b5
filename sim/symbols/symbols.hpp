// What the simulator knows of the program it runs, read from its own ELF files:
// kernel names, source lines of sites, and the __shared__ variables (which the
// simulator build places in thread-local storage, one copy per worker thread).
#pragma once
#include "sim/types/events.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace simt {

struct SharedVariable {
  std::string name;          // demangled, e.g. "tiled_matmul<16>(...)::tile"
  std::uintptr_t offset = 0; // within the module's TLS block
  std::size_t size = 0;
};

struct Module {
  std::string path;
  std::uintptr_t load_bias = 0;
  std::size_t tls_modid = 0;
  std::size_t tls_size = 0;
  std::vector<SharedVariable> shared;  // sorted by offset
  std::uintptr_t shared_lo = 0, shared_hi = 0;  // offsets spanning all of them
  // No symbol table (a full `strip`): kernels go unnamed and __shared__ variables unseen.
  bool stripped = false;
  // This thread's TLS block of the module (static __shared__ of the worker).
  std::uintptr_t tls_block_of_this_thread() const;
  const SharedVariable* shared_at(std::uintptr_t offset) const;
  std::size_t shared_bytes_of(const std::string& function) const;
};

const Module& module_of(const void* code_address);

struct SourceLocation {
  std::string function;
  std::string file;
  int line = 0;
  std::string short_file() const;  // path relative to the source tree when inside it
};

// Batched and cached: sites are resolved once, after the run.
std::vector<SourceLocation> resolve_sites(const std::vector<Site>& sites);
std::string function_name(const void* fn);       // demangled, without the parameter list
std::string full_function_name(const void* fn);  // demangled, with signature
std::string source_line_text(const std::string& file, int line);

}  // namespace simt
