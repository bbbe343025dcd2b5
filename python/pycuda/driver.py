"""pycuda.driver under simtlab: importable, but using it needs a real GPU."""
from . import not_simulated


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)

    def unavailable(*args, **kwargs):
        not_simulated(f"driver.{name}")
    return unavailable
