#!/usr/bin/env python3
"""Checks a MiniTorch-style CUDA backend library (examples/minitorch/minitorch_backend.cu)
through ctypes, the way the course's Python code loads combine.so, against numpy.

The same file runs against either build of the library:
    python3 tests/python/test_minitorch_ctypes.py minitorch_sim.so    # simt cc --shared
    MINITORCH_LIB=minitorch_cuda.so python3 tests/python/test_minitorch_ctypes.py   # nvcc, on a GPU
Exit status 0 when every check passes.
"""
import ctypes
import os
import sys

import numpy as np

F32 = np.ctypeslib.ndpointer(dtype=np.float32, ndim=1, flags="C_CONTIGUOUS")
I32 = np.ctypeslib.ndpointer(dtype=np.int32, ndim=1, flags="C_CONTIGUOUS")
INT = ctypes.c_int

# The course's function ids.
ADD, MUL, ID, NEG, LT, EQ, SIGMOID, RELU, RELU_BACK = 1, 2, 3, 4, 5, 6, 7, 8, 9
LOG, LOG_BACK, EXP, INV, INV_BACK, IS_CLOSE, MAX, POW, TANH = 10, 11, 12, 13, 14, 15, 16, 17, 18


def load(path):
    lib = ctypes.CDLL(os.path.abspath(path))
    lib.tensorMap.argtypes = [F32, I32, I32, INT, F32, I32, I32, INT, INT, INT]
    lib.tensorZip.argtypes = [F32, I32, I32, INT, INT, F32, I32, I32, INT, INT, F32, I32, I32, INT, INT, INT]
    lib.tensorReduce.argtypes = [F32, I32, I32, INT, F32, I32, I32, INT, ctypes.c_double, INT, INT]
    lib.MatrixMultiply.argtypes = [F32, I32, I32, F32, I32, I32, F32, I32, I32, INT, INT, INT]
    for f in (lib.tensorMap, lib.tensorZip, lib.tensorReduce, lib.MatrixMultiply):
        f.restype = None
    return lib


