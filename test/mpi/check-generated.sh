#!/bin/sh
# check-generated.sh - tracer/wrappers-gen.[ch] are what gen-wrappers.py makes of
# mpi-api.txt (they are committed so that building needs no Python).
set -eu
top_srcdir=${top_srcdir:-.}
command -v python3 >/dev/null 2>&1 || { echo "SKIP: no python3"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$top_srcdir/tracer/gen-wrappers.py" "$top_srcdir/tracer/mpi-api.txt" "$tmp/w.c" "$tmp/w.h"
cmp -s "$tmp/w.c" "$top_srcdir/tracer/wrappers-gen.c" && cmp -s "$tmp/w.h" "$top_srcdir/tracer/wrappers-gen.h" ||
  { echo "FAIL: tracer/wrappers-gen.[ch] are stale: run 'make tracer-regen'" >&2; exit 1; }
echo "ok: generated wrappers up to date"
