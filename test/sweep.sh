#!/bin/sh
# sweep.sh - tir-sweep end to end on a 24-run spec: the CSV has one row per run with every
# parameter and SimGrid's value for a known run; a failing run is recorded and does not stop
# the sweep; a sweep killed halfway (SIGTERM) re-runs only the missing runs and ends with the
# same CSV as an uninterrupted sweep; spec errors name file and line; tir-plot draws the CSV.
. "$(dirname "$0")/setup.sh"
S="$top_srcdir/scripts"
fail=0
check() { if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi; }
cd "$tmp"
# tsv FILE: the CSV as tab-separated fields (its cells hold commas), without wall_seconds and
# error (the error names a file of the output folder)
tsv() { python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
keep = [i for i, c in enumerate(rows[0]) if c not in ("wall_seconds", "error")]
for r in rows: print("\t".join(r[i] for i in keep))' "$1"; }
# a replayer that takes its time, so that the kill below lands in the middle of the sweep
printf '#!/bin/sh\nsleep 0.2\nexec %s "$@"\n' "$TIR" > slow-replay
chmod +x slow-replay
cat > test.spec <<'SPEC'
# 2 traces x 2 sizes x (flat: 2 bandwidths x 2 pstates + cab: 1 x 2 pstates) = 24 runs
[sweep]
output = out
energy = yes
[trace stencil]
ranks = 4 8
generate = tir-gen-stencil {ranks} 2 {dir}
[trace wave]
ranks = 4 8
generate = tir-gen-wavefront --blocks 2 {ranks} 1 {dir}
[platform flat]
kind = flat
nodes = {ranks}
bw = 10Gbps 1Gbps
speed = 2Gf,1Gf
watts = 100:120:200,90:100:140
[platform cab]
kind = cabinets
nodes = {ranks}
cabinet-size = {ranks // 2}   # one pstate: pstate 1 fails (a recorded failure)
[cfg]
host/pstate = 0 1
SPEC
# 1. an uninterrupted sweep: 20 ok, 4 failed (pstate 1 on cab), exit 1
python3 "$S/tir-sweep" -q -j 2 --replay "$TIR" -o ref test.spec && rc=0 || rc=$?
check "uninterrupted sweep exits 1 (failures)" '[ $rc = 1 ]'
check "CSV has 24 rows + header" '[ $(wc -l < ref/results.csv) = 25 ]'
check "header: every parameter, then the results" \
  '[ "$(head -n 1 ref/results.csv)" = "run,trace,ranks,platform,nodes,bw,speed,watts,host/pstate,cabinet-size,hosts,status,simulated_time,energy,wall_seconds,error" ]'
check "20 ok, 4 failed" '[ $(grep -c ",ok," ref/results.csv) = 20 ] && [ $(grep -c ",failed," ref/results.csv) = 4 ]'
check "failure recorded with its error" 'grep -q "^wave-8-cab-.*,failed,.*pstate 1 does not exist" ref/results.csv'
# stencil, 4 ranks on 4 hosts of 2 Gf, 10Gbps/1us private links: SimGrid 3.32 (simgrid-oracle)
# gives T = 0.10053931548721079 s (2 x 1e8 flops at 2e9 f/s = 0.1 s, plus the halo exchanges
# and allreduces). Energy: each host computes 0.1 s at full load (200 W) and idles T - 0.1 s
# (100 W): 4 x (0.1 x 200 + 0.00053931548721079 x 100) = 80.215726194884 J. At pstate 1
# (1 Gf, 90/140 W): T = 0.20053931548721074 s, 4 x (0.2 x 140 + 0.00053931548721074 x 90)
# = 112.194153575396 J.
while read -r ps wt we; do
  row=$(tsv ref/results.csv | grep '^stencil-4-flat-' | awk -F'\t' -v p="$ps" '$6 == "10Gbps" && $9 == p')
  t=$(printf '%s\n' "$row" | cut -f 13)
  e=$(printf '%s\n' "$row" | cut -f 14)
  check "stencil-4 flat 10Gbps pstate $ps: $wt s (got $t), $we J (got $e)" \
    'awk -v t="$t" -v w="$wt" -v e="$e" -v we="$we" "BEGIN { d = t - w; f = e - we;
       exit !(t != \"\" && d < 1e-12 && d > -1e-12 && e != \"\" && f < 1e-6 && f > -1e-6) }"'
done <<'EOF_WANT'
0 0.10053931548721079 80.215726194884
1 0.20053931548721074 112.194153575396
EOF_WANT
# 2. killed halfway, then resumed
TIR_REPLAY="$tmp/slow-replay" python3 "$S/tir-sweep" -q -j 2 -o run test.spec > /dev/null 2> kill.err &
pid=$!
n=0
while [ "$(ls run/runs/*/result.json 2>/dev/null | wc -l)" -lt 8 ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
kill -TERM $pid
wait $pid && rc=0 || rc=$?
done_before=$(ls run/runs/*/result.json | wc -l)
check "killed sweep exits 130 (got $rc) with $done_before of 24 results" '[ $rc = 130 ] && [ $done_before -lt 24 ]'
sleep 0.5
check "no replay left running" '! pgrep -f "$tmp/run/" > /dev/null'
out=$(TIR_REPLAY="$tmp/slow-replay" python3 "$S/tir-sweep" -j 2 -o run test.spec 2>&1) || true
check "re-run does only the $((24 - done_before)) missing runs" \
  'printf "%s\n" "$out" | grep -q "^tir-sweep: 24 runs, $done_before already done, $((24 - done_before)) to run$"'
ran=$(printf "%s\n" "$out" | grep -c "^tir-sweep: \[") || true
check "re-run replays nothing twice ($ran runs)" '[ $ran = $((24 - done_before)) ] || { printf "%s\n" "$out"; false; }'
check "resumed CSV = uninterrupted CSV (but wall times and error texts)" '[ "$(tsv run/results.csv)" = "$(tsv ref/results.csv)" ]'
out=$(python3 "$S/tir-sweep" --replay "$TIR" -o run test.spec 2>&1) || true
check "third run: nothing to do" 'printf "%s\n" "$out" | grep -q "24 already done, 0 to run"'
out=$(python3 "$S/tir-sweep" collect -o run test.spec 2>&1) || true
check "collect: 20 ok, 4 failed" 'printf "%s\n" "$out" | grep -q "^20 ok, 4 failed, 0 pending"'
# 3. spec errors name the file and the line
printf '[sweep]\nenergy = maybe\n' > bad1.spec
printf '[trace t]\nranks = 4\npath = x\n[platform p]\nkind = flat\nfoo bar\n' > bad2.spec
printf '[trace t]\nranks = 4 x\npath = x\n' > bad3.spec
for c in "bad1.spec:2: expected yes or no" "bad2.spec:6: expected \`[section]\` or \`key = value\`" \
         "bad3.spec:2: ranks: \`x\` is not a positive integer"; do
  f=${c%%:*}
  msg=$(python3 "$S/tir-sweep" -o bad "$f" 2>&1) && rc=0 || rc=$?
  check "spec error ($c): exit $rc" '[ $rc = 2 ] && printf "%s\n" "$msg" | grep -qF "$c"'
done
# 4. the plot
if command -v gnuplot > /dev/null; then
  python3 "$S/tir-plot" ref/results.csv -o plot > /dev/null
  check "tir-plot writes a PNG and an SVG" \
    '[ "$(head -c 4 plot.png | tail -c 3)" = PNG ] && grep -q "<svg" plot.svg'
  check "the SVG's legend names each value once (host/pstate=0 and 1) and both metrics" \
    '[ $(grep -c ">host/pstate=[01]<" plot.svg) = 2 ] && grep -q "energy to solution" plot.svg'
else
  echo "skip tir-plot: no gnuplot"
fi
exit $fail
