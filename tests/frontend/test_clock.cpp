// The simulated clock and the skipping of identical repeated launches, end to
// end: small CUDA programs (tests/frontend/repeat_*.cu, clock_streams.cu) under
// `simt exec`, checked through what they print, their launch JSON and the
// Chrome trace `--timeline` writes.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>
#include <unistd.h>

namespace {

const std::string kDir = std::string(SIMTLAB_SOURCE_DIR) + "/tests/frontend/";

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::string temp(const std::string& name) { return "/tmp/simtlab-clock-" + std::to_string(getpid()) + "-" + name; }

struct Exec {
  int status = -1;
  std::string out, err;
  nlohmann::json launches, timeline;
};

// [env VAR=VALUE ...] simt exec FILE [flags]: stdout, stderr, the launches' JSON and the timeline.
Exec exec(const std::string& file, const std::string& flags = "", int want_status = 0, const std::string& env = "") {
  const std::string json = temp("launches.json"), err = temp("stderr.txt"), trace = temp("timeline.json");
  const std::string cmd = (env.empty() ? "" : "env " + env) + std::string(SIMT_BIN) + " exec " + flags + " --json=" + json + " --timeline=" + trace + " " +
                          kDir + file + " 2>" + err;
  Exec e;
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::array<char, 4096> buf;
  while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) e.out.append(buf.data(), n);
  const int st = pclose(p);
  e.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  e.err = slurp(err);
  const std::string j = slurp(json), t = slurp(trace);
  e.launches = j.empty() ? nlohmann::json::array() : nlohmann::json::parse(j);
  e.timeline = t.empty() ? nlohmann::json::object() : nlohmann::json::parse(t);
  for (const std::string& f : {json, err, trace}) std::remove(f.c_str());
  INFO(e.err);
  REQUIRE(e.status == want_status);
  return e;
}

std::size_t repeat_of(const nlohmann::json& launch) { return launch.value("repeat_of", std::size_t{0}); }

// The number after `key` in the program's output ("copy_ms 1.07").
double printed(const std::string& out, const std::string& key) {
  const auto at = out.find(key + " ");
  REQUIRE_MESSAGE(at != std::string::npos, key << " missing from: " << out);
  return std::stod(out.substr(at + key.size() + 1));
}

// Complete events of the trace, in timeline order as written.
std::vector<nlohmann::json> work(const nlohmann::json& trace) {
  std::vector<nlohmann::json> out;
  for (const auto& e : trace.at("traceEvents"))
    if (e.at("ph") == "X") out.push_back(e);
  return out;
}

}  // namespace

TEST_CASE("a repeated pure kernel is skipped, with the same output and counters as when executed") {
  Exec skipped = exec("repeat_pure.cu");
  Exec executed = exec("repeat_pure.cu", "--no-skip-repeats");
  CHECK(skipped.out == "out[7] = 14.0 sum = 16773120.0\n");
  CHECK(executed.out == skipped.out);
  REQUIRE(skipped.launches.size() == 5);
  REQUIRE(executed.launches.size() == 5);
  CHECK(repeat_of(skipped.launches[0]) == 0);
  for (int i = 1; i < 5; ++i) {
    CHECK(repeat_of(skipped.launches[i]) == 1);  // the memset of an untouched buffer in between does not matter
    CHECK(repeat_of(executed.launches[i]) == 0);
    CHECK(skipped.launches[i]["metrics"] == executed.launches[i]["metrics"]);
    CHECK(skipped.launches[i]["clock"]["seconds"] == executed.launches[i]["clock"]["seconds"]);
  }
  CHECK(skipped.err.find("(repeat of launch 1: not re-executed") != std::string::npos);
  CHECK(skipped.err.find("[launch 2-5] 4x the same as launch 1 (not re-executed)") != std::string::npos);
}

