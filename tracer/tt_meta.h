/* tt_meta.h - the files beside the rank traces: DIR/index and DIR/trace.meta.
 *
 * index: one line per rank, the path of its trace relative to DIR (SimGrid's index format).
 * trace.meta: `key = value` lines telling how the trace was taken (command, np, MPI library,
 * counter source and rate, hosts, dates, tir version), whether it is whole (`status`,
 * `ranks_finished`) and, once MPI_Finalize ran, how many calls were traced, approximated,
 * or could not be expressed. Written by rank 0: at MPI_Init with `status = running`,
 * rewritten when the trace ends early (`killed`, `aborted`: tt_meta_abandon) and at
 * MPI_Finalize (`complete`, or `disk-full` / `write-error` when a rank could not write its
 * trace). doc/tracer.md lists the keys. */
#ifndef TT_META_H
#define TT_META_H

/* how a rank's trace ended, reduced at MPI_Finalize */
enum tt_end {
  TT_END_OK,          /* whole: ends with the rank's finalize line */
  TT_END_DISK_FULL,   /* a write failed with ENOSPC or EDQUOT */
  TT_END_WRITE_ERROR, /* a write failed otherwise */
  TT_END_STOPPED,     /* stopped by a signal the program survived */
  TT_END_N
};

/* Collective (gathers host names). Rank 0 writes DIR/index and trace.meta (running).
 * Returns 0, or -1 with a message printed. */
int tt_meta_start(const char *counter_why, int thread_level);
/* Rank 0 (no-op elsewhere): the trace ended early; status killed or aborted, detail one
 * more `key = value` line or NULL. Any thread but a signal handler; the first call wins. */
void tt_meta_abandon(const char *status, const char *detail);
/* Collective at MPI_Finalize, before any rank writes its finalize line: returns when every
 * rank has reached it (from then on rank 0 counts every rank as finished if killed). */
void tt_meta_finalizing(void);
/* Collective at MPI_Finalize, after this rank closed its file (its end code, its size on
 * disk): rank 0 writes the final trace.meta and reports unexpressed calls on stderr. */
void tt_meta_finish(int end, long long file_bytes);
/* Name of rank r's trace file relative to DIR (static buffer). */
const char *tt_meta_rank_file(int r);

#endif
