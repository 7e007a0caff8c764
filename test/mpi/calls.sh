#!/bin/sh
# calls.sh - trace test/mpi/calls.c (every traced call, C bindings) under mpirun, with each
# tracer flavour built (Open MPI, MPICH) and the build tree's tir-trace, which must pick the
# flavour of the program by itself; the trace must hold exactly the lines the program
# expects, in tir mode (gzip) and in --simgrid-compatible mode (plain), and SimGrid 3.32
# must replay the latter. Then the other flavour, forced, must stop the program at
# MPI_Init with one message and no trace (a PMPI tracer of the wrong ABI would crash it).
. "${top_srcdir:-.}/test/mpi/setup.sh"

calls() {
  use_flavour "$1"
  d=$tmp/$1
  mkdir -p "$d/e1" "$d/e2"
  # (MPICH's headers make gcc warn about MPI_STATUSES_IGNORE: kept out of the log)
  "$MPICC" -O1 -I"$top_srcdir/tracer" -o "$d/calls" "$here/calls.c" 2>"$d/cc.log" ||
    { cat "$d/cc.log"; fail "cannot compile calls.c"; }
  run_np 4 "$tirtrace" -o "$d/t1" -- "$d/calls" "$d/e1" >"$d/log1" 2>&1 || { cat "$d/log1"; fail "traced run failed"; }
  compare "$d/t1" "$d/e1" 4
  check_flavour "$d/t1"
  [ "$(meta "$d/t1" status)" = complete ] || fail "trace.meta: status not complete"
  [ "$(meta "$d/t1" ranks_finished)" = 4 ] || fail "trace.meta: ranks_finished != 4"
  [ "$(meta "$d/t1" np)" = 4 ] || fail "trace.meta: np != 4"
  [ "$(meta "$d/t1" unexpressed.MPI_Alltoallw)" = 4 ] || fail "MPI_Alltoallw not counted as unexpressed"
  grep -q 'MPI_Alltoallw x4' "$d/log1" || fail "the unexpressed calls are not reported at finalize"
  [ "$(cat "$d/t1/index")" = "$(printf 'rank-%05d.tit.gz\n' 0 1 2 3)" ] || fail "bad index"
  replay_tir "$d/t1"

  TIR_SIMGRID=1 run_np 4 "$tirtrace" -o "$d/t2" --simgrid-compatible --no-compress -- "$d/calls" "$d/e2" \
    >"$d/log2" 2>&1 || { cat "$d/log2"; fail "traced run (--simgrid-compatible) failed"; }
  compare "$d/t2" "$d/e2" 4
  [ "$(meta "$d/t2" simgrid_compatible)" = yes ] || fail "trace.meta: simgrid_compatible"
  replay_simgrid "$d/t2" 4
}

# mismatch F OTHER: a program of F's MPI under OTHER's tracer
mismatch() {
  use_flavour "$1"
  d=$tmp/$1
  run_np 2 "$tirtrace" --mpi "$2" -o "$d/t3" -- "$d/calls" "$d/e3" >"$d/log3" 2>&1 &&
    fail "--mpi $2 on a $1 program: the job should have stopped"
  [ ! -e "$d/t3" ] || fail "--mpi $2 on a $1 program: a trace directory was made"
  n=$(grep -c 'libtirtrace: this program runs with the .* library .*, but this is the .* tracer' "$d/log3") || :
  [ "$n" = 1 ] || { cat "$d/log3"; fail "--mpi $2 on a $1 program: $n messages, not one"; }
  ! grep -q -i 'segmentation\|signal 11' "$d/log3" || { cat "$d/log3"; fail "--mpi $2 on a $1 program crashed"; }
  echo "ok: a $1 program under the $2 tracer stops at MPI_Init: $(grep libtirtrace: "$d/log3" | cut -c1-150)..."
}

for f in $flavours; do calls "$f"; done
case " $flavours " in *" ompi "*) case " $flavours " in *" mpich "*) both=1 ;; esac ;; esac
if [ -n "${both:-}" ]; then
  mismatch ompi mpich
  mismatch mpich ompi
else
  echo "note: one flavour built: the ABI check is not tested"
fi
