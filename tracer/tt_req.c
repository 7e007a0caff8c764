/* tt_req.c - request table of libtirtrace (see tt_req.h).
 *
 * Open addressing on the bytes of the handle (a pointer in Open MPI, an int in MPICH),
 * linear probing, deletion by backward shift so that no tombstones accumulate; grown at
 * half full. An application has rarely more than a few thousand requests in flight.
 * Handles are not unique: Open MPI (and MPICH) give every send that completed at once the
 * same static "complete" request. Equal handles are kept in insertion order (an insert
 * goes after its cluster, backward shifts keep the order), so find/del take the oldest:
 * FIFO among such twins, whose order does not matter (they are all complete). */
#include "tt_req.h"

#include <stdlib.h>
#include <string.h>

#include "tt.h"
#include "tt_out.h"

/* the values SimGrid gives MPI_ANY_SOURCE / MPI_ANY_TAG: fallbacks of unresolved holds */
#define SG_ANY_SOURCE (-555)
#define SG_ANY_TAG (-444)

static struct tt_req *slot; /* table of cap entries; handle MPI_REQUEST_NULL = empty */
static size_t cap, used;    /* capacity (power of two) and entries */
static int nstored;         /* active entries with stored = 1 */

static size_t hash(MPI_Request h) {
  uint64_t v = 0;
  memcpy(&v, &h, sizeof h < sizeof v ? sizeof h : sizeof v);
  v ^= v >> 33;
  v *= 0xff51afd7ed558ccdull;
  v ^= v >> 33;
  return (size_t)v & (cap - 1);
}

static void rehash(size_t ncap) {
  struct tt_req *old = slot;
  size_t ocap = cap;
  slot = x_malloc(ncap * sizeof *slot);
  for (size_t i = 0; i < ncap; i++)
    slot[i].handle = MPI_REQUEST_NULL;
  cap = ncap;
  used = 0;
  for (size_t i = 0; i < ocap; i++)
    if (old[i].handle != MPI_REQUEST_NULL) {
      size_t j = hash(old[i].handle);
      while (slot[j].handle != MPI_REQUEST_NULL)
        j = (j + 1) & (cap - 1);
      slot[j] = old[i];
      used++;
    }
  free(old);
}

struct tt_req *tt_req_find(MPI_Request h) {
  if (!cap || h == MPI_REQUEST_NULL)
    return NULL;
  for (size_t j = hash(h); slot[j].handle != MPI_REQUEST_NULL; j = (j + 1) & (cap - 1))
    if (slot[j].handle == h)
      return &slot[j];
  return NULL;
}

void tt_req_put(const struct tt_req *r) {
  if (2 * (used + 1) > cap)
    rehash(cap ? 2 * cap : 64);
  size_t j = hash(r->handle);
  while (slot[j].handle != MPI_REQUEST_NULL)
    j = (j + 1) & (cap - 1);
  slot[j] = *r;
  used++;
  nstored += r->active && r->stored;
}

void tt_req_del(MPI_Request h) {
  struct tt_req *r = tt_req_find(h);
  if (!r)
    return;
  nstored -= r->active && r->stored;
  free(r->hold);
  size_t i = (size_t)(r - slot), j = i;
  slot[i].handle = MPI_REQUEST_NULL;
  used--;
  for (;;) { /* backward shift: move up entries whose probe chain crossed i */
    j = (j + 1) & (cap - 1);
    if (slot[j].handle == MPI_REQUEST_NULL)
      return;
    size_t home = hash(slot[j].handle);
    if (((j - home) & (cap - 1)) >= ((j - i) & (cap - 1))) {
      slot[i] = slot[j];
      slot[j].handle = MPI_REQUEST_NULL;
      i = j;
    }
  }
}

int tt_req_stored(void) { return nstored; }

void tt_req_set_active(struct tt_req *r, int active) {
  nstored += ((active != 0) - (r->active != 0)) * (r->stored != 0);
  r->active = active;
}

void tt_req_key(struct tt_req *r) {
  int hold_src = r->kind == TT_RQ_RECV && r->src == MPI_ANY_SOURCE;
  int hold_tag = r->kind == TT_RQ_RECV && r->tag == MPI_ANY_TAG;
  uint64_t hs = 0, ht = 0;
  if (hold_src)
    hs = tt_out_hold(SG_ANY_SOURCE);
  else
    tt_out_int(r->src);
  tt_out_int(r->dst);
  if (hold_tag)
    ht = tt_out_hold(SG_ANY_TAG);
  else
    tt_out_int(r->tag);
  if (hold_src || hold_tag)
    tt_req_add_hold(r, hs, ht);
}

void tt_req_add_hold(struct tt_req *r, uint64_t src_pos, uint64_t tag_pos) {
  x_grow(&r->hold, &r->hcap, r->nholds + 1, sizeof *r->hold);
  r->hold[r->nholds][0] = src_pos;
  r->hold[r->nholds][1] = tag_pos;
  r->nholds++;
}

void tt_req_resolve(struct tt_req *r, const MPI_Status *st) {
  if (r->kind != TT_RQ_RECV)
    return;
  if (r->src == MPI_ANY_SOURCE)
    r->src = tt_comm_world(r->comm, st->MPI_SOURCE);
  if (r->tag == MPI_ANY_TAG)
    r->tag = st->MPI_TAG;
  for (size_t i = 0; i < r->nholds; i++) {
    if (r->hold[i][0])
      tt_out_patch(r->hold[i][0], r->src);
    if (r->hold[i][1])
      tt_out_patch(r->hold[i][1], r->tag);
  }
  r->nholds = 0;
}

int tt_req_retract(struct tt_req *r) {
  int any = r->nholds > 0;
  for (size_t i = 0; i < r->nholds; i++) {
    tt_out_retract(r->hold[i][0]);
    tt_out_retract(r->hold[i][1]);
  }
  r->nholds = 0;
  return any;
}

void tt_req_clear(void) {
  for (size_t i = 0; i < cap; i++)
    if (slot[i].handle != MPI_REQUEST_NULL)
      free(slot[i].hold);
  free(slot);
  slot = NULL;
  cap = used = 0;
  nstored = 0;
}
