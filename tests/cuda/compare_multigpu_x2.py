#!/usr/bin/env python3
"""Issue 31's report: simtlab's predictions against two real H200s.

    python3 tests/cuda/compare_multigpu_x2.py SIM_DIR GPU_DIR [--tol 0.25]
    python3 tests/cuda/compare_multigpu_x2.py SIM_DIR      (the predictions alone)

SIM_DIR: tests/cuda/run_multigpu_sim.sh's output (docs/validation/data/multigpu_x2/sim).
GPU_DIR: tests/cuda/run_multigpu_x2.sh's, a directory or its multigpu_x2_gpu.tar.gz.
Prints: (1) output hashes of tests/cuda/nccl_sweep.cu, equal or not, per point;
(2) predicted vs measured time per (collective, dtype, size) and the fraction within
--tol (25%) per collective and overall; peer copies; NCCL's own algorithm/protocol where
its tuning log names them; (3) tests/multigpu/nccl_collectives.cu's hashes and checks;
(4) the kernels/parallel programs: PASS/FAIL, weight hashes, steady-state ms/step
(mean of steps 2..), DDP's exposed communication and the pipeline's bubble per stage.
Only points present on both sides are compared; the rest are counted and named.
"""
import argparse
import collections
import csv
import io
import os
import re
import sys
import tarfile
import tempfile


def open_dir(path):
    if os.path.isdir(path):
        return path
    tmp = tempfile.mkdtemp(prefix="mgpu_")
    with tarfile.open(path) as t:
        t.extractall(tmp)
    sub = os.path.join(tmp, "gpu")
    return sub if os.path.isdir(sub) else tmp


def read(d, name):
    p = os.path.join(d, name)
    return open(p, errors="replace").read() if os.path.exists(p) else ""


def sweep(d):
    """{(op, dtype, bytes): row} from sweep.txt's CSV lines."""
    text = read(d, "sweep.txt")
    lines = [l for l in text.splitlines() if l.startswith("op,") or re.match(r"^[a-z_0-9]+,", l)]
    rows = {}
    for r in csv.DictReader(io.StringIO("\n".join(lines))):
        rows[(r["op"], r["dtype"], int(r["bytes"]))] = r
    head = [l for l in text.splitlines() if l.startswith("#")][:3]
    return rows, head


def tuning(d):
    """NCCL's choice per (func, bytes) from sweep_tuning.txt (NCCL_DEBUG_SUBSYS=TUNING, rank 0's lines:
    "AllReduce: 4194304 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}=..."; bytes = count x type size,
    the per-rank count for AllGather and ReduceScatter). The first line of a key wins (the float pass)."""
    got = {}
    for l in read(d, "sweep_tuning.txt").splitlines():
        m = re.search(r"NCCL INFO (\w+): (\d+) Bytes -> Algo (\w+) proto (\w+)", l)
        if m:
            got.setdefault((m.group(1), int(m.group(2))), (m.group(3), m.group(4)))
    return got


def fmt_bytes(b):
    for unit, s in ((1 << 30, "G"), (1 << 20, "M"), (1 << 10, "K")):
        if b >= unit and b % unit == 0:
            return f"{b // unit}{s}"
    return str(b)


