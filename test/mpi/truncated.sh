#!/bin/sh
# truncated.sh - traces of killed jobs replayed with tir-replay --allow-truncated (the
# replay side of killed runs; the tracer's side is test/mpi/crash.sh):
#  1. test/mpi/crash.c's `kill` mode, a real killed run: rank 1 sends 4 bytes to rank 0 and
#     is SIGKILLed (its gzip file has no trailer); rank 0, waiting for a second message, is
#     then killed by the launcher (its file is closed by the tracer's handler, without that
#     receive: a call is written when it returns). Without the option the replay fails with
#     a message naming it; with it, every rank replays what it recorded, the last ending
#     when rank 0 has the message (computations off: 11 us x 2.01467 + 20 / (0.812084 x
#     1.25 GBps) on cluster4.xml, by hand), both ranks cut (trace.meta: not complete, and no
#     finalize), exit 0.
#  2. test/mpi/stencil.c (4 ranks) traced whole, then two rank files cut to half their size
#     (as a batch system's kill leaves them): the replay stops before the whole trace's time,
#     with ranks 1 and 3 cut.
. "${top_srcdir:-.}/test/mpi/setup.sh"
# under each tracer flavour built (Open MPI, MPICH)
root=$tmp
for f in $flavours; do
use_flavour "$f"
tmp=$root/$f
mkdir -p "$tmp"
tir=$top_builddir/replay/tir-replay
"$MPICC" -O1 -o "$tmp/crash" "$here/crash.c" || fail "cannot compile crash.c"
"$MPICC" -O1 -o "$tmp/stencil" "$here/stencil.c" || fail "cannot compile stencil.c"
printf 'node-0\nnode-1\nnode-2\nnode-3\n' >"$tmp/hf"
replay() { "$tir" -q --cfg=smpi/simulate-computation:no -p "$here/cluster4.xml" -H "$tmp/hf" "$@"; }

run_np 2 "$tirtrace" -o "$tmp/k" --flush-interval 0.5 -- "$tmp/crash" kill >"$tmp/log-k" 2>&1 &&
  fail "the killed job should have failed"
replay "$tmp/k" >"$tmp/out" 2>&1 && fail "a killed run's trace replayed without --allow-truncated"
grep -q "rank-00001.tit.gz:.*truncated gzip stream.*--allow-truncated" "$tmp/out" ||
  { cat "$tmp/out"; fail "the error does not name --allow-truncated"; }
grep -Eq "trace.meta: status = (running|killed|aborted|incomplete)" "$tmp/out" || { cat "$tmp/out"; fail "no warning from trace.meta"; }
replay --allow-truncated "$tmp/k" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/out" "$tmp/err"; fail "--allow-truncated failed"; }
want=$(awk 'BEGIN { printf "%.12g", 11e-6 * 2.01467 + 20 / (0.812084 * 1.25e9) }')
grep -q "^Simulated time: $want s$" "$tmp/out" || { cat "$tmp/out"; fail "killed run: not stopped at $want s (by hand)"; }
grep -q "^Truncated trace: every rank replayed what it recorded, the last ending at $want s; 2 of 2 ranks cut: 0 1; 0 ranks blocked" \
  "$tmp/out" || { cat "$tmp/out"; fail "killed run: no truncation line"; }
echo "ok: killed run: --allow-truncated ends at $want s (by hand), ranks 0 and 1 cut"

run_np 4 "$tirtrace" -o "$tmp/s" -- "$tmp/stencil" 256 40 >"$tmp/log-s" 2>&1 || { cat "$tmp/log-s"; fail "stencil run failed"; }
whole=$(replay "$tmp/s" | sed -n 's/^Simulated time: \([^ ]*\) s$/\1/p')
for r in 1 3; do
  f=$tmp/s/rank-0000$r.tit.gz
  head -c $(($(wc -c <"$f") / 2)) "$f" >"$f.cut" && mv "$f.cut" "$f"
done
sed -i 's/^status = .*/status = killed/' "$tmp/s/trace.meta"
replay "$tmp/s" >"$tmp/out" 2>&1 && fail "cut stencil trace replayed without --allow-truncated"
replay --allow-truncated "$tmp/s" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/out" "$tmp/err"; fail "cut stencil: --allow-truncated failed"; }
got=$(sed -n 's/^Simulated time: \([^ ]*\) s$/\1/p' "$tmp/out")
grep -q "^Truncated trace: .* 2 of 4 ranks cut: 1 3;" "$tmp/out" || { cat "$tmp/out"; fail "cut stencil: ranks 1 and 3 not named"; }
awk -v g="$got" -v w="$whole" 'BEGIN { exit !(g > 0 && g < w) }' || fail "cut stencil: stopped at $got s, the whole trace takes $whole s"
echo "ok: cut stencil: stopped at $got s (whole trace: $whole s), ranks 1 and 3 cut"
done
tmp=$root
