#!/bin/sh
# async_small.sh - smpi/async-small-thresh (SimGrid's eager small mailbox) and per-host
# smpi/os, ois, or properties: random cases replayed by tir-replay and by SimGrid 3.32
# (test/async_small.py; several ranks per host, uneven), then tir-replay's own checks of
# the setting (refused above send-is-detached-thresh, as SimGrid does; bad host properties).
. "$(dirname "$0")/setup.sh"
command -v python3 >/dev/null || skip "python3 is needed to generate the cases"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cd "$tmp"
cat > p.xml <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
<zone id="z" routing="Full">
<host id="a" speed="1Gf"><prop id="smpi/or" value="0:1e-3:0"/></host>
<host id="b" speed="1Gf"><prop id="smpi/os" value="0:2e-3"/></host>
<link id="l" bandwidth="1GBps" latency="0us"/>
<route src="a" dst="b"><link_ctn id="l"/></route>
</zone>
</platform>
XML
printf 'a\nb\n' > hf
printf '0 init\n0 recv 1 0 10\n0 finalize\n' > r0.txt
printf '1 init\n1 send 0 0 10\n1 finalize\n' > r1.txt
printf 'r0.txt\nr1.txt\n' > idx
# by hand: b's os (2 ms) before the send; the transfer of 26 B (10 + 16) over l, used both
# ways (crosstraffic: 1.05), at bw-factor 0.812084 of 1 GB/s, no latency; a's or (1 ms)
# after the receive: 3e-3 + 26 * 1.05 / 0.812084e9 = 0.0030000336172120 s (SimGrid's time).
# The settings' os and or do not apply to hosts with their own.
t=$($TIR -q -p p.xml -H hf -n 2 idx | sed -n 's/^Simulated time: \([0-9.e-]*\) s$/\1/p')
t0=$($TIR -q -p p.xml -H hf -n 2 --cfg=smpi/os:0:0 --cfg=smpi/or:0:5 idx | sed -n 's/^Simulated time: \([0-9.e-]*\) s$/\1/p')
python3 -c "import sys; w = 3e-3 + 26 * 1.05 / 0.812084e9; sys.exit(abs(float(sys.argv[1]) - w) > 1e-11 * w)" "$t" ||
  bad "host os and or: $t s, expected 0.0030000336172120 s"
[ "$t" = "$t0" ] || bad "host properties should win over the settings: $t vs $t0"
# a bad property: exit 3 naming the platform, host and property
sed 's/0:1e-3:0/0:zz/' p.xml > pbad.xml
if $TIR -q -p pbad.xml -H hf -n 2 idx >out 2>&1; then bad "bad smpi/or property accepted"; else
  rc=$?; [ $rc = 3 ] || bad "bad smpi/or property: exit $rc"
  grep -q "pbad.xml: host a: property smpi/or=\"0:zz\"" out || bad "bad property message: $(cat out)"
fi
# above send-is-detached-thresh: refused (SimGrid aborts), exit 2 from --cfg
if $TIR -q -p p.xml -H hf -n 2 --cfg=smpi/async-small-thresh:70000 idx >out 2>&1; then
  bad "async-small-thresh above send-is-detached-thresh accepted"
else
  rc=$?; [ $rc = 2 ] || bad "async above detached: exit $rc"
  grep -q "smpi/async-small-thresh (70000) is above smpi/send-is-detached-thresh (65536)" out || bad "$(cat out)"
fi
[ $fail = 0 ] || exit 1
oracle="$top_srcdir/test/simgrid-oracle"
python3 "$top_srcdir/test/async_small.py" -n "${TIR_ASYNC_CASES:-150}" "$top_builddir/replay/tir-replay" "$oracle"
