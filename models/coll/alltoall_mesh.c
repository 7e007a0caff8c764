/* alltoall_mesh.c - SimGrid 3.32's alltoall 2dmesh, 3dmesh and rdb.
 *
 * The mesh algorithms see the N ranks as an X x Y grid (2dmesh: X <= Y, X the first
 * divisor of N from floor(sqrt(N)) up to N/2) or an X x X x Z box (3dmesh: X the first
 * value from floor(cbrt(N)) up to N/3 whose square divides N); with no such shape
 * SimGrid returns an error before any message, and tir sends nothing. Each phase posts
 * irecvs from the peers along one axis, sends with blocking sends everything those peers
 * need (whole send buffers in the first phase, then the gathered rows/planes), and
 * waits. rdb runs MPICH's recursive doubling allgather on whole send buffers (N blocks
 * a rank) and keeps what is addressed to the rank. */
#include "coll_algos.h"

#include <math.h>

#define T COLL_TAG_ALLTOALL

/* One phase: irecv rb from and blocking-send sb to each peer base + i x step, i < k. */
static void phase(coll_prog *p, int r, int base, int step, int k, int64_t sb, int64_t rb) {
  for (int i = 0; i < k; i++)
    if (base + i * step != r)
      coll_irecv(p, base + i * step, T, rb);
  for (int i = 0; i < k; i++)
    if (base + i * step != r)
      coll_send(p, base + i * step, T, sb);
  coll_waitall(p);
}

void coll_alltoall_2dmesh(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank, X = 0, Y = 0;
  for (int x = (int)sqrt((double)n); x <= n / 2; x++)
    if (n % x == 0) {
      X = x < n / x ? x : n / x, Y = n / X;
      break;
    }
  if (!X)
    return;
  phase(p, r, r / Y * Y, 1, Y, a->sbytes * n, a->rbytes * n);
  phase(p, r, r % Y, Y, X, a->sbytes * Y, a->rbytes * Y);
}

void coll_alltoall_3dmesh(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank, X = 0, Z = 0;
  for (int x = (int)cbrt(n); x <= n / 3; x++)
    if (n % (x * x) == 0) {
      X = x, Z = n / (x * x);
      break;
    }
  if (!X)
    return;
  int plane = X * X, z = r / plane;
  phase(p, r, r / X * X, 1, X, a->sbytes * n, a->rbytes * n);
  phase(p, r, r % X + z * plane, X, X, a->sbytes * n * X, a->rbytes * n * X);
  for (int i = 1; i < Z; i++)
    coll_irecv(p, (r + i * plane) % n, T, a->rbytes * plane);
  for (int i = 1; i < Z; i++)
    coll_send(p, (r + i * plane) % n, T, a->sbytes * plane);
  coll_waitall(p);
}

void coll_alltoall_rdb(const coll_args *a, coll_prog *p) {
  coll_rdb_allgather(a->rank, a->size, a->sbytes * a->size, T, p);
}
