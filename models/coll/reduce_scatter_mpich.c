/* reduce_scatter_mpich.c - MPICH's recursive-doubling and noncommutative reduce_scatters
 * as SimGrid 3.32 has them (reduce_scatter-mpich.cpp: mpich_rdb, mpich_noncomm).
 *
 * rdb: at distance mask = 2^i a rank exchanges with rank ^ mask everything except the
 * blocks of the partner's subtree [root, root + mask) (its own subtree's blocks for what
 * it sends); on sizes that are not powers of two, ranks whose partner does not exist get
 * the partner subtree's data from a neighbour that has it, down a binomial tree (as in
 * allgather rdb). Message sizes are sums of the per-rank byte counts (rcounts).
 * noncomm: recursive halving on a power of two with equal counts, halving the vector at
 * every step (SimGrid asserts both conditions). */
#include "coll_algos.h"

#define T COLL_TAG_REDUCE_SCATTER

/* Bytes of the blocks of ranks [lo, hi) clipped to the communicator. */
static int64_t span(const coll_args *a, int lo, int hi) {
  int64_t s = 0;
  for (int j = lo; j < hi && j < a->size; j++)
    s += a->rcounts[j];
  return s;
}

/* Fix-up of step (mask, i) when the partner subtree is clipped: ranks holding the data
 * send it (rbytes: the step's receive type) to those that do not, halving distances. */
static void rdb_fixup(const coll_args *a, coll_prog *p, int mask, int mtr, int64_t rbytes) {
  int r = a->rank, n = a->size, done = n - mtr - mask, k = 0;
  for (int j = mask; j; j >>= 1)
    k++;
  k--;
  for (int tm = mask >> 1; tm; tm >>= 1, k--) {
    int d = r ^ tm, root = r >> k << k;
    if (d > r && r < root + done && d >= root + done && d < n)
      coll_send(p, d, T, rbytes);
    else if (d < r && d < root + done && r >= root + done)
      coll_recv(p, d, T, rbytes);
  }
}

void coll_reduce_scatter_mpich_rdb(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size;
  int64_t total = span(a, 0, n);
  for (int mask = 1, i = 0; mask < n; mask <<= 1, i++) {
    int dst = r ^ mask, dtr = dst >> i << i, mtr = r >> i << i;
    int64_t sb = total - span(a, mtr, mtr + mask), rb = total - span(a, dtr, dtr + mask);
    if (dst < n)
      coll_sendrecv(p, dst, sb, dst, rb, T);
    if (dtr + mask > n)
      rdb_fixup(a, p, mask, mtr, rb);
  }
}

void coll_reduce_scatter_mpich_noncomm(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size;
  int64_t size = span(a, 0, n);
  for (int mask = 1; mask < n; mask <<= 1) {
    size /= 2;
    coll_sendrecv(p, r ^ mask, size, r ^ mask, size, T);
  }
}
