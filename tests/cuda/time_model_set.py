#!/usr/bin/env python3
"""The kernel time model against every H200 launch the project has measured, in one table.

usage: time_model_set.py collect SIMT OUT.json      # simulate every case once (slow: minutes)
       time_model_set.py report SIMT SIM.json [--markdown] [--all] [--require]
                                                    # re-price the kept counters (seconds)

`collect` runs each case of the validation sets below in the simulator and keeps its
launches' counters (everything `simt roofline --counters` reads). `report` prices those
counters with the current build's time model (`simt roofline --counters`), pairs each
launch with Nsight Compute's gpu__time_duration of the same launch on the H200, and
prints: the share of launches within 25%, every launch off by more than 2x, the ladders'
measured and predicted orders, and (with --all) every launch. Changing the model
(cost/kernel/) and re-running `report` takes seconds: no simulation. With --require it
exits 1 unless the validation set meets the kernel time model's targets: at least
REQUIRED_WITHIN of the launches within 25%, none off by more than 2x, every ladder in
measured order (ctest's time_model_set runs it on the kept counters).

Where a run made a different number of launches on the GPU (a library with kernels of
its own: CUB), the run is compared as one sum.
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "docs", "validation", "data")
sys.path.insert(0, HERE)
from course_kernels_report import base, read_ncu  # noqa: E402

WITHIN = 0.25
REQUIRED_WITHIN = 0.90
# (name, cases file, ncu CSV): every H200 timing run whose launches the simulator can
# reproduce. GEMMs of 1024^3 and more are measured but too slow to simulate here.
SETS = [
    ("hw1 defaults", "tests/cuda/counter_cases.txt", "docs/validation/data/ncu_kernels_time.csv"),
    ("hw1 larger", "tests/cuda/timing_cases.txt", "docs/validation/data/ncu_timing.csv"),
    ("hw1 sizes", "tests/cuda/timing_sizes.txt", "docs/validation/data/ncu_timing_sizes.csv"),
    ("course II", "tests/cuda/course_kernels_ii_cases.txt", "docs/validation/data/course_kernels_ii/ncu_cases.csv"),
    ("course II decode", "tests/cuda/course_kernels_ii_decode_cases.txt",
     "docs/validation/data/course_kernels_ii/ncu_decode_cases.csv"),
    ("course II lightseq", "tests/cuda/course_kernels_ii_lightseq_cases.txt",
     "docs/validation/data/course_kernels_ii/ncu_lightseq_cases.csv"),
    ("time model II", "tests/cuda/time_model_ii_cases.txt",
     "docs/validation/data/short_kernels/ncu_time_model_ii_cases.csv"),
]
# Runs measured before their kernel changed: the first course II run timed the decode
# kernels with their arrays in local memory; "course II decode" re-measured them.
SUPERSEDED = {("course II", c) for c in ["decode_contiguous", "decode_fp8_kv", "decode_gqa", "decode_paged"]}
# Microbenchmarks: they set constants, so they are reported apart from the kernels the
# model is validated on. Simulated by `simt exec` (one program, its launches in order).
PROBE = ("short-kernel probe", "tests/cuda/short_kernel_probe.cu",
         "docs/validation/data/short_kernels/ncu_short_kernel_probe_time.csv")
SKIP_M = 1024
# Each ladder: versions from the first lesson to the fastest, compared at one size.
LADDERS = [
    ["transpose_naive", "transpose_shared", "transpose_padded"],
    ["reduce_interleaved_divergent", "reduce_interleaved_strided", "reduce_sequential", "reduce_warp_shuffle"],
    ["matmul_naive", "matmul_coalesced", "matmul_tiled"],
    ["matmul_tiled", "matmul_blocktile_1d", "matmul_blocktile_2d", "matmul_vectorized", "matmul_warptile"],
    ["softmax_naive", "softmax_online", "softmax_block_per_row", "softmax_warp_per_row"],
    ["softmax_block_per_row", "softmax_lightseq"],
    ["softmax_backward_naive", "softmax_backward_warp_per_row"],
    ["softmax_backward_warp_per_row", "softmax_backward_lightseq"],
    ["layernorm_two_pass", "layernorm_welford", "layernorm_fused", "layernorm_vectorized"],
    ["layernorm_vectorized", "layernorm_half2"],
    ["layernorm_backward_naive", "layernorm_backward_fused"],
    ["attention_naive", "attention_flash"],
    ["bias_gelu_separate", "bias_gelu_fused"],
    ["bias_dropout_residual_separate", "bias_dropout_residual_fused"],
    ["gemv_fp16", "gemv_int8", "gemv_fp8", "gemv_int4"],
    ["moe_router_atomic", "moe_router_block_scan"],
]
# Measured within this of each other, two versions may swap (the rule).
TIE = 0.10


def cases(path):
    for line in open(os.path.join(ROOT, path)):
        line = line.strip()
        if line and not line.startswith("#"):
            yield line


def too_big(words):
    return "--m" in words and int(words[words.index("--m") + 1]) >= SKIP_M


def collect(simt, out):
    sim = json.load(open(out)) if os.path.exists(out) else {}  # resumes an interrupted collection
    for name, cases_path, _ in SETS:
        runs = sim.setdefault(name, {})
        todo = [c for c in cases(cases_path) if c not in runs]
        for k, line in enumerate(todo):
            words = shlex.split(line)
            if too_big(words):
                runs[line] = []
                continue
            cmd = [simt, "run"] + words + ["--json", "--no-races", "--device", "H200"]
            launches = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
            for l in launches:
                l.pop("lines", None)
                l.pop("time", None)
                l.pop("roofline", None)
                l.pop("check", None)
            runs[line] = launches
            print(f"[{name} {k + 1}/{len(todo)}] {line}: {len(launches)} launch(es)", file=sys.stderr, flush=True)
        json.dump(sim, open(out, "w"))
    name, source, _ = PROBE
    if name not in sim:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "launches.json")
            subprocess.run([simt, "exec", os.path.join(ROOT, source), "--no-races", "--device", "H200",
                            f"--json={path}"], check=True, capture_output=True, text=True)
            launches = json.load(open(path))
        for l in launches:
            for k in ("lines", "time", "roofline", "check"):
                l.pop(k, None)
        sim[name] = launches
        print(f"[{name}] {len(launches)} launches", file=sys.stderr, flush=True)
    json.dump(sim, open(out, "w"))


def reprice(simt, launches):
    """Predicted seconds per launch from the current build's model."""
    if not launches:
        return []
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(launches, f)
    try:
        out = subprocess.run([simt, "roofline", "--device", "H200", "--counters", f.name, "--json"], check=True,
                             capture_output=True, text=True).stdout
    finally:
        os.unlink(f.name)
    priced = json.loads(out)
    priced = priced if isinstance(priced, list) else priced.get("launches", [priced])
    return priced


