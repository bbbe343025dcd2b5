// Sites of the compiler front end: one constant record per source location
// (file:line:column, after inlining), which the instrumented calls pass to the
// simulator's runtime as their site id (sim/symbols/compiler_sites.hpp is its reader).
#pragma once
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <map>
#include <string>
#include <tuple>

namespace simt::pass {

// Whether a source file belongs to simtlab's own headers, whose code (inlined
// into kernels) is the simulator's machinery and is not instrumented.
class RuntimeFiles {
 public:
  explicit RuntimeFiles(std::string prefix) : prefix_(std::move(prefix)) {}
  const std::string& prefix() const { return prefix_; }
  bool contains(const llvm::DIScope* scope) const;
  // simtlab's code whose operations are the kernel's own (portable math: its FADDs
  // and FFMAs run on the GPU as the kernel's; cg::reduce's operators). Sites still
  // name the user's line.
  bool counted(const llvm::DIScope* scope) const;
  // Code the pass leaves alone: simtlab's, except what is counted.
  bool uninstrumented(const llvm::DIScope* scope) const { return contains(scope) && !counted(scope); }
  bool uninstrumented_location(const llvm::DILocation* loc) const { return loc && uninstrumented(loc->getScope()); }
  // The innermost frame of loc's inlining chain that is the user's code, or null.
  const llvm::DILocation* user_frame(const llvm::DILocation* loc) const;

 private:
  std::string prefix_;  // e.g. /src/simtlab/sim/
};

// Creates (once per key) the record of a site and returns its address as i8*.
// Records are placed in the section simt_sites; one constructor per module
// registers the section's range with the runtime (__simt_register_sites).
class SiteTable {
 public:
  SiteTable(llvm::Module& m, const RuntimeFiles& runtime) : m_(m), runtime_(runtime) {}
  // The site of an instruction; `kind` separates records of different operations at
  // one location (a macro's expansion gives all its operations one location).
  // `in_loop`: whether the instruction sits in a loop of the optimised code (when not
  // known, true). A record all of whose instructions are outside loops is marked
  // straight-line (kSiteStraightLine): the copies of a fully unrolled loop.
  // `flags`: more of the record's flags (kSiteVolatile); give them a `kind` of their own.
  // `loop`: the record's loop field (kSiteLoopBatched, sim/types/events.hpp), where
  // known; the first instruction in a loop sets it.
  llvm::Constant* site_of(const llvm::Instruction& inst, const std::string& kind, bool in_loop = true,
                          unsigned flags = 0, unsigned loop = 0);
  // Files `load`, a load instruction of the record `site` (from site_of), whose block
  // has the ordinal `block` (LoopTags): the record's copies field (kSiteCopiesShift)
  // takes the most loads one block of one function holds between barriers.
  void note_load_copy(llvm::Constant* site, const llvm::Instruction& load, unsigned block);
  void emit_registration();
  std::size_t size() const { return sites_.size(); }

 private:
  struct Record {
    llvm::GlobalVariable* variable;
    llvm::Constant* address;
    bool in_loop;
    unsigned loop;
    // (function, block ordinal, barriers before the load in its block) -> loads
    std::map<std::tuple<const llvm::Function*, unsigned, unsigned>, unsigned> loads_per_block;
    unsigned copies = 0;  // the most of them
  };
  Record make_record(const std::string& file, const std::string& function, unsigned line, unsigned column,
                     bool in_loop, unsigned flags, unsigned loop);
  static void set_in_loop(Record& r, unsigned loop);
  static void set_flag_bits(Record& r, std::uint32_t mask, std::uint32_t bits);
  llvm::Constant* string_constant(const std::string& s);

  llvm::Module& m_;
  const RuntimeFiles& runtime_;
  std::map<std::string, Record> sites_;
  std::map<const llvm::Constant*, Record*> by_address_;
  std::map<std::string, llvm::Constant*> strings_;
};

}  // namespace simt::pass
