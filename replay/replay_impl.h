/* replay_impl.h - state shared by the replay driver (replay.c) and the ranks (rank.c). */
#ifndef TIR_REPLAY_IMPL_H
#define TIR_REPLAY_IMPL_H

#include "comm.h"
#include "rank.h"
#include "rma.h"
#include "trace_meta.h"

struct replay_ctx {
  const replay_opts *o;
  eng *e;
  const double *now;   /* the engine's clock (eng_clock): read inline, once per action */
  p2p_world *w;
  rma_world *rma;     /* windows and one-sided operations */
  trace_set *t;
  rank *ranks;
  int np;
  int *host_of;       /* rank -> host */
  int sgc;            /* tir/simgrid-compat: SimGrid's actor scheduling (rank.c, sg_yield) */
  uint64_t sg_clock;  /* its stamps of wait registrations */
  int smp_published;  /* rank 0 has built MPI_COMM_WORLD's SMP view: other ranks' is_blocked()
                         reads give the real value from then on (coll_smp.c) */
  int *runq;          /* ring buffer of ranks ready to run (capacity np + 1) */
  size_t qhead, qtail;
  int ndone;          /* ranks whose replay ended */
  int dt_default;     /* MPI_DEFAULT_TYPE's size: set by init (1: BYTE, 8: DOUBLE) */
  int test_nsleeps;   /* SimGrid's process-wide MPI_Test sleep multiplier */
  int iprobe_nsleeps; /* and MPI_Iprobe's */
  int npolling;       /* ranks polling in a probe loop after a failed probe (rank.polling) */
  uint64_t sends_posted; /* sends posted so far: a poller's probe can only change after one */
  int no_recv_ov;     /* smpi/or is 0 for every size: finishing a request never sleeps */
  int sel;            /* collective selector index */
  comm_reg *comms;    /* communicators (world + tir's extension) */
  int *scratch;       /* np ints: communicator creations, per-communicator host maps */
  int failed;         /* a fatal error happened: err holds it, fail_code its exit code */
  int fail_code;
  char err[2048];
  double last_end;    /* simulated time of the last rank's end */
  double last_origin; /* that rank's timer origin (its init) */
  replay_rank *res_ranks; /* per-rank statistics (the result's array) */
  trace_meta meta;    /* what the trace's trace.meta says (incomplete run?) */
  int stopped;        /* allow_truncated: the replay stopped with ranks blocked */
  int region_speed;   /* some host has speed_factor:NAME properties (rank.c, "Region speed") */
};

void replay_enqueue(replay_ctx *x, int rank);
/* Tell the observers (no-ops without observers: the inline test saves the call on every
 * action and activity change of an unobserved replay). */
void replay_note_activity_obs(replay_ctx *x, int rank, obs_activity act);
void replay_note_region(replay_ctx *x, int rank, const char *name);
void replay_note_action_obs(replay_ctx *x, rank *r, int begin);
static inline void replay_note_activity(replay_ctx *x, int rank, obs_activity act) {
  if (x->o->nobs)
    replay_note_activity_obs(x, rank, act);
}
static inline void replay_note_action(replay_ctx *x, rank *r, int begin) {
  if (x->o->nobs)
    replay_note_action_obs(x, r, begin);
}
/* Stops the replay with a bad-input error (exit 3) / a replay error (exit 1). */
void replay_fail(replay_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void replay_fail_run(replay_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