TEST_CASE("a copy from pageable host memory runs at the rate measured for it; the skipped launches still take time") {
  Exec e = exec("repeat_pure.cu");
  const auto catalog = nlohmann::json::parse(slurp(std::string(SIMTLAB_SOURCE_DIR) + "/cost/catalog/devices.json"));
  double h2d_gbs = 0, latency_us = 0;
  for (const auto& d : catalog["devices"])
    if (d["name"] == "H200") {
      h2d_gbs = d["kernel_model"]["pageable_h2d_gbs"]["value"];
      latency_us = d["kernel_model"]["host_copy_latency_us"]["value"];
    }
  REQUIRE(h2d_gbs > 0);
  const auto events = work(e.timeline);
  REQUIRE(events.size() == 12);  // the copy in, 5 x (memset, launch), the copy out
  CHECK(events[0]["name"] == "cudaMemcpy HtoD");
  CHECK(events[0]["args"]["host_memory"] == "pageable");  // a stack array, not cudaMallocHost
  CHECK(events[0]["dur"].get<double>() == doctest::Approx(latency_us + 4096 * 4 / (h2d_gbs * 1e3)).epsilon(1e-9));
  for (int k = 0; k < 5; ++k) {
    const auto& launch = events[2 + 2 * k];
    CHECK(launch["name"] == "scale");
    CHECK(launch["dur"] == events[2]["dur"]);  // a repeat advances the clock by the launch's own time
    if (k > 0) CHECK(launch["args"]["repeat_of"] == 1);
  }
}

TEST_CASE("alternating launches: a repeat a few launches back is skipped unless something since wrote its footprint") {
  Exec skipped = exec("repeat_alternating.cu");
  Exec executed = exec("repeat_alternating.cu", "--no-skip-repeats");
  Exec pure = exec("repeat_alternating.cu", "--no-defer-repeats");
  CHECK(skipped.out == "out 220.0 t 18.0 x 7.0 out2 210.0\n");
  CHECK(executed.out == skipped.out);
  CHECK(pure.out == skipped.out);
  REQUIRE(skipped.launches.size() == 13);
  REQUIRE(pure.launches.size() == 13);
  // Skipped: 3-6 (nothing wrote their footprints). Deferred, and run when the host
  // copied their outputs back: 9 and 10 (bump wrote what triple reads, and its own
  // input), 13 (fill overwrote what twice wrote).
  const std::size_t want[13] = {0, 0, 1, 2, 1, 2, 0, 0, 7, 8, 0, 0, 11};
  const std::size_t want_pure[13] = {0, 0, 1, 2, 1, 2, 0, 0, 0, 0, 0, 0, 0};
  for (std::size_t i = 0; i < 13; ++i) {
    INFO("launch " << i + 1);
    CHECK(repeat_of(skipped.launches[i]) == want[i]);
    CHECK(skipped.launches[i].value("deferred", false) == (i == 8 || i == 9 || i == 12));
    CHECK(skipped.launches[i].value("ran_late", false) == (i == 8 || i == 9 || i == 12));
    CHECK(repeat_of(pure.launches[i]) == want_pure[i]);
    CHECK(repeat_of(executed.launches[i]) == 0);
    CHECK(skipped.launches[i]["metrics"] == executed.launches[i]["metrics"]);
  }
  // --skip-all-repeats also skips the in-place bump's repeat, but not a repeat whose
  // footprint something wrote since: a validation after it would read stale values.
  Exec all = exec("repeat_alternating.cu", "--skip-all-repeats");
  REQUIRE(all.launches.size() == 13);
  const std::size_t want_all[13] = {0, 0, 1, 2, 1, 2, 0, 0, 0, 8, 0, 0, 0};
  for (std::size_t i = 0; i < 13; ++i) {
    INFO("launch " << i + 1);
    CHECK(repeat_of(all.launches[i]) == want_all[i]);
  }
  CHECK(all.err.find("launch 10 (bump) repeats launch 8, which may change memory (it reads what it writes)") !=
        std::string::npos);
  CHECK(all.out == "out 220.0 t 18.0 x 6.0 out2 210.0\n");  // the second bump was skipped: x stays 6
}

