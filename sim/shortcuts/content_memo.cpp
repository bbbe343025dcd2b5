#include "sim/shortcuts/content_memo.hpp"

#include "sim/memory/global_memory.hpp"

#include <xxhash.h>

#include <algorithm>
#include <cstring>

namespace simt {

namespace {

unsigned char* host_bytes(std::uint64_t sector) {
  return reinterpret_cast<unsigned char*>(GlobalMemory::instance().host_address(std::uintptr_t(sector * 32)));
}

std::uint64_t sector_bytes(const SectorRuns& runs) {
  std::uint64_t n = 0;
  for (const SectorRun& r : runs) n += (r.end - r.begin) * 32;
  return n;
}

}  // namespace

ContentDigest digest_sectors(const SectorRuns& runs) {
  XXH3_state_t* state = XXH3_createState();
  XXH3_128bits_reset(state);
  for (const SectorRun& r : runs) {
    // The run's place too: the same bytes elsewhere are other inputs.
    XXH3_128bits_update(state, &r, sizeof r);
    XXH3_128bits_update(state, host_bytes(r.begin), (r.end - r.begin) * 32);
  }
  const XXH128_hash_t h = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  return {h.low64, h.high64};
}

ContentMemo& ContentMemo::instance() {
  static ContentMemo m;
  return m;
}

ContentMemo::Entry* ContentMemo::find(const LaunchKey& key) {
  auto it = std::find_if(entries_.begin(), entries_.end(), [&](const Entry& e) { return e.key == key; });
  return it == entries_.end() ? nullptr : &*it;
}
const ContentMemo::Entry* ContentMemo::find(const LaunchKey& key) const {
  return const_cast<ContentMemo*>(this)->find(key);
}

bool ContentMemo::knows(const LaunchKey& key) const { return find(key) != nullptr; }

LaunchFootprint ContentMemo::reach(const LaunchKey& key) const {
  const Entry* e = find(key);
  if (!e) return {};
  return {merge_runs(e->inputs, e->footprint.written), e->footprint.written, false, true};
}

std::optional<ContentDigest> ContentMemo::digest_inputs(const LaunchKey& key) {
  Entry* e = find(key);
  if (!e || e->too_large) return std::nullopt;
  if (!sectors_live(e->inputs)) {  // freed since: the launch runs, and faults or learns anew
    erase(e);
    return std::nullopt;
  }
  return digest_sectors(e->inputs);
}

std::optional<Replay> ContentMemo::replay(const LaunchKey& key, const ContentDigest& before) {
  Entry* e = find(key);
  if (!e || !e->digest || !(*e->digest == before)) return std::nullopt;
  const unsigned char* from = e->outputs.data();
  for (const SectorRun& r : e->footprint.written) {
    const std::size_t n = (r.end - r.begin) * 32;
    std::memcpy(host_bytes(r.begin), from, n);
    from += n;
  }
  Replay hit{e->record_index, e->footprint, e->impure};
  to_back(e);
  return hit;
}

void ContentMemo::erase(Entry* e) {
  drop_outputs(*e);
  entries_.erase(entries_.begin() + (e - entries_.data()));
}

// The most recently used goes last.
ContentMemo::Entry* ContentMemo::to_back(Entry* e) {
  std::rotate(entries_.begin() + (e - entries_.data()), entries_.begin() + (e - entries_.data()) + 1, entries_.end());
  return &entries_.back();
}

void ContentMemo::drop_outputs(Entry& e) {
  kept_bytes_ -= e.outputs.size();
  e.outputs = {};
  e.digest.reset();
}

// Frees the outputs of the least recently used entries until `bytes` more fit.
void ContentMemo::make_room(std::uint64_t bytes, const Entry* keep) {
  for (Entry& e : entries_) {
    if (kept_bytes_ + bytes <= kMaxKeptBytes) return;
    if (&e != keep) drop_outputs(e);
  }
}

void ContentMemo::ran(const LaunchKey& key, std::optional<ContentDigest> before, std::size_t record_index,
                      const LaunchFootprint& footprint, bool eligible, std::string impure) {
  Entry* e = find(key);
  if (!eligible || !footprint.known) {
    if (e) erase(e);
    return;
  }
  if (!e) {
    if (entries_.size() == kEntries) erase(&entries_.front());
    e = &entries_.emplace_back(Entry{key, footprint.touched, {}, {}, {}, 0, {}});
  } else {
    e = to_back(e);
  }
  drop_outputs(*e);
  // Its inputs were hashed before it ran and it read nothing else: its outputs follow
  // from those bytes. Otherwise the sectors it did touch are hashed next time.
  const std::uint64_t bytes = sector_bytes(footprint.written);
  e->too_large = bytes > kMaxKeptBytes / 2;  // not worth hashing its inputs again
  if (!before || !covers(e->inputs, footprint.touched) || e->too_large) {
    e->inputs = footprint.touched;
    return;
  }
  make_room(bytes, e);
  e->outputs.resize(bytes);
  unsigned char* to = e->outputs.data();
  for (const SectorRun& r : footprint.written) {
    const std::size_t n = (r.end - r.begin) * 32;
    std::memcpy(to, host_bytes(r.begin), n);
    to += n;
  }
  kept_bytes_ += bytes;
  e->digest = before;
  e->footprint = footprint;
  e->record_index = record_index;
  e->impure = std::move(impure);
}

}  // namespace simt
