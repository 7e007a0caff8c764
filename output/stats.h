/* stats.h - statistics of a replay for the report: per rank, per action kind, per region.
 *
 * An observer (observer.h) that adds up what the replay tells: action durations by
 * kind, messages and bytes by sender and receiver, time inside code regions. Memory is
 * O(ranks + regions), whatever the trace length. The report (output.c) reads the
 * fields below directly. */
#ifndef TIR_STATS_H
#define TIR_STATS_H

#include "observer.h"
#include "trace.h"

#include <stddef.h>
#include <stdint.h>

/* What one rank did (seconds of simulated time, counts). */
typedef struct stats_rank {
  double compute;        /* compute and sleep actions */
  double p2p;            /* send, isend, recv, irecv, sendRecv, and the waits of their requests */
  double wait;           /* wait, waitall, test (counted in p2p or coll too) */
  double coll;           /* collective actions (barrier, bcast, ...), waits of non-blocking ones */
  uint64_t msgs_sent, msgs_recv;   /* messages, collectives' own included */
  uint64_t bytes_sent, bytes_recv; /* their payload */
  size_t depth;          /* open regions (stats.c) */
} stats_rank;

/* One action kind, over all ranks. */
typedef struct stats_kind {
  uint64_t calls; /* actions of this kind, summed over ranks */
  double time;    /* their durations, summed over ranks (rank-seconds) */
} stats_kind;

/* One code region, over all ranks (rank-seconds). */
typedef struct stats_region {
  char *name;
  uint64_t entries; /* times a rank entered it */
  double time;      /* inside it (inclusive of nested regions) */
  double compute;   /* compute/sleep actions whose innermost region it is */
  double mpi;       /* communication and wait actions whose innermost region it is */
} stats_region;

/* One collective kind on one communicator, over all its ranks. */
typedef struct stats_coll {
  trace_op op;
  int comm;       /* the trace's communicator id, 0 = MPI_COMM_WORLD */
  int size;       /* its size */
  uint64_t calls; /* summed over ranks */
  double time;    /* rank-seconds */
} stats_coll;

typedef struct stats {
  int np;
  stats_rank *ranks;          /* np entries */
  stats_kind kinds[TRACE_NOPS]; /* by trace_op */
  stats_region *regions;      /* in order of first entry */
  size_t nregions, regions_cap;
  struct stats_open *open;    /* per rank: stacks of open regions (stats.c) */
  stats_coll *colls;          /* collectives per communicator, in order of first call */
  size_t ncolls, colls_cap;
} stats;

stats *stats_new(void);
void stats_free(stats *s);
/* Fills *o with the observer to register in replay_opts.obs. */
void stats_observer(stats *s, replay_observer *o);
/* 1 when op is a collective action (its time counts in stats_rank.coll). */
int stats_is_collective(trace_op op);

#endif
