"""matplotlib's pyplot for the plot scripts, drawing to files (the Agg backend, no display).

Without matplotlib a script says so in one line and exits 2, naming the Python that
lacks it (a pyenv or virtualenv python3 may, where Debian's /usr/bin/python3 has it).
"""
import os
import sys


def pyplot():
    try:
        import matplotlib
    except ImportError:
        print(f"{os.path.basename(sys.argv[0])}: needs matplotlib, which {sys.executable} does not have "
              "(Debian/Ubuntu: apt-get install python3-matplotlib, and run the script with /usr/bin/python3)",
              file=sys.stderr)
        sys.exit(2)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt
