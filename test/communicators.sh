#!/bin/sh
# communicators.sh - tir's extensions (doc/communicators.md): a broadcast on a two-rank row
# communicator costs exactly one point-to-point message and two rows run in parallel; a
# non-blocking broadcast, alltoall and allgather cost the same as their linear messages;
# errors name the line.
. "$(dirname "$0")/setup.sh"
cd "$tmp"
time_of() { $TIR -q -n "$1" "$2" | sed -n 's/^Simulated time: \(.*\) s$/\1/p'; }
# 4 ranks, rows {0,1} (id 1) and {2,3} (id 2): each row broadcasts 100000 bytes from its first rank
for r in 0 1 2 3; do
  row=$((r / 2 + 1)); a=$((r / 2 * 2)); b=$((a + 1))
  printf '%s init\n%s comm_split %s 2 %s %s\n%s comm %s bcast 100000 %s\n' $r $r $row $a $b $r $row $a > split$r.txt
done
printf 'split0.txt\nsplit1.txt\nsplit2.txt\nsplit3.txt\n' > split.idx
# the same messages written as world point-to-point: 0 -> 1 and 2 -> 3
printf '0 init\n0 send 1 0 100000\n' > p0.txt; printf '1 init\n1 recv 0 0 100000\n' > p1.txt
printf '2 init\n2 send 3 0 100000\n' > p2.txt; printf '3 init\n3 recv 2 0 100000\n' > p3.txt
printf 'p0.txt\np1.txt\np2.txt\np3.txt\n' > p2p.idx
a=$(time_of 4 split.idx); b=$(time_of 4 p2p.idx)
echo "row broadcasts: $a s, equivalent point-to-point: $b s"
[ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: times differ"; exit 1; }
# a non-blocking bcast of 3 ranks = root isends to both, others irecv; waited by (r, r, -1)
for r in 0 1 2; do printf '%s init\n%s ibcast 100000 0\n%s wait %s %s -1\n' $r $r $r $r $r > n$r.txt; done
printf 'n0.txt\nn1.txt\nn2.txt\n' > n.idx
printf '0 init\n0 isend 1 9 100000\n0 isend 2 9 100000\n0 waitall\n' > q0.txt
printf '1 init\n1 recv 0 9 100000\n' > q1.txt; printf '2 init\n2 recv 0 9 100000\n' > q2.txt
printf 'q0.txt\nq1.txt\nq2.txt\n' > q.idx
a=$(time_of 3 n.idx); b=$(time_of 3 q.idx)
echo "ibcast: $a s, equivalent point-to-point: $b s"
[ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: ibcast times differ"; exit 1; }
# a non-blocking alltoall and allgather of 7 ranks, held as series of posts (coll.h), cost
# the same as their messages written out: irecvs from r+1.. then isends to r-1.. (alltoall),
# an isend and an irecv with each other rank in ascending order (allgather)
n=7
for r in $(seq 0 $((n - 1))); do
  printf '%s init\n%s ialltoall 1000 1000\n%s wait %s %s -1\n' $r $r $r $r $r > a$r.txt
  printf '%s init\n%s iallgather 500 500\n%s wait %s %s -1\n' $r $r $r $r $r > g$r.txt
  { echo "$r init"; i=$(((r + 1) % n)); while [ $i != $r ]; do echo "$r irecv $i 9 1000"; i=$(((i + 1) % n)); done
    i=$(((r + n - 1) % n)); while [ $i != $r ]; do echo "$r isend $i 9 1000"; i=$(((i + n - 1) % n)); done
    echo "$r waitall"; } > b$r.txt
  { echo "$r init"; for i in $(seq 0 $((n - 1))); do [ $i = $r ] || printf '%s isend %s 9 500\n%s irecv %s 9 500\n' $r $i $r $i; done
    echo "$r waitall"; } > h$r.txt
done
for f in a b g h; do for r in $(seq 0 $((n - 1))); do echo "$f$r.txt"; done > $f.idx; done
a=$(time_of $n a.idx); b=$(time_of $n b.idx)
echo "ialltoall: $a s, equivalent point-to-point: $b s"
[ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: ialltoall times differ"; exit 1; }
a=$(time_of $n g.idx); b=$(time_of $n h.idx)
echo "iallgather: $a s, equivalent point-to-point: $b s"
[ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: iallgather times differ"; exit 1; }
# errors: unknown communicator, disagreeing creation lines, non-member
printf '0 init\n0 comm 7 barrier\n' > e0.txt; cp p1.txt e1.txt; printf 'e0.txt\ne1.txt\n' > e.idx
if $TIR -q -n 2 e.idx 2> err.txt; then echo "FAIL: unknown communicator accepted"; exit 1; fi
grep -q 'e0.txt:2: communicator 7 is used before' err.txt || { cat err.txt; exit 1; }
printf '0 init\n0 comm_split 1 2 0 1\n' > d0.txt; printf '1 init\n1 comm_split 1 2 1 0\n' > d1.txt
printf 'd0.txt\nd1.txt\n' > d.idx
if $TIR -q -n 2 d.idx 2> err.txt; then echo "FAIL: disagreeing members accepted"; exit 1; fi
grep -q 'communicator 1: member 0 is world rank 1 here, 0 where it was created' err.txt || { cat err.txt; exit 1; }
echo "6 passed, 0 failed"
