namespace simt { int kernels_placeholder = 0; }
