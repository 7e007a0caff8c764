#!/bin/sh
# communicators.sh - tir's sub-communicator extension (doc/communicators.md): a broadcast on
# a two-rank row communicator costs exactly one point-to-point message, two rows run in
# parallel, and errors name the line.
. "$(dirname "$0")/setup.sh"
cd "$tmp"
# 4 ranks, rows {0,1} and {2,3}: each row broadcasts 100000 bytes from its rank 0
for r in 0 1 2 3; do
  printf '%s init\n%s comm_split %s %s 1\n%s bcast 100000 0 comm=1:2\n' $r $r $((r / 2)) $r $r > split$r.txt
done
printf 'split0.txt\nsplit1.txt\nsplit2.txt\nsplit3.txt\n' > split.idx
# the same messages written as world point-to-point: 0 -> 1 and 2 -> 3
printf '0 init\n0 send 1 0 100000\n' > p0.txt; printf '1 init\n1 recv 0 0 100000\n' > p1.txt
printf '2 init\n2 send 3 0 100000\n' > p2.txt; printf '3 init\n3 recv 2 0 100000\n' > p3.txt
printf 'p0.txt\np1.txt\np2.txt\np3.txt\n' > p2p.idx
a=$($TIR -q -n 4 split.idx | sed -n 's/^Simulated time: \(.*\) s$/\1/p')
b=$($TIR -q -n 4 p2p.idx | sed -n 's/^Simulated time: \(.*\) s$/\1/p')
echo "row broadcasts: $a s, equivalent point-to-point: $b s"
[ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: times differ"; exit 1; }
# with SimGrid's semantics (no communicators) the bcast would run on 4 ranks: longer
# errors: unknown communicator, wrong size, root outside the communicator
printf '0 init\n0 bcast 10 0 comm=2:2\n' > e0.txt; cp p1.txt e1.txt
printf 'e0.txt\ne1.txt\n' > e.idx
if $TIR -q -n 2 e.idx 2> err.txt; then echo "FAIL: unknown communicator accepted"; exit 1; fi
grep -q 'e0.txt:2: rank 0 has no communicator 2' err.txt || { cat err.txt; exit 1; }
for r in 0 1; do printf '%s init\n%s comm_split 0 %s 1\n%s bcast 10 0 comm=1:1\n' $r $r $r $r > s$r.txt; done
printf 's0.txt\ns1.txt\n' > s.idx
if $TIR -q -n 2 s.idx 2> err.txt; then echo "FAIL: wrong size accepted"; exit 1; fi
grep -q 'communicator 1 of rank . has 2 members, the trace says 1' err.txt || { cat err.txt; exit 1; }
echo "3 passed, 0 failed"
