# test/mpi/setup.sh - shared setup of the tracer's end-to-end tests (sourced).
#
# Gives: $tmp (removed on exit), $flavours (the tracer flavours built: ompi, mpich; limited
# by TIR_TEST_FLAVOURS), use_flavour F (sets $MPICC $MPIFC $MPIRUN $MPIRUN_FLAGS of F's MPI,
# $lib = libtirtrace-F.so, $libdir), $tirtrace (the build tree's tir-trace: it must find
# the libraries built here and pick the flavour of the program by itself), run_np N ARGS
# (mpirun with the flags this MPI needs), compare DIR EXP N (trace lines minus compute
# lines == the lines the program expected), check_flavour DIR (trace.meta names the MPI of
# the current flavour), replay_simgrid DIR N.
# Exit code 77 = skipped (automake), when MPI or a compiler is missing.
set -eu
LC_ALL=C
export LC_ALL
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
here=$top_srcdir/test/mpi
[ -r "$top_builddir/test/mpi/mpi-env.sh" ] || { echo "no test/mpi/mpi-env.sh: run configure"; exit 77; }
. "$top_builddir/test/mpi/mpi-env.sh"
flavours=${TIR_TEST_FLAVOURS:-$TIR_FLAVOURS}
[ -n "$flavours" ] || { echo "SKIP: no tracer flavour built (no MPI)"; exit 77; }
case $top_builddir in /*) ;; *) top_builddir=$(pwd)/$top_builddir ;; esac
tirtrace=$top_builddir/tir-trace
[ -x "$tirtrace" ] || { echo "SKIP: $tirtrace not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tir-mpi-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
asan=
# Open MPI refuses root unless told (CI runs as root); harmless elsewhere
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM

# use_flavour F: the MPI of tracer flavour F for what follows
use_flavour() {
  flavour=$1
  eval "MPICC=\$MPICC_$1 MPIFC=\$MPIFC_$1 MPIRUN=\$MPIRUN_$1 MPIRUN_FLAGS=\$MPIRUN_FLAGS_$1"
  libdir=$top_builddir/.libs
  lib=$libdir/libtirtrace-$1.so
  [ -r "$lib" ] || fail "$lib not built"
  [ -n "$MPICC" ] && [ -n "$MPIRUN" ] || fail "configure found no MPICC/MPIRUN for $1"
  # an ASan build (configure --enable-asan): the sanitizer's runtime must come first in the
  # traced program's libraries, so run_np preloads it (tir-trace keeps it first); the MPI
  # library's own allocations at exit are not the tracer's leaks
  asan=$(ldd "$lib" 2>/dev/null | sed -n 's|.*libasan[^ ]* => \([^ ]*\) .*|\1|p')
  if [ -n "$asan" ]; then
    case ${ASAN_OPTIONS:-} in *detect_leaks=0*) ;; *) ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 ;; esac
    export ASAN_OPTIONS
  fi
  echo "--- flavour $1 ($MPICC, $MPIRUN)"
}

# check_flavour DIR: the trace was taken under the MPI of the current flavour
check_flavour() {
  case $flavour:$(meta "$1" mpi_library) in
    ompi:"Open MPI"*|mpich:*MPICH*|mpich:*Intel*|mpich:*MVAPICH*) ;;
    *) fail "$1: trace.meta's mpi_library '$(meta "$1" mpi_library)' is not $flavour's" ;;
  esac
}

fail() { echo "FAIL: $*" >&2; exit 1; }

# run_np N ARGS...: N ranks of ARGS
run_np() {
  n=$1; shift
  # shellcheck disable=SC2086
  timeout 300 "$MPIRUN" $MPIRUN_FLAGS -np "$n" ${asan:+env LD_PRELOAD="$asan${LD_PRELOAD:+:$LD_PRELOAD}"} "$@"
}

# rank_lines DIR R: the lines of rank R's trace, compute lines removed, blanks squeezed
rank_lines() {
  f=$(ls "$1"/rank-$(printf %05d "$2").tit* 2>/dev/null | head -n 1)
  [ -n "$f" ] || fail "no trace file for rank $2 in $1"
  gzip -dcf "$f" | grep -v '^[0-9]* compute ' | tr -s ' ' | sed 's/ $//'
}

# compare DIR EXPECTED_DIR N: every rank's lines are the expected ones
compare() {
  for r in $(seq 0 $(($3 - 1))); do
    rank_lines "$1" "$r" >"$tmp/got-$r.txt"
    diff "$tmp/got-$r.txt" "$2/expected-$r.txt" >"$tmp/diff-$r.txt" ||
      { head -n 40 "$tmp/diff-$r.txt"; fail "rank $r: trace differs from what the program did (< trace, > expected)"; }
  done
  echo "ok: $3 ranks, $(cat "$2"/expected-*.txt | wc -l) lines as expected"
}

# meta DIR KEY: the value of KEY in DIR/trace.meta
meta() { sed -n "s/^$2 = //p" "$1/trace.meta"; }

# replay_tir DIR: tir-replay replays the trace (tir's format: gzip, communicators,
# non-blocking collectives, probes, regions) on the 4-node test cluster
replay_tir() {
  tir=$top_builddir/replay/tir-replay
  [ -x "$tir" ] || fail "no $tir"
  out=$("$tir" -q -p "$here/cluster4.xml" -H "$here/hostfile4" "$1/index" 2>&1) ||
    { echo "$out"; fail "tir-replay could not replay $1"; }
  echo "ok: tir-replay replays it: $out"
}

# replay_simgrid DIR N: SimGrid 3.32 replays the (plain, SimGrid-compatible) trace
replay_simgrid() {
  oracle=$top_srcdir/test/simgrid-oracle
  if [ -z "$SMPIRUN" ] || [ ! -x "$oracle" ]; then
    echo "note: SimGrid 3.32 or $oracle missing: SimGrid replay not checked"
    return 0
  fi
  out=$(cd "$1" && "$oracle" --platform "$here/cluster4.xml" --hostfile "$here/hostfile4" --np "$2" index) ||
    fail "SimGrid could not replay $1"
  echo "ok: SimGrid 3.32 replays it: $out"
  echo "$out" | grep -q '^Simulated time: [0-9]' || fail "no simulated time from SimGrid"
}
