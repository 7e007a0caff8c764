#!/bin/sh
# calls.sh - trace test/mpi/calls.c (every traced call, C bindings) under mpirun; the trace
# must hold exactly the lines the program expects, in tir mode (gzip) and in
# --simgrid-compatible mode (plain), and SimGrid 3.32 must replay the latter.
. "${top_srcdir:-.}/test/mpi/setup.sh"
"$MPICC" -O1 -I"$top_srcdir/tracer" -o "$tmp/calls" "$here/calls.c" || fail "cannot compile calls.c"

mkdir "$tmp/e1" "$tmp/e2"
run_np 4 "$tirtrace" -o "$tmp/t1" -- "$tmp/calls" "$tmp/e1" >"$tmp/log1" 2>&1 || { cat "$tmp/log1"; fail "traced run failed"; }
compare "$tmp/t1" "$tmp/e1" 4
[ "$(meta "$tmp/t1" status)" = complete ] || fail "trace.meta: status not complete"
[ "$(meta "$tmp/t1" np)" = 4 ] || fail "trace.meta: np != 4"
[ "$(meta "$tmp/t1" unexpressed.MPI_Alltoallw)" = 4 ] || fail "MPI_Alltoallw not counted as unexpressed"
grep -q 'MPI_Alltoallw x4' "$tmp/log1" || fail "the unexpressed calls are not reported at finalize"
[ "$(cat "$tmp/t1/index")" = "$(printf 'rank-%05d.tit.gz\n' 0 1 2 3)" ] || fail "bad index"
replay_tir "$tmp/t1"

TIR_SIMGRID=1 run_np 4 "$tirtrace" -o "$tmp/t2" --simgrid-compatible --no-compress -- "$tmp/calls" "$tmp/e2" \
  >"$tmp/log2" 2>&1 || { cat "$tmp/log2"; fail "traced run (--simgrid-compatible) failed"; }
compare "$tmp/t2" "$tmp/e2" 4
[ "$(meta "$tmp/t2" simgrid_compatible)" = yes ] || fail "trace.meta: simgrid_compatible"
replay_simgrid "$tmp/t2" 4
