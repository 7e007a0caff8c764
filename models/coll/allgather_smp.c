/* allgather_smp.c - SimGrid 3.32's allgather smp_simple (allgather-smp-simple.cpp).
 *
 * With c ranks per host (SimGrid's num_core, see allreduce_smp.c) placed host by host,
 * each rank first exchanges its block with the c - 1 others of its host (sendrecv to
 * local rank + i from local rank - i); each host leader then irecvs c blocks from every
 * other leader and isends its host's c blocks to each (one waitall), and finally sends
 * the whole N-block vector to each local rank in turn, which receives it. */
#include "coll_algos.h"

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
