/* allgather_mesh.c - SimGrid 3.32's allgather 2dmesh and 3dmesh (allgather-2dmesh.cpp,
 * allgather-3dmesh.cpp, Faraj and Yuan).
 *
 * The N ranks form an X x Y grid (2dmesh: X <= Y, X the first divisor of N from
 * floor(sqrt(N)) up to N/2) or an X x X x Z box (3dmesh: X the first value from
 * floor(cbrt(N)) up to N/3 whose square divides N). Each phase posts irecvs from the
 * peers along one axis, then blocking-sends to each of them what it holds, then waits:
 * rows (one block each), columns (the row's Y blocks), then for 3dmesh the planes (X x X
 * blocks, peers rank + i X^2 mod N). With no such shape SimGrid throws before any
 * message; tir sends nothing and warns once (doc/collectives.md). */
#include "coll_algos.h"

#include <math.h>
#include <stdio.h>

#define T COLL_TAG_ALLGATHER

/* irecv rb from and blocking-send sb to each peer base + i x step (i < k), then wait. */
static void phase(coll_prog *p, int r, int base, int step, int k, int64_t sb, int64_t rb) {
  for (int i = 0; i < k; i++)
    if (base + i * step != r)
      coll_irecv(p, base + i * step, T, rb);
  for (int i = 0; i < k; i++)
    if (base + i * step != r)
      coll_send(p, base + i * step, T, sb);
  coll_waitall(p);
}

static void no_mesh(const char *name, int n) {
  static int warned;
  if (!warned++)
    fprintf(stderr, "tir-replay: warning: allgather %s cannot arrange %d ranks (SimGrid throws): no message sent\n",
            name, n);
}

void coll_allgather_2dmesh(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank, X = 0, Y = 0;
  for (int x = (int)sqrt((double)n); x <= n / 2; x++)
    if (x > 0 && n % x == 0) {
      X = x < n / x ? x : n / x, Y = n / X;
      break;
    }
  if (!X) {
    no_mesh("2dmesh", n);
    return;
  }
  phase(p, r, r / Y * Y, 1, Y, a->sbytes, a->rbytes);
  phase(p, r, r % Y, Y, X, a->sbytes * Y, a->rbytes * Y);
}

void coll_allgather_3dmesh(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank, X = 0, Z = 0;
  for (int x = (int)cbrt(n); x <= n / 3; x++)
    if (x > 0 && n % (x * x) == 0) {
      X = x, Z = n / (x * x);
      break;
    }
  if (!X) {
    no_mesh("3dmesh", n);
    return;
  }
  int plane = X * X, z = r / plane;
  phase(p, r, r / X * X, 1, X, a->sbytes, a->rbytes);
  phase(p, r, r % X + z * plane, X, X, a->sbytes * X, a->rbytes * X);
  for (int i = 1; i < Z; i++)
    coll_irecv(p, (r + i * plane) % n, T, a->rbytes * plane);
  for (int i = 1; i < Z; i++)
    coll_send(p, (r + i * plane) % n, T, a->sbytes * plane);
  coll_waitall(p);
}
