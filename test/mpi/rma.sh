#!/bin/sh
# rma.sh - trace test/mpi/rma.c (one-sided communication: fence, lock, lock_all and PSCW
# epochs, every RMA call) under mpirun: the trace must hold the lines the program expects,
# in tir mode (gzip; no call left unexpressed) and in --simgrid-compatible mode (RMA lines as
# comments, each call counted as unexpressed; SimGrid 3.32 replays the rest). Then the tir
# trace is replayed and the dates of the pair windows' synchronisations are checked by hand,
# as test/rma.sh does: computations off (smpi/simulate-computation:no: the measured bursts
# vary), network/crosstraffic:no, rank i on node-i of cluster4.xml (L = 11 us, 1.25 GBps),
# each pair on its own nodes (the backbone, 10 GBps, never limits two 1.25 GBps flows).
# test/mpi/rma_f.F90 checks the Fortran bindings' lines.
. "${top_srcdir:-.}/test/mpi/setup.sh"
# under each tracer flavour built (Open MPI, MPICH)
root=$tmp
for f in $flavours; do
use_flavour "$f"
tmp=$root/$f
mkdir -p "$tmp"
# Open MPI 4.1's osc/rdma fails now and then in MPI_Win_create here ("A system call failed
# during shared memory initialization", open(2): ENOENT) when both pairs create their window
# at once; its pt2pt component does not (sm for the shared window). MPICH ignores this.
OMPI_MCA_osc=pt2pt,sm
export OMPI_MCA_osc
"$MPICC" -O1 -o "$tmp/rma" "$here/rma.c" || fail "cannot compile rma.c"

mkdir "$tmp/e1" "$tmp/e2"
run_np 4 "$tirtrace" -o "$tmp/t1" -- "$tmp/rma" "$tmp/e1" >"$tmp/log1" 2>&1 || { cat "$tmp/log1"; fail "traced run failed"; }
compare "$tmp/t1" "$tmp/e1" 4
[ "$(meta "$tmp/t1" unexpressed)" = 0 ] || fail "unexpressed calls in tir mode: $(grep unexpressed "$tmp/t1/trace.meta")"
[ "$(meta "$tmp/t1" calls.MPI_Win_attach)" = 4 ] || fail "MPI_Win_attach not counted"
replay_tir "$tmp/t1"

TIR_SIMGRID=1 run_np 4 "$tirtrace" -o "$tmp/t2" --simgrid-compatible --no-compress -- "$tmp/rma" "$tmp/e2" \
  >"$tmp/log2" 2>&1 || { cat "$tmp/log2"; fail "traced run (--simgrid-compatible) failed"; }
compare "$tmp/t2" "$tmp/e2" 4
# every RMA call that wrote a line (a comment), and the successful MPI_Win_test, counts
n=$(cat "$tmp/e2"/expected-*.txt | grep -c '^# ')
[ "$(meta "$tmp/t2" unexpressed)" = "$n" ] || fail "--simgrid-compatible: unexpressed $(meta "$tmp/t2" unexpressed), expected $n"
grep -q "MPI_Put x" "$tmp/log2" || fail "the RMA calls are not reported at finalize"
replay_simgrid "$tmp/t2" 4

# the Fortran bindings (mpif.h), preloaded as for an unmodified program
if [ -n "$MPIFC" ]; then
  "$MPIFC" -O1 -w -o "$tmp/rma_f" "$here/rma_f.F90" || fail "cannot compile rma_f.F90"
  run_np 4 "$tirtrace" -o "$tmp/tf" -- "$tmp/rma_f" >"$tmp/logf" 2>&1 || { cat "$tmp/logf"; fail "Fortran run failed"; }
  mkdir "$tmp/ef"
  for r in 0 1 2 3; do
    n=$(((r + 1) % 4))
    printf '%s\n' "$r init" "$r win_create 1 0 800" "$r win_fence 1" "$r put 1 $n 64" "$r win_fence 1" \
      "$r win_lock 1 $n 1" "$r get 1 $n 16" "$r win_unlock 1 $n" "$r win_lock 1 $n 0" "$r accumulate 1 $n 8" \
      "$r win_unlock 1 $n" "$r win_free 1" "$r finalize" >"$tmp/ef/expected-$r.txt"
  done
  compare "$tmp/tf" "$tmp/ef" 4
  [ "$(meta "$tmp/tf" unexpressed)" = 0 ] || fail "Fortran: unexpressed calls: $(grep unexpressed "$tmp/tf/trace.meta")"
  replay_tir "$tmp/tf"
