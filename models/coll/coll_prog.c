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

void coll_sendrecv(coll_prog *p, int dst, int64_t sbytes, int src, int64_t rbytes, int tag) {
  coll_isend(p, dst, tag, sbytes);
  coll_irecv(p, src, tag, rbytes);
  coll_waitall(p);
}
