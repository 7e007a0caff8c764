#!/bin/sh
# platform_gen.sh - tir-platform: every kind writes a platform that tir-replay loads and that
# gives SimGrid 3.32's simulated time (and energy) for a small 16-rank trace: golden values
# from smpirun below, and a live comparison when the SimGrid oracle is there. Bad flags exit 2
# with a message naming the flag.
. "$(dirname "$0")/setup.sh"
PLAT="$top_srcdir/scripts/tir-platform"
ORACLE=${SIMGRID_ORACLE:-$top_srcdir/test/simgrid-oracle}
cd "$tmp"
# the trace: compute, a ring of isend/irecv (100 or 200 kB), allreduce, send/recv across
python3 - <<'PY'
n = 16
L = [f"{r} init" for r in range(n)]
L += [f"{r} compute {1e8 * (1 + r % 3)}" for r in range(n)]
for r in range(n):
    L += [f"{r} isend {(r + 1) % n} 0 {100000 * (1 + r % 2)}",
          f"{r} irecv {(r - 1) % n} 0 {100000 * (1 + (r - 1) % 2)}", f"{r} waitall"]
L += [f"{r} allreduce 1000 1e6" for r in range(n)]
L += [f"{r} send {(r + n // 2) % n} 1 3000" for r in range(n)]
L += [f"{r} recv {(r - n // 2) % n} 1 3000" for r in range(n)]
open("tiny.txt", "w").write("\n".join(L) + "\n")
open("index.txt", "w").write("tiny.txt\n")
open("hosts", "w").write("".join(f"node-{r}\n" for r in range(16)))
PY
E="--speed 2Gf,1Gf --watts 95:120:200,93:110:150 --watts-off 10"
fail=0
# kind, flags, SimGrid 3.32's simulated time, total energy (J, - when no energy properties)
while read -r name want_t want_e flags; do
  # shellcheck disable=SC2086
  python3 "$PLAT" $flags -o "$name.xml" || { echo "FAIL $name: tir-platform exited $?"; fail=1; continue; }
  grep -q "<!-- tir-platform: 16 hosts" "$name.xml" || { echo "FAIL $name: no host count comment"; fail=1; }
  set -- -q -p "$name.xml" -n 16
  [ "$want_e" = - ] || set -- "$@" --energy
  out=$($TIR "$@" index.txt 2>&1) || { echo "FAIL $name: tir-replay: $out"; fail=1; continue; }
  got_t=$(printf '%s\n' "$out" | sed -n 's/^Simulated time: *\([0-9.eE+-]*\).*/\1/p')
  got_e=$(printf '%s\n' "$out" | sed -n 's/^Total energy: *\([0-9.eE+-]*\).*/\1/p')
  ok=$(awk -v g="$got_t" -v w="$want_t" -v ge="${got_e:--}" -v we="$want_e" 'BEGIN {
    d = g - w; if (d < 0) d = -d; bad = (g == "" || d > 1e-9 * w)
    if (we != "-") { d = ge - we; if (d < 0) d = -d; bad = bad || ge == "-" || d > 1e-6 * we }
    print bad ? "no" : "yes" }')
  if [ "$ok" = yes ]; then echo "ok   $name: $got_t s ${got_e:+$got_e J}"
  else echo "FAIL $name: got $got_t s ${got_e:-} J, SimGrid $want_t s $want_e J"; fail=1; fi
  if [ -x "$ORACLE" ] && command -v smpirun >/dev/null 2>&1; then
    set -- --platform "$name.xml" --hostfile hosts --np 16
    [ "$want_e" = - ] || set -- "$@" --cfg=plugin:host_energy
    live=$("$ORACLE" "$@" index.txt 2>/dev/null | sed -n 's/^Simulated time: *//p')
    awk -v g="$got_t" -v w="$live" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(w != "" && d <= 1e-6 * w) }' \
      && echo "ok   $name: live SimGrid $live s" || { echo "FAIL $name: live SimGrid says '$live' s"; fail=1; }
  fi
done <<EOF_CASES
flat 0.150803216909 392.810890 flat --nodes 16 $E --limiter 1.5 --loopback-bw 50GBps --bb-bw 100Gbps
flat_xbar 0.150999708286 - flat --nodes 16 --speed 2Gf --bw 1GBps --lat 2us --sharing SHARED
cabinets 0.150818131587 392.833560 cabinets --nodes 16 --cabinets 3 --limiter 1.5 $E
cab_size 0.302450003945 - cabinets --nodes 16 --cabinet-size 5 --cabinet-bw 1Gbps
fattree 0.30132125773 - fattree --nodes 16 --leaf-size 4 --spines 2
fattree_x 0.301321138895 - fattree --down 4,4 --up 1,2 --parallel 1,2 --cores 2
torus 0.301243895104 - torus --nodes 16
dragonfly 0.301336718906 - dragonfly
EOF_CASES
# bad flags: exit 2, and the message names the flag
while IFS='|' read -r want flags; do
  # shellcheck disable=SC2086
  msg=$(python3 "$PLAT" $flags 2>&1 >/dev/null) && rc=0 || rc=$?
  case "$rc:$msg" in
    "2:"*"$want"*) echo "ok   bad flags ($flags): $msg" ;;
    *) echo "FAIL bad flags ($flags): exit $rc, '$msg'"; fail=1 ;;
  esac
done <<'EOF_BAD'
--bw: '10G' is not a bandwidth|flat --nodes 4 --bw 10G
--watts: 1 entries for 2 pstates|flat --nodes 4 --speed 1Gf,2Gf --watts 1:2:3
--leaf-size 16 does not divide --nodes 60|fattree --nodes 60
--nodes N (a positive integer) is required|flat
exactly one of --cabinets C and --cabinet-size K|cabinets --nodes 8
--down 4,4 gives 16 nodes|fattree --nodes 8 --down 4,4
EOF_BAD
exit $fail
