// Subtract the block's max (from shared memory) before exponentiating, so no term
// overflows; padding and masked columns hold about -1e8 and contribute 0.
float l_sum[token_per_reduce];
for (int i = 0; i < token_per_reduce; i++) {
  l_sum[i] = 0.f;
  for (int j = 0; j < ele_per_thread; j++) {
    val[i][j] = __expf(val[i][j] - s_max[i]);
    l_sum[i] += val[i][j];
  }
}
