/* observer.h - what a replay tells the modules that watch it (energy, timelines, reports).
 *
 * The replay calls every registered observer at each event below, in simulated-time
 * order (times never decrease). Observers only watch: they never change the replay.
 * Activities: what a rank's core is doing between two events, as the energy model and
 * the timelines need it:
 *   OBS_COMPUTE  executing (compute actions, the computation of reduce-like actions);
 *   OBS_MPI      blocked inside MPI: waiting for requests, or in an overhead MPI injects
 *                (smpi/os, smpi/or, MPI_Test sleeps, MPI_Iprobe loops);
 *   OBS_SLEEP    a trace `sleep` (not a CPU load);
 *   OBS_IDLE     running between events (zero time) or finished. */
#ifndef TIR_OBSERVER_H
#define TIR_OBSERVER_H

#include <stdint.h>

/* The action being replayed (trace/trace.h); observers that read it include that header. */
typedef struct trace_action trace_action;

typedef enum { OBS_IDLE, OBS_COMPUTE, OBS_MPI, OBS_SLEEP } obs_activity;

typedef struct replay_observer {
  void *ctx;
  /* The replay starts: np ranks, rank i on host host_of[i]. */
  void (*start)(void *ctx, int np, const int *host_of);
  /* Rank `rank` starts executing action a (its strings are valid during the call). */
  void (*action_begin)(void *ctx, int rank, const trace_action *a, double now);
  /* ...and ends it; category: 0 compute/sleep, 1 communication, 2 wait, -1 bookkeeping. */
  void (*action_end)(void *ctx, int rank, const trace_action *a, int category, double start, double now);
  /* The rank's core activity changes at now. */
  void (*activity)(void *ctx, int rank, obs_activity act, double now);
  /* The rank enters (name != NULL) or leaves (name == NULL) a code region. */
  void (*region)(void *ctx, int rank, const char *name, double now);
  /* A point-to-point message (collectives' included) completed: posted by the sender at
   * `posted`, transfer started at `start` (both sides posted), ended at `end`. */
  void (*message)(void *ctx, int src, int dst, int tag, int64_t bytes, double posted, double start, double end);
  /* The replay ended at now (the simulated time). */
  void (*finish)(void *ctx, double now);
} replay_observer;

#endif
