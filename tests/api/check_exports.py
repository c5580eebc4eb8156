#!/usr/bin/env python3
"""libstex.so exports exactly the STEX_API declarations of include/stex/*.h.

usage: check_exports.py NM LIBSTEX_SO INCLUDE_DIR

Fails if the shared library exports a name that does not start with stex_,
a name no public header declares with STEX_API (an internal helper that
leaked), or lacks a name a header declares (a promise the library does not
keep).  A few well-known functions are also required by name, so that a
header parser that found nothing cannot make the test pass.
"""
import re
import subprocess
import sys
from pathlib import Path

# Names the toolchain derives from one of ours and exports beside it; the
# name after the prefix must still start with stex_: AddressSanitizer adds
# __odr_asan.NAME beside each exported variable (sanitizer builds only).
# (A named `#pragma omp critical` would export .gomp_critical_user_NAME:
# libstex uses none.)
TOOLCHAIN_PREFIXES = ('__odr_asan.',)
REQUIRED = ['stex_adapter_create', 'stex_device_create', 'stex_texture_create',
            'stex_dispatch', 'stex_last_error', 'stex_format_get']


def exported(nm, lib):
    out = subprocess.run([nm, '-D', '--defined-only', lib], check=True,
                         capture_output=True, text=True).stdout
    # "ADDRESS TYPE NAME"; a versioned name would read NAME@@VERSION.
    return {line.split()[-1].split('@')[0] for line in out.splitlines() if line.strip()}


def declared(include_dir):
    names = set()
    for header in sorted(Path(include_dir).glob('*.h')):
        # Without comments and preprocessor lines (api.h's #define STEX_API).
        text = re.sub(r'/\*.*?\*/|//[^\n]*|^\s*#[^\n]*', ' ', header.read_text(),
                      flags=re.S | re.M)
        # STEX_API [qualifiers, type, *] NAME followed by ( for a function,
        # [ or ; for data.
        names |= set(re.findall(r'\bSTEX_API\b[^;{()]*?\b(\w+)\s*[(\[;]', text))
    return names


def main():
    nm, lib, include_dir = sys.argv[1:4]
    have = exported(nm, lib)
    want = declared(include_dir)
    errors = []
    for name in sorted(have):
        bare = next((name[len(p):] for p in TOOLCHAIN_PREFIXES if name.startswith(p)), name)
        if not bare.startswith('stex_'):
            errors.append(f'exported without the stex_ prefix: {name}')
        elif bare == name and name not in want:
            errors.append(f'exported but not declared STEX_API in include/stex: {name}')
    for name in sorted(want - have):
        errors.append(f'declared STEX_API but not exported: {name}')
    for name in REQUIRED:
        if name not in want or name not in have:
            errors.append(f'public function missing from the headers or the library: {name}')
    for e in errors:
        print(e)
    print(f'{len(have)} exported, {len(want)} declared STEX_API, {len(errors)} problems')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
