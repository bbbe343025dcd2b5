#include "sim/symbols/symbols.hpp"

#include "sim/symbols/compiler_sites.hpp"

#include <cxxabi.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

#if defined(__x86_64__)
extern "C" void* __tls_get_addr(void*);  // glibc's dynamic-TLS entry point (x86-64 ABI)
#endif

namespace simt {

namespace {

struct FunctionSymbol {
  std::uintptr_t addr = 0;  // link-time address
  std::size_t size = 0;
  std::string name;         // demangled
};

struct ModuleData {
  Module module;
  std::vector<FunctionSymbol> functions;  // sorted by addr
  std::uintptr_t lo = 0, hi = 0;          // loaded address range
};

std::string demangle(const char* name) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> d(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
  return status == 0 && d ? std::string(d.get()) : std::string(name);
}

// Names of thread-local variables that are not kernels' __shared__ data.
bool is_runtime_tls(const std::string& n) {
  for (const char* prefix : {"std::", "__", "doctest", "fmt::", "CLI::", "Eigen::", "boost::", "guard variable for ",
                             "simt::exec_support::"})
    if (n.rfind(prefix, 0) == 0) return true;
  return false;
}

void read_elf_symbols(ModuleData& m) {
  int fd = open(m.module.path.c_str(), O_RDONLY);
  if (fd < 0) return;
  struct stat st{};
  fstat(fd, &st);
  void* map = mmap(nullptr, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return;
  auto* base = static_cast<const char*>(map);
  auto* eh = reinterpret_cast<const Elf64_Ehdr*>(base);
  auto* sections = reinterpret_cast<const Elf64_Shdr*>(base + eh->e_shoff);
  m.module.stripped = true;
  for (int i = 0; i < eh->e_shnum; ++i) {
    if (sections[i].sh_type != SHT_SYMTAB) continue;
    m.module.stripped = false;
    auto* syms = reinterpret_cast<const Elf64_Sym*>(base + sections[i].sh_offset);
    const char* strtab = base + sections[sections[i].sh_link].sh_offset;
    std::size_t count = sections[i].sh_size / sizeof(Elf64_Sym);
    for (std::size_t s = 0; s < count; ++s) {
      const Elf64_Sym& sym = syms[s];
      int type = ELF64_ST_TYPE(sym.st_info);
      if (type == STT_FUNC && sym.st_value) {
        m.functions.push_back({sym.st_value, sym.st_size, demangle(strtab + sym.st_name)});
      } else if (type == STT_TLS && sym.st_size) {
        std::string name = demangle(strtab + sym.st_name);
        if (!is_runtime_tls(name)) m.module.shared.push_back({name, sym.st_value, sym.st_size});
      }
    }
  }
  munmap(map, st.st_size);
  std::sort(m.functions.begin(), m.functions.end(), [](auto& a, auto& b) { return a.addr < b.addr; });
  auto& sh = m.module.shared;
  std::sort(sh.begin(), sh.end(), [](auto& a, auto& b) { return a.offset < b.offset; });
  if (!sh.empty()) {
    m.module.shared_lo = sh.front().offset & ~std::uintptr_t(7);  // word indices must not straddle words
    for (auto& v : sh) m.module.shared_hi = std::max(m.module.shared_hi, v.offset + v.size);
  }
}

std::string executable_path() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : "/proc/self/exe";
}

// The file mapped at `address`, from /proc/self/maps. The main program's dl_phdr_info
// has no name, and /proc/self/exe is the dynamic loader itself when the program was
// started through it (`ld-linux-x86-64.so.2 ./program`): the mapping names the file.
std::string file_mapped_at(std::uintptr_t address) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx", &lo, &hi) != 2 || address < lo || address >= hi) continue;
    auto slash = line.find('/');
    if (slash != std::string::npos) return line.substr(slash);
  }
  return executable_path();
}

std::mutex g_modules_mutex;
std::vector<std::unique_ptr<ModuleData>> g_modules;

ModuleData* find_loaded(std::uintptr_t a) {
  for (auto& m : g_modules)
    if (a >= m->lo && a < m->hi) return m.get();
  return nullptr;
}

