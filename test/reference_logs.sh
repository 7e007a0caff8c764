#!/bin/sh
# reference_logs.sh - with -v, tir-replay's per-action log of each reference case equals
# SimGrid's (test/data/reference/simgrid-logs/) rank by rank, on times and durations.
. "$(dirname "$0")/setup.sh"
command -v python3 >/dev/null || skip "python3 is needed to compare logs"
cd "$REF"
pass=0 fail=0
while IFS='	' read -r name np index plat hosts cfg want_t want_e; do
  case "$name" in ''|'#'*) continue ;; esac
  log="simgrid-logs/$name.txt"
  [ -f "$log" ] || log="simgrid-logs/${name}_20.txt"
  [ -f "$log" ] || continue
  set -- -p "$plat" -H "$hosts" -n "$np"
  [ "$cfg" = - ] || set -- "$@" "--cfg=$cfg"
  [ "$want_e" = - ] || set -- "$@" --cfg=plugin:host_energy
  if $TIR -v "$@" "$index" > "$tmp/$name.log" 2>&1 && python3 "$top_srcdir/test/logcmp.py" "$log" "$tmp/$name.log" > "$tmp/$name.diff"; then
    pass=$((pass + 1)); echo "ok    $name"
  else
    fail=$((fail + 1)); echo "FAIL  $name"; head -n 5 "$tmp/$name.diff" "$tmp/$name.log"
  fi
done < cases.tsv
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
