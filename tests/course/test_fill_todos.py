#!/usr/bin/env python3
"""fill_todos.py on planted course files: repeated markers, indentation, the comment
styles of HW1 and HW4, and the loud failures (a region without a solution, a solution
without a region, an unterminated region). Run by ctest as course_fill_todos."""
import pathlib
import subprocess
import sys
import tempfile

FILL = pathlib.Path(__file__).resolve().parent / "fill_todos.py"

COURSE = """\
__global__ void k() {
    // BEGIN ASSIGN9_1
    // TODO
    // END ASSIGN9_1
  int keep = 0;
    // BEGIN ASSIGN9_1
    // END ASSIGN9_1
  /// BEGIN ASSIGN9_2
  assert(false && "Not Implemented");
  /// END ASSIGN9_2
}
"""
PY = """\
def f():
        # BEGIN ASSIGN9_3
        raise NotImplementedError
        # END ASSIGN9_3
"""


def run(root: pathlib.Path, *targets: str) -> subprocess.CompletedProcess:
    args = [sys.executable, str(FILL), str(root), str(root / "sol"), "--prefix", "ASSIGN9_"]
    for t in targets:
        args += ["--target", t]
    return subprocess.run(args, capture_output=True, text=True)


def planted(tmp: str, solutions: dict) -> pathlib.Path:
    root = pathlib.Path(tmp)
    (root / "src").mkdir()
    (root / "src" / "k.cu").write_text(COURSE)
    (root / "ops.py").write_text(PY)
    (root / "sol").mkdir()
    for name, text in solutions.items():
        (root / "sol" / name).write_text(text)
    return root


def check(cond: bool, what: str) -> None:
    if not cond:
        sys.exit(f"FAIL: {what}")


def main() -> None:
    good = {"ASSIGN9_1.1.cu": "first();\n", "ASSIGN9_1.2.cu": "if (x) {\n  second();\n}\n",
            "ASSIGN9_2.cu": "third();\n", "ASSIGN9_3.py": "return 3\n"}
    with tempfile.TemporaryDirectory() as tmp:
        root = planted(tmp, good)
        r = run(root, "ASSIGN9_*.cu=src/k.cu", "ASSIGN9_*.py=ops.py")
        check(r.returncode == 0, f"fill succeeds: {r.stderr}")
        check("filled src/k.cu (3 regions)" in r.stdout, r.stdout)
        text = (root / "src" / "k.cu").read_text()
        check(text == COURSE.replace("    // TODO\n", "    first();\n")
              .replace("    // BEGIN ASSIGN9_1\n    // END", "    // BEGIN ASSIGN9_1\n    if (x) {\n      second();\n    }\n    // END")
              .replace('  assert(false && "Not Implemented");\n', "  third();\n"), text)
        check((root / "ops.py").read_text() == PY.replace("raise NotImplementedError", "return 3"),
              (root / "ops.py").read_text())
    cases = {
        "a region without its solution": ({k: v for k, v in good.items() if k != "ASSIGN9_1.2.cu"},
                                          "needs the solution file ASSIGN9_1.2.cu"),
        "a solution without a region": ({**good, "ASSIGN9_4.cu": "x;\n"}, "has no region for ASSIGN9_4.cu"),
        "one solution for a part marked twice": ({**{k: v for k, v in good.items() if not k.startswith("ASSIGN9_1")},
                                                  "ASSIGN9_1.cu": "x;\n"}, "needs the solution file ASSIGN9_1.1.cu"),
    }
    for what, (solutions, message) in cases.items():
        with tempfile.TemporaryDirectory() as tmp:
            root = planted(tmp, solutions)
            r = run(root, "ASSIGN9_*.cu=src/k.cu")
            check(r.returncode != 0 and message in r.stderr, f"{what}: {r.returncode} {r.stderr!r}")
            check((root / "src" / "k.cu").read_text() == COURSE, f"{what}: the course file is left unchanged")
    with tempfile.TemporaryDirectory() as tmp:
        root = planted(tmp, good)
        (root / "src" / "k.cu").write_text(COURSE.replace("  /// END ASSIGN9_2\n", ""))
        r = run(root, "ASSIGN9_*.cu=src/k.cu")
        check(r.returncode != 0 and "'BEGIN ASSIGN9_2' has no 'END ASSIGN9_2'" in r.stderr, r.stderr)
    print("PASS: fill_todos")


if __name__ == "__main__":
    main()
