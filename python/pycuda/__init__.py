"""simtlab's stand-in for PyCUDA on a machine without a GPU.

Course code often imports PyCUDA only to create a context (`import pycuda.autoinit`)
while its kernels come from a ctypes-loaded library built by `simt cc --shared`.
With this folder on PYTHONPATH those imports succeed; anything that would need the
real driver API (compiling a SourceModule, allocating a gpuarray) raises a clear error
instead of half working. See python/README.md.
"""


class NotSimulated(RuntimeError):
    """Raised by every PyCUDA entry point that would need a real GPU."""


def not_simulated(what: str):
    raise NotSimulated(
        f"pycuda.{what} needs a real GPU: simtlab simulates CUDA C++ built with "
        "`simt cc` / `simt exec`, not PyCUDA's driver API")