def report_sweep(sim, gpu, tol):
    (s, shead), (g, ghead) = sweep(sim), sweep(gpu)
    print("## nccl_sweep\n")
    for h in shead[:1]:
        print("simulator:", h.lstrip("# "))
    for h in ghead[:2]:
        print("GPUs:     ", h.lstrip("# "))
    both = sorted(set(s) & set(g), key=lambda k: (k[0].startswith("peer"), k[0], k[1], k[2]))
    only = sorted(set(s) ^ set(g))
    if only:
        print(f"\n{len(only)} points on one side only (e.g. {', '.join(f'{o} {d} {fmt_bytes(b)}' for o, d, b in only[:4])})")

    print("\n### Data: FNV-1a of rank 0's and the last rank's output (host check ok/BAD per side)\n")
    print(f"{'op':18} {'dtype':6} {'points':>6} {'rank0 equal':>11} {'last equal':>10} {'checks ok sim/gpu':>18}")
    groups = collections.OrderedDict()
    for k in both:
        if s[k]["hash_rank0"] != "-" or g[k]["hash_rank0"] != "-":
            groups.setdefault(k[:2], []).append(k)
    bad = []
    for (op, dt), ks in groups.items():
        e0 = sum(s[k]["hash_rank0"] == g[k]["hash_rank0"] for k in ks)
        el = sum(s[k]["hash_last"] == g[k]["hash_last"] for k in ks)
        cs = sum(s[k]["check"] == "ok" for k in ks)
        cg = sum(g[k]["check"] == "ok" for k in ks)
        print(f"{op:18} {dt:6} {len(ks):6d} {e0:11d} {el:10d} {cs:>8d}/{cg:<9d}")
        bad += [k for k in ks if s[k]["hash_rank0"] != g[k]["hash_rank0"] or s[k]["hash_last"] != g[k]["hash_last"]]
    for k in bad:
        print(f"  differs: {k[0]} {k[1]} {fmt_bytes(k[2])}: sim {s[k]['hash_rank0']}/{s[k]['hash_last']}"
              f" gpu {g[k]['hash_rank0']}/{g[k]['hash_last']}")

    print(f"\n### Time per call, us: predicted (simtlab) vs measured; ratio = predicted / measured; * = within {tol:.0%}\n")
    tun = tuning(gpu)
    name = {"all_reduce": "AllReduce", "all_gather": "AllGather", "reduce_scatter": "ReduceScatter",
            "broadcast": "Broadcast", "reduce": "Reduce"}
    within = collections.OrderedDict()
    ops = []
    for k in both:
        if k[:2] not in ops:
            ops.append(k[:2])
    for op, dt in ops:
        ks = [k for k in both if k[:2] == (op, dt)]
        print(f"{op} {dt}")
        print(f"  {'bytes':>6} {'pred':>10} {'meas':>10} {'ratio':>6}   {'busbw pred':>10} {'meas GB/s':>9}  NCCL's choice")
        for k in ks:
            p, m = float(s[k]["time_us"]), float(g[k]["time_us"])
            r = p / m if m > 0 else float("nan")
            ok = abs(r - 1) <= tol
            within.setdefault(op if not op.startswith("peer") else "peer_copy", []).append(ok)
            per_rank = k[2] // int(g[k]["ranks"]) if op in ("all_gather", "reduce_scatter") else k[2]
            algo = tun.get((name.get(op, ""), per_rank))
            print(f"  {fmt_bytes(k[2]):>6} {p:10.2f} {m:10.2f} {r:6.2f}{'*' if ok else ' '}  {float(s[k]['busbw_GBs']):10.1f}"
                  f" {float(g[k]['busbw_GBs']):9.1f}  {'/'.join(algo) if algo else ''}")
    allp = [x for v in within.values() for x in v]
    print(f"\nwithin {tol:.0%}:")
    for op, v in within.items():
        print(f"  {op:18} {sum(v):3d} of {len(v):3d}")
    print(f"  {'all':18} {sum(allp):3d} of {len(allp):3d}" + (f"  ({sum(allp) / len(allp):.0%})" if allp else ""))


def results(text):
    return {m.group(1): m.group(2) for m in re.finditer(r"^RESULT (\S+) (\S+)", text, re.M)}


def report_collectives(sim, gpu):
    print("\n## tests/multigpu/nccl_collectives.cu\n")
    s, g = read(sim, "nccl_collectives.txt"), read(gpu, "nccl_collectives.txt")
    rs, rg = results(s), results(g)
    for k in sorted(set(rs) | set(rg)):
        print(f"RESULT {k:22} sim {rs.get(k, '-'):16} gpu {rg.get(k, '-'):16} {'equal' if rs.get(k) == rg.get(k) else 'DIFFER'}")
    ps = {l[5:]: l[:4] for l in s.splitlines() if l[:5] in ("PASS ", "FAIL ")}
    pg = {l[5:]: l[:4] for l in g.splitlines() if l[:5] in ("PASS ", "FAIL ")}
    for k in sorted(set(ps) | set(pg)):
        print(f"  sim {ps.get(k, '-'):4} gpu {pg.get(k, '-'):4}  {k}")


def program(text):
    """Steps (step, loss, ref, ms[, exposed]), PASS/FAIL, weight hashes, bubble per stage."""
    steps, seen = [], False
    for l in text.splitlines():
        if "ms/step" in l:
            seen = True
            continue
        m = re.match(r"^\s+(\d+)\s+([-\d.eE+]+)\s+([-\d.eE+]+)\s+([-\d.eE+]+)(?:\s+([-\d.eE+]+))?\s*$", l)
        if seen and m:
            steps.append([float(x) if x else None for x in m.groups()])
        elif seen and steps and not l.strip():
            seen = False
    verdict = next((l.strip() for l in reversed(text.splitlines()) if l.strip() in ("PASS", "FAIL")), "-")
    w = re.search(r"weights fnv1a:(.*)", text)
    hashes = re.findall(r"[0-9a-f]{16}", w.group(1)) if w else []
    bubble = [float(b) for b in re.findall(r"stage \d+: bubble ([\d.]+)", text)]
    return steps, verdict, hashes, bubble


