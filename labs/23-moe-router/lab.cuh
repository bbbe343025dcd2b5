// Lab 23 harness (labs/23-moe-router/README.md): the router's choices, the CPU
// reference and the comparison. Your file includes it and defines
// launch_group_by_expert.
#pragma once
#include "simtlab_lab.cuh"

// A mixture-of-experts layer has gated each token: choice i (token i / k, its
// (i % k)-th expert) goes to expert[i], in [0, experts). Group the n choices by
// expert so each expert's GEMM reads its tokens contiguously:
//   order[offsets[e] .. offsets[e + 1])  the choices i with expert[i] == e, in
//                                        increasing i (token order: a stable sort)
//   offsets[e]                           where expert e's run starts; offsets[experts] = n
void launch_group_by_expert(const int* expert, int n, int experts, int* order, int* offsets);

int main(int argc, char** argv) {
  lab::Case c(argc, argv);
  const int tokens = int(c.size("tokens", 4096));
  const int experts = int(c.size("experts", 16));
  const int k = int(c.size("k", 2));
  const int n = tokens * k;
  lab::Random random(23);

  // Each token picks k distinct experts; a skew towards the low experts, as real
  // routers have (some experts are popular), so runs have different lengths.
  std::vector<int> expert(n);
  for (int t = 0; t < tokens; ++t)
    for (int j = 0; j < k; ++j) {
      int e;
      bool taken;
      do {
        const int a = random.integer(0, experts - 1), b = random.integer(0, experts - 1);
        e = a < b ? a : b;
        taken = false;
        for (int i = 0; i < j; ++i) taken |= expert[t * k + i] == e;
      } while (taken);
      expert[t * k + j] = e;
    }

  std::vector<int> want_offsets(experts + 1, 0), want_order(n);
  for (int e : expert) ++want_offsets[e + 1];
  for (int e = 0; e < experts; ++e) want_offsets[e + 1] += want_offsets[e];
  std::vector<int> next(want_offsets.begin(), want_offsets.end() - 1);
  for (int i = 0; i < n; ++i) want_order[next[expert[i]]++] = i;

  const int* d_expert = c.to_device("expert", expert);
  int* d_order = c.output<int>("order", n);
  int* d_offsets = c.output<int>("offsets", experts + 1);
  launch_group_by_expert(d_expert, n, experts, d_order, d_offsets);
  // Exact: these are integers, and the order within an expert is fixed (token order),
  // so one right answer exists and a GPU must give it on every run.
  if (c.launched("launch_group_by_expert")) {
    c.expect_equal("offsets", c.to_host(d_offsets, experts + 1), want_offsets);
    c.expect_equal("order", c.to_host(d_order, n), want_order);
  }
  return c.finish();
}
