/* allreduce_rab.c - SimGrid 3.32's allreduce rab1 and rab2 (allreduce-rab1.cpp,
 * allreduce-rab2.cpp): Rabenseifner's reduce-scatter, then the allgather of the pieces.
 *
 * rab1 (N a power of two; SimGrid throws otherwise, tir skips the partners beyond N):
 * the vector, padded to newcnt = N x ceil'(count / N) elements when N does not divide
 * count (ceil' = (count + N) / N, SimGrid's rounding), is halved N / 2, N / 4 ... 1
 * apart: at distance mask each rank sendrecvs newcnt x mask / N elements with rank ^
 * mask, and ends with newcnt / N of them, which colls::allgather (the forced or
 * selected allgather) spreads. rab2: an alltoall of send_size elements per peer
 * (count / N; with a rest, N when count < N, else (count + N) / N), then an allgather
 * of as many. */
#include "coll_algos.h"

#define T COLL_TAG_ALLREDUCE

/* Sub-collective kind of k elements a peer. */
static void sub(const coll_args *a, coll_prog *p, coll_kind kind, int64_t k) {
  coll_args b = *a;
  b.kind = kind;
  b.count = k;
  b.sbytes = b.rbytes = k * a->dtsize;
  coll_sub(&b, p);
}

void coll_allreduce_rab1(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank, pof2 = coll_pof2_floor(n);
  int64_t newcnt = a->count % n ? (a->count + n) / n * n : a->count, cnt = newcnt / pof2;
  for (int mask = pof2 / 2; mask > 0; mask >>= 1) {
    cnt = newcnt / (pof2 / mask);
    if ((r ^ mask) < n)
      coll_sendrecv(p, r ^ mask, cnt * a->dtsize, r ^ mask, cnt * a->dtsize, T);
  }
  sub(a, p, COLL_ALLGATHER, cnt);
}

void coll_allreduce_rab2(const coll_args *a, coll_prog *p) {
  int64_t n = a->size, c = a->count, k = c / n;
  if (c % n)
    k = c < n ? n : (c + n) / n;
  sub(a, p, COLL_ALLTOALL, k);
  sub(a, p, COLL_ALLGATHER, k);
}
