#!/bin/sh
# calls_f.sh - the same for test/mpi/calls_f.F90 (Fortran bindings, mpif.h): once linked with
# -ltirtrace (regions named from Fortran), once unmodified under tir-trace (LD_PRELOAD only).
. "${top_srcdir:-.}/test/mpi/setup.sh"
[ -n "$MPIFC" ] || { echo "SKIP: no MPI Fortran compiler"; exit 77; }
libdir=$(dirname "$lib")
FFLAGS="-O1 -w -J$tmp"  # -J: the module file (expect.mod) goes to the temporary folder
"$MPIFC" -fallow-argument-mismatch -o "$tmp/t.o" -c /dev/null -x f95 >/dev/null 2>&1 && FFLAGS="$FFLAGS -fallow-argument-mismatch"
"$MPIFC" $FFLAGS -o "$tmp/calls_f" "$here/calls_f.F90" -L"$libdir" -Wl,-rpath,"$libdir" -ltirtrace ||
  fail "cannot compile calls_f.F90 with -ltirtrace"
"$MPIFC" $FFLAGS -DNO_TIR_REGIONS -o "$tmp/calls_fp" "$here/calls_f.F90" || fail "cannot compile calls_f.F90"

mkdir "$tmp/e1" "$tmp/e2" "$tmp/e3"
# (an ASan build: the sanitizer's runtime preloaded, as setup.sh does for tir-trace)
TIR_TRACE_DIR=$tmp/t1 run_np 4 env ${asan:+LD_PRELOAD="$asan"} TIR_TRACE_DIR="$tmp/t1" "$tmp/calls_f" "$tmp/e1" >"$tmp/log1" 2>&1 ||
  { cat "$tmp/log1"; fail "run linked with -ltirtrace failed"; }
compare "$tmp/t1" "$tmp/e1" 4
run_np 4 "$tirtrace" -o "$tmp/t2" -- "$tmp/calls_fp" "$tmp/e2" >"$tmp/log2" 2>&1 ||
  { cat "$tmp/log2"; fail "preloaded run failed"; }
compare "$tmp/t2" "$tmp/e2" 4
replay_tir "$tmp/t1"
replay_tir "$tmp/t2"
TIR_SIMGRID=1 run_np 4 "$tirtrace" -o "$tmp/t3" --simgrid-compatible --no-compress -- "$tmp/calls_fp" "$tmp/e3" \
  >"$tmp/log3" 2>&1 || { cat "$tmp/log3"; fail "preloaded run (--simgrid-compatible) failed"; }
compare "$tmp/t3" "$tmp/e3" 4
replay_simgrid "$tmp/t3" 4
