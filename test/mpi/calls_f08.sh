#!/bin/sh
# calls_f08.sh - test/mpi/calls_f.F90 through the `use mpi` and `use mpi_f08` bindings, with
# each tracer flavour: `use mpi` unmodified under tir-trace; `use mpi_f08` linked with
# -ltirtrace-FLAVOUR (regions named from Fortran) and unmodified under tir-trace. The f08
# bindings are other symbols (Open MPI: mpi_send_f08_, calling PMPI_Send; MPICH: mpi_wait_f08_
# calling PMPI_Wait, and mpi_send_f08ts_ calling the C MPI_Send): a tracer that misses them
# writes no trace at all, which compare catches.
. "${top_srcdir:-.}/test/mpi/setup.sh"
. "$here/fortran.sh"

calls_f08() {
  use_flavour "$1"
  [ -n "$MPIFC" ] || { echo "note: no $1 Fortran compiler: skipped"; return 0; }
  d=$tmp/$1
  mkdir -p "$d/e1" "$d/e2" "$d/e3"
  fortran "$d/calls_mod" -DNO_TIR_REGIONS -DUSE_MPI_MODULE
  fortran "$d/calls_f08" -DUSE_MPI_F08 -L"$libdir" -Wl,-rpath,"$libdir" -ltirtrace-"$1"
  fortran "$d/calls_f08p" -DNO_TIR_REGIONS -DUSE_MPI_F08
  run_np 4 "$tirtrace" -o "$d/t1" -- "$d/calls_mod" "$d/e1" >"$d/log1" 2>&1 ||
    { cat "$d/log1"; fail "use mpi: preloaded run failed"; }
  compare "$d/t1" "$d/e1" 4
  run_np 4 env TIR_TRACE_DIR="$d/t2" "$d/calls_f08" "$d/e2" >"$d/log2" 2>&1 ||
    { cat "$d/log2"; fail "use mpi_f08: run linked with -ltirtrace-$1 failed"; }
  compare "$d/t2" "$d/e2" 4
  check_flavour "$d/t2"
  run_np 4 "$tirtrace" -o "$d/t3" -- "$d/calls_f08p" "$d/e3" >"$d/log3" 2>&1 ||
    { cat "$d/log3"; fail "use mpi_f08: preloaded run failed"; }
  compare "$d/t3" "$d/e3" 4
  check_flavour "$d/t3"
  replay_tir "$d/t3"
}

for f in $flavours; do calls_f08 "$f"; done
