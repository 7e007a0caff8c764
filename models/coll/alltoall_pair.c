/* alltoall_pair.c - pairwise-exchange alltoall with XOR partners (SimGrid's "pair").
 *
 * Step i = 0..N-1 exchanges with rank ^ i through one sendrecv (step 0 is the rank
 * itself: a local copy, no message). Needs a power-of-two N; SimGrid 3.32 throws
 * otherwise, tir's selectors never pick it then (doc/collectives.md). */
#include "coll_algos.h"

void coll_alltoall_pair(const coll_args *a, coll_prog *p) {
  for (int i = 0; i < a->size; i++) {
    int peer = a->rank ^ i;
    if (peer != a->rank && peer < a->size)
      coll_sendrecv(p, peer, a->sbytes, peer, a->rbytes, COLL_TAG_ALLTOALL);
  }
}
