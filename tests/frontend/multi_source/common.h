// What the three files of this program share (a header of its own, beside them).
#pragma once

// scale.cu: y[i] = 2 * x[i] on the device, in place (C++ linkage).
void scale_on_device(float* d, int n);
// sum.cu: the sum of d[0..n) + n, computed by a kernel (C linkage, as the samples' _cpu.cpp files).
extern "C" float sum_plus_count_on_device(const float* d, int n);
