#!/usr/bin/env python3
"""Writes hand-made seeds of the provider-call fuzz target (tests/fuzz/
fuzz_calls.c) into tests/fuzz/corpus_calls: a few call sequences a WebGPU
program makes, spelled in the bytes fuzz_calls.c decodes (a byte below 17
is that number; see num() there).  libFuzzer grows the rest from them.
Usage: tools/fuzz/seeds_calls.py [OUT_DIR]"""
import os, sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), '..', '..'))
# num(): bytes 128..223 pick edges[c % 30]
EDGE = {64: 130, 256: 132, 1024: 134, 4096: 136}


def buffer(size, usage_low=0):          # op 0: size, usage = low | 0x8c
    return [0, EDGE.get(size, size), 0, usage_low]


def texture(dim, w, h, d, fmt, usage):  # op 1
    return [1, dim, EDGE.get(w, w), EDGE.get(h, h), EDGE.get(d, d), fmt, 1, 1, 0, usage, 0]


def module(i):                          # op 4: shader i of the pool
    return [4, i]


def pipeline(mod=0, entry=1, width_log2=3):  # op 6: auto layout
    return [6, mod, 0, 0, 0, width_log2, entry]


def group_buffers(pipe, group, buffers):     # op 7: whole-buffer entries
    out = [7, 0, pipe, 0, group, len(buffers)]
    for binding, b in buffers:
        out += [0, binding, 0, b, 0, 0, 0]
    return out


def dispatch(pipe, groups, x, y=1, z=1, race=False):  # op 15
    out = [15, pipe, len(groups)]
    for g in groups:
        out += [1, g, 1]
    return out + [x, y, z, 2 | (8 if race else 0), 0, 0, 0, 0, 0]


def read(b):                             # op 17, even: mapAsync(READ)
    return [17, 0, b]


SEEDS = {
    'double': [0] + buffer(64) + module(0) + pipeline() + group_buffers(0, 0, [(0, 0)]) +
              dispatch(0, [0], 4, race=True) + read(0),
    'atomics': [1] + buffer(16, 0x40) + buffer(64) + module(1) + pipeline() +
               group_buffers(0, 0, [(0, 0), (1, 1)]) + [8, 0, 0, 16] + dispatch(0, [0], 2) + read(1),
    'reduce': [0] + buffer(256) + module(5) + pipeline(0, 1, 5) + group_buffers(0, 0, [(0, 0)]) +
              dispatch(0, [0], 2) + read(0),
    'spin': [2] + buffer(64) + module(6) + pipeline(0, 2) + group_buffers(0, 0, [(0, 0)]) +
            dispatch(0, [0], 1),
    'oob': [0] + buffer(64) + module(6) + pipeline(0, 1) + group_buffers(0, 0, [(0, 0)]) +
           dispatch(0, [0], 1) + read(0),
    # an rgba8unorm (format index from stex's table) storage texture, a view, copies
    'copies': [0] + buffer(1024) + buffer(1024) + [10, 0, 0, 1, 0, 0, 16] + [11, 1, 0, 0, 4, 64] +
              [17, 1, 0] + [16, 1, 0] + [10, 0, 0, 1, 0, 0, 16] + read(1),
    'refused': [0] + module(9) + pipeline() + module(8) + pipeline() + dispatch(0, [], 1),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'tests/fuzz/corpus_calls')
    os.makedirs(out, exist_ok=True)
    for name, b in SEEDS.items():
        data = bytes(b)
        open(os.path.join(out, 'seed-' + name), 'wb').write(data)
    print(len(SEEDS), 'seeds in', out)


main()
