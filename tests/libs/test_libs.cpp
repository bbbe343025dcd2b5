// simtlab's CUDA libraries (CUB, cuRAND) end to end: tests/libs/*.cu built by
// `simt exec` must print what the same files printed when built by nvcc 13 on an
// H200 against the real libraries (docs/validation/h200-cudalibs/), and CUB's
// launches must have the counters Nsight Compute measured there.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <vector>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

namespace {

const std::string kSource = SIMTLAB_SOURCE_DIR;

std::string read(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

struct Exec {
  int status = -1;
  std::string out;
  nlohmann::json launches;
};

// simt exec FILE (run in a scratch directory: the programs write files).
Exec exec(const std::string& file) {
  const std::string dir = "/tmp/simtlab-libs-" + std::to_string(getpid());
  const std::string json = dir + "/launches.json";
  std::string cmd = "mkdir -p " + dir + " && cd " + dir + " && " + SIMT_BIN + " exec " + kSource + "/tests/libs/" +
                    file + " --json=" + json + " 2>" + dir + "/stderr.txt";
  Exec e;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::array<char, 4096> buf;
  while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) e.out.append(buf.data(), n);
  int st = pclose(p);
  e.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  INFO(read(dir + "/stderr.txt"));
  std::string text = read(json);
  e.launches = text.empty() ? nlohmann::json::array() : nlohmann::json::parse(text);
  return e;
}

// The lines of `text` that start with `prefix`.
std::string lines_with(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line))
    if (line.rfind(prefix, 0) == 0) out += line + "\n";
  return out;
}

const nlohmann::json& launch(const Exec& e, const std::string& kernel) {
  for (const auto& l : e.launches)
    if (l["kernel"].get<std::string>().find(kernel) != std::string::npos) return l;
  FAIL("no launch of " << kernel);
  return e.launches[0];
}
long metric(const nlohmann::json& l, const std::string& name) { return l["metrics"].value(name, -1L); }


// Nsight Compute's CSV (--csv): the value of each (kernel, metric) of the launches.
std::map<std::pair<std::string, std::string>, long> ncu_values(const std::string& path) {
  std::map<std::pair<std::string, std::string>, long> out;
  std::istringstream in(read(path));
  std::vector<std::string> header;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] != '"') continue;  // ncu's own messages
    std::vector<std::string> f;
    for (std::size_t at = 0; at < line.size();) {
      const std::size_t end = line.find('"', at + 1);
      f.push_back(line.substr(at + 1, end - at - 1));
      at = end + 2;
    }
    if (header.empty()) { header = f; continue; }
    auto col = [&](const char* name) { return f[std::find(header.begin(), header.end(), name) - header.begin()]; };
    std::string value = col("Metric Value");
    value.erase(std::remove(value.begin(), value.end(), ','), value.end());
    std::string kernel = col("Kernel Name");
    kernel = kernel.substr(0, kernel.find('('));
    if (kernel.rfind("void ", 0) == 0) kernel = kernel.substr(5);
    out[{kernel, col("Metric Name")}] = std::atol(value.c_str());
  }
  return out;
}

}  // namespace

TEST_CASE("CUB primitives: every result has the bits nvcc's build with CUDA 13's CUB gave on the H200") {
  Exec e = exec("cub_primitives.cu");
  const std::string gpu = read(kSource + "/docs/validation/h200-cudalibs/cub.txt");
  // Every primitive's hash over all its output bits, as on the GPU. (The GPU's run
  // printed MISMATCH for the scans: its CPU model then assumed WARP_SCANS, which is
  // not CUB's default; the bits are what count.)
  auto bits = [](const std::string& line) {
    const std::size_t at = line.rfind("bits ");
    return at == std::string::npos ? std::string("none") : line.substr(at, 13);
  };
  for (const char* what : {"BlockReduce Sum ", "BlockReduce RAKING", "BlockReduce Sum(200)", "BlockLoad VECTORIZE",
                           "Load/Store DIRECT", "Load/Store STRIPED", "Load/Store TRANSPOSE", "Load/Store WARP_TRANSPOSE",
                           "BlockScan Inclusive", "BlockScan exclusive", "WarpReduce/WarpScan"}) {
    INFO(what);
    CHECK(bits(lines_with(e.out, what)) == bits(lines_with(gpu, what)));
    CHECK(lines_with(e.out, what).find(" ok ") != std::string::npos);  // and simtlab's CPU model agrees
  }
}

