/* bcast_mvapich2.c - SimGrid 3.32's MVAPICH2 broadcasts (bcast-mvapich-smp.cpp):
 * mvapich2_knomial_intra_node, mvapich2_inter_node, mvapich2_intra_node.
 *
 * All three first build SimGrid's SMP view of the communicator (coll_smp.c).
 * knomial_intra_node, despite its name, runs on the communicator it is given: a k-nomial
 * tree rooted at the root in ranks relative to it, k = mv2_intra_node_knomial_factor (4
 * unless the mvapich2 selector set it); a rank receives once from its parent, then for
 * each lower digit position isends to its up to k - 1 children there and waits for them.
 * inter_node moves the buffer from the root to its host's leader, then the leaders run
 * MV2_Bcast_function (the mpich bcast unless the mvapich2 selector chose another) on the
 * leaders communicator; other ranks get nothing (the intra-node part is the caller's).
 * intra_node, with nbytes = count x size: when N > 64 or 16384 < nbytes < 524288 it runs
 * inter_node then, inside each host, the mpich bcast rooted at the call's root (up to
 * 131072 B; SimGrid passes the communicator's root as a host rank: tir takes it modulo
 * the host size, doc/collectives.md) or knomial_intra_node from the host leader; else a
 * binomial tree (up to 16384 B) or scatter_LR_allgather over the whole communicator. */
#include "coll_algos.h"

#define T COLL_TAG_BCAST

/* The k-nomial tree of a's communicator, k >= 2. */
static void knomial(const coll_args *a, coll_prog *p, int k) {
  int n = a->size, r = a->rank, rel = (r - a->root + n) % n, mask = 1;
  if (n <= 1)
    return;
  for (; mask < n; mask *= k)
    if (rel % (k * mask)) {
      int src = rel / (k * mask) * (k * mask) + a->root;
      coll_recv(p, src >= n ? src - n : src, T, a->sbytes);
      break;
    }
  for (mask /= k; mask > 0; mask /= k) {
    for (int j = 1; j < k; j++)
      if (rel + mask * j < n)
        coll_isend(p, (r + mask * j) % n, T, a->sbytes);
    coll_waitall(p);
  }
}

void coll_bcast_mvapich2_knomial_intra_node(const coll_args *a, coll_prog *p) {
  coll_smp_need(a, p);
  knomial(a, p, coll_mv2_state.intra_knomial);
}

void coll_bcast_mvapich2_inter_node(const coll_args *a, coll_prog *p) {
  coll_smp_need(a, p);
  coll_smp s;
  coll_smp_layout(a, &s);
  int r = a->rank, root = a->root, hr = s.host[root], leader_of_root = s.by_host[s.start[hr]];
  int global_rank = s.intra_rank == 0 && s.intra_size > 1 ? s.me_host : -1;
  if (s.intra_size > 1 && s.intra_rank == 0 && root != r && hr == global_rank)
    coll_recv(p, root, T, a->sbytes);
  if (s.intra_size > 1 && s.intra_rank != 0 && root == r)
    coll_send(p, leader_of_root, T, a->sbytes);
  if (s.intra_rank == 0) {
    coll_args b = *a;
    b.root = hr;
    coll_on_leaders(&b, coll_mv2_state.bcast ? coll_mv2_state.bcast : coll_by_mpich, &s, p);
  }
  coll_smp_free(&s);
}

void coll_bcast_mvapich2_intra_node(const coll_args *a, coll_prog *p) {
  if (a->count == 0)
    return;
  coll_smp_need(a, p);
  int64_t nbytes = a->sbytes;
  if (a->size <= 64 && !(nbytes > 16384 && nbytes < 524288)) {
    if (nbytes <= 16384)
      coll_bcast_binomial_tree(a, p);
    else
      coll_bcast_scatter_LR_allgather(a, p);
    return;
  }
  coll_bcast_mvapich2_inter_node(a, p);
  coll_smp s;
  coll_smp_layout(a, &s);
  coll_args b = *a;
  b.root = nbytes <= 131072 ? a->root % s.intra_size : 0;
  coll_on_intra(&b, nbytes <= 131072 ? coll_by_mpich : coll_bcast_mvapich2_knomial_intra_node, &s, p);
  coll_smp_free(&s);
}
