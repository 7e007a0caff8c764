/* coll_smp.c - SimGrid 3.32's SMP view of a communicator: host sub-communicators, host
 * leaders, is_uniform, is_blocked, the messages that build them, and running an
 * algorithm on such a sub-communicator (src/smpi/mpi/smpi_comm.cpp, Comm::init_smp).
 *
 * SimGrid groups the ranks of a communicator by host. The intra-node communicator of a
 * rank holds the ranks on its host in the order the host lists its actors, i.e. by
 * process id (world rank; tir uses communicator rank order, the same thing on
 * MPI_COMM_WORLD, the only communicator SimGrid replays); its rank 0, the lowest, is the
 * host's leader. The leaders communicator holds the leaders sorted by process id. A
 * communicator is uniform when every host holds as many of its ranks, blocked when each
 * host's ranks are consecutive. Algorithms written for blocked layouts (smp_*, SMP_*)
 * take num_core = the intra size when uniform, else 1, and compute local and leader
 * ranks as rank % num_core and rank / num_core whatever the real layout: tir does the
 * same, so a cyclic hostfile gives SimGrid's (odd) message pattern.
 *
 * The first time a rank runs an algorithm that needs these communicators, SimGrid's
 * init_smp builds them with messages on the communicator: a ring allgather of the
 * leaders (one int), a ring allgather of the host sizes among leaders, a bcast
 * (scatter_LR_allgather) of is_uniform inside each host, and a default allreduce of
 * is_blocked. coll_smp_need appends them to the program when coll_args.smp_fresh says
 * the rank has not built them yet (the runtime keeps that state: coll_prog.smp_built).
 * Messages of the sub-communicators match those of the communicator (SimGrid gives SMP
 * communicators no id, and a message with no id matches any communicator): tir keeps
 * their tags and maps their ranks to communicator ranks. */
#include "coll_algos.h"

#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ====== layout ====== */

static const int *sort_key; /* node_of, for qsort's comparison */

static int by_node_rank(const void *x, const void *y) {
  int a = *(const int *)x, b = *(const int *)y;
  if (sort_key[a] != sort_key[b])
    return sort_key[a] < sort_key[b] ? -1 : 1;
  return a < b ? -1 : a > b;
}

/* Groups of ranks by host, sorted by rank inside, hosts ordered by their lowest rank. */
static void group_hosts(coll_smp *s, const int *node_of, int n) {
  int *tmp = x_malloc((size_t)n * sizeof *tmp), *gstart = x_malloc((size_t)(n + 1) * sizeof *gstart), ng = 0;
  for (int i = 0; i < n; i++)
    tmp[i] = i;
  sort_key = node_of;
  qsort(tmp, (size_t)n, sizeof *tmp, by_node_rank);
  for (int i = 0; i < n; i++)
    if (i == 0 || node_of[tmp[i]] != node_of[tmp[i - 1]])
      gstart[ng++] = i;
  gstart[ng] = n;
  /* order the groups by their lowest rank: group g starts with rank tmp[gstart[g]] */
  int *order = x_malloc((size_t)ng * sizeof *order), *mark = x_calloc((size_t)n, sizeof *mark);
  for (int g = 0; g < ng; g++)
    mark[tmp[gstart[g]]] = g + 1;
  for (int i = 0, k = 0; i < n; i++)
    if (mark[i])
      order[k++] = mark[i] - 1;
  s->nhosts = ng;
  for (int h = 0, pos = 0; h < ng; h++) {
    int g = order[h], len = gstart[g + 1] - gstart[g];
    s->start[h] = pos;
    memcpy(s->by_host + pos, tmp + gstart[g], (size_t)len * sizeof *tmp);
    for (int k = 0; k < len; k++)
      s->host[tmp[gstart[g] + k]] = h;
    pos += len;
  }
  s->start[ng] = n;
  free(tmp), free(gstart), free(order), free(mark);
}