TEST_CASE("CUB counters: every launch's global, shared and FP counters equal Nsight Compute's on the H200") {
  Exec e = exec("cub_primitives.cu");
  const auto ncu = ncu_values(kSource + "/docs/validation/h200-cudalibs/ncu_cub.csv");
  REQUIRE(ncu.size() > 100);
  const char* metrics[] = {
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum",
      "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"};
  // ncu names the template instances by their argument values: load_store<0, 0> ...
  auto ncu_name = [](std::string k) {
    for (auto [from, to] : {std::pair<std::string, std::string>{"(cub::BlockLoadAlgorithm)", ""},
                            {"(cub::BlockStoreAlgorithm)", ""}})
      for (std::size_t at; (at = k.find(from)) != std::string::npos;) k.replace(at, from.size(), to);
    return k;
  };
  REQUIRE(e.launches.size() == 10);
  for (const auto& l : e.launches) {
    const std::string kernel = ncu_name(l["kernel"].get<std::string>());
    for (const char* m : metrics) {
      INFO(kernel << " " << m);
      auto it = ncu.find({kernel, m});
      REQUIRE(it != ncu.end());
      CHECK(metric(l, m) == it->second);
    }
  }
  // simtlab's own: one __syncthreads per warp (8 per block of 256) in BlockReduce.
  CHECK(metric(launch(e, "reduce_warp_reductions"), "simt__warp_barriers.sum") == 16);
}

TEST_CASE("CUB BlockRadixSort: stable, CUB's key order (both zeros, descending, bit ranges, striped output)") {
  // A stable sort by CUB's twiddled key bits, -0.0 read as +0.0; the same memory as
  // CUB 13's on the H200 (docs/validation/h200-libs-hw4.md).
  Exec e = exec("cub_radix_sort.cu");
  CHECK(e.status == 0);
  CHECK(lines_with(e.out, "BlockRadixSort pairs ascending: ok") != "");
  CHECK(lines_with(e.out, "BlockRadixSort pairs descending: ok") != "");
  CHECK(lines_with(e.out, "BlockRadixSort bits [8, 20) blocked-to-striped: ok") != "");
  for (const auto& l : e.launches) CHECK(l["diagnostics"].empty());
}

TEST_CASE("CUB BlockReduce RAKING_COMMUTATIVE_ONLY: CUB 13's order (bit-identical on the H200)") {
  Exec e = exec("cub_reduce_commutative.cu");
  CHECK(e.status == 0);
  CHECK(lines_with(e.out, "BlockReduce RAKING_COMMUTATIVE_ONLY").find(": ok") != std::string::npos);
  REQUIRE(e.launches.size() == 1);
  // 2 reductions: 224 placements (7 warps) and 32 x 8-item rakes read as 7 loads each.
  CHECK(metric(e.launches[0], "smsp__sass_inst_executed_op_shared_st.sum") == 2 * 7);
  CHECK(metric(e.launches[0], "smsp__sass_inst_executed_op_shared_ld.sum") == 2 * 7);
  CHECK(metric(e.launches[0], "simt__warp_barriers.sum") == 3 * 8);
}

