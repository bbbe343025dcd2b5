  // One thread per output element walks the reduced dimension.
  int pos = blockIdx.x * blockDim.x + threadIdx.x;
  if (pos >= out_size) return;
  to_index(pos, out_shape, out_index, shape_size);
  int out_pos = index_to_position(out_index, out_strides, shape_size);
  float acc = reduce_value;
  for (int k = 0; k < a_shape[reduce_dim]; ++k) {
    out_index[reduce_dim] = k;
    acc = fn(fn_id, acc, a_storage[index_to_position(out_index, a_strides, shape_size)]);
  }
  out[out_pos] = acc;
