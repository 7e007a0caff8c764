#!/bin/sh
# bad_input.sh - every class of bad input gets one clear message naming the file (and line)
# and a non-zero exit status from tir-replay (3: bad input, 2: usage, 1: replay error).
. "$(dirname "$0")/setup.sh"
cd "$tmp"
pass=0 fail=0
# expect STATUS REGEX ARGS...: tir-replay exits with STATUS and its stderr matches REGEX
expect() {
  want=$1 re=$2; shift 2
  if $TIR -q "$@" > out.txt 2> err.txt; then rc=0; else rc=$?; fi
  if [ "$rc" = "$want" ] && { [ "$want" = 0 ] || grep -Eq "$re" err.txt; }; then pass=$((pass + 1))
  else fail=$((fail + 1)); echo "FAIL: tir-replay $* -> exit $rc (want $want), stderr:"; cat err.txt; fi
}
cp "$REF/small_platform.xml" plat.xml
printf 'Tremblay\nJupiter\n' > hosts
good() { printf '0 init\n0 send 1 0 10\n' > r0.txt; printf '1 init\n1 recv 0 0 10\n' > r1.txt; printf 'r0.txt\nr1.txt\n' > idx; }
good
expect 0 '^$' -p plat.xml -H hosts idx
printf '0 init\n0 sned 1 0 10\n' > r0.txt
expect 3 "r0.txt:2: unknown action 'sned'" -p plat.xml -H hosts idx
good; printf '0 init\n0 send 1 0\n' > r0.txt
expect 3 'r0.txt:2: send needs 3 to 4 arguments' -p plat.xml -H hosts idx
good; printf '0 init\n0 compute 12abc\n0 send 1 0 10\n' > r0.txt
expect 3 'r0.txt:2: .*compute' -p plat.xml -H hosts idx
good; printf '0 init\n0 send 1 0 10 99\n' > r0.txt
expect 3 'r0.txt:2: .*datatype' -p plat.xml -H hosts idx
good; rm r1.txt
expect 3 'r1.txt' -p plat.xml -H hosts idx
good; gzip r1.txt; head -c 20 r1.txt.gz > r1.gz; mv r1.gz r1.txt.gz; printf 'r0.txt\nr1.txt.gz\n' > idx
expect 3 'r1.txt.gz' -p plat.xml -H hosts idx
good; printf '<platform version="4.1"><zone id="z" routing="Full"><host id="a" speed="1Gf">\n</platform>\n' > bad.xml
expect 3 'bad.xml:[0-9]+:[0-9]+' -p bad.xml -n 2 idx
printf 'Tremblay\nNowhere\n' > badhosts
expect 3 'badhosts:2: unknown host .Nowhere.' -p plat.xml -H badhosts idx
printf '<?xml version="1.0"?>\n<platform version="4.1"><zone id="z" routing="Full">\n<host id="a" speed="1Gf"/><host id="b" speed="1Gf"/>\n</zone></platform>\n' > noroute.xml
printf 'a\nb\n' > abhosts
expect 3 "noroute.xml: no route from 'a' to 'b'" -p noroute.xml -H abhosts idx
good; expect 3 'idx.*(fewer|lists)' -p plat.xml -H hosts -n 3 idx
expect 2 'unknown option' --bogus idx
expect 2 "unknown configuration key .smpi/nope." -p plat.xml -H hosts --cfg=smpi/nope:1 idx
expect 2 "smpi/bcast: unknown algorithm .nope." -p plat.xml -H hosts --cfg=smpi/bcast:nope idx
expect 2 "tir/local-solve: .maybe. is not yes, no, class or auto" -p plat.xml -H hosts --cfg=tir/local-solve:maybe idx
expect 2 "tir/rate-tolerance: .-0.1. is not in \\[0, 1\\)" -p plat.xml -H hosts --cfg=tir/rate-tolerance:-0.1 idx
expect 2 "smpi/async-small-thresh: .-1. is negative" -p plat.xml -H hosts --cfg=smpi/async-small-thresh:-1 idx
expect 2 "smpi/send-is-detached-thresh: .99999999999999999999. is out of range" -p plat.xml -H hosts --cfg=smpi/send-is-detached-thresh:99999999999999999999 idx
# a send nobody receives, and a deadlock: the replay fails and says who waits on whom
printf '0 init\n0 send 1 0 10\n' > r0.txt; printf '1 init\n' > r1.txt; printf 'r0.txt\nr1.txt\n' > idx
expect 1 'never matched' -p plat.xml -H hosts idx
printf '0 init\n0 recv 1 0 10\n' > r0.txt; printf '1 init\n1 recv 0 0 10\n' > r1.txt
expect 1 'deadlock.*|rank 0 blocked in .0 recv 1 0 10. \(r0.txt:2\)' -p plat.xml -H hosts idx
grep -q 'rank 1 blocked in .1 recv 0 0 10. (r1.txt:2)' err.txt || { fail=$((fail + 1)); echo "FAIL: deadlock report"; cat err.txt; }
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
