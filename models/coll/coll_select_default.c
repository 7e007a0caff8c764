/* coll_select_default.c - SimGrid 3.32's `default` collective selector
 * (src/smpi/colls/smpi_default_selector.cpp).
 *
 * Binomial bcast, Open MPI's basic linear barrier, SimGrid's nonblocking linear
 * reduce/gather(v)/scatter(v)/allgather(v)/alltoallv, reduce + bcast allreduce, and for
 * alltoall Open MPI's decision (alltoall__ompi, src/smpi/colls/smpi_openmpi_selector.cpp;
 * its table lives with the ompi selector): algorithm 1, 4 and 5 = basic_linear, 2 = pair,
 * 3 = bruck. */
#include "coll_algos.h"

#include <stddef.h>

const char *coll_alltoall_alg_name(int alg) {
  return alg == 2 ? "pair" : alg == 3 ? "bruck" : "basic_linear";
}

const char *coll_select_default(const coll_args *a, coll_prog *p) {
  (void)p;
  switch (a->kind) {
  case COLL_BCAST:
    return "binomial_tree";
  case COLL_BARRIER:
    return "ompi_basic_linear";
  case COLL_ALLTOALL: {
    int alg = coll_ompi_alltoall_alg(a->size, (long)a->sbytes);
    if (alg == 2 && (a->size & (a->size - 1))) /* SimGrid 3.32 aborts here: documented difference */
      alg = 1;
    return coll_alltoall_alg_name(alg);
  }
  default:
    return "default";
  }
}
