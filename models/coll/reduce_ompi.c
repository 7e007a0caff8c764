/* reduce_ompi.c - Open MPI's reduces as SimGrid 3.32 has them (reduce-ompi.cpp).
 *
 * chain, pipeline, binary, binomial and in_order_binary share one generic segmented
 * reduce over a tree: an inner node posts, segment after segment and child after child,
 * one receive ahead of the one it waits for, and sends each accumulated segment to its
 * parent once the first child's next receive is posted; leaves send their segments with
 * blocking sends. They differ by tree and segment size (bytes, rounded to whole elements
 * by COLL_TUNED_COMPUTED_SEGCOUNT). basic_linear: the root receives from N - 1 first,
 * then from N - 2 down to 0. The operation is MPI_OP_NULL: commutative. */
#include "coll_algos.h"

#define T COLL_TAG_REDUCE

static int dts(const coll_args *a) { return a->dtsize > 0 ? a->dtsize : 1; }

/* Inner node: segments 0..nseg (the extra step flushes the last one). */
static void generic_inner(const coll_args *a, coll_prog *p, const coll_tree *t, int64_t seg, int64_t nseg) {
  int64_t count = a->count, rc = 0, prevc;
  int req[2] = {-1, -1}, in = 0, ds = dts(a);
  for (int64_t s = 0; s <= nseg; s++) {
    prevc = rc;
    rc = s == nseg - 1 ? count - seg * s : seg;
    for (int i = 0; i < t->nnext; i++) {
      if (s < nseg)
        req[in] = coll_irecv(p, t->next[i], T, rc * ds);
      if (req[in ^ 1] >= 0)
        coll_wait(p, req[in ^ 1]), req[in ^ 1] = -1;
      if (i == 0 && s > 0) {
        if (a->rank != t->root)
          coll_send(p, t->prev, T, prevc * ds);
        if (s == nseg)
          break;
      }
      in ^= 1;
    }
  }
}

static void generic(const coll_args *a, coll_prog *p, const coll_tree *t, int64_t seg) {
  int64_t count = a->count;
  if (count <= 0 || seg <= 0)
    return;
  int64_t nseg = (count + seg - 1) / seg;
  if (t->nnext > 0) {
    generic_inner(a, p, t, seg, nseg);
    return;
  }
  for (int64_t left = count; left > 0; left -= seg)
    coll_send(p, t->prev, T, (left < seg ? left : seg) * dts(a));
}

static int64_t segcount(const coll_args *a, int64_t segsize) { return coll_segcount(segsize, dts(a), a->count); }

void coll_reduce_ompi_chain(const coll_args *a, coll_prog *p) {
  coll_tree t;
  coll_tree_chain(&t, a->size / 2, a->rank, a->size, a->root);
  generic(a, p, &t, segcount(a, 64 * 1024));
}

void coll_reduce_ompi_pipeline(const coll_args *a, coll_prog *p) {
  double n = a->size, b = (double)a->count * dts(a);
  int64_t seg = n > 0.0410 / 1024.0 * b + 9.7128 ? 1024 : n > 0.0033 / 1024.0 * b + 1.6761 ? 32 * 1024 : 64 * 1024;
  coll_tree t;
  coll_tree_chain(&t, 1, a->rank, a->size, a->root);
  generic(a, p, &t, segcount(a, seg));
}

void coll_reduce_ompi_binary(const coll_args *a, coll_prog *p) {
  coll_tree t;
  coll_tree_kary(&t, 2, a->rank, a->size, a->root);
  generic(a, p, &t, segcount(a, 32 * 1024));
}

void coll_reduce_ompi_binomial(const coll_args *a, coll_prog *p) {
  int64_t b = a->count * dts(a), seg = 0;
  if ((a->size < 8 && b < 20480) || b < 2048 || a->count <= 1)
    seg = 0;
  else if (a->size > 0.6016 / 1024.0 * (double)b + 1.3496)
    seg = 1024;
  coll_tree t;
  coll_tree_in_order_bmtree(&t, a->rank, a->size, a->root);
  generic(a, p, &t, segcount(a, seg));
}

void coll_reduce_ompi_in_order_binary(const coll_args *a, coll_prog *p) {
  int io = a->size - 1;
  coll_tree t;
  coll_tree_in_order_bintree(&t, a->rank, a->size);
  coll_args b = *a;
  b.root = io;
  generic(&b, p, &t, a->count);
  if (io != a->root && a->rank == a->root)
    coll_recv(p, io, T, a->count * dts(a));
  else if (io != a->root && a->rank == io)
    coll_send(p, a->root, T, a->count * dts(a));
}

void coll_reduce_ompi_basic_linear(const coll_args *a, coll_prog *p) {
  int64_t b = a->count * dts(a);
  if (a->rank != a->root) {
    coll_send(p, a->root, T, b);
    return;
  }
  for (int i = a->size - 1; i >= 0; i--)
    if (i != a->rank)
      coll_recv(p, i, T, b);
}
