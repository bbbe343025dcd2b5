#!/usr/bin/env python3
"""CUB 3.0's float orders on sm_90, modelled on the CPU in float32 (numpy), against the
H200's outputs of tests/libs/cub_device.cu (docs/validation/h200-cub.md).

  cub_device_order.py STDOUT [DUMP_DIR]

STDOUT: the program's output on the H200 (its "DeviceReduce::Sum float" lines);
DUMP_DIR: where the program (run with that directory as argv[1]) wrote
inclusive_sum_float_N.bin. Prints, for each float DeviceReduce::Sum, the model's value
and bit hash beside the H200's; for each float DeviceScan::InclusiveSum, how many items
and tiles have the H200's bits when tiles take their predecessors' prefixes folded left
to right (what simtlab does), and the largest relative difference.
The model regenerates the program's inputs (its LCG, in its call order).
"""
import re
import struct
import sys

import numpy as np

f32 = np.float32
M = 2**32


class Inputs:
    """tests/libs/cub_device.cu's generators, in its call order."""

    def __init__(self):
        self.s = 12345

    def next(self):
        self.s = (self.s * 1664525 + 1013904223) % M
        return self.s

    def ints(self, n, lo, hi):
        for _ in range(n):
            self.next()

    def floats(self, n, lo, hi):
        lo32, span = f32(lo), f32(f32(hi) - f32(lo))
        out = np.empty(n, dtype=np.float32)
        for i in range(n):
            out[i] = lo32 + span * (f32(self.next() >> 8) / f32(16777216.0))
        return out


def fnv(data):
    h = 2166136261
    for c in data:
        h = ((h ^ c) * 16777619) % M
    return h


def tree(items):  # cub::ThreadReduce for cuda::std::plus on float: a binary tree
    a, n, stride = list(items), len(items), 1
    while stride < n:
        for j in range(0, n - stride, 2 * stride):
            a[j] = f32(a[j] + a[j + stride])
        stride *= 2
    return a[0]


# ---- DeviceReduce: 256 threads x 16 items, vectors of 4, BLOCK_REDUCE_WARP_REDUCTIONS
RT, RIPT = 256, 16
RTILE = RT * RIPT


def warp_reduce(vals, last_lane):
    v = list(vals) + [f32(0)] * (32 - len(vals))
    for off in (1, 2, 4, 8, 16):
        v = [f32(v[l] + v[l + off]) if l + off <= last_lane else v[l] for l in range(32)]
    return v[0]