fi

tir=$top_builddir/replay/tir-replay
"$tir" -q --cfg=smpi/simulate-computation:no --cfg=network/crosstraffic:no -p "$here/cluster4.xml" \
  -H "$here/hostfile4" --timeline "$tmp/tl.csv" "$tmp/t1/index" >"$tmp/replay.out" 2>&1 ||
  { cat "$tmp/replay.out"; fail "tir-replay failed"; }
python3 - "$tmp/tl.csv" <<'PY' || fail "replayed dates differ from the hand derivation"
import sys
L, B = 11e-6, 1.25e9
LAT = [(257, 2.01467), (732, 1.95341), (1426, 1.9503), (3484, 1.61075), (5776, 1.88101), (9376, 2.18796),
       (15424, 2.59299), (65472, 3.48845)]
BW = [(257, 0.812084), (732, 0.338112), (1426, 0.341987), (3484, 0.608902), (5776, 0.77493), (9376, 1.08739),
      (15424, 0.58729), (65472, 0.697866)]
def f(table, last, s):
    return next((v for limit, v in table if s <= limit), last)
def T(n):  # an isolated transfer of n bytes (+ 16): latency x lat-factor + size / (bw-factor x B)
    s = n + 16
    return L * f(LAT, 11.6436, s) + s / (f(BW, 0.940694, s) * B)
ends = {}
for row in open(sys.argv[1]):
    v = row.split(",")
    if v[0] == "state":
        ends.setdefault((int(v[1]), v[5]), []).append(float(v[4]))
t16 = T(0)
# create: a barrier (a out at t16, b at 2 t16); fence 1 (a at 3 t16, b at 4 t16); a's put and
# get start at 3 t16, its second fence waits for both, then the barrier's 1 -> 0 message
s = max(3 * t16 + max(T(100000), T(0) + T(1000)), 4 * t16)
fence_a, fence_b = s + t16, s + 2 * t16
# locks of b's part: a first (it leaves the fence first), b's waits for a's unlock
unlock_a = fence_a + T(10000)
unlock_b = unlock_a + T(10000)
# lock_all: a's needs b's part, held by b until unlock_b; then a's operations, one at a time
t = unlock_b + 2 * T(8)          # get_accumulate, then flush
t_fop = t + T(0) + T(8)          # fetch_and_op (MPI_NO_OP: only the envelope goes), flush_local
t_cas = t_fop + T(16) + T(8)     # compare_and_swap, win_sync, flush_all
t_wall = t_cas + T(0) + T(2000)  # rput and rget together (rget: request, then 2000 B back)
# PSCW: b posts at unlock_b (its lock_all and unlock_all wait for nothing), a starts at t_wall
start_a = t_wall + t16
complete_a = start_a + T(5000)
wait_b = complete_a + t16
want = {(0, "win_fence"): fence_a, (1, "win_fence"): fence_b, (0, "win_unlock"): unlock_a,
        (1, "win_unlock"): unlock_b, (0, "win_flush"): t, (0, "win_flush_local"): t_fop,
        (0, "win_flush_all"): t_cas, (0, "waitall"): t_wall, (0, "win_start"): start_a,
        (0, "win_complete"): complete_a, (1, "win_wait"): wait_b}
bad = 0
for (rank, what), w in sorted(want.items()):
    for r in (rank, rank + 2):  # the two pairs run the same script on their own nodes
        i = 1 if what == "win_fence" else 0  # the second fence of the pair window
        got = ends[(r, what)][i]
        ok = abs(got - w) <= 1e-9 * w
        bad += not ok
        print("%s: rank %d %s ends at %.12g s (by hand %.12g)" % ("ok" if ok else "FAIL", r, what, got, w))
sys.exit(bad > 0)
PY
done
tmp=$root
