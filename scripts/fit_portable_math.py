#!/usr/bin/env python3
"""Fits the polynomial coefficients used by sim/cuda/portable_math.hpp.

Weighted least squares on Chebyshev nodes (weights make it fit relative error),
then rounded to float32. The printed max error is the fit's own, in double; the
float32 evaluation error is measured by tests/port/test_portable_math.cpp.
Rerun with `python3 scripts/fit_portable_math.py` if a range or degree changes.
"""
import math
import numpy as np

def nodes(a, b, n=4000):
    k = np.arange(n)
    return (a + b) / 2 + (b - a) / 2 * np.cos(np.pi * (k + 0.5) / n)

def fit(name, xs, basis, target, degree, rel=True, weight=None):
    A = np.stack([basis(xs, i) for i in range(degree + 1)], axis=1)
    w = 1 / np.abs(target) if rel else np.ones_like(target)
    if weight is not None:
        w = weight
    c, *_ = np.linalg.lstsq(A * w[:, None], target * w, rcond=None)
    c32 = c.astype(np.float32).astype(np.float64)
    err = np.max(np.abs(A @ c32 - target) * w)
    print(f"// {name}: degree {degree}, max {'relative' if rel else 'absolute'} fit error {err:.3g}")
    print("  " + ", ".join(f"{float(np.float32(v)).hex()}f" for v in c32))
    return c32

erf_v = np.vectorize(math.erf)
erfc_v = np.vectorize(math.erfc)

# exp(r) = 1 + r + r^2 * P(r), r in [-ln2/2, ln2/2]
r = nodes(-math.log(2) / 2, math.log(2) / 2)
fit("expf P(r), exp(r) = 1 + r + r^2 P(r)", r, lambda x, i: x ** (i + 2), np.expm1(r) - r, 5)

# log(1+f) = f - f^2/2 + f^3 * P(f), f in [sqrt(1/2)-1, sqrt(2)-1]
f = nodes(math.sqrt(0.5) - 1, math.sqrt(2) - 1)
fit("logf P(f), log1p(f) = f - f^2/2 + f^3 P(f)", f, lambda x, i: x ** (i + 3), np.log1p(f) - f + f * f / 2, 8)

# tanh(x) = x + x^3 * P(x^2), |x| < 0.55
x = nodes(1e-4, 0.55)
fit("tanhf P(x^2), tanh(x) = x + x^3 P(x^2)", x, lambda v, i: v ** (2 * i + 3), np.tanh(x) - x, 6)

# erf(x) = x + x * P(x^2), |x| < 1 (the x term exact, so P carries only 0.13 of the value)
x = nodes(1e-4, 1.0)
# weighted by 1/erf(x): erf(x) - x crosses zero, so its own relative error is not the measure
fit("erff small P(x^2), erf(x) = x + x P(x^2)", x, lambda v, i: v ** (2 * i + 1), erf_v(x) - x, 8,
    weight=1 / erf_v(x))

# erf(x) = 1 - exp(Q(x - 2.5)), 1 <= x <= 4. An error d in Q is an error
# erfc(x) * d in erf(x), so the fit is weighted by erfc(x); centred at 2.5 so
# that float32 coefficients keep the fit's accuracy. Printed: max erfc-weighted error.
x = nodes(1.0, 4.0)
fit("erff large Q(t), t = x - 2.5, erf(x) = 1 - exp(Q(t))", x, lambda v, i: (v - 2.5) ** i, np.log(erfc_v(x)), 11,
    rel=False, weight=erfc_v(x))
