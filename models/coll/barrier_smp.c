/* barrier_smp.c - SimGrid 3.32's barrier mpich_smp and mvapich2_pair
 * (barrier-mpich-smp.cpp, barrier-mvapich2-pair.cpp).
 *
 * mpich_smp builds SimGrid's SMP view, then runs the mpich barrier (ompi_bruck) inside
 * each host, the same among host leaders, and releases each host with the mpich bcast of
 * one byte from its leader. mvapich2_pair: with N2 the largest power of two <= N, ranks
 * N2 + i first signal rank i (empty messages), the N2 lower ranks exchange empty
 * sendrecvs at distances 1, 2, 4..., then rank i releases N2 + i; an upper rank does one
 * sendrecv with its lower partner. */
#include "coll_algos.h"

#define T COLL_TAG_BARRIER

void coll_barrier_mpich_smp(const coll_args *a, coll_prog *p) {
  coll_smp_need(a, p);
  coll_smp s;
  coll_smp_layout(a, &s);
  coll_on_intra(a, coll_barrier_ompi_bruck, &s, p);
  if (s.intra_rank == 0)
    coll_on_leaders(a, coll_barrier_ompi_bruck, &s, p);
  coll_args b = *a;
  b.kind = COLL_BCAST, b.root = 0, b.count = 1, b.dtsize = 1, b.sbytes = b.rbytes = 1;
  coll_on_intra(&b, coll_by_mpich, &s, p);
  coll_smp_free(&s);
}

void coll_barrier_mvapich2_pair(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank, n2 = coll_pof2_floor(n), surfeit = n - n2;
  if (n == 1)
    return;
  if (r < n2) {
    if (r < surfeit)
      coll_recv(p, n2 + r, T, 0);
    for (int d = 1; d < n2; d <<= 1)
      coll_sendrecv(p, r ^ d, 0, r ^ d, 0, T);
    if (r < surfeit)
      coll_send(p, n2 + r, T, 0);
  } else
    coll_sendrecv(p, r - n2, 0, r - n2, 0, T);
}
