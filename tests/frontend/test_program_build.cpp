// How `simt exec` builds and runs a program, beyond the counters: what nvcc
// includes implicitly, -I and -D, the exit status, and the program's lifetime.
#include "frontend_test_util.hpp"

#include <doctest/doctest.h>

#include <csignal>
#include <string>

using namespace simt::frontend_test;

TEST_CASE("a .cu file that includes nothing builds, as under nvcc") {
  Exec e = exec(kTests + "no_includes.cu");
  CHECK(e.run.status == 0);
  CHECK(e.launches.size() == 1);
}

TEST_CASE("-I and -D reach the compiler; a missing directory is a usage error") {
  Exec e = exec(kTests + "include_dir_user.cu", "clang", "-I " + kTests + "include_dir -D FACTOR=3");
  CHECK(e.run.status == 0);
  CHECK(e.run.out == "y[5] = 15\n");
  Exec five = exec(kTests + "include_dir_user.cu", "clang", "-I" + kTests + "include_dir -DFACTOR=5");
  CHECK(five.run.out == "y[5] = 25\n");  // a different -D is a different build, not the cached one
  Exec missing = exec(kTests + "include_dir_user.cu", "clang", "-I /nonexistent/dir -D FACTOR=3");
  CHECK(missing.run.status == 2);
  CHECK(missing.stderr_.find("-I /nonexistent/dir: no such directory") != std::string::npos);
}

TEST_CASE("a program that exits 0 after a failed launch makes simt exec exit 1") {
  Exec e = exec(kTests + "launch_error_exit0.cu");
  CHECK(e.run.out == "main returns 0\n");
  CHECK(e.run.status == 1);
  CHECK(e.stderr_.find("exited 0, but 1 launch had errors") != std::string::npos);
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
