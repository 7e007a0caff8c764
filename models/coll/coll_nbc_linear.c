/* coll_nbc_linear.c - the linear algorithms SimGrid builds from its nonblocking
 * collectives (src/smpi/colls/smpi_nbc_impl.cpp): every request of the call is started
 * at once, then all are waited. These are SimGrid's defaults for reduce, gather(v),
 * scatter(v), allgather(v), alltoallv, and its scan/exscan.
 *
 * Sizes: the sender's bytes travel (MPI semantics); receives are posted with the
 * receiver's own count, as SimGrid does. */
#include "coll_algos.h"

/* Rooted gather-like: non-roots isend to the root, the root irecvs from all others in
 * ascending rank order. rbytes_of(i) is what the root expects from rank i. */
static void to_root(const coll_args *a, coll_prog *p, int tag, const int64_t *rcounts) {
  if (a->rank != a->root)
    coll_isend(p, a->root, tag, a->sbytes);
  else
    for (int i = 0; i < a->size; i++)
      if (i != a->root)
        coll_irecv(p, i, tag, rcounts ? rcounts[i] : a->rbytes);
  coll_waitall(p);
}

static void from_root(const coll_args *a, coll_prog *p, int tag, const int64_t *scounts) {
  if (a->rank != a->root)
    coll_irecv(p, a->root, tag, a->rbytes);
  else
    for (int i = 0; i < a->size; i++)
      if (i != a->root)
        coll_isend(p, i, tag, scounts ? scounts[i] : a->sbytes);
  coll_waitall(p);
}

void coll_reduce_nbc_linear(const coll_args *a, coll_prog *p) { to_root(a, p, COLL_TAG_REDUCE, NULL); }
void coll_gather_nbc_linear(const coll_args *a, coll_prog *p) { to_root(a, p, COLL_TAG_GATHER, NULL); }
void coll_gatherv_nbc_linear(const coll_args *a, coll_prog *p) { to_root(a, p, COLL_TAG_GATHERV, a->rcounts); }
void coll_scatter_nbc_linear(const coll_args *a, coll_prog *p) { from_root(a, p, COLL_TAG_SCATTER, NULL); }
void coll_scatterv_nbc_linear(const coll_args *a, coll_prog *p) {
  from_root(a, p, COLL_TAG_SCATTERV, a->scounts);
}

/* For every other rank in ascending order: isend own block, irecv its block (with one
 * size: the ranks below, then those above, as two series). */
static void all_pairs(const coll_args *a, coll_prog *p, int tag, const int64_t *rcounts) {
  if (!rcounts) {
    coll_pair_each(p, a->rank, a->size, tag, a->sbytes, a->rbytes, 1);
  } else {
    for (int i = 0; i < a->size; i++)
      if (i != a->rank) {
        coll_isend(p, i, tag, a->sbytes);
        coll_irecv(p, i, tag, rcounts[i]);
      }
  }
  coll_waitall(p);
}

void coll_allgather_nbc_linear(const coll_args *a, coll_prog *p) { all_pairs(a, p, COLL_TAG_ALLGATHER, NULL); }
void coll_allgatherv_nbc_linear(const coll_args *a, coll_prog *p) {
  all_pairs(a, p, COLL_TAG_ALLGATHERV, a->rcounts);
}

/* ialltoallv: all irecvs (ascending), then all isends (ascending), then wait. */
void coll_alltoallv_nbc_linear(const coll_args *a, coll_prog *p) {
  if (a->size <= 1)
    return;
  for (int i = 0; i < a->size; i++)
    if (i != a->rank)
      coll_irecv(p, i, COLL_TAG_ALLTOALLV, a->rcounts[i]);
  for (int i = 0; i < a->size; i++)
    if (i != a->rank)
      coll_isend(p, i, COLL_TAG_ALLTOALLV, a->scounts[i]);
  coll_waitall(p);
}

/* SimGrid's linear scan/exscan (smpi_coll.cpp): irecv from every lower rank, isend to
 * every higher rank, then MPI_Wait on each in order (MPI_OP_NULL takes its
 * non-commutative path). */
void coll_scan_linear(const coll_args *a, coll_prog *p) {
  for (int i = 0; i < a->rank; i++)
    coll_irecv(p, i, COLL_TAG_SCAN, a->rbytes);
  for (int i = a->rank + 1; i < a->size; i++)
    coll_isend(p, i, COLL_TAG_SCAN, a->sbytes);
  coll_waiteach(p);
}
