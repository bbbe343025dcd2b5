#include "program_build.hpp"
#include "mpi_flags.hpp"
#include "run_options.hpp"
#include "user_defines.hpp"
#include "sim/options/runtime_options.hpp"

#include "sim/compiler/cuda_compile_flags.hpp"
#include "sim/compiler/syntax/syntax.hpp"
#include "sim/exec/device_output.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

namespace simt::cli {

namespace fs = std::filesystem;

namespace {

const fs::path kBinaryDir = SIMTLAB_BINARY_DIR;

// Where the pieces a program is built with live. A build-tree simt uses the source
// and build trees; an installed one (`cmake --install`) the copies beside it:
// <prefix>/share/simtlab/toolchain (sim/ headers, the CUDA headers, the report
// source), <prefix>/lib/libsimt_sim.so, libsimt_timing.so and
// <prefix>/lib/simtlab/libsimt_pass.so.
struct Toolchain {
  fs::path root;     // holds sim/ and program/; the -I for simtlab's headers
  fs::path plugin;   // the LLVM pass
  fs::path library;  // libsimt_sim.so
  fs::path timing_library;  // libsimt_timing.so: the simulated clock's prices
};

Toolchain locate_toolchain() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  const fs::path prefix = ec ? fs::path() : exe.parent_path().parent_path();
  const fs::path installed = prefix / "share" / "simtlab" / "toolchain";
  if (!ec && fs::is_directory(installed / "sim", ec))
    return {installed, prefix / "lib" / "simtlab" / "libsimt_pass.so",
            prefix / "lib" / "libsimt_sim.so", prefix / "lib" / "libsimt_timing.so"};
  return {SIMTLAB_SOURCE_DIR, SIMT_PASS_PLUGIN, kBinaryDir / "sim" / "libsimt_sim.so",
          kBinaryDir / "timing" / "libsimt_timing.so"};
}

const Toolchain& toolchain() {
  static const Toolchain t = locate_toolchain();
  return t;
}

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error(fmt::format("cannot read {}", p.string()));
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

void write_file(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  f << text;
  if (!f) throw std::runtime_error(fmt::format("cannot write {}", p.string()));
}

// FNV-1a: a stable content hash for cache keys (not for security).
struct Hash {
  std::uint64_t h = 1469598103934665603ull;
  Hash& add(std::string_view s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;  // separator, so ("ab","c") != ("a","bc")
    return *this;
  }
  std::string hex() const { return fmt::format("{:016x}", h); }
};

fs::path pass_plugin() { return toolchain().plugin; }
fs::path frontend_include() { return toolchain().root / "sim" / "compiler" / "include"; }
std::string clang_compiler() { return SIMT_CLANGXX; }

fs::path sim_library() { return toolchain().library; }
// The simulated clock's prices (timing/): linked into every program.
fs::path timing_library() { return toolchain().timing_library; }
fs::path report_source() { return toolchain().root / "program" / "report_at_exit.cpp"; }

// Everything a cached product depends on besides the user's source: the
// simulator's headers, the report object's source, and the library itself.
std::string toolchain_fingerprint() {
  Hash h;
  std::vector<fs::path> headers;
  for (const char* dir : {"sim", "timing"})
    for (const auto& e : fs::recursive_directory_iterator(toolchain().root / dir))
      if (e.path().extension() == ".hpp" || e.path().extension() == ".cuh" || e.path().extension() == ".h")
        headers.push_back(e.path());
  std::sort(headers.begin(), headers.end());
  for (const auto& p : headers) h.add(p.filename().string()).add(read_file(p));
  h.add(read_file(report_source()));
  for (const fs::path& lib : {sim_library(), timing_library()}) {
    if (!fs::exists(lib))
      throw std::runtime_error(fmt::format("{} is missing: build the simt target first", lib.string()));
    h.add(std::to_string(fs::file_size(lib))).add(std::to_string(fs::last_write_time(lib).time_since_epoch().count()));
  }
  if (const char* cxx = std::getenv("CXX")) h.add(cxx);
  fs::path plugin = pass_plugin();
  if (!fs::exists(plugin))
    throw std::runtime_error(fmt::format("{} is missing: build the simt_pass target first", plugin.string()));
  h.add(std::to_string(fs::file_size(plugin))).add(std::to_string(fs::last_write_time(plugin).time_since_epoch().count()));
  return h.hex();
}

std::string compiler() {
  const char* cxx = std::getenv("CXX");
  return cxx && *cxx ? cxx : "g++";
}

// Runs a command with inherited stdio; returns its exit status. The child is killed
// when simt dies (PR_SET_PDEATHSIG), so `kill` or a crash of simt never leaves a
// simulated program running, with its memory, behind.
// `output`: a file that takes the child's stdout (empty: this process's stdout).
int spawn_and_wait(const std::vector<std::string>& argv, const std::string& output = {}, const std::string& errors = {}) {
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error(fmt::format("cannot start {}: {}", argv[0], std::strerror(errno)));
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);  // simt died before the line above
    if (!output.empty()) {
      const int fd = open(output.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) {
        std::fprintf(stderr, "simt: cannot write %s: %s\n", output.c_str(), std::strerror(errno));
        _exit(127);
      }
    }
    if (!errors.empty()) {
      const int fd = open(errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd < 0 || dup2(fd, STDERR_FILENO) < 0) _exit(127);
    }
    execvp(args[0], args.data());
    std::fprintf(stderr, "simt: cannot start %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error(fmt::format("waiting for {} failed", argv[0]));
  }
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

// The compile flags of every CUDA file, the build's own included (the generated
// sim/compiler/cuda_compile_flags.hpp), and what a program or library needs.
std::vector<std::string> cuda_flags() {
  std::vector<std::string> flags(std::begin(compiler::kCudaCompileFlags), std::end(compiler::kCudaCompileFlags));
  for (std::string f : std::initializer_list<std::string>{"-fPIC", "-pthread", "-I", toolchain().root.string()})
    flags.push_back(f);
  return flags;
}

// The report object is host C++ only: the system compiler, no pass. It is compiled
// once per toolchain fingerprint.
fs::path report_object(const fs::path& cache, const std::string& fingerprint) {
  fs::path obj = cache / ("report_at_exit-" + fingerprint + ".o");
  if (fs::exists(obj)) return obj;
  fs::path tmp = obj;
  tmp += fmt::format(".{}.tmp", getpid());
  std::vector<std::string> cmd = {compiler(), "-std=c++20", "-O2", "-g", "-fPIC", "-pthread", "-I", toolchain().root.string(),
                                  "-c", report_source().string(), "-o", tmp.string()};
  if (spawn_and_wait(cmd) != 0) throw std::runtime_error("could not compile the simtlab report object");
  fs::rename(tmp, obj);
  return obj;
}

// The source after the syntax step (what C++ cannot parse rewritten); prints the issues.
std::string syntax_text(const fs::path& source) {
  std::string text = read_file(source);
  if (!syntax::needs_syntax_step(text)) return text;
  syntax::SyntaxResult r = syntax::syntax_source(text);
  std::string issues = syntax::format_issues(source.string(), r);
  if (!issues.empty()) fmt::print(stderr, "{}", issues);
  if (!r.ok()) throw std::runtime_error(fmt::format("{} cannot be built (see above)", source.string()));
  return r.output;
}

// The user's own headers (`#include "..."` resolving beside or below the source)
// pass through the syntax step too, keyed by their path relative to the source's directory. They
// are written next to the build unit at that relative path, where the unit's
// quoted includes find them before the originals; each starts with a #line
// naming the original, so diagnostics point there.
using LocalHeaders = std::map<fs::path, std::string>;

void add_local_headers(const fs::path& root, const fs::path& file, const std::string& text, const UserDefines& defines,
                       LocalHeaders& out) {
  for (const std::string& name : syntax::quoted_includes(text)) {
    fs::path header = fs::weakly_canonical(file.parent_path() / name);
    fs::path rel = header.lexically_relative(root);
    if (rel.empty() || *rel.begin() == ".." || !fs::is_regular_file(header) || out.contains(rel)) continue;
    std::string rewritten = syntax_text(header);
    out[rel] = fmt::format("#line 1 \"{}\"\n{}", header.string(),
                           shield_includes(rewritten, header.string(), defines, frontend_include()));
    add_local_headers(root, header, rewritten, defines, out);
  }
}

// The user's -I and the -D that configure headers (user_defines.hpp), in the
// compiler's spelling; include directories absolute, since the build runs in the cache.
std::vector<std::string> user_compile_flags(const BuildRequest& req, const UserDefines& defines) {
  std::vector<std::string> flags;
  for (const auto& dir : req.include_dirs) {
    if (!fs::is_directory(dir)) throw std::invalid_argument(fmt::format("-I {}: no such directory", dir));
    flags.push_back("-I" + fs::absolute(dir).lexically_normal().string());
  }
  flags.insert(flags.end(), defines.flags.begin(), defines.flags.end());
  return flags;
}

// A source (or a header beside it) with `#pragma omp` is built with OpenMP, as llm.c's
// Makefile builds its CPU references (-Xcompiler -fopenmp): host code only, and a
// CPU reference of 77 G multiply-adds then uses every core.
bool uses_openmp(const std::string& text, const LocalHeaders& headers) {
  static const std::regex pragma(R"((^|\n)[ \t]*#[ \t]*pragma[ \t]+omp\b)");
  if (std::regex_search(text, pragma)) return true;
  return std::any_of(headers.begin(), headers.end(), [](const auto& h) { return std::regex_search(h.second, pragma); });
}

// Quoted includes found in the -I directories (not beside the source: those are
// copied with the unit) key the cache by their content, so editing one rebuilds.
void hash_headers_in_include_dirs(const std::string& text, const std::vector<std::string>& dirs, Hash& h,
                                  std::set<fs::path>& seen) {
  for (const std::string& name : syntax::quoted_includes(text))
    for (const auto& dir : dirs)
      if (fs::path header = fs::weakly_canonical(fs::path(dir) / name); fs::is_regular_file(header)) {
        if (!seen.insert(header).second) break;
        std::string content = read_file(header);
        h.add(header.string()).add(content);
        hash_headers_in_include_dirs(content, dirs, h, seen);
        break;
      }
}

// A folder that is top-level in the source tree and installed beside the toolchain.
fs::path beside_toolchain(const char* name) {
  const fs::path root = toolchain().root;
  return root.filename() == "toolchain" ? root.parent_path() / name : root / name;
}

}  // namespace

