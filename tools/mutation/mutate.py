#!/usr/bin/env python3
"""Sensitivity of allowed goldens (issue 27): mutants of real shaders against
the allowed golden of the original.

usage: tools/mutation/mutate.py STEX [--shaders DIR] [--kernels K,K,...]
                                [--size WxH] [--max N] [--json FILE]

For each subject - a lesson kernel's WGSL (its run file as `stex run K
--print-run` gives it, with an "outputs" entry added) or a shader of
tests/data/mutation/ (`stex run X.wgsl --size WxH`) - the original is run
with `--golden allowed`, then every mutant (at most --max per subject,
spread over the kinds) is run exactly (the spec profile) and its output
compared with the original's allowed golden (`stex compare`).  Mutants:

  op      a binary operator swapped: + -, * /, < <=, > >=, == !=
  index   an index or a texture coordinate off by one
  const   a constant changed: a float times 1.01 (0: 0.01), an integer + 1
  drop    one statement dropped (an assignment or a call; never a
          declaration, a barrier, a return, or a textureStore, which
          would take the output's binding away)

It also prints the tightness of each original's golden: values, exact
ones, the median and widest width of the bounded ones (ULP for float
formats, LSB otherwise) and the unconstrained ones.

Each mutant is: invalid (the front end or the device refused it),
unchanged (its output has the original's bytes: not observable under this
profile), caught (a value outside the original's bounds), or missed
(changed, but every changed value lies inside the bounds: within WGSL's
allowance of the original, or in values the original leaves unconstrained
- the report says which, and the widest allowance met).  The fraction
caught is caught / (caught + missed).

Exit status 0; 1 with --min-caught P when fewer than P percent of the
changed mutants are caught; 2 on a usage error or when an original cannot
be run.
"""
import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

KERNELS = ["decaer", "difundir-pingpong", "blur", "box3x3-texture", "box3x3-buffer", "generar"]
# bytes per texel and channels of the formats the subjects write
FORMATS = {"r32float": (4, 1, "f"), "r32uint": (4, 1, "u"), "r32sint": (4, 1, "i"),
           "rgba8unorm": (4, 4, "u"), "rgba8snorm": (4, 4, "u"), "rgba16float": (8, 4, "h"),
           "rgba32float": (16, 4, "f"), "rgba32uint": (16, 4, "u")}
SWAP = {"+": "-", "-": "+", "*": "/", "/": "*", "<": "<=", "<=": "<", ">": ">=", ">=": ">",
        "==": "!=", "!=": "=="}
SKIP_LINE = re.compile(r"^\s*(//|@|fn |const |struct |override |var<|alias |enable )")


def stex(exe, args, cwd):
    return subprocess.run([exe] + args, cwd=cwd, capture_output=True, text=True)


# ---- mutants ----

def body_lines(src):
    """Indices of the lines a mutant may change: inside functions, no comment,
    attribute or declaration at module scope."""
    out, depth = [], 0
    for i, line in enumerate(src.split("\n")):
        if depth > 0 and not SKIP_LINE.match(line) and line.strip() not in ("{", "}"):
            out.append(i)
        depth += line.count("{") - line.count("}")
    return out


def call_second_arg(line, name):
    """(start, end) of the second argument of each call of `name` in line."""
    spans = []
    for m in re.finditer(re.escape(name) + r"\(", line):
        i, depth, commas = m.end(), 0, []
        while i < len(line):
            c = line[i]
            if c in "([":
                depth += 1
            elif c in ")]":
                if depth == 0:
                    break
                depth -= 1
            elif c == "," and depth == 0:
                commas.append(i)
            i += 1
        if commas:
            spans.append((commas[0] + 1, commas[1] if len(commas) > 1 else i))
    return spans


