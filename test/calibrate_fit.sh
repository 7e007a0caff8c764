#!/bin/sh
# calibrate_fit.sh - tir-calibrate fit on measurements made from a known model without
# noise: the eager limit, the breakpoints, every overhead and both factors are recovered
# (1e-4 relative), the platform loads in tir-replay; --breaks, --plot; bad input (header,
# numbers, op, too few sizes, directory) exits 3 naming file:line, bad flags exit 2, an
# output that is not a regular file exits 4 and is left alone; never a traceback.
. "$(dirname "$0")/setup.sh"
CAL="$top_builddir/tir-calibrate"
[ -x "$CAL" ] || skip "$CAL not built"
export TIR_PLATFORM="$top_srcdir/scripts/tir-platform" TIR_REPLAY="$TIR"
cd "$tmp"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$CAL" sizes >sizes.txt || bad "tir-calibrate sizes exited $?"
for s in 1 4095 4096 4097 65536 16777216; do grep -qx "$s" sizes.txt || bad "default sizes lack $s"; done
# The model (doc/calibration.md): os, or, ois piecewise on bytes (break at 4096), eager
# limit 8192; one-way = L lf + (bytes + 16) / (B bf) with L = 5 us, B = 1 GB/s and
# (lf, bf) = (1, 0.5) below 4096, (2, 0.8) up to 8192, (5, 1) above.
python3 - <<'PY'
import os
sizes = [int(s) for s in open("sizes.txt")]
os_ = lambda k: 2e-6 + 1e-10 * k if k < 4096 else 3e-6 + 5e-11 * k
or_ = lambda k: 1e-6 + 2e-10 * k if k < 4096 else 4e-6 + 1e-10 * k
ois = lambda k: 5e-7 + 1e-11 * k if k < 8192 else 8e-7
L, B = 5e-6, 1e9
lf_bf = lambda k: (1, 0.5) if k < 4096 else (2, 0.8) if k < 8192 else (5, 1.0)
ow = lambda k: L * lf_bf(k)[0] + (k + 16) / (B * lf_bf(k)[1])
meas = {"send": lambda k: os_(k) if k < 8192 else ow(k), "recv": lambda k: or_(k) if k < 8192 else ow(k),
        "isend": ois, "pingpong": lambda k: 2 * (os_(k) + ow(k) + or_(k)) if k < 8192 else 2 * ow(k)}
os.makedirs("m", exist_ok=True)
with open("m/pingpong.csv", "w") as f:
    f.write("op,bytes,seconds\n")
    for rep in range(3):
        for k in sizes:
            for op, fn in meas.items():
                f.write(f"{op},{k},{fn(k)!r}\n")
PY
"$CAL" fit m -o fit.xml --nodes 4 >fit.out 2>&1 || { cat fit.out; bad "fit exited $?"; }
# every value of the written <config>, against the model (1e-4 relative)
python3 - <<'PY' || fail=1
import re, sys
x = open("fit.xml").read()
cfg = dict(re.findall(r'<prop id="([^"]+)" value="([^"]+)"/>', x))
want = {"smpi/os": "0:2e-06:1e-10;4095:3e-06:5e-11;8191:0:0",
        "smpi/or": "0:1e-06:2e-10;4095:4e-06:1e-10;8191:0:0",
        "smpi/ois": "0:5e-07:1e-11;8191:8e-07:0",
        "smpi/bw-factor": "0:0.5;4111:0.8;8207:1", "smpi/lat-factor": "0:1;4111:2;8207:5",
        "smpi/async-small-thresh": "8192", "smpi/send-is-detached-thresh": "8192"}
bad = 0
for k, v in want.items():
    got = cfg.get(k, "")
    gn, wn = re.split(r"[:;]", got), re.split(r"[:;]", v)
    if len(gn) != len(wn) or any(abs(float(a) - float(b)) > 1e-4 * abs(float(b)) + 1e-15 for a, b in zip(gn, wn)):
        print(f"FAIL: {k} = {got}, expected {v}")
        bad = 1
m = re.search(r'<cluster [^>]*bw="([0-9.e+]+)Bps" lat="([0-9.e+-]+)s"', x)
if not m or abs(float(m.group(1)) / 1e9 - 1) > 1e-4 or abs(float(m.group(2)) / 2.5e-6 - 1) > 1e-4:
    print(f"FAIL: cluster link {m.groups() if m else None}, expected 1e9 Bps and 2.5e-6 s (half the route)")
    bad = 1
if "loopback" in x or "<!-- tir-platform: 4 hosts" not in x:
    print("FAIL: an inter-node fit has no loopback and says its host count")
    bad = 1
sys.exit(bad)
PY
grep -q "eager limit 8192 B" fit.out || bad "the eager limit is not reported: $(head -3 fit.out)"
printf '0 init\n0 send 1 0 1000\n0 finalize\n1 init\n1 recv 0 0 1000\n1 finalize\n' >t.txt
# one message of 1000 B: os + L lf + 1016 / (B bf) + or = 2.1e-6 + 5e-6 + 2.032e-6 + 1.2e-6
out=$($TIR -q -p fit.xml -n 2 t.txt) || bad "tir-replay cannot load the fitted platform: $out"
awk -v o="$out" 'BEGIN { split(o, f, " "); d = f[3] / 1.0332e-05 - 1; exit !(d < 1e-4 && d > -1e-4) }' ||
  bad "one 1000 B message: $out, expected 1.0332e-05 s"
