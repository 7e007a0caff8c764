/* allgatherv.c - SimGrid 3.32's allgatherv algorithms (src/smpi/colls/allgatherv/).
 *
 * Rank i contributes rcounts[i] bytes (its own send block is sbytes, equal to
 * rcounts[i] in every trace); the algorithms move blocks, or runs of consecutive
 * blocks, so a message is the sum of the per-rank counts of the blocks it carries.
 * SimGrid's replay passes displacements of 0 (TI_FORMAT.md), which only GB's bcast
 * size depends on. Copies into the own slot
 * (SimGrid's sendrecv to self) are local: no message. */
#include "coll_algos.h"

#define T COLL_TAG_ALLGATHERV

/* Bytes of the blocks first, first + 1, ..., first + k - 1 (ranks taken modulo n). */
static int64_t run_bytes(const coll_args *a, int first, int k) {
  int64_t s = 0;
  for (int i = 0; i < k; i++)
    s += a->rcounts[(first + i) % a->size];
  return s;
}

/* N - 1 sendrecvs of the own block: to rank + i, from rank - i. */
void coll_allgatherv_ring(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size;
  for (int i = 1; i < n; i++) {
    int src = (r - i + n) % n;
    coll_sendrecv(p, (r + i) % n, a->sbytes, src, a->rcounts[src], T);
  }
}

/* XOR partners; SimGrid throws for non-powers of two (partners >= N are skipped here). */
void coll_allgatherv_pair(const coll_args *a, coll_prog *p) {
  for (int i = 1; i < a->size; i++) {
    int d = a->rank ^ i;
    if (d < a->size)
      coll_sendrecv(p, d, a->sbytes, d, a->rcounts[d], T);
  }
}

/* gatherv to 0, then a bcast from 0 (SimGrid's colls::gatherv/bcast) of max(displs[i] +
 * rcounts[i]) elements: with the replay's displacements (all 0), the largest block. */
void coll_allgatherv_GB(const coll_args *a, coll_prog *p) {
  coll_args b = *a;
  b.kind = COLL_GATHERV;
  b.root = 0;
  coll_sub(&b, p);
  b.kind = COLL_BCAST;
  b.sbytes = 0;
  for (int i = 0; i < a->size; i++)
    if (a->rcounts[i] > b.sbytes)
      b.sbytes = a->rcounts[i];
  b.rbytes = b.sbytes;
  b.count = a->dtsize > 0 ? b.sbytes / a->dtsize : b.sbytes;
  b.rcounts = b.scounts = NULL;
  coll_sub(&b, p);
}

/* Open MPI's Bruck: at distance d = 1, 2, 4... send the min(d, N - d) blocks from the
 * own one on to rank - d, receive as many from rank + d. */
void coll_allgatherv_ompi_bruck(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size;
  for (int d = 1; d < n; d <<= 1) {
    int from = (r + d) % n, k = d <= n / 2 ? d : n - d;
    coll_sendrecv(p, (r - d + n) % n, run_bytes(a, r, k), from, run_bytes(a, from, k), T);
  }
}

/* Open MPI's neighbor exchange (even sizes; ring otherwise): the own block with
 * neighbor 0, then N/2 - 1 exchanges of two blocks (an even rank's and the next),
 * alternating between the two neighbors; what is sent is what came in last. */
void coll_allgatherv_ompi_neighborexchange(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, even = r % 2 == 0;
  if (n % 2) {
    coll_allgatherv_ring(a, p);
    return;
  }
  int nb[2] = {(r + 1) % n, (r - 1 + n) % n}, off[2] = {2, -2};
  if (!even)
    nb[0] = (r - 1 + n) % n, nb[1] = (r + 1) % n, off[0] = -2, off[1] = 2;
  int from[2] = {even ? r : nb[0], even ? r : nb[0]};
  coll_sendrecv(p, nb[0], a->rcounts[r], nb[0], a->rcounts[nb[0]], T);
  int sfrom = even ? r : from[0];
  for (int i = 1; i < n / 2; i++) {
    int q = i % 2;
    from[q] = (from[q] + off[q] + n) % n;
    coll_sendrecv(p, nb[q], run_bytes(a, sfrom, 2), nb[q], run_bytes(a, from[q], 2), T);
    sfrom = from[q];
  }
}

