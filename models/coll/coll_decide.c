/* coll_decide.c - lookups shared by the selectors: decision-table rows and sizes.
 *
 * A table is a list of rows in increasing communicator-size bounds, the last one
 * unbounded (max_n = 0); inside a row, limits increase and the first limit above the
 * byte count gives the algorithm, as in Open MPI's chains of `if (size < X)`. */
#include "coll_algos.h"

int coll_decide(const coll_row *rows, size_t nrows, int n, int64_t b) {
  for (size_t i = 0; i < nrows; i++) {
    const coll_row *r = &rows[i];
    if (r->max_n && n >= r->max_n)
      continue;
    for (int k = 0; k < r->n; k++)
      if (b < r->lim[k])
        return r->alg[k];
    return r->alg[r->n];
  }
  return 1;
}

int64_t coll_sum(const int64_t *v, int n) {
  int64_t t = 0;
  for (int i = 0; i < n; i++)
    t += v[i];
  return t;
}

int coll_pof2_floor(int n) {
  int m = 1;
  while (m <= n)
    m <<= 1;
  return m >> 1;
}