// tests/libs/cub_device.cu: the device-wide algorithms against CPU references and
// against the H200's outputs (docs/validation/h200-cub.md).
TEST_CASE("CUB device-wide algorithms: every result as on the H200, the reductions' launches as CUB's") {
  Exec e = exec("cub_device.cu");
  CHECK(e.status == 0);
  const std::string gpu = read(kSource + "/docs/validation/h200-cub/cub_device_stdout.txt");
  REQUIRE(gpu.find("MoE router") != std::string::npos);
  // A float scan over several tiles depends on timing on the GPU (CUB's look-back:
  // three H200 runs, three different bit patterns); simtlab gives one order a GPU can
  // give, checked against a double-precision reference inside the program.
  const std::vector<std::string> timing_dependent = {"DeviceScan::InclusiveSum float n=1048576",
                                                     "DeviceScan::InclusiveSum float n=3145735"};
  std::istringstream lines(gpu);
  int compared = 0;
  for (std::string line; std::getline(lines, line);) {
    const std::size_t colon = line.find(": ");
    if (colon == std::string::npos || line.find(" bits ") == std::string::npos) continue;
    const std::string what = line.substr(0, colon);
    const std::string mine = lines_with(e.out, what + ": ");
    INFO(what << "\nsimtlab: " << mine << "H200:    " << line);
    CHECK(mine.find(": ok bits") != std::string::npos);
    if (std::find(timing_dependent.begin(), timing_dependent.end(), what) != timing_dependent.end()) continue;
    const std::size_t at = line.find(" bits ");
    CHECK(mine.substr(mine.find(" bits "), 14) == line.substr(at, 14));
    ++compared;
  }
  CHECK(compared >= 50);
  // The reductions launch what CUB launched on the H200, with the same grids (which
  // fix a float sum's order): the ncu record's DeviceReduce* launches, in order.
  std::vector<std::string> ours, theirs;
  for (const auto& l : e.launches) {
    const std::string k = l["kernel"].get<std::string>();
    for (const char* name : {"DeviceReduceKernel", "DeviceReduceSingleTileKernel", "DeviceSegmentedReduceKernel"})
      if (k.find(std::string(name) + "<") != std::string::npos)
        ours.push_back(std::string(name) + " " + std::to_string(l["grid"][0].get<long>()));
  }
  std::istringstream csv(read(kSource + "/docs/validation/h200-cub/ncu_cub_device.csv"));
  for (std::string row; std::getline(csv, row);) {
    std::vector<std::string> f;
    std::istringstream fields(row);
    for (std::string x; std::getline(fields, x, ',');) f.push_back(x);
    if (f.size() < 4 || f[1].find("Reduce") == std::string::npos || f[1].find("ByKey") != std::string::npos) continue;
    theirs.push_back(f[1].substr(f[1].rfind(':') + 1) + " " + f[3]);
  }
  CHECK(ours == theirs);
  for (const char* kernel : {"DeviceScanKernel", "DeviceRadixSortDownsweepKernel", "DeviceRadixSortSingleTileKernel",
                             "DeviceHistogramSweepKernel", "DeviceSelectSweepKernel"})
    CHECK(launch(e, kernel)["kernel"].get<std::string>().find(kernel) != std::string::npos);
  for (const auto& l : e.launches) CHECK(l["diagnostics"].empty());
}

// tests/libs/thrust_basics.cu: simtlab's Thrust on device_vectors against the H200's
// outputs with CUDA 13's Thrust (docs/validation/h200-cub.md).
TEST_CASE("Thrust basics: every result the H200's bits; element-wise kernels under Thrust's names") {
  Exec e = exec("thrust_basics.cu");
  CHECK(e.status == 0);
  const std::string gpu = read(kSource + "/docs/validation/h200-cub/thrust_stdout.txt");
  REQUIRE(gpu.find("reduce_by_key") != std::string::npos);
  std::istringstream lines(gpu);
  int compared = 0;
  for (std::string line; std::getline(lines, line);) {
    const std::size_t colon = line.find(": ");
    if (colon == std::string::npos || line.find(" bits ") == std::string::npos) continue;
    const std::string what = line.substr(0, colon);
    const std::string mine = lines_with(e.out, what + ": ");
    INFO(what << "\nsimtlab: " << mine << "H200:    " << line);
    CHECK(mine.find(": ok bits") != std::string::npos);
    // The H200's run left this host_vector unsorted (MISMATCH there; not yet understood).
    if (what == "host_vector sort") continue;
    CHECK(mine.substr(mine.find(" bits "), 14) == line.substr(line.find(" bits "), 14));
    ++compared;
  }
  CHECK(compared == 17);
  for (const char* kernel : {"for_each::static_kernel", "transform::transform_kernel", "DeviceReduceKernel", "DeviceScanKernel"})
    CHECK(launch(e, kernel)["kernel"].get<std::string>().find(kernel) != std::string::npos);
  for (const auto& l : e.launches) CHECK(l["diagnostics"].empty());
}

