/* alltoall_basic_linear.c - Open MPI's basic linear alltoall (SimGrid's basic_linear).
 *
 * Post irecvs from rank+1, rank+2, ... (mod N), then isends to rank-1, rank-2, ...
 * (mod N), all started together, then wait for all. */
#include "coll_algos.h"

void coll_alltoall_basic_linear(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank;
  if (n <= 1)
    return;
  for (int i = (r + 1) % n; i != r; i = (i + 1) % n)
    coll_irecv(p, i, COLL_TAG_ALLTOALL, a->rbytes);
  for (int i = (r + n - 1) % n; i != r; i = (i + n - 1) % n)
    coll_isend(p, i, COLL_TAG_ALLTOALL, a->sbytes);
  coll_waitall(p);
}
