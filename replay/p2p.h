/* p2p.h - the MPI point-to-point runtime: requests, mailboxes, matching, protocols.
 *
 * SimGrid's SMPI semantics (SMPI_MODEL.md 5): a send is posted to the receiver's
 * mailbox; sends and receives match in FIFO order on (source, tag) (communicator is
 * always the world here; collectives use negative tags); the transfer of the sender's
 * bytes + 16 starts when the second side arrives. Sends below
 * smpi/send-is-detached-thresh are detached: complete for the sender at once. With
 * smpi/async-small-thresh, a send below it that finds no receive starts at once (SimGrid's
 * small mailbox; p2p.c tells the rules). Per-host smpi/os, ois and or properties override
 * the settings (p2p_host_overheads). */
#ifndef TIR_P2P_H
#define TIR_P2P_H

#include "config.h"
#include "engine.h"

#include <stddef.h>
#include <stdint.h>

typedef struct p2p_req {
  int32_t src, dst, tag;      /* world ranks and tag */
  int32_t comm;               /* communicator (global id, 0: world): part of the matching key */
  int64_t bytes;              /* posted size (a receive's may exceed the message) */
  union {
    int64_t real_bytes;       /* receive: the message's size once matched */
    int64_t seq;              /* send (smpi/async-small-thresh): posting order */
  };
  int32_t refs;               /* owner + pending transfer */
  int32_t line;               /* trace line that posted it (deadlock reports; INT32_MAX: that
                                 or a later one) */
  uint8_t group;              /* 1: a group request (a non-blocking collective): p2p.c keeps
                                 its messages */
  uint8_t recv;               /* 1: receive request */
  uint8_t detached;           /* send: detached (done for its sender at once) */
  uint8_t eager;              /* send (smpi/async-small-thresh): 1 transfer started before any
                                 receive (SimGrid's small mailbox), 2 that transfer ended */
  uint8_t complete;           /* done for its owner (wait would return) */
  uint8_t detached_sender;    /* receive: the matched send was detached */
  uint8_t matched;            /* paired with its counterpart */
  uint64_t done_seq;          /* order of completion (tir/simgrid-compat's waitany) */
  struct p2p_req *next;       /* mailbox queue */
} p2p_req;
_Static_assert(sizeof(p2p_req) == 64, "a receive is 64 bytes: one per message posted (the send's block adds its part, p2p.c)");

typedef struct p2p_world p2p_world;

/* Called when a request owned by rank completes. */
typedef void (*p2p_wake_fn)(void *ctx, int rank);
/* Called instead when a message completes its receive and its send (NULL when detached):
 * the callee wakes the owners waiting on them, in its order (tir/simgrid-compat: SimGrid's). */
typedef void (*p2p_wake2_fn)(void *ctx, const p2p_req *recv, const p2p_req *send);
/* (recv is NULL when the message completes its send only: an eager send's transfer ends
 * before any receive took it.) */
/* Called on a fatal error: a protocol error of the replay (truncation: input = 0) or bad
 * input (no route between two hosts: input = 1); the replay then stops. */
typedef void (*p2p_error_fn)(void *ctx, int input, const char *msg);
/* Called when a message completes (observers): the send request, the date it was posted,
 * the transfer's start. */
typedef void (*p2p_msg_fn)(void *ctx, const p2p_req *send, double posted, double start, double end);

p2p_world *p2p_new(eng *e, const config *c, int np, const int *host_of, p2p_wake_fn wake,
                   p2p_error_fn error, void *ctx);
/* Sets the message callback (NULL: none). */
/* tir/simgrid-compat: wake both owners of a message through fn (see p2p_wake2_fn). */
void p2p_set_wake2_fn(p2p_world *w, p2p_wake2_fn fn);
void p2p_set_message_fn(p2p_world *w, p2p_msg_fn fn);
void p2p_free(p2p_world *w);

