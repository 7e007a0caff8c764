/* coll_select_default.c - SimGrid 3.32's `default` collective selector
 * (src/smpi/colls/smpi_default_selector.cpp).
 *
 * Binomial bcast, Open MPI's basic linear barrier, SimGrid's nonblocking linear
 * reduce/gather(v)/scatter(v)/allgather(v)/alltoallv, reduce + bcast allreduce, and for
 * alltoall Open MPI's decision (alltoall__ompi, src/smpi/colls/smpi_openmpi_selector.cpp),
 * whose table is below: algorithm 1, 4 and 5 = basic_linear, 2 = pair, 3 = bruck. */
#include "coll_algos.h"

#include <stddef.h>

/* One row of the alltoall table: for communicators smaller than max_n, the first
 * (bytes-per-peer limit, algorithm) pair whose limit exceeds b gives the algorithm;
 * otherwise the row's last algorithm. */
typedef struct row {
  int max_n;
  int n;
  long lim[10];
  int alg[11];
} row;

static const row rows[] = {
    {3, 9, {2, 4, 16, 64, 256, 4096, 32768, 262144, 1048576}, {2, 5, 2, 5, 2, 5, 2, 4, 5, 2}},
    {8, 5, {8192, 16384, 65536, 524288, 1048576}, {4, 1, 4, 1, 2, 1}},
    {16, 1, {262144}, {4, 1}},
    {32, 6, {4, 512, 8192, 32768, 262144, 524288}, {4, 3, 4, 1, 4, 1, 4}},
    {64, 2, {512, 524288}, {3, 1, 4}},
    {128, 4, {1024, 2048, 4096, 262144}, {3, 1, 4, 1, 2}},
    {256, 3, {1024, 2048, 262144}, {3, 4, 1, 2}},
    {512, 3, {1024, 8192, 32768}, {3, 4, 1, 2}},
    {1024, 5, {512, 8192, 16384, 131072, 262144}, {3, 4, 1, 4, 1, 2}},
    {2048, 5, {512, 1024, 2048, 16384, 262144}, {3, 4, 1, 4, 1, 4}},
    {4096, 4, {1024, 4096, 8192, 131072}, {3, 4, 1, 4, 1}},
    {0, 5, {2048, 8192, 16384, 32768, 65536}, {3, 4, 1, 4, 1, 4}},
};

/* Open MPI 4.1's alltoall algorithm number for n ranks and b bytes per peer. */
int coll_ompi_alltoall_alg(int n, long b) {
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    const row *r = &rows[i];
    if (r->max_n && n >= r->max_n)
      continue;
    for (int k = 0; k < r->n; k++)
      if (b < r->lim[k])
        return r->alg[k];
    return r->alg[r->n];
  }
  return 1;
}

const char *coll_alltoall_alg_name(int alg) {
  return alg == 2 ? "pair" : alg == 3 ? "bruck" : "basic_linear";
}

const char *coll_select_default(const coll_args *a) {
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