// tests/libs/thrust_random.cu: the engines and distributions on the host print what the
// same file built by nvcc 13.0 with CUDA 13's Thrust prints (host code: no GPU needed);
// the kernels draw what the host draws.
TEST_CASE("thrust/random.h: CUDA 13's sequences and draws; generate and for_each on the device") {
  Exec e = exec("thrust_random.cu");
  CHECK(e.status == 0);
  CHECK(e.out.substr(0, e.out.find("device draws")) ==
        "minstd_rand: 48271 182605794 1291394886 1914720637\n"
        "minstd_rand0(12345): 207482415 1790989824 2035175616 77048696\n"
        "discard(100000) 1929433024 1929433024\n"
        "real -1.9992132745675866 0.97613571907965069 dice 2 2 5 2 4 5 6 2 wide 5781526761807310848\n"
        "host generate: 6 1 5 1 4 1 6 1 5 1\n"
        "min -4 max 2.5\n");
  CHECK(e.out.find("device draws equal to the host's: 1000 of 1000, sum 356876, reduce 356876\n") != std::string::npos);
  CHECK(e.out.find("device generate + for_each: 64 of 64 equal") != std::string::npos);
  CHECK(launch(e, "GenerateOp")["kernel"].get<std::string>().find("for_each::static_kernel") != std::string::npos);
  for (const auto& l : e.launches) CHECK(l["diagnostics"].empty());
}

// tests/libs/thrust_iterators.cu: the fancy iterators through the algorithms; the values
// are those Thrust defines (a gather, a scatter, sums of 1..100 and of their squares).
TEST_CASE("Thrust's counting, constant, transform, permutation and discard iterators") {
  Exec e = exec("thrust_iterators.cu");
  CHECK(e.status == 0);
  CHECK(e.out.substr(0, e.out.find("\n== simt")) ==
        "reduce 1..100 = 5050, squares = 338350\n"
        "device_vector(counting): 1 2 3 4 5 6 7 8\n"
        "seq + constant 10: 11 12 13 14 15 16 17 18\n"
        "gather: 60 10 40 40\n"
        "reduce of the gather = 150\n"
        "scatter 1 2 3 to 4 2 0: 3 -1 2 -1 1 -1\n"
        "squares to the host: 1 4 9 16 25\n"
        "host 7 8 9 scattered: 9 -1 8 -1 7 -1\n"
        "discarded 8\n"
        "host_vector(counting): 1 2 3 4\n"
        "host gather reduce = 9\n");
  // Reductions over fancy iterators run CUB's kernels on them, as in CUDA 13.
  CHECK(launch(e, "IteratorInput<thrust::counting_iterator")["kernel"].get<std::string>().find("DeviceReduce") !=
        std::string::npos);
  for (const auto& l : e.launches) CHECK(l["diagnostics"].empty());
}

// tests/libs/thrust_placeholders.cu: placeholder expressions (thrust::placeholders::_1 ...)
// as the functors of transform, count_if and reduce, and called on the host.
TEST_CASE("Thrust's placeholder expressions") {
  Exec e = exec("thrust_placeholders.cu");
  CHECK(e.status == 0);
  CHECK(e.out.substr(0, e.out.find("\n== simt")) ==
        "saxpy 2x + y: 12 15 18 21 24\n"
        "multiples of 3: 4\n"
        "in (2, 6): 3\n"
        "100 - x - x*x/4: 100 99 97 95 92 89 85 81 76 71\n"
        "identity sum: 45\n"
        "on the host: 10\n");
  for (const auto& l : e.launches) CHECK(l["diagnostics"].empty());
}

// tests/libs/thrust_extended_lambdas.cu: nvcc's extended lambdas (the syntax step drops
// the CUDA keywords between capture list and parameters), to Thrust, to a kernel
// template and on the host; `[[nodiscard]] __host__ __device__` stays a function's.
TEST_CASE("extended lambdas: [=] __host__ __device__ (...) to Thrust, to a kernel template, on the host") {
  Exec e = exec("thrust_extended_lambdas.cu");
  CHECK(e.status == 0);
  CHECK(e.out.substr(0, e.out.find("\n== simt")) ==
        "transform [=] __host__ __device__: 1 22\n"
        "transform [] __device__: 7 21\n"
        "kernel template: -3 4\n"
        "on the host: 13 10\n");
  CHECK(e.launches.size() == 5);  // two fills (the vectors), two transforms, the kernel
}

