/* allgather_smp.c - SimGrid 3.32's SMP-aware allgathers smp_simple, SMP_NTS, loosely_lr
 * and mvapich2_smp (allgather-smp-simple.cpp, -SMP-NTS.cpp, -loosely-lr.cpp,
 * -mvapich-smp.cpp). All build SimGrid's SMP view first (coll_smp.c).
 *
 * smp_simple:
 * With c ranks per host (SimGrid's num_core, see allreduce_smp.c) placed host by host,
 * each rank first exchanges its block with the c - 1 others of its host (sendrecv to
 * local rank + i from local rank - i); each host leader then irecvs c blocks from every
 * other leader and isends its host's c blocks to each (one waitall), and finally sends
 * the whole N-block vector to each local rank in turn, which receives it. */
#include "coll_algos.h"

#include <stdlib.h>

#define T COLL_TAG_ALLGATHER

void coll_allgather_smp_simple(const coll_args *a, coll_prog *p) {
  int c = coll_smp_cores(a, p, NULL), r = a->rank, n = a->size;
  int intra = r % c, inter = r / c, P = (n + c - 1) / c;
  int local = inter == P - 1 ? n - inter * c : c;
  for (int i = 1; i < local; i++)
    coll_sendrecv(p, inter * c + (intra + i) % local, a->sbytes, inter * c + (intra - i + local) % local,
                  a->rbytes, T);
  if (intra == 0) {
    for (int i = 1; i < P; i++)
      coll_irecv(p, (inter - i + P) % P * c, T, a->rbytes * c);
    for (int i = 1; i < P; i++)
      coll_isend(p, (inter + i) % P * c, T, a->sbytes * c);
    coll_waitall(p);
    for (int i = 1; i < local; i++)
      coll_send(p, r + i, T, a->sbytes * n);
  } else
    coll_recv(p, inter * c, T, a->rbytes * n);
}

/* SMP_NTS (allgather-SMP-NTS.cpp): inside each host a ring of sendrecvs (as smp_simple);
 * then the leaders pass host blocks (c blocks) around the ring of leaders, tag T + step:
 * each leader posts all its P - 1 receives, isends its own host block to the next leader,
 * and for each block received forwards it to the next leader (isend) and down the chain
 * of its host (blocking send to local rank 1); local ranks receive each block from the
 * previous one and pass it on. N <= c: SimGrid's default allgather. */
static void nts_leader(coll_prog *p, int r, int c, int inter, int P, int local, int64_t hb) {
  int src = (inter - 1 + P) % P * c, dst = (inter + 1) % P * c, rq[64], i;
  int *rreq = P - 1 <= 64 ? rq : malloc((size_t)(P - 1) * sizeof *rreq);
  for (i = 0; i < P - 1; i++)
    rreq[i] = coll_irecv(p, src, T + i, hb);
  coll_isend(p, dst, T, hb);
  for (i = 0; i < P - 2; i++) {
    coll_wait(p, rreq[i]);
    coll_isend(p, dst, T + i + 1, hb);
    if (local > 1)
      coll_send(p, r + 1, T + i + 1, hb);
  }
  coll_wait(p, rreq[i]);
  if (local > 1)
    coll_send(p, r + 1, T + i + 1, hb);
  coll_waitall(p);
  if (rreq != rq)
    free(rreq);
}

void coll_allgather_SMP_NTS(const coll_args *a, coll_prog *p) {
  int c = coll_smp_cores(a, p, NULL), r = a->rank, n = a->size;
  if (n <= c) {
    coll_allgather_nbc_linear(a, p);
    return;
  }
  int intra = r % c, inter = r / c, P = (n + c - 1) / c;
  int local = inter == P - 1 ? n - inter * c : c;
  for (int i = 1; i < local; i++)
    coll_sendrecv(p, inter * c + (intra + i) % local, a->sbytes, inter * c + (intra - i + local) % local,
                  a->rbytes, T);
  if (intra == 0)
    nts_leader(p, r, c, inter, P, local, a->sbytes * c);
  else
    for (int i = 0; i < P - 1; i++) {
      coll_recv(p, r - 1, T + i + 1, a->rbytes * c);
      if (intra != local - 1)
        coll_send(p, r + 1, T + i + 1, a->sbytes * c);
    }
}

/* loosely_lr (allgather-loosely-lr.cpp): P rounds; in each, local rank j of every host
 * exchanges one block with local rank j of the next host (irecv from rank - c, isend to
 * rank + c, except in the last round), and every rank exchanges the round's block with
 * each other local rank of its host (irecv + isend); a round ends when the inter-host
 * receive is done; all other requests are waited at the end. */
void coll_allgather_loosely_lr(const coll_args *a, coll_prog *p) {
  int c = coll_smp_cores(a, p, NULL), r = a->rank, n = a->size;
  int intra = r % c, inter = r / c, P = (n + c - 1) / c;
  int to = (r + c) % n, from = (r - c + n) % n;
  for (int i = 0; i < P; i++) {
    int inter_req = -1;
    for (int j = 0; j < c; j++) {
      if (intra == j && i != P - 1) {
        inter_req = coll_irecv(p, from, T, a->rbytes);
        coll_isend(p, to, T, a->sbytes);
      }
      if (j != intra) {
        coll_irecv(p, inter * c + j, T, a->rbytes);
        coll_isend(p, inter * c + j, T, a->sbytes);
      }
    }
    if (inter_req >= 0)
      coll_wait(p, inter_req);
  }
  coll_waitall(p);
}

/* mvapich2_smp (allgather-mvapich-smp.cpp): a gather (colls::gather) to each host's
 * leader, an allgather of host blocks among leaders (the mpich allgather when hosts hold
 * as many ranks, else colls::allgatherv of the host sizes), then a bcast (colls::bcast)
 * of the whole vector inside each host. SimGrid throws unless the communicator is
 * uniform and blocked; tir runs it anyway (doc/collectives.md). */
void coll_allgather_mvapich2_smp(const coll_args *a, coll_prog *p) {
  coll_smp_need(a, p);
  if (a->rbytes == 0)
    return;
  coll_smp s;
  coll_smp_layout(a, &s);
  coll_args g = *a;
  g.kind = COLL_GATHER, g.root = 0;
  coll_on_intra(&g, coll_sub, &s, p);
  if (s.intra_rank == 0 && s.nhosts > 1) {
    coll_args l = *a;
    l.sbytes = l.rbytes = a->rbytes * s.intra_size;
    l.count = a->count * s.intra_size;
    int64_t *v = NULL;
    if (coll_smp_is_uniform(a, p, &s))
      coll_on_leaders(&l, coll_by_mpich, &s, p);
    else {
      v = malloc((size_t)s.nhosts * sizeof *v);
      for (int h = 0; h < s.nhosts; h++)
        v[h] = (s.start[h + 1] - s.start[h]) * a->rbytes;
      l.kind = COLL_ALLGATHERV, l.rcounts = v, l.sbytes = v[s.me_host];
      coll_on_leaders(&l, coll_sub, &s, p);
    }
    free(v);
  }
  coll_args b = *a;
  b.kind = COLL_BCAST, b.root = 0, b.count = a->count * a->size, b.sbytes = b.rbytes = a->rbytes * a->size;
  coll_on_intra(&b, coll_sub, &s, p);
  coll_smp_free(&s);
}
