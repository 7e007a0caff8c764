#!/bin/sh
# calibrate_power.sh - tir-calibrate power recovers known wattages (idle, epsilon, all cores,
# polling; two pstates, 12 cores) from a synthetic power log with 1 W of Gaussian noise,
# samples straddling each change of state and 5 outliers of +50 W; writes them on every
# host of a platform that tir-replay --energy then loads; bad logs exit 3 naming file:line.
. "$(dirname "$0")/setup.sh"
CAL="$top_builddir/tir-calibrate"
[ -x "$CAL" ] || skip "$CAL not built"
export TIR_PLATFORM="$top_srcdir/scripts/tir-platform"
cd "$tmp"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
python3 - <<'PY'
import random
rng = random.Random(3)
c = 12
W = {0: (110.0, 92.0, 214.0, 188.0), 1: (100.0, 85.0, 170.0, 150.0)}  # idle, epsilon, all cores, polling
def power(k, n, q):
    i, e, a, p = W[k]
    return i if n == q == 0 else e + n / c * (a - e) + q / c * (p - e)
rows, t, prev = [], 0.0, None
for k in (0, 1):
    for n, q in ((0, 0), (1, 0), (6, 0), (12, 0), (0, 12), (4, 8), (0, 0)):
        for i in range(30):
            w = power(k, n, q) + rng.gauss(0, 1.0)
            if i == 0 and prev:  # the meter's sample straddles the change
                w = (w + power(*prev)) / 2
            rows.append((t, w, k, n, q))
            t += 1.0
        prev = (k, n, q)
for j in rng.sample(range(len(rows)), 5):
    rows[j] = (rows[j][0], rows[j][1] + 50) + rows[j][2:]
with open("log.csv", "w") as f:
    f.write("timestamp,watts,pstate,busy_cores,polling_cores\n")
    f.writelines(f"{t:.1f},{w:.3f},{k},{n},{q}\n" for t, w, k, n, q in rows)
PY
"$TIR_PLATFORM" flat --nodes 2 --cores 12 --speed 2.3Gf,1.2Gf -o base.xml
"$CAL" power log.csv --settle 1 -p base.xml -o out.xml >power.out 2>&1 || { cat power.out; bad "power exited $?"; }
python3 - <<'PY' || fail=1
import re, sys
x = open("power.out").read()
per = re.search(r'wattage_per_state" value="([^"]+)"', x)
pol = re.search(r'wattage_polling" value="([^"]+)"', x)
got = [[float(v) for v in e.split(":")] for e in per.group(1).split(",")] if per else []
got_p = [float(v) for v in pol.group(1).split(",")] if pol else []
want = [[110, 92, 214], [100, 85, 170]]
ok = len(got) == 2 and all(abs(g - w) <= 1.0 for gs, ws in zip(got, want) for g, w in zip(gs, ws))
ok = ok and len(got_p) == 2 and abs(got_p[0] - 188) <= 1.0 and abs(got_p[1] - 150) <= 1.0
print(("ok" if ok else "FAIL") + f": recovered {got} polling {got_p}, true {want} polling [188, 150] (1 W)")
sys.exit(not ok)
PY
grep -q "14 within --settle 1 s" power.out || bad "--settle should leave out the 14 rows at a change: $(head -1 power.out)"
[ "$(grep -c 'wattage_per_state' out.xml)" = 1 ] && grep -q wattage_polling out.xml || bad "out.xml lacks the properties"
grep -q "<!-- tir-platform: 2 hosts" out.xml || bad "out.xml lost tir-platform's host count comment"
printf '0 init\n0 compute 2.3e9\n0 finalize\n' >c.txt
out=$("$TIR" -q --energy -p out.xml -n 1 c.txt) || bad "tir-replay --energy cannot load out.xml: $out"
# 1 s: host 0 computes on 1 of its 12 cores, Epsilon + (AllCores - Epsilon) / 12; host 1 idles
python3 - "$out" <<'PY' || fail=1
import re, sys
i, e, a = (float(v) for v in re.search(r'wattage_per_state" value="([^",]+)', open("out.xml").read()).group(1).split(":"))
got = float(re.search(r"Total energy: ([0-9.e+-]+)", sys.argv[1]).group(1))
want = e + (a - e) / 12 + i
print(("ok" if abs(got - want) <= 1e-6 * want else "FAIL") + f": energy on out.xml {got} J, expected {want} J")
sys.exit(abs(got - want) > 1e-6 * want)
PY
check() { # expected-exit expected-message-part command...
  want=$1 msg=$2
  shift 2
  set +e
  "$@" >o.txt 2>e.txt
  rc=$?
  set -e
  [ "$rc" = "$want" ] || bad "$* exited $rc, expected $want: $(cat e.txt)"
  grep -qF -- "$msg" e.txt || bad "$*: message '$(cat e.txt)' lacks '$msg'"
  ! grep -q Traceback e.txt o.txt || bad "$*: a traceback"
}
printf 'time,watts,pstate,busy_cores\n0,100,0,0\n' >h.csv
check 3 "h.csv:1: expected the header 'timestamp,watts,pstate,busy_cores[,polling_cores]'" "$CAL" power h.csv
printf 'timestamp,watts,pstate,busy_cores\n0,100,0,0\n1,lots,0,1\n' >n.csv
check 3 "n.csv:3: timestamp and watts must be finite numbers" "$CAL" power n.csv
printf 'timestamp,watts,pstate,busy_cores\n0,100,0,0\n1,120,0,-1\n' >i.csv
check 3 "i.csv:3: pstate, busy_cores must be non-negative integers" "$CAL" power i.csv
printf 'timestamp,watts,pstate,busy_cores\n5,100,0,0\n1,120,0,1\n' >t.csv
check 3 "t.csv:3: timestamp 1 is before the previous row's 5" "$CAL" power t.csv
printf 'timestamp,watts,pstate,busy_cores\n0,100,0,0\n1,120,0,2\n2,100,2,0\n3,130,2,2\n' >p.csv
check 3 "p.csv: no measurement of pstate 1" "$CAL" power p.csv
printf 'timestamp,watts,pstate,busy_cores\n0,120,0,2\n1,130,0,4\n' >z.csv
check 3 "z.csv: pstate 0: no idle row" "$CAL" power z.csv
check 3 "nothere.csv: cannot read" "$CAL" power nothere.csv
check 2 "-p PLATFORM and -o OUT go together" "$CAL" power log.csv -p base.xml
mkdir d
check 4 "d: cannot write: not a regular file, a character device or a FIFO" "$CAL" power log.csv -p base.xml -o d
[ $fail = 0 ] && echo "ok: tir-calibrate power"
exit $fail
