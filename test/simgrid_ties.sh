#!/bin/sh
# simgrid_ties.sh - SimGrid 3.32's order of equal dates under --cfg=tir/simgrid-marking:yes
# (doc/model.md, "Equal dates"): its action heap hands out equal dates in the order of their
# last update, and updates the re-solved actions in its solve's order. Two small wavefront
# traces (scripts/tir-gen-wavefront --blocks B N 1) on fat trees, where the order decides which
# rank starts its flow first and so what SimGrid's marking re-solves, and a case where two
# sleeps end at one date, and a compute of 0 flops ending flows within surf/precision; the
# times are SimGrid's (test/simgrid-oracle), and tir prints
# 12 digits: 1e-10 relative.
# With creation-order ties the marking gave 7.8e-6 and 3.0e-7 relative from them.
. "$(dirname "$0")/setup.sh"
cd "$DATA/ties"
pass=0 fail=0
check() { # dir platform cfg want [more settings]
  d=$1 cfg=$3 want=$4 plat=$2
  shift 4
  index=$d/index.txt
  [ -f "$index" ] || index=$d/index
  set -- -q -p "$plat" -H "$d/hostfile" ${cfg:+"$cfg"} "$@" "$index"
  got=$($TIR "$@" 2>&1 | sed -n 's/^Simulated time: *\([0-9.eE+-]*\).*/\1/p')
  if awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= 1e-10 * w) }'; then
    pass=$((pass + 1)); echo "ok    $d $cfg"
  else
    fail=$((fail + 1)); echo "FAIL  $d $cfg: tir ${got:-nothing}, SimGrid $want"
  fi
}
check wavefront_9_2 fattree16.xml --cfg=tir/simgrid-marking:yes 0.02966881933519893710
check wavefront_9_2 fattree16.xml "" 0.02966881933519893710
# here SimGrid over-uses a link (its marking quirk): tir's default, the max-min solution,
# is 2.2e-6 relative away; the marking gives SimGrid's time
check wavefront_24_3 fattree32.xml --cfg=tir/simgrid-marking:yes 0.05037637718977622941
# SimGrid queues a new sleep (here the isend overhead smpi/ois) at the front of its CPU
# model's modified set: two sleeps started at one date end in reverse order, so rank 4
# runs before rank 5 and its flow 3->4 leaves its latency before 4->5 (differential.py
# seed 1, case 74: 2.2e-4 relative with creation order)
check sleeps sleeps/platform.xml --cfg=tir/simgrid-marking:yes 0.35088365471217369818 \
  -n 7 --cfg=smpi/ois:0:2e-6:1e-10 '--cfg=smpi/lat-factor:0:1.5;10000:3'
# SimGrid runs the last rank first at date 0: in this ring of 1 MB sendRecv (7 ranks on 2
# hosts) it creates the flow 6->0 first, and the 7 flows leave their latency at one date
# (differential.py seed 3, case 214: 2.7e-6 relative with rank 0 first)
check ring ring/platform.xml --cfg=tir/simgrid-marking:yes 0.67034014936767671866 \
  -n 7 --cfg=network/weight-S:0 --cfg=network/TCP-gamma:65536 '--cfg=smpi/bw-factor:0:0.5;10000:0.9'
# a compute of 0 flops is an execution in SimGrid (private_execute_flops): it ends at once in
# an engine step at its date, and a flow due within surf/precision (here 0.9 ns) ends in that
# step too, so ranks 16 and 17 of this 31-rank trace (compute skew, an ompi reduce_scatter
# and reduce, 6 ranks on node-4) end their reduce_scatter with 12 and 13, one of which
# computes 0 (coll_differential seed 20261201: 6.6e-5 relative, in both modes, when tir
# skipped such computes)
check zero_compute zero_compute/platform.xml "" 0.01272703022576797058 \
  -n 31 --cfg=smpi/coll-selector:ompi --cfg=smpi/send-is-detached-thresh:1
check zero_compute zero_compute/platform.xml --cfg=tir/simgrid-compat:yes 0.01272703022576797058 \
  -n 31 --cfg=smpi/coll-selector:ompi --cfg=smpi/send-is-detached-thresh:1
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
