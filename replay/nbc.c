/* nbc.c - programs of non-blocking collectives: SimGrid 3.32's linear shapes.
 *
 * Tags are the blocking collectives' minus one (SimGrid's `external` offset), so a
 * non-blocking call never matches the messages of a blocking one. Sizes follow the
 * blocking calls: a->sbytes / a->rbytes per peer, or the per-rank vectors. */
#include "nbc.h"

static void pairs(const coll_args *a, coll_prog *p, int tag, int send_first) {
  if (!a->rcounts && !a->scounts) { /* one size: the ranks below, then those above, as series */
    coll_pair_each(p, a->rank, a->size, tag, a->sbytes, a->rbytes, send_first);
    return;
  }
  for (int i = 0; i < a->size; i++) {
    if (i == a->rank)
      continue;
    int64_t rb = a->rcounts ? a->rcounts[i] : a->rbytes, sb = a->scounts ? a->scounts[i] : a->sbytes;
    if (send_first) {
      coll_isend(p, i, tag, sb);
      coll_irecv(p, i, tag, rb);
    } else {
      coll_irecv(p, i, tag, rb);
      coll_isend(p, i, tag, sb);
    }
  }
}

static void rooted(const coll_args *a, coll_prog *p, int tag, int to_root) {
  if (a->rank != a->root) {
    if (to_root)
      coll_isend(p, a->root, tag, a->sbytes);
    else
      coll_irecv(p, a->root, tag, a->rbytes);
    return;
  }
  for (int i = 0; i < a->size; i++)
    if (i != a->root) {
      if (to_root)
        coll_irecv(p, i, tag, a->rcounts ? a->rcounts[i] : a->rbytes);
      else
        coll_isend(p, i, tag, a->scounts ? a->scounts[i] : a->sbytes);
    }
}

void nbc_generate(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank;
  coll_prog_reset(p);
  switch (a->kind) {
  case COLL_BARRIER: /* non-roots isend then irecv with 0; rank 0 irecv then isend with each */
    if (r > 0) {
      coll_isend(p, 0, COLL_TAG_BARRIER - 1, 0);
      coll_irecv(p, 0, COLL_TAG_BARRIER - 1, 0);
    } else
      pairs(a, p, COLL_TAG_BARRIER - 1, 0);
    break;
  case COLL_BCAST: rooted(a, p, COLL_TAG_BCAST - 1, 0); break;
  case COLL_SCATTER: rooted(a, p, COLL_TAG_SCATTER - 1, 0); break;
  case COLL_SCATTERV: rooted(a, p, COLL_TAG_SCATTERV - 1, 0); break;
  case COLL_REDUCE: rooted(a, p, COLL_TAG_REDUCE - 1, 1); break;
  case COLL_GATHER: rooted(a, p, COLL_TAG_GATHER - 1, 1); break;
  case COLL_GATHERV: rooted(a, p, COLL_TAG_GATHERV - 1, 1); break;
  case COLL_ALLREDUCE: pairs(a, p, COLL_TAG_ALLREDUCE - 1, 1); break;
  case COLL_ALLGATHER: pairs(a, p, COLL_TAG_ALLGATHER - 1, 1); break;
  case COLL_ALLGATHERV: pairs(a, p, COLL_TAG_ALLGATHERV - 1, 1); break;
  case COLL_REDUCE_SCATTER: { /* each rank sends every other rank its block, receives its own */
    coll_args b = *a;
    b.scounts = a->rcounts;
    b.rcounts = NULL;
    b.rbytes = a->rcounts[r];
    pairs(&b, p, COLL_TAG_REDUCE_SCATTER - 1, 1);
    break;
  }
  case COLL_ALLTOALL: /* irecvs from rank+1.., then isends to rank-1.. (two series) */
    coll_alltoall_posts(p, r, n, COLL_TAG_ALLTOALL - 1, a->sbytes, a->rbytes);
    break;
  case COLL_ALLTOALLV:
    for (int i = 0; i < n; i++)
      if (i != r)
        coll_irecv(p, i, COLL_TAG_ALLTOALLV - 1, a->rcounts[i]);
    for (int i = 0; i < n; i++)
      if (i != r)
        coll_isend(p, i, COLL_TAG_ALLTOALLV - 1, a->scounts[i]);
    break;
  case COLL_SCAN:
  case COLL_EXSCAN:
    for (int i = 0; i < r; i++)
      coll_irecv(p, i, COLL_TAG_SCAN - 1, a->rbytes);
    for (int i = r + 1; i < n; i++)
      coll_isend(p, i, COLL_TAG_SCAN - 1, a->sbytes);
    break;
  default:
    break;
  }
}
