#!/usr/bin/env python3
"""Checks the GPU-validation scripts (tests/cuda/*.py) on synthetic data, so a
broken script is found here rather than on the GPU machine."""
import os
import struct
import subprocess
import sys
import tempfile

CUDA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cuda")


def write_f32(path, values):
    with open(path, "wb") as f:
        f.write(struct.pack(f"<{len(values)}f", *values))


def write_bits(path, bits):
    with open(path, "wb") as f:
        f.write(struct.pack(f"<{len(bits)}I", *bits))


def compare(sim, gpu, tolerances=None):
    cmd = [sys.executable, os.path.join(CUDA, "compare_outputs.py"), sim, gpu]
    if tolerances:
        cmd += ["--tolerances", tolerances]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout


def ncu_csv(path, durations_ns):
    with open(path, "w") as f:
        f.write('==PROF== noise\n"ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\n')
        for i, ns in enumerate(durations_ns):
            f.write(f'"{i}","k","gpu__time_duration.sum","ns","{ns:,.0f}"\n')


def check_time_model_scripts(d, check):
    import json
    sys.path.insert(0, CUDA)
    import calibrate_time_model as cal
    # Synthetic micro durations built from known constants: the fit must return them.
    clk, launch = 1.98e9, 1.7e-6
    copy = lambda n4: launch + 2 * 16 * n4 / (0.8 * 4.8e12)
    lines = lambda n: launch + (n / 132) * 3.5 / clk
    ns = [launch] * 3 + [copy(4 << 20), copy(16 << 20), lines(1 << 20), lines(4 << 20),
                         2e-6, 2e-6 + 64 * 256 * 31 / clk, 2e-6 + 1024 * 28 / clk, 2e-6 + 4096 * 28 / clk,
                         2e-6 + 1024 * 24 / clk, 2e-6 + 4096 * 24 / clk,
                         2e-6 + 1024 * 22 / clk, 2e-6 + 4096 * 22 / clk,
                         launch + 1024 * 256 / (0.5 * clk), launch + 4096 * 256 / (0.5 * clk),
                         launch + 10e-6, launch + 20e-6]
    ns += [launch + 10e-6, launch + 40e-6] * 4  # integer, division, L1-capacity, in-L2 stores: need ncu counts
    path = os.path.join(d, "micro.csv")
    ncu_csv(path, [t * 1e9 for t in ns])
    r = cal.fit_micro(cal.read_ncu_times(path), clk, 4.8e12)
    check("micro fit recovers DRAM efficiency", abs(r["dram_efficiency"] - 0.8) < 0.01)
    check("micro fit recovers cycles per line", abs(r["l1_l2_clk_per_line"] - 3.5) < 0.05)
    check("micro fit recovers shared latency", abs(r["shared_latency_clk"] - 28) < 0.5)
    check("micro fit recovers barrier latency", abs(r["barrier_latency_clk"] - 22) < 0.5)
    check("micro fit recovers the atomic rate", abs(r["atomic_same_address_clk"] - 0.5) < 0.01)
    check("micro fit sees a second wave", abs(r["two_wave_ratio"] - 2) < 0.01)
    check("a run before the global chain has no load latencies", "l2_hit_latency_clk" not in r)
    check("micro_l1_reuse gives a loop's round per iteration", abs(r["l2_reuse_round_clk"] - 40e-6 * clk / 512) < 0.1)
    # The dependent-load rings: 64 lines (L1 hits, 35 cycles a hop) and 8192 lines
    # (a first lap from DRAM at 800 cycles, then L2 hits at 250); then the load loops
    # over the same rings (40 and 200 cycles an iteration).
    first_lap = 8192 * 800 / clk
    ns += [launch + 16384 * 35 / clk, launch + 65536 * 35 / clk,
           launch + first_lap + 8192 * 250 / clk, launch + first_lap + 57344 * 250 / clk,
           launch + 16384 * 40 / clk, launch + 65536 * 40 / clk,
           launch + first_lap + 8192 * 200 / clk, launch + first_lap + 57344 * 200 / clk]
    ncu_csv(path, [t * 1e9 for t in ns])
    r = cal.fit_micro(cal.read_ncu_times(path), clk, 4.8e12)
    check("micro fit recovers the L1-hit latency", abs(r["l1_hit_latency_clk"] - 35) < 0.5)
    check("micro fit recovers the L2-hit latency", abs(r["l2_hit_latency_clk"] - 250) < 1)
    check("micro fit recovers a load loop's round", abs(r["l2_load_round_clk"] - 200) < 1
          and abs(r["l1_load_round_clk"] - 40) < 0.5)
    # The report pairs launches in order and counts the ones within 25%.
    cases = os.path.join(d, "cases.txt")
    with open(cases, "w") as f:
        f.write("# two kernels\ntranspose_naive\ntranspose_shared\ntranspose_padded\n")
    sim = {c: [{"kernel": c, "grid": [1, 1, 1], "block": [32, 1, 1],
                "time": {"predicted_s": p, "bound": "dram"}}]
           for c, p in [("transpose_naive", 10e-6), ("transpose_shared", 8e-6), ("transpose_padded", 4e-6)]}
    sim_path = os.path.join(d, "sim.json")
    json.dump(sim, open(sim_path, "w"))
    ncu = os.path.join(d, "timing.csv")
    ncu_csv(ncu, [18000, 7500, 3900])
    out = subprocess.run([sys.executable, os.path.join(CUDA, "time_model_report.py"), "report", sim_path, cases, ncu],
                         capture_output=True, text=True).stdout
    check("time report counts launches within 25%", "**2 of 3 launches within 25%**" in out)
    check("time report sees the transposes in order", "transposes: in order" in out)


