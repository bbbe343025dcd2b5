#!/usr/bin/env python3
"""The course's way in: its Python (minitorch/cuda_kernel_ops.py) loads
minitorch/cuda_kernels/softmax_kernel.so and layernorm_kernel.so with ctypes and calls
the extern "C" launchers on numpy arrays. This does the same with the two libraries
`simt cc --shared` built from the filled course files, and compares with numpy
references in float64 (the formulas of hw4_reference.h). Exit status 1 on any FAIL.

usage: ctypes_check.py SOFTMAX_SO LAYERNORM_SO
"""
import ctypes
import sys

import numpy as np

F32 = np.ctypeslib.ndpointer(dtype=np.float32, ndim=1, flags="C_CONTIGUOUS")
I, B, V = ctypes.c_int, ctypes.c_bool, ctypes.c_void_p
rng = np.random.default_rng(11)
failures = 0


def check(what, out, ref, atol, rtol):
    global failures
    err = np.abs(out.astype(np.float64) - ref)
    ok = bool(np.all(err <= atol + rtol * np.abs(ref)))
    failures += not ok
    print(f"{'PASS' if ok else 'FAIL'} ctypes {what:40s} max|err| {err.max():.2e}")


def uniform(n, lo=-1.0, hi=1.0):
    return rng.uniform(lo, hi, n).astype(np.float32)


def softmax(lib, b, h, rows, cols):
    lib.launch_attn_softmax.argtypes = [F32, F32, I, I, I, I, B, V]
    x, mask = uniform(b * h * rows * cols, -4, 4), np.zeros(b * cols, np.float32)
    mask.reshape(b, cols)[:, cols - cols // 4:] = -1e8
    v = x.reshape(b, h, rows, cols).astype(np.float64) + mask.reshape(b, 1, 1, cols)
    e = np.exp(v - v.max(-1, keepdims=True))
    ref = (e / (e.sum(-1, keepdims=True) + 1e-8)).ravel()
    lib.launch_attn_softmax(x, mask, b, h, rows, cols, False, None)
    check(f"softmax_fw {b}x{h}x{rows}x{cols}", x, ref, 1e-6, 1e-4)


def softmax_bw(lib, rows, cols):
    lib.launch_attn_softmax_bw.argtypes = [F32, F32, I, I, V]
    s = np.exp(uniform(rows * cols, -4, 4).reshape(rows, cols).astype(np.float64))
    soft = (s / s.sum(-1, keepdims=True)).astype(np.float32).ravel()
    grad = uniform(rows * cols)
    g, y = grad.reshape(rows, cols).astype(np.float64), soft.reshape(rows, cols).astype(np.float64)
    ref = (y * (g - (g * y).sum(-1, keepdims=True))).ravel()
    lib.launch_attn_softmax_bw(grad, soft, rows, cols, None)
    check(f"softmax_bw {rows}x{cols}", grad, ref, 1e-6, 1e-4)


def layernorm(lib, rows, hidden):
    lib.launch_layernorm.argtypes = [F32, F32, F32, F32, F32, F32, I, I, V]
    x, gamma, beta = uniform(rows * hidden), uniform(hidden, 0.5, 1.5), uniform(hidden)
    out, var, mean = np.zeros_like(x), np.zeros(rows, np.float32), np.zeros(rows, np.float32)
    xd = x.reshape(rows, hidden).astype(np.float64)
    rv = xd.var(-1) + 1e-8
    ref = (xd - xd.mean(-1, keepdims=True)) / np.sqrt(rv)[:, None] * gamma + beta
    lib.launch_layernorm(out, var, mean, x, gamma, beta, rows, hidden, None)
    check(f"layernorm_fw {rows}x{hidden}: ln_res", out, ref.ravel(), 1e-5, 1e-4)
    check(f"layernorm_fw {rows}x{hidden}: vars", var, rv, 1e-6, 1e-5)


def layernorm_bw(lib, rows, hidden):
    lib.launch_layernorm_bw.argtypes = [F32] * 9 + [I, I, V, V]
    x, dout, gamma, beta = uniform(rows * hidden), uniform(rows * hidden), uniform(hidden, 0.5, 1.5), uniform(hidden)
    xd, dd = x.reshape(rows, hidden).astype(np.float64), dout.reshape(rows, hidden).astype(np.float64)
    mean, var = xd.mean(-1).astype(np.float32), xd.var(-1).astype(np.float32)
    rstd = 1 / np.sqrt(var.astype(np.float64) + 1e-8)[:, None]
    xhat = (xd - mean.astype(np.float64)[:, None]) * rstd
    dxhat = dd * gamma
    dinp = (dxhat - dxhat.mean(-1, keepdims=True) - xhat * (dxhat * xhat).mean(-1, keepdims=True)) * rstd
    dgamma, dbeta, dx = np.zeros(hidden, np.float32), np.zeros(hidden, np.float32), np.zeros_like(x)
    lib.launch_layernorm_bw(dgamma, dbeta, dx, dout, x, gamma, beta, var, mean, rows, hidden, None, None)
    check(f"layernorm_bw {rows}x{hidden}: gamma_grad", dgamma, (xhat * dd).sum(0), 1e-4, 1e-4)
    check(f"layernorm_bw {rows}x{hidden}: betta_grad", dbeta, dd.sum(0), 1e-4, 1e-4)
    check(f"layernorm_bw {rows}x{hidden}: inp_grad", dx, dinp.ravel(), 1e-4, 1e-4)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    sm, ln = ctypes.CDLL(sys.argv[1]), ctypes.CDLL(sys.argv[2])
    softmax(sm, 2, 8, 12, 24)
    softmax(sm, 1, 8, 40, 160)
    softmax_bw(sm, 96, 120)
    layernorm(ln, 48, 512)
    layernorm_bw(ln, 48, 512)
    print(f"{'FAIL' if failures else 'PASS'}: ctypes, {failures} output(s) failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
