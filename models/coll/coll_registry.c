/* coll_registry.c - the one name table of collective algorithms and selectors.
 *
 * Every algorithm is listed here under SimGrid's name for it, so `--cfg=smpi/bcast:NAME`
 * command lines carry over; `tir-replay --list-algorithms` prints this table. */
#include "coll.h"
#include "coll_algos.h"

#include <stdio.h>
#include <string.h>

static const char *kind_names[COLL_NKINDS] = {
    "bcast",   "reduce",     "allreduce", "alltoall", "alltoallv",      "gather", "gatherv", "allgather",
    "allgatherv", "scatter", "scatterv", "barrier",  "reduce_scatter", "scan",   "exscan"};

static const coll_algo algos[] = {
#define COLL_ALGO(kind, name, fn, desc) {kind, name, fn, desc},
#include "coll_algos.def"
#undef COLL_ALGO
};
#define NALGOS ((int)(sizeof algos / sizeof algos[0]))

static const coll_selector selectors[] = {
    {"default", coll_select_default, "SimGrid 3.32's default choices (smpi_default_selector.cpp)"},
    {"ompi", coll_select_ompi, "SimGrid 3.32's Open MPI selector (Open MPI 4.1 tuned fixed rules)"},
    {"mpich", coll_select_mpich, "SimGrid 3.32's MPICH selector (MPICH 3.x default choices)"},
    {"mvapich2", coll_select_mvapich2, "SimGrid 3.32's MVAPICH2 selector (MVAPICH2's Stampede tables)"},
    {"impi", coll_select_impi, "SimGrid 3.32's Intel MPI selector (Intel MPI's reference tables)"},
};
#define NSEL ((int)(sizeof selectors / sizeof selectors[0]))

int coll_algo_count(void) { return NALGOS; }
const coll_algo *coll_algo_at(int i) { return &algos[i]; }

int coll_algo_find(coll_kind kind, const char *name) {
  for (int i = 0; i < NALGOS; i++)
    if (algos[i].kind == kind && !strcmp(algos[i].name, name))
      return i;
  return -1;
}

void coll_algo_names(coll_kind kind, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = 0;
  for (int i = 0; i < NALGOS && used < len; i++)
    if (algos[i].kind == kind)
      used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : "", algos[i].name);
}

const char *coll_kind_name(coll_kind kind) { return kind_names[kind]; }

int coll_kind_find(const char *name) {
  for (int k = 0; k < COLL_NKINDS; k++)
    if (!strcmp(kind_names[k], name))
      return k;
  return -1;
}

int coll_selector_find(const char *name) {
  for (int i = 0; i < NSEL; i++)
    if (!strcmp(selectors[i].name, name))
      return i;
  return -1;
}
const coll_selector *coll_selector_at(int i) { return &selectors[i]; }
int coll_selector_count(void) { return NSEL; }

const char *coll_selector_names(void) {
  static char buf[128];
  size_t used = 0;
  for (int i = 0; i < NSEL; i++)
    used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? ", " : "", selectors[i].name);
  return buf;
}

static int cur_sel;      /* selector of the call being generated (for coll_sub) */
static int cur_kind;     /* kind of the call being generated */
static int cur_forced;   /* algorithm forced for cur_kind, or -1 */
static int cur_sub;      /* depth of coll_sub calls in it */
static int forced_idx[COLL_NKINDS]; /* coll_force's table: 1 + algorithm index, 0 = none */

void coll_force(coll_kind kind, const char *name) {
  int i = name && *name ? coll_algo_find(kind, name) : -1;
  forced_idx[kind] = i + 1;
}

/* One stderr line per (kind, name) a selector picks that tir lacks. */
static void warn_missing(const coll_args *a, int sel, const char *name, const char *used) {
  static char seen[64][64];
  static int nseen;
  char key[64];
  snprintf(key, sizeof key, "%d:%s", (int)a->kind, name);
  for (int i = 0; i < nseen; i++)
    if (!strcmp(seen[i], key))
      return;
  if (nseen < 64)
    snprintf(seen[nseen++], sizeof seen[0], "%s", key);
  fprintf(stderr, "tir-replay: warning: selector %s picks %s algorithm '%s', which tir does not have: using '%s'\n",
          selectors[sel].name, kind_names[a->kind], name, used);
}

/* Algorithm index for a under selector sel; a name tir lacks falls back to the default
 * selector's choice, with a warning (doc/collectives.md lists the cases). */
static int pick(const coll_args *a, int sel, coll_prog *p) {
  const char *name = selectors[sel].select(a, p);
  int i = coll_algo_find(a->kind, name);
  if (i >= 0)
    return i;
  i = coll_algo_find(a->kind, coll_select_default(a, p));
  warn_missing(a, sel, name, algos[i].name);
  return i;
}

const coll_algo *coll_generate(const coll_args *a, int sel, const char *forced, coll_prog *p) {
  int i = forced && *forced ? coll_algo_find(a->kind, forced) : -1;
  cur_forced = i;
  cur_sel = sel;
  cur_kind = a->kind;
  cur_sub = 0;
  coll_prog_reset(p);
  if (a->late) {
    a->late(a, p); /* the rest of a program cut at a late read */
  } else {
    if (i < 0)
      i = pick(a, sel, p);
    algos[i].gen(a, p);
  }
  if (p->resume_at >= 0) /* the rest is generated again after init_smp or a late read */
    p->n = (size_t)p->resume_at + 1;
  else if (p->nreq > 0) /* requests waited one by one: close the program with a (free) waitall */
    coll_waitall(p);
  return a->late ? NULL : &algos[i];
}

int coll_top_call(const coll_args *a) { return (int)a->kind == cur_kind && a->smp_scope == 0 && !cur_sub; }

/* SimGrid's colls::KIND: the algorithm forced for that kind (--cfg=smpi/KIND:NAME),
 * else the selector's pick. */
void coll_sub(const coll_args *a, coll_prog *p) {
  int i = forced_idx[a->kind] - 1;
  if (i < 0 && (int)a->kind == cur_kind)
    i = cur_forced;
  cur_sub++;
  algos[i >= 0 ? i : pick(a, cur_sel, p)].gen(a, p);
  cur_sub--;
}

/* The "ompi" and "mpich" entries of every kind: that selector's choice, whatever the
 * selector of the run (SimGrid's --cfg=smpi/bcast:ompi). */
static void by_selector(const char *name, const coll_args *a, coll_prog *p) {
  algos[pick(a, coll_selector_find(name), p)].gen(a, p);
}
void coll_by_ompi(const coll_args *a, coll_prog *p) { by_selector("ompi", a, p); }
void coll_by_mpich(const coll_args *a, coll_prog *p) { by_selector("mpich", a, p); }