void coll_smp_layout(const coll_args *a, coll_smp *s) {
  int n = a->size;
  s->n = n;
  s->host = x_malloc((size_t)n * sizeof *s->host);
  s->by_host = x_malloc((size_t)n * sizeof *s->by_host);
  s->start = x_malloc((size_t)(n + 1) * sizeof *s->start);
  if (a->node_of)
    group_hosts(s, a->node_of, n);
  else { /* no placement known: one rank per host */
    for (int i = 0; i <= n; i++)
      s->start[i] = i;
    for (int i = 0; i < n; i++)
      s->host[i] = s->by_host[i] = i;
    s->nhosts = n;
  }
  s->uniform = s->blocked = 1;
  for (int h = 0; h < s->nhosts; h++) {
    int len = s->start[h + 1] - s->start[h];
    s->uniform &= len == s->start[1] - s->start[0];
    s->blocked &= s->by_host[s->start[h + 1] - 1] - s->by_host[s->start[h]] == len - 1;
  }
  int h = s->host[a->rank];
  s->me_host = h;
  s->intra_size = s->start[h + 1] - s->start[h];
  for (s->intra_rank = 0; s->by_host[s->start[h] + s->intra_rank] != a->rank; s->intra_rank++)
    ;
}

void coll_smp_free(coll_smp *s) {
  free(s->host), free(s->by_host), free(s->start);
  s->host = s->by_host = s->start = NULL;
}


/* ====== scopes and state ====== */

static uint32_t bit(int scope) { return scope < 31 ? 1u << scope : 1u << 31; }

int coll_smp_built(const coll_args *a, const coll_prog *p) {
  return ((a->smp_done | p->smp_built) & bit(a->smp_scope)) != 0;
}

int coll_smp_is_uniform(const coll_args *a, const coll_prog *p, const coll_smp *s) {
  return coll_smp_built(a, p) ? s->uniform : 1; /* SimGrid's Comm::is_uniform_ starts true */
}

int coll_smp_is_blocked(const coll_args *a, const coll_prog *p, const coll_smp *s) {
  int known = a->smp_scope == 0 && !(p->smp_built & 1) ? a->smp_blocked : coll_smp_built(a, p);
  return known && s->blocked; /* Comm::is_blocked_ starts false */
}

int coll_smp_cores(const coll_args *a, coll_prog *p, int *uniform) {
  coll_smp_need(a, p);
  coll_smp s;
  coll_smp_layout(a, &s);
  int u = coll_smp_is_uniform(a, p, &s), c = u ? s.intra_size : 1;
  if (uniform)
    *uniform = u;
  coll_smp_free(&s);
  return c;
}

int coll_smp_host_end(int r, int c, int n) {
  int end = (r / c + 1) * c;
  return coll_simgrid_compat || end > n ? n : end;
}

/* ====== running an algorithm on a sub-communicator ====== */

/* One line per run for a peer outside a sub-communicator (SimGrid's code given ranks it
 * does not check, e.g. a world root used as a host communicator's root). */
static void warn_peer(int peer, int m) {
  static int warned;
  if (!warned++)
    fprintf(stderr, "tir-replay: warning: a collective addresses rank %d of a %d-rank SMP sub-communicator "
                    "(SimGrid's code does not check it): message left out\n", peer, m);
}

/* One op of q for append_mapped (base: where q's request indices start in p). */
static void append_op(coll_prog *p, coll_op o, const int *members, int m, int *base) {
  if (o.op <= COLL_OP_RECV && (o.peer < 0 || o.peer >= m)) {
    warn_peer(o.peer, m);
    return;
  }
  if (o.op <= COLL_OP_RECV)
    o.peer = members[o.peer];
  else if (o.op == COLL_OP_WAIT)
    o.peer += *base;
  x_grow(&p->ops, &p->cap, p->n + 1, sizeof *p->ops);
  p->ops[p->n++] = o;
  if (o.op == COLL_OP_ISEND || o.op == COLL_OP_IRECV)
    p->nreq++;
  else if (o.op == COLL_OP_WAITALL || o.op == COLL_OP_WAITEACH)
    p->nreq = 0, *base = 0;
}

