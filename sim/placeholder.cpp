namespace simt { int sim_placeholder = 0; }