TEST_CASE("a cuBLAS product into a kernel's input between two identical launches: the second runs before the host reads") {
  Exec e = exec("repeat_after_gemm.cu");
  CHECK(e.out == "out 32.0 32.0\n");
  REQUIRE(e.launches.size() == 4);  // scale, the product, scale, the product again
  CHECK(repeat_of(e.launches[2]) == 1);  // deferred: the product changed its input
  CHECK(e.launches[2]["deferred"] == true);
  CHECK(e.launches[2]["ran_late"] == true);
  CHECK(repeat_of(e.launches[3]) == 2);  // nothing wrote A or C since: not computed again
  // A product takes its time on the stream's timeline, as a kernel does.
  const double gemm_s = e.launches[1]["clock"]["seconds"];
  CHECK(gemm_s > 0);
  CHECK(e.launches[3]["clock"]["seconds"] == e.launches[1]["clock"]["seconds"]);
  CHECK(e.launches[2]["clock"]["start_s"].get<double>() >=
        e.launches[1]["clock"]["start_s"].get<double>() + gemm_s - 1e-12);
}

TEST_CASE("an in-place kernel repeated is deferred, and runs every time before the host reads its output") {
  Exec e = exec("repeat_in_place.cu");
  CHECK(e.out == "x[0] = 4.0 x[1000] = 1004.0\n");
  REQUIRE(e.launches.size() == 4);
  for (int i = 1; i < 4; ++i) {
    CHECK(repeat_of(e.launches[i]) == 1);
    CHECK(e.launches[i]["deferred"] == true);
    CHECK(e.launches[i]["ran_late"] == true);
  }
  CHECK(e.err.find("3 launches were deferred") != std::string::npos);
  Exec pure = exec("repeat_in_place.cu", "--no-defer-repeats");
  CHECK(pure.out == e.out);
  for (const auto& l : pure.launches) CHECK(repeat_of(l) == 0);
}

TEST_CASE("deferred repeats run, in order, before anything that could see what they did, and never when nothing does") {
  // Exit 1: launch 17 is a use after free (simt exec's code for a launch error).
  Exec e = exec("deferred_repeats.cu", "", 1);
  Exec executed = exec("deferred_repeats.cu", "--no-skip-repeats", 1);
  CHECK(e.out ==
        "phase 1: y[7] = 24.0\nphase 2: w[7] = 21.0\nx[7] on the device: 15.0\nphase 4: cudaErrorIllegalAddress\n");
  CHECK(executed.out == e.out);
  REQUIRE(e.launches.size() == 17);  // the four after the fault are refused: it is sticky
  auto flags = [&](std::size_t n) {
    const auto& l = e.launches[n - 1];
    return std::tuple(repeat_of(l), l.value("deferred", false), l.value("ran_late", false));
  };
  for (std::size_t n : {2, 3, 4, 5, 9, 10, 11, 13, 14, 15, 16}) {
    INFO("launch " << n);
    CHECK(flags(n) == std::tuple(std::size_t{1}, true, true));
  }
  CHECK(flags(6) == std::tuple(std::size_t{0}, true, true));     // counted ahead of 2-5, undone, run after them
  CHECK(flags(7) == std::tuple(std::size_t{0}, false, false));   // independent of the queue: done at once
  CHECK(flags(8) == std::tuple(std::size_t{6}, false, false));   // a pure repeat: not the deferral it repeats
  CHECK(flags(12) == std::tuple(std::size_t{0}, false, false));  // prints: never ahead of the queue
  CHECK(e.launches[16]["error"] != 0);                            // the use after free is still caught
  // Counted and timed as the launches they repeat; a launch counted ahead of the
  // queue (6) saw x before the bumps, which does not change what it counts here.
  for (std::size_t i = 0; i < 17; ++i) {
    INFO("launch " << i + 1);
    CHECK(e.launches[i]["metrics"] == executed.launches[i]["metrics"]);
  }
  CHECK(e.err.find("12 launches were deferred") != std::string::npos);
  CHECK(e.err.find("12 ran then, 0 never ran") != std::string::npos);
}

