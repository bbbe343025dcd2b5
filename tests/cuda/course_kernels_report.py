#!/usr/bin/env python3
"""Course kernels II: the simulator against the H200, kernel by kernel.

usage: course_kernels_report.py SIMT CASES NCU_CSV > report.md

CASES lists `simt run` arguments, one kernel run per line, in the order
tests/cuda/run_course_kernels_gpu.sh profiled them into NCU_CSV. Each line is run
in the simulator (`simt run LINE --json --no-races`; lines whose GEMMs are too large
to simulate here are given with their measured time only: `--skip-simulation N`
skips lines with --m >= N). A run's launches are paired with the GPU's in order; where
the GPU made a different number of launches (a library with other kernels) the run is
reported by its time only. Per run: the exact counters equal to ncu's, the predicted
and measured time (sums over the run's launches), and per launch the counters that
differ.
"""
import csv
import json
import shlex
import subprocess
import sys

sys.path.insert(0, __import__("os").path.dirname(__file__))
from compare_ncu import EXACT, SHORT  # noqa: E402

WITHIN = 0.25
EXTRA = ["smsp__inst_executed.sum", "sm__inst_executed_pipe_tensor.sum"]


def read_ncu(path):
    rows = [l for l in open(path) if l.startswith('"')]
    launches = {}
    for r in csv.DictReader(rows):
        i = int(r["ID"])
        l = launches.setdefault(i, {"name": r["Kernel Name"], "metrics": {}})
        v = r["Metric Value"].replace(",", "")
        try:
            v = float(v)
        except ValueError:
            continue
        if r["Metric Name"] == "gpu__time_duration.sum":
            v *= {"ns": 1e-9, "nsecond": 1e-9, "us": 1e-6, "usecond": 1e-6, "ms": 1e-3, "msecond": 1e-3}.get(
                r["Metric Unit"], 1e-9)
        l["metrics"][r["Metric Name"]] = v
    return [launches[i] for i in sorted(launches)]


def base(name):
    return name.split("(")[0].split("<")[0].replace("void ", "").split("::")[-1].strip()


def main():
    args = sys.argv[1:]
    skip = None
    if "--skip-simulation" in args:
        i = args.index("--skip-simulation")
        skip = int(args[i + 1])
        del args[i:i + 2]
    simt, cases_path, ncu_path = args
    cases = [l.strip() for l in open(cases_path) if l.strip() and not l.startswith("#")]
    gpu = read_ncu(ncu_path)
    runs = []
    for line in cases:
        words = shlex.split(line)
        big = skip and "--m" in words and int(words[words.index("--m") + 1]) >= skip
        sim = [] if big else json.loads(subprocess.run([simt, "run"] + words + ["--json", "--no-races"],
                                                       check=True, capture_output=True, text=True).stdout)
        runs.append((line, sim))
    # Pair: each run takes as many GPU launches as it made, unless the names say the
    # GPU made more (then up to the next run's first kernel).
    at, rows = 0, []
    for k, (line, sim) in enumerate(runs):
        if not sim:
            n = 1
        else:
            n = len(sim)
            names_match = all(at + j < len(gpu) and base(s["kernel"]) in gpu[at + j]["name"] for j, s in enumerate(sim))
            if not names_match:
                nxt = next((r[1][0]["kernel"] for r in runs[k + 1:] if r[1]), None)
                n = 0
                while at + n < len(gpu) and not (nxt and base(nxt) in gpu[at + n]["name"]):
                    n += 1
        rows.append((line, sim, gpu[at:at + n]))
        at += n
    if at != len(gpu):
        raise SystemExit(f"{len(gpu)} GPU launches, {at} paired")

    print("| run | launches sim / GPU | exact counters equal | predicted µs | measured µs | predicted / measured |")
    print("|---|---|---|---|---|---|")
    equal = compared = within = timed = 0
    details = []
    for line, sim, g in rows:
        measured = sum(l["metrics"]["gpu__time_duration.sum"] for l in g)
        pred = sum(s["time"]["predicted_s"] for s in sim) if sim else None
        eq = n = 0
        if sim and len(sim) == len(g):
            for s, gl in zip(sim, g):
                diffs = []
                for name in EXACT:
                    sv, gv = s["metrics"].get(name, 0), gl["metrics"].get(name)
                    if gv is None:
                        continue
                    n += 1
                    if abs(sv - gv) < 0.5:
                        eq += 1
                    else:
                        diffs.append(f"{SHORT.get(name, name)} {sv:.0f} (ncu {gv:.0f})")
                si, gi = s["metrics"].get("smsp__inst_executed.sum", 0), gl["metrics"].get("smsp__inst_executed.sum", 0)
                if diffs or gi:
                    details.append(f"- `{line}` {s['kernel']}: " + ("; ".join(diffs) if diffs else "all equal") +
                                   (f"; warp instructions estimated {si:.0f}, ncu {gi:.0f}" if gi else ""))
        equal += eq
        compared += n
        ratio = pred / measured if pred else None
        if ratio:
            timed += 1
            within += abs(ratio - 1) <= WITHIN
        print(f"| `{line}` | {len(sim) if sim else '-'} / {len(g)} | {f'{eq} of {n}' if n else '-'} | "
              f"{f'{pred * 1e6:.3g}' if pred else '-'} | {measured * 1e6:.3g} | {f'{ratio:.2f}' if ratio else '-'} |")
    print(f"\n**{equal} of {compared} exact counter values equal Nsight Compute's**; "
          f"**{within} of {timed} runs predicted within {WITHIN:.0%}** of the measured time.\n")
    print("Per launch, the counters that differ (simulator, ncu in brackets) and the instruction estimate:\n")
    print("\n".join(details))


if __name__ == "__main__":
    main()