def block_reduce(th, num_valid, full):
    total = None
    for w in range(RT // 32):
        if not (full or w * 32 < num_valid):
            continue
        nv = 32 if (full or w * 32 + 32 <= num_valid) else num_valid - w * 32
        agg = warp_reduce(th[w * 32:w * 32 + 32], nv - 1)
        total = agg if total is None else f32(total + agg)
    return total


def consume(x, off, end, stride):
    th = [f32(0)] * RT
    if end - off < RTILE:
        valid = end - off
        for t in range(min(RT, valid)):
            th[t] = x[off + t]
            for i in range(t + RT, valid, RT):
                th[t] = f32(th[t] + x[off + i])
        return block_reduce(th, valid, valid >= RT)

    def full(first, o):
        for t in range(RT):
            items = [x[o + (t + w * RT) * 4 + j] for w in range(4) for j in range(4)]
            th[t] = tree(items) if first else tree([th[t]] + items)

    full(True, off)
    if end - off >= stride:
        off += stride
        more = True
        while more and off <= end - RTILE:
            full(False, off)
            if end - off < stride:
                more = False
            else:
                off += stride
        if more and off < end:
            for t in range(RT):
                for i in range(t, end - off, RT):
                    th[t] = f32(th[t] + x[off + i])
    return block_reduce(th, RTILE, True)


def device_sum(x, max_blocks=8 * 132 * 5):  # occupancy 8 on 132 SMs, subscription 5
    n = len(x)
    if n <= RTILE:
        return f32(f32(0) + consume(x, 0, n, RTILE))
    grid = min((n + RTILE - 1) // RTILE, max_blocks)
    parts = np.array([consume(x, b * RTILE, n, grid * RTILE) for b in range(grid)], dtype=np.float32)
    return f32(f32(0) + consume(parts, 0, grid, RTILE))


# ---- DeviceScan: 128 threads x 24 items, BLOCK_SCAN_WARP_SCANS
ST, SIPT = 128, 24
STILE = ST * SIPT


def warp_inclusive(v):
    v = list(v)
    for off in (1, 2, 4, 8, 16):
        v = [f32(v[l - off] + v[l]) if l >= off else v[l] for l in range(32)]
    return v


def scan_tile(items, prefix):
    parts = [tree(items[t]) for t in range(ST)]
    incl = sum((warp_inclusive(parts[w * 32:w * 32 + 32]) for w in range(ST // 32)), [])
    excl = [None] + incl[:-1]
    totals = [incl[w * 32 + 31] for w in range(ST // 32)]
    warp_prefix, agg = [None], totals[0]
    for w in range(1, ST // 32):
        warp_prefix.append(agg)
        agg = f32(agg + totals[w])
    for t in range(32, ST):
        excl[t] = warp_prefix[t // 32] if t % 32 == 0 else f32(warp_prefix[t // 32] + excl[t])
    if prefix is not None:
        excl = [prefix] + [f32(prefix + e) for e in excl[1:]]
    out = np.empty((ST, SIPT), dtype=np.float32)
    for t in range(ST):
        run = items[t][0] if (t == 0 and prefix is None) else f32(excl[t] + items[t][0])
        out[t, 0] = run
        for i in range(1, SIPT):
            run = f32(run + items[t][i])
            out[t, i] = run
    return out, agg


def device_inclusive_sum(x):
    n = len(x)
    out, prefix = np.empty(n, dtype=np.float32), None
    for j in range((n + STILE - 1) // STILE):
        off = j * STILE
        valid = min(STILE, n - off)
        tile = np.full(STILE, x[off], dtype=np.float32)
        tile[:valid] = x[off:off + valid]
        o, agg = scan_tile(tile.reshape(ST, SIPT), prefix)
        out[off:off + valid] = o.reshape(-1)[:valid]
        prefix = agg if prefix is None else f32(prefix + agg)
    return out


def main():
    gpu = open(sys.argv[1]).read()
    dumps = sys.argv[2] if len(sys.argv) > 2 else None
    g = Inputs()
    g.ints(10000, 0, 10)
    for n in (0, 1, 1000, 4097, (1 << 20) + 3):
        g.ints(n, -1000, 1000)
    for n in (1000, 1 << 20, 3 * (1 << 20) + 7):
        s = device_sum(g.floats(n, -1.0, 1.0))
        m = re.search(r"Sum float n=%d: \w+ bits (\w+) value (\S+)" % n, gpu)
        print("DeviceReduce::Sum float n=%d: model %.9g bits %08x; H200 %s bits %s" %
              (n, s, fnv(struct.pack("<f", s)), m.group(2), m.group(1)))
    g.floats(300001, -50.0, 50.0)
    for n in (0, 1000, 3 * (1 << 20) + 7):
        g.ints(n, -100, 100)
    for n in (1000, 1 << 20, 3 * (1 << 20) + 7):
        x = g.floats(n, 0.0, 1.0)
        if not dumps:
            continue
        y = device_inclusive_sum(x)
        h = np.fromfile("%s/inclusive_sum_float_%d.bin" % (dumps, n), dtype=np.float32)
        same = y.view(np.uint32) == h.view(np.uint32)
        tiles = (n + STILE - 1) // STILE
        same_tiles = sum(bool(same[j * STILE:(j + 1) * STILE].all()) for j in range(tiles))
        rel = np.max(np.abs(y.astype(np.float64) - h) / np.abs(h.astype(np.float64)))
        print("DeviceScan::InclusiveSum float n=%d: %d/%d items and %d/%d tiles with the H200's bits, "
              "max relative difference %.3g (model bits %08x)" % (n, same.sum(), n, same_tiles, tiles, rel, fnv(y.tobytes())))


if __name__ == "__main__":
    main()
