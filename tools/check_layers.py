#!/usr/bin/env python3
"""Checks that stex's layers depend on each other one way only.

The layers, lowest first, are the folders of src/ in LAYERS (the order
docs/ARCHITECTURE.md draws).  A layer may include and call only itself and
the layers below it.  Two checks:

  includes  every #include "folder/x.h" or "stex/x.h" in src/ and include/stex/
            (a public header belongs to the layer in OWNER);
  calls     with --objects DIR: the object files meson built for libstex
            (DIR/src/libstex.a.p/<folder>_<file>.c.o), read with nm: a
            function or variable used by a file of one layer and defined in
            a file of another must be defined in a lower layer.  Inside
            a folder, files may not call each other in a loop either.

Exit status 0 when both hold, 1 with one line per broken rule otherwise.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

LAYERS = ["common", "format", "convert", "math", "layout", "device", "resource",
          "race", "shader", "dispatch", "kernels", "io", "wgsl", "run", "cli"]

OWNER = {  # public header -> the layer that implements it
    "status.h": "common", "api.h": "common", "cancel.h": "common", "math.def": "math", "webgpu.h": "format", "formats.def": "format",
    "format.h": "format", "convert.h": "convert", "math.h": "math", "wgsl_math.h": "math", "interval.h": "math",
    "layout.h": "layout", "device.h": "device", "resource.h": "resource",
    "race.h": "race", "shader.h": "shader", "dispatch.h": "dispatch",
    "kernels.h": "kernels", "io.h": "io", "wgsl.h": "wgsl", "run.h": "run", "stex.h": "cli",
}

# File loops inside a folder that are recursion by nature, each with why.
ALLOWED_FILE_LOOPS = {
    ("wgsl", frozenset({"lower_call", "lower_expr", "lower_module", "lower_stmt",
                        "lower_texture", "lower_vector"})):
        "lowering is one recursive descent over the syntax tree, kept in five files: an "
        "expression holds calls whose arguments are expressions, a module-scope constant "
        "is lowered when an expression first names it, a call lowers its callee's body, "
        "a vector builtin or a constant matrix product is built from scalar operations",
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def rank(layer):
    return LAYERS.index(layer) if layer in LAYERS else None


def layer_of_include(path):
    head, _, name = path.partition("/")
    if head == "stex":
        return OWNER.get(name)
    return head if head in LAYERS else None


def check_includes(root):
    errors = []
    files = []
    for base, layer_fn in (("src", lambda rel: rel.split("/")[0]),
                           ("include/stex", lambda rel: OWNER.get(rel))):
        top = os.path.join(root, base)
        for dirpath, _, names in os.walk(top):
            for n in names:
                if n.endswith((".c", ".h", ".def")):
                    rel = os.path.relpath(os.path.join(dirpath, n), top)
                    files.append((os.path.join(base, rel), layer_fn(rel)))
    for path, layer in files:
        if rank(layer) is None:
            errors.append(f"{path}: not in a known layer (add it to LAYERS/OWNER)")
            continue
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
        for inc in INCLUDE.findall(text):
            target = layer_of_include(inc)
            if target is None:
                if "/" in inc:
                    errors.append(f'{path}: includes "{inc}", which belongs to no layer')
                continue
            if rank(target) > rank(layer):
                errors.append(f'{path} ({layer}) includes "{inc}" of the {target} layer, '
                              f"which lies above it")
    return errors


def object_symbols(objdir, folder=None):
    """{object: (layer, file, defined set, undefined set)} from nm.  With a
    folder (the command line's objects), every object belongs to it."""
    out = {}
    for n in sorted(os.listdir(objdir)):
        if not n.endswith(".o"):
            continue
        m = re.match(r"([a-z]+)_(.+)\.c\.o$", n)
        if folder:
            m = re.match(r"()(.+)\.c\.o$", n)
        elif not m or m.group(1) not in LAYERS:
            continue
        res = subprocess.run(["nm", os.path.join(objdir, n)], capture_output=True, text=True,
                             check=True)
        defined, undefined = set(), set()
        for line in res.stdout.splitlines():
            parts = line.split()
            if len(parts) == 2 and parts[0] == "U":
                undefined.add(parts[1])
            elif len(parts) == 3 and parts[1] in "TDBRCGSV":
                defined.add(parts[2])
        out[n] = (folder or m.group(1), m.group(2), defined, undefined)
    return out


def find_cycle(graph):
    """One cycle of a {node: set(nodes)} graph as a list, or None."""
    state = {}
    stack = []

    def visit(v):
        state[v] = 1
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if state.get(w) == 1:
                return stack[stack.index(w):] + [w]
            if w not in state:
                c = visit(w)
                if c:
                    return c
        stack.pop()
        state[v] = 2
        return None

    for v in sorted(graph):
        if v not in state:
            c = visit(v)
            if c:
                return c
    return None


def check_calls(objdir, folder=None):
    errors = []
    objs = object_symbols(objdir, folder)
    if not objs:
        return [f"{objdir}: no libstex object files found"]
    where = {}
    for n, (layer, f, defined, _) in objs.items():
        for s in defined:
            where[s] = (layer, f)
    files = collections.defaultdict(lambda: collections.defaultdict(set))
    for n, (layer, f, _, undefined) in objs.items():
        for s in sorted(undefined):
            if s not in where:
                continue  # the C library, OpenMP, libpng, jansson
            tl, tf = where[s]
            if tl == layer:
                if tf != f:
                    files[layer][f].add(tf)
                continue
            if not folder and rank(tl) > rank(layer):
                errors.append(f"src/{layer}/{f}.c ({layer}) calls {s}, defined in "
                              f"src/{tl}/{tf}.c of the {tl} layer above it")
    for layer, graph in sorted(files.items()):
        for (lay, members) in ALLOWED_FILE_LOOPS:
            if lay == layer:  # cut the allowed loop's edges
                for f in members:
                    graph[f] = {t for t in graph.get(f, ()) if t not in members}
        cycle = find_cycle(graph)
        if cycle:
            errors.append(f"src/{layer}: files call each other in a loop: "
                          + " -> ".join(c + ".c" for c in cycle))
    return errors


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--objects", help="meson's object folder of libstex (libstex.a.p)")
    ap.add_argument("--cli-objects", help="meson's object folder of the command line (src/cli): "
                    "its files must not call each other in a loop either")
    args = ap.parse_args()
    errors = check_includes(args.root)
    if args.objects:
        errors += check_calls(args.objects)
    if args.cli_objects:
        errors += check_calls(args.cli_objects, "cli")
    for e in errors:
        print(e)
    print(f"layers: {len(errors)} broken rule{'s' if len(errors) != 1 else ''}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
