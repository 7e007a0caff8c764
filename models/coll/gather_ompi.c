/* gather_ompi.c - Open MPI's gathers as SimGrid 3.32 has them (gather-ompi.cpp).
 *
 * basic_linear: non-roots send their block, the root receives from 0..N-1 in order with
 * blocking receives. binomial: an in-order binomial tree rooted at root; an even virtual
 * rank receives, from each child (children at vrank + 1, + 2, + 4...), the blocks of
 * the child's subtree, min(vkid - vrank, N - vkid) of them, then sends all it holds to
 * its parent. linear_sync: the root, rank by rank, posts a receive of the first segment
 * (1 KiB, or 32 KiB above 92160-byte blocks), sends an empty go-ahead, posts a receive of
 * the rest and waits for the first segment; then waits for all the rests. */
#include "coll_algos.h"

#define T COLL_TAG_GATHER

void coll_gather_ompi_basic_linear(const coll_args *a, coll_prog *p) {
  if (a->rank != a->root) {
    coll_send(p, a->root, T, a->sbytes);
    return;
  }
  for (int i = 0; i < a->size; i++)
    if (i != a->rank)
      coll_recv(p, i, T, a->rbytes);
}

void coll_gather_ompi_binomial(const coll_args *a, coll_prog *p) {
  int n = a->size, root = a->root, v = (a->rank - root + n) % n;
  int64_t blk = a->rank == root ? a->rbytes : a->sbytes, total = blk;
  int mask = 1;
  if (v % 2 == 0)
    for (; mask < n && !(v & mask); mask <<= 1) /* children v + mask while v has no bit mask */
      if (v + mask < n) {
        int vkid = v + mask, cnt = vkid - v < n - vkid ? vkid - v : n - vkid;
        coll_recv(p, (vkid + root) % n, T, cnt * blk);
        total += cnt * blk;
      }
  if (a->rank != root) {
    while (mask < n && !(v & mask))
      mask <<= 1;
    coll_send(p, (v - mask + root) % n, T, v % 2 ? a->sbytes : total);
  }
}

/* Open MPI's COLL_TUNED_COMPUTED_SEGCOUNT: segment bytes -> element count, if smaller. */
int64_t coll_segcount(int64_t segsize, int dtsize, int64_t count) {
  if (dtsize <= 0 || segsize < dtsize || segsize >= dtsize * count)
    return count;
  return segsize / dtsize + (segsize % dtsize > dtsize / 2);
}

void coll_gather_ompi_linear_sync(const coll_args *a, coll_prog *p) {
  int64_t blk = a->rank == a->root ? a->rbytes : a->sbytes;
  int ds = a->dtsize > 0 ? a->dtsize : 1;
  int64_t cnt = blk / ds, first = coll_segcount(blk > 92160 ? 32768 : 1024, ds, cnt) * ds;
  if (a->rank != a->root) {
    coll_recv(p, a->root, T, 0);
    coll_send(p, a->root, T, first);
    coll_send(p, a->root, T, blk - first);
    return;
  }
  for (int i = 0; i < a->size; i++)
    if (i != a->rank) {
      int f = coll_irecv(p, i, T, first);
      coll_send(p, i, T, 0);
      coll_irecv(p, i, T, blk - first);
      coll_wait(p, f);
    }
  coll_waitall(p);
}