ModuleData& load_module(std::uintptr_t address) {
  if (ModuleData* m = find_loaded(address)) return *m;
  auto data = std::make_unique<ModuleData>();
  struct Search { std::uintptr_t address; ModuleData* out; bool found = false; } search{address, data.get()};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* p) -> int {
        auto* s = static_cast<Search*>(p);
        std::uintptr_t lo = UINTPTR_MAX, hi = 0;
        std::size_t tls = 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const auto& ph = info->dlpi_phdr[i];
          if (ph.p_type == PT_LOAD) {
            lo = std::min<std::uintptr_t>(lo, info->dlpi_addr + ph.p_vaddr);
            hi = std::max<std::uintptr_t>(hi, info->dlpi_addr + ph.p_vaddr + ph.p_memsz);
          }
          if (ph.p_type == PT_TLS) tls = ph.p_memsz;
        }
        if (s->address < lo || s->address >= hi) return 0;
        Module& m = s->out->module;
        m.path = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : file_mapped_at(lo);
        m.load_bias = info->dlpi_addr;
        m.tls_modid = info->dlpi_tls_modid;
        m.tls_size = tls;
        s->out->lo = lo;
        s->out->hi = hi;
        s->found = true;
        return 1;
      },
      &search);
  if (!search.found) {
    data->lo = data->hi = address;
  } else {
    read_elf_symbols(*data);
  }
  g_modules.push_back(std::move(data));
  return *g_modules.back();
}

const FunctionSymbol* function_at(const ModuleData& m, std::uintptr_t address) {
  std::uintptr_t link = address - m.module.load_bias;
  auto it = std::upper_bound(m.functions.begin(), m.functions.end(), link,
                             [](std::uintptr_t v, const FunctionSymbol& f) { return v < f.addr; });
  if (it == m.functions.begin()) return nullptr;
  --it;
  return link < it->addr + std::max<std::size_t>(it->size, 1) ? &*it : nullptr;
}

// "void tiled<16>(float const*, int)" -> "tiled<16>"
std::string strip_signature(std::string name) {
  for (auto tag = name.find("[abi:simt_kernel]"); tag != std::string::npos; tag = name.find("[abi:simt_kernel]"))
    name.erase(tag, 17);
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (std::size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      else if (name[i] == '(' && --depth == 0) { name.resize(i); break; }
    }
  }
  // A template function's demangled name carries its return type first.
  int depth = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<' || name[i] == '(') ++depth;
    else if (name[i] == '>' || name[i] == ')') --depth;
    else if (name[i] == ' ' && depth == 0) return strip_signature(name.substr(i + 1));
  }
  // Kernels in an anonymous namespace: the namespace says nothing to a reader.
  for (auto p = name.find("(anonymous namespace)::"); p != std::string::npos;
       p = name.find("(anonymous namespace)::"))
    name.erase(p, 23);
  return name;
}

std::map<Site, SourceLocation> g_site_cache;

bool is_simulator_header(const std::string& file) {
  static const std::string sim_dir = std::string(SIMTLAB_SOURCE_DIR) + "/sim/";
  return file.rfind(sim_dir, 0) == 0 || file.find("/include/c++/") != std::string::npos ||
         file.find("/usr/include/") != std::string::npos;
}

// addr2line -i lists the inlining chain innermost first; the first frame outside
// simtlab's own headers is the user's line.
void resolve_in_module(const ModuleData& m, const std::vector<Site>& sites) {
  std::string cmd = "addr2line -f -C -i -a -e '" + m.module.path + "'";
  char buf[32];
  for (Site s : sites) {
    std::snprintf(buf, sizeof buf, " 0x%lx",
                  static_cast<unsigned long>(reinterpret_cast<std::uintptr_t>(s) - 1 - m.module.load_bias));
    cmd += buf;
  }
  cmd += " 2>/dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return;
  std::vector<std::string> lines;
  char line[4096];
  while (std::fgets(line, sizeof line, pipe)) {
    std::string l(line);
    while (!l.empty() && (l.back() == '\n' || l.back() == '\r')) l.pop_back();
    lines.push_back(l);
  }
  pclose(pipe);
  std::size_t next = 0;
  for (std::size_t i = 0; i < lines.size();) {
    if (lines[i].rfind("0x", 0) != 0) { ++i; continue; }
    ++i;
    SourceLocation chosen, innermost;
    bool have_innermost = false, have_user = false;
    while (i + 1 < lines.size() + 1 && i < lines.size() && lines[i].rfind("0x", 0) != 0) {
      std::string fn = lines[i];
      std::string where = i + 1 < lines.size() ? lines[i + 1] : "";
      i += 2;
      SourceLocation loc;
      loc.function = strip_signature(fn);
      auto colon = where.rfind(':');
      // Normalised: a build through ccache with a base directory records paths
      // relative to the object's directory ("build/tests/../../sim/..."), which the
      // tests below and short_file() must still see as simtlab's own.
      loc.file = where.substr(0, colon);
      if (loc.file != "??") loc.file = std::filesystem::path(loc.file).lexically_normal().string();
      loc.line = colon == std::string::npos ? 0 : std::atoi(where.c_str() + colon + 1);
      if (!have_innermost) { innermost = loc; have_innermost = true; }
      if (!have_user && loc.file != "??" && !is_simulator_header(loc.file)) { chosen = loc; have_user = true; }
    }
    if (next < sites.size()) g_site_cache[sites[next++]] = have_user ? chosen : innermost;
  }
}

}  // namespace

