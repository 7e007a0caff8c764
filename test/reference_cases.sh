#!/bin/sh
# reference_cases.sh - every case of test/data/reference/cases.tsv (SimGrid 3.32's exact
# clocks) validated by tir-replay --validate, then replayed: simulated time within 1e-6
# relative (and 5e-7 s absolute for the 6-decimal values), total energy too where the case
# has one.
. "$(dirname "$0")/setup.sh"
cd "$REF"
pass=0 fail=0
while IFS='	' read -r name np index plat hosts cfg want_t want_e; do
  case "$name" in ''|'#'*) continue ;; esac
  set -- -p "$plat" -H "$hosts" -n "$np"
  [ "$cfg" = - ] || set -- "$@" "--cfg=$cfg"
  [ "$want_e" = - ] || set -- "$@" --cfg=plugin:host_energy
  if ! $TIR --validate "$@" "$index" > "$tmp/validate.out" 2>&1; then
    fail=$((fail + 1)); echo "FAIL  $name: --validate"; tail -n 5 "$tmp/validate.out"; continue
  fi
  out=$($TIR -q "$@" "$index" 2>&1) && rc=0 || rc=$?
  got_t=$(printf '%s\n' "$out" | sed -n 's/^Simulated time: *\([0-9.eE+-]*\).*/\1/p' | head -n 1)
  got_e=$(printf '%s\n' "$out" | sed -n 's/^Total energy: *\([0-9.eE+-]*\).*/\1/p' | head -n 1)
  verdict=$(awk -v g="$got_t" -v w="$want_t" -v ge="$got_e" -v we="$want_e" -v rc="$rc" 'BEGIN {
    if (rc != 0 || g == "") { print "exit " rc ", no simulated time"; exit }
    d = g - w; if (d < 0) d = -d; if (d > 1e-6 * w && d > 5e-7) { printf "time %s, SimGrid %s\n", g, w; exit }
    if (we != "-") { if (ge == "") { print "no total energy"; exit }
      de = ge - we; if (de < 0) de = -de; if (de > 1e-6 * we && de > 5e-7) { printf "energy %s J, SimGrid %s J\n", ge, we; exit } }
    print "ok" }')
  if [ "$verdict" = ok ]; then pass=$((pass + 1)); echo "ok    $name"
  else fail=$((fail + 1)); echo "FAIL  $name: $verdict"; printf '%s\n' "$out" | tail -n 5; fi
done < cases.tsv
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
