/* allreduce.c - SimGrid 3.32's allreduce algorithms (src/smpi/colls/allreduce/).
 *
 * No reduction is computed (MPI_OP_NULL): only the messages are generated. redbcast is
 * the current selector's reduce to 0 then its bcast from 0. rdb is MPICH's recursive
 * doubling: with pof2 the largest power of two <= N and rem = N - pof2, the first 2 rem
 * ranks pair up (even sends its vector to odd and sits out), the pof2 remaining ranks
 * exchange whole vectors at XOR distances of their new ranks, and the odd ranks give
 * the result back to their even partners. */
#include "coll_algos.h"

#define T COLL_TAG_ALLREDUCE

void coll_allreduce_redbcast(const coll_args *a, coll_prog *p) {
  coll_args b = *a;
  b.root = 0;
  b.kind = COLL_REDUCE;
  coll_sub(&b, p);
  b.kind = COLL_BCAST;
  coll_sub(&b, p);
}

void coll_allreduce_rdb(const coll_args *a, coll_prog *p) {
  int r = a->rank, n = a->size, pof2 = coll_pof2_floor(n), rem = n - pof2, nr;
  int64_t b = a->sbytes;
  if (r < 2 * rem) {
    if (r % 2 == 0) {
      coll_send(p, r + 1, T, b);
      nr = -1;
    } else {
      coll_recv(p, r - 1, T, b);
      nr = r / 2;
    }
  } else
    nr = r - rem;
  if (nr != -1)
    for (int mask = 1; mask < pof2; mask <<= 1) {
      int nd = nr ^ mask, dst = nd < rem ? nd * 2 + 1 : nd + rem;
      coll_sendrecv(p, dst, b, dst, b, T);
    }
  if (r < 2 * rem) {
    if (r % 2)
      coll_send(p, r - 1, T, b);
    else
      coll_recv(p, r + 1, T, b);
  }
}
