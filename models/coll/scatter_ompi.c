/* scatter_ompi.c - Open MPI's scatters as SimGrid 3.32 has them (scatter-ompi.cpp).
 *
 * basic_linear: the root sends each block with a blocking send, in rank order.
 * linear_nb: the same with isends and one waitall. binomial: the in-order binomial tree
 * of the gather, traversed downward: an even virtual rank receives its subtree's blocks
 * from its parent (posting room for N blocks), then sends each child (vrank + 1, + 2,
 * + 4...) the min(vkid - vrank, N - vkid) blocks of the child's subtree; odd virtual
 * ranks are leaves and receive one block. */
#include "coll_algos.h"

#define T COLL_TAG_SCATTER

void coll_scatter_ompi_basic_linear(const coll_args *a, coll_prog *p) {
  if (a->rank != a->root) {
    coll_recv(p, a->root, T, a->rbytes);
    return;
  }
  for (int i = 0; i < a->size; i++)
    if (i != a->rank)
      coll_send(p, i, T, a->sbytes);
}

void coll_scatter_ompi_linear_nb(const coll_args *a, coll_prog *p) {
  if (a->rank != a->root) {
    coll_recv(p, a->root, T, a->rbytes);
    return;
  }
  for (int i = 0; i < a->size; i++)
    if (i != a->rank)
      coll_isend(p, i, T, a->sbytes);
  coll_waitall(p);
}

void coll_scatter_ompi_binomial(const coll_args *a, coll_prog *p) {
  int n = a->size, root = a->root, v = (a->rank - root + n) % n, low = 1;
  while (low < n && !(v & low))
    low <<= 1; /* lowest bit of v: the parent is v - low; children are below it */
  if (v % 2) {
    coll_recv(p, (v - 1 + root) % n, T, a->rbytes);
    return;
  }
  int64_t blk = a->rank == root ? a->sbytes : a->rbytes;
  if (a->rank != root)
    coll_recv(p, (v - low + root) % n, T, a->rbytes * n);
  for (int mask = 1; mask < low && v + mask < n; mask <<= 1) {
    int vkid = v + mask, cnt = vkid - v < n - vkid ? vkid - v : n - vkid;
    coll_send(p, (vkid + root) % n, T, cnt * blk);
  }
}
