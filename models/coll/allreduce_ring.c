/* allreduce_ring.c - SimGrid 3.32's ring allreduces: lr and ompi_ring_segmented.
 *
 * lr (allreduce-lr.cpp) cuts the vector into N blocks of count / N elements and runs a
 * ring reduce-scatter then a ring allgather (N - 1 sendrecvs each, to rank + 1 from
 * rank - 1, tag + step); the count % N elements left over go through SimGrid's
 * colls::allreduce (the forced or selected allreduce, as coll_sub does), and a vector
 * shorter than N goes to redbcast. ompi_ring_segmented (Open MPI's) splits each of the N
 * blocks (the first count % N one element longer) into phases of at most 1 MiB
 * segments; in every phase each rank sends a segment of a block to rank + 1 while the
 * next one from rank - 1 is already posted; a ring allgather of whole blocks follows. */
#include "coll_algos.h"

#define T COLL_TAG_ALLREDUCE

void coll_allreduce_lr(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size;
  if (a->count < n) {
    coll_allreduce_redbcast(a, p);
    return;
  }
  int64_t b = a->count / n * a->dtsize, rem = a->count % n;
  for (int i = 0; i < n - 1; i++) /* reduce-scatter */
    coll_sendrecv(p, (r + 1) % n, b, (r + n - 1) % n, b, T + i);
  for (int i = 0; i < n - 1; i++) /* allgather */
    coll_sendrecv(p, (r + 1) % n, b, (r + n - 1) % n, b, T + i);
  if (rem) {
    coll_args c = *a;
    c.count = rem;
    c.sbytes = c.rbytes = rem * a->dtsize;
    coll_sub(&c, p);
  }
}

/* Open MPI's COLL_TUNED_COMPUTE_BLOCKCOUNT: count split into nblocks, the first
 * *split of them one element longer (*early) than the others (*late). */
static void blockcount(int64_t count, int64_t nblocks, int64_t *split, int64_t *early, int64_t *late) {
  *early = *late = count / nblocks;
  *split = count % nblocks;
  if (*split)
    ++*early;
}

/* Elements of block blk in phase ph (blocks of count over n ranks, nph phases). */
static int64_t phase_count(int64_t count, int n, int64_t nph, int blk, int64_t ph) {
  int64_t split, early, late, psplit, pearly, plate;
  blockcount(count, n, &split, &early, &late);
  blockcount(blk < split ? early : late, nph, &psplit, &pearly, &plate);
  return ph < psplit ? pearly : plate;
}

void coll_allreduce_ompi_ring_segmented(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, to = (r + 1) % n, from = (r + n - 1) % n;
  int64_t c = a->count, seg = coll_segcount(1 << 20, a->dtsize, c), d = a->dtsize;
  if (n == 1)
    return;
  if (c < n * seg) {
    coll_allreduce_lr(a, p);
    return;
  }
  int64_t nph = c / (n * seg), left = c % (n * seg), split, early, late, maxseg, unused1, unused2;
  if (left >= n && left > n * seg / 2)
    nph++;
  blockcount(c, n, &split, &early, &late);
  blockcount(early, nph, &unused1, &maxseg, &unused2);
  for (int64_t ph = 0; ph < nph; ph++) {
    int req = coll_irecv(p, from, 666, maxseg * d);
    coll_send(p, to, 666, phase_count(c, n, nph, r, ph) * d);
    for (int s = 2; s < n; s++) {
      int next = coll_irecv(p, from, 666, maxseg * d);
      coll_wait(p, req);
      coll_send(p, to, 666, phase_count(c, n, nph, (r + n - s + 1) % n, ph) * d);
      req = next;
    }
    coll_wait(p, req);
    coll_waitall(p); /* every request is done: frees the slots, costs nothing */
  }
  for (int s = 0; s < n - 1; s++) {
    int sfrom = (r + 1 + n - s) % n;
    coll_sendrecv(p, to, (sfrom < split ? early : late) * d, from, early * d, 666);
  }
}