class Tensor:
    """MiniTorch's view of an array: flat storage plus int32 shape and strides."""

    def __init__(self, storage, shape, strides):
        self.storage = np.ascontiguousarray(storage, dtype=np.float32).ravel()
        self.shape = np.array(shape, dtype=np.int32)
        self.strides = np.array(strides, dtype=np.int32)

    @staticmethod
    def of(array):
        a = np.ascontiguousarray(array, dtype=np.float32)
        return Tensor(a.ravel(), a.shape, [s // 4 for s in a.strides])

    @staticmethod
    def zeros(shape):
        return Tensor.of(np.zeros(shape, dtype=np.float32))

    def transposed(self):
        """The last two dimensions swapped without moving data (non-contiguous)."""
        shape, strides = list(self.shape), list(self.strides)
        shape[-1], shape[-2] = shape[-2], shape[-1]
        strides[-1], strides[-2] = strides[-2], strides[-1]
        return Tensor(self.storage, shape, strides)

    @property
    def size(self):
        return int(np.prod(self.shape))

    def numpy(self):
        return np.lib.stride_tricks.as_strided(
            self.storage, shape=tuple(self.shape), strides=tuple(int(s) * 4 for s in self.strides)).copy()


def tensor_map(lib, a, fn):
    out = Tensor.zeros(tuple(a.shape))
    lib.tensorMap(out.storage, out.shape, out.strides, out.size, a.storage, a.shape, a.strides, a.size,
                  len(a.shape), fn)
    return out.numpy()


def tensor_zip(lib, a, b, fn):
    out = Tensor.zeros(np.broadcast_shapes(tuple(a.shape), tuple(b.shape)))
    lib.tensorZip(out.storage, out.shape, out.strides, out.size, len(out.shape), a.storage, a.shape, a.strides,
                  a.size, len(a.shape), b.storage, b.shape, b.strides, b.size, len(b.shape), fn)
    return out.numpy()


def tensor_reduce(lib, a, dim, fn, start):
    shape = list(a.shape)
    shape[dim] = 1
    out = Tensor.zeros(tuple(shape))
    lib.tensorReduce(out.storage, out.shape, out.strides, out.size, a.storage, a.shape, a.strides, dim, start,
                     len(a.shape), fn)
    return out.numpy()


def matmul(lib, a, b):
    out = Tensor.zeros((int(a.shape[0]), int(a.shape[1]), int(b.shape[2])))
    lib.MatrixMultiply(out.storage, out.shape, out.strides, a.storage, a.shape, a.strides, b.storage, b.shape,
                       b.strides, int(a.shape[0]), int(a.shape[1]), int(b.shape[2]))
    return out.numpy()


FAILURES = []


def check(name, got, want, rtol=2e-6, atol=1e-6):
    ok = got.shape == want.shape and np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    worst = float(np.max(np.abs(got - want))) if got.shape == want.shape and got.size else float("nan")
    print(f"{'ok  ' if ok else 'FAIL'} {name:<40} shape {str(tuple(want.shape)):<14} max |err| {worst:.3g}")
    if not ok:
        FAILURES.append(name)


def test_map(lib, rng):
    x = rng.uniform(-3, 3, size=(4, 5, 6)).astype(np.float32)
    pos = rng.uniform(0.1, 4, size=(7, 9)).astype(np.float32)
    t, tp = Tensor.of(x), Tensor.of(pos)
    check("map id", tensor_map(lib, t, ID), x)
    check("map neg", tensor_map(lib, t, NEG), -x)
    check("map relu", tensor_map(lib, t, RELU), np.maximum(x, 0))
    check("map sigmoid", tensor_map(lib, t, SIGMOID), 1 / (1 + np.exp(-x.astype(np.float64))), rtol=1e-5)
    check("map exp", tensor_map(lib, t, EXP), np.exp(x.astype(np.float64)), rtol=1e-6)
    check("map tanh", tensor_map(lib, t, TANH), np.tanh(x.astype(np.float64)), rtol=1e-6)
    check("map log", tensor_map(lib, tp, LOG), np.log(pos.astype(np.float64)), rtol=1e-6)
    check("map inv", tensor_map(lib, tp, INV), 1 / pos)
    check("map on a transposed (strided) view", tensor_map(lib, tp.transposed(), NEG), -pos.T)


def test_zip(lib, rng):
    a = rng.uniform(-2, 2, size=(4, 1, 5)).astype(np.float32)
    b = rng.uniform(-2, 2, size=(3, 5)).astype(np.float32)
    pa = rng.uniform(0.5, 2, size=(6, 7)).astype(np.float32)
    pb = rng.uniform(-2, 2, size=(6, 7)).astype(np.float32)
    ta, tb, tpa, tpb = Tensor.of(a), Tensor.of(b), Tensor.of(pa), Tensor.of(pb)
    check("zip add (broadcast)", tensor_zip(lib, ta, tb, ADD), a + b)
    check("zip mul (broadcast)", tensor_zip(lib, ta, tb, MUL), a * b)
    check("zip lt", tensor_zip(lib, ta, tb, LT), (a < b).astype(np.float32))
    check("zip eq", tensor_zip(lib, tpa, tpa, EQ), np.ones_like(pa))
    check("zip max", tensor_zip(lib, ta, tb, MAX), np.maximum(a, b))
    check("zip relu_back", tensor_zip(lib, tpb, tpa, RELU_BACK), np.where(pb > 0, pa, 0).astype(np.float32))
    check("zip log_back", tensor_zip(lib, tpa, tpb, LOG_BACK), pb / pa)
    check("zip inv_back", tensor_zip(lib, tpa, tpb, INV_BACK), -pb / (pa * pa), rtol=1e-6)
    check("zip is_close", tensor_zip(lib, tpa, tpa, IS_CLOSE), np.ones_like(pa))
    check("zip pow", tensor_zip(lib, tpa, tpb, POW), np.power(pa.astype(np.float64), pb), rtol=1e-5)


def test_reduce(lib, rng):
    x = rng.uniform(-1, 1, size=(3, 300, 4)).astype(np.float32)
    small = rng.uniform(0.5, 1.5, size=(5, 6)).astype(np.float32)
    t, ts = Tensor.of(x), Tensor.of(small)
    for dim in range(3):
        check(f"reduce sum over dim {dim}", tensor_reduce(lib, t, dim, ADD, 0.0),
              x.astype(np.float64).sum(axis=dim, keepdims=True), rtol=1e-5, atol=1e-5)
    check("reduce max over dim 1", tensor_reduce(lib, t, 1, MAX, -1e9), x.max(axis=1, keepdims=True))
    check("reduce prod over dim 0", tensor_reduce(lib, ts, 0, MUL, 1.0),
          small.astype(np.float64).prod(axis=0, keepdims=True), rtol=1e-5)


def test_matmul(lib, rng):
    a = rng.uniform(-1, 1, size=(2, 33, 17)).astype(np.float32)
    b = rng.uniform(-1, 1, size=(2, 17, 45)).astype(np.float32)
    check("matmul batched", matmul(lib, Tensor.of(a), Tensor.of(b)), a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)
    c = rng.uniform(-1, 1, size=(1, 40, 24)).astype(np.float32)
    bt = Tensor.of(rng.uniform(-1, 1, size=(1, 24, 24)).astype(np.float32)).transposed()
    check("matmul with a transposed operand", matmul(lib, Tensor.of(c), bt), c.astype(np.float64) @ bt.numpy(),
          rtol=1e-5, atol=1e-5)
    d = rng.uniform(-1, 1, size=(3, 16, 16)).astype(np.float32)
    e = rng.uniform(-1, 1, size=(1, 16, 16)).astype(np.float32)
    check("matmul broadcasting a batch of 1", matmul(lib, Tensor.of(d), Tensor.of(e)), d.astype(np.float64) @ e,
          rtol=1e-5, atol=1e-5)


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("MINITORCH_LIB")
    if not path:
        sys.exit("usage: test_minitorch_ctypes.py LIBRARY.so   (or set MINITORCH_LIB)")
    if not os.path.exists(path):
        sys.exit(f"no such library: {path}")
    lib = load(path)
    rng = np.random.default_rng(11868)
    print(f"library: {path}")
    test_map(lib, rng)
    test_zip(lib, rng)
    test_reduce(lib, rng)
    test_matmul(lib, rng)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed: {', '.join(FAILURES)}")
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
