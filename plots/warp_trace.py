"""What plots/access_pattern.py and plots/bank_map.py share: reading the launch JSON
that `simt exec --json=FILE` writes with SIMT_OPTIONS=trace_warps=N, picking the traced
accesses of one source line, and failing with one line and exit status 2."""
import json
import os
import sys

SECTOR = 32  # bytes
MAX_PANELS = 4


def fail(script, message):
    print(f"{script}: {message}", file=sys.stderr)
    sys.exit(2)


def load(script, path):
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        fail(script, f"cannot read {path}: {e.strerror}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        fail(script, f"{path} is not JSON ({getattr(e, 'msg', e)}); write it with simt exec FILE.cu --json={path}")
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not all(isinstance(l, dict) for l in data):
        fail(script, f"{path} is not a list of launches: expected what simt exec --json=FILE writes")
    if not any(isinstance(l.get("access_trace"), list) for l in data):
        fail(script, f"{path} has no access_trace: run the program with SIMT_OPTIONS=trace_warps=2 "
                     f"simt exec FILE.cu --json={path}")
    return data


def file_matches(entry_file, wanted):
    if wanted is None:
        return True
    return entry_file == wanted or entry_file.endswith("/" + wanted) or os.path.basename(entry_file) == wanted


def select(script, launches, args, space=None):
    """The traced accesses at args.line (and args.file, args.launch, args.warp) as
    (launch number from 1, kernel, entry), in the JSON's order; exit 2 if none."""
    if args.launch is not None and not 1 <= args.launch <= len(launches):
        fail(script, f"--launch {args.launch}: the file has launches 1 to {len(launches)}")
    picked, lines, other_space = [], set(), []
    for k, launch in enumerate(launches, 1):
        if args.launch is not None and k != args.launch:
            continue
        for e in launch.get("access_trace") or []:
            if not file_matches(e.get("file", ""), args.file):
                continue
            lines.add(e.get("line"))
            if e.get("line") != args.line or (args.warp is not None and e.get("warp") != args.warp):
                continue
            if space and e.get("space") != space:
                other_space.append(e)
                continue
            picked.append((k, launch.get("kernel", "?"), e))
    if not picked:
        where = f"line {args.line}" + (f" of {args.file}" if args.file else "")
        where += f", warp {args.warp}" if args.warp is not None else ""
        where += f", launch {args.launch}" if args.launch is not None else ""
        if other_space:
            fail(script, f"no {space}-memory access traced at {where} (only {other_space[0]['space']} ones)")
        shown = sorted(l for l in lines if isinstance(l, int))
        hint = f"; traced lines: {', '.join(map(str, shown[:20]))}" if shown else ""
        fail(script, f"no access traced at {where}{hint}")
    return picked


def panel_title(k, kernel, e):
    block = ",".join(str(b) for b in e.get("block", []))
    return (f"launch {k} {kernel}, {e['file']}:{e['line']}\n"
            f"{e['space']} {e['op']} of {e['size']} B a lane, block ({block}) warp {e['warp']}")


def save(script, fig, path):
    try:
        fig.savefig(path, dpi=120)
    except (OSError, ValueError) as e:
        fail(script, f"cannot write {path}: {getattr(e, 'strerror', None) or e}")
    print(f"wrote {path}")


def add_common_arguments(ap, default_output):
    ap.add_argument("launches", help="JSON written by SIMT_OPTIONS=trace_warps=N simt exec FILE.cu --json=FILE")
    ap.add_argument("--line", type=int, required=True, help="the source line whose accesses to draw")
    ap.add_argument("--file", help="the source file (its name or the end of its path), when several have the line")
    ap.add_argument("--launch", type=int, help="only this launch, numbered from 1 as simt exec prints them")
    ap.add_argument("--warp", type=int, help="only this warp (within its block)")
    ap.add_argument("-o", "--output", default=default_output, help=f"the PNG to write (default {default_output})")