TEST_CASE("a launcher that allocates and sets its temporaries each call: its in-place launches are replayed from the same inputs") {
  Exec e = exec("replay_per_call_buffers.cu");
  Exec executed = exec("replay_per_call_buffers.cu", "--no-skip-repeats");
  Exec pure = exec("replay_per_call_buffers.cu", "--no-defer-repeats");
  Exec unchecked = exec("replay_per_call_buffers.cu", "--no-races");  // a replay needs no race checks
  CHECK(e.out == "out 103201.0 result 70644.0\n");  // and no "q moved": freed ranges are handed out again
  CHECK(executed.out == e.out);
  CHECK(pure.out == e.out);
  CHECK(unchecked.out == e.out);
  REQUIRE(unchecked.launches.size() == 20);
  // The time table folds each block size's repeated calls into one line: a cycle of two.
  CHECK(e.err.find("[launch 3-8] 3x the cycle of launches 1, 2 (6 deferred until their output was read: 6 ran then, 4 "
                   "of them replayed from the same inputs): 4.26 us a cycle") != std::string::npos);
  CHECK(pure.err.find("[launch 5-8] 2x the cycle of launches 3, 4 (not re-executed: 4 replayed from the same inputs)") !=
        std::string::npos);
  REQUIRE(e.launches.size() == 20);
  REQUIRE(pure.launches.size() == 20);
  // Each block size: call 1 runs, call 2 runs and learns the outputs its inputs give,
  // calls 3 and 4 find those inputs again. Deferred (the default), they are replayed
  // when their turn comes; with --no-defer-repeats, when launched. After the
  // __constant__ write (launch 17 on) nothing is replayed: the hashes cover global
  // memory only, so the write forgets them.
  for (std::size_t i = 0; i < 20; ++i) {
    INFO("launch " << i + 1);
    const bool learned = (i >= 4 && i < 8) || (i >= 12 && i < 16);
    CHECK(e.launches[i].value("replayed", false) == learned);
    CHECK(pure.launches[i].value("replayed", false) == learned);
    CHECK(unchecked.launches[i].value("replayed", false) == learned);
    CHECK(executed.launches[i].value("replayed", false) == false);
    if (learned) CHECK(repeat_of(pure.launches[i]) == i / 8 * 8 + 3 + i % 2);  // the second call's run
    CHECK(e.launches[i]["metrics"] == executed.launches[i]["metrics"]);
  }
}

TEST_CASE("a launcher's scratch freed and allocated again each call: its atomic, in-place launches stay deferred") {
  Exec e = exec("deferred_per_call_scratch.cu");
  Exec executed = exec("deferred_per_call_scratch.cu", "--no-skip-repeats");
  CHECK(e.out == "out 491410.0 bins 491410.0 out[14] 10.0\n");  // and no "scratch moved"
  CHECK(executed.out == e.out);
  REQUIRE(e.launches.size() == 20);
  // Calls 2-10: the cudaMalloc takes over the scratch the last call freed (its release
  // waited for the deferred launches), the cudaMemset joins the queue, and both launches
  // are deferred; the host's copy at the end runs all of them in order.
  for (std::size_t i = 2; i < 20; ++i) {
    INFO("launch " << i + 1);
    CHECK(repeat_of(e.launches[i]) == 1 + i % 2);
    CHECK(e.launches[i]["deferred"] == true);
    CHECK(e.launches[i]["ran_late"] == true);
    CHECK(e.launches[i]["metrics"] == executed.launches[i]["metrics"]);
  }
  CHECK(e.err.find("18 launches were deferred") != std::string::npos);
}

