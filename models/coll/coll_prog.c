/* coll_prog.c - the point-to-point program of one rank in one collective call.
 *
 * Algorithms append operations; the runtime (replay/rank.c) executes them in order.
 * The buffer is reused from call to call, so a rank allocates only when a call needs a
 * longer program than any before. */
#include "coll.h"

#include "xalloc.h"

#include <assert.h>
#include <stdlib.h>

void coll_prog_reset(coll_prog *p) {
  p->n = 0, p->nreq = 0, p->smp_built = 0;
  p->init_at = p->resume_at = -1;
  p->late = NULL;
}

void coll_prog_free(coll_prog *p) {
  free(p->ops);
  p->ops = NULL;
  p->n = p->cap = 0;
  coll_prog_reset(p);
}

static void push(coll_prog *p, coll_op_kind op, int peer, int tag, int64_t bytes) {
  assert(tag >= -(1 << 23) && tag < (1 << 23)); /* coll_op's 24 bits: the COLL_TAG_* fit */
  x_grow(&p->ops, &p->cap, p->n + 1, sizeof *p->ops);
  p->ops[p->n++] = (coll_op){.op = op, .peer = peer, .tag = tag, .bytes = bytes};
}

int coll_isend(coll_prog *p, int peer, int tag, int64_t bytes) {
  push(p, COLL_OP_ISEND, peer, tag, bytes);
  return p->nreq++;
}
int coll_irecv(coll_prog *p, int peer, int tag, int64_t bytes) {
  push(p, COLL_OP_IRECV, peer, tag, bytes);
  return p->nreq++;
}
void coll_send(coll_prog *p, int peer, int tag, int64_t bytes) { push(p, COLL_OP_SEND, peer, tag, bytes); }
void coll_recv(coll_prog *p, int peer, int tag, int64_t bytes) { push(p, COLL_OP_RECV, peer, tag, bytes); }
void coll_waitall(coll_prog *p) {
  push(p, COLL_OP_WAITALL, 0, 0, 0);
  p->nreq = 0;
}
void coll_wait(coll_prog *p, int req) { push(p, COLL_OP_WAIT, req, 0, 0); }
void coll_resume(coll_prog *p) { push(p, COLL_OP_RESUME, 0, 0, 0); }
void coll_waiteach(coll_prog *p) {
  push(p, COLL_OP_WAITEACH, 0, 0, 0);
  p->nreq = 0;
}

/* ====== series (coll.h) ====== */

/* The series of the w posts g (peers: the first ones), count times. Shorter ones stay
 * plain ops. */
static int series(coll_prog *p, const coll_op *g, int w, int first, int count, int step, int m) {
  int req = p->nreq;
  if (count < 3) {
    for (int k = 0; k < count; k++)
      for (int i = 0; i < w; i++)
        push(p, g[i].op, coll_series_peer(first, k, step, m), g[i].tag, g[i].bytes);
  } else {
    assert(m > 0 && step >= -(1 << 23) && step < (1 << 23));
    push(p, COLL_OP_SERIES, count, step, (int64_t)w << 32 | (uint32_t)m);
    for (int i = 0; i < w; i++)
      push(p, g[i].op, first, g[i].tag, g[i].bytes);
  }
  p->nreq += count > 0 ? count * w : 0;
  return req;
}

int coll_isend_series(coll_prog *p, int first, int count, int step, int m, int tag, int64_t bytes) {
  coll_op g = {.op = COLL_OP_ISEND, .tag = tag, .bytes = bytes};
  return series(p, &g, 1, first, count, step, m);
}
int coll_irecv_series(coll_prog *p, int first, int count, int step, int m, int tag, int64_t bytes) {
  coll_op g = {.op = COLL_OP_IRECV, .tag = tag, .bytes = bytes};
  return series(p, &g, 1, first, count, step, m);
}
int coll_pair_series(coll_prog *p, int first, int count, int step, int m, int tag, int64_t sbytes, int64_t rbytes,
                     int send_first) {
  coll_op s = {.op = COLL_OP_ISEND, .tag = tag, .bytes = sbytes}, r = {.op = COLL_OP_IRECV, .tag = tag, .bytes = rbytes};
  coll_op g[2] = {send_first ? s : r, send_first ? r : s};
  return series(p, g, 2, first, count, step, m);
}

void coll_pair_each(coll_prog *p, int rank, int size, int tag, int64_t sbytes, int64_t rbytes, int send_first) {
  coll_pair_series(p, 0, rank, 1, size, tag, sbytes, rbytes, send_first);
  coll_pair_series(p, rank + 1, size - rank - 1, 1, size, tag, sbytes, rbytes, send_first);
}

void coll_alltoall_posts(coll_prog *p, int rank, int size, int tag, int64_t sbytes, int64_t rbytes) {
  coll_irecv_series(p, (rank + 1) % size, size - 1, 1, size, tag, rbytes);
  coll_isend_series(p, (rank + size - 1) % size, size - 1, -1, size, tag, sbytes);
}

void coll_sendrecv(coll_prog *p, int dst, int64_t sbytes, int src, int64_t rbytes, int tag) {
  coll_isend(p, dst, tag, sbytes);
  coll_irecv(p, src, tag, rbytes);
  coll_waitall(p);
}
