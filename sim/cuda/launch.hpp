// The simulator's launch:  simt::launch(SIMT_KERNEL(kernel), grid, block[, shmem[, stream]])(args...)
// is what the syntax step (sim/compiler/syntax) makes of
// `kernel<<<grid, block, shmem, stream>>>(args...)`; the runtime launches kernels by
// pointer with simt::launch(kernel, ...) too.
#pragma once
#include "sim/shortcuts/launch.hpp"
#include "sim/cuda/launch_batch.hpp"
#include "sim/cuda/runtime.hpp"

#include <memory>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace simt {

// A pointer whose pointee has the parameter's size but another type is
// reinterpreted (same bytes). Everything else converts as usual.
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

// A launch's body: calls `f` with a copy of the arguments on each simulated thread.
template <class F, class... A>
class CallBody final : public KernelBody {
 public:
  CallBody(F f, std::tuple<A...> args) : f_(f), args_(std::move(args)) {}
  void run() const override {
    // Copy the arguments onto this thread's own stack first: kernel parameters
    // are per-thread values, and reading them is not a device-memory access.
    ThreadState* self = t_thread;
    t_thread = nullptr;
    auto local = args_;
    t_thread = self;
    std::apply(f_, std::move(local));
  }
  // Each argument's object bytes: equal bytes, equal arguments (padding inside a
  // struct argument may differ; then two equal launches are simply both run).
  bool argument_bytes(std::vector<unsigned char>& out) const override {
    std::apply([&](const auto&... a) { (append_bytes(out, a), ...); }, args_);
    return true;
  }
  std::unique_ptr<KernelBody> clone() const override {
    if constexpr (std::is_copy_constructible_v<F>) return std::make_unique<CallBody>(*this);
    else return nullptr;
  }

 private:
  F f_;
  std::tuple<A...> args_;
};

template <class... P>
using KernelCall = CallBody<void (*)(P...), std::decay_t<P>...>;

template <class... P>
class Launcher {
 public:
  using Kernel = void (*)(P...);
  Launcher(Kernel k, LaunchConfig cfg) : kernel_(k), cfg_(cfg) {}
  template <class... A>
  void operator()(A&&... args) const {
    (void)run(std::forward<A>(args)...);
  }
  // The launch's cudaError_t value (cudaLaunchCooperativeKernel returns it).
  template <class... A>
  int run(A&&... args) const {
    static_assert(sizeof...(A) == sizeof...(P), "wrong number of kernel arguments");
    KernelCall<P...> call(kernel_, std::tuple<std::decay_t<P>...>(kernel_argument<std::decay_t<P>>(std::forward<A>(args))...));
    const RuntimeLock lock(RuntimeLock::Launch);
    if (const int refused = launch_refusal(cfg_.stream)) return refused;  // also for cudaGetLastError
    if (join_launch_batch(reinterpret_cast<const void*>(kernel_), cfg_, call)) return 0;  // runs with its thread's next call
    const int code = execute_launch(reinterpret_cast<const void*>(kernel_), cfg_, call);
    note_launch_result(code, cfg_.stream);
    return code;
  }

 private:
  Kernel kernel_;
  LaunchConfig cfg_;
};

template <class... P>
Launcher<P...> launch(void (*kernel)(P...), dim3 grid, dim3 block, std::size_t shmem = 0, cudaStream_t stream = nullptr) {
  return Launcher<P...>(kernel, LaunchConfig{grid, block, shmem, stream});
}

// The compiler front end's launch: `k<<<g, b>>>(args)` becomes
// `simt::launch(SIMT_KERNEL(k), g, b)(args)`, where SIMT_KERNEL wraps a call of `k`
// in a generic lambda. C++ then resolves `k` as nvcc does — a kernel template's
// arguments deduced from the call, an overload chosen among host functions of the
// same name — and the launch learns which function that is by a probe: the call
// made once on the host's own thread, where every kernel's first act
// (pass/host_entry.cpp) is to note its address and return.
//
// `explain` is the same call without SFINAE: a launch whose arguments do not fit the
// kernel calls it, so the compiler's error is one line naming the parameter and both
// types ("cannot initialize a parameter of type 'float *' with an lvalue of type
// 'int *'", nvcc: "argument of type int * is incompatible with parameter of type
// float *") instead of pages of std::apply's instantiation notes.
template <class F, class E>
struct KernelByCall {
  F call;
  E explain;
};
template <class F, class E>
KernelByCall<F, E> kernel_by_call(F f, E e) { return {f, e}; }

}  // namespace simt

extern "C" const void* __simt_take_host_entered_kernel();

namespace simt {

template <class F, class E>
class CallLauncher {
 public:
  CallLauncher(F f, E explain, LaunchConfig cfg) : f_(f), explain_(explain), cfg_(cfg) {}
  template <class... A>
  void operator()(A&&... args) const {
    if constexpr (std::is_invocable_v<const F&, std::decay_t<A>...>)
      launch_fitting(std::forward<A>(args)...);
    else
      explain_(std::forward<A>(args)...);  // the compiler's error for these arguments
  }

 private:
  template <class... A>
  void launch_fitting(A&&... args) const {
    const std::tuple<std::decay_t<A>...> values(std::forward<A>(args)...);
    CallBody<F, std::decay_t<A>...> body(f_, values);
    const RuntimeLock lock(RuntimeLock::Launch);
    __simt_take_host_entered_kernel();
    { auto probe = values; std::apply(f_, std::move(probe)); }
    const void* kernel = __simt_take_host_entered_kernel();
    if (!kernel) throw std::logic_error("simt::launch: the launched function did not identify itself as a kernel");
    if (launch_refusal(cfg_.stream)) return;  // its error is for cudaGetLastError
    if (join_launch_batch(kernel, cfg_, body)) return;  // runs with its thread's next runtime call
    note_launch_result(execute_launch(kernel, cfg_, body), cfg_.stream);
  }

  F f_;
  E explain_;
  LaunchConfig cfg_;
};

template <class F, class E>
CallLauncher<F, E> launch(KernelByCall<F, E> kernel, dim3 grid, dim3 block, std::size_t shmem = 0,
                          cudaStream_t stream = nullptr) {
  return CallLauncher<F, E>(kernel.call, kernel.explain, LaunchConfig{grid, block, shmem, stream});
}

}  // namespace simt

// The callee of a launch, as written (`k`, `k<float, 4>`, `ns::k`), called in a
// generic lambda (capturing by value: the callee may be a function-pointer variable):
// see kernel_by_call above. The first lambda's return type makes arguments that do not
// fit a substitution failure (std::is_invocable is false), the second reports them.
#define SIMT_KERNEL(...)                                                                      \
  ::simt::kernel_by_call(                                                                  \
      [=](auto&&... simt_kernel_args)                                                      \
          -> decltype((__VA_ARGS__)(static_cast<decltype(simt_kernel_args)&&>(simt_kernel_args)...)) { \
        (__VA_ARGS__)(static_cast<decltype(simt_kernel_args)&&>(simt_kernel_args)...);     \
      },                                                                                   \
      [=](auto&&... simt_kernel_args) -> void {                                            \
        (__VA_ARGS__)(static_cast<decltype(simt_kernel_args)&&>(simt_kernel_args)...);     \
      })
