#!/bin/sh
# trace_dir.sh - the trace directory, with each tracer flavour (test/mpi/long.c, 1 s):
# - a full disk: rank 1's file is /dev/full (every write fails with ENOSPC): the run goes on
#   and ends normally, rank 1 says once that it cannot write, rank 0 says the trace is
#   incomplete, trace.meta says status = disk-full, ranks_finished = 3, ranks_write_failed = 1,
#   and the other ranks' files are whole;
# - re-tracing into a directory that holds a trace of more ranks: the extra rank files are
#   removed (and said so), as are those of the other compression;
# - a directory that cannot be made: the job stops with one message that says so.
. "${top_srcdir:-.}/test/mpi/setup.sh"

# trace NAME NP [OPTIONS]: run long.c for 1 s under tir-trace -o $d/NAME
trace() {
  name=$1 np=$2; shift 2
  mkdir -p "$d/pids"
  run_np "$np" "$tirtrace" -o "$d/$name" "$@" -- "$d/long" "$d/pids" 1 >"$d/log-$(basename "$name")" 2>&1
}

disk_full() {
  mkdir -p "$d/full"
  ln -s /dev/full "$d/full/rank-00001.tit.gz"
  trace full 4 || { cat "$d/log-full"; fail "full: the program should end normally"; }
  n=$(grep -c 'libtirtrace (rank 1): cannot write its trace .*No space left on device' "$d/log-full") || :
  [ "$n" = 1 ] || { cat "$d/log-full"; fail "full: $n messages from rank 1, not one"; }
  grep -q 'libtirtrace: the trace in .* is INCOMPLETE (status = disk-full): 3 of 4 ranks' "$d/log-full" ||
    { cat "$d/log-full"; fail "full: rank 0 does not say the trace is incomplete"; }
  for kv in "status = disk-full" "ranks_finished = 3" "ranks_write_failed = 1"; do
    grep -qx "$kv" "$d/full/trace.meta" || { cat "$d/full/trace.meta"; fail "full: trace.meta lacks '$kv'"; }
  done
  for r in 0 2 3; do
    gzip -t "$d/full/rank-0000$r.tit.gz" || fail "full: rank $r's file is not whole"
    [ "$(gzip -dc "$d/full/rank-0000$r.tit.gz" | tail -n 1)" = "$r finalize" ] || fail "full: rank $r does not end with finalize"
  done
  echo "ok: full disk: rank 1 reported once, trace.meta: status = disk-full, ranks_finished = 3, ranks_write_failed = 1"
}

stale() {
  trace again 4 || fail "again: 4 ranks"
  trace again 2 || { cat "$d/log-again"; fail "again: 2 ranks"; }
  [ "$(cd "$d/again" && ls | tr '\n' ' ')" = "index rank-00000.tit.gz rank-00001.tit.gz trace.meta " ] ||
    fail "again: $(cd "$d/again" && ls | tr '\n' ' '): the rank files of the 4-rank run are left"
  grep -q 'held a trace of more ranks: removed its 2 rank files of ranks 2-3' "$d/log-again" ||
    { cat "$d/log-again"; fail "again: the removal is not said"; }
  trace again 2 --no-compress || fail "again: 2 ranks, --no-compress"
  [ "$(cd "$d/again" && ls | tr '\n' ' ')" = "index rank-00000.tit rank-00001.tit trace.meta " ] ||
    fail "again: $(cd "$d/again" && ls | tr '\n' ' '): the compressed files are left"
  [ "$(meta "$d/again" np)" = 2 ] && [ "$(meta "$d/again" status)" = complete ] || fail "again: trace.meta"
  echo "ok: re-traced with fewer ranks: the earlier run's rank files are gone, and said so"
}

no_dir() {
  : >"$d/afile"
  trace afile/sub 2 && fail "no dir: the job should have stopped"
  n=$(grep -c 'libtirtrace: cannot create the trace directory .*afile/sub .*Not a directory.*the tracer stops the program' "$d/log-sub") || :
  [ "$n" = 1 ] || { cat "$d/log-sub"; fail "no dir: $n messages, not one"; }
  ! grep -q -i 'segmentation\|signal 11' "$d/log-sub" || fail "no dir: crashed"
  echo "ok: a directory that cannot be made stops the job with one message"
}

for f in $flavours; do
  use_flavour "$f"
  d=$tmp/$f
  mkdir -p "$d"
  "$MPICC" -O1 -o "$d/long" "$here/long.c" || fail "cannot compile long.c"
  disk_full
  stale
  no_dir
done
