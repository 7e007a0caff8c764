/* scatter_mvapich2.c - SimGrid 3.32's scatter mvapich2_two_level_direct and
 * mvapich2_two_level_binomial (scatter-mvapich-two-level.cpp).
 *
 * Both build SimGrid's SMP view; a rank with nothing to move stops there. On a single
 * host: ompi_basic_linear over the communicator. Otherwise, with nbytes the rank's block
 * (the root's send block, the others' receive block): a root that is not its host's
 * leader first sends the whole vector (N blocks) to that leader; the leaders scatter host
 * blocks of local_size x nbytes from it (direct: ompi_basic_linear, binomial:
 * ompi_binomial, over the leaders communicator; hosts holding unequal numbers:
 * colls::scatterv of the host sizes); then each host scatters from its leader with
 * MV2_Scatter_intra_function (the mpich scatter unless the mvapich2 selector chose
 * another). */
#include "coll_algos.h"

#include <stdlib.h>

#define T COLL_TAG_SCATTER

static void leaders_scatter(const coll_args *a, coll_prog *p, const coll_smp *s, int64_t nbytes, coll_gen_fn inter) {
  int hr = s->host[a->root], leader_of_root = s->by_host[s->start[hr]];
  coll_args l = *a;
  l.root = hr;
  l.rbytes = nbytes * s->intra_size;
  l.sbytes = leader_of_root != a->root ? nbytes * s->intra_size : a->sbytes * s->intra_size;
  if (coll_smp_is_uniform(a, p, s)) {
    coll_on_leaders(&l, inter, s, p);
    return;
  }
  int64_t *v = malloc((size_t)s->nhosts * sizeof *v);
  for (int h = 0; h < s->nhosts; h++)
    v[h] = (s->start[h + 1] - s->start[h]) * (leader_of_root != a->root ? nbytes : a->sbytes);
  l.kind = COLL_SCATTERV, l.scounts = v;
  coll_on_leaders(&l, coll_sub, s, p);
  free(v);
}

static void two_level(const coll_args *a, coll_prog *p, coll_gen_fn inter) {
  coll_smp_need(a, p);
  int r = a->rank, root = a->root;
  if ((r == root && a->rbytes == 0) || (r != root && a->sbytes == 0))
    return;
  coll_smp s;
  coll_smp_layout(a, &s);
  if (s.intra_size == a->size) {
    coll_scatter_ompi_basic_linear(a, p);
    coll_smp_free(&s);
    return;
  }
  int64_t nbytes = r == root ? a->sbytes : a->rbytes;
  int hr = s.host[root], leader_of_root = s.by_host[s.start[hr]];
  if (s.intra_rank == 0 && root != r && leader_of_root == r)
    coll_recv(p, root, T, nbytes * a->size);
  if (r == root && s.intra_rank != 0)
    coll_send(p, leader_of_root, T, a->sbytes * a->size);
  if (s.nhosts > 1 && s.intra_rank == 0)
    leaders_scatter(a, p, &s, nbytes, inter);
  coll_args in = *a;
  in.root = 0, in.sbytes = nbytes;
  coll_on_intra(&in, coll_mv2_state.scatter_intra ? coll_mv2_state.scatter_intra : coll_by_mpich, &s, p);
  coll_smp_free(&s);
}

void coll_scatter_mvapich2_two_level_direct(const coll_args *a, coll_prog *p) {
  two_level(a, p, coll_scatter_ompi_basic_linear);
}

void coll_scatter_mvapich2_two_level_binomial(const coll_args *a, coll_prog *p) {
  two_level(a, p, coll_scatter_ompi_binomial);
}