// tests/libs/thrust_set_operations.cu: the four set operations on ranges with repeated
// items, each beside std::'s over the same ranges; the _by_key forms' values (100 + i
// from the first range, 200 + j from the second) worked out by hand from the rule.
TEST_CASE("Thrust's set operations: the multiset rule, by key, with a comparator, on the device and the host") {
  Exec e = exec("thrust_set_operations.cu");
  CHECK(e.status == 0);
  CHECK(e.out.substr(0, e.out.find("\n== simt")) ==
        "set_union: 1 2 2 2 3 4 6 6 6 7 9 9 (same)\n"
        "set_intersection: 2 2 6 6 9 (same)\n"
        "set_difference: 1 2 4 (same)\n"
        "set_symmetric_difference: 1 2 3 4 6 7 9 (same)\n"
        "set_union greater: 9 8 7 7 3 3 1 0 (same)\n"
        "set_union_by_key values: 100 101 102 103 202 104 105 106 205 206 107 208\n"
        "set_intersection_by_key values: 101 102 105 106 107\n"
        "set_difference_by_key values: 100 103 104\n"
        "set_symmetric_difference_by_key values: 100 103 202 104 205 206 208\n"
        "host set_symmetric_difference: 1 2 3 4 6 7 9 (same)\n"
        "host set_union_by_key values: 100 101 102 103 202 104 105 106 205 206 107 208\n");
  // Every launch is a kernel of simtlab's CUB or Thrust, none failed.
  for (const auto& l : e.launches) CHECK(l["error"] == 0);
}

// tests/libs/thrust_merge.cu: merge and merge_by_key, stable (the first range's
// equivalent items first), with thrust::greater, on the device and on the host.
TEST_CASE("Thrust's merge and merge_by_key") {
  Exec e = exec("thrust_merge.cu");
  CHECK(e.status == 0);
  CHECK(e.out.substr(0, e.out.find("\n== simt")) ==
        "merge: 1 2 3 3 3 4 5 7 8\n"
        "end at 9\n"
        "merge_by_key keys: 1 2 3 3 3 4 5 7 8\n"
        "merge_by_key values: 10 20 11 12 21 22 13 14 23\n"
        "ends at 9 9\n"
        "merge greater: 9 8 5 5 5 2 1\n"
        "host merge: 1 2 3 3 3 4 5 7 8\n"
        "host merge_by_key values: 10 20 11 12 21 22 13 14 23\n");
  int merges = 0;
  for (const auto& l : e.launches) {
    CHECK(l["diagnostics"].empty());
    merges += l["kernel"].get<std::string>().find("MergeOp") != std::string::npos;
  }
  CHECK(merges == 3);  // one launch per device merge
}

// tests/libs/thrust_gather_zip.cu: gather/scatter and their _if forms, zip_iterator over
// thrust::tuple, the transform output iterators; the values are those Thrust defines.
TEST_CASE("Thrust's gather, scatter, zip_iterator and transform output iterators") {
  Exec e = exec("thrust_gather_zip.cu");
  CHECK(e.status == 0);
  CHECK(e.out.substr(0, e.out.find("\n== simt")) ==
        "gather: 17 12 12 10 15\n"
        "gather_if stencil 1 0 1 0 1: 17 -1 12 -1 15\n"
        "gather_if odd stencil: 17 -1 12 -1 15\n"
        "scatter: 13 11 0 12 0 0 10 0\n"
        "scatter_if: 13 11 0 102 0 0 100 0\n"
        "zip a + 10 b + 100 c: 951 62 173 284\n"
        "swapped a: 5 6 7 8\n"
        "swapped b: 1 2 3 4\n"
        "zip element 2 on the host: (7, 3)\n"
        "zip_function 2a + b: 11 14 17 20\n"
        "gather zip into output a - c: 6 -4 6\n"
        "io 3x + 5 + 1000: 1008 1011 1014\n"
        "host gather: 13 13 11\n"
        "host scatter: 3 0 3 1\n");
  // As in CUDA 13: a gather or scatter is a transform, their _if forms a for_each.
  CHECK(launch(e, "CopyOp<thrust::permutation_iterator")["kernel"].get<std::string>().find("transform_kernel") !=
        std::string::npos);
  CHECK(launch(e, "CopyIfStencilOp")["kernel"].get<std::string>().find("for_each::static_kernel") != std::string::npos);
  for (const auto& l : e.launches) CHECK(l["diagnostics"].empty());
}

