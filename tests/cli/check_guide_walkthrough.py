#!/usr/bin/env python3
"""Runs docs/guide.md's walk-through for a test author's own shader as written.

usage: check_guide_walkthrough.py STEX GUIDE

Takes the guide's section "### Your own shader ..." up to the next heading.
In it, an indented block right after a line that is only "`NAME`:" is a
file: it is written to NAME in a scratch folder.  Every other indented
block holds commands: lines starting with "$ " run with /bin/sh in that
folder, in order, with the STEX binary first on PATH as `stex`; the lines
under a command are what it prints (stdout and stderr together).  Each
line shown must appear in the output, in that order (the guide may leave
lines out, never change them); times ("1.234 ms") match any time.  A
command must exit 0 unless the next one is `echo $?`, which prints the
status the guide shows.
"""
import os
import re
import subprocess
import sys
import tempfile

HEADING = "### Your own shader"


def section(text):
    """The lines of the walk-through section."""
    lines = text.splitlines()
    start = next((i for i, l in enumerate(lines) if l.startswith(HEADING)), None)
    if start is None:
        return None
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("#")), len(lines))
    return lines[start + 1:end]


def blocks(lines):
    """(file name or None, block lines) for every indented block."""
    out, cur, name, prev = [], None, None, ""
    for l in lines + [""]:
        if l.startswith("    "):
            if cur is None:
                m = re.fullmatch(r"`([A-Za-z0-9_.\-/]+)`:", prev.strip())
                name, cur = (m.group(1) if m else None), []
            cur.append(l[4:])
        elif l.strip() == "" and cur is not None:
            cur.append("")  # a blank line inside a block
        else:
            if cur is not None:
                while cur and cur[-1] == "":
                    cur.pop()
                out.append((name, cur))
            cur = None
            if l.strip():
                prev = l
    if cur is not None:
        out.append((name, cur))
    return out


def norm(line):
    return re.sub(r"\d+\.\d+ ms", "N ms", line.rstrip())


def main():
    stex, guide = os.path.abspath(sys.argv[1]), sys.argv[2]
    with open(guide, encoding="utf-8") as f:
        lines = section(f.read())
    if not lines:
        print(f"{guide}: no section starting `{HEADING}`")
        return 1
    steps, files = [], 0
    with tempfile.TemporaryDirectory(prefix="stex-test-walkthrough-") as d:
        bindir = os.path.join(d, ".bin")
        os.mkdir(bindir)
        os.symlink(stex, os.path.join(bindir, "stex"))
        for name, body in blocks(lines):
            if name:
                with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                    f.write("\n".join(body) + "\n")
                files += 1
                continue
            for l in body:
                if l.startswith("$ "):
                    steps.append([l[2:], []])
                elif steps:
                    steps[-1][1].append(l)
        if not files or not steps:
            print(f"{guide}: the walk-through has {files} files and {len(steps)} commands")
            return 1
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
        env.pop("STEX_PROGRESS_DELAY", None)
        last = 0
        for i, (cmd, want) in enumerate(steps):
            if cmd.strip() == "echo $?":
                got = [str(last)]
            else:
                r = subprocess.run(["/bin/sh", "-c", cmd + " 2>&1"], cwd=d, env=env,
                                   capture_output=True, text=True)
                last = r.returncode
                got = r.stdout.splitlines()
                print(f"$ {cmd}\n{r.stdout}", end="")
                nxt = steps[i + 1][0].strip() if i + 1 < len(steps) else ""
                if last != 0 and nxt != "echo $?":
                    print(f"{guide}: `{cmd}` failed (exit {last})")
                    return 1
            pos = 0
            normalised = [norm(g) for g in got]
            for w in want:
                if not w.strip():
                    continue
                try:
                    pos = normalised.index(norm(w), pos) + 1
                except ValueError:
                    print(f"{guide}: `{cmd}` did not print, in the guide's order:\n  {w}\n"
                          f"it printed:\n  " + "\n  ".join(got))
                    return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
