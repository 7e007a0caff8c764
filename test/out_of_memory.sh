#!/bin/sh
# out_of_memory.sh - running out of memory anywhere ends the run with exit 5 and the one
# message "tir: out of memory", never as bad input ("corrupt gzip data (zlib: out of
# memory)", an XML error) or an I/O error (warnings may come before it), and leaves no
# temporary output behind.
# A capped allocator (failmalloc.c, LD_PRELOAD) makes every allocation from the Nth on
# fail; N sweeps the whole run (each N, or a stride of 4 then each N near the end, where
# the outputs are written) of replays of gzip traces, one with a timeline, a report and a
# power trace, and of --validate. Skipped when the shim cannot be preloaded (ASan builds, non-glibc systems).
. "$(dirname "$0")/setup.sh"
shim="$top_builddir/test/.libs/libfailmalloc.so"
[ -f "$shim" ] || skip "test/.libs/libfailmalloc.so not built"
case "$TIR" in valgrind*) skip "under valgrind (its allocator replaces the shim)" ;; esac
out=$(LD_PRELOAD="$shim" "$TIR" --version 2>&1) && [ -n "$out" ] || skip "the shim cannot be preloaded: $out"
cd "$tmp"
cp "$DATA/energy/energy4.xml" "$DATA/energy/pstate.tit" .
printf 'n\nm\n' > hosts
printf '0 init\n0 compute 1e6\n0 send 1 0 100000\n0 bcast 1000\n' > r0; printf '1 init\n1 recv 0 0 100000\n1 bcast 1000\n' > r1
gzip r0 r1
printf 'r0.gz\nr1.gz\n' > idx
pass=0 fail=0
sweep() { # sweep NAME STRIDE ARGS...: the run under every cap
  name=$1 stride=$2; shift 2
  total=$(TIR_FAIL_COUNT=1 LD_PRELOAD="$shim" "$TIR" -q "$@" 2>&1 >/dev/null | sed -n 's/^allocations: //p')
  [ -n "$total" ] || { fail=$((fail + 1)); echo "FAIL: $name: no allocation count"; return; }
  n=1
  while [ "$n" -le "$total" ]; do
    if TIR_FAIL_AT=$n LD_PRELOAD="$shim" timeout 60 "$TIR" -q "$@" > out.txt 2> err.txt; then rc=0; else rc=$?; fi
    if { [ "$rc" = 5 ] && [ "$(grep -v ': warning: ' err.txt)" = "tir: out of memory" ]; } || [ "$rc" = 0 ]; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL: $name, allocation $n of $total fails: exit $rc:"; head -n 3 err.txt; fi
    if ls ./*.tmp.* >/dev/null 2>&1; then
      fail=$((fail + 1)); echo "FAIL: $name, allocation $n of $total fails: left $(ls ./*.tmp.*)"; rm -f ./*.tmp.*
    fi
    if [ "$n" -lt $((total - 80)) ]; then n=$((n + stride)); else n=$((n + 1)); fi
  done
  echo "$name: $total allocations swept"
}
sweep gzip 1 -n 2 idx # (no platform: few allocations, each one tried: zlib's among them)
sweep replay 4 --energy -p energy4.xml -H hosts --timeline tl.paje --report rep.json --power-trace pw.csv idx
sweep validate 4 --validate -p energy4.xml -H hosts idx
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
