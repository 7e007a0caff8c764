#!/bin/sh
# run.sh - the worked example of doc/calibration.md: calibrate this machine's MPI (two ranks
# on one node: shared memory) and CPU with tir-calibrate, then compare tir-replay's
# predictions with measured run times of examples/calibration/exchange.c.
#   1. bench + fit: the network model (vm.xml, vm.png: 2 hosts of this machine's cores, the
#      measured shared-memory path on each host's loopback); every replay below puts both
#      ranks on node-0, as they ran
#   2. exchange.c (communication only): measured 5 times untraced, traced once, replayed on
#      vm.xml and on tir-replay's built-in default platform; then one size at a time
#   3. cpu: calibrated on one run (A: 20 iterations, 4 passes of the two regions; its
#      undisturbed time and region times, quiet_s and region_quiet_s), checked
#      on another (B: 60 iterations of one 64 KiB size, 1 pass), replayed on vm-cpu.xml
#      (fitted speed and region factors) and on vm.xml (1 Gf: the tracer's nominal rate)
# Writes OUT/results.md (and every file used). Run from the build tree, which holds
# tir-calibrate, tir-trace, replay/tir-replay and .libs/libtirtrace.so.
# usage: sh examples/calibration/run.sh [OUT]     (default: calibration-run)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(pwd)
out=${1:-calibration-run}
mkdir -p "$out"
cd "$out"
export TIR_TRACE_LIB="$top/.libs/libtirtrace.so" TIR_PLATFORM="$here/../../scripts/tir-platform"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
flags=
mpirun --version 2>&1 | grep -q "Open MPI" && flags=--oversubscribe
run2() { # shellcheck disable=SC2086
  mpirun $flags -np 2 "$@"
}
TIR="$top/replay/tir-replay"
sim() { "$TIR" -q "$@" | sed -n 's/^Simulated time: \([0-9.e+-]*\) s.*/\1/p'; }
# measure NAME ARGS...: 5 untraced runs (total times in NAME.times, the undisturbed
# estimates quiet_s in NAME.quiet, the output of the run with the median quiet_s in
# NAME.out), then one traced run into NAME.t
measure() {
  name=$1
  shift
  : >"$name.times"
  : >"$name.quiet"
  for i in 1 2 3 4 5; do
    run2 ./exchange "$@" >"$name.$i.out"
    sed -n 's/^measured_s //p' "$name.$i.out" >>"$name.times"
    sed -n 's/^quiet_s //p' "$name.$i.out" >>"$name.quiet"
  done
  med=$(sort -n "$name.quiet" | sed -n 3p)
  cp "$(grep -l "^quiet_s $med\$" "$name".?.out | head -n 1)" "$name.out"
  rm -rf "$name.t"
  run2 "$top/tir-trace" -o "$name.t" -- ./exchange "$@" >/dev/null
}
err() { awk -v p="$1" -v m="$2" 'BEGIN { printf "%+.1f %%", 100 * (p / m - 1) }'; }
row() { # label trace platform...
  label=$1 name=$2
  shift 2
  p=$(sim "$@" "$name.t")
  q=$(sort -n "$name.quiet" | sed -n 3p)
  b=$(sed -n 's/^best_s //p' "$name".?.out | sort -n | head -n 1)
  set -- $(sort -n "$name.times" | tr '\n' ' ')
  echo "| $label | $1 / $3 / $5 | $b / $q | $p | $(err "$p" "$q") | $(err "$p" "$3") |"
}
out_of() { sed -n "s/^$1 //p" "$2"; }

date -u +"run at %Y-%m-%dT%H:%M:%SZ; load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >results.md
run2 "$top/tir-calibrate" bench -o meas
"$top/tir-calibrate" fit meas -o vm.xml --nodes 2 --cores "$(nproc)" --plot vm.png >fit.txt
echo "node-0:2" >hosts  # the traced runs' placement: both ranks on this node
mpicc -O2 -o exchange "$here/exchange.c"
measure net
for s in 64:20000 1024:20000 8192:3000 65536:2000 1048576:300; do
  measure "net${s%:*}" --sizes "${s%:*}" --iters "${s#*:}"
done
measure cpuA --iters 20 --work 4
measure cpuB --iters 60 --work 1 --sizes 65536
"$top/tir-calibrate" cpu cpuA.t --time "$(out_of quiet_s cpuA.out)" --region-time "axpy=$(out_of 'region_quiet_s axpy' cpuA.out)" \
  --region-time "poly=$(out_of 'region_quiet_s poly' cpuA.out)" -p vm.xml -o vm-cpu.xml >cpu.txt
{
  echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo
  echo "| run | measured total (s): fastest / median / slowest of 5 | undisturbed (s): best_s / median quiet_s | predicted (s) | error vs quiet_s | error vs median total |"
  echo "|---|---|---|---|---|---|"
  row "exchange, communication only, on vm.xml" net -p vm.xml -H hosts
  row "the same on the built-in default platform (one rank per host)" net -n 2
  for s in 64 1024 8192 65536 1048576; do
    row "exchange of $s B only on vm.xml" "net$s" -p vm.xml -H hosts
  done
  row "cpu run A (calibration) on vm-cpu.xml" cpuA -p vm-cpu.xml -H hosts
  row "cpu run B (check) on vm-cpu.xml" cpuB -p vm-cpu.xml -H hosts
  row "cpu run B on vm.xml (1 Gf, no factors)" cpuB -p vm.xml -H hosts
  echo
  sed 's/^/    /' fit.txt
  echo
  sed 's/^/    /' cpu.txt
} >>results.md
cat results.md
