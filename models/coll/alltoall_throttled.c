/* alltoall_throttled.c - alltoalls that post their messages four peers at a time:
 * SimGrid 3.32's alltoall mvapich2_scatter_dest and alltoallv bruck.
 *
 * Both take the peers in blocks of 4 (MVAPICH2's throttle factor, MPICH's
 * MPIR_PARAM_ALLTOALL_THROTTLE): for each block, irecvs from rank + i and isends to
 * rank - i (i running over the block), then a waitall, so at most 8 requests are in
 * flight. mvapich2_scatter_dest includes the rank itself (a real self message, as in
 * SimGrid) and clips the block to N; alltoallv bruck skips the rank itself (its block
 * is copied locally) and waits even on an empty block. */
#include "coll_algos.h"

void coll_alltoall_mvapich2_scatter_dest(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, bblock = n < 4 ? n : 4;
  if (a->rbytes == 0)
    return;
  for (int ii = 0; ii < n; ii += bblock) {
    int ss = n - ii < bblock ? n - ii : bblock;
    for (int i = 0; i < ss; i++)
      coll_irecv(p, (r + i + ii) % n, COLL_TAG_ALLTOALL, a->rbytes);
    for (int i = 0; i < ss; i++)
      coll_isend(p, (r - i - ii + n) % n, COLL_TAG_ALLTOALL, a->sbytes);
    coll_waitall(p);
  }
}

void coll_alltoallv_bruck(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size;
  if (n <= 1)
    return;
  for (int ii = 0; ii < n; ii += 4) {
    int ss = n - ii < 4 ? n - ii : 4;
    for (int i = 0; i < ss; i++) {
      int src = (r + i + ii) % n;
      if (src != r)
        coll_irecv(p, src, COLL_TAG_ALLTOALLV, a->rcounts[src]);
    }
    for (int i = 0; i < ss; i++) {
      int dst = (r - i - ii + n) % n;
      if (dst != r)
        coll_isend(p, dst, COLL_TAG_ALLTOALLV, a->scounts[dst]);
    }
    coll_waitall(p);
  }
}
