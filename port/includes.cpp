// The dialect include. The ported file must include "sim/cuda/dialect.cuh" without
// moving any line, so the include replaces the file's own CUDA runtime include,
// or fills a blank or comment-only line before the first declaration. Only when
// neither exists does it go on a new first line, followed by `#line 1` so that
// compilers and debuggers still see the original numbering.
#include "port/passes.hpp"

#include <map>
#include <string>

namespace simt::port {

namespace {

constexpr std::string_view kDialect = "#include \"sim/cuda/dialect.cuh\"";

// The header named by an #include directive, or "" for other directives.
std::string_view included_header(std::string_view d) {
  std::size_t p = d.find_first_not_of(" \t", 1);
  if (p == std::string_view::npos || d.substr(p, 7) != "include") return {};
  std::size_t open = d.find_first_of("<\"", p + 7);
  if (open == std::string_view::npos) return {};
  std::size_t close = d.find(d[open] == '<' ? '>' : '"', open + 1);
  if (close == std::string_view::npos) return {};
  return d.substr(open + 1, close - open - 1);
}

// Headers the dialect replaces (it includes the runtime on the nvcc side itself).
bool replaced_by_dialect(std::string_view h) {
  return h == "cuda_runtime.h" || h == "cuda_runtime_api.h" || h == "device_launch_parameters.h";
}

std::string refused_header_reason(std::string_view h) {
  static const std::map<std::string_view, std::string_view> refused = {
      {"cooperative_groups.h", "cooperative groups"},
      {"mma.h", "warp-level matrix operations (wmma)"},
      {"cuda_fp16.h", "half precision"},
      {"cuda_bf16.h", "bfloat16"},
      {"cuda.h", "the CUDA driver API"},
      {"cuda_texture_types.h", "texture memory"},
      {"texture_fetch_functions.h", "texture memory"},
  };
  if (auto it = refused.find(h); it != refused.end())
    return std::string(it->second) + " (<" + std::string(h) + ">) is not supported by the simulator";
  for (std::string_view lib : {"cublas", "cufft", "curand", "cusparse", "cusolver", "cudnn", "nccl", "thrust/", "cub/", "cuda/"})
    if (h.starts_with(lib))
      return "<" + std::string(h) + "> is a CUDA library the simulator does not provide";
  return {};
}

// A line that holds nothing but whitespace or a // comment can take the include
// in front of its text.
bool can_host_include(std::string_view line) {
  std::size_t p = line.find_first_not_of(" \t\r");
  return p == std::string_view::npos || line.substr(p, 2) == "//";
}

std::string_view directive_name(std::string_view d) {
  std::size_t p = d.find_first_not_of(" \t", 1);
  if (p == std::string_view::npos) return {};
  std::size_t e = d.find_first_not_of("abcdefghijklmnopqrstuvwxyz", p);
  return d.substr(p, (e == std::string_view::npos ? d.size() : e) - p);
}

// Offset of the first line, before any declaration and outside #if blocks, that
// is blank or holds only a // comment; npos if there is none.
std::size_t host_line(const Context& c) {
  std::string_view s = c.source;
  int if_depth = 0;
  for (const Token& t : c.tokens) {
    if (t.kind == TokenKind::Directive) {
      std::string_view n = directive_name(t.text);
      if (n.starts_with("if")) ++if_depth;
      else if (n == "endif") --if_depth;
      continue;
    }
    if (t.code()) return std::string_view::npos;  // the first declaration
    if (if_depth != 0 || t.kind != TokenKind::Space) continue;
    // Line starts inside this run of whitespace (or right after it, at a // comment).
    for (std::size_t off = t.begin; off <= t.end && off < s.size(); ++off) {
      if (off != 0 && s[off - 1] != '\n') continue;
      std::size_t e = s.find('\n', off);
      std::string_view line = s.substr(off, (e == std::string_view::npos ? s.size() : e) - off);
      if (can_host_include(line)) return off;
    }
  }
  return std::string_view::npos;
}

void insert_dialect(Context& c) {
  std::string_view s = c.source;
  std::size_t first_line_end = s.find('\n');
  std::string_view first = s.substr(0, first_line_end == std::string_view::npos ? s.size() : first_line_end);
  std::size_t at = can_host_include(first) ? 0 : host_line(c);
  if (at == std::string_view::npos) {
    c.edits.push_back({0, 0, std::string(kDialect) + "\n#line 1\n"});
    c.result.new_first_line = true;
    return;
  }
  std::size_t e = s.find('\n', at);
  std::string_view line = s.substr(at, (e == std::string_view::npos ? s.size() : e) - at);
  bool blank = line.find_first_not_of(" \t\r") == std::string_view::npos;
  c.edits.push_back({at, at, std::string(kDialect) + (blank ? "" : " ")});
}

}  // namespace

std::vector<std::string> quoted_includes(std::string_view source) {
  std::vector<std::string> names;
  for (const Token& t : lex(source).tokens) {
    if (t.kind != TokenKind::Directive) continue;
    std::string_view h = included_header(t.text);
    if (!h.empty() && h.data() > t.text.data() && h.data()[-1] == '"') names.emplace_back(h);
  }
  return names;
}

void rewrite_includes(Context& c) {
  bool have_dialect = false;
  for (const Token& t : c.tokens) {
    if (t.kind != TokenKind::Directive) continue;
    std::string_view h = included_header(t.text);
    if (h.empty()) continue;
    if (std::string why = refused_header_reason(h); !why.empty()) {
      c.error(t, why);
    } else if (h == "sim/cuda/dialect.cuh") {
      have_dialect = true;
    } else if (replaced_by_dialect(h)) {
      // The first runtime include becomes the dialect's, later ones become empty
      // lines; whatever follows the header name (a comment, say) stays.
      std::size_t name_end = t.text.find(h) + h.size() + 1;
      c.edits.push_back({t.begin, t.begin + name_end, have_dialect ? "" : std::string(kDialect)});
      have_dialect = true;
    }
  }
  if (!have_dialect) insert_dialect(c);
}

}  // namespace simt::port
