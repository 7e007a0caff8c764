#!/bin/sh
# predict.sh - trace a ping-pong and a stencil, replay the traces on test/mpi/cluster4.xml
# (4 hosts of 1 Gflop/s; with the default TIR_RATE of 1e9 one compute unit is one
# nanosecond of measured CPU, so compute replays at the measured speed) and print the
# prediction next to the measured time. Documented, not asserted: this machine is tiny and
# shared, and its network (shared memory) is not the platform's.
# usage: test/mpi/predict.sh [REPLAYER]   REPLAYER: tir-replay (default, if built) or simgrid
. "${top_srcdir:-.}/test/mpi/setup.sh"
replayer=${1:-tir}
for prog in pingpong stencil; do
  "$MPICC" -O2 -o "$tmp/$prog" "$here/$prog.c" || fail "cannot compile $prog.c"
  run_np 4 "$tirtrace" -o "$tmp/$prog.t" --simgrid-compatible --no-compress -- "$tmp/$prog" \
    >"$tmp/$prog.out" 2>&1 || { cat "$tmp/$prog.out"; fail "$prog failed"; }
  measured=$(sed -n 's/^measured_s //p' "$tmp/$prog.out")
  if [ "$replayer" = tir ] && [ -x "$top_builddir/replay/tir-replay" ]; then
    predicted=$("$top_builddir/replay/tir-replay" -p "$here/cluster4.xml" -H "$here/hostfile4" \
      "$tmp/$prog.t/index" | sed -n 's/^Simulated time: \([0-9.e+-]*\).*/\1/p')
  else
    predicted=$(replay_simgrid "$tmp/$prog.t" 4 | sed -n 's/.*Simulated time: \([0-9.e+-]*\).*/\1/p')
  fi
  printf '%-9s measured %10.6f s   predicted %10.6f s\n' "$prog" "$measured" "${predicted:-nan}"
done
