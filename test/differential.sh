#!/bin/sh
# differential.sh - 200 random cases (traces, platforms, settings) replayed by tir-replay and
# by SimGrid 3.32 (test/differential.py); skipped when SimGrid or python3 is missing.
. "$(dirname "$0")/setup.sh"
command -v python3 >/dev/null || skip "python3 is needed to generate the cases"
oracle="$top_srcdir/test/simgrid-oracle"
python3 "$top_srcdir/test/differential.py" -n "${TIR_DIFF_CASES:-200}" "$top_builddir/replay/tir-replay" "$oracle"
