#!/bin/sh
# crash.sh - a rank that dies leaves a readable trace up to its last complete event, with
# each tracer flavour: closed by the helper thread at a signal (SIGSEGV), by atexit (exit
# without MPI_Finalize), or synced by the helper thread within TIR_FLUSH_INTERVAL (SIGKILL,
# where no handler runs); trace.meta never says complete, and says `aborted` (with the
# reason) when rank 0 itself calls MPI_Abort or exit. (killed.sh: a whole job stopped by
# SIGTERM then SIGKILL.)
. "${top_srcdir:-.}/test/mpi/setup.sh"

crash() {
  use_flavour "$1"
  d=$tmp/$1
  mkdir -p "$d"
  "$MPICC" -O1 -o "$d/crash" "$here/crash.c" || fail "cannot compile crash.c"
  for mode in segv exit kill abort0 exit0; do
    run_np 2 "$tirtrace" -o "$d/$mode" --flush-interval 0.5 -- "$d/crash" "$mode" \
      >"$d/log-$mode" 2>&1 && fail "$mode: the job should have failed"
    r=1
    case $mode in abort0|exit0) r=0 ;; esac
    f=$d/$mode/rank-0000$r.tit.gz
    [ -r "$f" ] || fail "$mode: no trace file for the rank that died"
    if [ "$mode" != kill ]; then
      gzip -t "$f" || fail "$mode: $f is not a complete gzip file"
    fi
    last=$(gzip -dc "$f" 2>/dev/null | grep -v ' compute ' | tail -n 1)
    want="1 send 0 9 4"
    [ $r = 0 ] && want="0 recv 1 9 4"
    [ "$last" = "$want" ] || fail "$mode: last event of rank $r is '$last', not '$want'"
    status=$(meta "$d/$mode" status)
    case $mode:$status in
      abort0:aborted) [ "$(meta "$d/$mode" reason)" = "MPI_Abort (error code 3)" ] || fail "$mode: reason" ;;
      exit0:aborted) [ "$(meta "$d/$mode" reason)" = "exit without MPI_Finalize" ] || fail "$mode: reason" ;;
      abort0:*|exit0:*) fail "$mode: trace.meta says '$status', not aborted" ;;
      *:running|*:killed) ;; # rank 0 was killed by the launcher, with or without a SIGTERM first
      *) fail "$mode: trace.meta says '$status'" ;;
    esac
    echo "ok: $mode: rank $r's trace ends with its last event; trace.meta: status = $status"
  done
}

for f in $flavours; do crash "$f"; done
