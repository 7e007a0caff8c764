# test/mpi/fortran.sh - fortran OUT [FLAGS...]: compile test/mpi/calls_f.F90 to OUT with the
# current flavour's $MPIFC (sourced by calls_f.sh and calls_f08.sh after setup.sh).
fortran() {
  out=$1; shift
  mkdir -p "$out.mod"
  # -J: the module file (expect.mod) goes beside OUT; argument checks off for mpif.h
  set -- -O1 -w -J"$out.mod" "$@"
  "$MPIFC" -fallow-argument-mismatch -o "$out.mod/t.o" -c /dev/null -x f95 >/dev/null 2>&1 &&
    set -- -fallow-argument-mismatch "$@"
  "$MPIFC" -o "$out" "$here/calls_f.F90" "$@" || fail "cannot compile calls_f.F90 ($*)"
}