def check_cold_start_report(d, check):
    # The probe's 30 launches flushed and warm: 1-hop chases at 2,000 ns, 32-hop ones
    # 31 x 345 ns later when flushed (683 clocks a hop at 1.98 GHz), 31 x 145 warm.
    cold = os.path.join(d, "cold")
    os.makedirs(cold)
    for mode, hop_ns in (("all", 345), ("none", 145)):
        ns = [2000.0] * 30
        for first in (9, 15, 21):  # the three chase kinds, "new" and "again"
            for k in (0, 1):
                ns[first + 4 + k] = 2000.0 + 31 * hop_ns
        ncu_csv(os.path.join(cold, f"cold_start_probe.{mode}.csv"), ns)
    ncu_csv(os.path.join(cold, "timing_sizes.all.csv"), [3000, 5000])
    ncu_csv(os.path.join(cold, "timing_sizes.none.csv"), [3000, 4000])
    r = subprocess.run([sys.executable, os.path.join(CUDA, "cold_start_report.py"), cold],
                       capture_output=True, text=True)
    check("cold-start report: a flushed hop's clocks", "683 clk" in r.stdout and r.returncode == 0)
    check("cold-start report: a warm hop's clocks", "287 clk" in r.stdout)
    check("cold-start report: only the launch that differs by more than 10% is listed",
          "flushed      5.00 us" in r.stdout and "3.00 us" not in r.stdout.split("timing_sizes")[1])


def check_launch_idle_report(d, check):
    # Two launches: 5,000 cycles elapsed with the busiest SM active 1,000 (idle 4,000),
    # and one missing a metric, which is left out.
    path = os.path.join(d, "idle.csv")
    with open(path, "w") as f:
        f.write('==PROF== noise\n"ID","Kernel Name","Grid Size","Block Size","Metric Name","Metric Unit","Metric Value"\n')
        for name, value in (("gpu__time_duration.sum", "2,500"), ("gpc__cycles_elapsed.max", "5,000"),
                            ("sm__cycles_active.avg", "800"), ("sm__cycles_active.max", "1,000")):
            f.write(f'"0","empty(int)","(1, 1, 1)","(32, 1, 1)","{name}","x","{value}"\n')
        f.write('"1","partial()","(1, 1, 1)","(32, 1, 1)","gpu__time_duration.sum","ns","9"\n')
    r = subprocess.run([sys.executable, os.path.join(CUDA, "launch_idle_report.py"), path],
                       capture_output=True, text=True)
    rows = [line.split() for line in r.stdout.splitlines() if line.split() and line.split()[0].isdigit()]
    check("launch-idle report: elapsed less the busiest SM's active cycles",
          r.returncode == 0 and len(rows) == 1 and rows[0][1] == "empty" and rows[0][-1] == "4000"
          and rows[0][-5] == "2.50")


