#!/bin/sh
# check.sh - the fuzzers in `make check`: builds the harnesses (make fuzz-build), replays
# each one's saved corpus (test/fuzz/corpus/NAME: inputs that once found a bug, and a
# sample of what fuzzing covered), then fuzzes each for FUZZ_CHECK_TIME seconds (default
# 20: about a minute for the three). Skipped without a clang that links libFuzzer.
. "$(dirname "$0")/../setup.sh"
[ -n "${FUZZ_CLANG:-}" ] || skip "no clang with libFuzzer (configure: FUZZ_CLANG)"
${MAKE:-make} -s -C "$top_builddir" fuzz-build > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
export top_srcdir top_builddir
FUZZ_WORK="$tmp/work" sh "$top_srcdir/test/fuzz/run" corpus
FUZZ_WORK="$tmp/work" sh "$top_srcdir/test/fuzz/run" fuzz "${FUZZ_CHECK_TIME:-20}"
