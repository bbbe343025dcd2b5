"""`import pycuda.autoinit` creates a context on a real GPU; under simtlab there is none to create."""