// tests/libs/thrust_search_compact.cu: inner_product, the binary searches, copy_if, the
// remove family, unique, tabulate, and a reduction into a 12-byte tuple; the values are
// those Thrust defines (computed by hand in the comments of the expected text).
TEST_CASE("Thrust's inner_product, binary searches, copy_if/remove/unique, tabulate, a tuple reduction") {
  Exec e = exec("thrust_search_compact.cu");
  CHECK(e.status == 0);
  CHECK(e.out.substr(0, e.out.find("\n== simt")) ==
        "inner_product x.y = 166666500\n"  // sum of i (1000 - i), i < 1000
        "max |x - y| = 1000\n"
        "lower_bound: 0 1 4 5 7 8\n"
        "upper_bound: 0 4 4 7 8 8\n"
        "binary_search: 0 1 0 1 1 0\n"
        "scalar: lower_bound(9) at 5, upper_bound(3) at 4, binary_search(8) 0\n"
        "lower_bound(9) in descending order: 1\n"
        "copy_if multiples of 3 below 5000: 1667, last 4998\n"
        "copy_if by stencil: 10 11 13 14\n"
        "remove 3: 5 6 9 10\n"
        "remove_if multiple of 3: 5 10\n"
        "remove_copy_if: 1 2 4 5 7\n"
        "unique_count 4\n"
        "unique: 1 2 1 3\n"
        "tabulate i*i + i: 0 2 6 12 20 30\n"
        "even-index stats: count 1500 sum 2259000 max 3005\n"  // 7 + i for even i < 3000
        "host lower_bound: 2 1\n"
        "host copy_if: 15 42\n"
        "host inner_product 878\n");
  // The kernels CUDA 13's Thrust launches for them: CUB's reduction, DeviceSelect's sweep.
  CHECK(launch(e, "ApplyToPair")["kernel"].get<std::string>().find("DeviceReduce") != std::string::npos);
  CHECK(launch(e, "StencilFlags")["kernel"].get<std::string>().find("DeviceSelect") != std::string::npos);
  CHECK(launch(e, "SearchOp")["kernel"].get<std::string>().find("transform_kernel") != std::string::npos);
  for (const auto& l : e.launches) CHECK(l["diagnostics"].empty());
}

// tests/libs/thrust_sort_scan_by_key.cu: sorts by comparators (a merge sort: stable, as
// CUB's), cuda::std::greater, the scans by key, thrust/version.h (CUDA 13.0's 3.0.1).
TEST_CASE("Thrust's sorts by a comparator, scans by key, version") {
  Exec e = exec("thrust_sort_scan_by_key.cu");
  CHECK(e.status == 0);
  CHECK(e.out.substr(0, e.out.find("\n== simt")) ==
        "Thrust 3.0.1\n"
        "evens first: 0 2 4 4 6 8 1 3 5 7 9 11\n"
        "descending: 11 9 8 7 6 5 4 4 3 2 1 0\n"
        "stable by tens: 2 7 12 10 19 15 31 35 33 30\n"
        "300 structs by operator<: first (0,0) last (10,294), stable 1\n"
        "pairs: (0,9) (1,2) (1,5) (2,0) (2,1)\n"
        "sort_by_key evens first, keys: 8 1 3 3 5 5\n"
        "sort_by_key evens first, values: 5 3 1 4 0 2\n"
        "inclusive_scan_by_key: 1 3 28 8 ... out[4999] = 9999\n"  // runs of 7 keys over 1 .. 5000
        "exclusive_scan_by_key from 100: 100 101 121 100 ... out[4999] = 5099\n"
        "inclusive by head flags: 1 2 3 1 2 1 1 2\n"
        "exclusive by head flags: 0 1 2 0 1 0 0 1\n"
        "is_sorted by tens 1, by value 0\n"
        "adjacent_difference of squares: 1 3 5 7 9\n"
        "device_malloc'd 10..13 sum 46\n"
        "host inclusive_scan_by_key: 1 3 3 7 12 6\n");
  CHECK(launch(e, "EvensFirst")["kernel"].get<std::string>().find("DeviceMergeSortMergeKernel") != std::string::npos);
  CHECK(launch(e, "SegmentedOp")["kernel"].get<std::string>().find("DeviceScan") != std::string::npos);
  for (const auto& l : e.launches) CHECK(l["diagnostics"].empty());
}

