#!/bin/sh
# timeline.sh - the CSV timeline and the report agree, Paraver's files are well formed,
# and a failing output leaves no file behind (doc/outputs.md).
#  1. stencil_16 (point-to-point) and bcast (collectives): per rank, the CSV's state rows
#     summed by class (compute+sleep / wait+waitall+test / the rest) equal the report's
#     compute / wait / comm, and the message rows' bytes summed by source equal bytes_sent;
#  2. the .prv has the Paraver header and one state record per CSV state row, and its
#     .pcf and .row exist;
#  3. an output into a path whose folder is a file, and a write cut short by a file size
#     limit, exit 4 naming the path, and leave neither the file nor a temporary one.
. "$(dirname "$0")/setup.sh"
command -v python3 >/dev/null || skip "python3 not found"
cd "$REF"
st16="-p stencil_16_20/platform.xml -H stencil_16_20/hostfile -n 16 stencil_16_20/index.txt"
bcast="-p small_platform.xml -H hostfile -n 3 index/bcast"

check_sums() { # name, then the replay's arguments
  name=$1; shift
  $TIR -q --timeline "$tmp/$name.csv" --report "$tmp/$name.json" "$@" >/dev/null
  python3 - "$tmp/$name.csv" "$tmp/$name.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
rep = json.load(open(sys.argv[2]))
n = len(rep["ranks"])
got = {k: [0.0] * n for k in ("compute", "wait", "comm")}
sent = [0] * n
cls = {"compute": "compute", "sleep": "compute", "wait": "wait", "waitall": "wait", "test": "wait"}
for r in rows:
    if r["type"] == "state":
        got[cls.get(r["state"], "comm")][int(r["rank"])] += float(r["end"]) - float(r["start"])
    else:
        sent[int(r["rank"])] += int(r["bytes"])
bad = 0
for i, k in enumerate(rep["ranks"]):
    for c in got:
        if abs(got[c][i] - k[c]) > 1e-9 * max(1.0, abs(k[c])):
            print(f"rank {i}: {c}: timeline {got[c][i]!r}, report {k[c]!r}"); bad = 1
    if sent[i] != k["bytes_sent"]:
        print(f"rank {i}: bytes sent: timeline {sent[i]}, report {k['bytes_sent']}"); bad = 1
if sum(1 for r in rows if r["type"] == "message") != rep["messages"]:
    print("message rows differ from the report's message count"); bad = 1
sys.exit(bad)
PY
  echo "ok    $name: CSV timeline sums = report"
}
check_sums stencil_16 $st16
check_sums bcast $bcast

# 2. Paraver (records sorted: the 6th field is the begin, event or logical send time)
$TIR -q --timeline "$tmp/st.prv" $st16 >/dev/null
head -n 1 "$tmp/st.prv" | grep -Eq '^#Paraver \(01/01/70 at 00:00\):[0-9]+_ns:[0-9]+\([0-9,]+\):1:16\(' ||
  { echo "FAIL: bad Paraver header: $(head -n 1 "$tmp/st.prv")"; exit 1; }
n1=$(grep -c '^1:' "$tmp/st.prv")
n2=$(grep -c '^state,' "$tmp/stencil_16.csv")
[ "$n1" -eq "$n2" ] || { echo "FAIL: $n1 Paraver states, $n2 CSV states"; exit 1; }
awk -F: '/^#/ {next} ($1==1 && NF!=8) || ($1==2 && NF!=8) || ($1==3 && NF!=15) {print "FAIL: bad record: " $0; exit 1}
  {t = $6; if (t + 0 < last + 0) {print "FAIL: not sorted at: " $0; exit 1}; last = t}' "$tmp/st.prv"
[ -s "$tmp/st.pcf" ] && [ -s "$tmp/st.row" ] || { echo "FAIL: .pcf or .row missing"; exit 1; }
grep -q '^LEVEL THREAD SIZE 16$' "$tmp/st.row" || { echo "FAIL: .row"; exit 1; }
echo "ok    Paraver: header, $n1 state records, sorted, .pcf and .row"

# 3. atomic outputs
touch "$tmp/file"
for opt in --timeline --report; do
  out=$($TIR -q $opt "$tmp/file/out.csv" $bcast 2>&1) && rc=0 || rc=$?
  [ "$rc" -eq 4 ] || { echo "FAIL: $opt into a file's folder: exit $rc, expected 4"; exit 1; }
  printf '%s\n' "$out" | grep -q "$tmp/file/out.csv: cannot write: Not a directory" ||
    { echo "FAIL: $opt: message does not name the path and the reason: $out"; exit 1; }
done
mkdir "$tmp/lim"
for f in st.csv st.paje st.svg st.prv report.json; do
  case $f in report.json) opt=--report ;; *) opt=--timeline ;; esac
  # 8 blocks of 512 bytes: the outputs of stencil_16 are larger, their writes fail (EFBIG)
  out=$( (trap '' XFSZ; ulimit -f 8; exec $TIR -q $opt "$tmp/lim/$f" $st16) 2>&1) && rc=0 || rc=$?
  [ "$rc" -eq 4 ] || { echo "FAIL: $f over the size limit: exit $rc, expected 4 ($out)"; exit 1; }
  printf '%s\n' "$out" | grep -q "$tmp/lim/$f: cannot write: File too large" ||
    { echo "FAIL: $f: unexpected message: $out"; exit 1; }
done
left=$(ls -A "$tmp/lim")
[ -z "$left" ] || { echo "FAIL: files left behind: $left"; exit 1; }
echo "ok    failing outputs: exit 4, path and reason, nothing left behind"
