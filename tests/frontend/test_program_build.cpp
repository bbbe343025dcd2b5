// How `simt exec` builds and runs a program, beyond the counters: what nvcc
// includes implicitly, -I and -D, the exit status, and the program's lifetime.
#include "frontend_test_util.hpp"
#include "sim/math/cuda_math.hpp"
#include "sim/math/mufu_tables.hpp"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <csignal>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <utility>
#include <vector>

using namespace simt::frontend_test;

TEST_CASE("a .cu file that includes nothing builds, as under nvcc") {
  Exec e = exec(kTests + "no_includes.cu");
  CHECK(e.run.status == 0);
  CHECK(e.launches.size() == 1);
}

TEST_CASE("-I and -D reach the compiler; a missing directory is a usage error") {
  Exec e = exec(kTests + "include_dir_user.cu", "-I " + kTests + "include_dir -D FACTOR=3");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "y[5] = 15\n");
  Exec five = exec(kTests + "include_dir_user.cu", "-I" + kTests + "include_dir -DFACTOR=5");
  CHECK(five.run.out == "y[5] = 25\n");  // a different -D is a different build, not the cached one
  Exec missing = exec(kTests + "include_dir_user.cu", "-I /nonexistent/dir -D FACTOR=3");
  CHECK(missing.run.status == 2);
  CHECK(missing.stderr_.find("-I /nonexistent/dir: no such directory") != std::string::npos);
}

TEST_CASE("a program that exits 0 after a failed launch makes simt exec exit 1") {
  Exec e = exec(kTests + "launch_error_exit0.cu");
  CHECK(e.run.out == "main returns 0\n");
  CHECK(e.run.status == 1);
  CHECK(e.stderr_.find("exited 0, but 1 launch had errors") != std::string::npos);
}

TEST_CASE("a program stripped of its symbol table says so at its first launch") {
  const std::string bin = temp("stripped");
  REQUIRE(run(std::string(SIMT_BIN) + " cc " + kTests + "no_includes.cu -o " + bin + " 2>&1").status == 0);
  // strip --strip-debug keeps the symbol table: nothing to say
  REQUIRE(run("strip --strip-debug " + bin).status == 0);
  CHECK(run(bin + " 2>&1").out.find("no symbol table") == std::string::npos);
  REQUIRE(run("strip " + bin).status == 0);
  CHECK(run(bin + " 2>&1").out.find("has no symbol table (it was stripped)") != std::string::npos);
  std::remove(bin.c_str());
}

TEST_CASE("the simulated program dies with simt exec") {
  const std::string pid_file = temp("sleeper.pid");
  // Start simt exec, wait for the program to write its pid, kill simt (not the
  // program), then ask whether the program is still there.
  const std::string script =
      std::string(SIMT_BIN) + " exec " + kTests + "sleeper.cu -- " + pid_file + " >/dev/null 2>&1 & simt=$!; " +
      "for i in $(seq 600); do [ -s " + pid_file + " ] && break; sleep 0.1; done; " +
      "kill $simt; wait $simt 2>/dev/null; sleep 0.5; " +
      "p=$(cat " + pid_file + "); " +
      // A killed program whose parent died stays a zombie until init reaps it: dead.
      "if [ -d /proc/$p ] && ! grep -q \"^State:.*Z\" /proc/$p/status; then echo alive; kill $p; else echo gone; fi";
  Run r = run("sh -c '" + script + "'");
  CHECK(r.out == "gone\n");
  std::remove(pid_file.c_str());
}

