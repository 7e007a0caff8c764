/* mpi.h - the MPI point-to-point runtime: requests, mailboxes, matching, protocols.
 *
 * SimGrid's SMPI semantics (SMPI_MODEL.md 5): a send is posted to the receiver's
 * mailbox; sends and receives match in FIFO order on (source, tag) (communicator is
 * always the world here; collectives use negative tags); the transfer of the sender's
 * bytes + 16 starts when the second side arrives. Sends below
 * smpi/send-is-detached-thresh are detached: complete for the sender at once. */
#ifndef TIR_MPI_H
#define TIR_MPI_H

#include "config.h"
#include "engine.h"

#include <stdint.h>

typedef struct mpi_req {
  int32_t src, dst, tag;      /* world ranks and tag */
  int32_t comm;               /* communicator (global id, 0: world): part of the matching key */
  int64_t bytes;              /* posted size (a receive's may exceed the message) */
  int64_t real_bytes;         /* receive: the message's size once matched */
  uint8_t recv;               /* 1: receive request */
  uint8_t detached;           /* send: detached (eager) */
  uint8_t complete;           /* done for its owner (wait would return) */
  uint8_t detached_sender;    /* receive: the matched send was detached */
  uint8_t matched;            /* paired with its counterpart */
  int32_t refs;               /* owner + pending transfer */
  long line;                  /* trace line that posted it (deadlock reports) */
  double posted;              /* simulated time at which it was posted */
  uint64_t done_seq;          /* order of completion (tir/simgrid-compat's waitany) */
  struct mpi_req *next;       /* mailbox queue */
  struct mpi_req **children;  /* group request (a non-blocking collective): its messages */
  int32_t nchildren, group;   /* number of children; 1 for a group request */
} mpi_req;

typedef struct mpi_world mpi_world;

/* Called when a request owned by rank completes. */
typedef void (*mpi_wake_fn)(void *ctx, int rank);
/* Called instead when a message completes its receive and its send (NULL when detached):
 * the callee wakes the owners waiting on them, in its order (tir/simgrid-compat: SimGrid's). */
typedef void (*mpi_wake2_fn)(void *ctx, const mpi_req *recv, const mpi_req *send);
/* Called on a fatal error: a protocol error of the replay (truncation: input = 0) or bad
 * input (no route between two hosts: input = 1); the replay then stops. */
typedef void (*mpi_error_fn)(void *ctx, int input, const char *msg);
/* Called when a message completes (observers): the send request, the transfer's start. */
typedef void (*mpi_msg_fn)(void *ctx, const mpi_req *send, double start, double end);

mpi_world *mpi_new(eng *e, const config *c, int np, const int *host_of, mpi_wake_fn wake,
                   mpi_error_fn error, void *ctx);
/* Sets the message callback (NULL: none). */
/* tir/simgrid-compat: wake both owners of a message through fn (see mpi_wake2_fn). */
void mpi_set_wake2_fn(mpi_world *w, mpi_wake2_fn fn);
void mpi_set_message_fn(mpi_world *w, mpi_msg_fn fn);
void mpi_free(mpi_world *w);

/* Posts a send of bytes from src to dst with tag (the overhead sleeps are the caller's:
 * see mpi_send_overhead). The returned request belongs to the caller (one reference). */
mpi_req *mpi_post_send(mpi_world *w, int src, int dst, int tag, int comm, int64_t bytes, long line);
mpi_req *mpi_post_recv(mpi_world *w, int src, int dst, int tag, int comm, int64_t bytes, long line);
/* Size of the oldest unmatched send from src to dst with tag, or -1 (MPI_Iprobe). */
int64_t mpi_probe(mpi_world *w, int src, int dst, int tag, int comm);
/* A group request (non-blocking collective) owned by rank: complete when all the
 * requests added to it are; releasing it releases them. */
mpi_req *mpi_group_new(mpi_world *w, int rank, long line);
void mpi_group_add(mpi_req *group, mpi_req *child);
/* Whether r is complete (a group: all its children). */
int mpi_group_done(const mpi_req *r);
static inline int mpi_req_done(const mpi_req *r) { return r->group ? mpi_group_done(r) : r->complete; }
/* Drops the caller's reference (r may be NULL). */
void mpi_req_free(mpi_world *w, mpi_req *r); /* the last one's: use mpi_req_release */
static inline void mpi_req_release(mpi_world *w, mpi_req *r) {
  if (r && --r->refs <= 0)
    mpi_req_free(w, r);
}

/* Seconds a sender sleeps before posting (smpi/ois for isends, smpi/os for detached
 * blocking sends, else 0) and a receiver after a message from a detached sender. */
double mpi_send_overhead(mpi_world *w, int64_t bytes, int isend);
double mpi_recv_overhead_of(mpi_world *w, const mpi_req *r); /* use mpi_recv_overhead */
static inline double mpi_recv_overhead(mpi_world *w, const mpi_req *r) {
  return (r->recv && r->detached_sender) || r->nchildren ? mpi_recv_overhead_of(w, r) : 0;
}

/* Number of transfers running or waiting for a match (for end-of-run checks), and a
 * report of unmatched requests to out. */
int mpi_unmatched(const mpi_world *w);
void mpi_report_unmatched(const mpi_world *w, FILE *out);

/* Statistics. */
uint64_t mpi_messages(const mpi_world *w);

#endif
