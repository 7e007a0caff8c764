/* scan_rdb.c - recursive-doubling scan and exscan (tir's `rdb`, after MPICH's
 * MPIR_Scan_intra_recursive_doubling and MPIR_Exscan_intra_recursive_doubling).
 *
 * SimGrid 3.32 has only its linear scan/exscan; this one is tir's own. At distance mask
 * = 1, 2, 4... below N, each rank sendrecvs its whole partial result with rank ^ mask
 * when that rank exists: ceil(log2 N) rounds, the same messages for scan and exscan
 * (only what a rank keeps of the partner's data differs). */
#include "coll_algos.h"

void coll_scan_rdb(const coll_args *a, coll_prog *p) {
  for (int mask = 1; mask < a->size; mask <<= 1)
    if ((a->rank ^ mask) < a->size)
      coll_sendrecv(p, a->rank ^ mask, a->sbytes, a->rank ^ mask, a->rbytes, COLL_TAG_SCAN);
}
