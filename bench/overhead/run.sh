#!/bin/sh
# bench/overhead/run.sh - traced vs untraced wall time of a communication-heavy program
# (8-byte ping-pong) and a compute-heavy one (compute + allreduce), the tracer's per-call
# cost, and the trace size per event. Prints a table; nothing is asserted (results depend
# on the machine; a 2-core VM shared with other jobs is noisy: each run is repeated and
# the median kept).
#
# usage: bench/overhead/run.sh [TIR_TRACE_LIB]     (default: .libs/libtirtrace.so)
#   env: MPICC (mpicc), MPIRUN (mpirun), NP (2), REPEAT (5), PINGPONG (200000), STEPS (200)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
lib=${1:-$top/.libs/libtirtrace.so}
[ -r "$lib" ] || { echo "run.sh: no $lib (build libtirtrace first, or give its path)" >&2; exit 2; }
MPICC=${MPICC:-mpicc} MPIRUN=${MPIRUN:-mpirun} NP=${NP:-2} REPEAT=${REPEAT:-5}
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
flags=
$MPIRUN --version 2>&1 | grep -q 'Open MPI' && flags=--oversubscribe
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed -e "s|@TIRTRACE_LIB@|$lib|" -e 's|@PACKAGE_VERSION@|bench|' "$top/tracer/tir-trace.in" >"$tmp/tir-trace"
chmod +x "$tmp/tir-trace"
$MPICC -O2 -o "$tmp/smallmsg" "$here/smallmsg.c"
$MPICC -O2 -o "$tmp/compute" "$here/compute.c"

# median TRACED PROGRAM ARGS...: median wall_s over REPEAT runs (TRACED=1: under tir-trace)
median() {
  traced=$1; shift
  for i in $(seq "$REPEAT"); do
    rm -rf "$tmp/t"
    if [ "$traced" = 1 ]; then
      $MPIRUN $flags -np "$NP" "$tmp/tir-trace" -o "$tmp/t" -- "$@"
    else
      $MPIRUN $flags -np "$NP" "$@"
    fi | sed -n 's/^wall_s //p'
  done | sort -g | sed -n "$(((REPEAT + 1) / 2))p"
}

row() { # NAME PROGRAM ARGS...
  name=$1; shift
  calls=$($MPIRUN $flags -np "$NP" "$@" | sed -n 's/^calls_per_rank //p')
  base=$(median 0 "$@")
  traced=$(median 1 "$@")
  lines=$(sed -n 's/^trace_lines = //p' "$tmp/t/trace.meta")
  bytes=$(sed -n 's/^trace_bytes = //p' "$tmp/t/trace.meta")
  awk -v n="$name" -v b="$base" -v t="$traced" -v c="$calls" -v np="$NP" -v l="$lines" -v by="$bytes" 'BEGIN {
    printf "%-10s %10.4f %10.4f %+8.2f%% %10.0f %12.2f\n", n, b, t, 100 * (t - b) / b,
      1e9 * (t - b) / c, by / l }'
}

echo "np=$NP repeat=$REPEAT (median)  lib=$lib"
printf "%-10s %10s %10s %9s %10s %12s\n" program untraced_s traced_s overhead ns/call bytes/line
row pingpong "$tmp/smallmsg" "${PINGPONG:-200000}"
row compute "$tmp/compute" "${STEPS:-200}"
