#!/usr/bin/python3
"""Bytes a kernels/parallel program moved against what simtlab's cost/ formulas predict.

Runs `simt exec --gpus N kernels/parallel/<scheme>.cu -- ARGS`, sums the bytes the
simulator reports per link ("bytes over the links between GPUs": what simtlab's NCCL
really moved, every ring step), runs the cost command of the scheme with --json and
compares:  link bytes == N * steps * wire_bytes_per_gpu  (exactly).
  ddp   `simt ddp --json`  -> grad_bytes G; a ring all-reduce sends 2 (N-1)/N G per GPU
        (cost/train/ddp.cpp, cost/comm/comm.cpp)
  zero  `simt zero --stage S --json` -> wire_bytes_per_gpu (cost/train/zero_comm.cpp)
  tp    `simt tp [--sp] --json` -> wire_bytes_per_gpu (cost/train/tp_comm.cpp); with
        --sequence-parallel the program also gathers the head's input and the embedding's
        gradient (2 all-gathers of 4 B T C) and all-reduces 2 L LayerNorm gradients of
        2 C floats: tensor_parallel.cu's header, added here.
  pipeline  `simt pipeline --activation-bytes 4BTC --json` -> wire_bytes_per_step, all
        stages' sends together (cost/train/pipeline.cpp): link bytes == steps * that
  moe   `simt moe --json` -> wire_bytes_per_gpu of the 4 all-to-alls (capacity-padded
        slabs, as moe.cu sends them, so routing does not change the bytes) plus the
        dense gradients' all-reduce, `simt ddp --params C D_in + E C --json`.
Why a script and not a formula in the program: the programs stay plain CUDA + NCCL (they
build with nvcc and run on GPUs, where no link report exists), and the check is worth
something only when the two sides are independent: the simulator's NCCL (sim/libs/nccl)
on one side, cost/'s formulas on the other. Exit 0 when equal, 1 when not (FAIL printed).
"""
import json
import math
import re
import subprocess
import sys


def flag(args, name, default):
    return int(args[args.index(name) + 1]) if name in args else default


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def main():
    if len(sys.argv) < 5 or "--" not in sys.argv:
        print("usage: bytes_vs_cost.py SIMT PROGRAM_DIR ddp|zero|tp|pipeline|moe GPUS -- PROGRAM_ARGS", file=sys.stderr)
        return 2
    simt, pdir, scheme, gpus = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    args = sys.argv[sys.argv.index("--") + 1:]
    file = {"ddp": "ddp.cu", "zero": "zero.cu", "tp": "tensor_parallel.cu", "pipeline": "pipeline.cu",
            "moe": "moe.cu"}[scheme]
    rc, out = run([simt, "exec", "--gpus", str(gpus), f"{pdir}/{file}", "--"] + args)
    links = [int(m.group(1)) for m in re.finditer(r"GPU \d+ -> GPU \d+\s+(\d+) bytes", out)]
    if not links:
        print(out[-3000:])
        print(f"FAIL: no link report from simt exec (exit {rc})")
        return 1
    steps = flag(args, "--steps", 3)
    L, C, T, B, NH = (flag(args, "--layers", 2), flag(args, "--d", 64), flag(args, "--seq", 32),
                      flag(args, "--batch", 2), flag(args, "--heads", 4))
    common = ["-g", str(gpus), "-l", "NVLink4", "--json"]
    extra = 0
    per_step_all_gpus = False  # the cost figure is for all GPUs together (pipeline)
    if scheme == "pipeline":
        sched = args[args.index("--schedule") + 1] if "--schedule" in args else "1f1b"
        M, V = flag(args, "--micro-batches", 4), flag(args, "--virtual-stages", 2 if sched == "interleaved" else 1)
        cost = [simt, "pipeline", "-p", str(gpus), "-m", str(M), "--schedule", sched, "--activation-bytes",
                str(4 * B * T * C), "--json"] + (["-v", str(V)] if V > 1 else [])
        per_step_all_gpus = True
    elif scheme == "moe":
        D_in, C, E, k, T_tok = (flag(args, "--d-in", 32), flag(args, "--d", 32), flag(args, "--experts", 4),
                                flag(args, "--top-k", 2), flag(args, "--tokens", 32))
        cf = float(args[args.index("--capacity-factor") + 1]) if "--capacity-factor" in args else 1.25
        slots = E * math.ceil(cf * k * T_tok / E)  # moe.cu's capacity, all experts
        if abs(slots - cf * k * T_tok) > 1e-9:
            print(f"note: capacity rounds up: moe.cu pads {slots} slots per rank, cost/ counts cf k T = {cf * k * T_tok:g}")
        cost = [simt, "moe", "--tokens", str(T_tok), "--hidden", str(C), "--top-k", str(k), "--ep", str(gpus),
                "--capacity", str(cf), "--bytes-per-element", "4", "-l", "NVLink4", "--json"]
        dense = [simt, "ddp", "--params", str(C * D_in + E * C), "--backward", "1ms", "--grad-bytes", "4"] + common
        drc, dout = run(dense)
        if drc != 0:
            print(dout)
            print(f"FAIL: {' '.join(dense)} exited {drc}")
            return 1
        extra = 2 * (gpus - 1) / gpus * json.loads(dout)["grad_bytes"]
    elif scheme in ("ddp", "zero"):
        m = re.search(r"P = (\d+) parameters", out)
        params = int(m.group(1))
        if scheme == "ddp":
            cost = [simt, "ddp", "--params", str(params), "--backward", "1ms", "--grad-bytes", "4"] + common
        else:
            cost = [simt, "zero", "--params", str(params), "--stage", str(flag(args, "--stage", 1)),
                    "--bytes-per-param", "4"] + common
    else:
        sp = "--sequence-parallel" in args
        cost = [simt, "tp", "--batch", str(B), "--seq", str(T), "--hidden", str(C), "--tp", str(gpus), "--heads",
                str(NH), "--layers", str(L), "--bytes-per-element", "4", "-l", "NVLink4", "--json"]
        cost += ["--sp"] if sp else []
        if sp:
            ring = (gpus - 1) / gpus
            extra = 2 * ring * 4 * B * T * C + 2 * L * 2 * ring * 8 * C
    crc, cout = run(cost)
    if crc != 0:
        print(cout)
        print(f"FAIL: {' '.join(cost)} exited {crc}")
        return 1
    j = json.loads(cout)
    moved = sum(links)
    if per_step_all_gpus:
        predicted = steps * j["wire_bytes_per_step"]
        print(f"{scheme} on {gpus} GPUs, {steps} steps: the links carried {moved} bytes; "
              f"cost/ predicts {steps} x {j['wire_bytes_per_step']:.0f} = {predicted:.0f}")
    else:
        per_gpu = j["wire_bytes_per_gpu"] if "wire_bytes_per_gpu" in j else 2 * (gpus - 1) / gpus * j["grad_bytes"]
        predicted = gpus * steps * (per_gpu + extra)
        print(f"{scheme} on {gpus} GPUs, {steps} steps: the links carried {moved} bytes; "
              f"cost/ predicts {gpus} x {steps} x ({per_gpu:.0f}{f' + {extra:.0f}' if extra else ''}) = {predicted:.0f}")
    print(f"  cost command: {' '.join(cost[1:])}")
    ok = rc == 0 and abs(moved - predicted) < 0.5
    if rc != 0:
        print(f"  the program itself exited {rc}")
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
