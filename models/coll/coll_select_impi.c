/* coll_select_impi.c - SimGrid 3.32's `impi` selector (smpi_intel_mpi_selector.cpp).
 *
 * Every call first builds SimGrid's SMP view (coll_smp.c). The table is the one for the
 * ranks per host (1, 2, 4, 8 or 16 when hosts hold as many, else the first); its row is
 * the first whose max_np is at least N; its entry the first whose max exceeds the
 * call's byte count (SimGrid's block_dsize: the count x type size of the call, the
 * receive block for allgather, the root's receive (gather) or send (scatter) block on
 * the root and the other block elsewhere, the sum of the counts for allgatherv and
 * reduce_scatter, 1 for barrier and alltoallv). The entry names the algorithm
 * (coll_impi_tables.c); "mvapich2" runs that collective's mvapich2 selector. The
 * selector returns "impi", the registry entry running coll_by_impi. */
#include "coll_algos.h"
#include "coll_tables.h"

static const coll_impi_kind *kind_of(coll_kind k) {
  for (int i = 0; i < 11; i++)
    if (coll_impi_kinds[i].kind == k)
      return &coll_impi_kinds[i];
  return NULL;
}

static int64_t block(const coll_args *a) {
  switch (a->kind) {
  case COLL_REDUCE_SCATTER:
  case COLL_ALLGATHERV:
    return coll_sum(a->rcounts, a->size);
  case COLL_ALLGATHER:
    return a->rbytes;
  case COLL_GATHER:
    return a->rank == a->root ? a->rbytes : a->sbytes;
  case COLL_SCATTER:
    return a->rank != a->root ? a->rbytes : a->sbytes;
  case COLL_BARRIER:
  case COLL_ALLTOALLV:
    return 1;
  default:
    return a->sbytes;
  }
}

/* The 1-based algorithm of table set t for a call. */
static int alg_of(const coll_impi_kind *t, const coll_args *a, int local) {
  int i = 0;
  while (i < t->ntables && t->tables[i].ppn != local)
    i++;
  const coll_impi_table *tab = &t->tables[i < t->ntables ? i : 0];
  int j = 0;
  while (j < tab->nrows - 1 && a->size > tab->rows[j].max_np)
    j++;
  const coll_impi_row *r = &tab->rows[j];
  int64_t b = block(a);
  int k = 0;
  while (k < r->n && b >= (int64_t)r->e[k].max)
    k++;
  return r->e[k].alg > 0 ? r->e[k].alg : 1; /* past the listed entries: SimGrid reads garbage */
}

void coll_by_impi(const coll_args *a, coll_prog *p) {
  const coll_impi_kind *t = kind_of(a->kind);
  if (!t) {
    coll_algo_at(coll_algo_find(a->kind, coll_select_default(a, p)))->gen(a, p);
    return;
  }
  int uniform, c = coll_smp_cores(a, p, &uniform);
  int alg = alg_of(t, a, uniform ? c : 1);
  coll_algo_at(coll_algo_find(a->kind, t->fn[alg <= t->nfn ? alg - 1 : 0]))->gen(a, p);
}

const char *coll_select_impi(const coll_args *a, coll_prog *p) {
  return kind_of(a->kind) ? "impi" : coll_select_default(a, p);
}
