/* bcast_binomial.c - binomial-tree broadcast (SimGrid's bcast binomial_tree, its default).
 *
 * With relative rank r = (rank - root) mod N: receive from r - lowbit(r) with a blocking
 * recv, then blocking sends to r + mask for each power of two mask below lowbit(r)
 * (largest first) while r + mask < N. The root (r = 0) sends to every power of two. */
#include "coll_algos.h"

void coll_bcast_binomial_tree(const coll_args *a, coll_prog *p) {
  int n = a->size, rel = (a->rank - a->root + n) % n, mask = 1;
  for (; mask < n; mask <<= 1)
    if (rel & mask) {
      coll_recv(p, (a->rank - mask + n) % n, COLL_TAG_BCAST, a->sbytes);
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < n)
      coll_send(p, (a->rank + mask) % n, COLL_TAG_BCAST, a->sbytes);
}
