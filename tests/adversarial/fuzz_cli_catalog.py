#!/usr/bin/env python3
"""A deterministic mutation fuzzer for `simt`'s argument parser and its device-catalog
parser: a fixed seed and a fixed number of runs (about 30 s in all), so CI sees the
same inputs every time. Each run must end by itself (no hang), without a signal,
an uncaught exception or a Python/C++ abort text, with an exit code of the documented
set (docs/cli.md#exit-codes: 0 done, 1 failed, 2 usage) and, when it fails, a message.

usage: fuzz_cli_catalog.py SIMT SOURCE_DIR [CLI_RUNS CATALOG_RUNS [SEED]]
"""
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

SIMT, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
CLI_RUNS = int(sys.argv[3]) if len(sys.argv) > 3 else 1500
CATALOG_RUNS = int(sys.argv[4]) if len(sys.argv) > 4 else 500
SEED = int(sys.argv[5]) if len(sys.argv) > 5 else 11868
TIMEOUT_S = 20  # a run past this is a hang: every seed below answers in well under a second
WORK = tempfile.mkdtemp(prefix="simt_fuzz_")
CRASH_TEXTS = ["Traceback", "terminate called", "what():", "Assertion", "AddressSanitizer", "core dumped",
               "Segmentation fault", "std::"]

# Command lines that are right (every one exits 0): the mutations start here. Only
# commands that read their arguments and print: nothing is built, nothing is written.
SEEDS = [
    "budget train --model llama3-8b --tokens 1T --gpus 64 --device H100-SXM --zero 3 --mfu 0.4",
    "budget train --params 7e9 --tokens 2T --gpus 8 --device H100-SXM --mfu 0.4 --json",
    "budget serve --model llama3-8b --device H100-SXM",
    "serve-sim --model llama3-8b --device H100-SXM --requests 50 --rate 10",
    "comm all-reduce --bytes 1GiB --gpus 8 --link NVLink4",
    "ddp --params 1e9 --backward 100ms --gpus 8 --link NVLink4 --bucket 25MB",
    "zero --params 7e9 --gpus 8 --link NVLink4",
    "tp --seq 2048 --hidden 12288 --tp 8 --link NVLink4",
    "moe --tokens 4096 --hidden 4096 --top-k 2 --ep 8 --link NVLink4",
    "layer --model llama3-8b --device H100-SXM --seq 128 --layer-index 0",
    "roofline --device H100-SXM --flops 1e12 --bytes 1e9",
    "device show H100-SXM",
    "devices --json",
    "links",
    "model show llama3-8b",
    "list",
    "metrics",
    "help budget",
]
VALUES = ["", "0", "-1", "-0", "1.5", "0.5", "1e308", "1e-300", "-1e308", "nan", "inf", "-inf", "NaN", "1e30",
          "99999999999999999999999", "0x", "0x10", "1Ki", "1GiB", "1e", "e9", "abc", "H100", "--", "-", "=", "1,5",
          "9" * 400, "\u00e9", " ", "1 2", "2147483648", "4294967297", "-2147483649", "18446744073709551616", "3T"]
OPTIONS = sorted({w for s in SEEDS for w in s.split() if w.startswith("--")} |
                 {"--help", "--version", "--json", "--jsn", "--timeout", "-h", "-x", "--mfu=", "--gpus=0", "--=1"})


def limit_resources():
    resource.setrlimit(resource.RLIMIT_AS, (8 << 30, 8 << 30))  # simt sizes itself under a limit (docs/exec.md)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


EXITS = {}  # (part, exit code) -> runs: printed, so a fuzzer that only ever hits usage errors shows


def run(argv, env, part):
    try:
        p = subprocess.run(argv, cwd=WORK, env=env, capture_output=True, timeout=TIMEOUT_S, preexec_fn=limit_resources)
    except subprocess.TimeoutExpired:
        return None, ""
    EXITS[(part, p.returncode)] = EXITS.get((part, p.returncode), 0) + 1
    return p.returncode, (p.stdout + p.stderr).decode("utf-8", "replace")


def verdict(rc, out, allowed):
    if rc is None:
        return f"no answer within {TIMEOUT_S} s (a hang)"
    if rc < 0:
        return f"killed by signal {-rc}"
    if rc not in allowed:
        return f"exit {rc}, not one of {sorted(allowed)}"
    if rc != 0 and not out.strip():
        return f"exit {rc} without a message"
    for t in CRASH_TEXTS:
        if t in out:
            return f"{t!r} in the output"
    return None


