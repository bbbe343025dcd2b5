#!/usr/bin/env python3
"""The counting kernels of tests/cuda/halfcg_validate.cu (`PROGRAM DIR counts`):
ncu's CSV from the H200 against simtlab's launch JSON (simt exec --json). Prints a
table of hadd/hmul/hfma/fadd/fmul/ffma and global load/store requests and sectors,
GPU / simulator, and exits 1 on any difference."""
import csv, json, sys

METRICS = ['hadd', 'hmul', 'hfma', 'fadd', 'fmul', 'ffma']
MEM = ['l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum', 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum',
       'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum', 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum']
NAMES = ['smsp__sass_thread_inst_executed_op_%s_pred_on.sum' % m for m in METRICS] + MEM
SHORT = METRICS + ['ld req', 'ld sect', 'st req', 'st sect']

def gpu_counts(path):
    rows, header, out = list(csv.reader(open(path))), None, {}
    for r in rows:
        if r and r[0] == 'ID':
            header = r
        elif header and len(r) == len(header):
            d = dict(zip(header, r))
            out.setdefault(d['Kernel Name'].split('(')[0], {})[d['Metric Name']] = int(d['Metric Value'].replace(',', ''))
    return out

def main(ncu_csv, sim_json):
    gpu = gpu_counts(ncu_csv)
    sim = {l['kernel']: l['metrics'] for l in json.load(open(sim_json))}
    print('| kernel | ' + ' | '.join(SHORT) + ' |')
    print('|---' * (len(SHORT) + 1) + '|')
    bad = 0
    for k, g in gpu.items():
        s = sim.get(k, {})
        cells = []
        for n in NAMES:
            a, b = g.get(n, 0), s.get(n, 0)
            cells.append(str(a) if a == b else '**%d / %d**' % (a, b))
            bad += a != b
        print('| %s | %s |' % (k, ' | '.join(cells)))
    print('\n%d kernels, %d counters differ (cells: GPU / simulator)' % (len(gpu), bad))
    return 1 if bad else 0

if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2]))