def runs_beside_ncu(cases_path, ncu_path, runs):
    """(case, simulated launches, ncu's launches of the same run) for each case in
    order: ncu's launches are matched by kernel name; where the GPU made a different
    number (a library with kernels of its own), up to the next case's first kernel."""
    gpu = read_ncu(os.path.join(ROOT, ncu_path))
    case_list = list(cases(cases_path))
    at = 0
    for k, line in enumerate(case_list):
        sim = runs[line]
        if not sim:
            n = 1
        else:
            n = len(sim)
            if not all(at + j < len(gpu) and base(s["kernel"]) in gpu[at + j]["name"] for j, s in enumerate(sim)):
                nxt = next((runs[c][0]["kernel"] for c in case_list[k + 1:] if runs[c]), None)
                n = 0
                while at + n < len(gpu) and not (nxt and base(nxt) in gpu[at + n]["name"]):
                    n += 1
        yield line, sim, gpu[at:at + n]
        at += n
    if at != len(gpu):
        raise SystemExit(f"{ncu_path}: {len(gpu)} GPU launches, {at} paired")


def pair(name, cases_path, ncu_path, runs):
    """[(set, case, kernel, predicted launch json list, measured s)]: per launch where the
    GPU made as many launches as the simulator, else per run."""
    rows = []
    for line, sim, g in runs_beside_ncu(cases_path, ncu_path, runs):
        measured = [l["metrics"]["gpu__time_duration.sum"] for l in g]
        if not sim or (name, line) in SUPERSEDED:
            continue
        if len(sim) == len(g):
            for i, (s, m) in enumerate(zip(sim, measured)):
                rows.append((name, line, i + 1, s["kernel"], [s], m))
        else:
            rows.append((name, line, 0, sim[0]["kernel"] + " (run)", sim, sum(measured)))
    return rows


def fmt_us(s):
    return f"{s * 1e6:.3g}"


def pair_probe(launches):
    name, _, ncu_path = PROBE
    gpu = read_ncu(os.path.join(ROOT, ncu_path))
    if len(gpu) != len(launches):
        raise SystemExit(f"{ncu_path}: {len(gpu)} GPU launches, {len(launches)} simulated")
    return [(name, f"{l['kernel']} <<<{l['grid'][0]}, {l['block'][0]}>>>", 0, l["kernel"], [l],
             g["metrics"]["gpu__time_duration.sum"]) for l, g in zip(launches, gpu)]


def price(simt, rows):
    flat = [l for r in rows for l in r[4]]
    it = iter(reprice(simt, flat))
    results = []
    for (name, line, i, kernel, launches, measured) in rows:
        ps = [next(it) for _ in launches]
        pred = sum(p["time"]["predicted_s"] if "time" in p else p["predicted_s"] for p in ps)
        bound = ps[0]["time"]["bound"] if "time" in ps[0] else ps[0].get("bound", "")
        results.append((name, line, i, kernel, pred, measured, bound))
    return results


