/* barrier_ompi.c - Open MPI's basic linear barrier (SimGrid's default barrier).
 *
 * Every rank but 0 sends an empty message to 0 and waits for an empty reply; rank 0
 * posts receives from 1..N-1, waits for all, then isends to 1..N-1 and waits for all. */
#include "coll_algos.h"

void coll_barrier_ompi_basic_linear(const coll_args *a, coll_prog *p) {
  if (a->rank > 0) {
    coll_send(p, 0, COLL_TAG_BARRIER, 0);
    coll_recv(p, 0, COLL_TAG_BARRIER, 0);
    return;
  }
  for (int i = 1; i < a->size; i++)
    coll_irecv(p, i, COLL_TAG_BARRIER, 0);
  coll_waitall(p);
  for (int i = 1; i < a->size; i++)
    coll_isend(p, i, COLL_TAG_BARRIER, 0);
  coll_waitall(p);
}
