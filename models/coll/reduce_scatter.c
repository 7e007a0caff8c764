/* reduce_scatter.c - SimGrid's default reduce_scatter and MPICH's pairwise algorithm.
 *
 * default: when every rank receives the same count, the default reduce of the whole
 * vector to rank 0 followed by a linear scatterv from 0; otherwise MPICH's choice
 * (reduce_scatter__mpich: pairwise above 524288 elements in total, else recursive
 * doubling). pair returns at once when the total is zero (SimGrid: MPI_ERR_COUNT). */
#include "coll_algos.h"


static int64_t total(const coll_args *a) {
  int64_t t = 0;
  for (int i = 0; i < a->size; i++)
    t += a->rcounts[i];
  return t;
}

/* pairwise: at step i, send dst = rank+i its block, receive ours from src = rank-i. */
void coll_reduce_scatter_mpich_pair(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank;
  if (total(a) == 0)
    return;
  for (int i = 1; i < n; i++) {
    int src = (r - i + n) % n, dst = (r + i) % n;
    coll_sendrecv(p, dst, a->rcounts[dst], src, a->rcounts[r], COLL_TAG_REDUCE_SCATTER);
  }
}

static int regular(const coll_args *a) {
  for (int i = 1; i < a->size; i++)
    if (a->rcounts[i] != a->rcounts[0])
      return 0;
  return 1;
}

void coll_reduce_scatter_default(const coll_args *a, coll_prog *p) {
  if (!regular(a)) {
    int64_t elems = a->dtsize > 0 ? total(a) / a->dtsize : total(a);
    if (elems > 524288)
      coll_reduce_scatter_mpich_pair(a, p);
    else
      coll_reduce_scatter_mpich_rdb(a, p);
    return;
  }
  coll_args b = *a;
  b.root = 0;
  b.sbytes = b.rbytes = total(a);
  coll_reduce_nbc_linear(&b, p);
  b.scounts = a->rcounts;
  b.rbytes = a->rcounts[a->rank];
  coll_scatterv_nbc_linear(&b, p);
}
