/* coll_select_mvapich2.c - SimGrid 3.32's `mvapich2` selector (smpi_mvapich2_selector.cpp).
 *
 * For each collective it looks up a communicator-size row and a byte-count entry in the
 * MVAPICH2 "Stampede" tables (coll_mvapich2_tables.c): a row applies up to its numproc
 * ranks (the last one beyond), an entry up to its max bytes. The selector then sets
 * SimGrid's MV2_* globals (coll_mv2_state: the functions and k-nomial factors that the
 * two-level algorithms read, kept from call to call and shared by all ranks, as in
 * SimGrid) and runs the chosen function, with SimGrid's extra rules: allgather, bcast
 * and scatter first build SimGrid's SMP view (coll_smp.c); allgather and scatter pick
 * their table by ranks per host (1, 2 or 16, else the first) when hosts are uniform;
 * two-level allgather, gather and scatter need is_blocked (hosts' ranks consecutive, as
 * rank 0 publishes it: gather reads it without building the view); allreduce and reduce
 * treat MPI_OP_NULL as commutative (SimGrid's allreduce dereferences it and crashes: the
 * differential test skips it, doc/collectives.md). Barrier is mvapich2_pair, alltoallv
 * ring; the other collectives take the default selector's choices. The selector returns
 * "mvapich2", the registry entry running coll_by_mvapich2 below. */
#include "coll_algos.h"
#include "coll_tables.h"

#include <stdio.h>
#include <string.h>

coll_mv2_globals coll_mv2_state = {.intra_knomial = 4, .reduce_intra_k = -1, .reduce_inter_k = -1};

int coll_simgrid_compat;

void coll_run_begin(int simgrid_compat) {
  coll_mv2_state = (coll_mv2_globals){.intra_knomial = 4, .reduce_intra_k = -1, .reduce_inter_k = -1};
  coll_simgrid_compat = simgrid_compat != 0;
}

/* ====== tables ====== */

/* The row of table t for n ranks. */
static const coll_mv2_row *row_of(const coll_mv2_table *t, int n) {
  int r = 0;
  while (r < t->nrows - 1 && n > t->rows[r].numproc)
    r++;
  return &t->rows[r];
}

/* Index of the entry of e (count declared) for b bytes, from index `from` on; scale
 * multiplies the bounds (allgatherv compares with N x max). */
static int entry_of(const coll_mv2_fn *e, int count, int64_t b, int from, int64_t scale) {
  int i = from;
  while (i < count - 1 && b > scale * e[i].max && e[i].max != -1)
    i++;
  return i;
}

/* The table among the ppn configurations for the hosts' ranks (SimGrid's conf_index),
 * 0 when hosts are not uniform or hold another count; *ok says whether one matched. */
static const coll_mv2_table *conf_of(const coll_mv2_table *t3, const coll_args *a, coll_prog *p, int *ok) {
  coll_smp s;
  coll_smp_layout(a, &s);
  int uniform = coll_smp_is_uniform(a, p, &s), local = s.intra_size;
  coll_smp_free(&s);
  *ok = 0;
  for (int i = 0; uniform && i < 3; i++)
    if (t3[i].ppn == local) {
      *ok = 1;
      return &t3[i];
    }
  return &t3[0];
}

static int blocked(const coll_args *a, coll_prog *p) {
  coll_smp s;
  coll_smp_layout(a, &s);
  int b = coll_smp_is_blocked(a, p, &s);
  coll_smp_free(&s);
  return b;
}

/* ====== functions ====== */

/* MPIR_Allreduce_reduce_p2p/shmem_MV2 (allreduce "mv2:reduce"): colls::reduce to rank 0
 * of the whole communicator. */
static void reduce_on_comm(const coll_args *a, coll_prog *p) {
  coll_args r = *a;
  r.kind = COLL_REDUCE, r.root = 0;
  coll_sub(&r, p);
}

static void nothing(const coll_args *a, coll_prog *p) { (void)a, (void)p; }

/* The registry algorithm `name` of kind (helpers for the "mv2:" names). */
static coll_gen_fn fn_of(coll_kind kind, const char *name) {
  if (!name)
    return NULL;
  if (!strcmp(name, "mv2:reduce"))
    return reduce_on_comm;
  if (!strncmp(name, "mv2:", 4))
    return nothing;
  int i = coll_algo_find(kind, name);
  return i >= 0 ? coll_algo_at(i)->gen : nothing;
}