# --breaks: the intervals given (and the eager limit), fitted as given
"$CAL" fit m -o br.xml --breaks 4096 >br.out 2>&1 || bad "fit --breaks exited $?"
grep -q 'smpi/os" value="0:2e-06:1e-10;4095:3e-06:5e-11;8191:0:0"' br.xml || bad "--breaks 4096: $(grep smpi/os br.xml)"
# the measured eager limit is written as smpi/async-small-thresh by default (above: 8192);
# --async-thresh BYTES writes that value, refused above the detached threshold
"$CAL" fit m -o as.xml --async-thresh 0 >/dev/null 2>&1 || bad "fit --async-thresh 0 exited $?"
grep -q 'smpi/async-small-thresh" value="0"' as.xml || bad "--async-thresh 0: $(grep async as.xml)"
if "$CAL" fit m -o as2.xml --async-thresh 9000 >as2.out 2>&1; then bad "--async-thresh 9000 > 8192 accepted"
else rc=$?; [ $rc = 2 ] && grep -q "above smpi/send-is-detached-thresh (8192 B)" as2.out || bad "--async-thresh 9000: exit $rc, $(cat as2.out)"; fi
# --intra-node: the same path on each host's loopback
"$CAL" fit m -o in.xml --intra-node >/dev/null 2>&1 || bad "fit --intra-node exited $?"
python3 -c '
import re, sys
m = re.search(r"loopback_bw=\"([0-9.e+]+)Bps\" loopback_lat=\"([0-9.e+-]+)s\"", open("in.xml").read())
sys.exit(not (m and abs(float(m.group(1)) / 1e9 - 1) < 1e-4 and abs(float(m.group(2)) / 5e-6 - 1) < 1e-4))' ||
  bad "--intra-node: the loopback is not 1e9 Bps and 5e-6 s: $(grep '<cluster' in.xml)"
if command -v gnuplot >/dev/null; then
  "$CAL" fit m -o p.xml --plot p.png >/dev/null 2>&1 || bad "fit --plot exited $?"
  [ "$(head -c 4 p.png | tail -c 3)" = PNG ] || bad "--plot wrote no PNG"
fi
# bad input: exit 3, file:line in one message, no traceback
check() { # expected-exit expected-message-part command...
  want=$1 msg=$2
  shift 2
  set +e
  "$@" >out.txt 2>err.txt
  rc=$?
  set -e
  [ "$rc" = "$want" ] || bad "$* exited $rc, expected $want: $(cat err.txt)"
  grep -qF -- "$msg" err.txt || bad "$*: message '$(cat err.txt)' lacks '$msg'"
  ! grep -q Traceback err.txt out.txt || bad "$*: a traceback"
}
mkdir b1 b2 b3 b4 b5 empty
printf 'op,size,seconds\nsend,1,1e-6\n' >b1/x.csv
check 3 "b1/x.csv:1: expected the header 'op,bytes,seconds'" "$CAL" fit b1 -o o.xml
printf 'op,bytes,seconds\npingpong,1,1e-6\nsend,2,fast\n' >b2/x.csv
check 3 "b2/x.csv:3: seconds 'fast' is not a finite non-negative number" "$CAL" fit b2 -o o.xml
printf 'op,bytes,seconds\npingpong,1,1e-6\nsendrecv,2,1e-6\n' >b3/x.csv
check 3 "b3/x.csv:3: unknown op 'sendrecv' (valid: send, recv, isend, pingpong)" "$CAL" fit b3 -o o.xml
printf 'op,bytes,seconds\npingpong,1.5,1e-6\n' >b4/x.csv
check 3 "b4/x.csv:2: bytes '1.5' is not a non-negative integer" "$CAL" fit b4 -o o.xml
printf 'op,bytes,seconds\npingpong,1,1e-6\npingpong,2,2e-6,3\n' >b5/x.csv
check 3 "b5/x.csv:3: expected 3 fields" "$CAL" fit b5 -o o.xml
check 3 "empty: no *.csv file" "$CAL" fit empty -o o.xml
check 3 "nowhere: no such directory" "$CAL" fit nowhere -o o.xml
check 3 "sizes.txt: not a directory" "$CAL" fit sizes.txt -o o.xml
check 3 "holds 1 measured size" "$CAL" fit m -o o.xml --breaks 2,3
check 2 "--breaks: 'x' is not a comma list" "$CAL" fit m -o o.xml --breaks x
check 2 "argument --nodes: '0' is not a positive int" "$CAL" fit m -o o.xml --nodes 0
mkdir adir
check 4 "adir: cannot write: not a regular file, a character device or a FIFO: not written" "$CAL" fit m -o adir
[ -d adir ] && [ -z "$(ls -A adir)" ] || bad "the directory given as output was touched"
check 4 "cannot write" "$CAL" fit m -o nodir/o.xml
[ -z "$(ls -A . | grep '^\.tir-calibrate')" ] || bad "temporary files left behind"
[ ! -e o.xml ] || bad "a failed fit wrote o.xml"
[ $fail = 0 ] && echo "ok: tir-calibrate fit recovers a known model exactly; bad input is named"
exit $fail