TEST_CASE("a product and an in-place bias repeated at several block sizes: nothing runs late when nothing is read") {
  Exec e = exec("deferred_cycle.cu");
  CHECK(e.out == "done\n");
  REQUIRE(e.launches.size() == 120);
  std::vector<std::size_t> new_launches;
  std::size_t deferred = 0, ran_late = 0;
  for (std::size_t i = 0; i < e.launches.size(); ++i) {
    if (repeat_of(e.launches[i]) == 0) new_launches.push_back(i + 1);
    deferred += e.launches[i].value("deferred", false);
    ran_late += e.launches[i].value("ran_late", false);
  }
  // The first product and bias run; every later block size's first bias is counted
  // ahead of the queue; everything else is a deferred repeat. The product stays kept
  // throughout (had it been pushed out, launch 63 would be new: a cuBLAS product
  // that is not a repeat makes the whole queue run).
  CHECK(new_launches == std::vector<std::size_t>{1, 2, 22, 42, 62, 82, 102});
  CHECK(deferred == 118);
  CHECK(ran_late == 0);
}

TEST_CASE("a cuBLAS product on what deferred launches write is queued behind them, not run ahead of them") {
  Exec e = exec("deferred_gemm.cu");
  Exec executed = exec("deferred_gemm.cu", "--no-skip-repeats");
  CHECK(e.out == "c 256.5 256.5\n");
  CHECK(executed.out == e.out);
  REQUIRE(e.launches.size() == 9);
  // 4: the first product reads what 2 and 3 (deferred bumps) write: recorded, queued.
  CHECK(repeat_of(e.launches[3]) == 0);
  CHECK(e.launches[3]["deferred"] == true);
  CHECK(e.launches[3]["ran_late"] == true);
  for (std::size_t i = 4; i < 9; ++i) {
    INFO("launch " << i + 1);
    CHECK(e.launches[i]["deferred"] == true);  // the bias counted ahead, then repeats of both
    CHECK(e.launches[i]["ran_late"] == true);  // the host read c
  }
  for (std::size_t i = 0; i < 9; ++i) CHECK(e.launches[i]["metrics"] == executed.launches[i]["metrics"]);
}

TEST_CASE("--skip-all-repeats skips the in-place repeats too, and says that memory now differs") {
  Exec e = exec("repeat_in_place.cu", "--skip-all-repeats");
  CHECK(e.out == "x[0] = 1.0 x[1000] = 1001.0\n");  // only the first launch ran
  REQUIRE(e.launches.size() == 4);
  CHECK(repeat_of(e.launches[0]) == 0);
  for (int i = 1; i < 4; ++i) {
    CHECK(repeat_of(e.launches[i]) == 1);
    CHECK(e.launches[i]["repeat_inexact"] == true);
  }
  CHECK(e.err.find("device memory may differ from a GPU's from here on") != std::string::npos);
  CHECK(e.err.find("(it reads what it writes)") != std::string::npos);
  CHECK(e.err.find("they change memory: --skip-all-repeats") != std::string::npos);
}

TEST_CASE("a kernel with atomics is never skipped, only deferred") {
  Exec e = exec("repeat_atomic.cu");
  CHECK(e.out == "sum = 1536.0\n");
  REQUIRE(e.launches.size() == 3);
  CHECK(repeat_of(e.launches[0]) == 0);
  for (int i = 1; i < 3; ++i) CHECK(e.launches[i]["ran_late"] == true);
}

TEST_CASE("a host copy into the input between launches makes the repeat run before the host reads; a printf prevents the skip") {
  Exec e = exec("repeat_after_copy.cu");
  CHECK(e.out == "out[3] = 60.0\ndevice says 10.0\ndevice says 10.0\n");
  REQUIRE(e.launches.size() == 4);
  CHECK(repeat_of(e.launches[1]) == 1);
  CHECK(e.launches[1]["ran_late"] == true);
  CHECK(repeat_of(e.launches[2]) == 0);
  CHECK(repeat_of(e.launches[3]) == 0);
}

