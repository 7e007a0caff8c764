/* allreduce_mvapich2.c - SimGrid 3.32's allreduce mvapich2_rs and mvapich2_two_level
 * (allreduce-mvapich-rs.cpp, allreduce-mvapich-two-level.cpp).
 *
 * mvapich2_rs is MPICH's allreduce: nothing for a zero count, recursive doubling (rdb)
 * when the count is below the largest power of two <= N, else recursive halving and
 * doubling (rab_rdb). mvapich2_two_level builds SimGrid's SMP view, then: every rank
 * takes part in the intra-node step MV2_Allreduce_intra_function (the mpich allreduce
 * on the host communicator unless the mvapich2 selector chose a reduce to rank 0 of the
 * whole communicator); the host leaders, when there are several hosts, run
 * MV2_Allreducection (rdb, or mvapich2_rs when the selector chose anything else) on the leaders
 * communicator; then each host bcasts (colls::bcast) from its leader. */
#include "coll_algos.h"

void coll_allreduce_mvapich2_rs(const coll_args *a, coll_prog *p) {
  if (a->count == 0)
    return;
  if (a->count < coll_pof2_floor(a->size))
    coll_allreduce_rdb(a, p);
  else
    coll_allreduce_rab_rdb(a, p);
}

void coll_allreduce_mvapich2_two_level(const coll_args *a, coll_prog *p) {
  coll_smp_need(a, p);
  if (a->count == 0)
    return;
  coll_smp s;
  coll_smp_layout(a, &s);
  const coll_mv2_globals *g = &coll_mv2_state;
  if (g->allreduce_intra && g->allreduce_intra_on_comm) {
    coll_args r = *a;
    r.kind = COLL_REDUCE, r.root = 0;
    coll_sub(&r, p);
  } else
    coll_on_intra(a, g->allreduce_intra ? g->allreduce_intra : coll_by_mpich, &s, p);
  if (s.intra_rank == 0 && s.intra_size != a->size) /* rdb unless set to anything else */
    coll_on_leaders(a, !g->allreduce || g->allreduce == coll_allreduce_rdb ? coll_allreduce_rdb
                                                                            : coll_allreduce_mvapich2_rs, &s, p);
  coll_args b = *a;
  b.kind = COLL_BCAST, b.root = 0;
  coll_on_intra(&b, coll_sub, &s, p);
  coll_smp_free(&s);
}