def mutate_argv(rng, argv):
    argv = list(argv)
    for _ in range(1 if rng.random() < 0.7 else rng.randint(2, 3)):  # mostly one change: deeper checks
        kind = rng.randrange(7)
        i = rng.randrange(len(argv)) if argv else 0
        if kind == 0 and argv:  # a value replaced
            argv[i] = rng.choice(VALUES)
        elif kind == 1 and argv:  # an argument dropped
            del argv[i]
        elif kind == 2:  # an option inserted, with or without a value
            argv[i:i] = [rng.choice(OPTIONS)] + ([rng.choice(VALUES)] if rng.random() < 0.6 else [])
        elif kind == 3 and len(argv) > 1:  # two swapped
            j = rng.randrange(len(argv))
            argv[i], argv[j] = argv[j], argv[i]
        elif kind == 4 and argv:  # an argument repeated
            argv.insert(i, argv[i])
        elif kind == 5 and argv and argv[i].startswith("--") and i + 1 < len(argv):  # --opt value -> --opt=value
            argv[i:i + 2] = [argv[i] + "=" + rng.choice([argv[i + 1]] + VALUES)]
        elif argv:  # an argument cut short
            argv[i] = argv[i][:rng.randrange(len(argv[i]) + 1)]
    return argv


def fuzz_cli(rng, failures):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SIMT_") or k == "SIMT_CACHE_DIR"}
    for n in range(CLI_RUNS):
        argv = mutate_argv(rng, rng.choice(SEEDS).split())
        rc, out = run([SIMT, *argv], env, "cli")
        problem = verdict(rc, out, {0, 1, 2})
        if problem:
            failures.append(f"cli #{n}: {problem}\n  $ simt {' '.join(repr(a) for a in argv)}\n  {out[-800:]}")


# ---- the catalog ------------------------------------------------------------------

ODD = [None, True, "", "abc", [], {}, 0, -1, 1e308, -1e308, 1e-300, 0.5, 7, 64, 2 ** 63, "9.0", "NaN", {"value": None}]


def numbers_and_fields(node, path=()):
    """Every (container, key) in the catalog: where a mutation can land."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield node, k
            yield from numbers_and_fields(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield node, i
            yield from numbers_and_fields(v, path + (i,))


def mutate_catalog(rng, base):
    if rng.random() < 0.2:  # bytes: cut, flipped or duplicated text
        text = json.dumps(base)
        at = rng.randrange(len(text))
        choice = rng.randrange(3)
        if choice == 0:
            return text[:at]
        if choice == 1:
            return text[:at] + chr(rng.randrange(32, 127)) + text[at + 1:]
        return text[:at] + text[at:at + rng.randrange(1, 200)] + text[at:]
    cat = json.loads(json.dumps(base))
    spots = list(numbers_and_fields(cat))
    for _ in range(1 if rng.random() < 0.7 else rng.randint(2, 3)):  # mostly one change: deeper checks
        node, key = rng.choice(spots)
        roll = rng.random()
        if roll < 0.6:
            node[key] = rng.choice(ODD)
        elif roll < 0.8 and isinstance(node, dict):
            node.pop(key, None)
        elif isinstance(node, list) and node:
            node.append(json.loads(json.dumps(node[key])))  # a duplicate entry
        spots = list(numbers_and_fields(cat))
    return json.dumps(cat)


def fuzz_catalog(rng, failures):
    with open(os.path.join(SRC, "cost", "catalog", "devices.json")) as f:
        base = json.load(f)
    path = os.path.join(WORK, "catalog.json")
    commands = [["devices"], ["device", "show", "H100-SXM"],
                ["budget", "train", "--model", "llama3-8b", "--tokens", "1T", "--gpus", "8", "--device", "H100-SXM",
                 "--mfu", "0.4"],
                ["roofline", "--device", "H100-SXM", "--flops", "1e12", "--bytes", "1e9"]]
    for n in range(CATALOG_RUNS):
        with open(path, "w") as f:
            f.write(mutate_catalog(rng, base))
        argv = rng.choice(commands)
        env = {k: v for k, v in os.environ.items() if not k.startswith("SIMT_")}
        env["SIMT_CATALOG"] = path
        rc, out = run([SIMT, *argv], env, "catalog")
        # A catalog error is an error in an input file (1); a device it dropped is an unknown name (2).
        problem = verdict(rc, out, {0, 1, 2})
        if problem:
            keep = os.path.join(WORK, f"catalog_fail_{n}.json")
            os.replace(path, keep)
            failures.append(f"catalog #{n}: {problem}\n  $ SIMT_CATALOG={keep} simt {' '.join(argv)}\n  {out[-800:]}")


def main():
    rng = random.Random(SEED)
    failures = []
    start = time.monotonic()
    fuzz_cli(rng, failures)
    cli_s = time.monotonic() - start
    fuzz_catalog(rng, failures)
    total_s = time.monotonic() - start
    print(f"{CLI_RUNS} command lines in {cli_s:.1f} s, {CATALOG_RUNS} catalogs in {total_s - cli_s:.1f} s "
          f"(seed {SEED}, work folder {WORK})")
    print("exit codes: " + ", ".join(f"{part} {code}: {n}" for (part, code), n in sorted(EXITS.items())))
    if failures:
        print(f"{len(failures)} failures:\n" + "\n\n".join(failures[:30]))
        sys.exit(1)
    shutil.rmtree(WORK)  # kept when a run failed: it holds the failing catalogs
    print("no crash, hang or undocumented exit code")


main()
