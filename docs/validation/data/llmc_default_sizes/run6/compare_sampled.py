#!/usr/bin/python3
"""Sampled against exact counters of one launch: every metric's relative difference.

usage: compare_sampled.py softmax_forward_k3_launch1_exact_and_sampled.json
(made from the JSON reports of `SIMT_EXACT=1` and `SIMT_SAMPLE_BUDGET=5` runs)."""
import json
import sys

both = json.load(open(sys.argv[1]))
exact, sampled = both["exact"], both["sampled"]
print(f"{exact['kernel']}: {sampled.get('counted_blocks')} of {exact['grid'][0] * exact['grid'][1] * exact['grid'][2]} blocks counted")
print(f"{'metric':<60} {'exact':>16} {'sampled':>16} {'difference':>11}")
for name in sorted(exact["metrics"]):
    x, y = exact["metrics"][name], sampled["metrics"].get(name, 0)
    print(f"{name:<60} {x:>16} {y:>16} {(y / x - 1) if x else 0:>+11.2e}")
