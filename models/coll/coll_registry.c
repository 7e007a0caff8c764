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
#ifdef COLL_HAVE_OMPI_SELECTOR
    {"ompi", coll_select_ompi, "Open MPI 4.1 tuned fixed decision rules"},
#endif
#ifdef COLL_HAVE_MPICH_SELECTOR
    {"mpich", coll_select_mpich, "MPICH 4.0 default choices"},
#endif
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

const coll_algo *coll_generate(const coll_args *a, int sel, const char *forced, coll_prog *p) {
  const char *name = forced && *forced ? forced : selectors[sel].select(a);
  int i = coll_algo_find(a->kind, name);
  if (i < 0) /* a selector naming an unregistered algorithm is a bug, not an input error */
    i = coll_algo_find(a->kind, coll_select_default(a));
  coll_prog_reset(p);
  algos[i].gen(a, p);
  return &algos[i];
}
