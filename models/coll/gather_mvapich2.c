/* gather_mvapich2.c - SimGrid 3.32's gather mvapich2_two_level (gather-mvapich.cpp).
 *
 * It builds SimGrid's SMP view; a rank with nothing to move (the root receiving 0 bytes,
 * another rank sending 0) stops there. With nbytes the rank's block (the root's receive
 * block, the others' send block), each host gathers its blocks to its leader with
 * MV2_Gather_intra_node_function (the mpich gather unless the mvapich2 selector chose
 * another), then the leaders gather host blocks of local_size x nbytes to the leader of
 * the root's host (ompi_basic_linear over the leaders communicator; hosts holding
 * unequal numbers: colls::gatherv of the host sizes), which sends the whole N-block
 * vector to the root when the root is not a leader. On unequal hosts SimGrid reads
 * counts it never filled and crashes (its leader rank is the leaders communicator's
 * size): tir sends what the code means (doc/collectives.md). */
#include "coll_algos.h"

#include <stdlib.h>

#define T COLL_TAG_GATHER

/* The gather among leaders of local_size x nbytes blocks to leader hr. */
static void leaders_gather(const coll_args *a, coll_prog *p, const coll_smp *s, int64_t nbytes, int hr) {
  coll_args l = *a;
  l.root = hr;
  l.sbytes = nbytes * s->intra_size;
  int leader_of_root = s->by_host[s->start[hr]];
  l.rbytes = a->root == leader_of_root ? a->rbytes * s->intra_size : l.sbytes;
  if (coll_smp_is_uniform(a, p, s)) {
    coll_on_leaders(&l, coll_gather_ompi_basic_linear, s, p);
    return;
  }
  int64_t *v = malloc((size_t)s->nhosts * sizeof *v);
  for (int h = 0; h < s->nhosts; h++)
    v[h] = (s->start[h + 1] - s->start[h]) * (a->root == leader_of_root ? a->rbytes : nbytes);
  l.kind = COLL_GATHERV, l.rcounts = v;
  coll_on_leaders(&l, coll_sub, s, p);
  free(v);
}

void coll_gather_mvapich2_two_level(const coll_args *a, coll_prog *p) {
  coll_smp_need(a, p);
  int r = a->rank, root = a->root;
  if ((r == root && a->rbytes == 0) || (r != root && a->sbytes == 0))
    return;
  int64_t nbytes = r == root ? a->rbytes : a->sbytes;
  coll_smp s;
  coll_smp_layout(a, &s);
  coll_args g = *a;
  g.root = 0, g.rbytes = nbytes;
  coll_gen_fn intra = coll_mv2_state.gather_intra ? coll_mv2_state.gather_intra : coll_by_mpich;
  coll_on_intra(&g, intra, &s, p);
  int hr = s.host[root], leader_of_root = s.by_host[s.start[hr]];
  if (s.intra_rank == 0)
    leaders_gather(a, p, &s, nbytes, hr);
  if (s.intra_rank == 0 && root != r && leader_of_root == r)
    coll_send(p, root, T, nbytes * a->size);
  if (r == root && s.intra_rank != 0)
    coll_recv(p, leader_of_root, T, a->rbytes * a->size);
  coll_smp_free(&s);
}
