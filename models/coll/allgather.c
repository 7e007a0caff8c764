/* allgather.c - SimGrid 3.32's allgather algorithms (src/smpi/colls/allgather/).
 *
 * Every rank contributes one block (sbytes) and receives one block per rank (rbytes);
 * the algorithms forward blocks packed together, so a message is a whole number of
 * blocks. Copies into the own slot are local (no message). Sizes assume the send and
 * receive blocks have the same size, as in every trace SimGrid writes. */
#include "coll_algos.h"

#define T COLL_TAG_ALLGATHER

void coll_allgather_ring(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size;
  for (int i = 1; i < n; i++)
    coll_sendrecv(p, (r + i) % n, a->sbytes, (r - i + n) % n, a->rbytes, T);
}

/* XOR partners; SimGrid throws for non-powers of two (partners >= N are skipped here). */
void coll_allgather_pair(const coll_args *a, coll_prog *p) {
  for (int i = 1; i < a->size; i++)
    if ((a->rank ^ i) < a->size)
      coll_sendrecv(p, a->rank ^ i, a->sbytes, a->rank ^ i, a->rbytes, T);
}

/* Blocks held at the start of the step of distance mask by a rank of subtree root t:
 * its whole subtree, clipped at N. */
static int64_t held(int n, int t, int mask) { return t + mask <= n ? mask : n - t; }

/* MPICH's recursive doubling with the fix-up of truncated subtrees (allgather-rdb.cpp,
 * and alltoall-rdb.cpp on whole send buffers): at distance mask, exchange with
 * rank ^ mask; when the partner's subtree is clipped, the ranks that got its blocks
 * forward them down a binomial tree. Blocks are b bytes. */
void coll_rdb_allgather(int r, int n, int64_t b, int tag, coll_prog *p) {
  int64_t cur = b;
  for (int mask = 1, i = 0; mask < n; mask <<= 1, i++) {
    int dst = r ^ mask, droot = dst >> i << i, rroot = r >> i << i;
    if (dst < n) {
      coll_sendrecv(p, dst, cur, dst, mask * b, tag);
      cur += held(n, droot, mask) * b;
    }
    if (droot + mask <= n)
      continue;
    int done = n - rroot - mask, k = i;
    for (int tm = mask >> 1; tm; tm >>= 1, k--) {
      int d = r ^ tm, troot = r >> k << k;
      if (d > r && r < troot + done && d >= troot + done)
        coll_send(p, d, tag, (int64_t)(n - droot) * b);
      else if (d < r && d < troot + done && r >= troot + done) {
        coll_recv(p, d, tag, (int64_t)done * b);
        cur += (int64_t)(n - droot) * b;
      }
    }
  }
}

void coll_allgather_rdb(const coll_args *a, coll_prog *p) { coll_rdb_allgather(a->rank, a->size, a->rbytes, T, p); }

/* Bruck: at distance pof2 send everything held to rank - pof2, receive as much from
 * rank + pof2; a last partial round for non-powers of two. */
void coll_allgather_bruck(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, pof2 = 1;
  int64_t count = 1;
  for (; pof2 <= n / 2; pof2 *= 2, count *= 2)
    coll_sendrecv(p, (r - pof2 + n) % n, count * a->rbytes, (r + pof2) % n, count * a->rbytes, T);
  int rem = n - pof2;
  if (rem)
    coll_sendrecv(p, (r - pof2 + n) % n, rem * a->rbytes, (r + pof2) % n, rem * a->rbytes, T);
}

void coll_allgather_NTSLR(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size;
  if (a->sbytes != a->rbytes) {
    coll_allgather_nbc_linear(a, p);
    return;
  }
  for (int i = 0; i < n - 1; i++)
    coll_sendrecv(p, (r + 1) % n, a->sbytes, (r + n - 1) % n, a->rbytes, T + i);
}

/* Ring with every receive pre-posted; then isend i, wait recv i, wait send i. */
void coll_allgather_NTSLR_NB(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size;
  if (a->sbytes != a->rbytes) {
    coll_allgather_nbc_linear(a, p);
    return;
  }
  for (int i = 0; i < n - 1; i++)
    coll_irecv(p, (r + n - 1) % n, T + i, a->rbytes);
  for (int i = 0; i < n - 1; i++) {
    int s = coll_isend(p, (r + 1) % n, T + i, a->sbytes);
    coll_wait(p, i);
    coll_wait(p, s);
  }
  coll_waitall(p);
}

/* gather to 0 then bcast of the whole vector, with the current selector's algorithms. */
void coll_allgather_GB(const coll_args *a, coll_prog *p) {
  coll_args b = *a;
  b.kind = COLL_GATHER;
  b.root = 0;
  coll_sub(&b, p);
  b.kind = COLL_BCAST;
  b.sbytes = b.rbytes = a->rbytes * a->size;
  b.count = a->count * a->size;
  coll_sub(&b, p);
}

void coll_allgather_spreading_simple(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size;
  for (int i = 1; i < n; i++)
    coll_irecv(p, (r + i) % n, T, a->rbytes);
  for (int i = 1; i < n; i++)
    coll_isend(p, (r + i) % n, T, a->sbytes);
  coll_waitall(p);
}

/* Recursive halving then doubling (power-of-two sizes): first a block to base_offset,
 * then exchanges of 1, 2, 4... blocks with rank ^ mask, largest mask first. */
void coll_allgather_rhv(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, half = n / 2, base = 0, mask = 1;
  if (a->sbytes != a->rbytes) {
    coll_allgather_nbc_linear(a, p);
    return;
  }
  for (; mask < n; mask <<= 1, half /= 2)
    if (r & mask)
      base += half;
  if (base != r)
    coll_sendrecv(p, base, a->sbytes, base, a->rbytes, T);
  int64_t cur = a->rbytes;
  for (mask >>= 1; mask >= 1; mask >>= 1, cur *= 2)
    coll_sendrecv(p, r ^ mask, cur, r ^ mask, cur, T);
}

/* Open MPI's neighbor exchange (even sizes; ring otherwise): one block with neighbor 0,
 * then N/2 - 1 exchanges of two blocks alternating between the two neighbors. */
void coll_allgather_ompi_neighborexchange(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size;
  if (n % 2) {
    coll_allgather_ring(a, p);
    return;
  }
  int nb[2] = {(r + 1) % n, (r - 1 + n) % n};
  if (r % 2)
    nb[0] = (r - 1 + n) % n, nb[1] = (r + 1) % n;
  coll_sendrecv(p, nb[0], a->rbytes, nb[0], a->rbytes, T);
  for (int i = 1; i < n / 2; i++)
    coll_sendrecv(p, nb[i % 2], 2 * a->rbytes, nb[i % 2], 2 * a->rbytes, T);
}
