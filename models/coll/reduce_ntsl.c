/* reduce_ntsl.c - SimGrid 3.32's reduce NTSL (reduce-NTSL.cpp): a pipelined chain.
 *
 * Ranks form the ring root, root - 1, ..., root + 1: each receives from rank + 1 and
 * sends to rank - 1, so rank root - 1 starts and the root ends it. Up to one segment of
 * 8 KiB (count <= segment elements): the whole vector hop by hop with blocking calls.
 * Else count / segment segments, tags T + i: the root posts all its receives and waits
 * them in order; the chain's start isends all and waits; the others post all receives,
 * then wait each and isend it on, and wait all sends; then the count % segment rest goes
 * through SimGrid's default reduce (isends to the root). */
#include "coll_algos.h"

#define T COLL_TAG_REDUCE

void coll_reduce_NTSL(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank, root = a->root, to = (r - 1 + n) % n, from = (r + 1) % n;
  int ds = a->dtsize > 0 ? a->dtsize : 1;
  int64_t seg = 8192 / ds > 0 ? 8192 / ds : 1, count = a->count, nseg = count / seg;
  int first = r == (root - 1 + n) % n;
  if (count <= seg) {
    if (!first || r == root)
      coll_recv(p, from, T, count * ds);
    if (r != root)
      coll_send(p, to, T, count * ds);
    return;
  }
  for (int64_t i = 0; !first && i < nseg; i++)
    coll_irecv(p, from, T + (int)i, seg * ds);
  for (int64_t i = 0; i < nseg; i++) {
    if (!first)
      coll_wait(p, (int)i);
    if (r != root)
      coll_isend(p, to, T + (int)i, seg * ds);
  }
  coll_waitall(p);
  if (count % seg) {
    coll_args rest = *a;
    rest.count = count % seg;
    rest.sbytes = rest.rbytes = rest.count * ds;
    coll_reduce_nbc_linear(&rest, p);
  }
}
