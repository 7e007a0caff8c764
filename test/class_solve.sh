#!/bin/sh
# class_solve.sh - --cfg=tir/local-solve:class and tir/rate-tolerance end to end, on issue 15's
# collective-heavy trace (scripts/tir-gen-colls: compute, basic_linear alltoall, allreduce,
# bcast, allgather) with ranks drifting apart (--imbalance 0.1), 64 ranks, 2 iterations, on
# `tir-platform fattree` and `cabinets --cabinets 8 --limiter 1.5`:
#  - the exact solver (no), class mode (class) and the automatic mode (auto, the default),
#    which must switch to class mode (LMM_STATS: "class mode: N solves" with N > 0), give
#    simulated times equal to 1e-9 relative, and so does class mode without its restarts
#    (tir/class-restarts:no; class mode restarts some solves, that one none);
#  - tir/rate-tolerance:0.05 (an approximation) stays within 1e-3 of the exact time;
#  - 64 ranks, 4 a host on 16 hosts: the same (exact, class with and without restarts, auto,
#    which starts twin flows and riders (LMM_STATS: "eng: N twin flows", "eng: N riders",
#    N > 0), tir/twin-flows:no and tir/riders:no); and the IS-like alltoallv (uneven sizes),
#    class mode with and without riders against the exact solver;
#  - a 258-rank lock-step alltoall, one rank a host: the automatic mode's eager switch to
#    class mode (before the first solve), the exact solver's time to 1e-9;
#  - 16 ranks against SimGrid 3.32 (test/simgrid-oracle), class mode within 1e-6, one rank a
#    host and 4 a host, when SimGrid is installed.
. "$(dirname "$0")/setup.sh"
command -v python3 > /dev/null || skip "python3 not found (scripts/tir-gen-colls, tir-platform)"
cd "$tmp"
python3 "$top_srcdir/scripts/tir-gen-colls" --imbalance 0.1 64 2 mix > /dev/null
fail=0
# time FILE: the simulated time printed in FILE
time_of() { sed -n 's/^Simulated time: \([0-9.e+-]*\) s$/\1/p' "$1"; }
# close A B TOL: |A - B| <= TOL |B|
close() { python3 -c "import sys; a, b, t = map(float, sys.argv[1:]); sys.exit(0 if abs(a - b) <= t * abs(b) else 1)" "$@"; }
for kind in fattree cabinets; do
  if [ "$kind" = fattree ]; then set -- fattree; else set -- cabinets --cabinets 8 --limiter 1.5; fi
  python3 "$top_srcdir/scripts/tir-platform" "$@" --nodes 64 -o "$kind.xml"
  for mode in no class auto; do
    LMM_STATS=1 $TIR -q -p "$kind.xml" -H mix/hostfile --cfg=tir/local-solve:$mode mix/index.txt \
      > "out.$kind.$mode" 2> "err.$kind.$mode" || { fail=1; echo "FAIL: $kind $mode exited:"; cat "err.$kind.$mode"; }
    echo "$kind local-solve:$mode: $(time_of "out.$kind.$mode") s"
  done
  grep -Eq '^lmm: class mode: [1-9][0-9]* solves' "err.$kind.auto" ||
    { fail=1; echo "FAIL: $kind: auto did not switch to class mode:"; cat "err.$kind.auto"; }
  LMM_STATS=1 $TIR -q -p "$kind.xml" -H mix/hostfile --cfg=tir/local-solve:class --cfg=tir/class-restarts:no \
    mix/index.txt > "out.$kind.norestart" 2> "err.$kind.norestart" || fail=1
  grep -Eq '^lmm: class mode: [1-9][0-9]* solves restarted' "err.$kind.class" ||
    { fail=1; echo "FAIL: $kind: class mode made no restart:"; cat "err.$kind.class"; }
  grep -Eq '^lmm: class mode: 0 solves restarted' "err.$kind.norestart" ||
    { fail=1; echo "FAIL: $kind: tir/class-restarts:no restarted:"; cat "err.$kind.norestart"; }
  for mode in class auto norestart; do
    close "$(time_of "out.$kind.$mode")" "$(time_of "out.$kind.no")" 1e-9 ||
      { fail=1; echo "FAIL: $kind: $mode differs from the exact solver"; }
  done
  $TIR -q -p "$kind.xml" -H mix/hostfile --cfg=tir/local-solve:class --cfg=tir/rate-tolerance:0.05 \
    mix/index.txt > "out.$kind.tol" || fail=1
  echo "$kind rate-tolerance:0.05: $(time_of "out.$kind.tol") s"
  close "$(time_of "out.$kind.tol")" "$(time_of "out.$kind.no")" 1e-3 ||
    { fail=1; echo "FAIL: $kind: rate-tolerance 0.05 beyond 1e-3 of the exact time"; }
