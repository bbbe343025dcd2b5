int float_size = sizeof(float);
int grad_size = rows * softmax_len * float_size;

float *d_out_grad, *d_soft_outp;
cudaMalloc((void **)&d_out_grad, grad_size);
cudaMalloc((void **)&d_soft_outp, grad_size);
cudaMemcpy(d_out_grad, out_grad, grad_size, cudaMemcpyHostToDevice);
cudaMemcpy(d_soft_outp, soft_outp, grad_size, cudaMemcpyHostToDevice);

// Launch kernel
// One warp per row; each lane keeps ITERATIONS elements of its row in registers,
// so ITERATIONS * WARP_SIZE must cover softmax_len.
if (softmax_len <= 32) {
  ker_attn_softmax_bw<float, 1><<<grid_dim, block_dim, 0, stream>>>(
      d_out_grad, d_soft_outp, softmax_len);
} else if (softmax_len <= 64) {
  ker_attn_softmax_bw<float, 2><<<grid_dim, block_dim, 0, stream>>>(
      d_out_grad, d_soft_outp, softmax_len);
} else if (softmax_len <= 128) {
  ker_attn_softmax_bw<float, 4><<<grid_dim, block_dim, 0, stream>>>(
      d_out_grad, d_soft_outp, softmax_len);
} else if (softmax_len <= 256) {
  ker_attn_softmax_bw<float, 8><<<grid_dim, block_dim, 0, stream>>>(
      d_out_grad, d_soft_outp, softmax_len);
} else if (softmax_len <= 384) {
  ker_attn_softmax_bw<float, 12><<<grid_dim, block_dim, 0, stream>>>(
      d_out_grad, d_soft_outp, softmax_len);
} else if (softmax_len <= 512) {
  ker_attn_softmax_bw<float, 16><<<grid_dim, block_dim, 0, stream>>>(
      d_out_grad, d_soft_outp, softmax_len);
} else if (softmax_len <= 768) {
  ker_attn_softmax_bw<float, 24><<<grid_dim, block_dim, 0, stream>>>(
      d_out_grad, d_soft_outp, softmax_len);
} else if (softmax_len <= 1024) {
  ker_attn_softmax_bw<float, 32><<<grid_dim, block_dim, 0, stream>>>(
      d_out_grad, d_soft_outp, softmax_len);
} else {
  throw std::runtime_error(
      "Sequence length greater than 1024 is currently not supported");
}

// Copy back to the host
cudaMemcpy(out_grad, d_out_grad, grad_size, cudaMemcpyDeviceToHost);
cudaDeviceSynchronize();

cudaError_t err = cudaGetLastError();
if (err != cudaSuccess) {
  fprintf(stderr, "launch_attn_softmax_bw Error: %s\n", cudaGetErrorString(err));
  exit(EXIT_FAILURE);
}

// Free memory on device
cudaFree(d_out_grad);
cudaFree(d_soft_outp);
