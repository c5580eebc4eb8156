#!/usr/bin/env python3
"""Writes the run-file fuzz target's seed corpus (tests/fuzz/corpus_runfile)
from the repository's own run files: the lesson kernels' templates
(src/kernels/wgsl/*.json, their $ values filled with small ones), the
examples, the JSON blocks of docs/*.md, and the run files the tests spell
out as C string literals.  Each seed is the JSON text, then a NUL and the
files it names, in the order they appear, separated as fuzz_runfile.c
reads them.  Usage: tools/fuzz/seeds_runfile.py [OUT_DIR]"""
import glob, hashlib, json, os, re, sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
SEP = b'\n--file--\n'
SMALL = {'width': 8, 'height': 8, 'groups_x': 1, 'groups_y': 1, 'point_groups': 1}


def fill(v):
    """A template's $ values as small numbers; "$output" as an output."""
    if isinstance(v, str) and v.startswith('$'):
        return SMALL.get(v[1:], 256)
    if isinstance(v, list):
        return [fill(e) for e in v]
    if isinstance(v, dict):
        out = {k: fill(e) for k, e in v.items() if k != '$when'}
        if '$output' in out:
            o = out.pop('$output')
            for e in o if isinstance(o, list) else [o]:
                if isinstance(e, dict):
                    out.setdefault('outputs', []).append(dict(e, file='out.bin'))
        return out
    return v


def file_names(v, names):
    if isinstance(v, dict):
        for k, e in v.items():
            if k == 'file' and isinstance(e, str):
                names.append(e)
            file_names(e, names)
    elif isinstance(v, list):
        for e in v:
            file_names(e, names)


def seed(doc, folder):
    names = []
    file_names(doc, names)
    parts = []
    for n in names:
        p = os.path.join(folder, n) if folder else None
        if p and os.path.isfile(p) and os.path.getsize(p) < 16384:
            parts.append(open(p, 'rb').read())
        elif n.endswith('.wgsl'):
            parts.append(b'@compute @workgroup_size(1) fn main() {}\n')
        else:
            parts.append(bytes(range(256)))
    text = json.dumps(doc, separators=(',', ':')).encode()
    return text + (b'\0' + SEP.join(parts) if parts else b'')


def c_literals(src):
    """Adjacent C string literals joined, then unescaped."""
    for m in re.finditer(r'(?:"(?:[^"\\\n]|\\.)*"\s*)+', src):
        body = ''.join(re.findall(r'"((?:[^"\\\n]|\\.)*)"', m.group(0)))
        try:
            yield body.encode().decode('unicode_escape')
        except UnicodeDecodeError:
            pass


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'tests/fuzz/corpus_runfile')
    os.makedirs(out, exist_ok=True)
    seeds = []
    for p in sorted(glob.glob(os.path.join(ROOT, 'src/kernels/wgsl/*.json')) +
                    glob.glob(os.path.join(ROOT, 'examples/run/*.json'))):
        seeds.append(seed(fill(json.load(open(p))), os.path.dirname(p)))
    for p in sorted(glob.glob(os.path.join(ROOT, 'docs/*.md')) + [os.path.join(ROOT, 'README.md')]):
        for block in re.findall(r'```(?:json)?\n(.*?)```', open(p).read(), re.S):
            try:
                doc = json.loads(block)
            except ValueError:
                continue
            if isinstance(doc, dict):
                seeds.append(seed(fill(doc), os.path.join(ROOT, 'examples/run')))
    for p in sorted(glob.glob(os.path.join(ROOT, 'tests/**/*.c'), recursive=True)):
        for text in c_literals(open(p).read()):
            if not text.lstrip().startswith('{') or text.lstrip().startswith("{'"):
                continue
            try:
                doc = json.loads(text)
            except ValueError:
                seeds.append(text.encode())  # a malformed one the tests refuse
                continue
            if isinstance(doc, dict):
                seeds.append(seed(doc, None))
    for s in seeds:
        if len(s) <= 1 << 16:
            open(os.path.join(out, 'seed-' + hashlib.sha1(s).hexdigest()[:16]), 'wb').write(s)
    print(len(seeds), 'seeds in', out)


main()