static int is(coll_gen_fn f, coll_kind kind, const char *name) { return f == fn_of(kind, name); }

/* ====== collectives ====== */

static void alltoall(const coll_args *a, coll_prog *p) {
  const coll_mv2_row *r = row_of(&coll_mv2_alltoall[0], a->size); /* SimGrid never changes conf 0 */
  fn_of(COLL_ALLTOALL, r->inter[entry_of(r->inter, r->ninter, a->sbytes, 0, 1)].fn)(a, p);
}

static void allgather(const coll_args *a, coll_prog *p) {
  coll_smp_need(a, p);
  int ok;
  const coll_mv2_row *r = row_of(conf_of(coll_mv2_allgather, a, p, &ok), a->size);
  int e = entry_of(r->inter, r->ninter, a->rbytes, 0, 1);
  coll_gen_fn f = fn_of(COLL_ALLGATHER, r->inter[e].fn);
  if (r->two_level >> e & 1) {
    if (!ok)
      coll_allgather_rdb(a, p);
    else if (blocked(a, p))
      coll_allgather_mvapich2_smp(a, p);
    else
      coll_by_mpich(a, p);
  } else if (f == coll_allgather_bruck || f == coll_allgather_rdb || f == coll_allgather_ring)
    f(a, p); /* anything else: SimGrid returns MPI_ERR_OTHER, no message */
}

static void gather(const coll_args *a, coll_prog *p) {
  const coll_mv2_row *r = row_of(&coll_mv2_gather[0], a->size);
  int64_t b = a->rank == a->root ? a->rbytes : a->sbytes;
  int e = entry_of(r->inter, r->ninter, b, 0, 1), ei = entry_of(r->intra, r->nintra, b, 0, 1);
  if (!blocked(a, p)) {
    coll_by_mpich(a, p);
    return;
  }
  coll_mv2_state.gather_intra = fn_of(COLL_GATHER, r->intra[ei].fn);
  fn_of(COLL_GATHER, r->inter[e].fn)(a, p);
}

static void allgatherv(const coll_args *a, coll_prog *p) {
  const coll_mv2_row *r = row_of(&coll_mv2_allgatherv[0], a->size);
  int64_t b = coll_sum(a->rcounts, a->size);
  coll_gen_fn f = fn_of(COLL_ALLGATHERV, r->inter[entry_of(r->inter, r->ninter, b, 0, a->size)].fn);
  if (f == coll_allgatherv_mpich_rdb && (a->size & (a->size - 1)))
    f = coll_allgatherv_ompi_bruck;
  f(a, p);
}

static void allreduce(const coll_args *a, coll_prog *p) {
  if (a->count == 0)
    return;
  const coll_mv2_row *r = row_of(&coll_mv2_allreduce[0], a->size);
  int e = 0;
  if (!r->extra[0]) /* no multicast: skip leading multicast entries */
    while (e < r->ninter - 1 && r->inter[e].fn && !strcmp(r->inter[e].fn, "mv2:mcst"))
      e++;
  e = entry_of(r->inter, r->ninter, a->sbytes, e, 1);
  int ei = entry_of(r->intra, r->nintra, a->sbytes, 0, 1);
  const char *inter = r->inter[e].fn, *intra = r->intra[ei].fn;
  if (!strcmp(inter, "mv2:mcst"))
    inter = "rdb";
  coll_mv2_state.allreduce = fn_of(COLL_ALLREDUCE, inter);
  coll_mv2_state.allreduce_intra = fn_of(COLL_ALLREDUCE, intra);
  coll_mv2_state.allreduce_intra_on_comm = intra && !strcmp(intra, "mv2:reduce");
  if (r->two_level >> e & 1)
    coll_allreduce_mvapich2_two_level(a, p);
  else
    coll_mv2_state.allreduce(a, p);
}

static void bcast(const coll_args *a, coll_prog *p) {
  if (a->count == 0)
    return;
  coll_smp_need(a, p);
  const coll_mv2_row *r = row_of(&coll_mv2_bcast[0], a->size);
  int e = entry_of(r->inter, r->ninter, a->sbytes, 0, 1), ei = entry_of(r->intra, r->nintra, a->sbytes, 0, 1);
  coll_mv2_globals *g = &coll_mv2_state;
  g->bcast = fn_of(COLL_BCAST, r->inter[e].fn);
  g->bcast_intra = r->intra[ei].fn ? fn_of(COLL_BCAST, r->intra[ei].fn) : coll_by_mpich;
  g->intra_knomial = r->extra[1];
  if (!(r->two_level >> e & 1)) {
    g->bcast_intra = coll_bcast_mvapich2_knomial_intra_node;
    g->bcast(a, p);
    return;
  }
  coll_bcast_mvapich2_inter_node(a, p);
  coll_smp s;
  coll_smp_layout(a, &s);
  coll_args b = *a;
  b.root = 0;
  coll_on_intra(&b, g->bcast_intra, &s, p);
  coll_smp_free(&s);
}