def mutants(src):
    """Every (kind, description, mutated source) of src."""
    lines = src.split("\n")
    out = []

    def put(kind, i, new, what, col):
        copy = list(lines)
        copy[i] = new
        out.append((kind, f"line {i + 1}:{col + 1}: {what}", "\n".join(copy)))

    for i in body_lines(src):
        line = lines[i]
        for m in re.finditer(r"(?<= )(<=|>=|==|!=|[+\-*/<>])(?= )", line):
            op = m.group(1)
            put("op", i, line[:m.start()] + SWAP[op] + line[m.end():], f"'{op}' -> '{SWAP[op]}'",
                m.start())
        for m in re.finditer(r"(\w)\[([^\[\]]+)\]", line):
            put("index", i, line[:m.start(2)] + f"({m.group(2)}) + 1" + line[m.end(2):],
                f"[{m.group(2)}] -> [({m.group(2)}) + 1]", m.start(2))
        for name in ("textureStore", "textureLoad"):
            for a, b in call_second_arg(line, name):
                arg = line[a:b].strip()
                put("index", i, line[:a] + f" ({arg}) + vec2<i32>(1, 0)" + line[b:],
                    f"{name} coordinate {arg} + (1, 0)", a)
        for m in re.finditer(r"(?<![\w.])(\d+\.\d*|\.\d+|\d+[ui]?)(?![\w.])", line):
            lit = m.group(1)
            if "." in lit:
                v = float(lit)
                new = repr(v * 1.01) if v else "0.01"
            else:
                suffix = lit[-1] if lit[-1] in "ui" else ""
                new = str(int(lit.rstrip("ui")) + 1) + suffix
            put("const", i, line[:m.start(1)] + new + line[m.end(1):], f"{lit} -> {new}",
                m.start(1))
        s = line.strip()
        if (s.endswith(";") and not re.match(r"(let|var|const|return)\b", s) and
                "Barrier" not in s and "workgroupUniformLoad" not in s and
                "textureStore" not in s):
            put("drop", i, re.sub(r"\S.*", "// (dropped)", line), f"dropped '{s}'",
                len(line) - len(line.lstrip()))
    return out


