/* reduce_mvapich2.c - SimGrid 3.32's reduce mvapich2_knomial and mvapich2_two_level
 * (reduce-mvapich-knomial.cpp, reduce-mvapich-two-level.cpp).
 *
 * mvapich2_knomial: a k-nomial tree rooted at the root (k = mv2_reduce_intra_knomial_factor,
 * 4 unless the mvapich2 selector set it first): a rank posts receives from its children
 * (in reverse order of the tree's listing) and waits them all, then a rank other than the
 * root isends its vector to its parent and waits. Nothing for a zero count.
 * mvapich2_two_level builds SimGrid's SMP view. On a single host: vectors up to 2048 B
 * are reduced to the leader (ompi_basic_linear below local_size x 128 KiB, else
 * mvapich2_knomial) and sent on to the root (tag T + 1); larger ones take
 * mvapich2_knomial over the communicator. On several hosts: each host reduces to its
 * leader (MV2_Reduce_intra_function, the mpich reduce unless the mvapich2 selector chose
 * another; its ompi_basic_linear choice becomes mvapich2_knomial from local_size x 128
 * KiB), the leaders reduce to the leader of the root's host (MV2_Reduce_function, the
 * mpich reduce by default) over the leaders communicator, which sends the result on to
 * the root when the root is not a leader (tag T + 1). With tir/simgrid-compat a leader
 * reads MV2_Reduce_function when its intra-node reduce has returned, as SimGrid's does
 * (late_read below). */
#include "coll_algos.h"

#define T COLL_TAG_REDUCE

static int knomial_k(void) {
  coll_mv2_globals *g = &coll_mv2_state;
  if (g->reduce_intra_k < 0)
    g->reduce_intra_k = 4; /* SMPI_DEFAULT_KNOMIAL_FACTOR, kept for later calls */
  if (g->reduce_inter_k < 0)
    g->reduce_inter_k = 4;
  return g->reduce_intra_k;
}

void coll_reduce_mvapich2_knomial(const coll_args *a, coll_prog *p) {
  if (a->count == 0)
    return;
  int n = a->size, r = a->rank, k = knomial_k(), rel = (r - a->root + n) % n, dst = -1, mask = 1;
  for (; mask < n; mask *= k)
    if (rel % (k * mask)) {
      dst = rel / (k * mask) * (k * mask) + a->root;
      dst = dst >= n ? dst - n : dst;
      break;
    }
  int src[128], ns = 0; /* children: at most (k - 1) x levels */
  for (mask /= k; mask > 0; mask /= k)
    for (int j = 1; j < k; j++)
      if (rel + mask * j < n && ns < 128)
        src[ns++] = (r + mask * j) % n;
  for (int i = ns - 1; i >= 0; i--)
    coll_irecv(p, src[i], T, a->sbytes);
  if (ns)
    coll_waitall(p);
  if (r != a->root) {
    coll_isend(p, dst, T, a->sbytes);
    coll_waitall(p);
  }
}

/* The whole reduce on one host. */
static void single_host(const coll_args *a, coll_prog *p, const coll_smp *s) {
  if (a->sbytes > 2048) {
    coll_reduce_mvapich2_knomial(a, p);
    return;
  }
  coll_args b = *a;
  b.root = 0;
  int big = a->sbytes >= (int64_t)s->intra_size << 17;
  coll_on_intra(&b, big ? coll_reduce_mvapich2_knomial : coll_reduce_ompi_basic_linear, s, p);
  int leader_of_root = s->by_host[s->start[s->host[a->root]]];
  if (s->intra_rank == 0 && a->root != a->rank)
    coll_send(p, a->root, T + 1, a->sbytes);
  if (s->intra_rank != 0 && a->root == a->rank)
    coll_recv(p, leader_of_root, T + 1, a->sbytes);
}

/* What follows the intra-node reduce: the leaders' reduce (MV2_Reduce_function as the
 * globals have it now) and the leader of the root's host's send to the root. */
static void two_level_rest(const coll_args *a, coll_prog *p, const coll_smp *s) {
  int hr = s->host[a->root], leader_of_root = s->by_host[s->start[hr]];
  coll_args b = *a;
  if (s->intra_rank == 0) {
    b.root = hr;
    coll_on_leaders(&b, coll_mv2_state.reduce ? coll_mv2_state.reduce : coll_by_mpich, s, p);
  }
  if (s->intra_size > 1 && s->intra_rank == 0 && a->root != a->rank && s->me_host == hr)
    coll_send(p, a->root, T + 1, a->sbytes);
  if (s->intra_size > 1 && s->intra_rank != 0 && a->root == a->rank)
    coll_recv(p, leader_of_root, T + 1, a->sbytes);
}

/* two_level_rest as a generator, for a program cut at the late read below. */
static void late_rest(const coll_args *a, coll_prog *p) {
  coll_smp s;
  coll_smp_layout(a, &s);
  two_level_rest(a, p, &s);
  coll_smp_free(&s);
}

/* Late read (tir/simgrid-compat): SimGrid's leader reads MV2_Reduce_function once its
 * intra-node reduce has returned, when the selectors of ranks already in a later reduce
 * may have changed it (the globals are shared). The program of a reduce called as such
 * is cut there; late_rest generates the rest at the cut (coll_prog.late). Returns 1 if
 * cut. */
static int late_read(const coll_args *a, coll_prog *p, const coll_smp *s) {
  if (!coll_simgrid_compat || s->intra_rank != 0 || s->intra_size < 2 || p->resume_at >= 0 || p->nreq > 0 ||
      !coll_top_call(a))
    return 0;
  p->late = late_rest;
  p->init_at = 0;
  p->resume_at = (long)p->n;
  coll_resume(p);
  return 1;
}

void coll_reduce_mvapich2_two_level(const coll_args *a, coll_prog *p) {
  coll_smp_need(a, p);
  coll_smp s;
  coll_smp_layout(a, &s);
  if (s.intra_size == a->size) {
    single_host(a, p, &s);
    coll_smp_free(&s);
    return;
  }
  coll_args b = *a;
  b.root = 0;
  coll_gen_fn intra = coll_mv2_state.reduce_intra ? coll_mv2_state.reduce_intra : coll_by_mpich;
  if (intra == coll_reduce_ompi_basic_linear && a->sbytes >= (int64_t)s.intra_size << 17)
    intra = coll_reduce_mvapich2_knomial;
  if (s.intra_size > 1)
    coll_on_intra(&b, intra, &s, p);
  if (!late_read(a, p, &s))
    two_level_rest(a, p, &s);
  coll_smp_free(&s);
}