def mean(v):
    return sum(v) / len(v) if v else float("nan")


def report_programs(sim, gpu, tol):
    print("\n## kernels/parallel programs (ms/step: mean of steps 2.. on rank 0's cudaEvents)\n")
    print(f"{'program':16} {'sim':4} {'gpu':4} {'weights':8} {'loss diff':>9} {'pred ms':>8} {'meas ms':>8} {'ratio':>6}  also")
    names = sorted({f[5:-4] for d in (sim, gpu) for f in os.listdir(d)
                    if f.startswith("prog_") and f.endswith(".txt") and not f.endswith(".report.txt")})
    n_ok = 0
    for n in names:
        ss, vs, hs, bs = program(read(sim, f"prog_{n}.txt"))
        sg, vg, hg, bg = program(read(gpu, f"prog_{n}.txt"))
        ps, pg = mean([r[3] for r in ss[1:]]), mean([r[3] for r in sg[1:]])
        r = ps / pg if pg > 0 else float("nan")
        n_ok += abs(r - 1) <= tol
        weights = "-" if not hs or not hg else ("equal" if hs == hg else "DIFFER")
        dloss = max((abs(a[1] - b[1]) for a, b in zip(ss, sg)), default=float("nan"))
        also = ""
        if ss and ss[0][4] is not None and sg and sg[0][4] is not None:
            also = f"exposed ms {mean([x[4] for x in ss[1:]]):.4f} / {mean([x[4] for x in sg[1:]]):.4f}"
        if bs or bg:
            also = "bubble " + " ".join(f"{a:.3f}/{b:.3f}" for a, b in zip(bs, bg))
        print(f"{n:16} {vs:4} {vg:4} {weights:8} {dloss:9.2e} {ps:8.4f} {pg:8.4f} {r:6.2f}{'*' if abs(r - 1) <= tol else ' '}  {also}")
    print(f"\nstep times within {tol:.0%}: {n_ok} of {len(names)}  (also: predicted/measured)")


def predictions(sim):
    """The simulator's tables alone: time per call by size and collective, and the programs."""
    s, head = sweep(sim)
    print("## Predictions (simtlab):", head[0].lstrip("# ") if head else "")
    for dt in ("float", "bf16"):
        ops = [o for o in dict.fromkeys(k[0] for k in s if k[1] == dt)]
        if not ops:
            continue
        print(f"\nus per call, {dt} (S as nccl-tests: all_gather its output, reduce_scatter and alltoall their input)")
        print(f"{'bytes':>6} " + " ".join(f"{o[:14]:>14}" for o in ops))
        for b in sorted({k[2] for k in s if k[1] == dt}):
            print(f"{fmt_bytes(b):>6} " + " ".join(f"{float(s[(o, dt, b)]['time_us']):14.2f}" if (o, dt, b) in s else f"{'-':>14}" for o in ops))
    peers = sorted(k for k in s if k[0].startswith("peer"))
    if peers:
        print("\npeer copies, us: " + ", ".join(f"{k[0][10:]} {fmt_bytes(k[2])} {float(s[k]['time_us']):.2f}" for k in peers if k[0].endswith("0to1")))
    print(f"\n{'program':16} {'result':6} {'ms/step (steps 2..)':>20}  also")
    for f in sorted(os.listdir(sim)):
        if f.startswith("prog_") and f.endswith(".txt"):
            st, v, h, b = program(read(sim, f))
            also = " ".join(f"stage {i} bubble {x:.3f}" for i, x in enumerate(b))
            if st and st[0][4] is not None:
                also = f"exposed ms {mean([x[4] for x in st[1:]]):.4f}"
            print(f"{f[5:-4]:16} {v:6} {mean([x[3] for x in st[1:]]):20.4f}  {also} {'weights ' + h[0] if h else ''}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sim")
    ap.add_argument("gpu", nargs="?")
    ap.add_argument("--tol", type=float, default=0.25)
    a = ap.parse_args()
    if not a.gpu:
        return predictions(open_dir(a.sim))
    sim, gpu = open_dir(a.sim), open_dir(a.gpu)
    env = read(gpu, "env.txt").splitlines()
    print("# simtlab vs GPUs:", sim, "vs", a.gpu)
    for l in env:  # the date line and nvidia-smi's rows of GPUs
        if l.startswith("# date") or re.match(r"^\d+, ", l) or l.startswith("NCCL lib"):
            print("#", l.lstrip("# "))
    report_sweep(sim, gpu, a.tol)
    report_collectives(sim, gpu)
    report_programs(sim, gpu, a.tol)


if __name__ == "__main__":
    sys.exit(main())
