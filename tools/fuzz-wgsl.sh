#!/usr/bin/env bash
# Fuzzes stex's WGSL front end and interpreter with libFuzzer (not part of
# CI, which replays the kept corpus tests/fuzz/corpus_wgsl as the test
# fuzz_wgsl_corpus).  Needs clang, libclang-rt-14-dev and libomp-dev:
#   apt-get install clang libclang-rt-14-dev libomp-dev
# Usage: tools/fuzz-wgsl.sh [SECONDS] [extra libFuzzer options]
# New inputs go to build-fuzz/corpus; crashes to build-fuzz/crash-*.
# Hand-made seeds in the corpus are named *.wgsl: the replay expects those
# named refused-* to be refused and every other one to be valid WGSL.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
if [ ! -f build-fuzz/build.ninja ]; then
    # libstex itself instrumented for coverage, or libFuzzer would be blind
    CC=clang meson setup build-fuzz -Db_sanitize=address,undefined -Db_lundef=false \
        -Dbuildtype=debugoptimized -Ddefault_library=static \
        -Dc_args=-fsanitize=fuzzer-no-link >/dev/null
fi
meson compile -C build-fuzz stex:static_library >/dev/null || meson compile -C build-fuzz >/dev/null
clang -g -O1 -fsanitize=fuzzer,address,undefined -fopenmp -Iinclude -Isrc \
    tests/fuzz/fuzz_wgsl.c build-fuzz/src/libstex.a \
    $(pkg-config --libs libpng jansson zlib) -lm -o build-fuzz/fuzz_wgsl
mkdir -p build-fuzz/corpus
cd build-fuzz
exec ./fuzz_wgsl corpus ../tests/fuzz/corpus_wgsl -max_total_time="$seconds" -max_len=4096 \
    -timeout=10 -rss_limit_mb=4096 "$@"
