#!/bin/sh
# local_solve.sh - --cfg=tir/local-solve end to end: a 128-rank stencil with an allreduce
# every 2 iterations (scripts/gen-stencil) on the 2,048-node fat tree, whose flows tie the
# machine into one component that never forms a group, replayed with the exact solver (no),
# the local one (yes) and the automatic mode (auto, the default), which must switch to local
# mode after 32 large solves (LMM_STATS). The three simulated times must be identical.
. "$(dirname "$0")/setup.sh"
command -v python3 > /dev/null || skip "python3 not found (scripts/gen-stencil)"
cd "$tmp"
python3 "$top_srcdir/scripts/gen-stencil" --allreduce-every 2 --suffix "" 128 6 st > /dev/null
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
[ "$fail" -eq 0 ]
