#!/usr/bin/env python3
"""Every lab, graded by `simt lab check` as a learner's file would be:

- the starter builds, runs and fails the check (exit 1);
- the solution passes every criterion (exit 0);
- each planted wrong file of tests/labs/wrong/*.json fails exactly where it should
  (e.g. right outputs but uncoalesced loads: the traffic target, not the output);
- the commands around the check: list --json, show, start (never overwriting),
  hint, and the usage errors.

usage: test_labs.py SIMT LABS_DIR [LAB ...]   (no LAB: every lab)
Progress goes to a temporary $XDG_STATE_HOME, never the user's.
"""
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(simt, args, env):
    r = subprocess.run([simt] + args, capture_output=True, text=True, env=env)
    return r.returncode, r.stdout, r.stderr


def check(simt, lab, path, env):
    code, out, err = run(simt, ["lab", "check", lab, path, "--json"], env)
    try:
        card = json.loads(out)
    except json.JSONDecodeError:
        card = None
    return code, card, err


def failing(card):
    return [c["criterion"] for c in card["criteria"] if not c["pass"]] if card else ["(no report card)"]


def grade_lab(simt, lab, env):
    """The starter fails, the solution passes. Returns a list of problems."""
    problems = []
    d = lab["dir"]
    spec = json.load(open(os.path.join(d, "checks.json")))
    starter = os.path.join(d, spec["starter"])
    solution = os.path.join(d, spec["solution"])
    code, card, err = check(simt, lab["name"], solution, env)
    if code != 0 or not card or not card["passed"]:
        problems.append(f"{lab['name']}: the solution fails {failing(card)} (exit {code})\n{err[-2000:]}")
    code, card, err = check(simt, lab["name"], starter, env)
    if code != 1 or not card or card["passed"]:
        problems.append(f"{lab['name']}: the starter does not fail (exit {code})\n{err[-2000:]}")
    return problems


def grade_wrong(simt, labs_dir, case, env):
    path = os.path.join(HERE, "wrong", case["file"])
    code, card, err = check(simt, case["lab"], path, env)
    fails = failing(card)
    if code != 1 or case["fails"] not in fails:
        return [f"{case['file']}: expected '{case['fails']}' to fail, got exit {code}, failing {fails}\n{err[-2000:]}"]
    # Targets a failed launch left unmeasured fail too ("not measured: ..."); the
    # planted file is about what was measured.
    unmeasured = [c["criterion"] for c in card["criteria"] if c["detail"].startswith("not measured")]
    extra = [f for f in fails if f not in case.get("also_fails", []) and f != case["fails"] and f not in unmeasured]
    if extra:
        return [f"{case['file']}: only '{case['fails']}' should fail, also failing: {extra}"]
    return []


def commands(simt, labs, env, work):
    problems = []
    code, out, _ = run(simt, ["lab", "list", "--json"], env)
    listed = json.loads(out) if code == 0 else []
    if code != 0 or len(listed) != len(labs) or any(
            not {"name", "lecture", "title", "status"} <= set(l) for l in listed):
        problems.append(f"lab list --json: exit {code}, {out[:300]}")
    first = labs[0]["name"]
    code, out, _ = run(simt, ["lab", "show", first], env)
    if code != 0 or "Done means" not in out:
        problems.append(f"lab show {first}: exit {code}, no 'Done means' section")
    target = os.path.join(work, "start")
    code, out, err = run(simt, ["lab", "start", first, target], env)
    if code != 0 or not os.listdir(target):
        problems.append(f"lab start {first}: exit {code}: {err}")
    mine = os.path.join(target, os.listdir(target)[0]) if os.path.isdir(target) else None
    if mine:
        with open(mine, "a") as f:
            f.write("// my edit\n")
        code, _, err = run(simt, ["lab", "start", first, target], env)
        if code != 1 or "exists" not in err or "// my edit" not in open(mine).read():
            problems.append(f"lab start over an existing copy: exit {code}, {err}")
    code, out, _ = run(simt, ["lab", "list", "--json"], env)
    status = {l["name"]: l["status"] for l in json.loads(out)} if code == 0 else {}
    if status.get(first) not in ("started", "passed"):
        problems.append(f"lab list after start: {first} is {status.get(first)}")
    # --picture: the failed coalescing target of a planted file gets its access pattern.
    pictures = os.path.join(work, "pictures")
    code, out, err = run(simt, ["lab", "check", "01-map", os.path.join(HERE, "wrong", "map_strided.cu"), "--json",
                                "--picture", pictures], env)
    card = json.loads(out) if out.startswith("{") else {}
    drawn = [c["picture"] for c in card.get("criteria", []) if c.get("picture")]
    if code != 1 or len(drawn) != 1 or not open(drawn[0], "rb").read(8).startswith(b"\x89PNG"):
        problems.append(f"lab check --picture: exit {code}, pictures {drawn}: {err[-800:]}")
    for args, want in ((["lab", "check", "no-such-lab", mine or "x"], 2), (["lab", "hint", first, "99"], 2),
                       (["lab", "hint", first], 0), (["lab", "show", "mpa"], 2)):
        code, out, err = run(simt, args, env)
        if code != want:
            problems.append(f"simt {' '.join(args)}: exit {code}, want {want}: {err}")
    return problems


def main():
    simt, labs_dir = sys.argv[1], sys.argv[2]
    only = sys.argv[3:]
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, XDG_STATE_HOME=os.path.join(work, "state"))
        code, out, err = run(simt, ["lab", "list", "--json"], env)
        if code != 0:
            print(f"simt lab list failed: {err}")
            return 1
        labs = [l for l in json.loads(out) if not only or l["name"] in only]
        wrong = []  # tests/labs/wrong/NN-name.json: the planted files of each lab
        for name in sorted(os.listdir(os.path.join(HERE, "wrong"))):
            if name.endswith(".json"):
                wrong += json.load(open(os.path.join(HERE, "wrong", name)))
        wrong = [w for w in wrong if not only or w["lab"] in only]
        problems = commands(simt, labs, env, work) if not only else []
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            jobs = [pool.submit(grade_lab, simt, lab, env) for lab in labs]
            jobs += [pool.submit(grade_wrong, simt, labs_dir, w, env) for w in wrong]
            for j in jobs:
                problems += j.result()
        for p in problems:
            print("FAIL", p)
        print(f"{len(labs)} labs, {len(wrong)} planted wrong files: {len(problems)} problems")
        return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
