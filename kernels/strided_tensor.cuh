// Tensors the way MiniTorch stores them: a flat storage plus a shape and a
// strides array, all three in device memory. Element (i0, i1, ..., id) lives at
// storage[i0*strides[0] + ... + id*strides[d]], so a permuted or broadcast view is
// just different strides over the same storage. Shared by map, zip and reduce_dim.
//
// Memory behaviour worth knowing: every thread reads shape[d] and strides[d] from
// global memory. All lanes of a warp read the same word, so each such read is one
// request of one sector (a broadcast), cheap next to the data itself.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

constexpr int kMaxDims = 8;

// A tensor view as a kernel sees it. Passed to kernels by value.
struct StridedTensor {
  const float* data;
  const int* shape;
  const int* strides;
  int dims;
};

// Ordinal (position in a contiguous walk of `shape`) -> multi-index. The last
// dimension varies fastest.
__device__ inline void to_index(int ordinal, const int* shape, int dims, int* index) {
  for (int d = dims - 1; d >= 0; --d) {
    const int size = shape[d];
    index[d] = ordinal % size;
    ordinal /= size;
  }
}

// Multi-index -> offset in storage.
__device__ inline int index_to_position(const int* index, const int* strides, int dims) {
  int position = 0;
  for (int d = 0; d < dims; ++d) position += index[d] * strides[d];
  return position;
}

// numpy broadcasting: shapes are aligned on their last dimension; where the small
// tensor has size 1 (or no dimension at all) every big index maps to index 0.
__device__ inline void broadcast_index(const int* big_index, int big_dims, const int* shape, int dims, int* index) {
  for (int d = 0; d < dims; ++d) {
    const int size = shape[d];
    index[d] = size == 1 ? 0 : big_index[d + big_dims - dims];
  }
}

// ---- host side (both builds): shapes from parameters, uploads, CPU references.
namespace strided {

using Shape = std::vector<int>;

// "4,1,8" -> {4, 1, 8}; every item at least min_value.
inline Shape parse_list(const std::string& text, const std::string& what, int min_value) {
  Shape s;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(start, comma - start);
    std::size_t used = 0;
    int v = -1;
    try {
      v = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size() || v < min_value)
      throw std::invalid_argument(what + " must be a comma-separated list of integers >= " + std::to_string(min_value) +
                                  ", got '" + text + "'");
    s.push_back(v);
    start = comma + 1;
  }
  if (s.size() > kMaxDims) throw std::invalid_argument(what + " has more than 8 dimensions");
  return s;
}

inline Shape parse_shape(const std::string& text, const std::string& what) { return parse_list(text, what, 1); }

inline long long numel(const Shape& shape) {
  long long n = 1;
  for (int s : shape) n *= s;
  return n;
}

inline Shape contiguous_strides(const Shape& shape) {
  Shape strides(shape.size());
  int stride = 1;
  for (int d = int(shape.size()) - 1; d >= 0; --d) strides[d] = stride, stride *= shape[d];
  return strides;
}

// The shape two tensors broadcast to, or an error naming both.
inline Shape broadcast_shapes(const Shape& a, const Shape& b) {
  Shape out(std::max(a.size(), b.size()));
  for (std::size_t i = 0; i < out.size(); ++i) {  // i counts from the last dimension
    const int x = i < a.size() ? a[a.size() - 1 - i] : 1, y = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1) {
      auto str = [](const Shape& s) {
        std::string t;
        for (int v : s) t += (t.empty() ? "" : ",") + std::to_string(v);
        return t;
      };
      throw std::invalid_argument("shapes " + str(a) + " and " + str(b) + " do not broadcast");
    }
    out[out.size() - 1 - i] = std::max(x, y);
  }
  return out;
}

// Multi-index of a contiguous ordinal, on the host (for references).
inline Shape unravel(long long ordinal, const Shape& shape) {
  Shape index(shape.size());
  for (int d = int(shape.size()) - 1; d >= 0; --d) index[d] = int(ordinal % shape[d]), ordinal /= shape[d];
  return index;
}

inline long long position(const Shape& index, const Shape& strides) {
  long long p = 0;
  for (std::size_t d = 0; d < index.size(); ++d) p += (long long)index[d] * strides[d];
  return p;
}

// Copies a host vector into a fresh device allocation.
template <class T>
T* upload(const std::vector<T>& host) {
  T* d = nullptr;
  cudaMalloc(&d, host.size() * sizeof(T) + (host.empty() ? sizeof(T) : 0));
  cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

// Storage, shape and strides uploaded together; frees them when it goes.
class DeviceTensor {
 public:
  DeviceTensor(const std::vector<float>& storage, const Shape& shape, const Shape& strides)
      : view_{upload(storage), upload(shape), upload(strides), int(shape.size())} {}
  DeviceTensor(const DeviceTensor&) = delete;
  DeviceTensor& operator=(const DeviceTensor&) = delete;
  ~DeviceTensor() {
    cudaFree(const_cast<float*>(view_.data));
    cudaFree(const_cast<int*>(view_.shape));
    cudaFree(const_cast<int*>(view_.strides));
  }
  const StridedTensor& view() const { return view_; }

 private:
  StridedTensor view_;
};

}  // namespace strided
