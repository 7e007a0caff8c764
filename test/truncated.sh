#!/bin/sh
# truncated.sh - traces cut short (a killed run): tir-replay --allow-truncated replays what
# every rank recorded and stops cleanly where ranks run out (exit 0, the date reached, the
# ranks cut); without it, the error names the option. By hand: a ping-pong of 1000-byte
# messages between ranks 0 and 1 (node-0, node-1 of test/mpi/cluster4.xml, one message at a
# time: each takes T = 11 us x 1.9503 + 1016 / (0.341987 x 1.25 GBps)), 10 rounds; rank 1's
# gzip file holds only its first 4 rounds and the receive of the 5th, and ends without its
# gzip trailer (as a killed tracer leaves it). Rank 0 sends the 5th reply's request and
# blocks in its receive: the replay stops when rank 1's last receive ends, at 9 T, with 11
# actions of rank 0 not replayed (5 rounds and its finalize).
# The same with plain files whose last line is cut mid-way and a trace.meta saying
# `status = killed`: an error without the option, the same 9 T with it.
. "$(dirname "$0")/setup.sh"
cd "$tmp"
PLAT="$top_srcdir/test/mpi/cluster4.xml"
printf 'node-0\nnode-1\n' > hf
{ echo "0 init"; i=0; while [ $i -lt 10 ]; do echo "0 send 1 0 1000"; echo "0 recv 1 0 1000"; i=$((i + 1)); done
  echo "0 finalize"; } > r0.txt
{ echo "1 init"; i=0; while [ $i -lt 4 ]; do echo "1 recv 0 0 1000"; echo "1 send 0 0 1000"; i=$((i + 1)); done
  echo "1 recv 0 0 1000"; } > r1.txt
mkdir gz plain
gzip -c r0.txt > gz/rank-0.gz
gzip -c r1.txt | head -c -8 > gz/rank-1.gz  # the trailer (CRC, length) missing
printf 'rank-0.gz\nrank-1.gz\n' > gz/index
cp r0.txt plain/rank-0.txt
{ cat r1.txt; printf '1 send 0 0 10'; } > plain/rank-1.txt  # a line cut mid-way
printf 'rank-0.txt\nrank-1.txt\n' > plain/index
printf 'np = 2\nstatus = killed\nranks_finished = 1\n' > plain/trace.meta

want=$(awk 'BEGIN { printf "%.12g", 9 * (11e-6 * 1.9503 + 1016 / (0.341987 * 1.25e9)) }')
fail() { echo "FAIL: $*"; exit 1; }

# without the option: errors that name it
$TIR -q -p "$PLAT" -H hf gz > out 2>&1 && fail "a truncated gzip stream replayed without --allow-truncated"
grep -q "rank-1.gz:11: truncated gzip stream (unexpected end of file).*--allow-truncated" out ||
  { cat out; fail "the error does not name --allow-truncated"; }
$TIR -q -p "$PLAT" -H hf plain > out 2>&1 && fail "a cut line replayed without --allow-truncated"
grep -q "plain/trace.meta: status = killed, 1 of 2 ranks finished" out || { cat out; fail "no warning about trace.meta"; }
grep -q "rank-1.txt:11: the file ends mid-line and trace.meta says the traced run did not complete: --allow-truncated" out ||
  { cat out; fail "the cut line's error does not name --allow-truncated"; }
echo "ok: without --allow-truncated, both errors name it"

# with it: the date reached, the ranks cut, exit 0
for d in gz plain; do
  $TIR -q --allow-truncated -p "$PLAT" -H hf $d > out 2>err || { cat out err; fail "$d: --allow-truncated exits $?"; }
  got=$(sed -n 's/^Simulated time: \([^ ]*\) s$/\1/p' out)
  near "$got" "$want" ||
    { cat out; fail "$d: stopped at $got s, by hand $want s"; }
  grep -q "^Truncated trace: the replay stopped where ranks ran out at $got s; 1 of 2 ranks cut: 1; 1 rank blocked at the end (11 actions not replayed)$" out ||
    { cat out; fail "$d: no truncation line"; }
  echo "ok: $d: --allow-truncated stops at $got s (by hand $want), rank 1 cut, rank 0 blocked"
done
grep -q "status = killed" err || fail "no warning about trace.meta with --allow-truncated"

# a trace.meta of an older tracer (no ranks_finished) or none: read, or ignored
printf 'status = incomplete (MPI_Finalize not reached yet)\n' > plain/trace.meta
$TIR -q --allow-truncated -p "$PLAT" -H hf plain > out 2>err || fail "older trace.meta"
grep -q "status = incomplete: the traced run did not complete" err || { cat err; fail "older trace.meta not read"; }
rm plain/trace.meta
$TIR -q -p "$PLAT" -H hf plain > out 2>&1 && fail "a cut trace without trace.meta replayed without the option"
grep -q "deadlock: 1 of 2 ranks blocked forever.*the trace was cut short: --allow-truncated" out ||
  { cat out; fail "the deadlock error does not name --allow-truncated"; }
echo "ok: older or missing trace.meta"

# a trace that is not cut short but deadlocks: still a deadlock with the option
printf '0 init\n1 init\n0 send 1 0 10\n0 recv 1 0 10\n1 recv 0 0 10\n' > dl.txt
$TIR -q --allow-truncated -p "$PLAT" -H hf dl.txt > out 2>&1 && fail "a whole trace's deadlock passed with --allow-truncated"
grep -q "deadlock: 1 of 2 ranks blocked forever (see the report above)$" out || { cat out; fail "no deadlock error"; }
echo "ok: a whole trace that deadlocks is still an error with --allow-truncated"

# --validate with --allow-truncated reads what the files hold
$TIR --validate --allow-truncated gz > out 2>&1 || true
grep -q "^1 *10 " out || { cat out; fail "--validate --allow-truncated: rank 1's 10 actions"; }
echo "ok: --validate --allow-truncated reads rank 1's 10 actions"
