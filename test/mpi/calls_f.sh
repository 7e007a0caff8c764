#!/bin/sh
# calls_f.sh - the same for test/mpi/calls_f.F90 through the Fortran bindings of mpif.h, with
# each tracer flavour: once linked with -ltirtrace-FLAVOUR (regions named from Fortran),
# once unmodified under tir-trace (LD_PRELOAD only, as for NAS-like codes), once in
# --simgrid-compatible mode (replayed by SimGrid 3.32).
# (calls_f08.sh does `use mpi` and `use mpi_f08`.)
. "${top_srcdir:-.}/test/mpi/setup.sh"
. "$here/fortran.sh"

calls_f() {
  use_flavour "$1"
  [ -n "$MPIFC" ] || { echo "note: no $1 Fortran compiler: skipped"; return 0; }
  d=$tmp/$1
  mkdir -p "$d/e1" "$d/e2" "$d/e3"
  fortran "$d/calls_f" -L"$libdir" -Wl,-rpath,"$libdir" -ltirtrace-"$1"
  fortran "$d/calls_fp" -DNO_TIR_REGIONS
  run_np 4 env TIR_TRACE_DIR="$d/t1" "$d/calls_f" "$d/e1" >"$d/log1" 2>&1 ||
    { cat "$d/log1"; fail "run linked with -ltirtrace-$1 failed"; }
  compare "$d/t1" "$d/e1" 4
  check_flavour "$d/t1"
  run_np 4 "$tirtrace" -o "$d/t2" -- "$d/calls_fp" "$d/e2" >"$d/log2" 2>&1 ||
    { cat "$d/log2"; fail "preloaded run failed"; }
  compare "$d/t2" "$d/e2" 4
  check_flavour "$d/t2"
  replay_tir "$d/t1"
  replay_tir "$d/t2"
  TIR_SIMGRID=1 run_np 4 "$tirtrace" -o "$d/t3" --simgrid-compatible --no-compress -- "$d/calls_fp" "$d/e3" \
    >"$d/log3" 2>&1 || { cat "$d/log3"; fail "preloaded run (--simgrid-compatible) failed"; }
  compare "$d/t3" "$d/e3" 4
  replay_simgrid "$d/t3" 4
}

for f in $flavours; do calls_f "$f"; done