/* Appends q's ops to p, peers mapped through members (m of them), request indices of
 * waits shifted past the requests p has open; a series becomes its posts (their mapped
 * peers follow no step). */
static void append_mapped(coll_prog *p, const coll_prog *q, const int *members, int m) {
  int base = p->nreq;
  for (size_t i = 0; i < q->n;) {
    int j = 0;
    if ((long)i == q->init_at && q->resume_at >= 0)
      p->init_at = (long)p->n;
    if (q->ops[i].op == COLL_OP_RESUME)
      p->resume_at = (long)p->n;
    size_t at = i;
    do {
      append_op(p, coll_prog_op(q, at, j), members, m, &base);
      coll_prog_next(q, &i, &j);
    } while (j > 0);
  }
}

void coll_on_group(const coll_args *a, coll_gen_fn gen, int sub, const int *members, int m, int me,
                   coll_prog *p) {
  if (p->resume_at >= 0) /* the program is cut before this: generated again later */
    return;
  coll_prog q = {0};
  coll_prog_reset(&q);
  q.smp_built = p->smp_built;
  coll_args b = *a;
  int *nodes = x_malloc((size_t)m * sizeof *nodes);
  for (int k = 0; k < m; k++)
    nodes[k] = a->node_of ? a->node_of[members[k]] : members[k];
  b.rank = me, b.size = m, b.node_of = nodes;
  b.smp_scope = a->smp_scope < 15 ? 2 * a->smp_scope + sub : 31;
  gen(&b, &q);
  if (q.resume_at >= 0)
    q.n = (size_t)q.resume_at + 1;
  p->smp_built |= q.smp_built;
  append_mapped(p, &q, members, m);
  coll_prog_free(&q);
  free(nodes);
}

void coll_on_intra(const coll_args *a, coll_gen_fn gen, const coll_smp *s, coll_prog *p) {
  coll_on_group(a, gen, 1, s->by_host + s->start[s->me_host], s->intra_size, s->intra_rank, p);
}

void coll_on_leaders(const coll_args *a, coll_gen_fn gen, const coll_smp *s, coll_prog *p) {
  int *lead = x_malloc((size_t)s->nhosts * sizeof *lead);
  for (int h = 0; h < s->nhosts; h++)
    lead[h] = s->by_host[s->start[h]];
  coll_on_group(a, gen, 2, lead, s->nhosts, s->me_host, p);
  free(lead);
}

/* ====== init_smp ====== */

/* Appends SimGrid's init_smp messages for rank a->rank (layout s). */
static void init_smp(const coll_args *a, const coll_smp *s, coll_prog *p) {
  coll_args b = *a;
  b.kind = COLL_ALLGATHER, b.count = 1, b.dtsize = 4, b.sbytes = b.rbytes = 4, b.root = 0;
  b.scounts = b.rcounts = NULL;
  coll_allgather_ring(&b, p); /* leaders_map */
  if (s->intra_rank == 0)     /* host sizes among leaders */
    coll_on_leaders(&b, coll_allgather_ring, s, p);
  b.kind = COLL_BCAST; /* is_uniform from the leader to its host */
  coll_on_intra(&b, coll_bcast_scatter_LR_allgather, s, p);
  b.kind = COLL_ALLREDUCE; /* is_blocked */
  coll_allreduce_default(&b, p);
  if (p->nreq)
    coll_waitall(p);
}

void coll_smp_need(const coll_args *a, coll_prog *p) {
  if (coll_smp_built(a, p) || p->resume_at >= 0)
    return;
  coll_smp s;
  coll_smp_layout(a, &s);
  long at = (long)p->n;
  int cut = p->nreq == 0;
  init_smp(a, &s, p);
  p->smp_built |= bit(a->smp_scope);
  if (cut) { /* requests left open: no cut, the rest keeps its indices */
    p->init_at = at;
    p->resume_at = (long)p->n;
    coll_resume(p);
  }
  coll_smp_free(&s);
}