TEST_CASE("cudaEventElapsedTime reads the simulated clock: kernels, copies, overlap of streams") {
  Exec e = exec("clock_streams.cu");
  // The copy: the H200's host link from the catalog, latency + bytes / bandwidth.
  const auto catalog = nlohmann::json::parse(slurp(std::string(SIMTLAB_SOURCE_DIR) + "/cost/catalog/devices.json"));
  // The measured efficiency and latency of pinned copies on the H200 scale the link's rate.
  std::string link_name;
  double efficiency = 0, latency_us = 0, launch_issue_us = 0, copy_issue_us = 0;
  for (const auto& d : catalog["devices"])
    if (d["name"] == "H200") {
      link_name = d["host_link"]["link"];
      efficiency = d["kernel_model"]["host_copy_efficiency"]["value"];
      latency_us = d["kernel_model"]["host_copy_latency_us"]["value"];
      launch_issue_us = d["kernel_model"]["launch_issue_us"]["value"];
      copy_issue_us = d["kernel_model"]["copy_issue_us"]["value"];
    }
  REQUIRE(link_name == "PCIe5-x16");
  REQUIRE(launch_issue_us > 0);
  REQUIRE(copy_issue_us > 0);
  double gbs = 0;
  for (const auto& l : catalog["links"])
    if (l["name"] == link_name) gbs = l["bandwidth_gbs"]["value"];
  REQUIRE(gbs > 0);
  const double copy_ms = (latency_us * 1e-6 + double(64u << 20) / (efficiency * gbs * 1e9)) * 1e3;
  CHECK(printed(e.out, "copy_ms") == doctest::Approx(copy_ms).epsilon(1e-5));

  // The kernel: exactly the time model's time for that launch (one source of truth),
  // after the host's cost of issuing it (the GPU is idle when the event is recorded).
  REQUIRE(e.launches.size() == 2);
  const double kernel_s = e.launches[0]["clock"]["seconds"];
  CHECK(kernel_s > 0);
  CHECK(e.launches[0]["time"]["predicted_s"].get<double>() == doctest::Approx(kernel_s).epsilon(1e-12));
  CHECK(printed(e.out, "kernel_ms") == doctest::Approx(kernel_s * 1e3 + launch_issue_us * 1e-3).epsilon(1e-5));

  // Stream 1 copies while stream 2 runs the kernel: the span is the longer of the two.
  // The host issues the async copy, then the launch: each starts when issued.
  const double both = printed(e.out, "overlap_ms"), copy2 = printed(e.out, "copy2_ms"),
               kernel2 = printed(e.out, "kernel2_ms");
  CHECK(copy2 == doctest::Approx(copy_ms + copy_issue_us * 1e-3).epsilon(1e-5));
  CHECK(kernel2 == doctest::Approx(e.launches[1]["clock"]["seconds"].get<double>() * 1e3 +
                                   (copy_issue_us + launch_issue_us) * 1e-3).epsilon(1e-5));
  CHECK(both == doctest::Approx(std::max(copy2, kernel2)).epsilon(1e-6));
  CHECK(both < copy2 + kernel2);
  CHECK(e.out.find("unrecorded: cudaErrorInvalidResourceHandle") != std::string::npos);
  CHECK(e.err.find("simulated clock:") != std::string::npos);
}

