/* alltoall_barrier.c - the synchronized pair and ring alltoall(v)s of SimGrid 3.32
 * (alltoall[v]-{pair,ring}-{light,mpi,one}-barrier.cpp).
 *
 * Step i of N exchanges with a partner: pair, rank ^ i (power-of-two sizes: SimGrid
 * throws otherwise, tir skips partners >= N); ring, to rank + i and from rank - i. Step
 * 0 is the rank itself, a local copy. The variants add synchronization: "one" calls
 * colls::barrier once before the steps, "mpi" before every step, "light" follows every
 * step but the last with a 1-byte sendrecv announcing the next one (pair: with the next
 * partner; ring: to rank - (i + 1), from rank + (i + 1)). */
#include "coll_algos.h"

enum { ONE, MPI, LIGHT };

/* Bytes to peer d and from peer s in one step. */
static int64_t to_bytes(const coll_args *a, int d) { return a->kind == COLL_ALLTOALLV ? a->scounts[d] : a->sbytes; }
static int64_t from_bytes(const coll_args *a, int s) { return a->kind == COLL_ALLTOALLV ? a->rcounts[s] : a->rbytes; }

static void barrier(const coll_args *a, coll_prog *p) {
  coll_args b = *a;
  b.kind = COLL_BARRIER;
  coll_sub(&b, p);
}

static void steps(const coll_args *a, coll_prog *p, int ring, int mode) {
  int r = a->rank, n = a->size, tag = a->kind == COLL_ALLTOALLV ? COLL_TAG_ALLTOALLV : COLL_TAG_ALLTOALL;
  if (mode == ONE)
    barrier(a, p);
  for (int i = 0; i < n; i++) {
    int d = ring ? (r + i) % n : r ^ i, s = ring ? (r - i + n) % n : r ^ i;
    if (mode == MPI)
      barrier(a, p);
    if (i == 0 || d >= n)
      continue;
    /* SimGrid's pair alltoallv light posts recv_counts[dst] (= the source here) */
    coll_sendrecv(p, d, to_bytes(a, d), s, from_bytes(a, s), tag);
    if (mode == LIGHT && i + 1 < n) {
      int nd = ring ? (r + i + 1) % n : r ^ (i + 1), ns = ring ? (r - i - 1 + n) % n : r ^ (i + 1);
      if (nd < n)
        coll_sendrecv(p, ns, 1, nd, 1, tag);
    }
  }
}

void coll_alltoall_pair_one_barrier(const coll_args *a, coll_prog *p) { steps(a, p, 0, ONE); }
void coll_alltoall_pair_mpi_barrier(const coll_args *a, coll_prog *p) { steps(a, p, 0, MPI); }
void coll_alltoall_pair_light_barrier(const coll_args *a, coll_prog *p) { steps(a, p, 0, LIGHT); }
void coll_alltoall_ring_one_barrier(const coll_args *a, coll_prog *p) { steps(a, p, 1, ONE); }
void coll_alltoall_ring_mpi_barrier(const coll_args *a, coll_prog *p) { steps(a, p, 1, MPI); }
void coll_alltoall_ring_light_barrier(const coll_args *a, coll_prog *p) { steps(a, p, 1, LIGHT); }