static void reduce(const coll_args *a, coll_prog *p) {
  if (a->count == 0)
    return;
  const coll_mv2_row *r = row_of(&coll_mv2_reduce[0], a->size);
  int e = entry_of(r->inter, r->ninter, a->sbytes, 0, 1), ei = entry_of(r->intra, r->nintra, a->sbytes, 0, 1);
  coll_mv2_globals *g = &coll_mv2_state;
  g->reduce_intra = fn_of(COLL_REDUCE, r->intra[ei].fn);
  g->reduce = fn_of(COLL_REDUCE, r->inter[e].fn);
  if (g->reduce_intra_k < 0)
    g->reduce_intra_k = r->extra[1];
  if (g->reduce_inter_k < 0)
    g->reduce_inter_k = r->extra[0];
  if (r->two_level >> e & 1)
    coll_reduce_mvapich2_two_level(a, p);
  else if (is(g->reduce, COLL_REDUCE, "scatter_gather") && a->count < coll_pof2_floor(a->size))
    coll_reduce_binomial(a, p);
  else
    g->reduce(a, p);
}

static void reduce_scatter(const coll_args *a, coll_prog *p) {
  const coll_mv2_row *r = row_of(&coll_mv2_red_scat[0], a->size);
  int64_t b = coll_sum(a->rcounts, a->size);
  fn_of(COLL_REDUCE_SCATTER, r->inter[entry_of(r->inter, r->ninter, b, 0, 1)].fn)(a, p);
}

static void scatter(const coll_args *a, coll_prog *p) {
  coll_smp_need(a, p);
  int ok;
  const coll_mv2_row *r = row_of(conf_of(coll_mv2_scatter, a, p, &ok), a->size);
  int64_t b = a->rank == a->root ? a->sbytes : a->rbytes;
  int e = entry_of(r->inter, r->ninter, b, 0, 1), ei = entry_of(r->intra, r->nintra, b, 0, 1);
  coll_gen_fn f = fn_of(COLL_SCATTER, r->inter[e].fn);
  if (r->inter[e].fn && !strcmp(r->inter[e].fn, "mv2:mcst")) /* the next entry, listed or not */
    f = r->inter[e + 1].fn ? fn_of(COLL_SCATTER, r->inter[e + 1].fn) : coll_scatter_ompi_binomial;
  if (f != coll_scatter_mvapich2_two_level_direct && f != coll_scatter_mvapich2_two_level_binomial)
    f(a, p);
  else if (!blocked(a, p))
    coll_scatter_ompi_binomial(a, p);
  else {
    coll_mv2_state.scatter_intra = fn_of(COLL_SCATTER, r->intra[ei].fn);
    f(a, p);
  }
}

void coll_by_mvapich2(const coll_args *a, coll_prog *p) {
  switch (a->kind) {
  case COLL_ALLTOALL:
    alltoall(a, p);
    break;
  case COLL_ALLGATHER:
    allgather(a, p);
    break;
  case COLL_GATHER:
    gather(a, p);
    break;
  case COLL_ALLGATHERV:
    allgatherv(a, p);
    break;
  case COLL_ALLREDUCE:
    allreduce(a, p);
    break;
  case COLL_ALLTOALLV:
    coll_alltoallv_ring(a, p);
    break;
  case COLL_BARRIER:
    coll_barrier_mvapich2_pair(a, p);
    break;
  case COLL_BCAST:
    bcast(a, p);
    break;
  case COLL_REDUCE:
    reduce(a, p);
    break;
  case COLL_REDUCE_SCATTER:
    reduce_scatter(a, p);
    break;
  case COLL_SCATTER:
    scatter(a, p);
    break;
  default:
    coll_algo_at(coll_algo_find(a->kind, coll_select_default(a, p)))->gen(a, p);
  }
}

const char *coll_select_mvapich2(const coll_args *a, coll_prog *p) {
  int i = coll_algo_find(a->kind, "mvapich2");
  return i >= 0 ? "mvapich2" : coll_select_default(a, p);
}
