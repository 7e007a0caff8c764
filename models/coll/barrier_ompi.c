/* barrier_ompi.c - Open MPI's barriers as SimGrid 3.32 has them (barrier-ompi.cpp).
 *
 * All messages are empty. basic_linear (SimGrid's default): everyone sends to 0 and waits
 * for its reply, 0 gathers with irecvs then releases with isends. recursivedoubling:
 * pairs at XOR distance 1, 2, 4... inside the largest power of two, the extra ranks
 * folded in before and released after. bruck: log2(N) sendrecvs to rank + 2^k from
 * rank - 2^k. two_procs: one sendrecv. tree: up then down a binomial tree of blocking
 * sends/recvs. doublering: two rounds of a ring of blocking messages. */
#include "coll_algos.h"

#define T COLL_TAG_BARRIER

void coll_barrier_ompi_basic_linear(const coll_args *a, coll_prog *p) {
  if (a->rank > 0) {
    coll_send(p, 0, T, 0);
    coll_recv(p, 0, T, 0);
    return;
  }
  for (int i = 1; i < a->size; i++)
    coll_irecv(p, i, T, 0);
  coll_waitall(p);
  for (int i = 1; i < a->size; i++)
    coll_isend(p, i, T, 0);
  coll_waitall(p);
}

/* Largest power of two <= n. */
static int pof2_floor(int n) {
  int m = 1;
  while (m <= n)
    m <<= 1;
  return m >> 1;
}

void coll_barrier_ompi_recursivedoubling(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, adj = pof2_floor(n);
  if (adj != n && r >= adj)
    coll_sendrecv(p, r - adj, 0, r - adj, 0, T);
  else if (adj != n && r < n - adj)
    coll_recv(p, r + adj, T, 0);
  if (r < adj)
    for (int mask = 1; mask < adj; mask <<= 1)
      coll_sendrecv(p, r ^ mask, 0, r ^ mask, 0, T);
  if (adj != n && r < n - adj)
    coll_send(p, r + adj, T, 0);
}

void coll_barrier_ompi_bruck(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size;
  for (int d = 1; d < n; d <<= 1)
    coll_sendrecv(p, (r + d) % n, 0, (r + n - d) % n, 0, T);
}

void coll_barrier_ompi_two_procs(const coll_args *a, coll_prog *p) {
  int peer = (a->rank + 1) & 1;
  coll_sendrecv(p, peer, 0, peer, 0, T);
}

/* One sweep of the tree: up (toward 0) or down. */
static void tree_sweep(const coll_args *a, coll_prog *p, int jump, int up) {
  int partner = a->rank ^ jump;
  if ((partner & (jump - 1)) || partner >= a->size)
    return;
  if ((partner > a->rank) == up)
    coll_recv(p, partner, T, 0);
  else
    coll_send(p, partner, T, 0);
}

void coll_barrier_ompi_tree(const coll_args *a, coll_prog *p) {
  int depth = 1;
  while (depth < a->size)
    depth <<= 1;
  for (int jump = 1; jump < depth; jump <<= 1)
    tree_sweep(a, p, jump, 1);
  for (int jump = depth >> 1; jump > 0; jump >>= 1)
    tree_sweep(a, p, jump, 0);
}

void coll_barrier_ompi_doublering(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, left = (r + n - 1) % n, right = (r + 1) % n;
  for (int round = 0; round < 2; round++) {
    if (r > 0)
      coll_recv(p, left, T, 0);
    coll_send(p, right, T, 0);
    if (r == 0)
      coll_recv(p, left, T, 0);
  }
}
