#!/bin/sh
# bench/overhead/run.sh - traced vs untraced time of a network-free program (one rank
# sending 8 bytes to itself: the tracer's own cost per call), a communication-heavy one
# (8-byte ping-pong, 2 ranks) and a compute-heavy one (compute + allreduce, 2 ranks), and
# the compressed trace size per line. Prints a table; nothing is asserted (results depend
# on the machine). Each figure is the median of REPEAT runs. Wall time and CPU time (the
# process time of rank 0, tracer's sync thread included) are both given: a loaded machine
# inflates wall time, mostly for latency-bound programs.
#
# usage: bench/overhead/run.sh [LIBTIRTRACE]      (default: .libs/libtirtrace-ompi.so)
#   env: MPICC (mpicc), MPIRUN (mpirun), REPEAT (5), PERCALL (500000), PINGPONG (200000),
#        STEPS (200), FLUSH (the flush interval, seconds: tir-trace --flush-interval; 1),
#        ROWS (which programs: "percall pingpong compute")
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
lib=${1:-$top/.libs/libtirtrace-ompi.so}
[ -r "$lib" ] || { echo "run.sh: no $lib (build libtirtrace first, or give its path)" >&2; exit 2; }
MPICC=${MPICC:-mpicc} MPIRUN=${MPIRUN:-mpirun} REPEAT=${REPEAT:-5}
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
flags=
$MPIRUN --version 2>&1 | grep -q 'Open MPI' && flags=--oversubscribe
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x "$top/tir-trace" ] || { echo "run.sh: no $top/tir-trace (build tir first)" >&2; exit 2; }
TIR_TRACE_LIB=$lib TIR_FLUSH_INTERVAL=${FLUSH:-1}
export TIR_TRACE_LIB TIR_FLUSH_INTERVAL
for p in percall smallmsg compute; do $MPICC -O2 -o "$tmp/$p" "$here/$p.c"; done

# run TRACED NP PROGRAM ARGS...: one run's output (TRACED=1: under tir-trace)
run() {
  traced=$1 np=$2; shift 2
  rm -rf "$tmp/t"
  if [ "$traced" = 1 ]; then
    $MPIRUN $flags -np "$np" "$top/tir-trace" -o "$tmp/t" -- "$@"
  else
    $MPIRUN $flags -np "$np" "$@"
  fi
}

# median FILE KEY: median of "KEY value" lines of FILE
median() { sed -n "s/^$2 //p" "$1" | sort -g | sed -n "$(((REPEAT + 1) / 2))p"; }

# row NAME NP PROGRAM ARGS...: REPEAT runs each way, one table line per time kind
row() {
  name=$1 np=$2; shift 2
  : >"$tmp/base"
  : >"$tmp/traced"
  for i in $(seq "$REPEAT"); do
    run 0 "$np" "$@" >>"$tmp/base"
    run 1 "$np" "$@" >>"$tmp/traced"
  done
  calls=$(median "$tmp/base" calls_per_rank)
  lines=$(sed -n 's/^trace_lines = //p' "$tmp/t/trace.meta")
  bytes=$(sed -n 's/^trace_bytes = //p' "$tmp/t/trace.meta")
  for key in wall_s cpu_s; do
    awk -v n="$name" -v np="$np" -v k="$key" -v b="$(median "$tmp/base" $key)" \
        -v t="$(median "$tmp/traced" $key)" -v c="$calls" -v l="$lines" -v by="$bytes" 'BEGIN {
      printf "%-9s %3d %-6s %10.4f %10.4f %+9.2f%% %9.0f %10.2f\n", n, np, k, b, t,
        100 * (t - b) / b, 1e9 * (t - b) / c, by / l }'
  done
}

echo "median of $REPEAT runs; lib=$lib; flush interval ${FLUSH:-1} s"
printf "%-9s %3s %-6s %10s %10s %10s %9s %10s\n" program np time untraced traced overhead ns/call bytes/line
for r in ${ROWS:-percall pingpong compute}; do
  case $r in
    percall) row percall 1 "$tmp/percall" "${PERCALL:-500000}" ;;
    pingpong) row pingpong 2 "$tmp/smallmsg" "${PINGPONG:-200000}" ;;
    compute) row compute 2 "$tmp/compute" "${STEPS:-200}" ;;
  esac
done