done
# several ranks a host (4 on each of 16 hosts: intra-node flows on the loopbacks, FATPIPE)
python3 "$top_srcdir/scripts/tir-gen-colls" --imbalance 0.1 64 2 m64 > /dev/null
python3 "$top_srcdir/scripts/tir-gen-colls" --shape alltoallv 64 2 v64 > /dev/null
for i in $(seq 0 15); do echo "node-$i:4"; done > hf16x4
for kind in fattree cabinets; do
  if [ "$kind" = fattree ]; then set -- fattree; else set -- cabinets --cabinets 4 --limiter 1.5; fi
  python3 "$top_srcdir/scripts/tir-platform" "$@" --nodes 16 -o "$kind.16.xml"
  run4() { name=$1; shift; $TIR -q -p "$kind.16.xml" -H hf16x4 "$@" m64/index.txt > "out4.$kind.$name" || fail=1; }
  run4 no --cfg=tir/local-solve:no
  run4 class --cfg=tir/local-solve:class
  run4 norestart --cfg=tir/local-solve:class --cfg=tir/class-restarts:no
  LMM_STATS=1 run4 auto 2> "err4.$kind.auto"
  run4 notwins --cfg=tir/twin-flows:no
  run4 noriders --cfg=tir/riders:no
  grep -Eq '^eng: [1-9][0-9]* twin flows' "err4.$kind.auto" ||
    { fail=1; echo "FAIL: $kind, 4 ranks a host: no twin flows"; cat "err4.$kind.auto"; }
  grep -Eq '^eng: [1-9][0-9]* riders' "err4.$kind.auto" ||
    { fail=1; echo "FAIL: $kind, 4 ranks a host: no riders"; cat "err4.$kind.auto"; }
  echo "$kind, 4 ranks a host: exact $(time_of "out4.$kind.no") s, class $(time_of "out4.$kind.class") s"
  for mode in class norestart auto notwins noriders; do
    close "$(time_of "out4.$kind.$mode")" "$(time_of "out4.$kind.no")" 1e-9 ||
      { fail=1; echo "FAIL: $kind, 4 ranks a host: $mode differs from the exact solver"; }
  done
  # the IS-like alltoallv (uneven sizes: riders end one by one, their variables change
  # levels: replay/engine.c "Chains")
  runv() { name=$1; shift; $TIR -q -p "$kind.16.xml" -H hf16x4 "$@" v64/index.txt > "outv.$kind.$name" || fail=1; }
  runv no --cfg=tir/local-solve:no
  LMM_STATS=1 runv class --cfg=tir/local-solve:class 2> "errv.$kind.class"
  runv noriders --cfg=tir/local-solve:class --cfg=tir/riders:no
  grep -Eq '^eng: [1-9][0-9]* riders' "errv.$kind.class" ||
    { fail=1; echo "FAIL: $kind, alltoallv, 4 ranks a host: no riders"; cat "errv.$kind.class"; }
  echo "$kind, alltoallv, 4 ranks a host: exact $(time_of "outv.$kind.no") s, class $(time_of "outv.$kind.class") s"
  for mode in class noriders; do
    close "$(time_of "outv.$kind.$mode")" "$(time_of "outv.$kind.no")" 1e-9 ||
      { fail=1; echo "FAIL: $kind, alltoallv, 4 ranks a host: $mode differs from the exact solver"; }
  done
done
# a lock-step alltoall of 1 KiB blocks on 258 ranks, one a host: 66,306 flows made before
# the first solve, so the automatic mode goes to class mode between two solves when the
# 65,536th is made (CLASS_EAGER_VARS), and gives the exact solver's time
python3 "$top_srcdir/scripts/tir-gen-colls" --shape alltoall --block 1024 258 1 a258 > /dev/null
python3 "$top_srcdir/scripts/tir-platform" fattree --nodes 272 -o ft272.xml
LMM_STATS=1 $TIR -q -p ft272.xml -H a258/hostfile a258/index.txt > out.a258.auto 2> err.a258.auto || fail=1
$TIR -q -p ft272.xml -H a258/hostfile --cfg=tir/local-solve:no a258/index.txt > out.a258.no || fail=1
echo "258-rank alltoall: auto $(time_of out.a258.auto) s, exact $(time_of out.a258.no) s"
grep -q '^lmm: class mode from 65536 live variables on, before a solve$' err.a258.auto ||
  { fail=1; echo "FAIL: 258-rank alltoall: no switch to class mode before its first solve:"; cat err.a258.auto; }
close "$(time_of out.a258.auto)" "$(time_of out.a258.no)" 1e-9 ||
  { fail=1; echo "FAIL: 258-rank alltoall: auto differs from the exact solver"; }
# against SimGrid, 16 ranks (SimGrid's replay of an alltoall is slow)
oracle="$top_srcdir/test/simgrid-oracle"
if command -v smpirun > /dev/null; then
  python3 "$top_srcdir/scripts/tir-gen-colls" --imbalance 0.1 16 2 m16 > /dev/null
  python3 "$top_srcdir/scripts/tir-platform" cabinets --cabinets 8 --limiter 1.5 --nodes 16 -o c16.xml
  $TIR -q -p c16.xml -H m16/hostfile --cfg=tir/local-solve:class m16/index.txt > out.c16 || fail=1
  sg=$("$oracle" --platform c16.xml --hostfile m16/hostfile m16/index.txt | sed -n 's/.*Simulated time[^0-9]*\([0-9.e+-]*\).*/\1/p')
  echo "16 ranks, cabinets: class $(time_of out.c16) s, SimGrid $sg s"
  close "$(time_of out.c16)" "$sg" 1e-6 || { fail=1; echo "FAIL: class mode differs from SimGrid"; }
  # the same 16 ranks, 4 a host on 4 hosts of 2 cabinets
  for i in 0 1 2 3; do echo "node-$i:4"; done > hf4x4
  python3 "$top_srcdir/scripts/tir-platform" cabinets --cabinets 2 --limiter 1.5 --nodes 4 -o c4.xml
  $TIR -q -p c4.xml -H hf4x4 --cfg=tir/local-solve:class m16/index.txt > out.c4 || fail=1
  sg=$("$oracle" --platform c4.xml --hostfile hf4x4 m16/index.txt | sed -n 's/.*Simulated time[^0-9]*\([0-9.e+-]*\).*/\1/p')
  echo "16 ranks, 4 a host: class $(time_of out.c4) s, SimGrid $sg s"
  close "$(time_of out.c4)" "$sg" 1e-6 || { fail=1; echo "FAIL: class mode, 4 ranks a host, differs from SimGrid"; }
fi
[ "$fail" -eq 0 ]
