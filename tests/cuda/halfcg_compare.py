#!/usr/bin/env python3
"""Compares the outputs of tests/cuda/halfcg_validate.cu built with nvcc (GPU) and
with simtlab: every .bin of the GPU folder against the simulator's, element by
element (16-bit for 16-bit results, else 32-bit). Prints one line per test and a
total; with --show N, the first N differing elements (and their inputs when the
simulator run saved them: HALFCG_SAVE_INPUTS=1). Exit 1 on any difference."""
import argparse, os, struct, sys

# Tests whose results are 16-bit values; everything else is 32-bit words.
def width(name):
    if name.startswith(('fp16_op_', 'bf16_op_')):
        return 4 if name.split('_op_')[1] in WIDE else 2
    return 2 if name.startswith(('op_f2', 'op_i2', 'op_u2', 'op_d2')) else 4
WIDE = {'to_float', 'isnan', 'isinf', 'heq', 'hne', 'hlt', 'hle', 'hgt', 'hge', 'hequ', 'hneu', 'hltu', 'hgeu',
        'lt_operator', 'eq_operator', 'h2f', 'b2f'}

def words(path, w):
    data = open(path, 'rb').read()
    return struct.unpack('<%d%s' % (len(data) // w, 'H' if w == 2 else 'I'), data)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('gpu_dir')
    ap.add_argument('sim_dir')
    ap.add_argument('--show', type=int, default=0)
    a = ap.parse_args()
    total = bad_tests = 0
    for f in sorted(os.listdir(a.gpu_dir)):
        if not f.endswith('.bin') or f.endswith('.in.bin'):
            continue
        name = f[:-4]
        sim = os.path.join(a.sim_dir, f)
        if not os.path.exists(sim):
            print('%-28s missing on the simulator side' % name)
            bad_tests += 1
            continue
        w = width(name)
        g, s = words(os.path.join(a.gpu_dir, f), w), words(sim, w)
        diff = [i for i in range(min(len(g), len(s))) if g[i] != s[i]]
        total += len(g)
        status = 'identical' if not diff and len(g) == len(s) else '%d of %d differ' % (len(diff), len(g))
        print('%-28s %7d values  %s' % (name, len(g), status))
        if diff:
            bad_tests += 1
            inp = os.path.join(a.sim_dir, name + '.in.bin')
            ins = words(inp, 2 if w == 2 or name.startswith(('fp16', 'bf16')) else 4) if os.path.exists(inp) else None
            arity = len(ins) // len(g) if ins else 0
            for i in diff[:a.show]:
                x = ' in=' + ' '.join('%04x' % v for v in ins[i * arity:(i + 1) * arity]) if ins else ''
                print('    [%d]%s gpu=%0*x sim=%0*x' % (i, x, 2 * w, g[i], 2 * w, s[i]))
    print('%d values compared; %d tests differ' % (total, bad_tests))
    return 1 if bad_tests else 0

if __name__ == '__main__':
    sys.exit(main())
