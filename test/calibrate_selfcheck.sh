#!/bin/sh
# calibrate_selfcheck.sh - tir-calibrate fit against a known platform (test/calibrate_synth.py):
# the four benchmark measurements are replays on a platform with known piecewise overheads
# and factors, plus 2 % noise and 1 % outliers; the fitted platform must predict a
# communication-bound 16-rank trace within 3 % of the true platform, which SimGrid's
# default factors miss by 20 % or more (so the test can fail).
. "$(dirname "$0")/setup.sh"
CAL="$top_builddir/tir-calibrate"
[ -x "$CAL" ] || skip "$CAL not built"
export TIR_PLATFORM="$top_srcdir/scripts/tir-platform"
python3 "$top_srcdir/test/calibrate_synth.py" "$top_builddir/replay/tir-replay" "$CAL" "$tmp" || exit 1
# the fitted platform is plain SimGrid: SimGrid 3.32 gives tir's time on it (1e-6)
ORACLE=${SIMGRID_ORACLE:-$top_srcdir/test/simgrid-oracle}
if command -v smpirun >/dev/null && [ -x "$ORACLE" ]; then
  for i in $(seq 0 15); do echo "node-$i"; done >"$tmp/hosts16"
  tir=$("$top_builddir/replay/tir-replay" -q -p "$tmp/fitted.xml" -H "$tmp/hosts16" "$tmp/app16/index" | sed -n 's/^Simulated time: \([0-9.e+-]*\).*/\1/p')
  sg=$(cd "$tmp/app16" && "$ORACLE" --platform "$tmp/fitted.xml" --hostfile "$tmp/hosts16" index | sed -n 's/^Simulated time: \([0-9.e+-]*\).*/\1/p')
  awk -v a="$tir" -v b="$sg" 'BEGIN { d = a / b - 1; exit !(b > 0 && d < 1e-6 && d > -1e-6) }' ||
    { echo "FAIL: on the fitted platform tir gives $tir s, SimGrid 3.32 $sg s"; exit 1; }
  echo "ok: SimGrid 3.32 gives tir's time on the fitted platform ($sg s)"
else
  echo "note: SimGrid 3.32 not installed: the fitted platform was not replayed by SimGrid"
fi