TEST_CASE("--timeline writes a Chrome trace: one track per stream, work in order with its arguments") {
  Exec e = exec("clock_streams.cu");
  const auto events = work(e.timeline);
  const std::vector<std::pair<std::string, int>> want = {{"cudaMemcpy HtoD", 0}, {"cudaMemcpy HtoD", 0},
                                                         {"scale", 0}, {"cudaMemcpyAsync HtoD", 1}, {"scale", 2}};
  REQUIRE(events.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("event " << i);
    CHECK(events[i]["name"] == want[i].first);
    CHECK(events[i]["tid"] == want[i].second);
    CHECK(events[i]["dur"].get<double>() > 0);
    if (i > 0 && events[i]["tid"] == events[i - 1]["tid"])  // one stream's work never overlaps itself
      CHECK(events[i]["ts"].get<double>() >= events[i - 1]["ts"].get<double>() + events[i - 1]["dur"].get<double>() - 1e-6);
  }
  CHECK(events[0]["args"]["bytes"] == 64u << 20);
  CHECK(events[2]["args"]["grid"] == "(4096,1,1)");
  CHECK(events[2]["args"]["block"] == "(256,1,1)");
  CHECK(events[2]["args"]["bound"].get<std::string>() != "");
  CHECK(events[2]["dur"].get<double>() == doctest::Approx(e.launches[0]["clock"]["seconds"].get<double>() * 1e6));
  // The copy of stream 1 and the kernel of stream 2 wait for the same event; each starts
  // when the host has issued it: the kernel one launch's issue cost after the copy.
  double launch_issue_us = 0;
  const auto catalog = nlohmann::json::parse(slurp(std::string(SIMTLAB_SOURCE_DIR) + "/cost/catalog/devices.json"));
  for (const auto& d : catalog["devices"])
    if (d["name"] == "H200") launch_issue_us = d["kernel_model"]["launch_issue_us"]["value"];
  REQUIRE(launch_issue_us > 0);
  CHECK(events[4]["ts"].get<double>() == doctest::Approx(events[3]["ts"].get<double>() + launch_issue_us));
  int named_tracks = 0;
  for (const auto& m : e.timeline["traceEvents"])
    if (m["ph"] == "M" && m["name"] == "thread_name") ++named_tracks;
  CHECK(named_tracks == 3);
}

TEST_CASE("two loads on one line are two sites, and the report's time is the program's clock") {
  Exec e = exec("two_loads_one_line.cu");
  REQUIRE(e.launches.size() == 1);
  const auto& l = e.launches[0];
  int load_sites = 0;
  for (const auto& s : l.at("global_sites")) load_sites += s.at("op") == "ld";
  CHECK(load_sites == 2);
  // 16 K floats / 128 threads: each warp loops 128 times, each site once per iteration.
  const auto& terms = l.at("time").at("terms");
  for (const auto& t : terms)
    if (t.at("name") == "load_chain") CHECK(t.at("detail").get<std::string>().find("128 load rounds") != std::string::npos);
  CHECK(l.at("time").at("predicted_s").get<double>() == doctest::Approx(l.at("clock").at("seconds").get<double>()).epsilon(1e-12));
  CHECK(e.err.find("the program's clock says") == std::string::npos);
}

TEST_CASE("loads of __half and fp8 values carry their loop, as a float's do") {
  Exec e = exec("narrow_loads_in_loops.cu");
  REQUIRE(e.launches.size() == 1);
  int in_loop = 0, straight = 0;
  for (const auto& s : e.launches[0].at("global_sites")) {
    if (s.at("op") != "ld") continue;
    INFO(s.dump());
    if (s.at("straight_line") == true) {
      ++straight;
      CHECK(s.at("loop") == 0);
    } else {
      ++in_loop;
      CHECK(s.at("loop") != 0);  // 0 would make each of the loop's loads a round trip of its own
    }
  }
  CHECK(in_loop == 2);  // x[i] and y[i]
  CHECK(straight == 1);  // x[0]
}

