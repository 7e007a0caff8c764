#!/bin/sh
# report_classes.sh - the report's time classes (doc/outputs.md). A halo exchange written as
# tagged isend/irecv + wait (what tir-trace writes for a tagged MPI_Sendrecv) spends its time
# in waits: it must count as point-to-point, exactly like the same exchange as one untagged
# sendRecv action, and the summary's p2p column must say so. Collectives on sub-communicators
# are listed apart from MPI_COMM_WORLD's (collectives_by_communicator), with the time of
# the equivalent point-to-point messages, and the CSV timeline names their communicator.
. "$(dirname "$0")/setup.sh"
cd "$tmp"
cp "$REF/small_platform.xml" plat.xml
printf 'Tremblay\nJupiter\nFafard\nGinette\n' > hosts
# 2 ranks exchange 1 MB with tag 7 (isend/irecv/wait/wait), then the same as sendRecv
for r in 0 1; do
  p=$((1 - r))
  printf '%s init\n%s isend %s 7 1000000\n%s irecv %s 7 1000000\n%s wait %s %s 7\n%s wait %s %s 7\n' \
    $r $r $p $r $p $r $r $p $r $p $r > t$r.txt
  printf '%s init\n%s sendRecv 1000000 %s 1000000 %s 6 6\n' $r $r $p $p > s$r.txt
done
printf 't0.txt\nt1.txt\n' > t.idx; printf 's0.txt\ns1.txt\n' > s.idx
$TIR -p plat.xml -H hosts -n 2 --report t.json t.idx > t.out
$TIR -p plat.xml -H hosts -n 2 --report s.json s.idx > s.out
# 4 ranks: rows {0,1} (comm 1) and {2,3} (comm 2) broadcast 100000 bytes, then a world barrier;
# the row broadcasts alone equal two world messages 0 -> 1 and 2 -> 3
for r in 0 1 2 3; do
  row=$((r / 2 + 1)); a=$((r / 2 * 2)); b=$((a + 1))
  printf '%s init\n%s comm_split %s 2 %s %s\n%s comm %s bcast 100000 %s\n%s barrier\n' $r $r $row $a $b $r $row $a $r > c$r.txt
done
printf '0 init\n0 send 1 0 100000\n' > p0.txt; printf '1 init\n1 recv 0 0 100000\n' > p1.txt
printf '2 init\n2 send 3 0 100000\n' > p2.txt; printf '3 init\n3 recv 2 0 100000\n' > p3.txt
printf 'c0.txt\nc1.txt\nc2.txt\nc3.txt\n' > c.idx; printf 'p0.txt\np1.txt\np2.txt\np3.txt\n' > p.idx
$TIR -q -p plat.xml -H hosts -n 4 --report c.json --timeline c.csv c.idx > /dev/null
$TIR -q -p plat.xml -H hosts -n 4 --report p.json p.idx > /dev/null
python3 - <<'PY'
import json, sys
fails = []
def check(what, ok):
    print(("ok    " if ok else "FAIL: ") + what)
    if not ok:
        fails.append(what)
t, s = json.load(open("t.json")), json.load(open("s.json"))
check(f"tagged exchange takes the sendRecv's time ({t['simulated_time']!r} s)",
      t["simulated_time"] == s["simulated_time"] > 0)
for rt, rs in zip(t["ranks"], s["ranks"]):
    i = rt["rank"]
    check(f"rank {i}: tagged p2p {rt['p2p']!r} s = sendRecv p2p {rs['p2p']!r} s = its end time",
          abs(rt["p2p"] - rs["p2p"]) <= 1e-12 * rs["p2p"] and abs(rt["p2p"] - rt["end"]) <= 1e-12 * rt["end"])
    check(f"rank {i}: the waits ({rt['wait']!r} s) are part of p2p, collective 0",
          0 < rt["wait"] <= rt["p2p"] and rt["collective"] == 0)
kinds = t["actions_by_kind"]
check("wait is classed p2p", kinds["wait"]["class"] == "p2p")
c, p = json.load(open("c.json")), json.load(open("p.json"))
by = {(e["kind"], e["communicator"]): e for e in c["collectives_by_communicator"]}
check(f"collectives by communicator: {sorted(by)}", sorted(by) == [("barrier", 0), ("bcast", 1), ("bcast", 2)])
row = by[("bcast", 1)]["time"] + by[("bcast", 2)]["time"]
msgs = sum(r["p2p"] for r in p["ranks"])
check(f"row broadcasts: {row!r} rank-s = the 2 messages' {msgs!r} rank-s", abs(row - msgs) <= 1e-9 * msgs)
check("names and sizes", by[("bcast", 1)]["name"] == "comm 1" and by[("bcast", 1)]["size"] == 2
      and by[("barrier", 0)]["name"] == "MPI_COMM_WORLD" and by[("barrier", 0)]["size"] == 4
      and by[("barrier", 0)]["calls"] == 4 and by[("bcast", 2)]["calls"] == 2)
import csv
states = [r for r in csv.DictReader(open("c.csv")) if r["type"] == "state"]
comms = sorted({(r["state"], r["rank"], r["comm"]) for r in states})
check(f"CSV timeline: comm column {comms}", comms == [("barrier", str(i), "") for i in range(4)] +
      [("bcast", str(i), str(i // 2 + 1)) for i in range(4)])
sys.exit(1 if fails else 0)
PY
# the summary's p2p column holds the waits: rank 0's p2p equals its end time
awk '$1 == "0" && $2 == "Tremblay" { if ($5 + 0 > 0 && $5 == $3) ok = 1 } END { exit !ok }' t.out ||
  { echo "FAIL: summary p2p of rank 0"; cat t.out; exit 1; }
echo "ok    summary: rank 0's p2p column is its end time"
