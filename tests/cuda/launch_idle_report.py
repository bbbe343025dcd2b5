#!/usr/bin/env python3
"""How much of each launch its SMs spend idle: ncu's elapsed cycles against the busiest
SM's active cycles, per launch, from the CSVs of tests/cuda/run_launch_idle_gpu.sh.

usage: launch_idle_report.py CSV [CSV ...]     (the archive unpacked)
"""
import csv, sys, collections
for f in sys.argv[1:]:
    rows = [r for r in csv.reader(l for l in open(f) if l.startswith('"'))]
    hdr = rows[0]
    by = collections.OrderedDict()
    for r in rows[1:]:
        d = dict(zip(hdr, r))
        k = (d['ID'], d['Kernel Name'].split('(')[0][:28], d['Grid Size'], d['Block Size'])
        by.setdefault(k, {})[d['Metric Name']] = float(d['Metric Value'].replace(',', ''))
    print(f"# {f}")
    print(f"{'id':>3} {'kernel':28s} {'grid':>14s} {'block':>12s} {'us':>7s} {'elapsed':>8s} {'act.avg':>8s} {'act.max':>8s} {'idle(max)':>9s}")
    for (i, k, g, b), m in by.items():
        el = m['gpc__cycles_elapsed.max']; amax = m['sm__cycles_active.max']
        print(f"{i:>3} {k:28s} {g:>14s} {b:>12s} {m['gpu__time_duration.sum']/1000:7.2f} {el:8.0f} {m['sm__cycles_active.avg']:8.0f} {amax:8.0f} {el-amax:9.0f}")
