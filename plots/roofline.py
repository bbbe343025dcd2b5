#!/usr/bin/env python3
"""Plot simulated kernels on a device's roofline.

    simt run transpose_naive --json > naive.json
    simt run transpose_padded --json > padded.json
    python3 plots/roofline.py --device H200 naive.json padded.json -o transposes.png

Each launch becomes a point at its arithmetic intensity, FLOPs per byte of memory
traffic, on the roof: the FLOP/s the roofline allows at that intensity. `--bytes sectors`
(the default) counts the global-memory traffic the load/store units see (32 bytes per
sector, as if nothing were cached), which is what coalescing and tiling change;
`--bytes dram` uses the simulator's compulsory-DRAM estimate, the roofline `simt run`
prints. The roofs (FP32 peak, DRAM bandwidth) come from `simt device show DEVICE --json`,
the same catalog as the CLI.
"""
import argparse
import json
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

FLOP_METRICS = {
    "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum": 1,
    "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum": 1,
    "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum": 2,
    "smsp__sass_thread_inst_executed_op_dadd_pred_on.sum": 1,
    "smsp__sass_thread_inst_executed_op_dmul_pred_on.sum": 1,
    "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum": 2,
}


def device_spec(simt, name):
    out = subprocess.run([simt, "device", "show", name, "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


SECTOR_METRICS = [
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
]


def launches(path, traffic):
    with open(path) as f:
        for launch in json.load(f):
            if launch.get("error"):
                continue
            m = launch["metrics"]
            flops = sum(m.get(k, 0) * w for k, w in FLOP_METRICS.items())
            if traffic == "dram":
                nbytes = m.get("dram__bytes.sum", 0)
            else:
                nbytes = 32 * sum(m.get(k, 0) for k in SECTOR_METRICS)
            yield launch["kernel"], flops, nbytes


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="JSON files written by `simt run ... --json`")
    ap.add_argument("--device", default="H200")
    ap.add_argument("--simt", default=os.path.join(here, "..", "build", "cli", "simt"))
    ap.add_argument("--bytes", choices=["sectors", "dram"], default="sectors",
                    help="traffic for the intensity: global sectors x 32 (default) or the DRAM estimate")
    ap.add_argument("-o", "--output", default="roofline.png")
    args = ap.parse_args()

    dev = device_spec(args.simt, args.device)
    peak, bw = dev["peak_flops"]["fp32"], dev["hbm_bandwidth"]
    points = [p for path in args.runs for p in launches(path, args.bytes) if p[1] > 0 and p[2] > 0]
    if not points:
        sys.exit("roofline.py: no launch with both FLOPs and DRAM bytes to plot")

    lo = min(min(p[1] / p[2] for p in points), peak / bw) / 10
    hi = max(max(p[1] / p[2] for p in points), peak / bw) * 10
    xs = [lo * (hi / lo) ** (i / 200) for i in range(201)]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.loglog(xs, [min(peak, bw * x) for x in xs], color="black", lw=1.5,
              label=f"{dev['name']}: {peak / 1e12:g} TFLOP/s FP32, {bw / 1e12:g} TB/s")
    for i, (kernel, flops, nbytes) in enumerate(points):
        x = flops / nbytes
        y = min(peak, bw * x)
        ax.scatter([x], [y], zorder=3)
        ax.annotate(f"{kernel} ({x:.3g} FLOP/B)", (x, y), textcoords="offset points",
                    xytext=(6, -12 - 10 * (i % 2)), fontsize=8)
    what = "global-memory sectors x 32" if args.bytes == "sectors" else "DRAM estimate"
    ax.set_xlabel(f"arithmetic intensity (FLOP per byte; bytes = {what}, simulated)")
    ax.set_ylabel("attainable FLOP/s")
    ax.set_title("Simulated kernels on the roofline")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"wrote {args.output} ({len(points)} launches)")


if __name__ == "__main__":
    main()
