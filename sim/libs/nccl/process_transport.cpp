#include "sim/libs/nccl/process_transport.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace simt::nccl {

namespace fs = std::filesystem;

// One rank's slot in the control file. The counters are read and written with
// std::atomic_ref: the file is shared memory between processes.
struct Slot {
  std::int32_t claimed = 0;  // 1 once a process took the rank
  std::int32_t pid = 0;      // set after device: a reader that sees pid sees device
  std::int32_t device = -1;
  std::int32_t pad = 0;
  std::uint64_t published = 0;  // the last collective whose signature, ready_s and bytes are written
  std::uint64_t consumed = 0;   // the last collective this rank has read everyone's part of
  CallSignature signature;
  double ready_s = 0;
  std::uint64_t bytes = 0;
};

struct ProcessTransport::Control {
  std::int32_t nranks = 0;
  std::int32_t left = 0;  // ranks whose communicator was destroyed
  Slot* slots() { return reinterpret_cast<Slot*>(this + 1); }
  const Slot* slots() const { return reinterpret_cast<const Slot*>(this + 1); }
};

namespace {

// A message's header, acknowledged in place by the receiver.
struct MessageHeader {
  std::int32_t state = 0;  // 0 posted, 1 received, 2 refused (sizes differ)
  std::int32_t pad = 0;
  double send_ready_s = 0;
  double start_s = 0;
  std::uint64_t bytes = 0;
  std::uint64_t reserved[4] = {};
};
static_assert(sizeof(MessageHeader) == 64);

template <class T>
T load(const T& x) {
  return std::atomic_ref<T>(const_cast<T&>(x)).load(std::memory_order_acquire);
}
template <class T>
void store(T& x, T v) {
  std::atomic_ref<T>(x).store(v, std::memory_order_release);
}

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

// Shared memory where the system has it; else the temporary folder (same host only).
fs::path base_folder() {
  std::error_code ec;
  fs::path base = fs::is_directory("/dev/shm", ec) && access("/dev/shm", W_OK) == 0 ? fs::path("/dev/shm")
                                                                                   : fs::temp_directory_path();
  if (const char* job = env("SIMT_JOB")) return base / fmt::format("simt-{}", job);
  return base;
}

std::string hex(const std::string& bytes, std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < std::min(n, bytes.size()); ++i) out += fmt::format("{:02x}", static_cast<unsigned char>(bytes[i]));
  return out;
}

void* map_file(int fd, std::size_t bytes, bool writable) {
  void* p = mmap(nullptr, bytes, writable ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? nullptr : p;
}

void write_all(int fd, const void* data, std::size_t bytes, const std::string& path) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = write(fd, p, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(fmt::format("nccl: cannot write {}: {}", path, std::strerror(errno)));
    p += n;
    bytes -= static_cast<std::size_t>(n);
  }
}

std::string message_name(int from, int to, std::uint64_t n) { return fmt::format("p{}-{}-{}", from, to, n); }

}  // namespace

bool ProcessTransport::enabled() {
  if (env("SIMT_JOB")) return true;
  for (const char* size : {"OMPI_COMM_WORLD_SIZE", "PMIX_SIZE", "PMI_SIZE", "WORLD_SIZE"})
    if (const char* v = env(size); v && std::atoi(v) > 1) return true;
  return false;
}

std::shared_ptr<ProcessTransport> ProcessTransport::open(const std::string& id, int nranks, std::string& error) {
  std::shared_ptr<ProcessTransport> t(new ProcessTransport);
  t->nranks_ = nranks;
  t->folder_ = (base_folder() / ("nccl-" + hex(id, 16))).string();
  std::error_code ec;
  fs::create_directories(t->folder_, ec);
  if (ec) {
    error = fmt::format("cannot create {} for the ranks' rendezvous: {}", t->folder_, ec.message());
    return nullptr;
  }
  const std::string path = t->folder_ + "/control";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  t->control_bytes_ = sizeof(Control) + sizeof(Slot) * static_cast<std::size_t>(nranks);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(t->control_bytes_)) != 0) {
    error = fmt::format("cannot open {}: {}", path, std::strerror(errno));
    if (fd >= 0) close(fd);
    return nullptr;
  }
  t->control_ = static_cast<Control*>(map_file(fd, t->control_bytes_, true));
  close(fd);
  if (!t->control_) {
    error = fmt::format("cannot map {}: {}", path, std::strerror(errno));
    return nullptr;
  }
  std::int32_t expected = 0;
  std::atomic_ref<std::int32_t>(t->control_->nranks).compare_exchange_strong(expected, nranks);
  if (expected != 0 && expected != nranks) {
    error = fmt::format("this ncclUniqueId's communicator has {} ranks; a rank asked for {}", expected, nranks);
    return nullptr;
  }
  return t;
}

