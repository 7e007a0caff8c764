/* alltoall_basic_linear.c - Open MPI's basic linear alltoall (SimGrid's basic_linear).
 *
 * Post irecvs from rank+1, rank+2, ... (mod N), then isends to rank-1, rank-2, ...
 * (mod N), all started together, then wait for all: two series (coll.h). */
#include "coll_algos.h"

void coll_alltoall_basic_linear(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank;
  if (n <= 1)
    return;
  coll_irecv_series(p, (r + 1) % n, n - 1, 1, n, COLL_TAG_ALLTOALL, a->rbytes);
  coll_isend_series(p, (r + n - 1) % n, n - 1, -1, n, COLL_TAG_ALLTOALL, a->sbytes);
  coll_waitall(p);
}
