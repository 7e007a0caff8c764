/* allreduce_smp_rsag.c - SimGrid 3.32's SMP-aware allreduces smp_rsag, smp_rsag_lr and
 * smp_rsag_rab (src/smpi/colls/allreduce/allreduce-smp-rsag*.cpp).
 *
 * Hosts and leaders as in allreduce_smp.c (c ranks per host, placed host by host): each
 * host reduces to its leader up a binomial tree, the P host leaders run a reduce-scatter
 * then an allgather among themselves, and each host bcasts the result down a binomial
 * tree. smp_rsag: two rings of P - 1 sendrecvs of count / P elements (tag T + step, the
 * count % P rest never sent); smp_rsag_lr: the same rings, the last segment carrying the
 * rest; smp_rsag_rab: recursive halving (count / 2, / 4... elements, integer divisions
 * chained) then recursive doubling back from twice the last count, between leaders
 * leader ^ mask. SimGrid throws on smp_rsag_rab unless N is a power of two; tir runs it
 * and skips the partners beyond the last host (doc/collectives.md). */
#include "coll_algos.h"

#define T COLL_TAG_ALLREDUCE

/* Elements of ring segment s of P when the last one takes the rest (lr) or not. */
static int64_t seg_count(int64_t count, int P, int s, int lr) {
  int64_t q = count / P;
  return lr && s * q == (int64_t)(P - 1) * q ? q + count % P : q;
}

/* The two rings of the host leaders (r a leader). */
static void inter_rings(const coll_args *a, coll_prog *p, int c, int lr) {
  int n = a->size, inter = a->rank / c, P = (n + c - 1) / c, d = a->dtsize;
  int to = (inter + 1) % P * c, from = (inter + P - 1) % P * c;
  for (int ring = 0; ring < 2; ring++)
    for (int i = 0; i < P - 1; i++) {
      int s = (inter - 1 - i + ring + P) % P, q = (inter - 2 - i + ring + P) % P;
      coll_sendrecv(p, to, seg_count(a->count, P, s, lr) * d, from, seg_count(a->count, P, q, lr) * d, T + i);
    }
}

static void smp_rsag(const coll_args *a, coll_prog *p, int lr) {
  int c = coll_smp_cores(a, p, NULL), r = a->rank, n = a->size;
  coll_smp_intra_reduce(p, r, c, n, T, a->sbytes);
  if (r % c == 0)
    inter_rings(a, p, c, lr);
  coll_smp_intra_bcast(p, r, c, n, T, a->sbytes);
}

void coll_allreduce_smp_rsag(const coll_args *a, coll_prog *p) { smp_rsag(a, p, 0); }

void coll_allreduce_smp_rsag_lr(const coll_args *a, coll_prog *p) { smp_rsag(a, p, 1); }

/* Recursive halving then doubling between the host leaders (r a leader). */
static void inter_rab(const coll_args *a, coll_prog *p, int c) {
  int n = a->size, inter = a->rank / c, P = n / c, d = a->dtsize, mask = 1;
  int64_t cur = a->count / 2;
  for (; mask < P; mask *= 2, cur /= 2)
    if ((inter ^ mask) * c < n)
      coll_sendrecv(p, (inter ^ mask) * c, cur * d, (inter ^ mask) * c, cur * d, T);
  cur *= 2;
  for (mask >>= 1; mask >= 1; mask >>= 1, cur *= 2)
    if ((inter ^ mask) * c < n)
      coll_sendrecv(p, (inter ^ mask) * c, cur * d, (inter ^ mask) * c, cur * d, T);
}

void coll_allreduce_smp_rsag_rab(const coll_args *a, coll_prog *p) {
  int c = coll_smp_cores(a, p, NULL), r = a->rank, n = a->size;
  coll_smp_intra_reduce(p, r, c, n, T, a->sbytes);
  if (r % c == 0)
    inter_rab(a, p, c);
  coll_smp_intra_bcast(p, r, c, n, T, a->sbytes);
}
