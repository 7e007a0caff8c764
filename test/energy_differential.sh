#!/bin/sh
# energy_differential.sh - tir-replay's host energy against SimGrid 3.32's host_energy
# plugin on random cases: multi-core hosts (1 to 8 cores), several ranks per host (up to
# more ranks than cores), several pstates (the host's `pstate` attribute: SimGrid has no
# host/pstate key), hosts without any rank, hosts without wattage_per_state, 2- and
# 3-value wattage entries; traces mixing compute, sleep, point-to-point (blocking and
# not) and collectives with computation. Per-host and total energy must agree within
# 1e-6 relative (SimGrid prints 6 decimals: 5e-7 J absolute on top).
#
# usage: energy_differential.sh [NCASES [FIRST_SEED]]    (default 24 cases, seed 1)
# env:   TIR_ORACLE  the simgrid-oracle script (default: test/simgrid-oracle, a copy of
#                    the shared oracle)
#        KEEP=DIR    keep the generated cases in DIR
# Exits 77 (skipped) when SimGrid 3.32 (smpirun, smpireplaymain) is absent.
. "$(dirname "$0")/setup.sh"
ncases=${1:-24}
seed0=${2:-1}
oracle=${TIR_ORACLE:-}
for o in "$top_srcdir/test/simgrid-oracle"; do
  [ -n "$oracle" ] || { [ -x "$o" ] && oracle=$o; }
done
[ -n "$oracle" ] && [ -x "$oracle" ] || skip "no simgrid-oracle (set TIR_ORACLE)"
command -v smpirun >/dev/null 2>&1 || skip "SimGrid's smpirun is not installed"
[ -x /usr/lib/x86_64-linux-gnu/simgrid/smpireplaymain ] || skip "SimGrid's smpireplaymain is not installed"
work=$tmp
[ -z "${KEEP:-}" ] || { mkdir -p "$KEEP"; work=$KEEP; }

# gen SEED DIR: writes DIR/platform.xml, DIR/hostfile, DIR/trace, DIR/index, DIR/np
gen() {
  mkdir -p "$2"
  awk -v seed="$1" -v dir="$2" '
  function ri(a, b) { return a + int(rand() * (b - a + 1)) }
  function rf(a, b) { return a + rand() * (b - a) }
  function host(i,   np, k, sp, w, idle, eps, mx, ps) {
    np = ri(1, 3); sp = ""; w = ""
    for (k = 0; k < np; k++) {
      sp = sp (k ? "," : "") sprintf("%.0fMf", base[i] * (1 - 0.3 * k))
      idle = rf(60, 120); eps = idle + rf(-10, 25); mx = eps + rf(20, 150) * (1 - 0.2 * k)
      w = w (k ? ", " : "") (rand() < 0.2 ? sprintf("%.3f:%.3f", idle, mx) : sprintf("%.3f:%.3f:%.3f", idle, eps, mx))
    }
    ps = ri(0, np - 1)
    printf "    <host id=\"h%d\" speed=\"%s\" core=\"%d\" pstate=\"%d\">\n", i, sp, cores[i], ps > plat
    if (rand() < 0.9)
      printf "      <prop id=\"wattage_per_state\" value=\"%s\"/>\n", w > plat
    printf "      <prop id=\"wattage_off\" value=\"10\"/>\n    </host>\n" > plat
  }
  function act(r, s) { print r " " s > trace }
  function phase(p, n,   kind, r, sz) {
    kind = ri(1, 8)
    for (r = 0; r < n; r++) {
      if (kind == 1) act(r, sprintf("compute %.0f", rf(1e8, 3e9)))
      else if (kind == 2) { if (rand() < 0.5) act(r, sprintf("sleep %.3f", rf(0.1, 1))); else act(r, sprintf("compute %.0f", rf(1e8, 1e9))) }
      else if (kind == 3) { sz[r] = ri(1000, 5000000) }
      else if (kind == 4) act(r, sprintf("allreduce %d %.0f", 100000, 5e8))
      else if (kind == 5) act(r, "bcast 200000")
      else if (kind == 6) act(r, "barrier")
      else if (kind == 7) act(r, sprintf("reduce %d %.0f 0", 50000, 2e8))
      else if (kind == 8) act(r, sprintf("compute %.0f", (r % 2 ? 4e8 : 1.5e9)))
    }
    if (kind == 3 && n > 1)
      for (r = 0; r < n; r++) {
        act(r, sprintf("isend %d %d %d", (r + 1) % n, p, sz[r]))
        act(r, sprintf("irecv %d %d %d", (r + n - 1) % n, p, sz[(r + n - 1) % n]))
        act(r, "waitall")
      }
    if (kind == 8 && n > 1)
      for (r = 0; r + 1 < n; r += 2) { act(r, sprintf("send %d %d 2000000", r + 1, p)); act(r + 1, sprintf("recv %d %d 2000000", r, p)) }
  }
  BEGIN {
    srand(seed); plat = dir "/platform.xml"; trace = dir "/trace"
    nh = ri(2, 5); n = ri(2, 8)
    print "<?xml version=\"1.0\"?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">" > plat
    print "<platform version=\"4.1\">\n  <zone id=\"z\" routing=\"Full\">" > plat
    for (i = 0; i < nh; i++) { base[i] = 500 * ri(1, 4); c = ri(0, 3); cores[i] = c == 0 ? 1 : c == 1 ? 2 : c == 2 ? 4 : 8; host(i) }
    for (i = 0; i < nh; i++)
      printf "    <link id=\"l%d\" bandwidth=\"%dMBps\" latency=\"%dus\"/>\n", i, ri(10, 200), ri(1, 100) > plat
    for (i = 0; i < nh; i++) for (j = i + 1; j < nh; j++)
      printf "    <route src=\"h%d\" dst=\"h%d\"><link_ctn id=\"l%d\"/><link_ctn id=\"l%d\"/></route>\n", i, j, i, j > plat
    print "  </zone>\n</platform>" > plat
    nused = rand() < 0.7 ? ri(1, nh - 1) : nh
    for (r = 0; r < n; r++) print "h" ri(0, nused - 1) > (dir "/hostfile")
    for (r = 0; r < n; r++) act(r, "init")
    np = ri(3, 7)
    for (p = 0; p < np; p++) phase(p, n)
    for (r = 0; r < n; r++) act(r, "finalize")
    print n > (dir "/np"); print "trace" > (dir "/index")
  }'
}

