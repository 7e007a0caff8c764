/* bcast_smp_binary.c - SimGrid 3.32's bcast SMP_binary (bcast-SMP-binary.cpp).
 *
 * With c ranks per host (hosts holding unequal numbers: the mpich bcast) taken host by
 * host, a non-zero root first sends the buffer to rank 0. Host leaders form a binary
 * tree over host indices (children 2h + 1 and 2h + 2), and each host a binary tree over
 * local indices from its leader; a leader serves its leader children first, then its
 * local ones. Up to 8 KiB segments (count / segment of them, tags T + i; up to one
 * segment: the whole buffer, tag T): relays post every receive first, then wait each
 * segment and forward it with blocking sends; leaves post their receives and wait all.
 * The count % segment rest goes through colls::bcast. */
#include "coll_algos.h"

#define T COLL_TAG_BCAST

/* Parent (-1 at rank 0) and children of a rank, SimGrid's arithmetic. */
typedef struct bin {
  int from, to[4], nto, leaf;
} bin;

static bin links(int r, int n, int c) {
  bin b = {.from = -1, .nto = 0};
  int base = r / c * c, host = r / c, loc = r % c;
  int intra[2] = {base + loc * 2 + 1, base + loc * 2 + 2}, inter[2] = {(host * 2 + 1) * c, (host * 2 + 2) * c};
  if (loc == 0 && r != 0)
    b.from = (host - 1) / 2 * c;
  else if (loc != 0)
    b.from = base + (loc - 1) / 2;
  for (int k = 0; k < 2 && loc == 0; k++)
    if (inter[k] < n)
      b.to[b.nto++] = inter[k];
  for (int k = 0; k < 2; k++)
    if (intra[k] - base < c)
      b.to[b.nto++] = intra[k];
  b.leaf = loc != 0 && b.nto == 0; /* a local leaf waits all its segments at once */
  return b;
}

void coll_bcast_SMP_binary(const coll_args *a, coll_prog *p) {
  int uniform, c = coll_smp_cores(a, p, &uniform), r = a->rank, n = a->size;
  if (!uniform) {
    coll_algo_at(coll_algo_find(COLL_BCAST, coll_select_mpich(a, p)))->gen(a, p);
    return;
  }
  int ds = a->dtsize > 0 ? a->dtsize : 1;
  int64_t seg = 8192 / ds > 0 ? 8192 / ds : 1, count = a->count, nseg = count / seg;
  bin b = links(r, n, c);
  coll_bcast_root_to_0(a, p);
  if (count <= seg) {
    if (b.from >= 0)
      coll_wait(p, coll_irecv(p, b.from, T, count * ds));
    for (int k = 0; k < b.nto; k++)
      coll_send(p, b.to[k], T, count * ds);
    return;
  }
  for (int64_t i = 0; b.from >= 0 && i < nseg; i++)
    coll_irecv(p, b.from, T + (int)i, seg * ds);
  if (b.from >= 0 && b.leaf)
    coll_waitall(p);
  else
    for (int64_t i = 0; i < nseg; i++) {
      if (b.from >= 0)
        coll_wait(p, (int)i);
      for (int k = 0; k < b.nto; k++)
        coll_send(p, b.to[k], T + (int)i, seg * ds);
    }
  if (p->nreq)
    coll_waitall(p);
  if (count % seg) {
    coll_args rest = *a;
    rest.count = count % seg;
    rest.sbytes = rest.rbytes = rest.count * ds;
    coll_sub(&rest, p);
  }
}
