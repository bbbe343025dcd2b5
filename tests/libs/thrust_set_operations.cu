// thrust's set operations on sorted ranges with repeated items (the multiset rule:
// of equivalent items, m in the first range and k in the second, the first min(m, k)
// of each are matched), their _by_key forms, a comparator, the device and the host.
// Each result is printed beside the standard library's over the same ranges ("same"
// or "DIFFERENT"); the file also builds with nvcc.
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/set_operations.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

template <class V> void print(const char* what, const V& v, long long n, const std::vector<int>& want) {
  std::printf("%s:", what);
  bool same = n == (long long)want.size();
  for (long long i = 0; i < n; ++i) {
    std::printf(" %d", int(v[i]));
    same = same && int(v[i]) == want[i];
  }
  std::printf(" (%s)\n", same ? "same" : "DIFFERENT");
}

int main() {
  const std::vector<int> a = {1, 2, 2, 2, 4, 6, 6, 9}, b = {2, 2, 3, 6, 6, 6, 7, 9, 9};
  thrust::device_vector<int> A(a.begin(), a.end()), B(b.begin(), b.end()), out(a.size() + b.size());
  std::vector<int> want(a.size() + b.size());

  auto end = thrust::set_union(A.begin(), A.end(), B.begin(), B.end(), out.begin());
  want.resize(std::set_union(a.begin(), a.end(), b.begin(), b.end(), want.begin()) - want.begin());
  print("set_union", out, end - out.begin(), want);

  want.resize(a.size() + b.size());
  end = thrust::set_intersection(thrust::device, A.begin(), A.end(), B.begin(), B.end(), out.begin());
  want.resize(std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), want.begin()) - want.begin());
  print("set_intersection", out, end - out.begin(), want);

  want.resize(a.size() + b.size());
  end = thrust::set_difference(A.begin(), A.end(), B.begin(), B.end(), out.begin());
  want.resize(std::set_difference(a.begin(), a.end(), b.begin(), b.end(), want.begin()) - want.begin());
  print("set_difference", out, end - out.begin(), want);

  want.resize(a.size() + b.size());
  end = thrust::set_symmetric_difference(A.begin(), A.end(), B.begin(), B.end(), out.begin());
  want.resize(std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), want.begin()) - want.begin());
  print("set_symmetric_difference", out, end - out.begin(), want);

  // Descending ranges with thrust::greater.
  const std::vector<int> da = {9, 7, 7, 3, 1}, db = {8, 7, 3, 3, 0};
  thrust::device_vector<int> DA(da.begin(), da.end()), DB(db.begin(), db.end());
  want.resize(da.size() + db.size());
  end = thrust::set_union(DA.begin(), DA.end(), DB.begin(), DB.end(), out.begin(), thrust::greater<int>());
  want.resize(std::set_union(da.begin(), da.end(), db.begin(), db.end(), want.begin(), std::greater<int>()) -
              want.begin());
  print("set_union greater", out, end - out.begin(), want);

  // By key: each key's value tells which range and place it came from (first range
  // 100 + i, second 200 + j), so the values show whose items were kept.
  std::vector<int> va(a.size()), vb(b.size());
  for (size_t i = 0; i < a.size(); ++i) va[i] = 100 + int(i);
  for (size_t j = 0; j < b.size(); ++j) vb[j] = 200 + int(j);
  thrust::device_vector<int> VA(va.begin(), va.end()), VB(vb.begin(), vb.end()), keys(a.size() + b.size()),
      values(a.size() + b.size());
  auto ends = thrust::set_union_by_key(A.begin(), A.end(), B.begin(), B.end(), VA.begin(), VB.begin(), keys.begin(),
                                       values.begin());
  std::printf("set_union_by_key values:");
  for (long long i = 0; i < ends.second - values.begin(); ++i) std::printf(" %d", int(values[i]));
  std::printf("\n");
  ends = thrust::set_intersection_by_key(A.begin(), A.end(), B.begin(), B.end(), VA.begin(), keys.begin(),
                                         values.begin());
  std::printf("set_intersection_by_key values:");
  for (long long i = 0; i < ends.second - values.begin(); ++i) std::printf(" %d", int(values[i]));
  std::printf("\n");
  ends = thrust::set_difference_by_key(A.begin(), A.end(), B.begin(), B.end(), VA.begin(), VB.begin(), keys.begin(),
                                       values.begin());
  std::printf("set_difference_by_key values:");
  for (long long i = 0; i < ends.second - values.begin(); ++i) std::printf(" %d", int(values[i]));
  std::printf("\n");
  ends = thrust::set_symmetric_difference_by_key(A.begin(), A.end(), B.begin(), B.end(), VA.begin(), VB.begin(),
                                                 keys.begin(), values.begin());
  std::printf("set_symmetric_difference_by_key values:");
  for (long long i = 0; i < ends.second - values.begin(); ++i) std::printf(" %d", int(values[i]));
  std::printf("\n");

  // The host.
  thrust::host_vector<int> HA(a.begin(), a.end()), HB(b.begin(), b.end()), HO(a.size() + b.size());
  want.resize(a.size() + b.size());
  auto hend = thrust::set_symmetric_difference(HA.begin(), HA.end(), HB.begin(), HB.end(), HO.begin());
  want.resize(std::set_symmetric_difference(a.begin(), a.end(), b.begin(), b.end(), want.begin()) - want.begin());
  print("host set_symmetric_difference", HO, hend - HO.begin(), want);
  thrust::host_vector<int> HVA(va.begin(), va.end()), HVB(vb.begin(), vb.end()), HK(a.size() + b.size()),
      HV(a.size() + b.size());
  auto hends = thrust::set_union_by_key(HA.begin(), HA.end(), HB.begin(), HB.end(), HVA.begin(), HVB.begin(),
                                        HK.begin(), HV.begin());
  std::printf("host set_union_by_key values:");
  for (long long i = 0; i < hends.second - HV.begin(); ++i) std::printf(" %d", int(HV[i]));
  std::printf("\n");
  return 0;
}
