#!/bin/sh
# timeline_paje.sh - PajeNG's pj_dump reads tir's Paje timelines without error, and finds
# in them as many MPI states and messages as the CSV timeline has rows (stencil_16, a
# collective case, a window). Skipped when pj_dump (Debian package pajeng) is missing.
. "$(dirname "$0")/setup.sh"
command -v pj_dump >/dev/null || skip "pj_dump not found (apt-get install pajeng)"
cd "$REF"
run() { # name, window ("-" for none), replay arguments
  name=$1 win=$2; shift 2
  w=; [ "$win" = - ] || w="--timeline-window=$win"
  $TIR -q $w --timeline "$tmp/$name.paje" "$@" >/dev/null
  $TIR -q $w --timeline "$tmp/$name.csv" "$@" >/dev/null
  pj_dump "$tmp/$name.paje" > "$tmp/$name.dump" || { echo "FAIL: $name: pj_dump failed"; exit 1; }
  s=$(grep -c '^State, [^,]*, MPI state,' "$tmp/$name.dump") || true
  l=$(grep -c '^Link,' "$tmp/$name.dump") || true
  cs=$(grep -c '^state,' "$tmp/$name.csv") || true
  cl=$(grep -c '^message,' "$tmp/$name.csv") || true
  [ "$s" -eq "$cs" ] && [ "$l" -eq "$cl" ] ||
    { echo "FAIL: $name: pj_dump: $s states, $l links; CSV: $cs states, $cl messages"; exit 1; }
  echo "ok    $name: pj_dump reads it: $s states, $l links"
}
run stencil_16 - -p stencil_16_20/platform.xml -H stencil_16_20/hostfile -n 16 stencil_16_20/index.txt
run stencil_16_window 1.0:1.2 -p stencil_16_20/platform.xml -H stencil_16_20/hostfile -n 16 stencil_16_20/index.txt
run bcast - -p small_platform.xml -H hostfile -n 3 index/bcast
run alltoallv - -p small_platform.xml -H hostfile -n 3 index/alltoallv
