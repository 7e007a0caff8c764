/* bcast_smp_binomial.c - SimGrid 3.32's bcast SMP_binomial (bcast-SMP-binomial.cpp).
 *
 * With c ranks per host (ranks placed host by host), a non-zero root first sends the
 * buffer to rank 0; then the host leaders (ranks multiple of c) run a binomial tree
 * rooted at 0 over leader indices, and every host runs a binomial tree from its leader
 * over local indices. SimGrid checks a local child against N only, so with c not a power
 * of two the last local rank of a host sends to the next host's leader, which never
 * receives it: tir does so under tir/simgrid-compat, and checks the child against the
 * host otherwise (coll_smp_host_end). Hosts with unequal rank counts use the mpich bcast.
 * It first builds SimGrid's SMP view (coll_smp.c). */
#include "coll_algos.h"

#define T COLL_TAG_BCAST

/* Binomial tree over indices me of size, index i being rank base + i x step; children
 * checked against n. */
static void tree(coll_prog *p, int me, int size, int base, int step, int n, int64_t b) {
  int mask = 1;
  for (; mask < size; mask <<= 1)
    if (me & mask) {
      coll_recv(p, base + (me - mask) * step, T, b);
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (base + (me + mask) * step < n)
      coll_send(p, base + (me + mask) * step, T, b);
}

void coll_bcast_SMP_binomial(const coll_args *a, coll_prog *p) {
  int uniform, c = coll_smp_cores(a, p, &uniform), r = a->rank, n = a->size;
  if (!uniform) {
    coll_algo_at(coll_algo_find(COLL_BCAST, coll_select_mpich(a, p)))->gen(a, p);
    return;
  }
  int intra = r % c, base = r / c * c, intra_size = base == n / c * c ? n - base : c;
  if (a->root != 0 && r == a->root)
    coll_send(p, 0, T, a->sbytes);
  else if (a->root != 0 && r == 0)
    coll_recv(p, a->root, T, a->sbytes);
  if (intra == 0)
    tree(p, r / c, (n - 1) / c + 1, 0, c, n, a->sbytes);
  tree(p, intra, intra_size, base, 1, coll_smp_host_end(r, c, n), a->sbytes);
}
