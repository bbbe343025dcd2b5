#!/usr/bin/env python3
"""What a learner (or an adversary) types: each case runs the real `simt` (or a plot
script) and asserts the exit code (docs/cli.md#exit-codes) and a key phrase of the
message (docs/reliability.md). One family per table: CLI, cost model, catalog, plots,
kernels built by the CLI. Kernel semantics (races, deadlocks, sticky errors, the heap)
are tests/frontend's and tests/sim's.

usage: test_adversarial.py SIMT SOURCE_DIR [FAMILY...]
"""
import glob
import json
import os
import shutil
import string
import subprocess
import sys
import tempfile

SIMT, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
FAMILIES = sys.argv[3:]
WORK = tempfile.mkdtemp(prefix="simt_adversarial_")
failures = []


def path(name):
    return os.path.join(WORK, name)


def write(name, text):
    with open(path(name), "w") as f:
        f.write(text)
    return path(name)


def run(argv, env=None, timeout=300):
    full_env = {k: v for k, v in os.environ.items() if k != "SIMT_OPTIONS"}  # only what the case sets
    full_env.update(env or {})
    p = subprocess.run(argv, cwd=WORK, env=full_env, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout + p.stderr


def check(family, what, argv, code, phrase, env=None, absent=None):
    """One case: exit `code`, `phrase` in the output (and `absent` not in it)."""
    rc, out = run(argv, env)
    problems = []
    if rc != code:
        problems.append(f"exit {rc}, expected {code}")
    if phrase not in out:
        problems.append(f"no {phrase!r} in the output")
    if absent is not None and absent in out:
        problems.append(f"{absent!r} in the output")
    if len(out) > 4000:
        problems.append(f"{len(out)} bytes of output: one clear message expected")
    status = "FAIL" if problems else "ok"
    print(f"{status:4} [{family}] {what}" + ("" if not problems else ": " + "; ".join(problems)))
    if problems:
        failures.append(f"[{family}] {what}: {'; '.join(problems)}\n  $ {' '.join(argv)}\n  {out[-1500:]}")


def simt(*args):
    return [SIMT, *args]


# ---- the command line -----------------------------------------------------------

def cli_cases():
    p = write("p.cu", '#include <cstdio>\nint main() { printf("hi\\n"); return 0; }\n')
    check("cli", "exec --timeout 5 p.cu names the unknown option, not 'File does not exist: 5'",
          simt("exec", "--timeout", "5", p), 2, "unknown option --timeout of simt exec", absent="File does not exist")
    check("cli", "an option typo suggests the nearest", simt("budget", "train", "--gpu", "8"), 2, "did you mean --gpus")
    check("cli", "device show finds a TPU simt devices lists", simt("device", "show", "TPU-v5p"), 0,
          "without a SIMT model")
    check("cli", "device show of an unknown name is a usage error", simt("device", "show", "TPU-v9"), 2,
          "unknown device 'TPU-v9'")
    check("cli", "a source given twice before -- is refused", simt("exec", p, p), 2, "is given twice")
    check("cli", "--json=/nonexistent/x.json is refused before the build", simt("exec", "--json=/nonexistent/x.json", p),
          2, "/nonexistent")
    check("cli", "--timeline into a missing folder is refused", simt("exec", "--timeline", "/nonexistent/t.json", p), 2,
          "/nonexistent")
    check("cli", "--json=X.cu would overwrite the source: refused", simt("exec", "--json=" + p, p), 2, "p.cu")
    check("cli", "--sample-budget nan", simt("exec", "--sample-budget", "nan", p), 2, "sample")
    check("cli", "--watchdog-insts 0", simt("exec", "--watchdog-insts", "0", p), 2, "watchdog")
    check("cli", "SIMT_OPTIONS with a bad value names the option", simt("exec", p), 2, "threads",
          env={"SIMT_OPTIONS": "threads=abc"})
    check("cli", "SIMT_THREADS=abc is not read, and simt says so", simt("--version"), 0,
          "SIMT_THREADS is not read; runtime options are set in SIMT_OPTIONS", env={"SIMT_THREADS": "abc"})
    check("cli", "SIMT_OPTIONS races=maybe", simt("exec", p), 2, "races", env={"SIMT_OPTIONS": "races=maybe"})
    check("cli", "run with a size past int", simt("run", "vector_add", "--n", "4294967297"), 2, "--n must be from")
    check("cli", "an unknown command suggests one", simt("lsit"), 2, "did you mean 'list'")


# ---- the cost model ---------------------------------------------------------------

TRAIN = ["budget", "train", "--model", "llama3-8b", "--gpus", "64", "--device", "H100-SXM", "--zero", "3"]


def cost_cases():
    check("cost", "--mfu 1 is above the MFU bound", simt(*TRAIN, "--tokens", "1T", "--mfu", "1"), 2, "MFU bound",
          absent="days")
    check("cost", "--tokens 1 is less than one step", simt(*TRAIN, "--tokens", "1", "--mfu", "0.4"), 2,
          "less than one optimizer step")
    check("cost", "--global-batch 1 on 64 data-parallel GPUs", simt(*TRAIN, "--tokens", "1T", "--mfu", "0.4",
                                                                       "--global-batch", "1"), 2, "not a multiple")
    check("cost", "405B on one H100 does not fit: exit 1, no days",
          simt("budget", "train", "--model", "llama3-405b", "--tokens", "15T", "--gpus", "1", "--device", "H100-SXM",
               "--mfu", "0.4"), 1, "DOES NOT FIT", absent=" days")
    check("cost", "serve-sim --max-model-len 10 rejects, never truncates",
          simt("serve-sim", "--model", "llama3-8b", "--device", "H100-SXM", "--requests", "50", "--max-model-len",
               "10", "--dist", "fixed"), 0, "REJECTED 50 of 50")
    check("cost", "ddp --bucket 1e30 hides nothing, not -0.0%",
          simt("ddp", "--params", "1e9", "--backward", "100ms", "--gpus", "8", "--link", "NVLink4", "--bucket", "1e30"),
          0, "0.0%", absent="-0.0%")
    check("cost", "--bytes 1.5", simt("comm", "all-reduce", "--bytes", "1.5", "--gpus", "8", "--link", "NVLink4"), 2,
          "--bytes")
    check("cost", "--tp 7 with hidden 12288", simt("tp", "--seq", "2048", "--hidden", "12288", "--tp", "7", "--link",
                                                   "NVLink4"), 2, "hidden % tp must be 0")
    check("cost", "--layer-index -1", simt("layer", "--model", "llama3-8b", "--device", "H100-SXM", "--seq", "128",
                                           "--layer-index", "-1"), 2, "--layer-index")
    check("cost", "budget on a TPU, the name in any case", simt("budget", "train", "--model", "llama3-8b", "--tokens",
                                                                "1T", "--gpus", "256", "--device", "tpu-v5p", "--zero",
                                                                "3", "--mfu", "0.4"), 0, "TPU-v5p")


# ---- the device catalog -------------------------------------------------------------

def catalog_with(edit):
    with open(os.path.join(SRC, "cost", "catalog", "devices.json")) as f:
        cat = json.load(f)
    h100 = next(d for d in cat["devices"] if d["name"] == "H100-SXM")
    edit(h100)
    return cat


def catalog_cases():
    edits = [
        ("bandwidth 1e308", lambda d: d["memory_bandwidth_gbs"].update(value=1e308), "memory_bandwidth_gbs"),
        ("bandwidth 1e-300", lambda d: d["memory_bandwidth_gbs"].update(value=1e-300), "memory_bandwidth_gbs"),
        ("warp size 7", lambda d: d["warp_size"].update(value=7), "warp_size"),
        ("warp size 64", lambda d: d["warp_size"].update(value=64), "must be 32"),
        ("an empty name", lambda d: d.update(name=""), "name"),
        ("shared per block 1e12 KiB", lambda d: d["shared_per_block_kib"].update(value=1e12), "shared_per_block_kib"),
        ("shared per SM below per block", lambda d: d["shared_per_sm_kib"].update(value=16), "shared_per_sm_kib"),
        ("compute capability abc", lambda d: d.update(compute_capability="abc"), "compute_capability"),
        ("a string for a number", lambda d: d["sm_count"].update(value="many"), "sm_count"),
    ]
    for what, edit, phrase in edits:
        bad = write("catalog.json", json.dumps(catalog_with(edit)))
        check("catalog", what, simt("devices"), 1, phrase, env={"SIMT_CATALOG": bad})
    bad = write("catalog.json", json.dumps(catalog_with(lambda d: d["warp_size"].update(value=7))))
    check("catalog", "a bad catalog met while checking --device is the file's error (1), not usage (2)",
          simt("roofline", "--device", "H100-SXM", "--flops", "1e12", "--bytes", "1e9"), 1, "field 'warp_size'",
          env={"SIMT_CATALOG": bad}, absent="Run with --help")
    check("catalog", "not JSON", simt("devices"), 1, "not valid JSON", env={"SIMT_CATALOG": write("junk.json", "{\"devices\": [")})
    check("catalog", "/dev/zero is refused at once", simt("devices"), 1, "not a regular file",
          env={"SIMT_CATALOG": "/dev/zero"})
    check("catalog", "a directory", simt("devices"), 1, "not a regular file", env={"SIMT_CATALOG": WORK})


# ---- the plot scripts -----------------------------------------------------------------

def plots_cases():
    roofline = [sys.executable, os.path.join(SRC, "plots", "roofline.py")]
    check("plots", "roofline.py on a missing file", roofline + [path("none.json")], 2, "none.json", absent="Traceback")
    check("plots", "roofline.py on a JSON number", roofline + [write("num.json", "42")], 2, "num.json",
          absent="Traceback")
    check("plots", "roofline.py on malformed JSON", roofline + [write("bad.json", "{")], 2, "bad.json",
          absent="Traceback")
    for script, extra in [("ladder.py", []), ("timeline.py", []), ("serve_sim.py", []),
                          ("access_pattern.py", ["--line", "1"]), ("bank_map.py", ["--line", "1"])]:
        argv = [sys.executable, os.path.join(SRC, "plots", script), *extra]
        check("plots", f"{script} on a missing file", argv + [path("none.json")], 2, "none.json", absent="Traceback")
        check("plots", f"{script} on a JSON number", argv + [path("num.json")], 2, "num.json", absent="Traceback")
    rc, out = run(simt("serve-sim", "--model", "llama3-8b", "--device", "H100-SXM", "--requests", "20", "--json",
                       "--samples"))
    check("plots", "serve_sim.py to an unwritable -o",
          [sys.executable, os.path.join(SRC, "plots", "serve_sim.py"), write("ss.json", out), "-o",
           "/nonexistent/s.png"], 2, "cannot write /nonexistent/s.png", absent="Traceback")
    # A Python without matplotlib (a pyenv or virtualenv python3): a package that fails to
    # import stands in for the missing one.
    os.makedirs(path("no_matplotlib/matplotlib"), exist_ok=True)
    write("no_matplotlib/matplotlib/__init__.py", 'raise ImportError("No module named matplotlib")\n')
    for script in ["roofline.py", "ladder.py", "timeline.py", "serve_sim.py", "access_pattern.py", "bank_map.py"]:
        check("plots", f"{script} without matplotlib", [sys.executable, os.path.join(SRC, "plots", script),
                                                         path("none.json")], 2, "needs matplotlib",
              env={"PYTHONPATH": path("no_matplotlib")}, absent="Traceback")
    rc, out = run(simt("run", "vector_add", "--n", "4096", "--json"))
    ok = write("va.json", out if rc == 0 else "[]")
    check("plots", "roofline.py to an unwritable -o", roofline + [ok, "-o", "/nonexistent/r.png"], 2, "/nonexistent",
          absent="Traceback")


# ---- kernels built by the CLI -------------------------------------------------------------

KERNEL = r'''#include <cstdio>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <mma.h>
namespace cg = cooperative_groups;
__global__ void scale(float* out_, int len_) {  // no name the cases define
  int at_ = blockIdx.x * blockDim.x + threadIdx.x;
  if (at_ < len_) out_[at_] = __half2float(__float2half(out_[at_])) * N;
}
int main() {
  float* d; cudaMalloc(&d, 64 * sizeof(float)); cudaMemset(d, 0, 64 * sizeof(float));
  scale<<<1, 64>>>(d, 64);
  printf("N=%d %s\n", N, cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
'''


# Names a learner may well pass with -D: every letter and the usual words. simtlab's
# headers use many of them for parameters and locals; none may see the macro.
COMMON_NAMES = list(string.ascii_letters) + """size count value len length idx index data ptr src dst out in input output
result tmp temp val res sum num mask lane warp width height offset block grid tid row col stride step BLOCK_SIZE TILE
TILE_SIZE WARP_SIZE THREADS NUM_THREADS DIM alpha beta seed key first last op fn pred begin end tile group rank dim
shape items bytes eps EPS MAX MIN lo hi mid left right lhs rhs acc base target expected desired old order scope Args Op
Key It Iter InputIt OutputIt Size Count Value Type""".split()


def every_header_source():
    """A program including every CUDA header simtlab ships (found, not listed: a new one is covered)."""
    inc = os.path.join(SRC, "sim", "compiler", "include")
    patterns = ["*", "cooperative_groups/*", "thrust/*.h", "cuda/*", "cuda/std/*", "cub/cub.cuh"]
    headers = sorted(os.path.relpath(p, inc) for pat in patterns for p in glob.glob(os.path.join(inc, pat))
                     if os.path.isfile(p))
    return "".join(f"#include <{h}>\n" for h in headers) + (
        "#include <cstdio>\n__global__ void k_(float* o_) { o_[0] = 1.0f; }\n"
        "int main() { float* o_; cudaMalloc(&o_, 4); k_<<<1, 1>>>(o_); printf(\"built\\n\"); "
        "return cudaDeviceSynchronize(); }\n")


def kernel_cases():
    every = write("every_header.cu", every_header_source())
    defines = [a for n in COMMON_NAMES for a in ("-D", f"{n}=1")]
    check("kernels", f"every simtlab header with {len(COMMON_NAMES)} common names defined by -D",
          simt("exec", *defines, every), 0, "built")
    lines = write("line5.cu", "#include <cuda_fp16.h>\n#include <cstdio>\n\n\nint main() { undefined_thing(N); }\n")
    check("kernels", "an error after a shielded include keeps its line number", simt("exec", "-D", "N=1", lines), 1,
          "line5.cu:5:14: error: use of undeclared identifier 'undefined_thing'")
    k = write("defines.cu", KERNEL)
    for name in ["N", "T", "n", "i", "K", "size", "value"]:
        # The kernel uses N; the other names only must not break simtlab's headers.
        check("kernels", f"-D {name}=3 does not reach simtlab's headers",
              simt("exec", "-D", "N=3", "-D", f"{name}=3", k), 0, "N=3 no error")
    w = write("wrongptr.cu", "__global__ void scale(float* out, int n) { out[threadIdx.x] = n; }\n"
                             "int main() { int* d; cudaMalloc(&d, 256); scale<<<1, 64>>>(d, 64); "
                             "return cudaDeviceSynchronize(); }\n")
    check("kernels", "a launch with the wrong pointer type: one error naming both types and the parameter",
          simt("exec", w), 1, "cannot initialize a parameter of type 'float *' with an lvalue of type 'int *'")
    s = write("shared_overflow.cu", "#include <cstdio>\n__global__ void k(float* out) {\n"
                                    "  __shared__ float tile[32];\n  tile[threadIdx.x + 32] = 1;\n"
                                    "  __syncthreads();\n  out[threadIdx.x] = tile[threadIdx.x];\n}\n"
                                    "int main() { float* o; cudaMalloc(&o, 256); k<<<1, 32>>>(o);\n"
                                    "  printf(\"%s\\n\", cudaGetErrorString(cudaDeviceSynchronize())); }\n")
    check("kernels", "a __shared__ array written past its end names the array", simt("exec", s), 1,
          "past its end", absent="host pointer")


TABLES = {"cli": cli_cases, "cost": cost_cases, "catalog": catalog_cases, "plots": plots_cases,
          "kernels": kernel_cases}
for family in FAMILIES or TABLES:
    TABLES[family]()
if failures:
    print("\n" + "\n\n".join(failures))
    sys.exit(1)
shutil.rmtree(WORK)  # kept when a case failed, to look at
print(f"all adversarial cases passed ({', '.join(FAMILIES or TABLES)})")
