#!/usr/bin/env bash
# Runs one of stex's fuzz targets with libFuzzer (not part of CI, which
# replays each kept corpus tests/fuzz/corpus_TARGET as the test
# fuzz_TARGET_corpus; docs/fuzzing.md).  TARGET: wgsl (the WGSL front end and
# interpreter), runfile (run files) or calls (sequences of the Node
# provider's calls on the C API).  Needs clang, libclang-rt-14-dev and
# libomp-dev:  apt-get install clang libclang-rt-14-dev libomp-dev
# Usage: tools/fuzz.sh TARGET [SECONDS] [extra libFuzzer options]
# Environment: FUZZ_BUILD (default build-fuzz), the build folder: libstex with
# clang, ASan+UBSan and coverage, the target in it as fuzz_TARGET.
# New inputs go to $FUZZ_BUILD/corpus-TARGET; crashes, leaks and timeouts to
# $FUZZ_BUILD/crash-*, leak-*, timeout-* (-artifact_prefix to change).
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: tools/fuzz.sh wgsl|runfile|calls [SECONDS] [libFuzzer options]}
case $target in
    wgsl|runfile|calls) ;;
    *) echo "tools/fuzz.sh: no fuzz target '$target' (wgsl, runfile, calls)" >&2; exit 2 ;;
esac
seconds=${2:-600}
shift $(( $# < 2 ? $# : 2 ))
build=${FUZZ_BUILD:-build-fuzz}
# one build at a time in the folder: several targets may start at once
mkdir -p "$build"
(
    flock 9
    if [ ! -f "$build/build.ninja" ]; then
        # libstex itself instrumented for coverage, or libFuzzer would be blind
        CC=clang meson setup "$build" -Db_sanitize=address,undefined -Db_lundef=false \
            -Dbuildtype=debugoptimized -Ddefault_library=static -Dnode=disabled \
            -Dc_args=-fsanitize=fuzzer-no-link >/dev/null
    fi
    ninja -C "$build" src/libstex.a >/dev/null
    clang -g -O1 -fsanitize=fuzzer,address,undefined -fopenmp -D_GNU_SOURCE -Iinclude -Isrc \
        "tests/fuzz/fuzz_$target.c" "$build/src/libstex.a" \
        $(pkg-config --libs libpng jansson zlib) -lm -o "$build/fuzz_$target"
) 9>"$build/.fuzz-build.lock"
mkdir -p "$build/corpus-$target"
cd "$build"
# a UBSan report is a crash too (libFuzzer then keeps the input)
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:abort_on_error=1:print_stacktrace=1}
# a run file or call sequence fits in 64 KiB; a WGSL module in 4 KiB finds
# most, and the targets ignore longer inputs
max_len=$([ "$target" = wgsl ] && echo 4096 || echo 16384)
exec "./fuzz_$target" "corpus-$target" "../tests/fuzz/corpus_$target" \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=4096 "$@"
