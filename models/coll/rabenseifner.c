/* rabenseifner.c - MPICH's Rabenseifner algorithms: allreduce rab_rdb and reduce
 * scatter_gather (SimGrid 3.32's allreduce-rab-rdb.cpp, reduce-scatter-gather.cpp).
 *
 * With pof2 the largest power of two <= N and rem = N - pof2, the first 2 rem ranks
 * pair up and one of each pair hands its vector to the other and sits out (rab_rdb: the
 * even one, scatter_gather: the odd one). The pof2 others cut the vector into pof2
 * pieces (count / pof2 elements, the last one takes the rest) and run a recursive
 * halving reduce-scatter: at distance 1, 2, 4... of their new ranks, each keeps the half
 * of its current range on its side and sends the other half. Then rab_rdb runs the
 * mirror recursive doubling allgather and gives the result back to the ranks that sat
 * out; scatter_gather gathers the pieces up a binomial tree to the root. */
#include "coll_algos.h"

/* The pof2 pieces of c elements, and where the halving stands. */
typedef struct halves {
  int64_t c;        /* elements in all */
  int pof2, rem;    /* ranks taking part; ranks paired at the start */
  int odd;          /* 1: new rank k < rem is real rank 2k + 1 (rab_rdb); 0: 2k */
  int send_idx, last_idx; /* MPICH's piece indices after the reduce-scatter */
} halves;

/* Elements of pieces [from, to). */
static int64_t pieces(const halves *h, int from, int to) {
  if (to <= from)
    return 0;
  int64_t q = h->c / h->pof2, s = (to - from) * q;
  return to == h->pof2 ? s + h->c - q * h->pof2 : s;
}

static int real_rank(const halves *h, int nr) { return nr < h->rem ? nr * 2 + h->odd : nr + h->rem; }

/* Recursive halving reduce-scatter of new rank nr (sendrecvs of tag, d bytes an element). */
static void reduce_scatter(halves *h, int nr, int d, int tag, coll_prog *p) {
  int send = 0, recv = 0, last = h->pof2;
  for (int mask = 1; mask < h->pof2;) {
    int nd = nr ^ mask, half = h->pof2 / (mask * 2);
    int64_t sc, rc;
    if (nr < nd) {
      send = recv + half;
      sc = pieces(h, send, last), rc = pieces(h, recv, send);
    } else {
      recv = send + half;
      sc = pieces(h, send, recv), rc = pieces(h, recv, last);
    }
    coll_sendrecv(p, real_rank(h, nd), sc * d, real_rank(h, nd), rc * d, tag);
    send = recv;
    mask <<= 1;
    if (mask < h->pof2)
      last = recv + h->pof2 / mask;
  }
  h->send_idx = send, h->last_idx = last;
}

/* Pieces [send, recv) and [recv, last) of the doubling step at mask (updates h). */
static void doubling_step(halves *h, int nr, int nd, int mask, int *recv, int64_t *sc, int64_t *rc) {
  int half = h->pof2 / (mask * 2);
  if (nr < nd) {
    if (mask != h->pof2 / 2)
      h->last_idx += half;
    *recv = h->send_idx + half;
    *sc = pieces(h, h->send_idx, *recv), *rc = pieces(h, *recv, h->last_idx);
  } else {
    *recv = h->send_idx - half;
    *sc = pieces(h, h->send_idx, h->last_idx), *rc = pieces(h, *recv, h->send_idx);
  }
}

void coll_allreduce_rab_rdb(const coll_args *a, coll_prog *p) {
  int r = a->rank, d = a->dtsize, nr, recv;
  halves h = {.c = a->count, .pof2 = coll_pof2_floor(a->size), .odd = 1};
  h.rem = a->size - h.pof2;
  if (r < 2 * h.rem) {
    if (r % 2 == 0)
      coll_send(p, r + 1, COLL_TAG_ALLREDUCE, a->sbytes), nr = -1;
    else
      coll_recv(p, r - 1, COLL_TAG_ALLREDUCE, a->sbytes), nr = r / 2;
  } else
    nr = r - h.rem;
  if (nr != -1) {
    reduce_scatter(&h, nr, d, COLL_TAG_ALLREDUCE, p);
    for (int mask = h.pof2 / 2; mask > 0; mask >>= 1) {
      int nd = nr ^ mask;
      int64_t sc, rc;
      doubling_step(&h, nr, nd, mask, &recv, &sc, &rc);
      coll_sendrecv(p, real_rank(&h, nd), sc * d, real_rank(&h, nd), rc * d, COLL_TAG_ALLREDUCE);
      if (nr > nd)
        h.send_idx = recv;
    }
  }
  if (r < 2 * h.rem) {
    if (r % 2)
      coll_send(p, r - 1, COLL_TAG_ALLREDUCE, a->sbytes);
    else
      coll_recv(p, r + 1, COLL_TAG_ALLREDUCE, a->sbytes);
  }
}

/* The gather of scatter_gather: up the binomial tree of new ranks towards newroot,
 * largest distance first; a rank sends its range once its partner's subtree holds the
 * root, else receives the partner's range. */
static void gather_up(halves *h, int nr, int newroot, int root, int d, coll_prog *p) {
  int j = 0, recv;
  while ((1 << j) < h->pof2)
    j++;
  j--;
  for (int mask = h->pof2 / 2; mask > 0; mask >>= 1, j--) {
    int nd = nr ^ mask, dst = real_rank(h, nd);
    int64_t sc, rc;
    if (nd == 0 && root < 2 * h->rem && root % 2)
      dst = root;
    doubling_step(h, nr, nd, mask, &recv, &sc, &rc);
    if (nd >> j == newroot >> j) {
      coll_send(p, dst, COLL_TAG_REDUCE, sc * d);
      return;
    }
    coll_recv(p, dst, COLL_TAG_REDUCE, rc * d);
    if (nr > nd)
      h->send_idx = recv;
  }
}

/* A vector shorter than N is padded to N elements (the odd ranks' first message
 * included); the receive is posted for the unpadded count, as in SimGrid. */
void coll_reduce_scatter_gather(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, d = a->dtsize, root = a->root, nr, newroot;
  if (a->count == 0)
    return;
  halves h = {.c = a->count < n ? n : a->count, .pof2 = coll_pof2_floor(n), .odd = 0};
  h.rem = n - h.pof2;
  if (r < 2 * h.rem) {
    if (r % 2)
      coll_send(p, r - 1, COLL_TAG_REDUCE, h.c * d), nr = -1;
    else
      coll_recv(p, r + 1, COLL_TAG_REDUCE, a->count * d), nr = r / 2;
  } else
    nr = r - h.rem;
  if (nr != -1)
    reduce_scatter(&h, nr, d, COLL_TAG_REDUCE, p);
  newroot = root < 2 * h.rem ? (root % 2 ? 0 : root / 2) : root - h.rem;
  if (root < 2 * h.rem && root % 2) {
    if (r == root) {
      coll_recv(p, 0, COLL_TAG_REDUCE, pieces(&h, 0, 1) * d);
      nr = 0, h.send_idx = 0, h.last_idx = 2;
    } else if (nr == 0) {
      coll_send(p, root, COLL_TAG_REDUCE, pieces(&h, 0, 1) * d);
      nr = -1;
    }
  }
  if (nr != -1)
    gather_up(&h, nr, newroot, root, d, p);
}