ProcessTransport::~ProcessTransport() {
  for (auto& [seq, m] : read_maps_) munmap(m.address, m.bytes);
  for (auto& [seq, path] : written_) unlink(path.c_str());
  for (auto& [key, out] : sends_) {
    munmap(out.map.address, out.map.bytes);
    unlink(out.path.c_str());
  }
  if (!control_) return;
  const int left = std::atomic_ref<std::int32_t>(control_->left).fetch_add(
                       static_cast<std::int32_t>(my_ranks_.size())) +
                   static_cast<int>(my_ranks_.size());
  munmap(control_, control_bytes_);
  if (left >= nranks_) {
    std::error_code ec;
    fs::remove_all(folder_, ec);
  }
}

std::string ProcessTransport::join(int rank, int device) {
  if (rank < 0 || rank >= nranks_) return fmt::format("rank {} is not in 0..{}", rank, nranks_ - 1);
  Slot& s = control_->slots()[rank];
  std::int32_t free_slot = 0;
  if (!std::atomic_ref<std::int32_t>(s.claimed).compare_exchange_strong(free_slot, 1))
    return fmt::format("rank {} of this communicator was initialised twice (once by process {})", rank, load(s.pid));
  s.device = device;
  store(s.pid, static_cast<std::int32_t>(getpid()));
  my_ranks_.push_back(rank);
  return "";
}

bool ProcessTransport::all_joined() const {
  for (int r = 0; r < nranks_; ++r)
    if (load(control_->slots()[r].pid) == 0) return false;
  return true;
}

bool ProcessTransport::is_local(int rank) const {
  return std::find(my_ranks_.begin(), my_ranks_.end(), rank) != my_ranks_.end();
}

int ProcessTransport::local_count() const { return static_cast<int>(my_ranks_.size()); }

int ProcessTransport::device_of(int rank) const { return control_->slots()[rank].device; }

std::string ProcessTransport::check_peers() const {
  for (int r = 0; r < nranks_; ++r) {
    const std::int32_t pid = load(control_->slots()[r].pid);
    if (pid > 0 && kill(pid, 0) != 0 && errno == ESRCH)
      return fmt::format("rank {}'s process ({}) has ended", r, pid);
  }
  return "";
}

void ProcessTransport::publish(std::uint64_t seq, int rank, const CallSignature& sig, double ready_s, const void* data,
                               std::size_t bytes) {
  Slot& s = control_->slots()[rank];
  if (data && bytes > 0) {
    const std::string path = fmt::format("{}/c{}-r{}", folder_, seq, rank);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) throw std::runtime_error(fmt::format("nccl: cannot create {}: {}", path, std::strerror(errno)));
    write_all(fd, data, bytes, path);
    close(fd);
    written_.emplace_back(seq, path);
  }
  s.signature = sig;
  s.ready_s = ready_s;
  s.bytes = data ? bytes : 0;
  store(s.published, seq);
}

bool ProcessTransport::all_published(std::uint64_t seq) const {
  for (int r = 0; r < nranks_; ++r)
    if (load(control_->slots()[r].published) < seq) return false;
  return true;
}

