/* replay.h - one replay: traces + platform + settings -> simulated time and statistics.
 *
 * The library entry point shared by tir-replay, the tests and bench/. */
#ifndef TIR_REPLAY_H
#define TIR_REPLAY_H

#include "config.h"
#include "net.h"
#include "observer.h"
#include "platform.h"
#include "trace.h"

#include <stdint.h>
#include <stdio.h>

typedef struct replay_opts {
  const char *trace;      /* index file, trace file or directory */
  const char *hostfile;   /* NULL: round robin over the platform's hosts */
  platform *plat;         /* borrowed */
  int np;                 /* 0: from the index, else the hostfile */
  config cfg;             /* settings (platform <config> and --cfg applied) */
  const net_model *model; /* network backend */
  FILE *log;              /* per-action log (-v), or NULL */
  int strict;             /* SimGrid's trace quirks are errors */
  FILE *warn;             /* warnings, or NULL */
  int progress;           /* print progress to stderr (the caller checks it is a terminal) */
  replay_observer *obs;   /* observers (energy, timelines), called in time order */
  int nobs;
  int allow_truncated;    /* a trace cut short (killed run) replays up to where its ranks
                             run out, then stops without a deadlock error */
} replay_opts;

typedef struct replay_rank {
  int host;               /* host index */
  double finish;          /* simulated time at which its trace ended */
  double compute;         /* time in compute and sleep actions */
  double comm;            /* time in send/recv/collective actions */
  double coll;            /* the part of comm in collective actions */
  double wait;            /* time in wait/waitall/test actions */
  uint64_t actions;       /* trace actions executed */
  uint64_t bytes_sent;    /* message bytes sent (point-to-point and collectives) */
} replay_rank;

typedef struct replay_result {
  double simulated_time;  /* SimGrid's "Simulation time": last rank's end - its init */
  int np;
  replay_rank *ranks;     /* np entries (owned: replay_result_free) */
  uint64_t actions;       /* total trace actions */
  uint64_t messages;      /* point-to-point messages, collectives' included */
  double wall_seconds;    /* replayer's own wall time */
  /* allow_truncated: the trace was cut short (truncated = 1): the replay stopped where its
   * ranks ran out, at simulated_time (the date reached, from the earliest init) */
  int truncated;
  int *cut;               /* np flags: the rank's trace was cut (owned; NULL when not truncated) */
  int ncut, nblocked;     /* ranks cut; ranks still blocked when the replay stopped */
  uint64_t unreplayed;    /* actions of the blocked ranks' traces after where they stopped */
} replay_result;

/* Runs the replay. Returns 0, or an exit code of xalloc.h (TIR_EXIT_INPUT for bad
 * input, TIR_EXIT_FAILURE for a deadlock or unmatched messages) with a message in err
 * (a deadlock report may also be printed to opts->warn). */
int replay_run(const replay_opts *o, replay_result *res, char *err, size_t errlen);
void replay_result_free(replay_result *res);

/* The most ranks a replay accepts (-n, a hostfile, an index): 2^22. Memory grows with the
 * ranks even when they are idle (doc/performance.md: a few GB at the limit), and the limit
 * keeps every count of ranks, and count x rank products of the collectives, far from int
 * overflow. */
#define REPLAY_MAX_RANKS TRACE_MAX_FILES

/* Checks every speed_factor:NAME host property of p (a positive finite number: how many
 * times as fast computation runs in code region NAME; rank.c "Region speed"), for the
 * replay and for --validate alike. Returns 1 when p has some, 0 when none, -1 with err. */
int replay_check_region_speed(const platform *p, char *err, size_t errlen);

/* The host properties the replay reads, checked for --validate as the replay checks them:
 * speed_factor:NAME (above) and the per-host smpi/os, smpi/ois, smpi/or overheads (p2p.c).
 * Returns 0, or -1 with err. */
int replay_check_host_props(const platform *p, char *err, size_t errlen);

/* Reads a hostfile (`host`, `host:count` or `host slots=count` per line, '#' comments;
 * replay.c "hosts") into host indices of p, expanded by count up to limit entries (limit
 * <= 0: REPLAY_MAX_RANKS, more is an error). Returns the number of entries or -1 with
 * "FILE:LINE: ..." in err. */
int replay_read_hostfile(const char *path, const platform *p, int limit, int **hosts, char *err, size_t errlen);

#endif
