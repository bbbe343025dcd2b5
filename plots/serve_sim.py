#!/usr/bin/env python3
"""Plot serving simulations: KV-cache use and running batch over time.

    simt serve-sim --model llama3-8b --device A100-80GB-SXM --rate 40 --requests 1500 --json --samples > paged.json
    simt serve-sim ... --contiguous --json --samples > contiguous.json
    python3 plots/serve_sim.py paged.json contiguous.json -o kv.png

Top: the fraction of the KV pool allocated (solid) and holding tokens (dashed);
the gap is what reservation (contiguous) or the last block's tail (paged) wastes.
Bottom: running sequences. The legend gives each run's throughput and goodput.
"""
import argparse
import json
import sys

from pyplot_to_file import pyplot

plt = pyplot()


def fail(message):
    print(f"serve_sim.py: {message}", file=sys.stderr)
    sys.exit(2)


def load(path):
    """One run of `simt serve-sim --json --samples`, or one line and exit 2."""
    try:
        with open(path) as f:
            run = json.load(f)
    except OSError as e:
        fail(f"cannot read {path}: {e.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        fail(f"{path} is not JSON ({getattr(e, 'msg', e)}); write it with simt serve-sim ... --json --samples")
    keys = ("samples", "paged", "continuous", "throughput_tokens_s", "goodput_requests_s", "model", "tp", "device")
    if not isinstance(run, dict) or not all(k in run for k in keys) or not isinstance(run["samples"], list):
        fail(f"{path}: no samples; run simt serve-sim with --json --samples")
    return run


def label(run, path):
    kv = "paged" if run["paged"] else "contiguous"
    batching = "continuous" if run["continuous"] else "static"
    return (f"{batching} + {kv}: {run['throughput_tokens_s']:.0f} tok/s, "
            f"goodput {run['goodput_requests_s']:.2f} req/s ({path})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="JSON files from `simt serve-sim --json --samples`")
    ap.add_argument("-o", "--output", default="serve_sim.png")
    args = ap.parse_args()
    fig, (kv_ax, batch_ax) = plt.subplots(2, 1, figsize=(9, 6), sharex=True)
    for path in args.runs:
        run = load(path)
        t = [s["t"] for s in run["samples"]]
        line, = kv_ax.plot(t, [100 * s["kv_used"] for s in run["samples"]], label=label(run, path))
        kv_ax.plot(t, [100 * s["kv_filled"] for s in run["samples"]], "--", color=line.get_color())
        batch_ax.plot(t, [s["running"] for s in run["samples"]], color=line.get_color())
    kv_ax.set_ylabel("KV pool, % (solid allocated,\ndashed holding tokens)")
    kv_ax.set_ylim(0, 105)
    kv_ax.legend(fontsize=7, loc="center right")
    batch_ax.set_ylabel("running sequences")
    batch_ax.set_xlabel("time, s")
    fig.suptitle(f"{run['model']} on {run['tp']} x {run['device']}")
    fig.tight_layout()
    try:
        fig.savefig(args.output, dpi=120)
    except OSError as e:
        fail(f"cannot write {args.output}: {e.strerror}")
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
