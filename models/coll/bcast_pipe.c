/* bcast_pipe.c - SimGrid 3.32's pipelined broadcasts: NTSL (linear chain), NTSB (binary
 * tree by rank, 2r+1 / 2r+2), both in 8 KiB segments, and Open MPI's ompi_pipeline
 * (a chain, segment size from Open MPI's fitted formula).
 *
 * NTSL/NTSB: a root other than 0 first sends the whole buffer to rank 0; a buffer of at
 * most one segment goes whole, else count/segment segments with tags TAG+i, and the
 * remainder (count % segment elements) is broadcast again by the current bcast
 * (colls::bcast, possibly forced). Relays post every receive first, then wait each
 * segment and forward it with isends, and wait all at the end. ompi_pipeline: the root
 * isends each segment to its child and waits; relays keep one receive ahead. */
#include "coll_algos.h"

#define T COLL_TAG_BCAST

static int dts(const coll_args *a) { return a->dtsize > 0 ? a->dtsize : 1; }

/* Remainder of NTSL/NTSB: colls::bcast of the last count % seg elements. */
static void bcast_rest(const coll_args *a, coll_prog *p, int64_t rem) {
  coll_args b = *a;
  b.count = rem;
  b.sbytes = b.rbytes = rem * dts(a);
  coll_sub(&b, p);
}

/* Whole-buffer move from a non-zero root to rank 0 (NTSL, NTSB, SMP_linear). */
void coll_bcast_root_to_0(const coll_args *a, coll_prog *p) {
  if (a->root != 0 && a->rank == a->root)
    coll_send(p, 0, T, a->count * dts(a));
  else if (a->root != 0 && a->rank == 0)
    coll_recv(p, a->root, T, a->count * dts(a));
}

/* Pipelined relay: receive nseg segments of b bytes from `from` (-1: root) and forward
 * each to the nto ranks of to[]. */
static void relay(coll_prog *p, int from, const int *to, int nto, int64_t nseg, int64_t b) {
  if (from < 0) {
    for (int64_t i = 0; i < nseg; i++)
      for (int k = 0; k < nto; k++)
        coll_isend(p, to[k], T + (int)i, b);
    coll_waitall(p);
    return;
  }
  for (int64_t i = 0; i < nseg; i++)
    coll_irecv(p, from, T + (int)i, b);
  for (int64_t i = 0; i < nseg; i++) {
    coll_wait(p, (int)i);
    for (int k = 0; k < nto; k++)
      coll_isend(p, to[k], T + (int)i, b);
  }
  coll_waitall(p);
}

/* Unsegmented step of NTSL/NTSB: receive (non-root), then blocking sends. */
static void whole(const coll_args *a, coll_prog *p, int from, const int *to, int nto, int recv_by_wait) {
  int64_t b = a->count * dts(a);
  if (from >= 0 && recv_by_wait)
    coll_wait(p, coll_irecv(p, from, T, b));
  else if (from >= 0)
    coll_recv(p, from, T, b);
  for (int k = 0; k < nto; k++)
    coll_send(p, to[k], T, b);
}

/* Shared by NTSL and NTSB: from = parent (-1 at rank 0), to = children. */
static void nts(const coll_args *a, coll_prog *p, int from, const int *to, int nto, int linear) {
  int64_t seg = 8192 / dts(a), count = a->count;
  seg = seg ? seg : 1;
  coll_bcast_root_to_0(a, p);
  if (count <= seg) {
    whole(a, p, from, to, nto, linear);
    return;
  }
  relay(p, from, to, nto, count / seg, seg * dts(a));
  if (count % seg)
    bcast_rest(a, p, count % seg);
}

void coll_bcast_NTSL(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, to = (r + 1) % n;
  nts(a, p, r == 0 ? -1 : (r + n - 1) % n, &to, r == n - 1 ? 0 : 1, 1);
}

void coll_bcast_NTSB(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, to[2], nto = 0;
  if (r * 2 + 1 < n)
    to[nto++] = r * 2 + 1;
  if (r * 2 + 2 < n)
    to[nto++] = r * 2 + 2;
  nts(a, p, r == 0 ? -1 : (r - 1) / 2, to, nto, 0);
}

/* Open MPI's segment size for the pipeline from its fitted model. */
static int64_t pipeline_segsize(int n, double bytes) {
  if (n < 1.6134e-6 * bytes + 2.1102)
    return 1024 << 7;
  if (n < 2.3679e-6 * bytes + 1.1787)
    return 1024 << 6;
  if (n < 3.2118e-6 * bytes + 8.7936)
    return 1024 << 4;
  return 1024 << 7;
}

void coll_bcast_ompi_pipeline(const coll_args *a, coll_prog *p) {
  int ds = dts(a);
  int64_t count = a->count, seg = coll_segcount(pipeline_segsize(a->size, (double)count * ds), ds, count);
  if (a->size == 1 || seg <= 0)
    return;
  int64_t nseg = (count + seg - 1) / seg, last = count - (nseg - 1) * seg;
  coll_tree t;
  coll_tree_chain(&t, 1, a->rank, a->size, a->root);
  if (a->rank == a->root) {
    for (int64_t s = 0; s < nseg; s++) {
      for (int i = 0; i < t.nnext; i++)
        coll_isend(p, t.next[i], T, (s == nseg - 1 ? last : seg) * ds);
      coll_waitall(p);
    }
    return;
  }
  int req[2], in = 0, sreq[COLL_TREE_MAX];
  req[0] = coll_irecv(p, t.prev, T, seg * ds);
  for (int64_t s = 1; s < nseg; s++) {
    in ^= 1;
    req[in] = coll_irecv(p, t.prev, T, seg * ds);
    coll_wait(p, req[in ^ 1]);
    for (int i = 0; i < t.nnext; i++) /* waitall on the sends only: the next receive stays */
      sreq[i] = coll_isend(p, t.next[i], T, seg * ds);
    for (int i = 0; i < t.nnext; i++)
      coll_wait(p, sreq[i]);
  }
  coll_wait(p, req[in]);
  for (int i = 0; i < t.nnext; i++)
    coll_isend(p, t.next[i], T, last * ds);
  coll_waitall(p);
}
