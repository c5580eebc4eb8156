#!/usr/bin/env python3
"""Side-by-side benchmark: stex, plain C and the peer harness (wgpu and Dawn on lavapipe).

Runs, in turns and for several rounds in one go:
  - stex:    build/bench/bench_kernels --json, one process per kernel and race mode
             (the kernels' C versions, what `stex run KERNEL --executor c` runs)
             (race detection off, then on);
  - plain C: build/bench/bench_plain --json, one process per kernel (the same
             arithmetic as plain loops over linear arrays);
  - the peer's perf test (tests/perf.mjs of the peer harness, ../shared/peer by
    default): wgpu through deno and Dawn through node, both on lavapipe, one
    process per round each.
  - with --node, stex through its own Node.js WebGPU provider (bindings/node,
    profile lavapipe): the same perf.mjs of the harness, run by node with
    --gpu-provider, so JavaScript, the WebGPU layer and the WGSL interpreter
    are timed as Dawn's are.
Then prints one Markdown table (medians over the rounds with their ranges, and
the ratios stex/peer and stex/plain C) headed by the date, the command and the
machine.  Figures are only ever those measured in this run: when the peer cannot
run, the table has stex and plain C alone and says why.

    meson setup build && meson compile -C build
    python3 bench/peer.py                    # 5 rounds, 4096x4096, 2 threads
    python3 bench/peer.py --setup            # as root, first: installs lavapipe (see below)
    python3 bench/peer.py --rounds 3 --no-peer --size 1024

Setting up the peer (every step is skipped with a message when it cannot be done):
  - the peer's files are copied to the cache folder (bench/.peer/, ignored by git)
    and `npm ci` there installs the npm packages `webgpu` (Dawn) and `deno` (wgpu);
    this needs node and npm;
  - lavapipe (Mesa's CPU Vulkan driver) must come from Debian bookworm-backports
    (bookworm's own Mesa is too old for Dawn).  Only with --setup, and only as
    root, the script adds that suite to apt's sources
    (/etc/apt/sources.list.d/bookworm-backports.sources), runs apt-get update
    and installs mesa-vulkan-drivers from it, and nodejs and npm if node is
    missing.  These change the machine, hence the opt-in.
The peer runs on lavapipe only (VK_DRIVER_FILES names its driver file), with
LP_NUM_THREADS = --threads so that it uses as many cores as stex.
"""

import argparse
import datetime
import glob
import json
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The kernels compared, in table order: stex's name, the peer's name in perf.json.
KERNELS = [
    ("decaer", "decay_r32float_read_write"),
    ("box3x3-texture", "box3x3_texture_rgba8unorm"),
    ("box3x3-buffer", "box3x3_buffer_u32_pack4x8unorm"),
    ("generar", "pattern_rgba8unorm_write"),
]

# The two peers: key, how the table names it, how the harness names the run,
# and the runtime versions (perf.json's "runtime") worth printing.
PEERS = [
    ("wgpu", "wgpu on lavapipe (deno)", "wgpu-lavapipe", ("deno", "npm:deno")),
    ("dawn", "Dawn on lavapipe (node)", "dawn-lavapipe", ("node", "npm:webgpu")),
]


# stex through its Node provider (--node): run like a peer, never a ratio's denominator.
NODE = ("stexnode", "stex Node provider (node)", "stex-lavapipe", ("node",))


def say(*words):
    """Progress and notes go to stderr; stdout has only the Markdown report."""
    print(*words, file=sys.stderr, flush=True)


def run(argv, timeout=600, **kwargs):
    """Run a command; return (exit code, stdout, stderr), with 127 when it cannot start."""
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, **kwargs)
        return p.returncode, p.stdout, p.stderr
    except FileNotFoundError as e:
        return 127, "", str(e)
    except subprocess.TimeoutExpired:
        return 124, "", f"timed out after {timeout} s"