def check_l1_row_walk_report(d, check):
    # ncu's raw page (--print-units base): a header row, a units row, one launch of a
    # row walk: 1,024 requests an SM of 32 lines (one sector each), 28 of 32 sectors
    # hits, the busiest SM active 65,536 cycles: 2 clocks a line.
    path = os.path.join(d, "raw.csv")
    req = 132 * 1024
    cols = ["ID", "Kernel Name", "Grid Size", "Block Size", "gpu__time_duration.sum", "sm__cycles_active.max",
            "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"]
    units = ["", "", "", "", "nsecond", "cycle", "", "sector", "sector"]
    row = ["0", "row_walk(const float *, float *, int, int, unsigned int)", "(132, 1, 1)", "(1024, 1, 1)",
           "33,100", "65,536", f"{req:,}", f"{32 * req:,}", f"{28 * req:,}"]
    with open(path, "w") as f:
        f.write("==PROF== noise\n")
        for r in (cols, units, row):
            f.write(",".join(f'"{x}"' for x in r) + "\n")
    r = subprocess.run([sys.executable, os.path.join(CUDA, "l1_row_walk_report.py"), path],
                       capture_output=True, text=True)
    rows = [line.split() for line in r.stdout.splitlines() if line.startswith("row_walk")]
    check("L1 row-walk report: clocks a line and the hit rate",
          r.returncode == 0 and len(rows) == 1 and rows[0][-1] == "2.00" and rows[0][-2] == "87.5"
          and rows[0][-3] == "32.0" and rows[0][3] == "33.1")


def main():
    failures = []

    def check(name, ok):
        print(("ok   " if ok else "FAIL ") + name)
        if not ok:
            failures.append(name)

    with tempfile.TemporaryDirectory() as d:
        sim, gpu = os.path.join(d, "sim"), os.path.join(d, "gpu")
        os.makedirs(sim)
        os.makedirs(gpu)
        write_f32(os.path.join(sim, "k.out.f32"), [1.0, 2.0, 3.0])
        write_f32(os.path.join(gpu, "k.out.f32"), [1.0, 2.0, 3.0])
        status, out = compare(sim, gpu)
        check("identical buffers match", status == 0 and "bit-identical" in out)

        write_bits(os.path.join(sim, "k.nan.f32"), [0x7FC00000, 0x3F800000])
        write_bits(os.path.join(gpu, "k.nan.f32"), [0x7FFFFFFF, 0x3F800000])
        status, out = compare(sim, gpu)
        check("NaN equals NaN whatever the payload", status == 0)

        write_bits(os.path.join(gpu, "k.out.f32"), [0x3F800000, 0x40000001, 0x40400000])
        status, out = compare(sim, gpu)
        check("a one-ulp difference is reported with its index", status == 1 and "max 1 ulp" in out and "[1]" in out)

        tol = os.path.join(d, "tolerances.txt")
        with open(tol, "w") as f:
            f.write("# comment\nk.out 1 float atomics\n")
        status, out = compare(sim, gpu, tol)
        check("a listed tolerance accepts it, with the reason", status == 0 and "float atomics" in out)

        os.remove(os.path.join(gpu, "k.nan.f32"))
        status, out = compare(sim, gpu, tol)
        check("a buffer missing on the GPU side fails", status == 1 and "missing" in out)

        sass = os.path.join(d, "x.sass")
        with open(sass, "w") as f:
            f.write("\t\tFunction : _Z12matmul_tiledILi32EEvPKfS1_Pfi\n"
                    "        /*0080*/              @!P0 LDS.128 R4, [R2] ;\n"
                    "        /*0090*/                   FFMA R1, R2, R3, R1 ;\n"
                    "        /*00a0*/                   LDS R5, [R3] ;\n")
        r = subprocess.run([sys.executable, os.path.join(CUDA, "sass_summary.py"), sass, "matmul_tiled"],
                           capture_output=True, text=True)
        check("SASS summary finds a template kernel by its base name",
              "LDS.128 x1" in r.stdout and "FFMA x1" in r.stdout and "LDS x1" in r.stdout)

        check_time_model_scripts(d, check)
        check_cold_start_report(d, check)
        check_launch_idle_report(d, check)
        check_l1_row_walk_report(d, check)

    if failures:
        sys.exit(f"{len(failures)} failed")
    print("all checks passed")


if __name__ == "__main__":
    main()
