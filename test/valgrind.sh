#!/bin/sh
# valgrind.sh - no leak and no memory error under valgrind memcheck: the unit tests (Check,
# without fork) and tir-replay on reference cases covering every part (collectives, energy,
# timelines, report, communicators, errors). Skipped when valgrind is not installed.
. "$(dirname "$0")/setup.sh"
command -v valgrind >/dev/null || skip "valgrind is not installed"
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"
pass=0 fail=0
run() {
  if $vg "$@" > "$tmp/out" 2> "$tmp/err"; then rc=0; else rc=$?; fi
  if [ "$rc" = 99 ] || grep -q "definitely lost\|Invalid \(read\|write\)\|uninitialised" "$tmp/err"; then
    fail=$((fail + 1)); echo "FAIL (valgrind): $*"; head -n 30 "$tmp/err"
  else pass=$((pass + 1)); echo "ok    $*"; fi
}
for t in "$top_builddir"/test/check_*; do
  [ -x "$t" ] && [ "${t%.c}" = "$t" ] && [ "${t%.o}" = "$t" ] && [ "${t%.log}" = "$t" ] && [ "${t%.trs}" = "$t" ] || continue
  CK_FORK=no run "$t"
done
T="$top_builddir/replay/tir-replay"
cd "$REF"
run "$T" -q -p small_platform.xml -H hostfile -n 3 index/bcast
run "$T" -q -p small_platform.xml -H ti_colls/hostfile_coll -n 4 --cfg=smpi/simulate-computation:false ti_colls/trace1
run "$T" -q -p energy/energy_platform.xml -H energy/hostfile -n 2 --energy --report "$tmp/r.json" --power-trace "$tmp/p.csv" index/energy
run "$T" -q -p stencil_16_20/platform.xml -H stencil_16_20/hostfile --timeline "$tmp/t.paje" --cfg=smpi/coll-selector:ompi stencil_16_20/index.txt
run "$T" -q -p stencil_16_20/platform.xml -H stencil_16_20/hostfile --timeline "$tmp/t.svg" --cfg=smpi/coll-selector:mpich stencil_16_20/index.txt
run "$T" --validate -p small_platform.xml -H hostfile -n 3 index/with_isend
# a deadlock (exit 1): the requests ranks still hold are freed too (issue 21: 208 bytes)
printf '0 init\n0 irecv 1 0 10\n0 recv 1 5 10\n' > "$tmp/d0"; printf '1 init\n1 recv 0 7 10\n' > "$tmp/d1"
printf '%s\n' "$tmp/d0" "$tmp/d1" > "$tmp/didx"
run "$T" -q -p small_platform.xml -H hostfile -n 2 "$tmp/didx"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
