/* bcast_scatter.c - MPICH's long-message broadcasts as SimGrid 3.32 has them:
 * scatter_rdb_allgather and scatter_LR_allgather (bcast-scatter-*.cpp).
 *
 * Both first scatter the buffer (as bytes) down the binomial tree: with s = ceil(B / N),
 * relative rank v gets the bytes [v s, (v + lowbit(v)) s) clipped at B; the receive is
 * posted for everything from v s on, and a child whose range is empty gets nothing.
 * Then an allgather: a ring of N - 1 sendrecvs of one piece (LR), or recursive doubling
 * (rdb) where sizes depend on what the partner holds, so the holdings of all ranks are
 * simulated step by step (including MPICH's fix-up for sizes that are not powers of two,
 * which forwards the size of the sender's last receive). */
#include "coll_algos.h"

#include "xalloc.h"

#include <stdlib.h>

#define T COLL_TAG_BCAST

static int64_t clamp0(int64_t x) { return x < 0 ? 0 : x; }

/* Binomial scatter of B bytes in pieces of s from the root. */
static void scatter_for_bcast(const coll_args *a, coll_prog *p, int64_t B, int64_t s) {
  int n = a->size, v = (a->rank - a->root + n) % n, mask = 1;
  int64_t cur = a->rank == a->root ? B : 0;
  for (; mask < n; mask <<= 1)
    if (v & mask) {
      int64_t want = B - v * s;
      if (want > 0) {
        coll_recv(p, (a->rank - mask + n) % n, T, want);
        cur = want < mask * s ? want : mask * s; /* what the parent sends */
      }
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (v + mask < n && cur - s * mask > 0) {
      coll_send(p, (a->rank + mask) % n, T, cur - s * mask);
      cur = s * mask;
    }
}

void coll_bcast_scatter_LR_allgather(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank, root = a->root;
  int64_t B = a->count * (a->dtsize > 0 ? a->dtsize : 1), s = (B + n - 1) / n;
  scatter_for_bcast(a, p, B, s);
  int src = r, next = (r + n - 1) % n;
  for (int i = 1; i < n; i++) {
    int64_t sb = clamp0(B - (int64_t)((src - root + n) % n) * s), rb = clamp0(B - (int64_t)((next - root + n) % n) * s);
    coll_sendrecv(p, (r + 1) % n, sb < s ? sb : s, (r + n - 1) % n, rb < s ? rb : s, T);
    src = next;
    next = (next + n - 1) % n;
  }
}

/* Holdings of the rdb allgather, per relative rank: bytes held and size of the last
 * receive (what MPICH's fix-up forwards). */
typedef struct rdb_state {
  int n, me, root;   /* size, my relative rank, root */
  int64_t B, s;      /* buffer bytes, piece size */
  int64_t *cur;      /* bytes held by each relative rank */
  int64_t *last;     /* size of each one's last receive */
} rdb_state;

/* Fix-up of step (mask, i): in each clipped subtree, the ranks holding data send their
 * last received size to those that do not, at halving distances. */
static void rdb_fixup(rdb_state *st, coll_prog *p, int mask, int i) {
  int n = st->n;
  for (int tm = mask >> 1, k = i; tm; tm >>= 1, k--)
    for (int v = 0; v < n; v++) {
      int mtr = v >> i << i, dtr = (v ^ mask) >> i << i, done = n - mtr - mask, d = v ^ tm, troot = v >> k << k;
      if (dtr + mask <= n || !(d > v && v < troot + done && d >= troot + done) || d >= n)
        continue;
      st->last[d] = st->last[v];
      st->cur[d] += st->last[v];
      if (v == st->me)
        coll_send(p, (d + st->root) % n, T, st->last[v]);
      else if (d == st->me)
        coll_recv(p, (v + st->root) % n, T, clamp0(st->B - st->s * (mtr + mask)));
    }
}

static void rdb_step(rdb_state *st, coll_prog *p, int mask, int i) {
  int n = st->n, me = st->me, dst = me ^ mask;
  if (dst < n)
    coll_sendrecv(p, (dst + st->root) % n, st->cur[me], (dst + st->root) % n,
                  clamp0(st->B - (int64_t)(dst >> i << i) * st->s), T);
  for (int v = 0; v < n; v++) /* pairs exchange what they held before the step */
    if ((v ^ mask) < n && v < (v ^ mask)) {
      int64_t cv = st->cur[v], cw = st->cur[v ^ mask];
      st->cur[v] += cw, st->last[v] = cw;
      st->cur[v ^ mask] += cv, st->last[v ^ mask] = cv;
    }
  rdb_fixup(st, p, mask, i);
}

void coll_bcast_scatter_rdb_allgather(const coll_args *a, coll_prog *p) {
  int n = a->size;
  int64_t B = a->count * (a->dtsize > 0 ? a->dtsize : 1);
  if (n == 1 || B == 0)
    return;
  rdb_state st = {n, (a->rank - a->root + n) % n, a->root, B, (B + n - 1) / n, NULL, NULL};
  scatter_for_bcast(a, p, B, st.s);
  st.cur = x_calloc((size_t)n, sizeof *st.cur);
  st.last = x_calloc((size_t)n, sizeof *st.last);
  for (int v = 0; v < n; v++)
    st.cur[v] = clamp0(B - v * st.s) < st.s ? clamp0(B - v * st.s) : st.s;
  for (int mask = 1, i = 0; mask < n; mask <<= 1, i++)
    rdb_step(&st, p, mask, i);
  free(st.cur);
  free(st.last);
}
