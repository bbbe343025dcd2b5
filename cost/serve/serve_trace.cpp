#include "cost/serve/serve_trace.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>

namespace simt::cost {

namespace {

// std::*_distribution are implementation-defined; a trace must be the same on
// every platform, so only the engine (fully specified) is used.
struct Rng {
  std::mt19937_64 engine;
  double uniform() { return double(engine() >> 11) * 0x1.0p-53; }  // [0, 1)
  double exponential(double mean) { return -mean * std::log1p(-uniform()); }
};

int64_t draw_length(Rng& r, LengthDist d, int64_t mean) {
  switch (d) {
    case LengthDist::Fixed: return mean;
    case LengthDist::Uniform: return 1 + int64_t(r.uniform() * double(2 * mean - 1));
    case LengthDist::Exponential: return std::max<int64_t>(1, int64_t(std::llround(r.exponential(double(mean)))));
  }
  return mean;
}

std::vector<std::string> split_csv(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) {
    cell.erase(0, cell.find_first_not_of(" \t\r"));
    cell.erase(cell.find_last_not_of(" \t\r") + 1);
    out.push_back(cell);
  }
  return out;
}

double number(const std::string& text, const std::string& where) {
  size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || !std::isfinite(v))
    throw std::runtime_error(fmt::format("{}: '{}' is not a number", where, text));
  return v;
}

}  // namespace

LengthDist parse_length_dist(const std::string& s) {
  if (s == "fixed") return LengthDist::Fixed;
  if (s == "uniform") return LengthDist::Uniform;
  if (s == "exponential") return LengthDist::Exponential;
  throw std::invalid_argument("unknown length distribution '" + s + "' (fixed, uniform or exponential)");
}

std::vector<Request> synthetic_trace(const TraceSpec& s) {
  if (s.requests < 1 || s.requests > 10'000'000)
    throw std::invalid_argument(fmt::format("requests must be between 1 and 1e7, got {}", s.requests));
  if (!(s.rate_per_s > 0)) throw std::invalid_argument(fmt::format("arrival rate must be > 0, got {}", s.rate_per_s));
  if (s.prompt_mean < 1 || s.output_mean < 1 || s.max_len < 0 || s.max_len == 1)
    throw std::invalid_argument("prompt and output means must be >= 1 and the maximum length 0 (none) or >= 2");
  Rng r{std::mt19937_64(s.seed)};
  std::vector<Request> out;
  double t = 0;
  for (int i = 0; i < s.requests; ++i) {
    if (std::isfinite(s.rate_per_s)) t += r.exponential(1 / s.rate_per_s);
    Request q{i, t, draw_length(r, s.dist, s.prompt_mean), draw_length(r, s.dist, s.output_mean)};
    if (s.max_len > 0) {
      q.prompt = std::min(q.prompt, s.max_len - 1);
      q.output = std::min(q.output, s.max_len - q.prompt);
    }
    out.push_back(q);
  }
  return out;
}

std::vector<Request> read_trace_csv(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error("cannot open trace '" + path + "'");
  std::string line;
  if (!std::getline(f, line)) throw std::runtime_error(path + ": empty file (expected a header line)");
  std::map<std::string, size_t> col;
  const auto header = split_csv(line);
  for (size_t i = 0; i < header.size(); ++i) col[header[i]] = i;
  for (const char* need : {"arrival_s", "prompt_tokens", "output_tokens"})
    if (!col.count(need)) throw std::runtime_error(fmt::format("{}: header lacks column '{}'", path, need));
  std::vector<Request> out;
  for (int lineno = 2; std::getline(f, line); ++lineno) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto cells = split_csv(line);
    const auto cell = [&](const char* name) {
      const size_t i = col.at(name);
      const std::string where = fmt::format("{}:{}: {}", path, lineno, name);
      if (i >= cells.size()) throw std::runtime_error(where + ": missing");
      return number(cells[i], where);
    };
    Request q{int(out.size()), cell("arrival_s"), int64_t(cell("prompt_tokens")), int64_t(cell("output_tokens"))};
    if (q.arrival_s < 0 || q.prompt < 1 || q.output < 1)
      throw std::runtime_error(
          fmt::format("{}:{}: arrival must be >= 0 and prompt and output tokens >= 1", path, lineno));
    out.push_back(q);
  }
  if (out.empty()) throw std::runtime_error(path + ": no requests");
  std::stable_sort(out.begin(), out.end(), [](const Request& a, const Request& b) { return a.arrival_s < b.arrival_s; });
  return out;
}

}  // namespace simt::cost