std::string cache_root() {
  if (const char* d = std::getenv("SIMT_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "simtlab").string();
  if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".cache" / "simtlab").string();
  return (kBinaryDir / "program-cache").string();
}

bool is_cuda_source_name(const std::string& path) { return fs::path(path).extension() == ".cu"; }

bool is_source_name(const std::string& path) {
  const std::string ext = fs::path(path).extension().string();
  return ext == ".cu" || ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c++";
}

void check_sources(const BuildRequest& req) {
  std::vector<std::string> all = {req.source};
  all.insert(all.end(), req.more_sources.begin(), req.more_sources.end());
  std::map<fs::path, std::string> seen;
  for (const std::string& s : all) {
    std::error_code ec;
    if (!fs::is_regular_file(s, ec)) throw std::invalid_argument(fmt::format("{}: no such file", s));
    const auto [it, fresh] = seen.emplace(fs::weakly_canonical(fs::absolute(s)), s);
    if (!fresh)
      throw std::invalid_argument(it->second == s
                                      ? fmt::format("{} is given twice: each source is built once", s)
                                      : fmt::format("{} and {} are the same file: each source is built once", it->second, s));
  }
}

namespace {

// One source of the program, ready to compile: its build unit, its own headers
// (through the syntax step) and the key of its object in the cache.
struct Unit {
  std::string given;  // as the user named it, for messages
  fs::path source;    // absolute
  bool cuda = true;   // through the pass with cuda_runtime.h first; else host C++
  std::string unit;   // the text compiled
  LocalHeaders headers;
  bool openmp = false;
  bool mpi = false;  // includes <mpi.h>: built and linked with Open MPI's flags
  std::string key;
};

Unit prepare_unit(const std::string& given, bool cuda, const BuildRequest& req, const UserDefines& defines,
                  const std::vector<std::string>& user_flags, const std::string& fingerprint) {
  Unit u;
  u.given = given;
  u.source = fs::absolute(given);
  u.cuda = cuda;
  // The syntax step changes only what C++ cannot parse, so a host file (which cannot
  // contain it) is unchanged by it; its headers may be shared with the .cu files.
  std::string text = syntax_text(u.source);
  // #line keeps every diagnostic and debug line on the user's file and line.
  u.unit = fmt::format("{}#line 1 \"{}\"\n{}", defines.unit_lines, u.source.string(),
                       shield_includes(text, u.source.string(), defines, frontend_include()));
  add_local_headers(fs::weakly_canonical(u.source.parent_path()), fs::weakly_canonical(u.source), text, defines,
                    u.headers);
  u.openmp = uses_openmp(text, u.headers);
  u.mpi = includes_mpi(text) || std::any_of(u.headers.begin(), u.headers.end(),
                                             [](const auto& h) { return includes_mpi(h.second); });
  Hash key_hash;
  key_hash.add(u.unit).add(fingerprint).add(cuda ? "cuda" : "host");
  for (const auto& [rel, header_text] : u.headers) key_hash.add(rel.string()).add(header_text);
  for (const auto& f : user_flags) key_hash.add(f);
  for (const auto& f : cuda_flags()) key_hash.add(f);
  key_hash.add(pass_options_text(runtime_options()));  // the pass's switches change what it builds
  if (u.mpi)
    for (const auto& f : mpi_flags().compile) key_hash.add(f);
  std::set<fs::path> seen_headers;
  hash_headers_in_include_dirs(text, req.include_dirs, key_hash, seen_headers);
  u.key = key_hash.hex();
  return u;
}

// A unit clang could not compile that uses CUDA simtlab does not run: one error per
// construct at its first use (in the source or its own headers), then a refusal.
// Returns when it uses none (clang's messages are then the ones to read).
void refuse_unsupported(const Unit& u, const fs::path& messages) {
  std::string report;
  auto scan = [&](const fs::path& file, const fs::path& as_given) {  // named as the user named it
    syntax::SyntaxResult found;
    found.errors = syntax::unsupported_constructs(read_file(file));
    report += syntax::format_issues(as_given.string(), found);
  };
  scan(u.source, u.given);
  for (const auto& [rel, text] : u.headers) scan(u.source.parent_path() / rel, fs::path(u.given).parent_path() / rel);
  if (report.empty()) return;
  fmt::print(stderr, "{}", report);
  throw std::runtime_error(fmt::format("{} uses CUDA that simtlab does not run (see above; clang's own messages: {})",
                                    u.given, messages.string()));
}

// The unit's object, compiled into the cache unless it is there already.
fs::path unit_object(const Unit& u, const fs::path& cache, const std::vector<std::string>& user_flags) {
  const fs::path dir = cache / ("unit-" + u.key);
  const fs::path object = dir / (u.source.stem().string() + ".o");
  if (fs::exists(object)) return object;
  fs::create_directories(dir);
  const fs::path unit_path = dir / "source.cpp";
  write_file(unit_path, u.unit);
  for (const auto& [rel, header_text] : u.headers) {
    fs::create_directories((dir / rel).parent_path());
    write_file(dir / rel, header_text);
  }
  fs::path tmp = object;
  tmp += fmt::format(".{}.tmp", getpid());
  std::vector<std::string> cmd = {clang_compiler()};
  for (auto& f : cuda_flags()) cmd.push_back(f);
  cmd.push_back("-I");
  cmd.push_back(frontend_include().string());
  // Like nvcc, every .cu starts with cuda_runtime.h included, so a file (or a header
  // it includes) may use __global__ and threadIdx without including anything. Host
  // files get nothing: they include cuda_runtime.h when they call the runtime. Both go
  // through the pass, which instruments device code only and binds the markers of
  // simtlab's headers in host code (a host loop over __half values).
  if (u.cuda)
    for (std::string f : {"-include", "cuda_runtime.h"}) cmd.push_back(f);
  cmd.push_back("-fpass-plugin=" + pass_plugin().string());
  for (const auto& f : user_flags) cmd.push_back(f);
  if (u.openmp) cmd.push_back("-fopenmp");
  if (u.mpi) cmd.insert(cmd.end(), mpi_flags().compile.begin(), mpi_flags().compile.end());
  for (std::string f : std::initializer_list<std::string>{"-iquote", u.source.parent_path().string(), "-c",
                                                           unit_path.string(), "-o", tmp.string()})
    cmd.push_back(f);
  // clang's messages go to a file first: for CUDA simtlab cannot run they are a wall of
  // errors about names it has never heard of, and one line saying what it is serves better.
  const fs::path messages = dir / "clang-messages.txt";
  const int status = spawn_and_wait(cmd, {}, messages.string());
  const std::string said = read_file(messages);
  if (status != 0) {
    std::error_code ec;
    fs::remove(tmp, ec);
    refuse_unsupported(u, messages);  // throws when the unit uses CUDA simtlab does not run
    fmt::print(stderr, "{}", said);
    throw std::runtime_error(fmt::format("{} did not compile (see the compiler's messages above)", u.given));
  }
  fmt::print(stderr, "{}", said);  // warnings
  fs::rename(tmp, object);
  return object;
}

}  // namespace

BuildProduct build_program(const BuildRequest& req) {
  if (!fs::is_regular_file(fs::absolute(req.source))) throw std::runtime_error(fmt::format("no such file: {}", req.source));
  check_sources(req);
  const UserDefines defines = split_user_defines(req.defines);

  fs::path cache = cache_root();
  std::error_code ec;
  fs::create_directories(cache, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create the build cache {}: {}", cache.string(), ec.message()));
  const std::string fingerprint = toolchain_fingerprint();
  const std::vector<std::string> user_flags = user_compile_flags(req, defines);
  // A lone source is CUDA whatever its name (as before); among several, .cu files are.
  const bool several = !req.more_sources.empty();
  std::vector<Unit> units;
  units.push_back(prepare_unit(req.source, !several || is_cuda_source_name(req.source), req, defines, user_flags,
                               fingerprint));
  for (const std::string& s : req.more_sources)
    units.push_back(prepare_unit(s, is_cuda_source_name(s), req, defines, user_flags, fingerprint));

  Hash key_hash;
  key_hash.add(fingerprint).add(req.shared ? "shared" : "exe");
  bool openmp = false, mpi = false;
  for (const Unit& u : units) {
    key_hash.add(u.key);
    openmp |= u.openmp;
    mpi |= u.mpi;
  }
  const fs::path dir = cache / key_hash.hex();
  const fs::path product = dir / (units.front().source.stem().string() + (req.shared ? ".so" : ""));
  if (fs::exists(product)) return {product.string(), true};

  std::vector<fs::path> objects;
  for (const Unit& u : units) objects.push_back(unit_object(u, cache, user_flags));
  fs::create_directories(dir);
  fs::path tmp = product;
  tmp += fmt::format(".{}.tmp", getpid());
  std::vector<std::string> cmd = {clang_compiler()};
  for (auto& f : cuda_flags()) cmd.push_back(f);
  for (const fs::path& o : objects) cmd.push_back(o.string());
  if (openmp) cmd.push_back("-fopenmp");
  if (mpi) cmd.insert(cmd.end(), mpi_flags().link.begin(), mpi_flags().link.end());
  fs::path lib_dir = sim_library().parent_path(), timing_dir = timing_library().parent_path();
  // Device printf goes through libsimt_sim.so's counting wrappers (sim/exec/device_output.hpp).
  for (std::string f : std::initializer_list<std::string>{report_object(cache, fingerprint).string(), kStdioWraps, "-L",
                        lib_dir.string(), "-L", timing_dir.string(), "-lsimt_timing", "-lsimt_sim",
                        "-Wl,-rpath," + lib_dir.string(), "-Wl,-rpath," + timing_dir.string(), "-o", tmp.string()})
    cmd.push_back(f);
  if (req.shared) cmd.push_back("-shared");
  if (spawn_and_wait(cmd) != 0) {
    fs::remove(tmp, ec);
    if (!several)
      throw std::runtime_error(fmt::format("{} did not compile (see the compiler's messages above)", req.source));
    throw std::runtime_error(fmt::format(
        "{} and its {} other source{} did not link (see the linker's messages above: a function used in one file "
        "must be defined in exactly one of the files given here, __device__ functions included: the .cu files are "
        "linked as nvcc -rdc=true links them)",
        req.source, req.more_sources.size(), req.more_sources.size() == 1 ? "" : "s"));
  }
  fs::rename(tmp, product);
  return {product.string(), false};
}

std::string program_dir() { return (toolchain().root / "program").string(); }

// Installed, the toolchain is share/simtlab/toolchain and the labs sit beside it.
std::string labs_dir() { return beside_toolchain("labs").string(); }
std::string plots_dir() { return beside_toolchain("plots").string(); }

int run_program(const std::string& path, const std::vector<std::string>& args, const std::string& output) {
  std::vector<std::string> argv = {path};
  argv.insert(argv.end(), args.begin(), args.end());
  return spawn_and_wait(argv, output);
}

}  // namespace simt::cli