namespace {

// A GPU-results directory as validate_gpu.sh writes it, made from a simulated run
// of the same program: its digests are what a bit-identical GPU would give.
std::string results_from_simulator(const std::string& file) {
  const std::string dir = temp("gpu-results");
  run("rm -rf " + dir + " && mkdir -p " + dir);
  run("SIMT_OPTIONS=validate_digests=" + dir + "/gpu.digests " + SIMT_BIN + " exec " + file + " >/dev/null 2>&1");
  return dir;
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

TEST_CASE("simt validate: memory compared bit for bit, counters against ncu's CSV") {
  const std::string file = kTests + "typedef_element.cu";
  const std::string dir = results_from_simulator(file);
  const std::string digests = read(dir + "/gpu.digests");
  REQUIRE(digests.rfind("launch 1 error 0 kernel add\nalloc 1 16384 ", 0) == 0);

  Run same = run(std::string(SIMT_BIN) + " validate " + file + " --gpu-results " + dir + " 2>/dev/null");
  CHECK(same.status == 0);
  CHECK(same.out.find("same: 3 allocations bit-identical") != std::string::npos);
  CHECK(same.out.find("1/1 launches identical (memory; no ncu here") != std::string::npos);

  // ncu's CSV as the H200 printed it for this program, one counter planted wrong.
  const std::string row = "\"0\",\"1\",\"gpu_prog\",\"h\",\"add(const float *, const float *, float *, int)\",\"1\","
                          "\"7\",\"(256, 1, 1)\",\"(16, 1, 1)\",\"0\",\"9.0\",\"Command line profiler metrics\",";
  write(dir + "/ncu.csv",
        "==PROF== Connected to process 1\nc[4095] = 8190.0\n"
        "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
        "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n" +
            row + "\"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum\",\"\",\"256\"\n" + row +
            "\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\",\"sector\",\"1,024\"\n" + row +
            "\"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum\",\"inst\",\"4,095\"\n");
  Run counters = run(std::string(SIMT_BIN) + " validate " + file + " --gpu-results " + dir + " 2>/dev/null");
  CHECK(counters.status == 1);
  CHECK(counters.out.find("2/3 equal; smsp__sass_thread_inst_executed_op_fadd_pred_on.sum: 4096 on the simulator, "
                          "4095 on the GPU") != std::string::npos);

  // One bit of device memory different after the launch.
  std::remove((dir + "/ncu.csv").c_str());
  std::string planted = digests;
  const std::size_t hash = planted.find("alloc 3 16384 ") + 14;
  planted[hash] = planted[hash] == '0' ? '1' : '0';
  write(dir + "/gpu.digests", planted);
  Run differs = run(std::string(SIMT_BIN) + " validate " + file + " --gpu-results " + dir + " 2>/dev/null");
  CHECK(differs.status == 1);
  // No dumps in the planted directory: the difference is named, not measured in ulps.
  CHECK(differs.out.find("DIFFERENT: alloc #3 (16384 B) differs") != std::string::npos);
  run("rm -rf " + dir);
}

TEST_CASE("simt validate without a GPU and without results is skipped (77)") {
  Run r = run(std::string(SIMT_BIN) + " validate " + kTests + "no_includes.cu 2>&1");
  if (r.out.find("no GPU on this machine") == std::string::npos) return;  // a GPU runner: validated for real
  CHECK(r.status == 77);
}

TEST_CASE("refused launches return what CUDA 13 returns on the H200") {
  // tests/cuda/launch_errors_h200.txt: the nvcc build's output on the H200.
  Run r = run(std::string(SIMT_BIN) + " exec " + kSource + "/tests/cuda/launch_errors_main.cu 2>/dev/null");
  CHECK(r.out == read(kSource + "/tests/cuda/launch_errors_h200.txt"));
}

TEST_CASE("a kernel called as a host function launches nothing, as nvcc's stub does") {
  Exec e = exec(kTests + "kernel_called_from_host.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "0 1\n");
  CHECK(e.launches.size() == 1);
}

TEST_CASE("launches resolve the kernel as C++ does: deduced template arguments, host overloads, NULL") {
  Exec e = exec(kTests + "deduced_template_launch.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "6 12 9 ok\n");
  REQUIRE(e.launches.size() == 5);
  CHECK(e.launches[0]["kernel"] == "scale<float>");
  CHECK(e.launches[1]["kernel"] == "scale<double>");
  CHECK(e.launches[2]["kernel"] == "add_one");
}

TEST_CASE("host locals named gridDim and blockDim hide the built-in variables, as under nvcc") {
  Exec e = exec(kTests + "builtin_names_as_locals.cu");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "4032 4032\n");
  REQUIRE(e.launches.size() == 1);
  CHECK(e.launches[0]["grid"][0] == 4);
}

TEST_CASE("__trap() fails the launch with cudaErrorLaunchFailure, naming its line") {
  Exec e = exec(kTests + "trap.cu");
  CHECK(e.run.status == 1);  // the program exits 0 after a failed launch
  CHECK(e.run.out == "719 unspecified launch failure\n");
  CHECK(e.stderr_.find("__trap() in kernel check_positive, block (1,0,0), thread (8,0,0)") != std::string::npos);
  CHECK(e.stderr_.find("trap.cu:7") != std::string::npos);
}

TEST_CASE("fast-math functions count their out-of-range FMULs for the lanes that take them (ncu on the H200)") {
  // docs/validation/data/h200_run3/fast_math_slow_paths_ncu.csv: 48, 34 and 8.
  Exec e = exec(kTests + "fast_math_slow_paths.cu");
  REQUIRE(e.launches.size() == 3);
  const char* fmul = "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum";
  CHECK(metric(e.launches[0], fmul) == 32 + 2 * 8);  // __expf: 8 lanes of -1e8
  CHECK(metric(e.launches[1], fmul) == 32 + 2);      // __fdividef: 2 denormal divisors
  CHECK(metric(e.launches[2], fmul) == 2 * 4);       // rsqrtf: 4 zeros
}

TEST_CASE("CUDA math functions in device code give the H200's bits; host code keeps the C library's") {
  Exec e = exec(kTests + "cuda_math_bits.cu");
  REQUIRE(e.run.status == 0);
  // The H200's own output of the same program (nvcc 13 build, 2026-12-01).
  CHECK(e.run.out == read(kSource + "/docs/validation/data/mufu/cuda_math_bits_h200_stdout.txt"));
  const float inputs[8] = {-3.5f, -0.75f, 0.1f, 0.5f, 1.0f, 2.5f, 7.25f, 42.0f};
  using namespace simt::mufu;
  const Tables& t = tables(kEx2 | kRcp | kRsq);
  auto line = [&](const std::string& prefix, auto f) {
    std::string want = prefix;
    for (float x : inputs) want += fmt::format(" {:08x}", bits_of(f(x)));
    return want + "\n";
  };
  const std::string& out = e.run.out;
  CHECK(out.find(line("device expf", [&](float x) { return simt::mufu::expf(t, x); })) != std::string::npos);
  CHECK(out.find(line("device __expf", [&](float x) { return fast_expf(t, x); })) != std::string::npos);
  CHECK(out.find(line("device exp2f", [&](float x) { return simt::mufu::exp2f(t, x); })) != std::string::npos);
  CHECK(out.find(line("device tanhf", [&](float x) { return simt::mufu::tanhf(t, x); })) != std::string::npos);
  CHECK(out.find(line("device logf", [&](float x) { return simt::mufu::logf(std::fabs(x)); })) != std::string::npos);
  CHECK(out.find(line("device rsqrtf", [&](float x) { return simt::mufu::rsqrtf(t, std::fabs(x)); })) !=
        std::string::npos);
  CHECK(out.find(line("device __fdividef", [&](float x) { return fdividef(t, 1.0f, x); })) != std::string::npos);
  CHECK(out.find(line("device std::exp", [&](float x) { return simt::mufu::expf(t, -x); })) != std::string::npos);
  CHECK(out.find(line("host expf", [](float x) { return ::expf(x); })) != std::string::npos);
  // Functions of constants are folded as nvcc folds them, others get MUFU's bits.
  const Tables& t2 = tables(kEx2 | kLg2);
  const float pow_folded = simt::mufu::exp2f(t2, 5.97e-8f * float(std::log2(double(1.7f))));
  CHECK(out.find(fmt::format("folded 3e0ccdbb {:08x} {:08x}\n", bits_of(pow_folded), bits_of(fast_log2f(t2, 1.1f)))) !=
        std::string::npos);
  CHECK(bits_of(fast_log2f(t2, 1.1f)) == 0x3e0ccdc2u);  // MUFU's, not the folded value
  // Not the C library's value everywhere (expf(-0.75): CUDA 0x3ef1da08, glibc 0x3ef1da07).
  CHECK(line("", [&](float x) { return simt::mufu::expf(t, x); }) != line("", [](float x) { return ::expf(x); }));
  INFO(out);
}

TEST_CASE("sinf ... powf in device code give the H200's bits; host code keeps the C library's") {
  Exec e = exec(kTests + "cuda_math_bits2.cu");
  REQUIRE(e.run.status == 0);
  const float inputs[8] = {-3.5f, -0.75f, 0.1f, 0.5f, 1.0f, 2.5f, 7.25f, 123456.0f};
  using namespace simt::mufu;
  const Tables& t = tables(kEx2 | kRcp | kRsq);
  auto line = [&](const std::string& prefix, auto f) {
    std::string want = prefix;
    for (float x : inputs) {
      const float v = f(x);
      want += fmt::format(" {:08x}", v != v ? 0x7fffffffu : bits_of(v));  // device code's NaN is the GPU's
    }
    return want + "\n";
  };
  auto sc = [](float x, bool sine) {
    float s, c;
    simt::mufu::sincosf(x, &s, &c);
    return sine ? s : c;
  };
  const std::vector<std::pair<std::string, std::function<float(float)>>> want = {
      {"sinf", [](float x) { return simt::mufu::sinf(x); }},
      {"cosf", [](float x) { return simt::mufu::cosf(x); }},
      {"sincosf.sin", [&](float x) { return sc(x, true); }},
      {"sincosf.cos", [&](float x) { return sc(x, false); }},
      {"tanf", [&](float x) { return simt::mufu::tanf(t, x); }},
      {"coshf", [&](float x) { return simt::mufu::coshf(t, x); }},
      {"sinhf", [&](float x) { return simt::mufu::sinhf(t, x); }},
      {"erff", [&](float x) { return simt::mufu::erff(t, x); }},
      {"erfcf", [&](float x) { return simt::mufu::erfcf(t, x); }},
      {"log2f", [](float x) { return simt::mufu::log2f(std::fabs(x)); }},
      {"log10f", [](float x) { return simt::mufu::log10f(std::fabs(x)); }},
      {"log1pf", [](float x) { return simt::mufu::log1pf(x); }},
      {"expm1f", [&](float x) { return simt::mufu::expm1f(t, x); }},
      {"exp10f", [&](float x) { return simt::mufu::exp10f(t, x); }},
      {"atanf", [&](float x) { return simt::mufu::atanf(t, x); }},
      {"powf(|x|,2.5)", [&](float x) { return simt::mufu::powf(t, std::fabs(x), 2.5f); }},
      {"powf(2.5,x)", [&](float x) { return simt::mufu::powf(t, 2.5f, x); }},
      {"std::sin", [](float x) { return simt::mufu::sinf(x); }},
      {"std::pow(x,3)", [&](float x) { return simt::mufu::powf(t, x, 3.0f); }},
  };
  const std::string& out = e.run.out;
  INFO(out);
  for (const auto& [name, f] : want) {
    INFO(name);
    CHECK(out.find(line("device " + name, f)) != std::string::npos);
  }
  CHECK(out.find(line("host sinf", [](float x) { return ::sinf(x); })) != std::string::npos);
  // And the H200's own output of the same program (nvcc 13 build, 2026-12-01).
  CHECK(out == read(kSource + "/docs/validation/data/mufu/cuda_math_bits2_h200_stdout.txt"));
}

TEST_CASE("asinf ... hypotf and the double exp, log, tanh in device code give the H200's bits") {
  Exec e = exec(kTests + "cuda_math_bits3.cu");
  REQUIRE(e.run.status == 0);
  const float inputs[8] = {-3.5f, -0.75f, 0.1f, 0.5f, 1.0f, 2.5f, 7.25f, 123456.0f};
  const double dinputs[8] = {-3.5, -0.75, 0.1, 0.5, 1.0, 2.5, 7.25, 700.5};
  using namespace simt::mufu;
  const Tables& t = tables(kEx2 | kRcp | kRsq | kLg2);
  auto line = [&](const std::string& prefix, auto f) {
    std::string want = prefix;
    for (float x : inputs) {
      const float v = f(x);
      want += fmt::format(" {:08x}", v != v ? 0x7fffffffu : bits_of(v));
    }
    return want + "\n";
  };
  auto dline = [&](const std::string& prefix, auto f) {
    std::string want = prefix;
    for (double x : dinputs) want += fmt::format(" {:016x}", bits_of(f(x)));
    return want + "\n";
  };
  const std::vector<std::pair<std::string, std::function<float(float)>>> want = {
      {"asinf(x/8)", [&](float x) { return simt::mufu::asinf(t, x * 0.125f); }},
      {"acosf(x/8)", [&](float x) { return simt::mufu::acosf(t, x * 0.125f); }},
      {"atan2f(x,0.7)", [](float x) { return simt::mufu::atan2f(x, 0.7f); }},
      {"atan2f(-1.5,x)", [](float x) { return simt::mufu::atan2f(-1.5f, x); }},
      {"cbrtf", [&](float x) { return simt::mufu::cbrtf(t, x); }},
      {"rcbrtf", [&](float x) { return simt::mufu::rcbrtf(t, x); }},
      {"hypotf(x,2.5)", [](float x) { return simt::mufu::hypotf(x, 2.5f); }},
      {"std::cbrt", [&](float x) { return simt::mufu::cbrtf(t, x); }},
      {"std::atan2(x,-0.25)", [](float x) { return simt::mufu::atan2f(x, -0.25f); }},
  };
  const std::string& out = e.run.out;
  INFO(out);
  for (const auto& [name, f] : want) {
    INFO(name);
    CHECK(out.find(line("device " + name, f)) != std::string::npos);
  }
  CHECK(out.find(dline("device exp", [](double x) { return simt::mufu::exp(x); })) != std::string::npos);
  CHECK(out.find(dline("device log(|x|)", [&](double x) { return simt::mufu::log(t, std::fabs(x)); })) != std::string::npos);
  CHECK(out.find(dline("device tanh", [&](double x) { return simt::mufu::tanh(t, x); })) != std::string::npos);
  CHECK(out.find(dline("device std::exp(-x)", [](double x) { return simt::mufu::exp(-x); })) != std::string::npos);
  // Constant arguments: folded to the correctly rounded value, cbrtf and rcbrtf only
  // their lg2.approx (hypotf is IEEE operations either way).
  const float l = static_cast<float>(std::log2(double(0.3f)));
  const std::string folded = fmt::format(
      "folded {:08x} {:08x} {:08x} {:08x} {:08x} {:08x} {:016x} {:016x} {:016x}\n",
      bits_of(static_cast<float>(std::asin(double(0.3f)))), bits_of(static_cast<float>(std::acos(double(0.3f)))),
      bits_of(static_cast<float>(std::atan2(double(0.3f), double(0.7f)))), bits_of(cbrtf_from_log2(t, 0.3f, l)),
      bits_of(rcbrtf_from_log2(t, 0.3f, l)), bits_of(simt::mufu::hypotf(0.3f, 0.7f)), bits_of(std::exp(0.3)),
      bits_of(std::log(0.3)), bits_of(std::tanh(0.3)));
  CHECK(out.find(folded) != std::string::npos);
  CHECK(out.find(line("host cbrtf", [](float x) { return ::cbrtf(x); })) != std::string::npos);
  // And the H200's own output of the same program (nvcc 13 build, 2026-12-01).
  CHECK(out == read(kSource + "/docs/validation/data/mufu/cuda_math_bits3_h200_stdout.txt"));
}

TEST_CASE("device code's single-precision NaNs are the GPU's 0x7fffffff; host code keeps x86's") {
  Exec e = exec(kTests + "nan_bits.cu");
  REQUIRE(e.run.status == 0);
  CHECK(e.run.out ==
        "device 7fffffff 7fffffff 7fffffff 7fffffff 7fffffff 7fffffff 7fffffff\n"
        "host 0/0 ffc00000\n");
  CHECK(e.run.out == read(kSource + "/docs/validation/data/mufu/nan_bits_h200_stdout.txt"));  // the H200's
}

TEST_CASE("NaNs made in unrolled loops, kept in registers, are the GPU's 0x7fffffff too") {
  // Each select after an FP operation must survive code generation; without them
  // (pass_no_canonical_nan) the four values are x86's 0xffc00000.
  Exec e = exec(kTests + "nan_bits_loops.cu");
  REQUIRE(e.run.status == 0);
  CHECK(e.run.out == "device 7fffffff 7fffffff 7fffffff 7fffffff\n");
}

TEST_CASE("a warp collective orders a warp's reads of a shared word before one lane's write; other warps race") {
  // llm.c softmax_forward kernel 4 at 32 threads was reported before readers of one
  // warp were told apart from readers of several.
  Exec e = exec(kTests + "warp_ordered_shared.cu");
  CHECK(e.run.out == "one warp: no error\ntwo warps: unspecified launch failure\n");
  REQUIRE(e.launches.size() == 2);
  CHECK(e.launches[0]["diagnostics"].empty());
  CHECK(e.launches[1]["error"] == 719);
  CHECK(e.stderr_.find("data race on shared memory") != std::string::npos);
}

TEST_CASE("simt exec --no-races: no race detection (and no race shadow) for programs too large to check") {
  Exec e = exec(kTests + "warp_ordered_shared.cu", "--no-races");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "one warp: no error\ntwo warps: no error\n");
}
