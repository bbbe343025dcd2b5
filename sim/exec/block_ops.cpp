#include "sim/exec/block_ops.hpp"

#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace simt {

namespace {

struct Record {  // one entry of the section simt_block_ops
  Site block;
  FoldedFpOp op;
};
static_assert(sizeof(Record) == 24);

std::shared_mutex g_mutex;  // modules register while loading (a ctypes library may load late)
std::unordered_map<Site, std::vector<FoldedFpOp>> g_ops;
std::unordered_set<const void*> g_sections;

}  // namespace

std::span<const FoldedFpOp> folded_fp_ops(Site block) {
  std::shared_lock lock(g_mutex);
  auto it = g_ops.find(block);
  if (it == g_ops.end()) return {};
  return it->second;  // vectors are only appended to before any launch reads them
}

}  // namespace simt

// Every translation unit of a module registers the module's whole section: once.
extern "C" void __simt_register_block_ops(const void* begin, const void* end) {
  std::unique_lock lock(simt::g_mutex);
  if (!simt::g_sections.insert(begin).second) return;
  for (auto* r = static_cast<const simt::Record*>(begin); r < static_cast<const simt::Record*>(end); ++r)
    simt::g_ops[r->block].push_back(r->op);
}
