/* tt_meta.h - the files beside the rank traces: DIR/index and DIR/trace.meta.
 *
 * index: one line per rank, the path of its trace relative to DIR (SimGrid's index format).
 * trace.meta: `key = value` lines telling how the trace was taken (command, np, MPI library,
 * counter source and rate, hosts, dates, tir version) and, once MPI_Finalize ran, how many
 * calls were traced, approximated, or could not be expressed. Written by rank 0: at
 * MPI_Init with `status = incomplete`, rewritten at MPI_Finalize with `status = complete`. */
#ifndef TT_META_H
#define TT_META_H

/* Collective (gathers host names). Rank 0 writes DIR/index and the first trace.meta.
 * Returns 0, or -1 with a message printed. */
int tt_meta_start(const char *counter_why, int thread_level);
/* Collective (reduces the call counters). Rank 0 rewrites trace.meta and reports the
 * unexpressed calls on stderr. */
void tt_meta_finish(void);
/* Name of rank r's trace file relative to DIR (static buffer). */
const char *tt_meta_rank_file(int r);

#endif