/* Posts a send of bytes from src to dst with tag (the overhead sleeps are the caller's:
 * see p2p_send_overhead). The returned request belongs to the caller (one reference). */
p2p_req *p2p_post_send(p2p_world *w, int src, int dst, int tag, int comm, int64_t bytes, long line);
p2p_req *p2p_post_recv(p2p_world *w, int src, int dst, int tag, int comm, int64_t bytes, long line);
/* Size of the oldest unmatched send from src to dst with tag, or -1 (MPI_Iprobe). */
int64_t p2p_probe(p2p_world *w, int src, int dst, int tag, int comm);
/* The same in one of SimGrid's two mailboxes (small: 1 the eager one, 0 the other), for
 * tir/simgrid-compat, where SimGrid looks at them in two simcalls (-1 in the small one
 * without smpi/async-small-thresh). */
int64_t p2p_probe_mailbox(p2p_world *w, int src, int dst, int tag, int comm, int small);
/* 1 when such a send waits in dst's mailbox; else 0, and the next one posted wakes dst (the
 * end of a polling run, rank.c). */
int p2p_watch(p2p_world *w, int src, int dst, int tag, int comm);
/* A group request (non-blocking collective) owned by rank: complete when all the
 * requests added to it are; releasing it releases them. */
p2p_req *p2p_group_new(p2p_world *w, int rank, long line);
void p2p_group_add(p2p_req *group, p2p_req *child);
/* Whether q is one of group's requests. */
int p2p_group_has(const p2p_req *group, const p2p_req *q);
/* A request owned by rank that no message completes: its owner's other work does (a
 * request-based one-sided operation, rma.c), with p2p_req_finish. */
p2p_req *p2p_req_new_owned(p2p_world *w, int rank, long line);
/* Marks r complete and wakes its owner. */
void p2p_req_finish(p2p_world *w, p2p_req *r);
/* Whether r is complete (a group: all its children). */
int p2p_group_done(const p2p_req *r);
static inline int p2p_req_done(const p2p_req *r) { return r->group ? p2p_group_done(r) : r->complete; }
/* Drops the caller's reference (r may be NULL). */
void p2p_req_free(p2p_world *w, p2p_req *r); /* the last one's: use p2p_req_release */
static inline void p2p_req_release(p2p_world *w, p2p_req *r) {
  if (r && --r->refs <= 0)
    p2p_req_free(w, r);
}

/* Reads the smpi/os, smpi/ois and smpi/or properties of p's hosts (SimGrid's per-host
 * overheads, smpi_host.cpp: the sender's host for os and ois, the receiver's for or; a host
 * without one uses the setting). Returns 0, or -1 with a message in err (bad syntax, a
 * negative or infinite overhead, as for the settings). */
int p2p_host_overheads(p2p_world *w, const platform *p, char *err, size_t errlen);
/* The same checks without a world (--validate): 0, or -1 with the message in err. */
int p2p_check_host_overheads(const platform *p, char *err, size_t errlen);
/* 1 when no receive ever sleeps after a message (smpi/or is 0 for every host and size). */
int p2p_no_recv_overhead(const p2p_world *w);

/* Seconds rank src sleeps before posting (smpi/ois for isends, smpi/os for detached
 * blocking sends, else 0) and a receiver after a message from a detached sender. */
double p2p_send_overhead(p2p_world *w, int src, int64_t bytes, int isend);
double p2p_recv_overhead_of(p2p_world *w, const p2p_req *r); /* use p2p_recv_overhead */
static inline double p2p_recv_overhead(p2p_world *w, const p2p_req *r) {
  return (r->recv && r->detached_sender) || r->group ? p2p_recv_overhead_of(w, r) : 0;
}

/* Number of transfers running or waiting for a match (for end-of-run checks), and a
 * report of unmatched requests to out. */
int p2p_unmatched(const p2p_world *w);
void p2p_report_unmatched(const p2p_world *w, FILE *out);

/* Statistics. */
uint64_t p2p_messages(const p2p_world *w);

#endif