std::uintptr_t Module::tls_block_of_this_thread() const {
  struct Search { std::size_t modid; std::uintptr_t out = 0; } search{tls_modid};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* p) -> int {
        auto* s = static_cast<Search*>(p);
        if (info->dlpi_tls_modid != s->modid) return 0;
        s->out = reinterpret_cast<std::uintptr_t>(info->dlpi_tls_data);
        return 1;
      },
      &search);
#if defined(__x86_64__)
  // A dlopen'ed module (a kernel library loaded by Python's ctypes) gets its TLS
  // block in a thread lazily, on that thread's first access: ask for it now.
  if (search.out == 0 && tls_modid != 0 && tls_size != 0) {
    struct TlsIndex { unsigned long module, offset; } index{tls_modid, 0};
    search.out = reinterpret_cast<std::uintptr_t>(__tls_get_addr(&index));
  }
#endif
  return search.out;
}

const SharedVariable* Module::shared_at(std::uintptr_t offset) const {
  auto it = std::upper_bound(shared.begin(), shared.end(), offset,
                             [](std::uintptr_t v, const SharedVariable& s) { return v < s.offset; });
  if (it == shared.begin()) return nullptr;
  --it;
  return offset < it->offset + it->size ? &*it : nullptr;
}

std::size_t Module::shared_bytes_of(const std::string& function) const {
  std::size_t total = 0;
  for (const auto& v : shared)
    if (v.name.rfind(function + "::", 0) == 0) total += v.size;
  return total;
}

const Module& module_of(const void* code_address) {
  std::lock_guard lock(g_modules_mutex);
  return load_module(reinterpret_cast<std::uintptr_t>(code_address)).module;
}

std::string function_name(const void* fn) {
  std::lock_guard lock(g_modules_mutex);
  auto a = reinterpret_cast<std::uintptr_t>(fn);
  const FunctionSymbol* f = function_at(load_module(a), a);
  return f ? strip_signature(f->name) : "kernel";
}

std::string full_function_name(const void* fn) {
  std::lock_guard lock(g_modules_mutex);
  auto a = reinterpret_cast<std::uintptr_t>(fn);
  const FunctionSymbol* f = function_at(load_module(a), a);
  return f ? f->name : "";
}

std::vector<SourceLocation> resolve_sites(const std::vector<Site>& sites) {
  std::lock_guard lock(g_modules_mutex);
  std::map<ModuleData*, std::vector<Site>> todo;
  for (Site s : sites) {
    if (g_site_cache.count(s)) continue;
    if (const CompilerSite* c = compiler_site(s))  // made by the compiler front end: no lookup needed
      g_site_cache.emplace(s, SourceLocation{c->function, c->file, int(c->line)});
    else
      todo[&load_module(reinterpret_cast<std::uintptr_t>(s))].push_back(s);
  }
  for (auto& [m, list] : todo) {
    resolve_in_module(*m, list);
    for (Site s : list) g_site_cache.try_emplace(s, SourceLocation{"?", "?", 0});
  }
  std::vector<SourceLocation> out;
  for (Site s : sites) out.push_back(g_site_cache[s]);
  return out;
}

std::string SourceLocation::short_file() const {
  static const std::string root = std::string(SIMTLAB_SOURCE_DIR) + "/";
  if (file.rfind(root, 0) == 0) return file.substr(root.size());
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd)) {
    std::string c = std::string(cwd) + "/";
    if (file.rfind(c, 0) == 0) return file.substr(c.size());
  }
  return file;
}

std::string source_line_text(const std::string& file, int line) {
  std::ifstream in(file);
  std::string text;
  for (int i = 0; i < line && std::getline(in, text); ++i) {}
  auto b = text.find_first_not_of(" \t");
  return b == std::string::npos ? "" : text.substr(b);
}

}  // namespace simt
