// Each thread holds ele_per_thread consecutive scores (BlockLoad VECTORIZE is a
// blocked arrangement), so element j of thread t is column ele_per_thread * t + j.
float val[token_per_reduce][ele_per_thread];
float l_max[token_per_reduce];
for (int i = 0; i < token_per_reduce; i++) {
  l_max[i] = REDUCE_FLOAT_INF_NEG;
  for (int j = 0; j < ele_per_thread; j++) {
    float temp_val;
    if (mask_future && ele_per_thread * threadIdx.x + j > token_id + i) {
      temp_val = REDUCE_FLOAT_INF_NEG;
    } else {
      temp_val = (float)inp_val[i][j];
      if (attn_mask) {
        temp_val += (float)mval[j];
      }
    }
    val[i][j] = temp_val;
    l_max[i] = fmaxf(l_max[i], temp_val);
  }
}
