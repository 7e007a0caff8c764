#!/bin/sh
# coll_smp.sh - the SMP-aware collective algorithms with several ranks a host, against
# SimGrid 3.32's times (simgrid-oracle, recorded below; no SimGrid needed to run this).
#
# 16 ranks on a 4-host cluster (125 MB/s, 50 us links; 500 MB/s, 20 us backbone), placed
# in blocks of 4, round-robin (cyclic: SimGrid's rank % num_core arithmetic then sends
# across hosts) or unevenly (5 + 3 + 4 + 4: num_core 1, flat algorithms, the mpich bcast
# for SMP_*); two calls each (roots 0 then 3), with smpi/send-is-detached-thresh:0 (SimGrid's
# init_smp crashes at the default threshold). The first call also carries SimGrid's
# init_smp messages. tir must give SimGrid's time to 1e-9 in both modes. Then mvapich2's
# shared globals read late (below).
. "$(dirname "$0")/setup.sh"

cat >"$tmp/p.xml" <<'EOF'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="node-" suffix="" radical="0-3" speed="1Gf" core="5"
           bw="125MBps" lat="50us" bb_bw="500MBps" bb_lat="20us"/>
</platform>
EOF
i=0
while [ $i -lt 16 ]; do
  echo "node-$((i / 4))" >>"$tmp/block"
  echo "node-$((i % 4))" >>"$tmp/cyclic"
  i=$((i + 1))
done
for h in 0 0 0 0 0 1 1 1 2 2 2 2 3 3 3 3; do echo "node-$h" >>"$tmp/uneven"; done

# trace KIND COUNT: 16 ranks, init, two calls (roots 0 and 3), 4-byte elements
trace() {
  awk -v kind="$1" -v c="$2" 'BEGIN {
    for (i = 0; i < 16; i++) print i " init"
    for (i = 0; i < 16; i++) for (k = 0; k < 2; k++) {
      root = k ? 3 : 0
      if (kind == "bcast") print i " bcast " c " " root " 1"
      else if (kind == "allreduce") print i " allreduce " c " 0 1"
      else if (kind == "allgather") print i " allgather " c " " c " 1 1"
      else print i " barrier"
    } }' >"$tmp/trace"
  echo trace >"$tmp/index"
}

fail=0
# verdict LABEL GOT WANT: GOT (a simulated time) within 1e-9 of WANT
verdict() {
  if near "$2" "$3"; then
    echo "ok   $1: $2"
  else
    echo "FAIL $1: tir $2, want $3"
    fail=1
  fi
}
check() { # KIND ALGO COUNT LAYOUT EXPECTED
  trace "$1" "$3"
  for mode in no yes; do
    out=$($TIR -q -p "$tmp/p.xml" -H "$tmp/$4" -n 16 "--cfg=smpi/$1:$2" --cfg=smpi/send-is-detached-thresh:0 \
      "--cfg=tir/simgrid-compat:$mode" "$tmp/index" 2>&1) || { echo "FAIL $1 $2 $4: $out"; fail=1; continue; }
    verdict "$1 $2 $4 (compat $mode)" "$(echo "$out" | sed -n 's/^Simulated time: \([0-9.e+-]*\) s$/\1/p')" "$5"
  done
}

while read -r kind algo count layout want; do
  check "$kind" "$algo" "$count" "$layout" "$want"