# energies FILE: "host joules" lines and "TOTAL joules" from a summary
energies() {
  sed -n -e 's/^Energy of host \([^:]*\): *\([0-9.eE+-]*\) J.*/\1 \2/p' \
    -e 's/^Total energy: *\([0-9.eE+-]*\) J.*/TOTAL \1/p' "$1" | sort
}

pass=0 fail=0
i=0
while [ "$i" -lt "$ncases" ]; do
  seed=$((seed0 + i)); i=$((i + 1))
  d="$work/case$seed"
  gen "$seed" "$d"
  np=$(cat "$d/np")
  if ! (cd "$d" && "$oracle" --platform platform.xml --hostfile hostfile --np "$np" \
        --cfg=plugin:host_energy index > sg.out 2> sg.err); then
    fail=$((fail + 1)); echo "FAIL  seed $seed: SimGrid failed"; tail -n 3 "$d/sg.err"; continue
  fi
  if ! (cd "$d" && $TIR -q -p platform.xml -H hostfile -n "$np" --energy index > tir.out 2> tir.err); then
    fail=$((fail + 1)); echo "FAIL  seed $seed: tir-replay failed"; tail -n 3 "$d/tir.err"; continue
  fi
  energies "$d/sg.out" > "$d/sg.e"; energies "$d/tir.out" > "$d/tir.e"
  verdict=$(join -a 1 -a 2 -e MISSING -o 0,1.2,2.2 "$d/sg.e" "$d/tir.e" | awk '
    { n++; if ($2 == "MISSING" || $3 == "MISSING") { print $1 ": missing"; bad = 1; next }
      d = $2 - $3; if (d < 0) d = -d; if (d > 1e-6 * ($2 < 0 ? -$2 : $2) && d > 5e-7) { print $1 ": SimGrid " $2 " J, tir " $3 " J"; bad = 1 } }
    END { if (n < 2) print "no energy lines"; else if (!bad) print "ok" }')
  if [ "$verdict" = ok ]; then
    pass=$((pass + 1)); echo "ok    seed $seed ($np ranks, $(grep -c '<host ' "$d/platform.xml") hosts)"
  else
    fail=$((fail + 1)); echo "FAIL  seed $seed: $(echo "$verdict" | head -n 3 | tr '\n' ';')"
    grep '^Simulated' "$d/sg.out" "$d/tir.out"
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