/* MPICH's ring: blocks cut into pieces of at least 256 KiB (in elements of the
 * datatype), passed to rank + 1 while the pieces of rank - 1 come in; sendrecv when
 * both sides have a piece, else a lone send or receive. */
void coll_allgatherv_mpich_ring(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, left = (n + r - 1) % n, right = (r + 1) % n;
  int64_t ext = a->dtsize > 0 ? a->dtsize : 1, total = coll_sum(a->rcounts, n), min = a->rcounts[0];
  int64_t torecv = total - a->rcounts[r], tosend = total - a->rcounts[right], soff = 0, roff = 0;
  for (int i = 1; i < n; i++)
    if (a->rcounts[i] < min)
      min = a->rcounts[i];
  if (min < 32768 * 8)
    min = 32768 * 8 / ext * ext;
  if (!min)
    min = ext;
  for (int sidx = r, ridx = left; tosend || torecv;) {
    int64_t snow = a->rcounts[sidx] - soff, rnow = a->rcounts[ridx] - roff;
    snow = !tosend ? 0 : snow > min ? min : snow;
    rnow = !torecv ? 0 : rnow > min ? min : rnow;
    if (snow && rnow)
      coll_sendrecv(p, right, snow, left, rnow, T);
    else if (snow)
      coll_send(p, right, T, snow);
    else if (rnow)
      coll_recv(p, left, T, rnow);
    tosend -= snow, torecv -= rnow, soff += snow, roff += rnow;
    if (soff == a->rcounts[sidx])
      soff = 0, sidx = (sidx + n - 1) % n;
    if (roff == a->rcounts[ridx])
      roff = 0, ridx = (ridx + n - 1) % n;
  }
}

/* Bytes of blocks [from, to) clipped at N. */
static int64_t span(const coll_args *a, int from, int to) {
  return from < a->size ? run_bytes(a, from, (to < a->size ? to : a->size) - from) : 0;
}

/* MPICH's recursive doubling (SimGrid's allgatherv mpich_rdb): at distance mask,
 * exchange everything held (the own subtree of mask blocks, clipped at N) with
 * rank ^ mask; when the partner's subtree is clipped, the ranks that got its blocks
 * forward them down a binomial tree to the ranks that had no partner. */
void coll_allgatherv_mpich_rdb(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size;
  if (coll_sum(a->rcounts, n) == 0)
    return; /* SimGrid returns MPI_ERR_COUNT before any message */
  for (int mask = 1, i = 0; mask < n; mask <<= 1, i++) {
    int dst = r ^ mask, droot = dst >> i << i, rroot = r >> i << i;
    if (dst < n)
      coll_sendrecv(p, dst, span(a, rroot, rroot + mask), dst, span(a, droot, droot + mask), T);
    if (droot + mask <= n)
      continue;
    int done = n - rroot - mask, k = i;
    int64_t last = span(a, droot, n); /* the partner subtree's blocks: last_recv_cnt */
    for (int tm = mask >> 1; tm; tm >>= 1, k--) {
      int d = r ^ tm, troot = r >> k << k;
      if (d > r && r < troot + done && d >= troot + done)
        coll_send(p, d, T, last);
      else if (d < r && d < troot + done && r >= troot + done)
        coll_recv(p, d, T, last);
    }
  }
}

/* [tir] the mpich selector's choice when all counts are zero: SimGrid returns at once. */
void coll_allgatherv_none(const coll_args *a, coll_prog *p) {
  (void)a, (void)p;
}
