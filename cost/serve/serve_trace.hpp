// Request traces for the serving simulator: synthetic (Poisson arrivals with
// length distributions, seeded and reproducible on every platform) or a CSV.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace simt::cost {

struct Request {
  int id = 0;
  double arrival_s = 0;
  int64_t prompt = 0;   // prompt tokens
  int64_t output = 0;   // tokens to generate (>= 1)
};

enum class LengthDist { Fixed, Uniform, Exponential };
LengthDist parse_length_dist(const std::string& s);  // fixed, uniform, exponential

struct TraceSpec {
  int requests = 500;
  double rate_per_s = 10;   // Poisson arrival rate; inf: all arrive at t = 0
  int64_t prompt_mean = 512, output_mean = 256;
  LengthDist dist = LengthDist::Exponential;  // uniform: on [1, 2 x mean - 1]
  int64_t max_len = 0;      // > 0: prompt + output are clipped to it; 0: not clipped (the server
                            // rejects or caps what does not fit: simulate_serving)
  uint64_t seed = 1;
};

// Throws std::invalid_argument for non-positive counts, rates or means.
std::vector<Request> synthetic_trace(const TraceSpec& spec);

// CSV with a header line naming arrival_s, prompt_tokens, output_tokens (any
// order, other columns ignored). Throws std::runtime_error (an input-file error,
// exit 1) naming the file, line and field.
std::vector<Request> read_trace_csv(const std::string& path);

}  // namespace simt::cost
