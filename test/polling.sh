#!/bin/sh
# polling.sh - polling loops (tir/polling, replay/rank.c "Polling runs"): the replay time of
# an MPI_Iprobe loop and of an MPI_Test loop does not depend on how many failed polls the
# traced run recorded (by default), while --cfg=tir/polling:simgrid charges each poll as
# SMPI does. By hand, ranks 0 and 1 on node-0 and node-1 of test/mpi/cluster4.xml (1 Gf/s,
# L = 11 us, 1.25 GBps; one message at a time, so T(1000) = L lat(1016) + 1016 / (bw(1016)
# 1.25e9) with the hybrid model's factors 1.9503 and 0.341987):
#  iprobe: rank 0 computes 1e6 flops (1 ms), then sends 1000 B with tag 7; rank 1 polls
#    MPI_Iprobe(ANY, ANY) K times with 1000 flops between polls, then a successful iprobe
#    and the receive. Default: rank 1 waits for the message (posted at 1 ms), then its one
#    successful iprobe costs smpi/iprobe = 1e-4 s of CPU, then the transfer:
#    1 ms + 0.1 ms + T(1000), whatever K. tir/polling:simgrid: the i-th failed poll costs
#    i x 1e-4 s (smpi/grow-injected-times), the computes K x 1 us, the successful one
#    (K + 1) x 1e-4 s, then the transfer starts at max(its end, 1 ms).
#  test: rank 1 posts an irecv, tests it K times (tir-trace's failed polls, FLAG 0) with 1000
#    flops between, then the test that completes it (FLAG 1); rank 0 computes 1 ms and sends.
#    Default: the completing test waits for the transfer: 1 ms + T(1000), whatever K.
#  a run that no message ends (here a barrier follows two failed iprobes and 1000 flops):
#    its polls cost nothing, its computes stay: rank 1 enters the barrier at 1 us (with
#    tir/polling:simgrid at 1e-4 + 1e-6 + 2e-4 s), then the 2-rank barrier: its 0-byte
#    message to rank 0, rank 0's answer, 2 T(0) with T(0) = L 2.01467 + 16 / (0.812084 B).
. "$(dirname "$0")/setup.sh"
cd "$tmp"
PLAT="$top_srcdir/test/mpi/cluster4.xml"
printf 'node-0\nnode-1\n' > hf

# iprobe_trace K, test_trace K: the traces above with K failed polls
iprobe_trace() {
  printf '0 init\n1 init\n0 compute 1e6\n0 send 1 7 1000\n'
  i=0
  while [ "$i" -lt "$1" ]; do printf '1 iprobe -555 -444 0\n1 compute 1000\n'; i=$((i + 1)); done
  printf '1 iprobe 0 7 1\n1 recv 0 7 1000\n'
}
test_trace() {
  printf '0 init\n1 init\n1 irecv 0 5 1000\n0 compute 1e6\n0 send 1 5 1000\n'
  i=0
  while [ "$i" -lt "$1" ]; do printf '1 test 0 1 5 0\n1 compute 1000\n'; i=$((i + 1)); done
  printf '1 test 0 1 5 1\n'
}

# sim TRACE [CFG]: the simulated time
sim() {
  $TIR -q -p "$PLAT" -H hf ${2:+--cfg=$2} "$1" | sed -n 's/^Simulated time: \([^ ]*\) s$/\1/p'
}

bad=0
# check WHAT GOT WANT: at 1e-9 relative
check() {
  if near "$2" "$3"; then
    echo "ok: $1: $2 s (by hand $3)"
  else
    echo "FAIL: $1: $2 s, by hand $3"
    bad=1
  fi
}

t1000=$(awk 'BEGIN { printf "%.17g", 11e-6 * 1.9503 + 1016 / (0.341987 * 1.25e9) }')
for k in 0 3 200; do
  iprobe_trace "$k" > ip$k.txt
  test_trace "$k" > te$k.txt
  check "iprobe loop, $k failed polls recorded" "$(sim ip$k.txt)" "$(awk -v t="$t1000" 'BEGIN { printf "%.17g", 1.1e-3 + t }')"
  check "test loop, $k failed polls recorded" "$(sim te$k.txt)" "$(awk -v t="$t1000" 'BEGIN { printf "%.17g", 1e-3 + t }')"
  want=$(awk -v k="$k" -v t="$t1000" 'BEGIN { e = k * (k + 1) / 2 * 1e-4 + k * 1e-6 + (k + 1) * 1e-4
    printf "%.17g", (e > 1e-3 ? e : 1e-3) + t }')
  check "iprobe loop, $k failed polls, tir/polling:simgrid" "$(sim ip$k.txt tir/polling:simgrid)" "$want"
done
# a run that no message ends: free polls, its computes kept
printf '0 init\n1 init\n1 iprobe 0 3 0\n1 compute 1000\n1 iprobe 0 3 0\n0 barrier\n1 barrier\n' > broken.txt
t0=$(awk 'BEGIN { printf "%.17g", 11e-6 * 2.01467 + 16 / (0.812084 * 1.25e9) }')
check "failed polls no message ends" "$(sim broken.txt)" "$(awk -v t="$t0" 'BEGIN { printf "%.17g", 1e-6 + 2 * t }')"
check "failed polls no message ends, tir/polling:simgrid" "$(sim broken.txt tir/polling:simgrid)" \
  "$(awk -v t="$t0" 'BEGIN { printf "%.17g", 3.01e-4 + 2 * t }')"
$TIR -q -p "$PLAT" -H hf --cfg=tir/polling:maybe broken.txt > out 2>&1 && { echo "FAIL: tir/polling:maybe accepted"; bad=1; }
grep -q "tir/polling: 'maybe' is not wait or simgrid" out || { cat out; bad=1; }
exit $bad
