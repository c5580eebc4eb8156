#!/usr/bin/env bash
# The WGSL target of tools/fuzz.sh (kept for its old command line):
# Usage: tools/fuzz-wgsl.sh [SECONDS] [extra libFuzzer options]
exec "$(dirname "$0")/fuzz.sh" wgsl "$@"
