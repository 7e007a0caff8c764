/* tt_req.h - the requests a rank has in flight, and the key its trace gives each one.
 *
 * The TI format names a request by (sender, receiver, tag) in world ranks: `wait S D T`
 * waits the oldest stored request under that key. Each isend/irecv/start/non-blocking
 * collective puts an entry here, under its MPI_Request handle; completion (wait*, test*)
 * writes the key and removes the entry (persistent requests stay, inactive). A receive
 * posted with MPI_ANY_SOURCE/MPI_ANY_TAG has no key yet: its fields in every line written
 * so far are holds (tt_out.h), patched when the status tells the real source and tag.
 * `stored` counts the active entries the replayer's request store would hold, so that an
 * MPI_Waitall covering all of them can be written as one `waitall`. */
#ifndef TT_REQ_H
#define TT_REQ_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "tt_comm.h"

enum tt_req_kind {
  TT_RQ_SEND, /* isend (and issend, ibsend, irsend), persistent send */
  TT_RQ_RECV, /* irecv, persistent receive */
  TT_RQ_COLL  /* non-blocking collective */
};

struct tt_req {
  MPI_Request handle;     /* the C handle (key of the table) */
  int kind;               /* enum tt_req_kind */
  int src, dst, tag;      /* key of the trace (world ranks); src/tag may be ANY (holds) */
  int posted_src, posted_tag; /* as posted (persistent receives start from these again) */
  int persistent;         /* from MPI_Send_init/MPI_Recv_init: survives completion */
  int active;             /* started and not completed (always 1 if not persistent) */
  int stored;             /* the replayer stores it (0: NBC written as a blocking call) */
  int cancelled;          /* MPI_Cancel was called on it */
  long long bytes;        /* persistent: the size its start writes */
  struct tt_comm *comm;   /* where src is a rank (to translate the status' MPI_SOURCE) */
  uint64_t (*hold)[2];    /* placeholders waiting for the real src/tag: stream positions of
                             the src and tag fields (0: none) of each line naming it; owned */
  size_t nholds, hcap;    /* count and capacity of hold */
};

/* Add an entry for r->handle (after any with the same handle: see tt_req.c). */
void tt_req_put(const struct tt_req *r);
/* The oldest entry of handle, or NULL (MPI_REQUEST_NULL, unknown handles). */
struct tt_req *tt_req_find(MPI_Request handle);
/* Remove handle's oldest entry, if any. */
void tt_req_del(MPI_Request handle);
/* Active entries that the replayer stores. */
int tt_req_stored(void);
void tt_req_set_active(struct tt_req *r, int active);
/* Remember a line's placeholders (src field, tag field; 0 = none) for r. */
void tt_req_add_hold(struct tt_req *r, uint64_t src_pos, uint64_t tag_pos);
/* Write the key "S D T" of r to the current line (holds for unknown src/tag). */
void tt_req_key(struct tt_req *r);
/* r completed with status st: patch its holds with the real source and tag. */
void tt_req_resolve(struct tt_req *r, const MPI_Status *st);
/* r was cancelled: turn every line naming it that is still held (an ANY_SOURCE irecv
 * and its failed tests) into comments. Returns 1 if its post line was retracted, 0 if it
 * was already written for good (the replay will hold a receive nobody matches). */
int tt_req_retract(struct tt_req *r);
/* Every entry, for end-of-trace release of holds, then free the table. */
void tt_req_clear(void);

#endif