Contribution ProcessTransport::contribution(std::uint64_t seq, int rank, bool with_data) {
  const Slot& s = control_->slots()[rank];
  Contribution c{s.signature, s.ready_s, nullptr};
  if (s.bytes == 0 || !with_data) return c;
  const std::string path = fmt::format("{}/c{}-r{}", folder_, seq, rank);
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  void* p = fd >= 0 ? map_file(fd, s.bytes, false) : nullptr;
  if (fd >= 0) close(fd);
  if (!p) throw std::runtime_error(fmt::format("nccl: cannot read rank {}'s part {}: {}", rank, path, std::strerror(errno)));
  read_maps_.push_back({seq, {p, s.bytes}});
  c.data = p;
  return c;
}

void ProcessTransport::consumed(std::uint64_t seq, int rank) { store(control_->slots()[rank].consumed, seq); }

bool ProcessTransport::all_consumed(std::uint64_t seq) const {
  for (int r = 0; r < nranks_; ++r)
    if (load(control_->slots()[r].consumed) < seq) return false;
  return true;
}

void ProcessTransport::release(std::uint64_t seq) {
  std::erase_if(read_maps_, [&](auto& e) {
    if (e.first != seq) return false;
    munmap(e.second.address, e.second.bytes);
    return true;
  });
  std::erase_if(written_, [&](auto& e) {
    if (e.first != seq) return false;
    unlink(e.second.c_str());
    return true;
  });
}

void ProcessTransport::post_send(int from, int to, std::uint64_t n, double ready_s, const void* data, std::size_t bytes) {
  const std::string name = message_name(from, to, n);
  const std::string path = folder_ + "/" + name, tmp = fmt::format("{}/.{}.{}", folder_, name, getpid());
  const int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error(fmt::format("nccl: cannot create {}: {}", tmp, std::strerror(errno)));
  MessageHeader h;
  h.send_ready_s = ready_s;
  h.bytes = bytes;
  write_all(fd, &h, sizeof h, tmp);
  if (bytes > 0) write_all(fd, data, bytes, tmp);
  void* map = map_file(fd, sizeof h, true);
  close(fd);
  if (!map) throw std::runtime_error(fmt::format("nccl: cannot map {}: {}", tmp, std::strerror(errno)));
  if (rename(tmp.c_str(), path.c_str()) != 0)
    throw std::runtime_error(fmt::format("nccl: cannot post {}: {}", path, std::strerror(errno)));
  sends_.push_back({name, {path, {map, sizeof h}}});
}

bool ProcessTransport::try_receive(int from, int to, std::uint64_t n, double ready_s, void* out, std::size_t bytes,
                                   double& start_s, std::string& error) {
  const std::string path = folder_ + "/" + message_name(from, to, n);
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  fstat(fd, &st);
  const std::size_t size = static_cast<std::size_t>(st.st_size);
  char* p = static_cast<char*>(map_file(fd, size, true));
  close(fd);
  if (!p) throw std::runtime_error(fmt::format("nccl: cannot map {}: {}", path, std::strerror(errno)));
  auto* h = reinterpret_cast<MessageHeader*>(p);
  if (h->bytes != bytes) {
    error = fmt::format("rank {} sends {} bytes to rank {}, which receives {} bytes: the sizes must match", from,
                        h->bytes, to, bytes);
    store(h->state, 2);
  } else {
    if (bytes > 0) std::memcpy(out, p + sizeof(MessageHeader), bytes);
    start_s = std::max(h->send_ready_s, ready_s);
    h->start_s = start_s;
    store(h->state, 1);
  }
  munmap(p, size);
  return true;
}

bool ProcessTransport::try_complete_send(int from, int to, std::uint64_t n, double& start_s, std::string& error) {
  const std::string name = message_name(from, to, n);
  auto it = std::find_if(sends_.begin(), sends_.end(), [&](const auto& e) { return e.first == name; });
  if (it == sends_.end()) return true;
  auto* h = static_cast<MessageHeader*>(it->second.map.address);
  const std::int32_t state = load(h->state);
  if (state == 0) return false;
  if (state == 2) error = fmt::format("rank {} refused the message from rank {}: the sizes differ", to, from);
  start_s = h->start_s;
  munmap(it->second.map.address, it->second.map.bytes);
  unlink(it->second.path.c_str());
  sends_.erase(it);
  return true;
}

}  // namespace simt::nccl