def pick(all_mutants, n):
    """At most n, spread over the kinds and over each kind's list."""
    kinds = {}
    for m in all_mutants:
        kinds.setdefault(m[0], []).append(m)
    out, per = [], max(1, n // max(1, len(kinds)))
    for ms in kinds.values():
        step = max(1, len(ms) // per)
        out += ms[::step][:per]
    return out[:n]


# ---- subjects ----

class Subject:
    """A folder with a run file (or a .wgsl) whose output is out.bin."""

    def __init__(self, name, folder, wgsl_files, args):
        self.name, self.folder, self.wgsl_files, self.args = name, folder, wgsl_files, args


def kernel_subject(exe, repo, k, size, work):
    folder = os.path.join(work, k)
    os.makedirs(folder)
    r = stex(exe, ["run", k, "--size", size, "--print-run"], folder)
    if r.returncode:
        raise RuntimeError(f"{k}: {r.stderr.strip()}")
    run = json.loads(r.stdout)
    with open(os.path.join(repo, "src", "kernels", "wgsl", k + ".json"), encoding="utf-8") as f:
        out = json.load(f)["$output"]
    if isinstance(out, list):  # difundir-pingpong: one iteration ends in the even one
        out = next(o for o in out if o.get("$when") == "even")
    entry = {key: v for key, v in out.items() if not key.startswith("$")}
    if "buffer" in entry:
        w, h = (int(x) for x in size.split("x"))
        entry["size"] = [w, h]
    entry["file"] = "out.bin"
    run["outputs"] = [entry]
    files = []
    for m in run["shaderModules"].values():
        shutil.copy(os.path.join(repo, "src", "kernels", "wgsl", m["file"]), folder)
        files.append(m["file"])
    if "input.bin" in json.dumps(run):
        r = stex(exe, ["run", k, "--size", size, "--dump-input", "in.npy"], folder)
        if r.returncode:
            raise RuntimeError(f"{k}: --dump-input: {r.stderr.strip()}")
        with open(os.path.join(folder, "in.npy"), "rb") as f:
            npy = f.read()
        hlen = struct.unpack_from("<H", npy, 8)[0]
        with open(os.path.join(folder, "input.bin"), "wb") as f:
            f.write(npy[10 + hlen:])
    with open(os.path.join(folder, "run.json"), "w", encoding="utf-8") as f:
        json.dump(run, f, indent=1)
    return Subject(k, folder, files, ["run", "run.json"])


def shader_subject(path, size, work):
    name = os.path.splitext(os.path.basename(path))[0]
    folder = os.path.join(work, name)
    os.makedirs(folder)
    shutil.copy(path, os.path.join(folder, "s.wgsl"))
    return Subject(name, folder, ["s.wgsl"], ["run", "s.wgsl", "--size", size, "--out", "out.bin"])


# ---- judging ----

def read_texels(path):
    with open(path + ".json", encoding="utf-8") as f:
        side = json.load(f)
    with open(path, "rb") as f:
        data = f.read()
    return side, data


def missed_why(orig, mutant):
    """Why a changed output passed: the changed values' bounds."""
    side, a = read_texels(orig)
    _, b = read_texels(mutant)
    fmt = side["format"]
    if fmt not in FORMATS:
        return "inside the bounds"
    tb, ch, _ = FORMATS[fmt]
    w, h, d = side["size"]
    bpr = side["bytes_per_row"]
    with open(orig + ".allowed", "rb") as f:
        bounds = f.read()
    nreasons = struct.unpack_from("<I", bounds, 44)[0]
    p = 48 + 12 * w * h * d * ch
    reasons = []
    for _ in range(nreasons):
        n = struct.unpack_from("<I", bounds, p)[0]
        reasons.append(bounds[p + 4:p + 4 + n].decode("utf-8", "replace"))
        p += 4 + n
    free, widest, changed = {}, 0, 0
    for y in range(h):
        for x in range(w):
            off = y * bpr + x * tb
            if a[off:off + tb] == b[off:off + tb]:
                continue
            changed += 1
            for c in range(ch):
                lo, hi, fr = struct.unpack_from("<3I", bounds, 48 + 12 * ((y * w + x) * ch + c))
                if fr & 4:
                    why = reasons[(fr >> 8) - 1] if fr >> 8 else "no reason"
                    free[why] = free.get(why, 0) + 1
                elif hi != lo:
                    widest = max(widest, hi - lo)
    if free:
        top = max(free, key=free.get)
        return f"{changed} texels changed, in values the original leaves unconstrained ({top})"
    return f"{changed} texels changed, each within WGSL's allowance (bounds up to {widest} codes wide)"


def judge(exe, subj, kind, what, text, wgsl_file, orig_out):
    with tempfile.TemporaryDirectory(prefix="stex-mutant-") as d:
        for f in os.listdir(subj.folder):
            if not f.startswith("out.bin"):
                shutil.copy(os.path.join(subj.folder, f), d)
        with open(os.path.join(d, wgsl_file), "w", encoding="utf-8") as f:
            f.write(text)
        r = stex(exe, subj.args + ["-q"], d)
        if r.returncode:
            return {"kind": kind, "what": what, "file": wgsl_file, "verdict": "invalid",
                    "why": (r.stderr.strip().splitlines() or ["?"])[0][:160]}
        out = os.path.join(d, "out.bin")
        with open(out, "rb") as f1, open(orig_out, "rb") as f2:
            if f1.read() == f2.read():
                return {"kind": kind, "what": what, "file": wgsl_file, "verdict": "unchanged"}
        c = stex(exe, ["compare", orig_out, out, "--json"], d)
        res = json.loads(c.stdout)
        if not res["inside"]:
            return {"kind": kind, "what": what, "file": wgsl_file, "verdict": "caught",
                    "outside": res["outside"]}
        return {"kind": kind, "what": what, "file": wgsl_file, "verdict": "missed",
                "why": missed_why(orig_out, out)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("stex")
    ap.add_argument("--shaders", default=None, help="folder of .wgsl subjects "
                    "(default tests/data/mutation)")
    ap.add_argument("--kernels", default=",".join(KERNELS))
    ap.add_argument("--size", default="16x16")
    ap.add_argument("--max", type=int, default=12, help="mutants per subject")
    ap.add_argument("--json", default=None, help="write every mutant's verdict here")
    ap.add_argument("--min-caught", type=float, default=None, metavar="PERCENT",
                    help="exit 1 when fewer of the changed mutants are caught (CI)")
    a = ap.parse_args()
    exe = os.path.abspath(a.stex)
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    shaders = a.shaders or os.path.join(repo, "tests", "data", "mutation")
    rows, every = [], []
    with tempfile.TemporaryDirectory(prefix="stex-mutation-") as work:
        subjects = []
        try:
            for k in filter(None, a.kernels.split(",")):
                subjects.append(kernel_subject(exe, repo, k, a.size, work))
            for f in sorted(os.listdir(shaders)):
                if f.endswith(".wgsl"):
                    subjects.append(shader_subject(os.path.join(shaders, f), a.size, work))
        except (RuntimeError, OSError, ValueError) as e:
            print(f"mutate.py: {e}", file=sys.stderr)
            return 2
        tight = []
        for s in subjects:
            r = stex(exe, s.args + ["--golden", "allowed", "-q", "--json"], s.folder)
            if r.returncode:
                print(f"mutate.py: {s.name}: the original fails: {r.stderr.strip()}", file=sys.stderr)
                return 2
            tight.append((s.name, json.loads(r.stdout)["allowed"][0]))
            orig = os.path.join(s.folder, "out.bin")
            ms = []
            for wf in s.wgsl_files:
                with open(os.path.join(s.folder, wf), encoding="utf-8") as f:
                    ms += [(k, w, t, wf) for k, w, t in mutants(f.read())]
            chosen = pick([(k, w, t + "\0" + wf) for k, w, t, wf in ms], a.max)
            verdicts = []
            for k, w, t in chosen:
                text, wf = t.rsplit("\0", 1)
                v = judge(exe, s, k, w, text, wf, orig)
                v["subject"] = s.name
                verdicts.append(v)
            every += verdicts
            count = {x: sum(v["verdict"] == x for v in verdicts)
                     for x in ("invalid", "unchanged", "caught", "missed")}
            rows.append((s.name, len(verdicts), count))
    print(f"{'golden':22} {'values':>7} {'exact':>7} {'median':>10} {'widest':>14} {'unconstrained':>13}")
    for name, t in tight:
        print(f"{name:22} {t['values']:7} {t['exact']:7} {t['median_width']:6} {t['unit']} "
              f"{t['max_width']:10} {t['unit']} {t['unconstrained']:13}")
    print()
    print(f"{'subject':22} {'mutants':>7} {'invalid':>7} {'unchanged':>9} {'caught':>6} {'missed':>6}")
    tot = {x: 0 for x in ("invalid", "unchanged", "caught", "missed")}
    n = 0
    for name, m, c in rows:
        print(f"{name:22} {m:7} {c['invalid']:7} {c['unchanged']:9} {c['caught']:6} {c['missed']:6}")
        n += m
        for x in tot:
            tot[x] += c[x]
    print(f"{'all':22} {n:7} {tot['invalid']:7} {tot['unchanged']:9} {tot['caught']:6} {tot['missed']:6}")
    judged = tot["caught"] + tot["missed"]
    if judged:
        print(f"caught {tot['caught']} of {judged} mutants whose output changed "
              f"({100.0 * tot['caught'] / judged:.1f}%)")
    for v in every:
        if v["verdict"] == "missed":
            print(f"missed: {v['subject']} {v['file']} {v['what']}: {v['why']}")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(every, f, indent=1)
    if a.min_caught is not None and judged and 100.0 * tot["caught"] / judged < a.min_caught:
        print(f"mutate.py: fewer than {a.min_caught}% caught", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
