/* engine.h - the discrete-event kernel: simulated time, resource actions (flows on the
 * network, executions and sleeps on hosts) and their completion events.
 *
 * Actions progress at rates given by the max-min solver (lmm.h); between two events
 * rates are constant. The engine keeps every running action's completion date in a
 * priority queue ordered by (date, creation sequence number), so equal dates are ordered
 * deterministically. It updates an action's remaining work lazily, only when its rate
 * changes (SimGrid's "Lazy" update; results equal the full update). */
#ifndef TIR_ENGINE_H
#define TIR_ENGINE_H

#include "config.h"
#include "net.h"
#include "platform.h"

#include <stdint.h>

typedef struct eng eng;
typedef struct eng_act eng_act;

/* Called when an action completes (the action is freed right after). */
typedef void (*eng_done_fn)(void *ctx, eng_act *a);

/* Observer of host load changes (energy model): called before a host's CPU usage
 * changes, with the time of the change. */
typedef void (*eng_host_fn)(void *ctx, int host, double now);

/* Creates the engine for platform p (borrowed) with settings c (borrowed) and network
 * backend model. pstates[h] gives host h's pstate (NULL: each host's own). */
eng *eng_new(platform *p, const config *c, const net_model *model, const int *pstates);
void eng_free(eng *e);

double eng_now(const eng *e);
/* The simulated clock itself, read in place by hot paths (valid while e lives). */
const double *eng_clock(const eng *e);

/* Starts a flow of payload bytes from host src to host dst: 0, or -1 with a message in
 * err when the platform has no route between them. */
int eng_flow_start(eng *e, int src, int dst, double payload, eng_done_fn done, void *ctx, char *err,
                   size_t errlen);
/* Starts an execution of flops on host (one core; bound: the host's speed). */
eng_act *eng_exec_start(eng *e, int host, double flops, eng_done_fn done, void *ctx);
/* The same with the execution's rate bounded (MPI_Iprobe's partial CPU usage). */
eng_act *eng_exec_start_bounded(eng *e, int host, double flops, double bound, eng_done_fn done, void *ctx);
/* Starts a sleep (no resource used). */
eng_act *eng_sleep_start(eng *e, double seconds, eng_done_fn done, void *ctx);
/* tir/simgrid-compat: SimGrid's CPU sleep action on host (a sleep, or the one an MPI_Wait
 * on an unfinished message creates): its disabled variable marks the host's CPU, so the
 * next solve re-solves the executions there (remaining work and heap ties renewed). */
void eng_sg_cpu_touch(eng *e, int host);

/* Solves, advances time to the next event and completes every action due then (their
 * callbacks run). Returns 1 if time advanced or something completed, 0 when no action
 * is pending (the simulation has nothing more to do). */
int eng_step(eng *e);

/* Number of running actions. */
int eng_pending(const eng *e);
/* Flows started so far as twins of another (tir/twin-flows: no variable of their own). */
uint64_t eng_twin_count(const eng *e);
/* Flows that rode another one's variable so far (tir/riders). */
uint64_t eng_rider_count(const eng *e);

/* Host CPU: speed (flop/s per core) in the current pstate, core count, and current
 * usage in flop/s (sum of the running executions' rates). */
double eng_host_speed(const eng *e, int host);
int eng_host_cores(const eng *e, int host);
double eng_host_usage(const eng *e, int host);
void eng_set_host_observer(eng *e, eng_host_fn fn, void *ctx);

#endif
