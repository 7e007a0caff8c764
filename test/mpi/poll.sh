#!/bin/sh
# poll.sh - a polling loop traced (test/mpi/poll.c) twice, with rank 0 sleeping 20 ms and
# 200 ms before its send: the two traces hold different numbers of failed MPI_Iprobe lines,
# and replay (computations off, smpi/simulate-computation:no: the measured bursts vary) in
# the same time, derived by hand (tir/polling:wait, doc/model.md "Polling loops"): rank 1
# waits for the message, which rank 0 posts at 0, then pays one successful iprobe
# (smpi/iprobe: 1e-4 s of its CPU), then receives it: 1e-4 + T(1000) with T(1000) =
# 11 us x 1.9503 + 1016 / (0.341987 x 1.25 GBps) on test/mpi/cluster4.xml. With
# tir/polling:simgrid every recorded poll is charged, and the longer loop takes longer.
. "${top_srcdir:-.}/test/mpi/setup.sh"
# under each tracer flavour built (Open MPI, MPICH)
root=$tmp
for f in $flavours; do
use_flavour "$f"
tmp=$root/$f
mkdir -p "$tmp"
"$MPICC" -O1 -o "$tmp/poll" "$here/poll.c" || fail "cannot compile poll.c"
tir=$top_builddir/replay/tir-replay
printf 'node-0\nnode-1\n' >"$tmp/hf"
want=$(awk 'BEGIN { printf "%.12g", 1e-4 + 11e-6 * 1.9503 + 1016 / (0.341987 * 1.25e9) }')
for ms in 20 200; do
  run_np 2 "$tirtrace" -o "$tmp/t$ms" -- "$tmp/poll" "$ms" >"$tmp/log$ms" 2>&1 || { cat "$tmp/log$ms"; fail "traced run failed"; }
  polls=$(rank_lines "$tmp/t$ms" 1 | grep -c ' iprobe -555 -444 0$' || true)
  [ "$polls" -gt 0 ] || fail "$ms ms: no failed iprobe in rank 1's trace"
  for mode in wait simgrid; do
    got=$("$tir" -q --cfg=smpi/simulate-computation:no --cfg=tir/polling:$mode -p "$here/cluster4.xml" -H "$tmp/hf" \
      "$tmp/t$ms/index" | sed -n 's/^Simulated time: \([^ ]*\) s$/\1/p')
    eval "t_${mode}_$ms=\$got"
  done
  eval "echo \"ok: rank 0 sleeps $ms ms: $polls failed iprobes recorded; replayed in \$t_wait_$ms s (tir/polling:simgrid: \$t_simgrid_$ms s)\""
done
for ms in 20 200; do
  eval "got=\$t_wait_$ms"
  awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; exit !(d <= 1e-9 * w && -d <= 1e-9 * w) }' ||
    fail "$ms ms: replayed in $got s, by hand $want s"
done
echo "ok: both replay in $want s (by hand), whatever the number of polls"
awk -v a="$t_simgrid_20" -v b="$t_simgrid_200" 'BEGIN { exit !(b > a) }' ||
  fail "tir/polling:simgrid: the longer loop should take longer ($t_simgrid_20 s, $t_simgrid_200 s)"
done
tmp=$root