def last_lines(text, n=3):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return " | ".join(lines[-n:]) if lines else "(no output)"


# ---------------------------------------------------------------- set-up


def os_codename():
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("VERSION_CODENAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return ""


def debian_uris():
    """The URIs of the machine's main Debian source (for the backports stanza)."""
    try:
        with open("/etc/apt/sources.list.d/debian.sources") as f:
            for line in f:
                if line.startswith("URIs:") and "security" not in line:
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "http://deb.debian.org/debian"


def backports_configured():
    files = glob.glob("/etc/apt/sources.list.d/*") + ["/etc/apt/sources.list"]
    for name in files:
        try:
            with open(name) as f:
                if "bookworm-backports" in f.read():
                    return True
        except OSError:
            pass
    return False


def root_setup(notes):
    """--setup: lavapipe from bookworm-backports (and node if missing). Needs root."""
    if os.geteuid() != 0:
        say("[setup] adding bookworm-backports and installing mesa-vulkan-drivers needs root: skipped "
            "(run `sudo python3 bench/peer.py --setup`)")
        notes.append("--setup was skipped: not root")
        return
    if os_codename() != "bookworm":
        say(f"[setup] this is not Debian bookworm ({os_codename() or 'unknown'}): install lavapipe "
            "(Mesa >= 25, mesa-vulkan-drivers) and node 20 yourself; skipped")
        notes.append("--setup was skipped: not Debian bookworm")
        return
    if not backports_configured():
        path = "/etc/apt/sources.list.d/bookworm-backports.sources"
        say(f"[setup] adding the suite bookworm-backports to apt's sources: {path}")
        with open(path, "w") as f:
            f.write("Types: deb\n"
                    f"URIs: {debian_uris()}\n"
                    "Suites: bookworm-backports\n"
                    "Components: main\n"
                    "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    steps = [["apt-get", "update", "-q"],
             ["apt-get", "install", "-y", "-q", "-t", "bookworm-backports", "mesa-vulkan-drivers"]]
    if not shutil.which("node"):
        steps.append(["apt-get", "install", "-y", "-q", "nodejs", "npm"])
    for step in steps:
        say("[setup] " + shlex.join(step))
        rc, out, err = run(step, timeout=1800, env=env)
        if rc != 0:
            say(f"[setup] failed ({rc}): {last_lines(err or out)}")
            notes.append(f"--setup: `{shlex.join(step)}` failed: {last_lines(err or out, 1)}")
            return


def lavapipe_icd():
    """lavapipe's Vulkan driver file, or None when Mesa's Vulkan drivers are not installed."""
    for d in ("/usr/share/vulkan/icd.d", "/etc/vulkan/icd.d", "/usr/local/share/vulkan/icd.d"):
        found = sorted(glob.glob(os.path.join(d, "lvp_icd*.json")))
        if found:
            return found[0]
    return None


def package_version(name):
    rc, out, _ = run(["dpkg-query", "-W", "-f", "${Version}", name])
    return out.strip() if rc == 0 and out.strip() else None


def copy_peer(src, dst):
    """Copy the peer's sources (not its node_modules or results) into the cache, writable,
    replacing an earlier copy but keeping the installed node_modules."""
    if os.path.isdir(dst):
        for name in os.listdir(dst):
            path = os.path.join(dst, name)
            if name == "node_modules":
                continue
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            else:
                os.unlink(path)
    skip = shutil.ignore_patterns("node_modules", "results", "deno-bin", ".git")
    shutil.copytree(src, dst, ignore=skip, dirs_exist_ok=True)
    for root, dirs, files in os.walk(dst):
        if os.path.relpath(root, dst).split(os.sep)[0] == "node_modules":
            continue
        for name in dirs + files:
            path = os.path.join(root, name)
            os.chmod(path, os.stat(path).st_mode | 0o200)


def setup_peer(args, notes):
    """Prepare the peer in the cache; return {peer key: argv prefix} of those that can run."""
    peer_src = os.path.abspath(args.peer)
    if not os.path.isfile(os.path.join(peer_src, "tests", "perf.mjs")):
        notes.append(f"peer not found: no tests/perf.mjs under {peer_src} (--peer DIR)")
        return {}
    if not shutil.which("node") or not shutil.which("npm"):
        notes.append("node and npm are missing (Debian: nodejs, npm; `--setup` as root installs them)")
        return {}
    icd = lavapipe_icd()
    if not icd:
        notes.append("lavapipe is not installed (Debian: mesa-vulkan-drivers from bookworm-backports; "
                     "`sudo python3 bench/peer.py --setup` installs it)")
        return {}
    dst = os.path.join(args.cache, "peer")
    copy_peer(peer_src, dst)
    # npm ci again whenever the lock file differs from the one installed last time.
    lock = os.path.join(dst, "package-lock.json")
    stamp = os.path.join(args.cache, "installed-package-lock.json")
    with open(lock) as f:
        wanted = f.read()
    installed = None
    if os.path.exists(stamp):
        with open(stamp) as f:
            installed = f.read()
    if installed != wanted or not os.path.isdir(os.path.join(dst, "node_modules")):
        say("[setup] npm ci (webgpu and deno) in " + dst)
        rc, out, err = run(["npm", "ci", "--no-audit", "--no-fund"], timeout=1200, cwd=dst)
        if rc != 0:
            notes.append(f"`npm ci` in {dst} failed: {last_lines(err or out, 1)}")
            return {}
        with open(stamp, "w") as f:
            f.write(wanted)
    peers = {}
    deno = os.path.join(dst, "node_modules", ".bin", "deno")
    if os.access(deno, os.X_OK):
        peers["wgpu"] = [deno, "run", "--unstable-webgpu", "-A", "--no-lock", "harness.mjs"]
    else:
        notes.append("the npm package deno did not install its binary: no wgpu run")
    if os.path.isdir(os.path.join(dst, "node_modules", "webgpu")):
        peers["dawn"] = ["node", "harness.mjs"]
    else:
        notes.append("the npm package webgpu is missing: no Dawn run")
    if args.node:
        if os.path.exists(args.node_addon):
            peers[NODE[0]] = ["node", "harness.mjs", "--gpu-provider",
                              os.path.join(REPO, "bindings", "node", "index.mjs"),
                              "--gpu-provider-flag", "profile=lavapipe",
                              "--gpu-provider-flag", f"threads={args.threads}"]
        else:
            notes.append(f"--node: {args.node_addon} is missing (meson setup -Dnode=enabled)")
    return peers


def peer_env(args):
    env = dict(os.environ)
    icd = lavapipe_icd()
    env.update(VK_DRIVER_FILES=icd, VK_ICD_FILENAMES=icd,  # lavapipe only (new and old loaders)
               LP_NUM_THREADS=str(args.threads),
               DENO_DIR=os.path.join(os.path.abspath(args.cache), "deno-dir"),
               DENO_NO_UPDATE_CHECK="1", STEX_NODE_ADDON=args.node_addon)
    env.setdefault("XDG_RUNTIME_DIR", "/tmp")
    return env


# ---------------------------------------------------------------- measuring


def json_lines(text):
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("{"):
            rows.append(json.loads(line))
    return rows


def measure_stex(args, kernel, races):
    argv = [args.bench_kernels, "--kernel", kernel, "--size", str(args.size),
            "--threads", str(args.threads), "--races", races, "--reps", str(args.reps),
            "--race-reps", str(args.reps), "--json"]
    rc, out, err = run(argv)
    rows = [r for r in json_lines(out) if r.get("races") == races] if rc == 0 else []
    if not rows:
        raise RuntimeError(f"{shlex.join(argv)} failed ({rc}): {last_lines(err or out)}")
    return rows[0]["ms"]


def measure_wgsl(args, kernel, races):
    """The kernel's WGSL on stex's interpreter: `stex run --executor wgsl
    --iterations 1+reps` in one process, the median of its dispatches after
    the first (step_ms: each dispatch's time), race detection off or on."""
    argv = [args.stex, "run", kernel, "--executor", "wgsl", "--size",
            f"{args.size}x{args.size}", "--threads", str(args.threads),
            "--iterations", str(1 + args.reps), "--json"]
    if races == "on":
        argv.append("--race-check")
    rc, out, err = run(argv, timeout=1800)
    rows = json_lines(out) if rc == 0 else []
    steps = rows[0].get("step_ms", []) if rows else []
    if len(steps) != 1 + args.reps:
        raise RuntimeError(f"{shlex.join(argv)} failed ({rc}), or gave {len(steps)} dispatch times: "
                           f"{last_lines(err or out)}")
    return statistics.median(steps[1:])


def measure_plain(args, kernel):
    argv = [args.bench_plain, "--kernel", kernel, "--size", str(args.size),
            "--threads", str(args.threads), "--reps", str(args.reps), "--json"]
    rc, out, err = run(argv)
    rows = json_lines(out) if rc == 0 else []
    if not rows:
        raise RuntimeError(f"{shlex.join(argv)} failed ({rc}): {last_lines(err or out)}")
    return rows[0]["ms"]


def measure_peer(args, key, argv_prefix, run_dir, rnd):
    """One perf.mjs run: {stex kernel: median ms} and the perf.json document."""
    impl = dict((k, i) for k, _, i, _ in PEERS + [NODE])[key]
    out_dir = os.path.join(run_dir, f"{impl}-round{rnd}")
    argv = argv_prefix + ["--impl", impl, "--out", out_dir, "--only", "perf",
                          "--perf-size", str(args.size)]
    rc, out, err = run(argv, cwd=os.path.join(args.cache, "peer"), env=peer_env(args))
    perf_path = os.path.join(out_dir, "perf.json")
    if rc != 0 or not os.path.exists(perf_path):
        raise RuntimeError(f"exit {rc}: {last_lines(err or out)}")
    with open(perf_path) as f:
        doc = json.load(f)
    if doc.get("fatal_error"):
        raise RuntimeError("perf.mjs failed: " + doc["fatal_error"].splitlines()[0])
    ms = {}
    for kernel, name in KERNELS:
        k = doc.get("kernels", {}).get(name, {})
        if "median_ms" not in k:
            raise RuntimeError(f"perf.json has no time for {name}: {json.dumps(k.get('result'))}")
        ms[kernel] = k["median_ms"]
    return ms, doc


# ---------------------------------------------------------------- report


def median_range(values, digits):
    """'median (min-max)' of per-round figures; the median alone for one round."""
    if not values:
        return "-"
    text = f"{statistics.median(values):.{digits}f}"
    if len(values) > 1:
        text += f" ({min(values):.{digits}f}-{max(values):.{digits}f})"
    return text


def cell(values):
    """One column's per-round milliseconds."""
    values = [v for v in values if v is not None]
    return median_range(values, 1 if values and max(values) >= 10 else 2)


def ratio_cell(num, den):
    """The per-round ratios num[r] / den[r], for the rounds where both ran."""
    return median_range([a / b for a, b in zip(num, den) if a is not None and b], 2)


def machine_line():
    model = platform.processor() or "unknown CPU"
    mem = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo") as f:
            kb = int(f.readline().split()[1])
            mem = f", {kb / 2**20:.0f} GiB memory"
    except (OSError, ValueError, IndexError):
        pass
    osname = platform.system()
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    osname = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores{mem}, {osname}"


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def report(args, started, load_start, data, peers_ran, peer_docs, notes):
    rc, desc, _ = run(["git", "-C", REPO, "describe", "--always", "--dirty"])
    lines = [
        f"### stex side by side, {started:%Y-%m-%d %H:%M} UTC",
        "",
        f"- command: `{args.command}`",
        f"- machine: {machine_line()}; load average {load_start} at the start, {loadavg()} at the end",
        f"- stex {desc.strip() if rc == 0 else '?'}, {args.size}x{args.size}, {args.threads} threads; "
        f"stex and plain C: median of {args.reps} runs after 1 warm-up, one process per kernel "
        "(and race mode); plain C = build/bench/bench_plain"
        + (f"; stex WGSL = `stex run KERNEL --executor wgsl --iterations {1 + args.reps}`, the median "
           "of its dispatches after the first, one process per kernel and race mode" if args.wgsl else ""),
    ]
    for key, title, _, shown in PEERS:
        if key in peers_ran:
            doc = peer_docs[key]
            rt = doc.get("runtime", {})
            # e.g. {"node": "20.20.2", "npm:webgpu": "0.6.2"}; deno's own entry is {"deno": "2.9.6", "v8": ...}
            runtime = ", ".join(f"{k} {rt[k].get(k, rt[k]) if isinstance(rt[k], dict) else rt[k]}"
                                for k in shown if k in rt)
            adapter = doc.get("adapter", {}).get("description") or doc.get("adapter", {}).get("device", "?")
            lines.append(f"- {title}: peer tests/perf.mjs, median of 7 after 2 warm-ups, one process "
                         f"per round; {runtime}; adapter \"{adapter}\"")
    if NODE[0] in peers_ran:
        lines.append(f"- {NODE[1]}: the same perf.mjs through `--gpu-provider bindings/node/index.mjs "
                     f"--gpu-provider-flag profile=lavapipe --gpu-provider-flag threads={args.threads}`, "
                     "one process per round")
    if peers_ran - {NODE[0]}:
        mesa = package_version("mesa-vulkan-drivers")
        lines.append(f"- lavapipe: mesa-vulkan-drivers {mesa or '?'}, LP_NUM_THREADS={args.threads}")
    lines.append(f"- {args.rounds} round{'s' if args.rounds > 1 else ''}, the parts taking turns "
                 "(one part's runs, then the next; the order rotates every round); "
                 "each cell: wall ms, median of the rounds' figures (min-max); ratios: median (min-max) "
                 "of the per-round ratios, \"off / on\" for stex with race detection off / on")
    for n in notes:
        lines.append(f"- **{n}**")
    if not peers_ran - {NODE[0]}:
        lines.append("- **the peer did not run: stex and plain C only (no stored peer figures are shown)**")
    lines.append("")

    head = ["kernel", "stex", "stex, race detection on", "plain C"]
    if args.wgsl:
        head += ["stex WGSL (interpreter)", "stex WGSL, race detection on"]
    for key, title, _, _ in PEERS + [NODE]:
        if key in peers_ran:
            head.append(title)
    for key, title, _, _ in PEERS:
        if key in peers_ran:
            head.append(f"stex/{title.split()[0]}: off / on")
    node_vs = [k for k in ("dawn", "wgpu") if k in peers_ran] if NODE[0] in peers_ran else []
    for key in node_vs:
        head.append(f"stex Node/{dict((k, t) for k, t, _, _ in PEERS)[key].split()[0]}")
    head.append("stex/plain C: off / on")
    lines.append("| " + " | ".join(head) + " |")
    lines.append("|" + " --- |" * len(head))
    for kernel, _ in KERNELS:
        d = data[kernel]
        off, on, plain = d["stex-off"], d["stex-on"], d["plain"]
        row = [kernel, cell(off), cell(on), cell(plain)]
        if args.wgsl:
            row += [cell(d["wgsl"]), cell(d["wgsl-on"])]
        for key, _, _, _ in PEERS + [NODE]:
            if key in peers_ran:
                row.append(cell([v for v in d[key] if v is not None]))
        for key, _, _, _ in PEERS:
            if key in peers_ran:
                row.append(ratio_cell(off, d[key]) + " / " + ratio_cell(on, d[key]))
        for key in node_vs:
            row.append(ratio_cell(d[NODE[0]], d[key]))
        row.append(ratio_cell(off, plain) + " / " + ratio_cell(on, plain))
        lines.append("| " + " | ".join(row) + " |")
    if args.wgsl:
        lines.append("")
        lines.append("| kernel | " + "".join(f"stex WGSL/{title.split()[0]}: off / on | "
                                            for key, title, _, _ in PEERS if key in peers_ran)
                     + "stex WGSL race on/off |")
        lines.append("|" + " --- |" * (2 + len(peers_ran - {NODE[0]})))
        for kernel, _ in KERNELS:
            d = data[kernel]
            cells = [ratio_cell(d["wgsl"], d[key]) + " / " + ratio_cell(d["wgsl-on"], d[key])
                     for key, _, _, _ in PEERS if key in peers_ran]
            cells.append(ratio_cell(d["wgsl-on"], d["wgsl"]))
            lines.append("| " + kernel + " | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- main


def give_cache_back(cache):
    """Under sudo, hand the cache folder to the user who ran sudo, so that later
    runs without sudo can use and replace it."""
    uid, gid = os.environ.get("SUDO_UID"), os.environ.get("SUDO_GID")
    if os.geteuid() != 0 or not uid or not gid:
        return
    for root, dirs, files in os.walk(cache):
        for name in [root] + [os.path.join(root, n) for n in dirs + files]:
            os.lchown(name, int(uid), int(gid))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--peer", default=os.path.join(REPO, "..", "shared", "peer"),
                    help="the peer harness's folder (default: ../shared/peer from the repository)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    ap.add_argument("--reps", type=int, default=5,
                    help="stex's and plain C's timed runs per process, after 1 warm-up (default 5)")
    ap.add_argument("--size", type=int, default=4096, help="square size (default 4096, the peer's)")
    ap.add_argument("--threads", type=int, default=2, help="threads for stex, plain C and lavapipe (default 2)")
    ap.add_argument("--build", default=os.path.join(REPO, "build"), help="meson build folder (default build)")
    ap.add_argument("--cache", default=os.path.join(REPO, "bench", ".peer"),
                    help="where the peer is installed and runs write (default bench/.peer, ignored by git)")
    ap.add_argument("--setup", action="store_true",
                    help="as root: add bookworm-backports, install lavapipe (and node if missing)")
    ap.add_argument("--no-peer", action="store_true", help="stex and plain C only")
    ap.add_argument("--out", help="also write the Markdown report to this file")
    ap.add_argument("--node", action="store_true",
                    help="also run the peer's perf.mjs on stex through its Node provider "
                         "(bindings/node, built with -Dnode=enabled), profile lavapipe")
    ap.add_argument("--wgsl", action="store_true",
                    help="also time each kernel's WGSL on stex's interpreter (stex run "
                         "--executor wgsl --iterations 1+reps, race detection off and on)")
    args = ap.parse_args()
    args.command = shlex.join(["python3", "bench/peer.py"] + sys.argv[1:])
    if args.rounds < 1 or not 1 <= args.reps <= 64:
        ap.error("--rounds must be at least 1 and --reps 1..64")
    args.bench_kernels = os.path.join(args.build, "bench", "bench_kernels")
    args.bench_plain = os.path.join(args.build, "bench", "bench_plain")
    args.stex = os.path.join(args.build, "stex")
    args.node_addon = os.path.abspath(os.path.join(args.build, "bindings", "node", "stex.node"))
    for exe in (args.bench_kernels, args.bench_plain, args.stex):
        if not os.access(exe, os.X_OK):
            sys.exit(f"{exe} is missing: build first (meson setup build && meson compile -C build)")
    os.makedirs(args.cache, exist_ok=True)
    args.cache = os.path.abspath(args.cache)

    notes = []
    peers = {}
    if args.no_peer:
        notes.append("the peer was not asked for (--no-peer)")
    else:
        if args.setup:
            root_setup(notes)
        peers = setup_peer(args, notes)
    for n in notes:
        say("[peer] " + n)

    started = datetime.datetime.now(datetime.timezone.utc)
    load_start = loadavg()
    run_dir = os.path.join(args.cache, "runs", started.strftime("%Y%m%dT%H%M%SZ"))
    os.makedirs(run_dir, exist_ok=True)
    # data[kernel][column] = one figure per round (None where that part failed)
    data = {k: {c: [] for c in ["stex-off", "stex-on", "plain", "wgsl", "wgsl-on"]
                + [p for p, _, _, _ in PEERS + [NODE]]}
            for k, _ in KERNELS}
    peer_docs, peers_ran = {}, set()

    def part_stex(rnd):
        for kernel, _ in KERNELS:
            for races in ("off", "on"):
                ms = measure_stex(args, kernel, races)
                data[kernel]["stex-" + races].append(ms)
                say(f"  stex {kernel} races {races}: {ms:.1f} ms")

    def part_wgsl(rnd):
        for kernel, _ in KERNELS:
            for races in ("off", "on"):
                ms = measure_wgsl(args, kernel, races)
                data[kernel]["wgsl" if races == "off" else "wgsl-on"].append(ms)
                say(f"  stex WGSL {kernel} races {races}: {ms:.1f} ms")

    def part_plain(rnd):
        for kernel, _ in KERNELS:
            ms = measure_plain(args, kernel)
            data[kernel]["plain"].append(ms)
            say(f"  plain C {kernel}: {ms:.1f} ms")

    def part_peer(key):
        def go(rnd):
            if key not in peers:  # failed in an earlier round
                return
            try:
                ms, doc = measure_peer(args, key, peers[key], run_dir, rnd)
            except RuntimeError as e:
                notes.append(f"{key} failed in round {rnd}, not run after it: {e}")
                say(f"  {key}: FAILED: {e}")
                del peers[key]
                for kernel, _ in KERNELS:
                    data[kernel][key].append(None)
                return
            peer_docs[key] = doc
            peers_ran.add(key)
            for kernel, _ in KERNELS:
                data[kernel][key].append(ms[kernel])
                say(f"  {key} {kernel}: {ms[kernel]:.1f} ms")
        return go

    t0 = time.monotonic()
    for rnd in range(1, args.rounds + 1):
        parts = [("stex", part_stex), ("plain C", part_plain)]
        if args.wgsl:
            parts.append(("stex WGSL", part_wgsl))
        parts += [(key, part_peer(key)) for key, _, _, _ in PEERS + [NODE] if key in peers]  # those still running
        order = parts[(rnd - 1) % len(parts):] + parts[:(rnd - 1) % len(parts)]
        say(f"[round {rnd}/{args.rounds}] " + ", ".join(name for name, _ in order))
        for _, part in order:
            part(rnd)
        # a peer that failed in round 1 leaves None where the others have figures; keep columns aligned
        for kernel, _ in KERNELS:
            for key, _, _, _ in PEERS + [NODE]:
                while 0 < len(data[kernel][key]) < rnd:
                    data[kernel][key].append(None)
    say(f"[done] {args.rounds} rounds in {time.monotonic() - t0:.0f} s; raw figures in {run_dir}")

    text = report(args, started, load_start, data, peers_ran, peer_docs, notes)
    with open(os.path.join(run_dir, "figures.json"), "w") as f:
        json.dump({"command": args.command, "data": data, "notes": notes}, f, indent=1)
    with open(os.path.join(run_dir, "report.md"), "w") as f:
        f.write(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    give_cache_back(args.cache)
    print(text, end="")


if __name__ == "__main__":
    try:
        main()
    except RuntimeError as e:
        sys.exit(f"peer.py: {e}")
