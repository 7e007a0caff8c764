/* alltoall_bruck.c - Bruck's alltoall (SimGrid's "bruck").
 *
 * log2(N) rounds: in round k (pof2 = 2^k) a rank sends to rank + pof2 and receives from
 * rank - pof2 every block whose index has bit k set, packed in one message, so a round
 * moves count_k x (bytes per peer) where count_k = #{b in 1..N-1 : b & pof2}. The local
 * rotations before and after are self-copies (no message). */
#include "coll_algos.h"

void coll_alltoall_bruck(const coll_args *a, coll_prog *p) {
  int n = a->size, r = a->rank;
  for (int pof2 = 1; pof2 < n; pof2 *= 2) {
    int count = 0;
    for (int b = 1; b < n; b++)
      count += (b & pof2) != 0;
    coll_sendrecv(p, (r + pof2) % n, count * a->sbytes, (r - pof2 + n) % n, count * a->rbytes,
                  COLL_TAG_ALLTOALL);
  }
}
