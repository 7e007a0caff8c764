/* alltoall_basic_linear.c - Open MPI's basic linear alltoall (SimGrid's basic_linear).
 *
 * Post irecvs from rank+1, rank+2, ... (mod N), then isends to rank-1, rank-2, ...
 * (mod N), all started together, then wait for all: two series (coll.h). */
#include "coll_algos.h"

void coll_alltoall_basic_linear(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank;
  if (n <= 1)
    return;
  coll_alltoall_posts(p, r, n, COLL_TAG_ALLTOALL, a->sbytes, a->rbytes);
  coll_waitall(p);
}
