/* bcast_split.c - Open MPI's split binary-tree broadcast and SimGrid's SMP_linear, its
 * fallback for messages too small to split (bcast-ompi-split-bintree.cpp,
 * bcast-SMP-linear.cpp in SimGrid 3.32).
 *
 * split_bintree: the buffer is cut in two halves (the first one rounded up), each sent
 * down one subtree of the root's binary tree in segments (1 KiB, 8 KiB from 370728 B);
 * then every rank swaps halves with its twin in the other subtree (rank +- 1); with an
 * even size the root sends the right half to rank root - 1. SMP_linear: with c ranks per
 * host (hosts must hold equally many, else the mpich bcast is used), leaders (rank % c
 * == 0) chain the data to the next leader and into their host's chain, in 8 KiB
 * segments; it relies on ranks being placed host by host, as SimGrid does. */
#include "coll_algos.h"

#define T COLL_TAG_BCAST

static int dts(const coll_args *a) { return a->dtsize > 0 ? a->dtsize : 1; }

static void mpich_bcast(const coll_args *a, coll_prog *p) {
  coll_algo_at(coll_algo_find(COLL_BCAST, coll_select_mpich(a, p)))->gen(a, p);
}

/* SMP_linear, one message per segment index i (tags T + i) or the whole buffer. */
static void smp_linear_role(const coll_args *a, coll_prog *p, int c, int64_t nseg, int64_t b) {
  int r = a->rank, n = a->size, last_leader = (n - 1) / c * c;
  int to_inter = (r + c) % n, to_intra = (r + 1) % n, from_inter = (r - c + n) % n, from_intra = (r + n - 1) % n;
  int leader = r % c == 0, from = r == 0 ? -1 : leader ? from_inter : from_intra;
  int to[2], nto = 0;
  if (leader && r != last_leader)
    to[nto++] = to_inter;
  if (leader || !((r + 1) % c == 0 || r == n - 1))
    to[nto++] = to_intra;
  int seg = nseg > 0, cnt = seg ? (int)nseg : 1;
  for (int i = 0; from >= 0 && i < cnt; i++)
    coll_irecv(p, from, T + (seg ? i : 0), b);
  for (int i = 0; i < cnt; i++) {
    if (from >= 0)
      coll_wait(p, i);
    for (int k = 0; k < nto; k++)
      coll_send(p, to[k], T + (seg ? i : 0), b);
  }
}

void coll_bcast_SMP_linear(const coll_args *a, coll_prog *p) {
  int uniform, c = coll_smp_cores(a, p, &uniform);
  if (!uniform) {
    mpich_bcast(a, p);
    return;
  }
  if (a->size <= c) {
    coll_bcast_binomial_tree(a, p);
    return;
  }
  int64_t seg = 8192 / dts(a), count = a->count;
  seg = seg ? seg : 1;
  coll_bcast_root_to_0(a, p);
  if (count <= seg) {
    smp_linear_role(a, p, c, 0, count * dts(a));
    return;
  }
  smp_linear_role(a, p, c, count / seg, seg * dts(a));
  coll_waitall(p);
  if (count % seg) {
    coll_args b = *a;
    b.count = count % seg;
    b.sbytes = b.rbytes = b.count * dts(a);
    coll_sub(&b, p);
  }
}

/* Step 1 of split_bintree for a non-root rank of half lr: receive its half's segments
 * from the parent, forwarding each to the children (intermediate) or not (leaf). */
static void split_down(coll_prog *p, const coll_tree *t, int64_t cnt, int64_t seg, int64_t nseg, int ds) {
  if (t->nnext == 0) {
    for (int64_t s = 0; s < nseg; s++)
      coll_recv(p, t->prev, T, (s == nseg - 1 ? cnt - s * seg : seg) * ds);
    return;
  }
  int base = coll_irecv(p, t->prev, T, (nseg == 1 ? cnt : seg) * ds);
  for (int64_t s = 1; s < nseg; s++) {
    int next = coll_irecv(p, t->prev, T, (s == nseg - 1 ? cnt - s * seg : seg) * ds);
    coll_wait(p, base);
    for (int i = 0; i < t->nnext; i++)
      coll_send(p, t->next[i], T, seg * ds);
    base = next;
  }
  coll_wait(p, base);
  for (int i = 0; i < t->nnext; i++)
    coll_send(p, t->next[i], T, (nseg == 1 ? cnt : cnt - (nseg - 1) * seg) * ds);
}

static void split_root(coll_prog *p, const coll_tree *t, const int64_t *cnt, int64_t seg, const int64_t *nseg, int ds) {
  for (int64_t s = 0; s < nseg[0]; s++)
    for (int i = 0; i < t->nnext && i < 2; i++)
      if (s < nseg[i])
        coll_send(p, t->next[i], T, (s == nseg[i] - 1 ? cnt[i] - s * seg : seg) * ds);
}

void coll_bcast_ompi_split_bintree(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank, root = a->root, ds = dts(a);
  if (n == 1)
    return;
  int64_t count = a->count, segsize = count * ds < 370728 ? 1024 : 8192;
  segsize = segsize < ds ? ds : segsize;
  int64_t cnt[2] = {count / 2 + count % 2, count / 2}, seg = segsize / ds;
  int64_t nseg[2] = {(cnt[0] + seg - 1) / seg, (cnt[1] + seg - 1) / seg};
  if (cnt[0] == 0 || cnt[1] == 0 || segsize > cnt[0] * ds || segsize > cnt[1] * ds) {
    coll_bcast_SMP_linear(a, p);
    return;
  }
  coll_tree t;
  coll_tree_kary(&t, 2, r, n, root);
  int lr = ((r + n - root) % n + 1) % 2, pair = lr == 0 ? (r + 1) % n : (r + n - 1) % n;
  if (r == root)
    split_root(p, &t, cnt, seg, nseg, ds);
  else
    split_down(p, &t, cnt[lr], seg, nseg[lr], ds);
  if (p->nreq)
    coll_waitall(p);
  if (n % 2 && r != root)
    coll_sendrecv(p, pair, cnt[lr] * ds, pair, cnt[lr ^ 1] * ds, T);
  else if (n % 2 == 0 && r == root)
    coll_send(p, (root + n - 1) % n, T, cnt[1] * ds);
  else if (n % 2 == 0 && r == (root + n - 1) % n)
    coll_recv(p, root, T, cnt[1] * ds);
  else if (n % 2 == 0)
    coll_sendrecv(p, pair, cnt[lr] * ds, pair, cnt[lr ^ 1] * ds, T);
}
