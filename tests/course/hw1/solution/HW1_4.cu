  // The launcher's grid is (row tiles, column tiles, batch); threadIdx.x runs along a
  // row of the output so that loads of b and stores of out are coalesced.
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.x * TILE + ty;
  int col = blockIdx.y * TILE + tx;
  int m = a_shape[1], n = a_shape[2], p = b_shape[2];
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    a_shared[ty][tx] = (row < m && t + tx < n)
        ? a_storage[batch * a_batch_stride + row * a_strides[1] + (t + tx) * a_strides[2]] : 0.0f;
    b_shared[ty][tx] = (t + ty < n && col < p)
        ? b_storage[batch * b_batch_stride + (t + ty) * b_strides[1] + col * b_strides[2]] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += a_shared[ty][k] * b_shared[k][tx];
    __syncthreads();
  }
  if (row < m && col < p)
    out[batch * out_strides[0] + row * out_strides[1] + col * out_strides[2]] = acc;