done <<'EOF'
allgather smp_simple 1000 block 0.01827337600551061023
allgather smp_simple 1000 cyclic 0.03477724553521717443
allgather smp_simple 1000 uneven 0.01401688547688259567
allgather SMP_NTS 1000 block 0.02046907635742916537
allgather SMP_NTS 1000 cyclic 0.02925313721326425198
allgather SMP_NTS 1000 uneven 0.01760175173736036949
allgather loosely_lr 1000 block 0.01381860432319487013
allgather loosely_lr 1000 cyclic 0.01381978646691399588
allgather loosely_lr 1000 uneven 0.02033707907688262623
allreduce smp_binomial 20000 block 0.04316267149356234345
allreduce smp_binomial 20000 cyclic 0.05949548964218849545
allreduce smp_binomial 20000 uneven 0.04898928978213222540
allreduce smp_binomial_pipeline 20000 block 0.04907160866718207615
allreduce smp_binomial_pipeline 20000 cyclic 0.06715855512668665595
allreduce smp_binomial_pipeline 20000 uneven 0.05548470734525105807
allreduce smp_rdb 20000 block 0.03498790112611874920
allreduce smp_rdb 20000 cyclic 0.05676459794304723749
allreduce smp_rdb 20000 uneven 0.04679383358483110711
allreduce smp_rsag 20000 block 0.03445542260431790765
allreduce smp_rsag 20000 cyclic 0.05633136385584380096
allreduce smp_rsag 20000 uneven 0.03689045020134546632
allreduce smp_rsag_lr 20001 block 0.03445640147294074668
allreduce smp_rsag_lr 20001 cyclic 0.05633221167997139872
allreduce smp_rsag_lr 20001 uneven 0.03689025022502569889
allreduce smp_rsag_rab 20000 block 0.03278019625585558428
allreduce smp_rsag_rab 20000 cyclic 0.05465382646199454936
allreduce smp_rsag_rab 20000 uneven 0.03093639523874116420
bcast SMP_binomial 30000 block 0.03094854201781786773
bcast SMP_binomial 30000 cyclic 0.04314660178592918949
bcast SMP_binomial 30000 uneven 0.02930289915042984597
bcast SMP_linear 30000 block 0.03494411829613841558
bcast SMP_linear 30000 cyclic 0.04035893953608233470
bcast SMP_linear 30000 uneven 0.02930289915042984597
bcast SMP_binary 30000 block 0.05002763727620330308
bcast SMP_binary 30000 cyclic 0.06078006242945178245
bcast SMP_binary 30000 uneven 0.02930289915042984597
bcast mvapich2_knomial_intra_node 30000 block 0.02493200827247666479
bcast mvapich2_knomial_intra_node 30000 cyclic 0.04330505629394136580
bcast mvapich2_knomial_intra_node 30000 uneven 0.02931232074852939753
bcast ompi_split_bintree 300000 block 0.19714519944009348262
bcast ompi_split_bintree 300000 cyclic 0.16082764986266226415
bcast ompi_split_bintree 300000 uneven 0.19209417114233962032
barrier mpich_smp 1 block 0.00969446178836672230
barrier mpich_smp 1 cyclic 0.00969564393208584459
barrier mpich_smp 1 uneven 0.01091081473137262177
EOF

# mvapich2's globals read late: 20 ranks round-robin on the 4 hosts, rank i computing
# (7 i mod 13) x 1e5 flops, then a reduce of 40,000 B to rank 2 (two-level, leaders'
# reduce binomial) and one of 1 B to rank 3 (two-level, knomial). SimGrid's leaders read
# MV2_Reduce_function after their intra-node reduce, when ranks already in the second
# reduce have set it to knomial (its globals are shared): tir/simgrid-compat must give
# SimGrid's 0.01605454438510446266 s (oracle), under the mvapich2 and the impi selector
# (5 ranks a host, a count impi's tables lack: its first table, whose reduce is the
# mvapich2 selector). The default keeps
# each call's own choice, as separate MPI processes would: 0.0160142667471 s.
for i in $(seq 0 19); do echo "node-$((i % 4))"; done >"$tmp/rr20"
awk 'BEGIN { for (i = 0; i < 20; i++) print i " init"
  for (i = 0; i < 20; i++) { print i " compute " ((i * 7) % 13) * 1e5; print i " reduce 10000 0 2 1"; print i " reduce 1 0 3 6" } }' >"$tmp/trace"
for sel in mvapich2 impi; do
  for mode in yes no; do
    want=0.01605454438510446266
    [ $mode = no ] && want=0.0160142667471
    got=$($TIR -q -p "$tmp/p.xml" -H "$tmp/rr20" -n 20 "--cfg=smpi/coll-selector:$sel" --cfg=smpi/send-is-detached-thresh:0 \
      "--cfg=tir/simgrid-compat:$mode" "$tmp/index" 2>&1 | sed -n 's/^Simulated time: \([0-9.e+-]*\) s$/\1/p')
    verdict "reduce late read $sel (compat $mode)" "$got" "$want"
  done
done

# A collective's program read in place (replay/rank.c "Collective runs") with operations
# after it: the same 20 ranks, a reduce and an allreduce whose computations (3e6 and 2e6
# flops) follow their messages, then a bcast, under the impi selector, whose two-level
# reduce builds SMP views (COLL_OP_RESUME) before its computation. SimGrid 3.32 (oracle):
# 0.02568721974767085650 s; tir gives it in both modes.
awk 'BEGIN { for (i = 0; i < 20; i++) print i " init"
  for (i = 0; i < 20; i++) { print i " compute " ((i * 7) % 13) * 1e5; print i " reduce 10000 3e6 2 1"
    print i " allreduce 500 2e6 1"; print i " bcast 30000 0" } }' >"$tmp/trace"
for mode in yes no; do
  got=$($TIR -q -p "$tmp/p.xml" -H "$tmp/rr20" -n 20 --cfg=smpi/coll-selector:impi --cfg=smpi/send-is-detached-thresh:0 \
    "--cfg=tir/simgrid-compat:$mode" "$tmp/index" 2>&1 | sed -n 's/^Simulated time: \([0-9.e+-]*\) s$/\1/p')
  verdict "runs with computations after them, impi (compat $mode)" "$got" 0.02568721974767085650
done
exit $fail
