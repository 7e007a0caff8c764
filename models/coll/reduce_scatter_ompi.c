/* reduce_scatter_ompi.c - Open MPI's reduce_scatters as SimGrid 3.32 has them
 * (reduce_scatter-ompi.cpp): basic_recursivehalving, ring, butterfly.
 *
 * All three first fold sizes that are not powers of two: with pof2 the largest power of
 * two <= N and rem = N - pof2, even ranks below 2 rem send their whole vector to rank + 1
 * and sit out; the pof2 others get virtual ranks (odd r < 2 rem: r / 2, else r - rem),
 * and virtual block i stands for ranks 2i, 2i + 1 (i < rem) or i + rem. Recursive halving
 * then exchanges halves of the remaining blocks, largest distance first; butterfly the
 * same from distance 1 up, then swaps results along the bit-reversal permutation. ring:
 * N - 1 steps to rank + 1, receives pre-posted one step ahead (max count each). Sizes are
 * the byte sums of the blocks moved (rcounts). */
#include "coll_algos.h"

#define T COLL_TAG_REDUCE_SCATTER

/* Bytes of virtual block i (rem folded pairs first). */
static int64_t vblock(const coll_args *a, int rem, int i) {
  return i < rem ? a->rcounts[2 * i] + a->rcounts[2 * i + 1] : a->rcounts[i + rem];
}

/* Bytes of virtual blocks [lo, hi). */
static int64_t vspan(const coll_args *a, int rem, int lo, int hi) {
  int64_t s = 0;
  for (int i = lo; i < hi; i++)
    s += vblock(a, rem, i);
  return s;
}

static int real_rank(int v, int rem) { return v < rem ? v * 2 + 1 : v + rem; }

/* The fold: returns the virtual rank, or -1 for the ranks that sit out. */
static int fold(const coll_args *a, coll_prog *p, int rem, int64_t total) {
  int r = a->rank;
  if (r >= 2 * rem)
    return r - rem;
  if (r % 2 == 0) {
    coll_send(p, r + 1, T, total);
    return -1;
  }
  coll_recv(p, r - 1, T, total);
  return r / 2;
}

/* One recursive-halving step: irecv (when both sides move data), send, wait. */
static void halving_step(coll_prog *p, int peer, int64_t sc, int64_t rc) {
  int req = -1;
  if (sc > 0 && rc != 0)
    req = coll_irecv(p, peer, T, rc);
  if (rc > 0 && sc != 0)
    coll_send(p, peer, T, sc);
  if (req >= 0)
    coll_wait(p, req);
}

static void halving(const coll_args *a, coll_prog *p, int v, int pof2, int rem) {
  int si = 0, ri = 0, last = pof2;
  for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
    int vp = v ^ mask;
    int64_t sc, rc;
    if (v < vp) {
      si = ri + mask;
      sc = vspan(a, rem, si, last), rc = vspan(a, rem, ri, si);
    } else {
      ri = si + mask;
      sc = vspan(a, rem, si, ri), rc = vspan(a, rem, ri, last);
    }
    halving_step(p, real_rank(vp, rem), sc, rc);
    si = ri;
    last = ri + mask;
  }
}

void coll_reduce_scatter_ompi_basic_recursivehalving(const coll_args *a, coll_prog *p) {
  int r = a->rank, pof2 = coll_pof2_floor(a->size), rem = a->size - pof2;
  int64_t total = coll_sum(a->rcounts, a->size);
  if (total == 0)
    return;
  int v = fold(a, p, rem, total);
  if (v >= 0)
    halving(a, p, v, pof2, rem);
  if (r < 2 * rem && r % 2 == 0 && a->rcounts[r])
    coll_recv(p, r + 1, T, a->rcounts[r]);
  else if (r < 2 * rem && r % 2 && a->rcounts[r - 1])
    coll_send(p, r - 1, T, a->rcounts[r - 1]);
}

void coll_reduce_scatter_ompi_ring(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, to = (r + 1) % n, from = (r + n - 1) % n;
  if (n == 1)
    return;
  int64_t max = 0;
  for (int i = 0; i < n; i++)
    max = a->rcounts[i] > max ? a->rcounts[i] : max;
  int req[2];
  req[0] = coll_irecv(p, from, T, max);
  coll_send(p, to, T, a->rcounts[from]);
  int in = 0;
  for (int k = 2; k < n; k++) {
    in ^= 1;
    req[in] = coll_irecv(p, from, T, max);
    coll_wait(p, req[in ^ 1]);
    coll_send(p, to, T, a->rcounts[(r + n - k) % n]);
  }
  coll_wait(p, req[in]);
}

/* Bit reversal of the nbits low bits of x. */
static int mirror(int x, int nbits) {
  int y = 0;
  for (int i = 0; i < nbits; i++)
    y |= ((x >> i) & 1) << (nbits - 1 - i);
  return y;
}

/* Real index of the first block of virtual block i. */
static int first_block(int i, int rem) { return i < rem ? 2 * i : rem + i; }

static int butterfly_steps(const coll_args *a, coll_prog *p, int v, int pof2, int rem) {
  int nblocks = pof2, si = 0, ri = 0;
  for (int mask = 1; mask < pof2; mask <<= 1) {
    int peer = real_rank(v ^ mask, rem);
    nblocks /= 2;
    if (v & mask)
      ri += nblocks;
    else
      si += nblocks;
    coll_sendrecv(p, peer, vspan(a, rem, si, si + nblocks), peer, vspan(a, rem, ri, ri + nblocks), T);
    si = ri;
  }
  return si;
}

void coll_reduce_scatter_ompi_butterfly(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, pof2 = coll_pof2_floor(n), rem = n - pof2, lg = 0;
  if (n < 2)
    return;
  while ((1 << lg) < pof2)
    lg++;
  int v = fold(a, p, rem, coll_sum(a->rcounts, n));
  if (v < 0) {
    coll_recv(p, real_rank(mirror((r + 1) / 2, lg), rem), T, a->rcounts[r]);
    return;
  }
  int idx = first_block(butterfly_steps(a, p, v, pof2, rem), rem), vp = mirror(v, lg), peer = real_rank(vp, rem);
  if (vp < rem)
    coll_send(p, peer - 1, T, a->rcounts[idx++]);
  if (vp != v)
    coll_sendrecv(p, peer, a->rcounts[idx], peer, a->rcounts[r], T);
}