TEST_CASE("cuRAND: XORWOW and Philox integers, uniforms and normals are the H200's, bit for bit") {
  Exec e = exec("curand_sequences.cu");
  CHECK(e.status == 0);
  const std::string gpu = read(kSource + "/docs/validation/h200-cudalibs/cur.txt");
  CHECK(lines_with(e.out, "philox known answer") == lines_with(gpu, "philox known answer"));
  // Normals too: Box-Muller's logf and __sincosf are the H200's bits (sim/math).
  for (const char* gen : {"xorwow t", "philox t", "xorwow hash", "philox hash", "philox4 hash"}) {
    INFO(gen);
    CHECK(lines_with(e.out, gen) == lines_with(gpu, gen));
  }
  CHECK(lines_with(e.out, "xorwow t").find("normal") != std::string::npos);
}

TEST_CASE("cuBLAS and cuBLASLt: every product within its tolerance, one launch each with closed-form counters") {
  Exec e = exec("cublas_gemm.cu");
  CHECK(e.status == 0);
  CHECK(e.out.find("cuBLAS: every product within its tolerance") != std::string::npos);
  // M = 96, N = 80, K = 64 (tests/libs/cublas_gemm.cu).
  const long mnk = 96L * 80 * 64;
  const auto& sgemm = launch(e, "cublasSgemm");
  CHECK(metric(sgemm, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum") == mnk);
  CHECK(metric(sgemm, "simt__tensor_tf32_flops.sum") == 0);
  // One 128x128 tile: A (64x96 floats) and B (64x80 floats) read once, C written once.
  CHECK(metric(sgemm, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == (64 * 96 + 64 * 80) * 4 / 32);
  CHECK(metric(sgemm, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum") == 96 * 80 * 4 / 32);
  CHECK(sgemm["grid"][0] == 1);
  int tf32 = 0, tensor16 = 0, lt = 0, batched = 0;
  for (const auto& l : e.launches) {
    tf32 += metric(l, "simt__tensor_tf32_flops.sum") == 2 * mnk;
    tensor16 += metric(l, "simt__tensor_16bit_flops.sum") == 2 * mnk;
    lt += l["kernel"] == "cublasLtMatmul";
    batched += l["kernel"] == "cublasSgemmStridedBatched" && metric(l, "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum") == 3 * mnk;
  }
  CHECK(tf32 == 1);      // GemmEx with CUBLAS_COMPUTE_32F_FAST_TF32
  CHECK(tensor16 == 2);  // fp16 and bf16
  CHECK(lt == 2);        // BIAS and GELU_BIAS
  CHECK(batched == 1);
}

TEST_CASE("cuBLAS refuses what simtlab does not implement, loudly") {
  const std::string dir = "/tmp/simtlab-libs-" + std::to_string(getpid());
  const std::string src = dir + "/refused.cu";
  std::system(("mkdir -p " + dir).c_str());
  std::ofstream(src) << R"(#include <cublas_v2.h>
#include <cstdio>
#include <cstdlib>
int main() {
  cublasHandle_t h; cublasCreate(&h);
  float *a; cudaMalloc(&a, 64 * sizeof(float));
  const double one = 1, zero = 0;
  cublasStatus_t s = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &one, a, CUDA_R_64F, 8, a, CUDA_R_64F, 8, &zero,
                                  a, CUDA_R_64F, 8, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT);
  float fone = 1, fzero = 0;
  cublasStatus_t t = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &fone, a, 16, a, 16, &fzero, a, 16);
  printf("%d %d\n", int(s), int(t));
  return 0;
}
)";
  FILE* p = popen(("cd " + dir + " && " + SIMT_BIN + " exec " + src + " 2>&1").c_str(), "r");
  REQUIRE(p);
  std::string out;
  std::array<char, 4096> buf;
  while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  pclose(p);
  CHECK(out.find("15 7") != std::string::npos);  // NOT_SUPPORTED; INVALID_VALUE (16x16 does not fit in 64 floats)
  CHECK(out.find("is not supported by simtlab's cuBLAS") != std::string::npos);
  CHECK(out.find("is not inside one device allocation") != std::string::npos);
}
