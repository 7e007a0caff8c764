#!/bin/sh
# plot.sh - tir-plot (tir-plot(1)) draws against every column of a sweep CSV (numbers, values
# with units such as 1Gbps, lists, names, columns only some platforms have), says which runs
# it cannot draw, keeps 12 variants apart with a legend of 7 entries (a colour per platform, a
# marker per bandwidth, a dash per pstate) and exits as its man page says (2 bad arguments or
# CSV, 3 no gnuplot). tir-sweep gives runs on a `file =` platform their host count (from the
# report), so the default plot (x = hosts) draws them; `list` shows parameters and creates
# no folder.
. "$(dirname "$0")/setup.sh"
S="$top_srcdir/scripts"
PY=$(python3 -c 'import sys; print(sys.executable)') || skip "python3 not found"
command -v gnuplot > /dev/null || skip "gnuplot not found (apt-get install gnuplot-nox)"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok    $*"; }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
cd "$tmp"
csv="$top_srcdir/examples/sweep/results.csv"
# 1. every column that has values, as the x axis
for col in $("$PY" -c 'import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(" ".join(c for c in rows[0] if any(r[c] for r in rows)))' "$csv"); do
  out=p_$(printf '%s' "$col" | tr / _)
  if "$PY" "$S/tir-plot" "$csv" --x "$col" -o "$out" > /dev/null 2> err.txt && [ -s "$out.png" ] && grep -q '<svg' "$out.svg"
  then ok "--x $col"; else ko "--x $col: $(cat err.txt)"; fi
done
# the tics of a column of values with units are its values, in the order of their magnitude
if [ "$(grep -o '>[0-9]*Gbps<' p_bw.svg | head -n 2 | tr -d '<>' | tr '\n' ' ')" = "1Gbps 10Gbps " ]
then ok "bw tics: 1Gbps then 10Gbps"; else ko "bw tics: $(grep -o '>[0-9]*Gbps<' p_bw.svg | head -n 4)"; fi
for p in cabinets fattree flat; do grep -q ">$p<" p_platform.svg || ko "--x platform: no tic $p"; done
# runs without a value in x are named, not silently dropped
"$PY" "$S/tir-plot" "$csv" --x limiter -o lim > /dev/null 2> err.txt
grep -q '96 of 144 runs have no value in column limiter (platform fattree, flat): not drawn' err.txt &&
  ok "warning on runs without x" || ko "no warning: $(cat err.txt)"
# 2. 12 variants: a legend entry per value of each line column, not per combination
n=0
for e in cabinets fattree flat bw=1Gbps bw=10Gbps host/pstate=0 host/pstate=1; do
  [ "$(grep -c ">$e<" p_hosts.svg)" = 1 ] && n=$((n + 1))
done
[ $n = 7 ] && ! grep -q '>flat bw=' p_hosts.svg && ok "legend: 7 entries for 12 variants" || ko "legend ($n of 7)"
# 3. exit statuses
bad() { # STATUS REGEX ARGS...
  want=$1 re=$2; shift 2
  if "$PY" "$S/tir-plot" "$@" > /dev/null 2> err.txt; then rc=0; else rc=$?; fi
  [ "$rc" = "$want" ] && grep -Eq -- "$re" err.txt && ! grep -q Traceback err.txt && ok "exit $want: $*" ||
    ko "tir-plot $* -> $rc (want $want): $(cat err.txt)"
}
bad 2 "no such column" "$csv" --x nope -o x
bad 2 "--x error: no run has a value" "$csv" --x error -o x
bad 2 "no such parameter" "$csv" --facet nope -o x
bad 2 "not a tir-sweep results CSV" "$top_srcdir/examples/stencil-16/hostfile" -o x
printf '\377\376garbage\n' > bin.csv
bad 2 "bin.csv" bin.csv -o x
bad 2 "no run with status ok" "$csv" --where status=failed -o x
bad 2 "expected KEY=VALUE" "$csv" --where nope -o x
if PATH=/nonexistent "$PY" "$S/tir-plot" "$csv" -o x > /dev/null 2> err.txt; then rc=0; else rc=$?; fi
[ $rc = 3 ] && grep -q "gnuplot not found" err.txt && ok "exit 3 without gnuplot" || ko "no gnuplot: $rc $(cat err.txt)"
# 4. a `file =` platform: its runs get their host count and are drawn by default
cp "$top_srcdir/platforms/cluster-stencil.xml" cluster.xml
cat > f.spec <<'SPEC'
[sweep]
output = fout
[trace st]
ranks = 4 8
generate = tir-gen-stencil {ranks} 1 {dir}
[platform file16]
file = cluster.xml
[platform flat]
kind = flat
nodes = {ranks}
SPEC
"$PY" "$S/tir-sweep" list f.spec > list.txt
[ ! -e fout ] && grep -q '^pending  st 4 ranks file16  \[st-4-file16-' list.txt && ok "list: parameters, no folder" ||
  { ko "list"; cat list.txt; ls; }
TIR_REPLAY="$TIR" "$PY" "$S/tir-sweep" -q f.spec > /dev/null
hosts=$("$PY" -c 'import csv, sys
print(" ".join(r["platform"] + ":" + r["hosts"] for r in csv.DictReader(open(sys.argv[1]))))' fout/results.csv)
[ "$hosts" = "file16:4 flat:4 file16:8 flat:8" ] && ok "hosts of a file platform: $hosts" || ko "hosts: $hosts"
"$PY" "$S/tir-plot" fout/results.csv -o f > /dev/null 2> err.txt
[ ! -s err.txt ] && grep -q '>file16<' f.svg && grep -q '>flat<' f.svg && ok "default plot draws the file platform" ||
  ko "file platform not drawn: $(cat err.txt)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
