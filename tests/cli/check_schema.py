#!/usr/bin/env python3
"""Every JSON that `stex run` and `stex race` print fits one schema.

usage: check_schema.py STEX_BIN SCHEMA.json RACE_SHADERS_DIR

Runs every subcommand that writes a run or race JSON - run KERNEL (with and
without --race-check, --races all, a replay), run FILE.json (and its replay), run FILE.wgsl,
race KERNEL, race FILE.json, race FILE.wgsl - in a scratch folder holding
copies of the race shaders, and validates each output against the schema
(docs/schema/stex-run.schema.json) with python3-jsonschema.  Then checks
that the schema is strict: a member it does not name, or a misspelt race
count (write-write), is refused.

Exit status 0 when every output fits; 1 after printing each that does not.
"""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

import jsonschema

COMMANDS = [
    "run difundir --size 8x8 --threads 1 --json",
    "run difundir --size 8x8 --threads 1 --race-check --out a.bin --dump-input in.npy --json",
    "run difundir --size 8x8 --threads 1 --seed 3 --race-check --races all --json",
    "run decaer --size 8x8 --executor c --race-check --json",
    "run --replay a.bin.json --json",
    "run reduce.json --json",
    "run reduce.json --race-check --races all --json",
    "run shift.json --race-check --races 0 --json",
    "run --replay shift-cells.bin.json --json",
    "run stats.json --race-check --json",
    "run blur.wgsl --size 16x16 --race-check --json",
    # an allowed golden: the bounds' summaries in "allowed"
    "run decaer --size 8x8 --out g.bin --golden allowed --json",
    "run reduce.json --golden allowed --json",
    "run blur.wgsl --size 16x16 --out bw.bin --golden allowed --json",
    "run blur.json --fail-on-race --json",
    "race difundir --size 8x8 --runs 2 --threads 1 --json",
    # seeds past 2^63 - 1: their digits as a string, never a negative number
    "race difundir --size 8x8 --runs 2 --threads 1 --seed 18446744073709551614 --json",
    "run difundir --size 8x8 --threads 1 --schedule shuffled --seed 18446744073709551615 --json",
    "race difundir --size 8x8 --runs 2 --executor c --races all --json",
    "race difundir-pingpong --size 8x8 --runs 2 --json",
    "race reduce.json --runs 2 --json",
    "race prefix.json --runs 2 --races all --json",
    "race blur.wgsl --size 16x16 --runs 2 --json",
]


def main():
    stex, schema_path, shaders = (os.path.abspath(a) for a in sys.argv[1:4])
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.Draft202012Validator
    cls.check_schema(schema)
    validator = cls(schema)
    problems, outputs = [], {}
    with tempfile.TemporaryDirectory(prefix="stex-test-schema-") as d:
        for name in os.listdir(shaders):
            shutil.copy(os.path.join(shaders, name), d)
        for line in COMMANDS:
            r = subprocess.run([stex] + line.split(), cwd=d, capture_output=True, text=True)
            try:
                out = json.loads(r.stdout)
            except json.JSONDecodeError as e:
                problems.append(f"stex {line}: exit {r.returncode}, not JSON ({e}): "
                                f"{r.stderr.strip()}")
                continue
            outputs[line] = out
            for err in validator.iter_errors(out):
                path = "$" + "".join(f"[{p!r}]" for p in err.absolute_path)
                problems.append(f"stex {line}: {path}: {err.message[:300]}")
    # the schema is strict: what it does not name is refused
    sample = outputs.get("run reduce.json --race-check --races all --json")
    if sample:
        bad = copy.deepcopy(sample)
        bad["ms"] = 1.0
        if validator.is_valid(bad):
            problems.append("the schema accepts an unknown member 'ms'")
        bad = copy.deepcopy(sample)
        bad["races"]["write-write"] = bad["races"].pop("write_write")
        if validator.is_valid(bad):
            problems.append("the schema accepts 'write-write' for 'write_write'")
    for p in problems:
        print(p)
    print(f"{len(COMMANDS)} outputs checked against {os.path.basename(schema_path)}: "
          f"{'ok' if not problems else str(len(problems)) + ' problem(s)'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
