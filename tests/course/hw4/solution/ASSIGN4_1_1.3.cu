// s_sum holds 1 / (sum + EPSILON): one multiplication per element. The store is
// guarded by to_len, so the padding columns are not written.
for (int i = 0; i < token_per_reduce && (token_id + i) < from_len; i++) {
  for (int j = 0; j < ele_per_thread; j++) {
    inp_val[i][j] = (T)(val[i][j] * s_sum[i]);
  }
  BlockStore(ts_store).Store(inp + (token_id + i) * to_len, inp_val[i], to_len);
}
