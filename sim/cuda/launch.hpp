// The launch syntax shared by both builds:  simt::launch(kernel, grid, block[, shmem[, stream]])(args...)
// It is what `kernel<<<grid, block, shmem, stream>>>(args...)` becomes under
// `simt port`; with nvcc it expands to exactly that launch.
#pragma once
#include "sim/exec/executor.hpp"
#include "sim/cuda/runtime.hpp"

#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace simt {

// Host code may hold device buffers as float* while the kernel takes f32*: same
// bytes, so the pointer is reinterpreted. Everything else converts as usual.
template <class P, class A>
P kernel_argument(A&& a) {
  using D = std::decay_t<A>;
  if constexpr (std::is_pointer_v<P> && std::is_pointer_v<D> && !std::is_convertible_v<D, P>) {
    static_assert(sizeof(std::remove_pointer_t<P>) == sizeof(std::remove_pointer_t<D>) ||
                      std::is_void_v<std::remove_pointer_t<D>>,
                  "kernel argument points to a type of a different size than the parameter");
    return reinterpret_cast<P>(a);
  } else if constexpr (std::is_pointer_v<P> && std::is_integral_v<D>) {
    // NULL as an argument: clang's NULL is __null, an integer to template deduction.
    if (a != 0) throw std::invalid_argument("a kernel's pointer parameter was given a nonzero integer");
    return nullptr;
  } else {
    return static_cast<P>(std::forward<A>(a));
  }
}

template <class T>
void append_bytes(std::vector<unsigned char>& out, const T& value) {
  const auto* p = reinterpret_cast<const unsigned char*>(&value);
  out.insert(out.end(), p, p + sizeof(T));
}

template <class... P>
class KernelCall final : public KernelBody {
 public:
  using Kernel = void (*)(P...);
  KernelCall(Kernel k, std::tuple<std::decay_t<P>...> args) : kernel_(k), args_(std::move(args)) {}
  void run() const override {
    // Copy the arguments onto this thread's own stack first: kernel parameters
    // are per-thread values, and reading them is not a device-memory access.
    ThreadState* self = t_thread;
    t_thread = nullptr;
    auto local = args_;
    t_thread = self;
    std::apply(kernel_, std::move(local));
  }
  // Each argument's object bytes: equal bytes, equal arguments (padding inside a
  // struct argument may differ; then two equal launches are simply both run).
  bool argument_bytes(std::vector<unsigned char>& out) const override {
    std::apply([&](const auto&... a) { (append_bytes(out, a), ...); }, args_);
    return true;
  }

 private:
  Kernel kernel_;
  std::tuple<std::decay_t<P>...> args_;
};

template <class... P>
class Launcher {
 public:
  using Kernel = void (*)(P...);
  Launcher(Kernel k, LaunchConfig cfg) : kernel_(k), cfg_(cfg) {}
  template <class... A>
  void operator()(A&&... args) const {
    static_assert(sizeof...(A) == sizeof...(P), "wrong number of kernel arguments");
    KernelCall<P...> call(kernel_, std::tuple<std::decay_t<P>...>(kernel_argument<std::decay_t<P>>(std::forward<A>(args))...));
    if (!stream_is_valid(cfg_.stream)) return;  // cudaErrorInvalidResourceHandle, for cudaGetLastError
    note_launch_result(execute_launch(reinterpret_cast<const void*>(kernel_), cfg_, call), cfg_.stream);
  }

 private:
  Kernel kernel_;
  LaunchConfig cfg_;
};

template <class... P>
Launcher<P...> launch(void (*kernel)(P...), dim3 grid, dim3 block, std::size_t shmem = 0, cudaStream_t stream = nullptr) {
  return Launcher<P...>(kernel, LaunchConfig{grid, block, shmem, stream});
}

}  // namespace simt
