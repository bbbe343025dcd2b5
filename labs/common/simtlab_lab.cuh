// What every lab's harness shares (labs/NN-name/lab.cuh includes it): the case's
// sizes from the command line, device buffers with names, the comparison with the
// CPU reference, and the result file `simt lab check` reads.
//
// Plain CUDA: a lab builds with nvcc (`nvcc -I labs/common labs/01-map/solution.cu`)
// and with simtlab (`simt exec`), the same text.
//
// A lab program's command line is a list of NAME=VALUE settings (the sizes of the
// case, e.g. `n=1000`) and, from the checker, `--results PATH`. Without arguments it
// runs the lab's default case, so `simt exec my_map.cu` already says whether the
// output is right.
#pragma once
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace lab {

// Deterministic inputs: the same values on every machine and compiler (a GPU run
// and a simulated one compare the same data).
class Random {
 public:
  explicit Random(std::uint64_t seed) : state_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  std::uint32_t next() {  // xorshift64*
    state_ ^= state_ >> 12;
    state_ ^= state_ << 25;
    state_ ^= state_ >> 27;
    return static_cast<std::uint32_t>((state_ * 0x2545F4914F6CDD1Dull) >> 32);
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * float(next() >> 8) * (1.0f / 16777216.0f); }
  int integer(int lo, int hi) { return lo + int(next() % std::uint32_t(hi - lo + 1)); }
  std::vector<float> floats(std::size_t n, float lo = -1.0f, float hi = 1.0f) {
    std::vector<float> v(n);
    for (float& x : v) x = uniform(lo, hi);
    return v;
  }
  std::vector<int> ints(std::size_t n, int lo, int hi) {
    std::vector<int> v(n);
    for (int& x : v) x = integer(lo, hi);
    return v;
  }

 private:
  std::uint64_t state_;
};

// One run of a lab at one case: read the sizes, keep the buffers, compare, report.
class Case {
 public:
  Case(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      if (a == "--results" && i + 1 < argc) {
        results_path_ = argv[++i];
      } else if (a.find('=') != std::string::npos) {
        settings_.push_back({a.substr(0, a.find('=')), a.substr(a.find('=') + 1)});
      } else {
        std::fprintf(stderr, "lab: unknown argument '%s' (expected NAME=VALUE or --results PATH)\n", argv[i]);
        std::exit(2);
      }
    }
  }
  Case(const Case&) = delete;
  Case& operator=(const Case&) = delete;
  ~Case() {
    for (void* p : allocations_) cudaFree(p);
  }

  // A size of the case (`n=1000` on the command line), or the lab's default.
  long long size(const char* name, long long fallback) {
    const char* v = find(name);
    long long x = v ? std::atoll(v) : fallback;
    used_.push_back({name, std::to_string(x)});
    return x;
  }
  double real(const char* name, double fallback) {
    const char* v = find(name);
    return v ? std::atof(v) : fallback;
  }

  // A device copy of `host`, known to the checker by `name` (its per-thread limits
  // name buffers this way).
  template <class T>
  T* to_device(const char* name, const std::vector<T>& host) {
    T* d = allocate<T>(name, host.size());
    check(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy to the device");
    return d;
  }
  // An output buffer, filled with a pattern no kernel computes (NaN for floats), so
  // an element the kernel never writes does not pass by luck.
  template <class T>
  T* output(const char* name, std::size_t n) {
    T* d = allocate<T>(name, n);
    check(cudaMemset(d, 0xFF, n * sizeof(T)), "cudaMemset");
    return d;
  }
  template <class T>
  std::vector<T> to_host(const T* d, std::size_t n) {
    std::vector<T> h(n);
    check(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy to the host");
    return h;
  }

  // After the learner's launcher: the launch's own error, then the kernel's.
  bool launched(const char* what) {
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e == cudaSuccess) return true;
    fail_note(std::string(what) + ": " + cudaGetErrorString(e));
    return false;
  }

  // Within atol + rtol * |want| everywhere (NaN matches nothing).
  bool expect_near(const char* name, const std::vector<float>& got, const std::vector<float>& want, double atol,
                   double rtol) {
    Comparison c{name};
    c.compared = want.size();
    for (std::size_t i = 0; i < want.size(); ++i) {
      const double g = i < got.size() ? got[i] : NAN, w = want[i];
      const double err = std::fabs(g - w);
      if (!(err <= atol + rtol * std::fabs(w))) c.miss(i, g, w);
      if (err == err && err > c.max_error) c.max_error = err;
    }
    return record(c, atol, rtol);
  }
  template <class T>
  bool expect_equal(const char* name, const std::vector<T>& got, const std::vector<T>& want) {
    Comparison c{name};
    c.compared = want.size();
    for (std::size_t i = 0; i < want.size(); ++i) {
      const bool same = i < got.size() && std::memcmp(&got[i], &want[i], sizeof(T)) == 0;
      if (!same) c.miss(i, i < got.size() ? double(got[i]) : NAN, double(want[i]));
      if (i < got.size() && std::fabs(double(got[i]) - double(want[i])) > c.max_error)
        c.max_error = std::fabs(double(got[i]) - double(want[i]));
    }
    return record(c, 0, 0);
  }

  // Prints the verdict, writes the results for the checker; the program's exit code.
  int finish() {
    if (!results_path_.empty()) write_results();
    std::printf("lab: %s\n", ok_ ? "every output matches the reference" : "some outputs differ from the reference");
    return ok_ ? 0 : 1;
  }

 private:
  struct Setting {
    std::string name, value;
  };
  struct Comparison {
    std::string name;
    std::size_t compared = 0, mismatches = 0, first = 0;
    double got = 0, want = 0, max_error = 0;
    void miss(std::size_t i, double g, double w) {
      if (mismatches++ == 0) first = i, got = g, want = w;
    }
  };
  struct Buffer {
    std::string name;
    std::uintptr_t address;
    std::size_t bytes;
  };

  const char* find(const char* name) const {
    for (const Setting& s : settings_)
      if (s.name == name) return s.value.c_str();
    return nullptr;
  }
  template <class T>
  T* allocate(const char* name, std::size_t n) {
    void* d = nullptr;
    check(cudaMalloc(&d, n * sizeof(T) > 0 ? n * sizeof(T) : 1), "cudaMalloc");
    allocations_.push_back(d);
    buffers_.push_back({name, reinterpret_cast<std::uintptr_t>(d), n * sizeof(T)});
    return static_cast<T*>(d);
  }
  void check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return;
    std::fprintf(stderr, "lab: %s failed: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
  void fail_note(const std::string& note) {
    ok_ = false;
    notes_.push_back(note);
    std::printf("lab: %s\n", note.c_str());
  }
  bool record(const Comparison& c, double atol, double rtol) {
    comparisons_.push_back(c);
    if (c.mismatches == 0) {
      std::printf("lab: %s matches the reference (%zu values, largest difference %.3g)\n", c.name.c_str(), c.compared,
                  c.max_error);
      return true;
    }
    ok_ = false;
    std::printf("lab: %s: %zu of %zu values differ; the first is %s[%zu] = %.9g, the reference has %.9g", c.name.c_str(),
                c.mismatches, c.compared, c.name.c_str(), c.first, c.got, c.want);
    if (atol > 0 || rtol > 0) std::printf(" (tolerance %.3g + %.3g x |reference|)", atol, rtol);
    std::printf("\n");
    return false;
  }
  static std::string quoted(const std::string& s) {
    std::string out = "\"";
    for (char ch : s) {
      if (ch == '"' || ch == '\\') out += '\\';
      if (static_cast<unsigned char>(ch) >= 0x20) out += ch;
    }
    return out + "\"";
  }
  static std::string number(double x) {
    if (x != x) return "null";
    char b[64];
    std::snprintf(b, sizeof b, "%.17g", x);
    return b;
  }
  void write_results() const {
    std::FILE* f = std::fopen(results_path_.c_str(), "w");
    if (!f) {
      std::fprintf(stderr, "lab: cannot write %s\n", results_path_.c_str());
      return;
    }
    std::fprintf(f, "{\"ok\": %s,\n \"sizes\": {", ok_ ? "true" : "false");
    for (std::size_t i = 0; i < used_.size(); ++i)
      std::fprintf(f, "%s%s: %s", i ? ", " : "", quoted(used_[i].name).c_str(), used_[i].value.c_str());
    std::fprintf(f, "},\n \"buffers\": [");
    for (std::size_t i = 0; i < buffers_.size(); ++i)
      std::fprintf(f, "%s{\"name\": %s, \"address\": %llu, \"bytes\": %zu}", i ? ", " : "",
                   quoted(buffers_[i].name).c_str(), static_cast<unsigned long long>(buffers_[i].address),
                   buffers_[i].bytes);
    std::fprintf(f, "],\n \"comparisons\": [");
    for (std::size_t i = 0; i < comparisons_.size(); ++i) {
      const Comparison& c = comparisons_[i];
      std::fprintf(f,
                   "%s{\"name\": %s, \"compared\": %zu, \"mismatches\": %zu, \"max_error\": %s, \"first\": %zu, "
                   "\"got\": %s, \"want\": %s}",
                   i ? ",\n   " : "", quoted(c.name).c_str(), c.compared, c.mismatches, number(c.max_error).c_str(),
                   c.first, number(c.got).c_str(), number(c.want).c_str());
    }
    std::fprintf(f, "],\n \"notes\": [");
    for (std::size_t i = 0; i < notes_.size(); ++i) std::fprintf(f, "%s%s", i ? ", " : "", quoted(notes_[i]).c_str());
    std::fprintf(f, "]}\n");
    std::fclose(f);
  }

  std::vector<Setting> settings_, used_;
  std::string results_path_;
  std::vector<void*> allocations_;
  std::vector<Buffer> buffers_;
  std::vector<Comparison> comparisons_;
  std::vector<std::string> notes_;
  bool ok_ = true;
};

// Blocks of `threads` covering `n` items: the rounding-up every launcher needs.
inline unsigned blocks_for(long long n, unsigned threads) { return unsigned((n + threads - 1) / threads); }

}  // namespace lab
