#!/bin/sh
# calibrate_cpu.sh - per-region speed factors in tir-replay (host property speed_factor:NAME,
# innermost region wins, checked at start) and tir-calibrate cpu: from a run whose times
# were made on a platform of known speed (2.5 Gf) and region factors (a 1.6, b 0.7), it
# finds them again from a 1 Gf platform (1e-6), and the platform it writes replays to the
# measured time; an impossible time or an unknown region exits 3 with a message.
. "$(dirname "$0")/setup.sh"
CAL="$top_builddir/tir-calibrate"
[ -x "$CAL" ] || skip "$CAL not built"
export TIR_PLATFORM="$top_srcdir/scripts/tir-platform" TIR_REPLAY="$TIR"
cd "$tmp"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
time_of() { sed -n 's/^Simulated time: \([0-9.e+-]*\) s.*/\1/p'; }
# 1. the replay: 1e9 units at 1 Gf outside regions, in solve (x4), in inner nested in
# solve (x0.5): 1 + 1/4 + 1/0.5 + 1/4 + 1 = 4.5 s; without properties 5 s
printf '0 init\n0 compute 1e9\n0 region solve\n0 compute 1e9\n0 region inner\n0 compute 1e9\n0 region_end inner\n0 compute 1e9\n0 region_end solve\n0 compute 1e9\n0 finalize\n' >r.txt
plat() { # host properties...
  printf '<?xml version="1.0"?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n<zone id="z" routing="Full">\n<host id="h" speed="1Gf">%s</host>\n</zone>\n</platform>\n' "$1"
}
plat '<prop id="speed_factor:solve" value="4"/><prop id="speed_factor:inner" value="0.5"/>' >f.xml
plat '' >n.xml
plat '<prop id="speed_factor:solve" value="-2"/>' >bad.xml
[ "$($TIR -q -p f.xml -n 1 r.txt | time_of)" = 4.5 ] || bad "region factors: $($TIR -q -p f.xml -n 1 r.txt)"
[ "$($TIR -q -p n.xml -n 1 r.txt | time_of)" = 5 ] || bad "no factors: $($TIR -q -p n.xml -n 1 r.txt)"
set +e
msg=$($TIR -q -p bad.xml -n 1 r.txt 2>&1)
rc=$?
set -e
[ $rc = 3 ] && echo "$msg" | grep -q 'bad.xml: host h: property speed_factor:solve="-2": expected a positive number' ||
  bad "a negative factor: exit $rc: $msg"
# 2. tir-calibrate cpu: a 2-rank trace with regions a and b, communication and an allreduce
python3 - <<'PY'
for name, outside in (("", "2e6"), ("small-", "1e4")):  # 20 %, 0.1 % of the units outside the regions
    for r in (0, 1):
        acts = []
        for _ in range(20):
            acts += [f"compute {outside}", "region a", "compute 5e6", "region_end a", "region b", "compute 3e6",
                     f"{'send' if r == 0 else 'recv'} {1 - r} 0 100000", "region_end b",
                     f"{'recv' if r == 0 else 'send'} {1 - r} 1 1000", "allreduce 8 0"]
        open(f"{name}rank{r}.txt", "w").write(f"{r} init\n" + "".join(f"{r} {a}\n" for a in acts) + f"{r} finalize\n")
    open(f"{name}index", "w").write(f"{name}rank0.txt\n{name}rank1.txt\n")
PY
"$TIR_PLATFORM" flat --nodes 2 --speed 2.5Gf -o base.xml
sed 's|<cluster \(.*\)/>|<cluster \1><prop id="speed_factor:a" value="1.6"/><prop id="speed_factor:b" value="0.7"/></cluster>|' \
  base.xml >true.xml
"$TIR" -q -p true.xml --report r.json index >true.out
T=$(time_of <true.out)
set -- $(python3 -c 'import json; r = {g["name"]: g["time"] for g in json.load(open("r.json"))["regions"]}; print(repr(r["a"]), repr(r["b"]))')
"$TIR_PLATFORM" flat --nodes 2 --speed 1Gf -o start.xml
"$CAL" cpu index --time "$T" --region-time "a=$1" --region-time "b=$2" -p start.xml -o cpu.xml --tolerance 1e-6 \
  >cpu.out 2>&1 || { cat cpu.out; bad "cpu exited $?"; }
python3 - <<'PY' || fail=1
import re, sys
x = open("cpu.xml").read()
speed = float(re.search(r'speed="([0-9.e+]+)f"', x).group(1))
f = dict((k, float(v)) for k, v in re.findall(r'<prop id="speed_factor:(\w+)" value="([^"]+)"', x))
ok = abs(speed / 2.5e9 - 1) < 1e-5 and abs(f.get("a", 0) / 1.6 - 1) < 1e-5 and abs(f.get("b", 0) / 0.7 - 1) < 1e-5
print(("ok" if ok else "FAIL") + f": speed {speed}, factors {f} (true 2.5e9, a 1.6, b 0.7)")
sys.exit(not ok)
PY
got=$("$TIR" -q -p cpu.xml index | time_of)
awk -v g="$got" -v t="$T" 'BEGIN { d = g / t - 1; exit !(d < 1e-5 && d > -1e-5) }' || bad "cpu.xml replays in $got s, measured $T"
grep -q "<!-- tir-platform: 2 hosts" cpu.xml || bad "cpu.xml lost the host count comment"
# 0.1 % of the computation outside the regions: their speeds are fitted (2.5e9 x 1.6 and
# x 0.7), the outside runs at their mean speed, the total time is only reported
"$TIR" -q -p true.xml --report r2.json small-index >/dev/null
set -- $(python3 -c 'import json; r = json.load(open("r2.json")); g = {x["name"]: x["time"] for x in r["regions"]}; print(repr(r["simulated_time"]), repr(g["a"]), repr(g["b"]))')
"$CAL" cpu small-index --time "$1" --region-time "a=$2" --region-time "b=$3" -p start.xml -o tied.xml --tolerance 1e-6 \
  >tied.out 2>&1 || { cat tied.out; bad "cpu (tied) exited $?"; }
grep -q "below --outside-share 0.1: it runs at the regions' mean speed" tied.out || bad "tied: $(cat tied.out)"
python3 - <<'PY' || fail=1
import re, sys
x = open("tied.xml").read()
speed = float(re.search(r'speed="([0-9.e+]+)f"', x).group(1))
f = dict((k, float(v)) for k, v in re.findall(r'<prop id="speed_factor:(\w+)" value="([^"]+)"', x))
ok = abs(speed * f["a"] / 4e9 - 1) < 1e-5 and abs(speed * f["b"] / 1.75e9 - 1) < 1e-5
print(("ok" if ok else "FAIL") + f": region speeds {speed * f['a']:.6g} and {speed * f['b']:.6g} (true 4e9, 1.75e9)")
sys.exit(not ok)
PY
set +e
msg=$("$CAL" cpu index --time 0.001 -p start.xml 2>&1)
rc=$?
msg2=$("$CAL" cpu index --time "$T" --region-time c=0.01 -p start.xml 2>&1)
rc2=$?
set -e
[ $rc = 3 ] && echo "$msg" | grep -q "even with infinitely fast CPUs" || bad "an impossible time: exit $rc: $msg"
[ $rc2 = 3 ] && echo "$msg2" | grep -q "no region 'c' in the trace (regions: a, b)" || bad "unknown region: exit $rc2: $msg2"
! echo "$msg $msg2" | grep -q Traceback || bad "a traceback"
[ $fail = 0 ] && echo "ok: region speed factors and tir-calibrate cpu"
exit $fail
