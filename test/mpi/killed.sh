#!/bin/sh
# killed.sh - a job stopped in the middle of its run, with each tracer flavour: its 4 ranks
# get SIGTERM then, 2 s later, SIGKILL (what a batch system does at a time limit: Slurm
# sends SIGTERM to every task, then SIGKILL after KillWait). Every rank file must be a
# whole gzip file (the helper thread closed it at SIGTERM) ending on a complete line after
# many iterations of test/mpi/long.c, and trace.meta must say `status = killed`,
# `signal = SIGTERM`, `ranks_finished = 0`. Then SIGKILL alone (no handler runs): every
# file must still decompress, up to a complete line written within the flush interval,
# and trace.meta keeps `status = running` (nothing could record the end).
. "${top_srcdir:-.}/test/mpi/setup.sh"

# start_job NAME: the 4 ranks of long.c under tir-trace in the background; sets $job, $pids
start_job() {
  mkdir -p "$d/pids-$1"
  run_np 4 "$tirtrace" -o "$d/$1" --flush-interval 0.5 -- "$d/long" "$d/pids-$1" 120 >"$d/log-$1" 2>&1 &
  job=$!
  for i in $(seq 600); do
    [ "$(ls "$d/pids-$1" | wc -l)" = 4 ] && break
    kill -0 "$job" 2>/dev/null || { cat "$d/log-$1"; fail "$1: the job ended before it started"; }
    sleep 0.1
  done
  pids=$(cat "$d/pids-$1"/pid-*)
  [ "$(echo $pids | wc -w)" = 4 ] || fail "$1: the 4 ranks did not start"
  sleep 2 # 2 s of iterations (1.5 ms each)
}

# lines_ok FILE: the decompressible part ends on a complete line and holds iterations
lines_ok() {
  gzip -dc "$1" 2>/dev/null >"$d/lines" || :
  [ "$(tail -c 1 "$d/lines" | od -An -c | tr -d ' ')" = '\n' ] || fail "$1 does not end on a complete line"
  n=$(grep -c ' allreduce 8 0$' "$d/lines") || :
  [ "$n" -ge 20 ] || fail "$1: only $n iterations readable"
  echo "$n"
}

killed() {
  use_flavour "$1"
  d=$tmp/$1
  mkdir -p "$d"
  "$MPICC" -O1 -o "$d/long" "$here/long.c" || fail "cannot compile long.c"

  start_job term
  kill -TERM $pids
  sleep 2
  kill -KILL $pids 2>/dev/null || :
  wait "$job" && fail "term: the job should have failed"
  for r in 0 1 2 3; do
    f=$d/term/rank-0000$r.tit.gz
    gzip -t "$f" || fail "term: $f is not a whole gzip file"
    echo "ok: term: rank $r: a whole gzip file, $(lines_ok "$f") iterations"
  done
  for kv in "status = killed" "signal = SIGTERM" "ranks_finished = 0"; do
    grep -qx "$kv" "$d/term/trace.meta" || { cat "$d/term/trace.meta"; fail "term: trace.meta lacks '$kv'"; }
  done
  grep -q 'rank 0 stopped by SIGTERM' "$d/log-term" || fail "term: no message from rank 0"
  echo "ok: term: trace.meta says status = killed, signal = SIGTERM, ranks_finished = 0"

  start_job kill
  # a rank already gone here ended on its own: show why (seen twice in parallel make check)
  kill -KILL $pids 2>"$d/kill.err" || { cat "$d/kill.err" "$d/log-kill"; fail "kill: a rank ended before SIGKILL"; }
  wait "$job" && fail "kill: the job should have failed"
  for r in 0 1 2 3; do
    f=$d/kill/rank-0000$r.tit.gz
    ! gzip -t "$f" 2>/dev/null || fail "kill: $f has a gzip trailer after SIGKILL?"
    echo "ok: kill: rank $r: no trailer, $(lines_ok "$f") iterations readable"
  done
  [ "$(meta "$d/kill" status)" = running ] || fail "kill: trace.meta says '$(meta "$d/kill" status)'"
  echo "ok: kill: trace.meta keeps status = running"
}

for f in $flavours; do killed "$f"; done
