// thrust::merge and thrust::merge_by_key: stable (equivalent items of the first range
// first), with the default order and a comparator, on the device and on the host.
// The expected values follow from the definition; the file also builds with nvcc.
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/merge.h>

#include <cstdio>

template <class V> void print(const char* what, const V& v) {
  std::printf("%s:", what);
  for (size_t i = 0; i < v.size(); ++i) std::printf(" %d", int(v[i]));
  std::printf("\n");
}

int main() {
  const int a[] = {1, 3, 3, 5, 7}, b[] = {2, 3, 4, 8};
  const int va[] = {10, 11, 12, 13, 14}, vb[] = {20, 21, 22, 23};
  thrust::device_vector<int> A(a, a + 5), B(b, b + 4), VA(va, va + 5), VB(vb, vb + 4);

  thrust::device_vector<int> out(9);
  auto end = thrust::merge(A.begin(), A.end(), B.begin(), B.end(), out.begin());
  print("merge", out);
  std::printf("end at %d\n", int(end - out.begin()));

  thrust::device_vector<int> keys(9), values(9);
  auto ends = thrust::merge_by_key(thrust::device, A.begin(), A.end(), B.begin(), B.end(), VA.begin(), VB.begin(),
                                   keys.begin(), values.begin());
  print("merge_by_key keys", keys);
  print("merge_by_key values", values);
  std::printf("ends at %d %d\n", int(ends.first - keys.begin()), int(ends.second - values.begin()));

  // Descending ranges with thrust::greater; the second range's 5 goes after the first's.
  const int da[] = {9, 5, 2}, db[] = {8, 5, 5, 1};
  thrust::device_vector<int> DA(da, da + 3), DB(db, db + 4), DV(7);
  thrust::merge(DA.begin(), DA.end(), DB.begin(), DB.end(), DV.begin(), thrust::greater<int>());
  print("merge greater", DV);

  thrust::host_vector<int> HA(a, a + 5), HB(b, b + 4), HO(9), HK(9), HV(9);
  thrust::merge(HA.begin(), HA.end(), HB.begin(), HB.end(), HO.begin());
  print("host merge", HO);
  thrust::host_vector<int> HVA(va, va + 5), HVB(vb, vb + 4);
  thrust::merge_by_key(HA.begin(), HA.end(), HB.begin(), HB.end(), HVA.begin(), HVB.begin(), HK.begin(), HV.begin());
  print("host merge_by_key values", HV);
  return 0;
}