def report(simt, sim_path, markdown, show_all, require=False):
    sim = json.load(open(sim_path))
    rows = []
    for name, cases_path, ncu_path in SETS:
        if name in sim:
            rows += pair(name, cases_path, ncu_path, sim[name])
    within, n, off2, bad_ladders = print_summary(price(simt, rows), markdown, show_all)
    if PROBE[0] in sim:
        print(f"\n## Calibration: {PROBE[0]} ({PROBE[1]})\n")
        print_summary(price(simt, pair_probe(sim[PROBE[0]])), markdown, True)
    if require:
        failed = []
        if within < REQUIRED_WITHIN * n:
            failed.append(f"{within} of {n} launches within {WITHIN:.0%}, fewer than {REQUIRED_WITHIN:.0%}")
        if off2:
            failed.append(f"{off2} launches off by more than 2x")
        if bad_ladders:
            failed.append(f"{bad_ladders} ladders out of measured order")
        if failed:
            raise SystemExit("time model targets not met: " + "; ".join(failed))
        print(f"\ntime model targets met: at least {REQUIRED_WITHIN:.0%} within {WITHIN:.0%}, "
              "none off by more than 2x, every ladder in order")


def ladder_orders(results):
    """Each ladder at each size where all its versions were measured: orders agree?"""
    by = {}
    for (name, line, i, kernel, pred, measured, bound) in results:
        words = line.split()
        size = " ".join(words[1:])
        key = (words[0], size)
        p, m = by.get(key, (0, 0))
        by[key] = (p + pred, m + measured)
    out = []
    sizes = sorted({k[1] for k in by})
    for ladder in LADDERS:
        for size in sizes:
            if not all((v, size) in by for v in ladder):
                continue
            pts = [(v, *by[(v, size)]) for v in ladder]
            bad = []
            for a in range(len(pts)):
                for b in range(a + 1, len(pts)):
                    (va, pa, ma), (vb, pb, mb) = pts[a], pts[b]
                    if abs(ma - mb) <= TIE * max(ma, mb):
                        continue
                    if (pa - pb) * (ma - mb) < 0:
                        bad.append(f"{va} / {vb}")
            out.append((ladder, size, pts, bad))
    return out


def print_summary(results, markdown, show_all):
    n = len(results)
    within = sum(abs(p / m - 1) <= WITHIN for (*_, p, m, b) in results)
    off2 = [r for r in results if not 0.5 <= r[4] / r[5] <= 2]
    print(f"{within} of {n} launches within {WITHIN:.0%} ({within / n:.0%}); {len(off2)} off by more than 2x")
    for name in dict.fromkeys(r[0] for r in results):
        sub = [r for r in results if r[0] == name]
        w = sum(abs(r[4] / r[5] - 1) <= WITHIN for r in sub)
        print(f"  {name:<20} {w:>3} of {len(sub):<3}")
    ladders = ladder_orders(results)
    good = sum(not bad for *_, bad in ladders)
    print(f"{good} of {len(ladders)} ladders in measured order (versions within {TIE:.0%} may swap)")
    for ladder, size, pts, bad in ladders:
        if bad:
            print(f"  out of order at '{size or 'defaults'}': {', '.join(bad)}  (" +
                  ", ".join(f"{v} {fmt_us(p)}/{fmt_us(m)}" for v, p, m in pts) + " us predicted/measured)")
    show = results if show_all else sorted(off2 + [r for r in results if r not in off2 and
                                                   abs(r[4] / r[5] - 1) > WITHIN], key=lambda r: r[4] / r[5])
    if markdown:
        print("\n| set | run | launch | kernel | bound | predicted µs | measured µs | predicted / measured |")
        print("|---|---|---|---|---|---|---|---|")
    else:
        print(f"\n{'run':<48} {'#':>2} {'bound':<11} {'pred us':>9} {'meas us':>9} {'ratio':>6}")
    for (name, line, i, kernel, pred, measured, bound) in show:
        ratio = pred / measured
        flag = "" if abs(ratio - 1) <= WITHIN else (" 2x" if not 0.5 <= ratio <= 2 else " miss")
        if markdown:
            print(f"| {name} | `{line}` | {i or 'all'} | {kernel} | {bound} | {fmt_us(pred)} | {fmt_us(measured)} | "
                  f"{ratio:.2f}{flag} |")
        else:
            print(f"{line[:48]:<48} {i or '':>2} {bound:<11} {fmt_us(pred):>9} {fmt_us(measured):>9} {ratio:6.2f}{flag}")
    return within, n, len(off2), len(ladders) - good


def main():
    args = sys.argv[1:]
    if len(args) >= 3 and args[0] == "collect":
        collect(args[1], args[2])
    elif len(args) >= 3 and args[0] == "report":
        report(args[1], args[2], "--markdown" in args, "--all" in args, "--require" in args)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
