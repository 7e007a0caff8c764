#!/bin/sh
# calibrate_bench.sh - tir-calibrate bench on this machine (2 ranks), under each MPI the
# tracer is built for (Open MPI, MPICH; tir-calibrate picks the benchmark of its mpirun):
# pingpong.csv has the header and one row per measurement (4 ops x 81 sizes x 3 reps), every
# duration positive, a 1 MiB round trip slower than a 1 B one, a rendez-vous send slower
# than an eager one; DIR/meta says the library, the hosts and the settings; fit reads it and
# sees the shared node (loopback). Bad arguments exit 2, an output that cannot be a
# directory exits 4. The values themselves depend on the machine: doc/calibration.md.
. "$(dirname "$0")/setup.sh"
CAL="$top_builddir/tir-calibrate"
[ -x "$CAL" ] || skip "$CAL not built"
[ -r "$top_builddir/test/mpi/mpi-env.sh" ] || skip "no test/mpi/mpi-env.sh: run configure"
. "$top_builddir/test/mpi/mpi-env.sh"
[ -n "$TIR_FLAVOURS" ] || skip "tir-calibrate-bench not built (no MPI)"
export TIR_PLATFORM="$top_srcdir/scripts/tir-platform"
# an ASan build (configure --enable-asan): the MPI library's own allocations at exit are not
# the benchmark's leaks (they would turn every exit status into 1)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM
fail=0
bad() { echo "FAIL: $*"; fail=1; }
run2() { # shellcheck disable=SC2086
  timeout 300 "$MPIRUN" $MPIRUN_FLAGS -np "$@"
}
bench_flavour() {
f=$1
eval "MPIRUN=\$MPIRUN_$f MPIRUN_FLAGS=\$MPIRUN_FLAGS_$f"
BENCH=$top_builddir/calibrate/tir-calibrate-bench-$f
echo "--- $f ($MPIRUN)"
mkdir -p "$tmp/$f" && cd "$tmp/$f"
run2 2 "$CAL" bench -o m --max-size 1048576 --per-octave 1 --reps 3 >bench.out 2>&1 || { cat bench.out; bad "bench exited $?"; }
n=$("$CAL" sizes --max-size 1048576 --per-octave 1 | wc -l)
python3 - "$n" <<'PY' || fail=1
import sys
n = int(sys.argv[1])
lines = open("m/pingpong.csv").read().splitlines()
rows = [l.split(",") for l in lines[1:]]
meta = dict(l.split(" = ", 1) for l in open("m/meta").read().splitlines())
# the fastest of the repetitions: on a loaded machine a busy-polling MPI (MPICH) can lose a
# scheduler quantum in any one of them, and a median of 3 then compares noise
best = lambda op, k: min(float(r[2]) for r in rows if r[0] == op and r[1] == str(k))
checks = [
    (lines[0] == "op,bytes,seconds", f"header {lines[0]!r}"),
    (len(rows) == 4 * n * 3, f"{len(rows)} rows, expected {4 * n * 3}"),
    (all(float(r[2]) > 0 for r in rows), "a duration is not positive"),
    (all(sum(r[0] == op for r in rows) == 3 * n for op in ("send", "recv", "isend", "pingpong")), "rows per op"),
    (best("pingpong", 1048576) > 2 * best("pingpong", 1), "a 1 MiB round trip is not slower than a 1 B one"),
    (best("send", 1048576) > 2 * best("send", 1), "a 1 MiB send is not slower than a 1 B one"),
    (meta.get("reps") == "3" and meta.get("sizes") == str(n) and meta.get("measurements") == str(12 * n), f"meta {meta}"),
    (meta.get("mpi_library", "") != "" and meta.get("same_host") in ("yes", "no"), f"meta {meta}"),
]
for ok, what in checks:
    if not ok:
        print("FAIL:", what)
sys.exit(not all(ok for ok, _ in checks))
PY
"$CAL" fit m -o m.xml --nodes 2 >fit.out 2>&1 || { cat fit.out; bad "fit of the machine's measurements exited $?"; }
if grep -q "same_host = yes" m/meta; then
  grep -q 'loopback_bw=' m.xml || bad "both ranks on one node, but no loopback in m.xml"
fi
printf '0 init\n0 send 1 0 1000\n0 finalize\n1 init\n1 recv 0 0 1000\n1 finalize\n' >t.txt
"$TIR" -q -p m.xml -n 2 t.txt >/dev/null || bad "tir-replay cannot load m.xml"
set +e
run2 3 "$BENCH" -o x --sizes 1 >o3.txt 2>&1
rc3=$?
run2 2 "$BENCH" -o x --sizes 1,x >ob.txt 2>&1
rcb=$?
touch afile
run2 2 "$CAL" bench -o afile --sizes 1 --reps 1 >of.txt 2>&1
rcf=$?
set -e
[ $rc3 = 2 ] && grep -q "needs exactly 2 ranks (mpirun -np 2), not 3" o3.txt || bad "3 ranks: exit $rc3: $(head -2 o3.txt)"
[ $rcb = 2 ] && grep -q "\-\-sizes: expected a comma list" ob.txt || bad "bad --sizes: exit $rcb: $(head -2 ob.txt)"
[ $rcf = 4 ] && grep -q "afile: cannot create the directory: not a directory" of.txt || bad "output is a file: exit $rcf"
[ $fail = 0 ] && echo "ok: $f: tir-calibrate bench measured $(($(wc -l <m/pingpong.csv) - 1)) durations; $(sed -n 2p fit.out)"
grep -q "mpi_library = .*$([ "$f" = ompi ] && echo 'Open MPI' || echo MPICH)" m/meta || bad "$f: meta names another MPI"
}
for f in $TIR_FLAVOURS; do
  bench_flavour "$f"
done
exit $fail
