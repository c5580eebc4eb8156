#!/usr/bin/env python3
"""One JSON style for every subcommand, and a guide whose JSON is true.

usage: check_json.py STEX_BIN GUIDE.md

1. Runs every subcommand that has --json and checks its output: every key
   snake_case ([a-z][a-z0-9_]*), every texture size ("size",
   "default_size") a list [width, height, layers].
2. Runs, in order and in a scratch directory, every `$ stex ...` command the
   guide shows, and for each that prints JSON (--json) checks that the JSON
   the guide prints under it is what the command prints.  Only the times,
   "dispatch_ms" (a number) and "step_ms" (a list of as many numbers), may
   differ.

Exit status 0 when all holds; otherwise 1 after printing each difference.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

KEY = re.compile(r"^[a-z][a-z0-9_]*$")
SIZE_KEYS = {"size", "default_size"}
VOLATILE = {"dispatch_ms", "step_ms"}

# Every subcommand that prints JSON, with the files it needs made first.
STYLE_COMMANDS = [
    "formats --json",
    "store rgba16float 65520 0 0 1 --json",
    "validate --format rgba8unorm --access read-write --json",
    "layout rgba8unorm 16x16 --json",
    "eval 'a * b' 0x00000001 0.98 --json",
    "run --list --json",
    "run difundir --size 8x8 --threads 1 --race-check --dump-input in.npy --out a.bin --json",
    "run difundir --size 8x8 --threads 1 --seed 3 --out b.bin --json",
    "run --replay a.bin.json --json",
    "race difundir --size 8x8 --runs 2 --threads 1 --json",
    "compare a.bin b.bin --json",
]

problems = []


def run(stex, line, cwd):
    args = shlex.split(line)
    return subprocess.run([stex] + args, cwd=cwd, capture_output=True, text=True)


def check_style(where, value, path="$"):
    if isinstance(value, dict):
        for k, v in value.items():
            if not KEY.match(k):
                problems.append(f"{where}: key {path}.{k} is not snake_case")
            if k in SIZE_KEYS and isinstance(v, list) and len(v) != 3:
                problems.append(f"{where}: {path}.{k} is {v}, not [width, height, layers]")
            check_style(where, v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            check_style(where, v, f"{path}[{i}]")


def same(doc, real, path="$"):
    """The differences between the guide's JSON and the command's."""
    if isinstance(doc, dict) and isinstance(real, dict):
        out = []
        for k in sorted(set(doc) | set(real)):
            if k not in real:
                out.append(f"{path}.{k}: in the guide, not printed")
            elif k not in doc:
                out.append(f"{path}.{k}: printed ({json.dumps(real[k])}), not in the guide")
            elif k in VOLATILE:
                d, r = doc[k], real[k]
                if isinstance(d, list) and isinstance(r, list) and len(d) == len(r):
                    d, r = d or [0], r or [0]
                    if not all(isinstance(v, (int, float)) for v in d + r):
                        out.append(f"{path}.{k}: not numbers")
                elif not isinstance(d, (int, float)) or not isinstance(r, (int, float)):
                    out.append(f"{path}.{k}: not a number (or a list of as many numbers)")
            else:
                out += same(doc[k], real[k], f"{path}.{k}")
        return out
    if isinstance(doc, list) and isinstance(real, list) and len(doc) == len(real):
        out = []
        for i, (d, r) in enumerate(zip(doc, real)):
            out += same(d, r, f"{path}[{i}]")
        return out
    if doc != real:
        return [f"{path}: the guide has {json.dumps(doc)}, the command prints {json.dumps(real)}"]
    return []


def guide_samples(text):
    """(command, JSON text or None) for each `$ stex` line of the guide."""
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)\$ stex (.*)$", line)
        if not m:
            continue
        indent, body = len(m.group(1)), []
        for nxt in lines[i + 1:]:
            s = nxt.strip()
            if not s or s.startswith("$") or len(nxt) - len(nxt.lstrip()) < indent:
                break
            body.append(s)
        is_json = "--json" in shlex.split(m.group(2))
        out.append((m.group(2), "\n".join(body) if is_json else None))
    return out


def main():
    stex, guide = os.path.abspath(sys.argv[1]), sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="stex-test-json-") as d:
        for line in STYLE_COMMANDS:
            r = run(stex, line, d)
            try:  # exit 1 is a result too (compare: a mismatch)
                check_style(f"stex {line}", json.loads(r.stdout))
            except json.JSONDecodeError as e:
                problems.append(f"stex {line}: exit {r.returncode}, not JSON ({e}): "
                                f"{r.stderr.strip()}")
    samples = 0
    with open(guide, encoding="utf-8") as f:
        text = f.read()
    with tempfile.TemporaryDirectory(prefix="stex-test-guide-") as d:
        for line, doc in guide_samples(text):
            r = run(stex, line, d)
            if doc is None:
                continue
            samples += 1
            where = f"docs/guide.md: $ stex {line}"
            try:
                doc_json = json.loads(doc)
            except json.JSONDecodeError as e:
                problems.append(f"{where}: the guide's sample is not JSON ({e})")
                continue
            try:
                real = json.loads(r.stdout)
            except json.JSONDecodeError:
                problems.append(f"{where}: exit {r.returncode}, printed no JSON: "
                                f"{r.stderr.strip()}")
                continue
            check_style(where, real)
            problems.extend(f"{where}: {p}" for p in same(doc_json, real))
    if samples == 0:
        problems.append("docs/guide.md: no `$ stex ... --json` sample found")
    for p in problems:
        print(p)
    print(f"{len(STYLE_COMMANDS)} commands' JSON style checked, {samples} guide samples compared: "
          f"{'ok' if not problems else str(len(problems)) + ' problem(s)'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
