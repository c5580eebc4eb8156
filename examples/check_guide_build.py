#!/usr/bin/env python3
"""Builds examples/golden.c exactly as docs/guide.md says, and runs it.

usage: check_guide_build.py SOURCE_ROOT BUILD_DIR

Takes the guide's shell block that calls `pkg-config --cflags --libs stex`
and runs its `$ ` lines, one by one with /bin/sh, in a scratch folder where
`build` is BUILD_DIR and `examples` the source's examples: `cc` against the
uninstalled pkg-config file and the library of the build tree, no install.
The `meson setup` line is skipped (the tree is built).  The program must
exit 0 and print what the guide shows under its last line.

In a sanitizer build the library needs its runtime first: the program is
then run with ASAN_OPTIONS=verify_asan_link_order=0 (the guide's own
commands are unchanged).
"""
import os
import re
import subprocess
import sys
import tempfile


def guide_block(text):
    """The (command, expected output lines) of the block with pkg-config."""
    blocks, cur = [], []
    for line in text.splitlines():
        if line.startswith("    "):
            cur.append(line[4:])
        elif line.strip():
            if cur:
                blocks.append(cur)
            cur = []
    if cur:
        blocks.append(cur)
    for b in blocks:
        if any(l.startswith("$ ") and "pkg-config --cflags --libs stex" in l for l in b):
            steps = []
            for l in b:
                if l.startswith("$ "):
                    steps.append([l[2:], []])
                elif steps:
                    steps[-1][1].append(l)
            return steps
    return None


def main():
    src, build = sys.argv[1], os.path.abspath(sys.argv[2])
    with open(os.path.join(src, "docs", "guide.md"), encoding="utf-8") as f:
        steps = guide_block(f.read())
    if not steps:
        print("docs/guide.md: no block with `$ cc ... $(pkg-config --cflags --libs stex)`")
        return 1
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0:detect_leaks=0"
    with tempfile.TemporaryDirectory(prefix="stex-test-guide-build-") as d:
        os.symlink(build, os.path.join(d, "build"))
        os.symlink(os.path.join(src, "examples"), os.path.join(d, "examples"))
        env["PWD"] = d
        script = []
        for cmd, want in steps:
            if re.match(r"^meson ", cmd):
                continue
            script.append(cmd)
            # one shell, so that `export` carries to the next line
            r = subprocess.run(["/bin/sh", "-c", "set -e\n" + "\n".join(script)], cwd=d,
                               env=env, capture_output=True, text=True)
            print(f"$ {cmd}\n{r.stdout}{r.stderr}", end="")
            if r.returncode != 0:
                print(f"docs/guide.md: `{cmd}` failed (exit {r.returncode})")
                return 1
            got = r.stdout.splitlines()[-len(want):] if want else []
            if want and got != want:
                print(f"docs/guide.md: `{cmd}` printed\n  " + "\n  ".join(got) +
                      "\nbut the guide shows\n  " + "\n  ".join(want))
                return 1
            script[-1] += " >/dev/null"  # run again by the next step: quietly
    return 0


if __name__ == "__main__":
    sys.exit(main())
