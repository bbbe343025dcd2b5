namespace simt::cost { int cost_placeholder = 0; }
