/* coll_select_mpich.c - SimGrid 3.32's `mpich` selector (smpi_mpich_selector.cpp), after
 * MPICH 3.x's default choices (the thresholds MPICH 4.0 keeps as its CVAR defaults).
 *
 * On a communicator that is not one of SimGrid's SMP sub-communicators, bcast, reduce and
 * allreduce first build the SMP view (init_smp, coll_smp.c); then bcast takes
 * SMP_binomial when every host holds as many ranks, reduce and allreduce take
 * mvapich2_two_level (SimGrid does so for commutative operations; its replay passes
 * MPI_OP_NULL, which these lines dereference, so SimGrid crashes there and tir treats it as
 * commutative, as every other selector does: doc/collectives.md). Otherwise, and on SMP
 * sub-communicators, MPICH's flat decision below. MPICH counts reduce_scatter and
 * allgatherv sizes in elements, not bytes, as SimGrid does. */
#include "coll_algos.h"

static int is_pof2(int n) { return (n & (n - 1)) == 0; }

static int64_t elems(const coll_args *a, int64_t bytes) { return a->dtsize > 0 ? bytes / a->dtsize : bytes; }

static const char *mpich_alltoall(const coll_args *a) {
  if (a->sbytes < 256 && a->size >= 8)
    return "bruck";
  if (a->sbytes < 32768)
    return "mvapich2_scatter_dest";
  return "ring"; /* SimGrid picks pair for odd sizes and aborts (pair needs 2^k): ring is MPICH's pairwise for them */
}

static const char *mpich_bcast(const coll_args *a) {
  if (a->sbytes < 12288 || a->size <= 8)
    return "binomial_tree";
  if (a->sbytes < 524288 && a->size % 2 == 0)
    return "scatter_rdb_allgather";
  return "scatter_LR_allgather";
}

static const char *mpich_allgatherv(const coll_args *a) {
  int64_t total = elems(a, coll_sum(a->rcounts, a->size));
  if (total == 0)
    return "none";
  if (is_pof2(a->size) && total < 524288)
    return "mpich_rdb";
  return total <= 81920 ? "ompi_bruck" : "mpich_ring";
}

/* bcast, reduce, allreduce on a whole communicator: the SMP algorithms, else NULL. */
static const char *mpich_smp(const coll_args *a, coll_prog *p) {
  if (a->smp_scope != 0 || (a->kind != COLL_BCAST && a->kind != COLL_REDUCE && a->kind != COLL_ALLREDUCE))
    return NULL;
  int uniform;
  coll_smp_cores(a, p, &uniform);
  if (a->kind != COLL_BCAST)
    return "mvapich2_two_level";
  return uniform ? "SMP_binomial" : NULL;
}

const char *coll_select_mpich(const coll_args *a, coll_prog *p) {
  int pof2 = coll_pof2_floor(a->size);
  const char *smp = mpich_smp(a, p);
  if (smp)
    return smp;
  switch (a->kind) {
  case COLL_ALLREDUCE:
    return a->sbytes > 2048 && a->count >= pof2 ? "rab_rdb" : "rdb";
  case COLL_ALLTOALL:
    return mpich_alltoall(a);
  case COLL_ALLTOALLV:
    return "bruck";
  case COLL_BARRIER:
    return "ompi_bruck";
  case COLL_BCAST:
    return mpich_bcast(a);
  case COLL_REDUCE:
    return a->count < pof2 || a->sbytes < 2048 ? "binomial" : "scatter_gather";
  case COLL_REDUCE_SCATTER:
    return elems(a, coll_sum(a->rcounts, a->size)) > 524288 ? "mpich_pair" : "mpich_rdb";
  case COLL_ALLGATHER: {
    int64_t total = a->sbytes * a->size;
    if (is_pof2(a->size) && total < 524288)
      return "rdb";
    return total <= 81920 ? "bruck" : "ring";
  }
  case COLL_ALLGATHERV:
    return mpich_allgatherv(a);
  case COLL_GATHER:
  case COLL_SCATTER:
    return "ompi_binomial";
  default:
    return "default";
  }
}