TEST_CASE("a sampled launch runs its uncounted blocks through the plain twin: same output, counters estimated") {
  const std::string tiny = "SIMT_OPTIONS=sample_probe=0.002:sample_budget=0.005 ";
  Exec sampled = exec("sampled_launches.cu", "", 0, tiny);
  Exec exact = exec("sampled_launches.cu", "--exact", 0, tiny);
  CHECK(sampled.out == exact.out);
  REQUIRE(sampled.launches.size() == 9);
  REQUIRE(exact.launches.size() == 9);
  for (std::size_t i : {0, 1, 2, 5}) {  // scale, reverse_blocks, the first halve and the histogram ran sampled
    INFO("launch " << i + 1);
    const auto counted = sampled.launches[i].value("counted_blocks", std::uint64_t{0});
    CHECK(counted > 0);
    CHECK(counted < 4096);
    CHECK(!exact.launches[i].contains("counted_blocks"));
    // Every block does the same work: the estimate is the exact count.
    for (const char* m : {"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum",
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "simt__global_st_bytes_requested.sum"})
      CHECK(sampled.launches[i]["metrics"].value(m, -1L) == exact.launches[i]["metrics"].value(m, -1L));
    CHECK(sampled.launches[i].value("sample_error", -1.0) == 0.0);  // and the blocks' spread says so
  }
  CHECK(sampled.err.find("(sampled: ") != std::string::npos);
  // The ramp: 64 threads x the sum of b / 2 over 729 blocks, exactly; sampled within 1%.
  const long fadd_exact = exact.launches[6]["metrics"].value("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 0L);
  const long fadd_sampled = sampled.launches[6]["metrics"].value("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum", 0L);
  CHECK(fadd_exact == 64L * 132496);
  CHECK(sampled.launches[6].value("counted_blocks", 0) > 0);
  CHECK(std::abs(double(fadd_sampled) / double(fadd_exact) - 1.0) < 0.01);
  // Its reported error: above zero (the blocks differ), and not beaten by the error made.
  const double reported = sampled.launches[6].value("sample_error", -1.0);
  CHECK(reported > 0);
  CHECK(std::abs(double(fadd_sampled) / double(fadd_exact) - 1.0) <= 3 * reported);
  // The table every block reads: 16 KiB from DRAM once, sampled or not (scaled by
  // blocks / counted blocks it would be thousands of times that).
  CHECK(exact.launches[7]["metrics"].value("dram__bytes_read.sum", 0L) == 16384);
  CHECK(sampled.launches[7].value("counted_blocks", 0) > 0);
  CHECK(sampled.launches[7]["metrics"].value("dram__bytes_read.sum", 0L) == 16384);
  // Rows zeroed (a memset) then accumulated into: their reads are no DRAM reads. The
  // uncounted blocks' memsets feed the estimate too, or it would count them.
  CHECK(sampled.launches[8].value("counted_blocks", 0) > 0);
  for (const char* m : {"dram__bytes_read.sum", "dram__bytes_write.sum"})
    CHECK(sampled.launches[8]["metrics"].value(m, -1L) == exact.launches[8]["metrics"].value(m, -2L));
  // The in-place repeats read what they write: never skipped, run (late or at once).
  for (std::size_t i = 3; i < 5; ++i) CHECK((repeat_of(sampled.launches[i]) == 0 || sampled.launches[i]["deferred"] == true));
}

TEST_CASE("an uncounted block's lanes take turns: a lane waiting for a flag its neighbour sets goes on") {
  // Without the plain twin's pace the uncounted blocks never end: `timeout` stops them.
  const std::string tiny = "SIMT_OPTIONS=sample_probe=0.002:sample_budget=0.005:races=off timeout 300 ";
  Exec e = exec("plain_twin_pace.cu", "", 0, tiny);
  CHECK(e.out == "512 of 512 blocks handed over\n");
  REQUIRE(e.launches.size() == 1);
  const auto counted = e.launches[0].value("counted_blocks", std::uint64_t{0});
  CHECK(counted > 0);
  CHECK(counted < 512);
}

TEST_CASE("--exact and --sample-budget contradict each other") {
  Exec e = exec("sampled_launches.cu", "--exact --sample-budget 5", 2);
  CHECK(e.err.find("contradict") != std::string::npos);
}
