/* allreduce_default.c - SimGrid's default allreduce: its default reduce to rank 0
 * (linear nonblocking), then its default bcast (binomial tree) from rank 0. */
#include "coll_algos.h"

void coll_allreduce_default(const coll_args *a, coll_prog *p) {
  coll_args b = *a;
  b.root = 0;
  coll_reduce_nbc_linear(&b, p);
  coll_bcast_binomial_tree(&b, p);
}
