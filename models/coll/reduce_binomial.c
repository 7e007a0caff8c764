/* reduce_binomial.c - MPICH's binomial reduce (SimGrid 3.32's reduce "binomial").
 *
 * Ranks are taken relative to the root (MPI_OP_NULL counts as commutative, so the tree
 * is rooted at the root itself): at distance 1, 2, 4... a rank whose relative rank has
 * that bit clear receives the whole vector from relative rank | mask (if it exists),
 * and the first time the bit is set it sends its partial result to relative rank
 * without that bit and stops. An empty vector sends nothing. */
#include "coll_algos.h"

void coll_reduce_binomial(const coll_args *a, coll_prog *p) {
  int n = a->size, rel = (a->rank - a->root + n) % n;
  if (a->count == 0)
    return;
  for (int mask = 1; mask < n; mask <<= 1) {
    if ((mask & rel) == 0) {
      if ((rel | mask) < n)
        coll_recv(p, ((rel | mask) + a->root) % n, COLL_TAG_REDUCE, a->sbytes);
    } else {
      coll_send(p, ((rel & ~mask) + a->root) % n, COLL_TAG_REDUCE, a->sbytes);
      return;
    }
  }
}
