#!/usr/bin/env python3
"""Lab 22's harness: loads your backend library with ctypes — as the course's Python
loads combine.so — calls tensorZip on numpy tensors with broadcasting and strided
views, and compares with numpy.

    simt cc --shared zip_backend.cu -o zip.so
    python3 harness.py zip.so                 # every case
    python3 harness.py zip.so case=odd        # one case

`simt lab check` runs it with case=NAME and --results PATH (the file it grades).
Exit 0 when every output matches numpy bit for bit.
"""
import ctypes
import json
import os
import sys

import numpy as np

F32 = np.ctypeslib.ndpointer(dtype=np.float32, ndim=1, flags="C_CONTIGUOUS")
I32 = np.ctypeslib.ndpointer(dtype=np.int32, ndim=1, flags="C_CONTIGUOUS")
INT = ctypes.c_int
ADD, MUL = 0, 1


class Tensor:
    """MiniTorch's view: flat float32 storage, int32 shape and strides (in elements)."""

    def __init__(self, storage, shape, strides):
        self.storage = np.ascontiguousarray(storage, dtype=np.float32).ravel()
        self.shape = np.array(shape, dtype=np.int32)
        self.strides = np.array(strides, dtype=np.int32)

    @staticmethod
    def of(array):
        a = np.ascontiguousarray(array, dtype=np.float32)
        return Tensor(a.ravel(), a.shape, [s // 4 for s in a.strides])

    def numpy(self):
        return np.lib.stride_tricks.as_strided(self.storage, shape=tuple(self.shape),
                                               strides=tuple(4 * int(s) for s in self.strides))


def transposed(t):
    """The last two dimensions swapped without moving data: a strided view."""
    shape, strides = list(t.shape), list(t.strides)
    shape[-1], shape[-2] = shape[-2], shape[-1]
    strides[-1], strides[-2] = strides[-2], strides[-1]
    return Tensor(t.storage, shape, strides)


def random(shape, seed):
    return np.random.default_rng(seed).uniform(-4, 4, size=shape).astype(np.float32)


# name -> (a, b, fn): each exercises one part of zip.
CASES = {
    "rows": lambda: (Tensor.of(random((5, 7), 1)), Tensor.of(random((7,), 2)), ADD),
    "odd": lambda: (Tensor.of(random((3, 1, 33), 3)), Tensor.of(random((4, 1), 4)), MUL),
    "transposed": lambda: (transposed(Tensor.of(random((9, 6), 5))), Tensor.of(random((6, 9), 6)), ADD),
}


def zip_with(lib, a, b, fn):
    shape = np.broadcast_shapes(tuple(a.shape), tuple(b.shape))
    out = Tensor.of(np.full(shape, np.nan, dtype=np.float32))  # NaN: an element never written shows
    lib.tensorZip(out.storage, out.shape, out.strides, out.storage.size, len(out.shape),
                  a.storage, a.shape, a.strides, a.storage.size, len(a.shape),
                  b.storage, b.shape, b.strides, b.storage.size, len(b.shape), fn)
    return out


def compare(name, got, want):
    got, want = got.ravel(), want.ravel()
    bad = np.flatnonzero(got.view(np.uint32) != want.view(np.uint32))
    c = {"name": name, "compared": int(want.size), "mismatches": int(bad.size),
         "max_error": float(np.nanmax(np.abs(got - want))) if bad.size and not np.isnan(got).all() else 0.0,
         "first": int(bad[0]) if bad.size else 0,
         "got": None if not bad.size or np.isnan(got[bad[0]]) else float(got[bad[0]]),
         "want": float(want[bad[0]]) if bad.size else 0.0}
    if bad.size:
        print(f"lab: {name}: {bad.size} of {want.size} values differ; the first is out[{c['first']}] = "
              f"{got[bad[0]]}, numpy has {want[bad[0]]}")
    else:
        print(f"lab: {name} matches numpy ({want.size} values)")
    return c


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-") or "=" in args[0]:
        print(__doc__)
        return 2
    lib_path, results, chosen = args[0], None, list(CASES)
    rest = args[1:]
    while rest:
        a = rest.pop(0)
        if a == "--results" and rest:
            results = rest.pop(0)
        elif a.startswith("case=") and a[5:] in CASES:
            chosen = [a[5:]]
        else:
            print(f"lab: unknown argument '{a}' (case=NAME with NAME one of {', '.join(CASES)}; --results PATH)")
            return 2
    lib = ctypes.CDLL(os.path.abspath(lib_path))
    lib.tensorZip.argtypes = [F32, I32, I32, INT, INT, F32, I32, I32, INT, INT, F32, I32, I32, INT, INT, INT]
    lib.tensorZip.restype = None
    comparisons = []
    for name in chosen:
        a, b, fn = CASES[name]()
        want = (np.add if fn == ADD else np.multiply)(a.numpy(), b.numpy()).astype(np.float32)
        comparisons.append(compare(f"out ({name})", zip_with(lib, a, b, fn).numpy(), want))
    ok = all(c["mismatches"] == 0 for c in comparisons)
    if results:
        with open(results, "w") as f:
            json.dump({"ok": ok, "sizes": {}, "buffers": [], "comparisons": comparisons, "notes": []}, f)
    print(f"lab: {'every output matches numpy' if ok else 'some outputs differ from numpy'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
