/* bcast_knomial.c - MVAPICH2's k-nomial bcast (SimGrid 3.32's bcast
 * "mvapich2_knomial_intra_node", Open MPI's bcast algorithm 7 in SimGrid's ompi selector).
 *
 * Despite its name it runs on the whole communicator: a k-nomial tree (k = 4, SimGrid's
 * mv2_intra_node_knomial_factor) rooted at the root, in ranks relative to it. A rank
 * receives once from its parent (relative rank with its lowest non-zero base-4 digit
 * cleared), then, for each lower digit position from the highest down, isends to the up
 * to 3 children at relative rank + k x 4^j and waits for them. SimGrid first builds its
 * SMP communicators, which aborts its replay ("free(): invalid pointer"): tir runs the
 * algorithm as it would run without that crash (doc/collectives.md). */
#include "coll_algos.h"

#define K 4

void coll_bcast_mvapich2_knomial_intra_node(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank, rel = (r - a->root + n) % n, mask = 1;
  if (n <= 1)
    return;
  for (; mask < n; mask *= K)
    if (rel % (K * mask)) {
      int src = rel / (K * mask) * (K * mask) + a->root;
      coll_recv(p, src >= n ? src - n : src, COLL_TAG_BCAST, a->sbytes);
      break;
    }
  for (mask /= K; mask > 0; mask /= K) {
    for (int k = 1; k < K; k++)
      if (rel + mask * k < n)
        coll_isend(p, (r + mask * k) % n, COLL_TAG_BCAST, a->sbytes);
    coll_waitall(p);
  }
}
