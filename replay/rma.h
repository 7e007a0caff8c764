/* rma.h - one-sided communication (MPI-3 RMA, tir's trace extension): windows, their
 * operations as network transfers, and the waits of their synchronisations.
 *
 * The model (doc/model.md, "One-sided communication"): an operation starts when its origin
 * issues it and needs nothing from the target's CPU. put and accumulate are one transfer
 * origin -> target of the bytes (+ the 16-byte envelope of every SMPI message); get,
 * get_accumulate, fetch_and_op and compare_and_swap are two, one after the other: origin ->
 * target (what goes: nothing but the envelope for a get), then target -> origin (the
 * result). An operation is complete when its last transfer ends, at the origin and at the
 * target at once (no separate local completion). Synchronisations wait for completions
 * (rma_wait), take and release passive-target locks (rma_lock: FIFO per target, one
 * exclusive holder or any number of shared ones), and remember the groups of
 * post/start/complete/wait; their messages (barriers, PSCW notifications) are the
 * caller's (rank.c), sent through p2p in the window's own matching context rma_ctx(win).
 *
 * Windows are named as in the trace: (WIN, world rank), WIN agreed by the members at trace
 * time (unique per member, like communicator ids). */
#ifndef TIR_RMA_H
#define TIR_RMA_H

#include "comm.h"
#include "engine.h"
#include "p2p.h"

#include <stdint.h>

#define RMA_ENVELOPE 16     /* bytes added to every transfer, as SMPI adds to every message */
#define RMA_TAG_POST (-5001) /* win_post -> win_start notification */
#define RMA_TAG_DONE (-5002) /* win_complete -> win_wait notification */

typedef struct rma_world rma_world;
typedef void (*rma_wake_fn)(void *ctx, int rank);
/* a fatal error: bad input (input = 1: no route between two hosts) */
typedef void (*rma_error_fn)(void *ctx, int input, const char *msg);

rma_world *rma_new(eng *e, p2p_world *w, int np, const int *host_of, rma_wake_fn wake, rma_error_fn error,
                   void *ctx);
void rma_free(rma_world *rw);

/* The p2p matching context of window win's own messages (comm field; never a communicator). */
static inline int rma_ctx(int win) { return -1 - win; }

/* World rank `rank` creates window win over cm (which must hold it): the first member to
 * come creates the window, the others check they name the same communicator. 0, or -1 with
 * a message (err). */
int rma_win_create(rma_world *rw, int win, const comm_t *cm, int rank, char *err, size_t errlen);
/* The members of rank's window win, or NULL (no such live window). */
const comm_t *rma_win_comm(const rma_world *rw, int win, int rank);
/* rank frees win: later lines naming it are errors. */
void rma_win_free(rma_world *rw, int win, int rank);

/* origin starts an operation on target: sbytes go, then (two_legs) rbytes come back. req
 * (NULL: none) is completed with it (request-based operations); the operation holds a
 * reference on it. 0, or -1 after reporting an error (target not a member, no route). */
int rma_start(rma_world *rw, int win, int origin, int target, int64_t sbytes, int64_t rbytes, int two_legs,
              p2p_req *req);

/* Whether rank's operations are complete: on window win (0: every window) to target (-1:
 * every target). 1: complete; 0: the rank is woken when they are. first: the first call of
 * this wait (later calls, after a wake-up, only look). */
int rma_wait(rma_world *rw, int win, int rank, int target, int first);

/* origin asks target's lock of window win, exclusive or shared: 1 granted, 0 queued (the
 * origin is woken when it is granted: rma_lock_granted then says 1). */
int rma_lock(rma_world *rw, int win, int origin, int target, int excl);
int rma_lock_granted(const rma_world *rw, int origin);
/* origin releases its lock of target (the next requests in line get it). */
void rma_unlock(rma_world *rw, int win, int origin, int target);

/* The PSCW groups of rank on window win (which: 0 post's, 1 start's), world ranks: set by
 * win_post / win_start, read by win_wait / win_complete. */
void rma_set_group(rma_world *rw, int win, int rank, int which, const int64_t *g, int n);
const int *rma_group(const rma_world *rw, int win, int rank, int which, int *n);

/* Operations started but not complete (end-of-run checks). */
int64_t rma_pending(const rma_world *rw);

#endif
