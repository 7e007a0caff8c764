#!/bin/sh
# crash.sh - a rank that dies leaves a readable trace up to its last complete event:
# closed by the signal handler (SIGSEGV), by atexit (exit without MPI_Finalize), or synced
# by the flush thread within TIR_FLUSH_INTERVAL (SIGKILL, where no handler runs).
. "${top_srcdir:-.}/test/mpi/setup.sh"
"$MPICC" -O1 -o "$tmp/crash" "$here/crash.c" || fail "cannot compile crash.c"
for mode in segv exit kill; do
  run_np 2 "$tirtrace" -o "$tmp/$mode" --flush-interval 0.5 -- "$tmp/crash" "$mode" \
    >"$tmp/log-$mode" 2>&1 && fail "$mode: the job should have failed"
  f=$tmp/$mode/rank-00001.tit.gz
  [ -r "$f" ] || fail "$mode: no trace file for the rank that died"
  if [ "$mode" != kill ]; then
    gzip -t "$f" || fail "$mode: $f is not a complete gzip file"
  fi
  last=$(gzip -dc "$f" 2>/dev/null | grep -v ' compute ' | tail -n 1)
  [ "$last" = "1 send 0 9 4" ] || fail "$mode: last event of rank 1 is '$last', not '1 send 0 9 4'"
  [ "$(meta "$tmp/$mode" status)" != complete ] || fail "$mode: trace.meta says complete"
  echo "ok: $mode: rank 1's trace ends with its last event"
done
