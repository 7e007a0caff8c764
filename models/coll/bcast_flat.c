/* bcast_flat.c - SimGrid 3.32's flat-tree bcasts (bcast-flattree.cpp,
 * bcast-flattree-pipeline.cpp): the root sends to every other rank itself.
 *
 * flattree: the root isends the whole buffer to each rank in rank order and waits for
 * all; the others receive. flattree_pipeline cuts the buffer into count / segment
 * segments of 8192 B (8192 / extent elements; the count % segment elements left over
 * are not sent, as in SimGrid) and the root sends them one rank after the other with
 * blocking sends, while each receiver posts all its receives at once; fewer elements
 * than one segment fall back to flattree. */
#include "coll_algos.h"

void coll_bcast_flattree(const coll_args *a, coll_prog *p) {
  if (a->rank != a->root) {
    coll_recv(p, a->root, COLL_TAG_BCAST, a->sbytes);
    return;
  }
  for (int i = 0; i < a->size; i++)
    if (i != a->rank)
      coll_isend(p, i, COLL_TAG_BCAST, a->sbytes);
  coll_waitall(p);
}

void coll_bcast_flattree_pipeline(const coll_args *a, coll_prog *p) {
  int64_t ext = a->dtsize > 0 ? a->dtsize : 1, seg = 8192 / ext ? 8192 / ext : 1, pipe = a->count / seg;
  if (pipe == 0) {
    coll_bcast_flattree(a, p);
    return;
  }
  if (a->rank != a->root) {
    for (int64_t i = 0; i < pipe; i++)
      coll_irecv(p, a->root, COLL_TAG_BCAST, seg * ext);
    coll_waitall(p);
    return;
  }
  for (int j = 0; j < a->size; j++)
    if (j != a->rank)
      for (int64_t i = 0; i < pipe; i++)
        coll_send(p, j, COLL_TAG_BCAST, seg * ext);
}
