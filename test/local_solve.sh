#!/bin/sh
# local_solve.sh - --cfg=tir/local-solve end to end: a 128-rank stencil with an allreduce
# every 2 iterations (scripts/tir-gen-stencil) on the 2,048-node fat tree, whose flows tie the
# machine into one component that never forms a group, replayed with the exact solver (no),
# the local one (yes) and the automatic mode (auto, the default), which must switch to local
# mode after 32 large solves (LMM_STATS). The three simulated times must be identical.
# Then bundles (below).
. "$(dirname "$0")/setup.sh"
command -v python3 > /dev/null || skip "python3 not found (scripts/tir-gen-stencil)"
cd "$tmp"
python3 "$top_srcdir/scripts/tir-gen-stencil" --allreduce-every 2 --suffix "" 128 6 st > /dev/null
fail=0
# run MODE STATS_REGEX: replays with tir/local-solve:MODE; LMM_STATS must match STATS_REGEX
run() {
  if LMM_STATS=1 $TIR -p "$top_srcdir/platforms/fattree-2048.xml" -H st/hostfile \
    --cfg=tir/local-solve:"$1" st/index.txt > "out.$1" 2> "err.$1"; then
    grep -Eq "$2" "err.$1" || { fail=1; echo "FAIL: local-solve:$1: no '$2' in stderr:"; cat "err.$1"; }
    grep '^Simulated time:' "out.$1" > "time.$1" || { fail=1; echo "FAIL: local-solve:$1: no simulated time"; }
    echo "local-solve:$1: $(cat "time.$1")"
  else
    fail=1; echo "FAIL: local-solve:$1 exited $?:"; cat "err.$1"
  fi
}
run no '^lmm: exact mode, 0 large solves'
run yes '^lmm: local mode, 0 large solves'
run auto '^lmm: local mode, 32 large solves'
cmp -s time.no time.yes || { fail=1; echo "FAIL: yes differs from no"; }
cmp -s time.no time.auto || { fail=1; echo "FAIL: auto differs from no"; }
# Bundles (tir/bundles, local mode): a 128-rank stencil on graphene-2048 fills one cabinet,
# whose SHARED switch fixes its ~500 halo flows: they must form bundles (LMM_STATS: "N made"
# with N > 0), with the same simulated time as without bundles and as the exact solver.
python3 "$top_srcdir/scripts/tir-gen-stencil" --suffix "" 128 4 gr > /dev/null
for b in yes no; do
  LMM_STATS=1 $TIR -p "$top_srcdir/platforms/graphene-2048.xml" -H gr/hostfile \
    --cfg=tir/local-solve:yes --cfg=tir/bundles:$b gr/index.txt > "gout.$b" 2> "gerr.$b" ||
    { fail=1; echo "FAIL: bundles:$b exited:"; cat "gerr.$b"; }
  grep '^Simulated time:' "gout.$b" > "gtime.$b"
  echo "bundles:$b: $(cat "gtime.$b"), $(grep '^lmm: bundles' "gerr.$b")"
done
$TIR -p "$top_srcdir/platforms/graphene-2048.xml" -H gr/hostfile --cfg=tir/local-solve:no gr/index.txt |
  grep '^Simulated time:' > gtime.exact
grep -Eq '^lmm: bundles: [1-9][0-9]* made' gerr.yes || { fail=1; echo "FAIL: no bundle made"; }
grep -Eq '^lmm: bundles: 0 made' gerr.no || { fail=1; echo "FAIL: bundles made with tir/bundles:no"; }
cmp -s gtime.yes gtime.no || { fail=1; echo "FAIL: bundles change the time"; }
cmp -s gtime.yes gtime.exact || { fail=1; echo "FAIL: bundles differ from the exact solver"; }
[ "$fail" -eq 0 ]
