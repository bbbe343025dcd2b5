namespace simt::models { int models_placeholder = 0; }
