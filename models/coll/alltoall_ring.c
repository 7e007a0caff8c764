/* alltoall_ring.c - ring alltoall and alltoallv (SimGrid's alltoall "ring", alltoallv
 * "ring" and "pair", and Open MPI's basic linear alltoallv).
 *
 * Step i = 1..N-1 is one sendrecv: to rank + i, from rank - i (step 0 is the local
 * copy). SimGrid's alltoallv ring uses XOR partners (rank ^ i) when N is a power of two,
 * and so does its alltoallv pair (which demands a power of two). */
#include "coll_algos.h"

void coll_alltoall_ring(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size;
  for (int i = 1; i < n; i++)
    coll_sendrecv(p, (r + i) % n, a->sbytes, (r - i + n) % n, a->rbytes, COLL_TAG_ALLTOALL);
}

void coll_alltoallv_ring(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, pof2 = (n & (n - 1)) == 0;
  for (int i = 1; i < n; i++) {
    int dst = pof2 ? r ^ i : (r + i) % n, src = pof2 ? r ^ i : (r - i + n) % n;
    coll_sendrecv(p, dst, a->scounts[dst], src, a->rcounts[src], COLL_TAG_ALLTOALLV);
  }
}

/* XOR partners (power-of-two sizes; partners >= N are skipped, SimGrid aborts there). */
void coll_alltoallv_pair(const coll_args *a, coll_prog *p) {
  for (int i = 1; i < a->size; i++) {
    int peer = a->rank ^ i;
    if (peer < a->size)
      coll_sendrecv(p, peer, a->scounts[peer], peer, a->rcounts[peer], COLL_TAG_ALLTOALLV);
  }
}

/* Open MPI's basic linear: persistent irecvs (ascending), isends (ascending), startall,
 * waitall: the same program as SimGrid's ialltoallv. */
void coll_alltoallv_ompi_basic_linear(const coll_args *a, coll_prog *p) { coll_alltoallv_nbc_linear(a, p); }
