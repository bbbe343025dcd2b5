// Constructors the pass adds to a module, to tell the runtime what the module holds
// when it loads (an executable at start, a ctypes library when Python opens it).
#pragma once
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace simt::pass {

// At load: registrar(), a function of no arguments.
void call_at_startup(llvm::Module& m, const char* registrar);

// At load: registrar(__start_SECTION, __stop_SECTION), the module's slice of a
// section of records (the linker bounds it within each executable or library).
void register_section_at_startup(llvm::Module& m, const char* section, const char* registrar);

// At load: registrar(table, n), a table of the given functions' addresses.
void register_functions_at_startup(llvm::Module& m, const std::vector<llvm::Function*>& functions,
                                   const char* registrar);

}  // namespace simt::pass
