/* engine.c - discrete-event kernel: time, actions, the completion heap, lazy updates.
 *
 * The invariant: every running action with a positive rate sits in the heap at the
 * date it will complete if no rate changes (flows in their latency phase sit there at
 * the end of that phase). After any change (an action starts or ends, a latency phase
 * ends) the solver recomputes the shares of the connected part of the system, and only
 * the actions whose variables it recomputed get a new date: their remaining work is
 * first brought up to date at their old rate. This is SimGrid's lazy update, with its
 * precision rules (surf/precision between dates, maxmin x surf precision on amounts).
 *
 * Flows that follow a level of the solver (lmm.h "Levels": exact mode's group, local mode's
 * bundles, class mode's classes; rate = level / p x factor) are followed through one
 * virtual clock per level instead: phi_k, the integral of level k over time. A flow
 * entering level k with remaining work r at phi0 completes when phi_k reaches
 * phi0 + r p / factor whatever the level does meanwhile, so each level has its own heap
 * keyed by that value, and the real date of its first completion (due) competes with the
 * main heap's top for the next event; a change of a level costs O(log levels), not one heap
 * update per flow. A flow leaving a level (or changing level) gets its remaining work back
 * from phi. phi is brought up to date only when its level changes or a flow enters or
 * leaves (grp_rebase), and the solver hands out the levels that may have changed
 * (lmm_next_level); the levels with a due sit in a binary heap by (due, tie), so a step
 * costs O(changed levels x log levels), not O(levels) (class mode: hundreds of classes).
 *
 * Flows alike (one route, one payload) started in one step share one solver variable: the
 * first one carries its twins (see "Twins").
 *
 * An execution alone on its host (the usual case: one rank per host) gets no solver
 * variable: the solver would give it min(bound, cores x speed) exactly, so its completion
 * date is known at once (no variable, element, solve or free: -7.5 % instructions on a
 * contention-free replay). A second execution starting on the host gives it its variable
 * (its remaining work brought up to date first) and the solver shares the host from the
 * next solve on. Not under tir/simgrid-marking, whose ties follow SimGrid's solves.
 *
 * The heaps are evq.h queues: actions due at the same date in creation order share a
 * run, so the synchronised ranks of a stencil, whose thousands of messages end at a few
 * dates, cost O(1) per event instead of O(log n).
 *
 * Ties: equal dates come out by creation number. Under tir/simgrid-marking (sg_ties) they
 * follow SimGrid 3.32's heaps instead (doc/model.md, "Equal dates"): every heap update
 * takes a new number, the re-solved actions are updated in SimGrid's solve order, a new
 * sleep is queued by the next solve (last started first, before the re-solved actions),
 * and network actions come after CPU ones (replay.c also starts the last rank first).
 *
 * Cost: O(log n) per heap update (O(1) when it joins a run); per step, the solver's cost
 * for the touched component plus O(k log n) for its k recomputed variables (group flows:
 * O(log n) for the ones that join or leave). Actions are recycled through a free list. */
#include "engine.h"

#include "arena.h"
#include "evq.h"
#include "lmm.h"
#include "pool.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What an action is, in one field (what, below: no padding before the doubles): an
 * execution's host (>= 0), or one of these. */
enum { K_FLOW = -1, K_LATENCY = -2, K_SLEEP = -3 };

struct eng_act {
  int32_t what;       /* an execution: its host; a flow: K_LATENCY while it pays its latency,
                         then K_FLOW; a sleep: K_SLEEP */
  int32_t grp;        /* group level whose heap holds it (rate = level x factor / the
                         variable's penalty), or -1 */
  double remains;     /* bytes or flops still to do */
  double factor;      /* effective rate = factor x variable value */
  double rate;        /* rate used since last_update */
  double last_update; /* date at which remains was last brought up to date */
  double penalty;     /* flows: penalty to set when the latency phase ends; executions: bound */
  double date;        /* heap key: completion (or latency end) date; in the group heap,
                         the virtual time phi at which the action completes */
  uint64_t seq;       /* heap tie-breaker: creation order (sg_ties: last heap update) */
  evq_pos pos;        /* where it is in its heap (evq_queued: in one) */
  lmm_var *var;       /* NULL for sleeps, contention-free flows and twins; a rider: its
                         carrier's (whose action owns it, see "Riders") */
  struct eng_twin *twin; /* a flow: its twins, newest first (see "Twins") */
  eng_act *rnext;     /* a carrier: its first rider; a rider: the next one (see "Riders") */
  struct route_entry *route; /* a flow with a variable of its own: its route */
  eng_done_fn done;
  void *ctx;
};

/* A twin until its first one ends (see "Twins"): what its end needs, 32 bytes where an
 * action takes 128 (with k ranks a host most of an alltoall's messages are twins). */
typedef struct eng_twin {
  eng_done_fn done;
  void *ctx;
  uint64_t seq;          /* its creation number, as an action's: its place among equal dates */
  struct eng_twin *next; /* the first one's next twin */
} eng_twin;

static inline int is_flow(const eng_act *a) { return a->what == K_FLOW || a->what == K_LATENCY; }

/* One object of the engine's arena (with its reverse route when the model has
 * crosstraffic: see fill_route), never freed before the engine. */
typedef struct route_entry {
  net_path path;
  eng_act *lead;     /* the last flow started on it if it was started in step lead_step and
                        has not ended (finish clears it; see "Twins") */
  uint64_t lead_step;
  eng_act *carrier;  /* the last flow with a variable of its own past its latency on it, if
                        it has not ended (see "Riders") */
  int nback;         /* -1: the reverse route not looked up yet */
  int links[];       /* constraint indices of the route (path.nlinks), then of the reverse
                        route (nback) */
} route_entry;

typedef struct route_cell {
  uint64_t key;   /* src * nhosts + dst + 1; 0 = empty slot */
  route_entry *r; /* allocated apart: the table stays small (16 bytes a slot) */
} route_cell;

typedef struct egroup {
  evq heap;        /* the level's actions, by completion virtual time */
  size_t hpos;     /* its place in the heap of levels (by due) + 1; 0: none (no due) */
  int has_due;     /* the level has a first completion (a flow and a positive level) */
  double due;      /* its real date */
  uint64_t due_tie; /* and its tie (that flow's): it is ordered as in the main heap */
  double phi;      /* virtual time: integral of the level up to phi_t (brought up to date
                      when the level changes or an action enters or leaves: grp_rebase) */
  double phi_t;    /* date at which phi was last brought up to date */
  double level;    /* level used since phi_t (0: none) */
  uint64_t touched; /* == engine steps: an action entered or left it in this reschedule */
  uint64_t sched;   /* == engine steps: its due was computed in this reschedule */
} egroup;

struct eng {
  platform *plat;
  const config *cfg;
  const net_model *model;
  lmm_system *sys;
  lmm_cnst **links; /* one constraint per platform link */
  lmm_cnst **cpus;  /* one per host */
  double *speed;    /* per host, current pstate */
  int *cores;
  int *nexec;       /* per host: running executions */
  eng_act **solo;   /* per host: the running execution without a solver variable, or NULL */
  int nhosts;
  double now;
  uint64_t seq;
  uint64_t tie_xor; /* tir/lifo-ties: ~0, reversing the order of equal dates (tie ~seq); else 0 */
  int sg_ties;      /* tir/simgrid-marking: equal dates in the order of their last heap update */
  int sg_defer;     /* tir/simgrid-compat: actions due at one date end after all are popped */
  int twins;        /* tir/twin-flows, and none of the modes above (see "Twins") */
  int riders;       /* tir/riders, and none of the modes above (see "Riders") */
  int ride;         /* riders, and the solver in class mode (as of the last reschedule) */
  double back_coeff; /* the network model's reverse-route coefficient (the same for every
                        flow: a setting of the model), as of the last flow started */
  uint64_t n_riders; /* flows that rode a carrier */
  double ev_date;   /* the date of the event being handled (its twins end then) */
  uint64_t n_twins; /* flows started as twins */
  eng_act **ended;  /* sg_defer: the actions popped at this date, to end in SimGrid's order */
  size_t nended, ended_cap;
  eng_act **new_sleeps; /* sg_ties: sleeps started since the last solve, queued by it */
  size_t n_new_sleeps, new_sleeps_cap;
  evq heap;        /* running actions by completion date (but the groups') */
  evq_store runs;  /* the runs of heap and of the groups' heaps */
  egroup *grp;     /* one per level index of the solver (lmm_level_count) */
  int ngrp;        /* their number */
  int *lh;         /* the levels that have a due, a binary heap by (due, due_tie) */
  size_t nlh, lh_cap;
  uint64_t steps;  /* reschedules so far (stamps egroup touched and sched) */
  int *touched;    /* levels an action entered or left in this reschedule */
  size_t ntouched, touched_cap;
  int pending;
  pool act_pool;   /* the actions */
  pool twin_pool;  /* the twins (see "Twins") */
  route_cell *routes; /* open-addressing cache of routes by host pair */
  size_t nroutes, routes_cap;
  arena route_mem;    /* the routes' entries */
  plat_route scratch;
  plat_route back;    /* a reverse route, looked up with its route (fill_route) */
  net_path memo_path; /* the last flow's path and payload (memo_payload < 0: none), and */
  double memo_payload; /* the model's answer, a pure function of both: reused while they */
  net_flow memo_flow;  /* repeat (a cluster's routes share their aggregates) */
  eng_host_fn host_fn;
  void *host_ctx;
};

/* ====== heaps (evq.h: by date, then seq; reversed with tir/lifo-ties) ====== */

static void heap_remove(evq *q, eng_act *a) { evq_remove(q, &a->pos); }

/* sg_ties: SimGrid keeps one heap per model and handles the CPU model's due actions
 * (executions, sleeps) before the network model's: network ties carry this bit. */
#define SG_NET_TIE ((uint64_t)1 << 62)

/* Puts a in q at date. Ties: creation order; with sg_ties, the order of the last update,
 * as SimGrid's stable action heap (every update takes a new stability count). */
__attribute__((always_inline)) static inline void heap_update(eng *e, evq *q, eng_act *a, double date) {
  if (e->sg_ties)
    a->seq = e->seq++ | (is_flow(a) ? SG_NET_TIE : 0);
  else if (evq_queued(&a->pos) && a->date == date)
    return; /* same key (date, tie): same place */
  a->date = date;
  if (evq_queued(&a->pos))
    evq_remove(q, &a->pos);
  evq_push(q, &a->pos, date, a->seq ^ e->tie_xor, a);
}

/* ====== construction ====== */

static void routes_rehash(eng *e);

/* One level (virtual clock) per level index the solver has given so far. */
static void groups_sync(eng *e) {
  int n = lmm_level_count(e->sys);
  if (n <= e->ngrp)
    return;
  e->grp = x_realloc(e->grp, (size_t)n * sizeof *e->grp);
  for (int k = e->ngrp; k < n; k++) {
    e->grp[k] = (egroup){.phi_t = e->now};
    evq_init(&e->grp[k].heap, &e->runs);
  }
  e->ngrp = n;
}

eng *eng_new(platform *p, const config *c, const net_model *model, const int *pstates) {
  eng *e = x_calloc(1, sizeof *e);
  e->plat = p;
  e->cfg = c;
  e->model = model;
  e->sys = lmm_new(c->maxmin_precision);
  /* SimGrid marks only a variable's first constraint when it is enabled, which misses part
   * of the system when two variables sharing a constraint are enabled at the same date in
   * one order (and not in the other): tir marks them all, and gets the max-min solution. */
  lmm_set_exact_incremental(e->sys, !c->simgrid_marking);
  /* Local re-solves (forced, or automatic once large components keep being re-solved). */
  if (c->local_solve && !c->simgrid_marking)
    lmm_set_local(e->sys, c->local_solve);
  if (!c->bundles)
    lmm_set_bundle_min(e->sys, 0);
  lmm_set_class_restarts(e->sys, c->class_restarts);
  lmm_set_tolerance(e->sys, c->rate_tol);
  /* SimGrid's heap orders equal dates by their last update, and it updates the re-solved
   * actions in its solve's order: with both, which of two flows ending (or leaving their
   * latency) at one date goes first is SimGrid's, and so is the marking that follows. */
  lmm_set_simgrid_order(e->sys, c->simgrid_marking);
  e->sg_ties = c->simgrid_marking;
  e->tie_xor = c->lifo_ties ? ~(uint64_t)0 : 0;
  e->sg_defer = c->simgrid_compat;
  e->twins = c->twin_flows && !e->sg_ties && !e->tie_xor && !e->sg_defer;
  e->riders = c->riders && !e->sg_ties && !e->tie_xor && !e->sg_defer;
  e->memo_payload = -1;
  net_flow probe; /* the model's reverse-route coefficient (one for every flow) */
  model->flow(c, 1.0, &(net_path){.min_bw = -1}, &probe);
  e->back_coeff = probe.back_coeff;
  arena_init(&e->route_mem);
  routes_rehash(e); /* the first table: get_route never meets an empty one */
  pool_init(&e->act_pool, sizeof(eng_act));
  pool_init(&e->twin_pool, sizeof(eng_twin));
  evq_store_init(&e->runs);
  evq_init(&e->heap, &e->runs);
  groups_sync(e);
  int nl = plat_link_count(p);
  e->links = x_calloc((size_t)nl, sizeof *e->links);
  plat_set_model_loopback(p, c->loopback_bw, c->loopback_lat);
  for (int i = 0; i < nl; i++) {
    const plat_link *l = plat_link_at(p, i);
    e->links[i] = lmm_cnst_new(e->sys, l->bandwidth, l->policy == PLAT_FATPIPE);
  }
  e->nhosts = plat_host_count(p);
  e->cpus = x_calloc((size_t)e->nhosts, sizeof *e->cpus);
  e->speed = x_calloc((size_t)e->nhosts, sizeof *e->speed);
  e->cores = x_calloc((size_t)e->nhosts, sizeof *e->cores);
  e->nexec = x_calloc((size_t)e->nhosts, sizeof *e->nexec);
  e->solo = x_calloc((size_t)e->nhosts, sizeof *e->solo);
  for (int h = 0; h < e->nhosts; h++) {
    const plat_host *ph = plat_host_at(p, h);
    int ps = pstates ? pstates[h] : ph->pstate;
    e->speed[h] = ph->speeds[ps];
    e->cores[h] = ph->cores;
    e->cpus[h] = lmm_cnst_new(e->sys, ph->cores * e->speed[h], 0);
  }
  return e;
}

void eng_free(eng *e) {
  if (!e)
    return;
  if (getenv("LMM_STATS")) {
    fprintf(stderr, "eng: %llu twin flows (tir/twin-flows)\n", (unsigned long long)e->n_twins);
    fprintf(stderr, "eng: %llu riders (tir/riders)\n", (unsigned long long)e->n_riders);
  }
  pool_destroy(&e->act_pool); /* every action and twin, running or recycled */
  pool_destroy(&e->twin_pool);
  free(e->new_sleeps);
  free(e->ended);
  for (int k = 0; k < e->ngrp; k++)
    evq_free(&e->grp[k].heap);
  free(e->grp);
  free(e->lh);
  free(e->touched);
  arena_destroy(&e->route_mem);
  free(e->routes);
  plat_route_free(&e->scratch);
  plat_route_free(&e->back);
  evq_free(&e->heap);
  evq_store_free(&e->runs);
  lmm_free(e->sys);
  free(e->links);
  free(e->cpus);
  free(e->speed);
  free(e->cores);
  free(e->nexec);
  free(e->solo);
  free(e);
}

double eng_now(const eng *e) { return e->now; }
const double *eng_clock(const eng *e) { return &e->now; }
int eng_pending(const eng *e) { return e->pending; }

uint64_t eng_twin_count(const eng *e) { return e->n_twins; }
uint64_t eng_rider_count(const eng *e) { return e->n_riders; }

double eng_host_speed(const eng *e, int host) { return e->speed[host]; }
int eng_host_cores(const eng *e, int host) { return e->cores[host]; }
double eng_host_usage(const eng *e, int host) {
  return lmm_cnst_usage(e->cpus[host]) + (e->solo[host] ? e->solo[host]->rate : 0.0);
}

void eng_set_host_observer(eng *e, eng_host_fn fn, void *ctx) {
  e->host_fn = fn;
  e->host_ctx = ctx;
}

/* A new action; what as in eng_act; its creation number seq. */
static inline eng_act *act_make(eng *e, int what, eng_done_fn done, void *ctx, uint64_t seq) {
  eng_act *a = pool_take(&e->act_pool);
  *a = (eng_act){.what = what, .grp = -1, .factor = 1.0, .last_update = e->now, .seq = seq, .done = done, .ctx = ctx};
  return a;
}

/* A new pending action, numbered next. */
static inline eng_act *act_new(eng *e, int what, eng_done_fn done, void *ctx) {
  e->pending++;
  return act_make(e, what, done, ctx, e->seq++);
}

/* A new pending twin, numbered next as an action would be. */
static eng_twin *twin_new(eng *e, eng_done_fn done, void *ctx) {
  eng_twin *t = pool_take(&e->twin_pool);
  *t = (eng_twin){.done = done, .ctx = ctx, .seq = e->seq++};
  e->pending++;
  return t;
}

/* ====== routes (cached per host pair) ====== */

/* An entry of the arena for the route whose links and latency are in e->scratch, with
 * room for nback more links. */
static route_entry *route_new(eng *e, size_t nback) {
  size_t n = e->scratch.n;
  route_entry *r = arena_alloc(&e->route_mem, sizeof *r + (n + nback) * sizeof *r->links);
  r->path.latency = e->scratch.latency;
  r->path.nlinks = (int)n;
  r->path.min_bw = -1;
  r->path.lat_ws = e->scratch.latency;
  for (size_t i = 0; i < n; i++) {
    const plat_link *l = plat_link_at(e->plat, e->scratch.links[i]);
    r->links[i] = e->scratch.links[i];
    if (r->path.min_bw < 0 || l->bandwidth < r->path.min_bw)
      r->path.min_bw = l->bandwidth;
    r->path.lat_ws += e->cfg->weight_s / l->bandwidth;
  }
  r->lead = NULL;
  r->carrier = NULL;
  r->nback = -1;
  return r;
}

/* The entry of the route in e->scratch (src -> dst) with its reverse route after it (none
 * if the platform has none): one object, sized once. */
static route_entry *route_with_back(eng *e, int src, int dst) {
  if (plat_get_route(e->plat, dst, src, &e->back, NULL, 0) < 0)
    e->back.n = 0;
  route_entry *r = route_new(e, e->back.n);
  memcpy(r->links + r->path.nlinks, e->back.links, e->back.n * sizeof *r->links);
  r->nback = (int)e->back.n;
  return r;
}

/* The route src -> dst, NULL with err when there is none; with its reverse route when the
 * model loads it (crosstraffic: e->back_coeff > 0, known from eng_new on). */
static route_entry *fill_route(eng *e, int src, int dst, char *err, size_t errlen) {
  char why[512];
  if (plat_get_route(e->plat, src, dst, &e->scratch, why, sizeof why) < 0) {
    x_err(err, errlen, "%s: %s", plat_source(e->plat), why);
    return NULL;
  }
  return e->back_coeff > 0 ? route_with_back(e, src, dst) : route_new(e, 0);
}

/* Cell's route (src -> dst, found before) again, with its reverse route, for a flow of a
 * model whose crosstraffic eng_new did not see: a new entry, without lead or carrier; the
 * old one stays valid for the flows that hold it (the arena frees nothing). */
static route_entry *fill_back(eng *e, int src, int dst, route_cell *cell) {
  plat_get_route(e->plat, src, dst, &e->scratch, NULL, 0);
  return cell->r = route_with_back(e, src, dst);
}

/* Home slot of a route key: the high half of a product depends on every bit of the key
 * (its low bits only on the key's low bits, which cluster for one source). */
static size_t route_slot(uint64_t key, size_t cap) {
  return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

/* The table doubles when 3/4 full: linear probing then looks at 2.5 cells on average to
 * find a route when it is fullest (1.5 at 1/2), within the 64-byte line of the first most
 * of the time, and the table takes 21-43 bytes a route instead of 32-64 (the 2.4 M host
 * pairs of 1,536 ranks with one a host: 64 MiB instead of 128). */
static void routes_rehash(eng *e) {
  size_t ncap = e->routes_cap ? 2 * e->routes_cap : 1024;
  route_cell *old = e->routes, *nr = x_calloc(ncap, sizeof *nr);
  for (size_t i = 0; i < e->routes_cap; i++)
    if (old[i].key) {
      size_t j = route_slot(old[i].key, ncap);
      while (nr[j].key)
        j = (j + 1) & (ncap - 1);
      nr[j] = old[i];
    }
  free(old);
  e->routes = nr;
  e->routes_cap = ncap;
}

/* Computes and inserts the (absent) route of key: its cell; NULL with err when there is
 * none. */
__attribute__((noinline)) /* the cold path, out of get_route */
static route_cell *new_route(eng *e, uint64_t key, int src, int dst, char *err, size_t errlen) {
  if (4 * (e->nroutes + 1) > 3 * e->routes_cap) /* (at most 3/4 full: see routes_rehash) */
    routes_rehash(e);
  size_t j = route_slot(key, e->routes_cap);
  while (e->routes[j].key)
    j = (j + 1) & (e->routes_cap - 1);
  route_entry *r = fill_route(e, src, dst, err, errlen);
  if (!r)
    return NULL;
  e->routes[j] = (route_cell){key, r};
  e->nroutes++;
  return &e->routes[j];
}

/* The cell of the route src -> dst (valid until the next route is added). */
static route_cell *get_route(eng *e, int src, int dst, char *err, size_t errlen) {
  uint64_t key = (uint64_t)src * (uint64_t)e->nhosts + (uint64_t)dst + 1;
  for (size_t j = route_slot(key, e->routes_cap);; j = (j + 1) & (e->routes_cap - 1)) {
    if (e->routes[j].key == key)
      return &e->routes[j];
    if (!e->routes[j].key)
      break;
  }
  return new_route(e, key, src, dst, err, errlen);
}

/* Flow a ends: r, its route, no longer names it as its lead or carrier. */
static void route_forget(route_entry *r, const eng_act *a) {
  if (r->lead == a)
    r->lead = NULL;
  if (r->carrier == a)
    r->carrier = NULL;
}

/* ====== starting actions ====== */

static int same_bits(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

/* The model's parameters of a flow of payload on path, remembered for the last ones
 * (compared bit for bit: the same inputs, so the same answer). */
static const net_flow *flow_params(eng *e, const net_path *p, double payload) {
  const net_path *m = &e->memo_path;
  if (!same_bits(payload, e->memo_payload) || !same_bits(p->latency, m->latency) ||
      !same_bits(p->min_bw, m->min_bw) || !same_bits(p->lat_ws, m->lat_ws) || p->nlinks != m->nlinks) {
    e->model->flow(e->cfg, payload, p, &e->memo_flow);
    e->memo_path = *p;
    e->memo_payload = payload;
  }
  return &e->memo_flow;
}

/* v's coefficients grow by w on r's links and by w x back on its reverse route's (back 0:
 * none; w < 0 lowers them, class mode only: see "Riders"). */
__attribute__((always_inline)) /* (one call per flow started: the stencils) */
static inline void route_expand(eng *e, const route_entry *r, lmm_var *v, double w, double back) {
  for (int i = 0; i < r->path.nlinks; i++)
    lmm_expand(e->sys, e->links[r->links[i]], v, w);
  for (int i = 0; back > 0 && i < r->nback; i++)
    lmm_expand(e->sys, e->links[r->links[r->path.nlinks + i]], v, w * back);
}

/* Twins. Flows started in one step (no solve between) on one route with one payload are
 * alike: the model gives them one latency, bound, penalty and factor, and max-min one rate
 * (a change of the system changes them all alike) until they end, together. The first one's
 * variable then carries the others, its twins: each link's coefficient counts them all
 * (so every other flow's share is the one separate variables give, to rounding), and a twin
 * has no variable, element, event or action of its own (an eng_twin: what its end needs).
 * When the first one ends, each twin becomes an action queued at that date under its own
 * creation number, so that they end in the order separate flows would (equal dates:
 * creation order). k ranks a host exchanging with another host's
 * k ranks (an alltoall, a halo) start k^2 such flows at once: one variable. Off with
 * tir/twin-flows:no, and in the modes where a tie's order is not creation order
 * (tir/simgrid-marking, tir/simgrid-compat, tir/lifo-ties). */
static int twin_start(eng *e, route_entry *r, const net_flow *f, double payload, eng_done_fn done, void *ctx) {
  eng_act *l = r->lead;
  if (!e->twins || !l || r->lead_step != e->steps || !l->var || !same_bits(l->remains, payload))
    return 0;
  route_expand(e, r, l->var, 1.0, f->back_coeff);
  eng_twin *t = twin_new(e, done, ctx);
  t->next = l->twin;
  l->twin = t;
  e->n_twins++;
  return 1;
}

/* Flow a, which carried twins, ends (see "Twins"): they end at its date (that of the event,
 * which may lie within surf/precision after the step's), each in its creation-order place. */
static void twins_due(eng *e, eng_act *a) {
  for (eng_twin *t = a->twin, *next; t; t = next) {
    next = t->next;
    heap_update(e, &e->heap, act_make(e, K_FLOW, t->done, t->ctx, t->seq), e->ev_date);
    pool_put(&e->twin_pool, t);
  }
  a->twin = NULL;
}

/* Riders. Flows on one route whose model parameters (penalty, factor, bound) are one get one
 * rate from max-min whenever they started: the solver's values depend on a variable's
 * constraints, coefficients, penalty and bound only. In class mode (the dense phases: an
 * alltoall's flows, the ranks drifting apart so that twins start few) a flow ending its
 * latency on a route whose carrier (the last flow there past its latency with a variable of
 * its own) is alike frees its variable and rides the carrier's: each link's coefficient
 * grows by its share (itself and its twins), as twins' do, and it keeps its own bytes and
 * rate (the engine updates every rider of a variable the solver reports; at a level, the
 * carrier and its riders form a chain, see "Chains"). When it ends its share goes
 * (lmm_expand lowers the coefficients: for the solver a free, which keeps its restarts);
 * when the carrier ends first, the variable goes to its first rider. The shares are those
 * of separate variables, to rounding. Off with tir/riders:no and in the modes where twins
 * are off. */

/* a's share (itself and its twins) of the coefficients of v on its route, times sign. */
static void rider_share(eng *e, const eng_act *a, lmm_var *v, double sign) {
  double share = 1.0;
  for (const eng_twin *t = a->twin; t; t = t->next)
    share += 1.0;
  route_expand(e, a->route, v, sign * share, e->back_coeff);
}

/* Flow a ends its latency: it rides its route's carrier if that one is alike (1), else it
 * becomes the route's carrier (0: its variable is enabled by the caller). */
static int rider_join(eng *e, eng_act *a) {
  if (!e->ride)
    return 0; /* (class mode may have come since the last solve: riders from the next) */
  route_entry *r = a->route;
  eng_act *c = r->carrier;
  if (!c || !c->var || c->penalty != a->penalty || c->factor != a->factor ||
      lmm_var_owner(c->var) != c || lmm_var_bound(c->var) != lmm_var_bound(a->var) ||
      r->path.nlinks == 0) { /* (no link: the solver would report no change of the variable) */
    r->carrier = a;
    return 0;
  }
  lmm_var_free(e->sys, a->var);
  a->var = c->var;
  rider_share(e, a, a->var, 1.0);
  a->rnext = c->rnext;
  c->rnext = a;
  a->rate = 0.0; /* (its rate comes with the carrier's variable: reported as changed) */
  e->n_riders++;
  return 1;
}

/* Flow a, a rider or a carrier with riders, ends: its share leaves the variable, which goes
 * to the first rider when a carried it. */
static void rider_leave(eng *e, eng_act *a) {
  lmm_var *v = a->var;
  eng_act *c = lmm_var_owner(v);
  rider_share(e, a, v, -1.0);
  if (c != a) {
    eng_act **p = &c->rnext;
    while (*p != a)
      p = &(*p)->rnext;
    *p = a->rnext;
  } else {
    eng_act *n = a->rnext;
    lmm_var_set_owner(v, n);
    if (a->route->carrier == a)
      a->route->carrier = n;
  }
  a->var = NULL;
  a->rnext = NULL;
}

int eng_flow_start(eng *e, int src, int dst, double payload, eng_done_fn done, void *ctx, char *err,
                   size_t errlen) {
  route_cell *cell = get_route(e, src, dst, err, errlen);
  if (!cell)
    return -1;
  route_entry *r = cell->r;
  const net_flow *f = flow_params(e, &r->path, payload);
  e->back_coeff = f->back_coeff;
  if (f->shared && twin_start(e, r, f, payload, done, ctx))
    return 0;
  eng_act *a = act_new(e, K_FLOW, done, ctx);
  a->remains = payload;
  a->factor = f->factor;
  if (!f->shared) { /* contention-free: latency, then the bound's rate */
    a->rate = f->bound > 0 ? f->bound * f->factor : INFINITY;
    heap_update(e, &e->heap, a, e->now + f->latency + (isinf(a->rate) ? 0 : payload / a->rate));
    a->remains = 0;
    return 0;
  }
  int lat = f->latency > 0;
  a->var = lmm_var_new(e->sys, a, lat ? 0.0 : f->penalty, f->bound);
  a->penalty = f->penalty;
  if (f->back_coeff > 0 && r->nback < 0)
    r = fill_back(e, src, dst, cell);
  route_expand(e, r, a->var, 1.0, f->back_coeff);
  a->route = r;
  if (lat) {
    a->what = K_LATENCY;
    heap_update(e, &e->heap, a, e->now + f->latency);
  } else {
    r->carrier = a;
  }
  r->lead = a;
  r->lead_step = e->steps;
  return 0;
}

eng_act *eng_exec_start(eng *e, int host, double flops, eng_done_fn done, void *ctx) {
  return eng_exec_start_bounded(e, host, flops, e->speed[host], done, ctx);
}

static void update_remains(eng *e, eng_act *a);

/* a's solver variable on its host's CPU constraint (penalty 1, its bound). */
static void exec_var(eng *e, eng_act *a) {
  a->var = lmm_var_new(e->sys, a, 1.0, a->penalty);
  lmm_expand(e->sys, e->cpus[a->what], a->var, 1.0);
}

eng_act *eng_exec_start_bounded(eng *e, int host, double flops, double bound, eng_done_fn done, void *ctx) {
  if (e->host_fn)
    e->host_fn(e->host_ctx, host, e->now);
  eng_act *a = act_new(e, host, done, ctx);
  a->remains = flops;
  a->penalty = bound;
  double cap = e->cores[host] * e->speed[host];
  if (e->nexec[host]++ == 0 && !e->sg_ties && cap > 0) {
    /* Alone on its host: the solver would give it min(bound, cores x speed), bit for bit
     * (bound fixes it when below the capacity, the capacity / 1 otherwise), and nothing
     * else shares the host's constraint: no variable, its completion date at once. */
    a->rate = bound > 0 ? fmin(bound, cap) : cap;
    heap_update(e, &e->heap, a, e->now + (flops > 0 ? flops / a->rate : 0));
    e->solo[host] = a;
    return a;
  }
  eng_act *s = e->solo[host];
  if (s) { /* it gets a variable: the next solve shares the host between them */
    update_remains(e, s);
    exec_var(e, s);
    e->solo[host] = NULL;
  }
  exec_var(e, a);
  return a;
}

eng_act *eng_sleep_start(eng *e, double seconds, eng_done_fn done, void *ctx) {
  eng_act *a = act_new(e, K_SLEEP, done, ctx);
  double date = e->now + (seconds > 0 ? seconds : 0);
  if (!e->sg_ties) {
    heap_update(e, &e->heap, a, date);
    return a;
  }
  /* SimGrid puts a new sleep at the front of its CPU model's modified set: the next
   * solve queues the sleeps started since the last one, last started first, before the
   * actions it re-solved */
  a->date = date;
  if (e->n_new_sleeps == e->new_sleeps_cap)
    x_grow(&e->new_sleeps, &e->new_sleeps_cap, e->n_new_sleeps + 1, sizeof *e->new_sleeps);
  e->new_sleeps[e->n_new_sleeps++] = a;
  return a;
}

void eng_sg_cpu_touch(eng *e, int host) { lmm_cnst_touch(e->sys, e->cpus[host]); }

/* ====== advancing time ====== */

/* Brings a's remaining work up to date at its old rate (SimGrid's update_remains_lazy). */
static void update_remains(eng *e, eng_act *a) {
  double delta = e->now - a->last_update;
  if (a->remains > 0 && delta > 0) {
    a->remains -= a->rate * delta;
    if (a->remains < e->cfg->maxmin_precision * e->cfg->surf_precision)
      a->remains = 0;
  }
  a->last_update = e->now;
}

/* ====== the group: actions whose rate is a level of the solver's group x factor / penalty
 * (see the file comment: one virtual clock, heap and due date per level) ====== */

/* Brings level g's phi up to now at the level used since phi_t (0 when empty: rebased). */
static void grp_rebase(eng *e, egroup *g) {
  g->phi = g->heap.n ? g->phi + g->level * (e->now - g->phi_t) : 0.0;
  g->phi_t = e->now;
}

/* An action enters or leaves level k: its due is recomputed at the end of the reschedule. */
static inline void group_touch(eng *e, int k) {
  egroup *g = &e->grp[k];
  if (g->touched == e->steps)
    return;
  g->touched = e->steps;
  if (e->ntouched == e->touched_cap)
    x_grow(&e->touched, &e->touched_cap, e->ntouched + 1, sizeof *e->touched);
  e->touched[e->ntouched++] = k;
}

/* a's key at level g (rebased): the virtual time at which it completes. */
static inline double group_key(const egroup *g, const eng_act *a, const lmm_var *v) {
  return g->phi + a->remains * lmm_var_penalty(v) / a->factor;
}

/* a's remaining work read off the clock of its level g (rebased): back to an explicit
 * rate from now on. */
static void group_remains(eng *e, const egroup *g, eng_act *a) {
  /* the penalty group_enter read: only a variable listed with a positive one leaves */
  a->remains = (a->date - g->phi) * a->factor / lmm_var_penalty(a->var);
  if (a->remains < e->cfg->maxmin_precision * e->cfg->surf_precision)
    a->remains = 0;
  a->last_update = e->now;
}

static void group_enter(eng *e, eng_act *a, const lmm_var *v, int k) {
  egroup *g = &e->grp[k];
  group_touch(e, k);
  grp_rebase(e, g);
  update_remains(e, a);
  heap_remove(&e->heap, a);
  a->grp = k;
  heap_update(e, &g->heap, a, group_key(g, a, v));
}

/* Back to an explicit rate: the remaining work is read off the virtual clock. */
static void group_leave(eng *e, eng_act *a) {
  egroup *g = &e->grp[a->grp];
  group_touch(e, a->grp);
  grp_rebase(e, g);
  heap_remove(&g->heap, a);
  a->grp = -1;
  group_remains(e, g, a);
}

/* Chains. A carrier and its riders share one variable, so one level and one rate: while
 * they sit at a level, their order of completion is that of their remaining work and never
 * changes. So only the first of them (by (date, tie), as the level's queue orders them) is
 * in the level's queue; the riders stand in that order in the carrier's list (riders that
 * joined since the last reschedule, not yet at the level, stand first), and each keeps its
 * key in date. When the variable moves to another level (a class split or merge), each
 * member's remaining work and key are computed as group_leave and group_enter would, but
 * one queue entry moves, not one per member: on issue 15's IS-like alltoallv with 4 ranks a
 * host (about 5 flows a variable) the level queues' updates were about 40 % of the time.
 * When the first one completes, the next one (the carrier, or the first rider at the level)
 * takes its place in the queue. The order of completions is the queues' own, so the dates
 * are the same, bit for bit. */

/* Flow a carries riders or rides a carrier. */
static inline int chained(const eng_act *a) { return a->rnext || lmm_var_owner(a->var) != a; }

static inline int act_before(const eng_act *a, const eng_act *b) { /* (no lifo ties with riders) */
  return a->date < b->date || (a->date == b->date && a->seq < b->seq);
}

/* The riders of c in (date, tie) order: insertion from the front (all but the newest are
 * in order already). */
static void chain_sort(eng_act *c) {
  eng_act *sorted = NULL, *r = c->rnext;
  while (r) {
    eng_act *next = r->rnext, **p = &sorted;
    while (*p && act_before(*p, r))
      p = &(*p)->rnext;
    r->rnext = *p;
    *p = r;
    r = next;
  }
  c->rnext = sorted;
}

/* The members of c's chain at a level other than k leave it: their remaining work read
 * off its clock, as group_leave does, all before the queued one leaves the queue (a level
 * whose queue empties restarts its clock at 0). */
static void chain_leave(eng *e, eng_act *c, int k) {
  for (eng_act *r = c; r; r = r->rnext)
    if (r->grp >= 0 && r->grp != k) {
      group_touch(e, r->grp);
      grp_rebase(e, &e->grp[r->grp]);
      group_remains(e, &e->grp[r->grp], r);
    }
  for (eng_act *r = c; r; r = r->rnext)
    if (r->grp >= 0 && r->grp != k) {
      heap_remove(&e->grp[r->grp].heap, r);
      r->grp = -1;
    }
}

/* Carrier c, with riders, whose variable v is at level k: every member goes there, and the
 * first of them is the one queued. */
static void chain_enter(eng *e, eng_act *c, const lmm_var *v, int k) {
  eng_act *queued = NULL;
  int moved = 0;
  for (eng_act *r = c; r; r = r->rnext) {
    moved |= r->grp != k;
    if (r->grp == k && evq_queued(&r->pos))
      queued = r;
  }
  if (!moved)
    return;
  chain_leave(e, c, k);
  egroup *g = &e->grp[k];
  group_touch(e, k);
  grp_rebase(e, g); /* (once: again at this date it would give the same phi) */
  for (eng_act *r = c; r; r = r->rnext)
    if (r->grp != k) {
      update_remains(e, r);
      heap_remove(&e->heap, r);
      r->grp = k;
      r->date = group_key(g, r, v);
    }
  chain_sort(c);
  eng_act *top = c->rnext && act_before(c->rnext, c) ? c->rnext : c;
  if (queued && queued != top)
    heap_remove(&g->heap, queued);
  heap_update(e, &g->heap, top, top->date);
}

/* Member a of a chain at level k, first in its queue, completes: the next one at the level
 * (the carrier, or the first rider there) is queued in its place. */
static void chain_next(eng *e, eng_act *a, int k) {
  eng_act *c = lmm_var_owner(a->var), *s = c != a && c->grp == k ? c : NULL;
  for (eng_act *r = c->rnext; r; r = r->rnext)
    if (r != a && r->grp == k) {
      if (!s || act_before(r, s))
        s = r;
      break;
    }
  if (s)
    heap_update(e, &e->grp[k].heap, s, s->date);
}

/* ====== the heap of levels by due (few levels in exact and local modes, many in class
 * mode: an indexed binary heap, each level knows its place) ====== */

static int due_before(const eng *e, int a, int b) {
  const egroup *x = &e->grp[a], *y = &e->grp[b];
  return x->due < y->due || (x->due == y->due && x->due_tie < y->due_tie);
}

static void lh_set(eng *e, size_t i, int k) {
  e->lh[i] = k;
  e->grp[k].hpos = i + 1;
}

static void lh_sift(eng *e, size_t i) {
  int k = e->lh[i];
  while (i > 0 && due_before(e, k, e->lh[(i - 1) / 2])) {
    lh_set(e, i, e->lh[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= e->nlh)
      break;
    if (c + 1 < e->nlh && due_before(e, e->lh[c + 1], e->lh[c]))
      c++;
    if (!due_before(e, e->lh[c], k))
      break;
    lh_set(e, i, e->lh[c]);
    i = c;
  }
  lh_set(e, i, k);
}

/* Level k's due changed: it enters the heap or moves in it. */
static void lh_update(eng *e, int k) {
  egroup *g = &e->grp[k];
  if (!g->hpos) {
    if (e->nlh == e->lh_cap)
      x_grow(&e->lh, &e->lh_cap, e->nlh + 1, sizeof *e->lh);
    g->hpos = ++e->nlh;
    e->lh[e->nlh - 1] = k;
  }
  lh_sift(e, g->hpos - 1);
}

static void lh_remove(eng *e, int k) {
  egroup *g = &e->grp[k];
  size_t i = g->hpos - 1;
  g->hpos = 0;
  int last = e->lh[--e->nlh];
  if (i < e->nlh) {
    lh_set(e, i, last);
    lh_sift(e, i);
  }
}

/* Level k's due: the real date of its first completion, with that action's tie; its place
 * in the heap of levels follows. */
static void group_schedule(eng *e, int k) {
  egroup *g = &e->grp[k];
  g->sched = e->steps;
  double phi_top; /* (the first action's date and tie as the queue keeps them: its run's) */
  uint64_t tie;
  g->has_due = evq_top_key(&g->heap, &phi_top, &tie) && g->level > 0;
  if (!g->has_due) {
    if (g->hpos)
      lh_remove(e, k);
    return;
  }
  double dt = (phi_top - g->phi) / g->level;
  double due = g->phi_t + (dt > 0 ? dt : 0);
  if (g->hpos && due == g->due && tie == g->due_tie)
    return;
  g->due = due;
  g->due_tie = tie;
  lh_update(e, k);
}

/* A recomputed variable: into, out of or across the group's levels, or a new rate. */
static void update_action(eng *e, eng_act *a, const lmm_var *v) {
  int k = lmm_var_level(v);
  if (k >= 0 && a->grp == k)
    return; /* followed through the level */
  if (a->grp >= 0)
    group_leave(e, a);
  if (k >= 0) {
    group_enter(e, a, v, k);
    return;
  }
  update_remains(e, a);
  a->rate = lmm_var_value(v) * a->factor;
  if (a->rate > 0)
    heap_update(e, &e->heap, a, e->now + (a->remains > 0 ? a->remains / a->rate : 0));
  else
    heap_remove(&e->heap, a);
}

static void reschedule(eng *e) {
  e->steps++;
  lmm_solve(e->sys);
  e->ride = e->riders && lmm_class_on(e->sys);
  groups_sync(e);
  while (e->n_new_sleeps > 0) {
    eng_act *a = e->new_sleeps[--e->n_new_sleeps];
    heap_update(e, &e->heap, a, a->date);
  }
  for (lmm_var *v; (v = lmm_next_modified(e->sys));) {
    eng_act *a = lmm_var_owner(v);
    if (a->what == K_LATENCY || lmm_var_penalty(v) <= 0)
      continue;
    if (a->rnext) { /* a chain (see "Chains") */
      int k = lmm_var_level(v);
      if (k >= 0) {
        chain_enter(e, a, v, k);
        continue;
      }
      chain_leave(e, a, -1);
    }
    for (eng_act *r = a; r; r = r->rnext) /* (and its riders) */
      update_action(e, r, v);
  }
  for (int k; (k = lmm_next_level(e->sys)) >= 0;) { /* the levels that may have changed */
    grp_rebase(e, &e->grp[k]);
    e->grp[k].level = lmm_level(e->sys, k);
    group_schedule(e, k);
  }
  for (size_t i = 0; i < e->ntouched; i++) /* and those whose first action may have changed */
    if (e->grp[e->touched[i]].sched != e->steps)
      group_schedule(e, e->touched[i]);
  e->ntouched = 0;
}

static void finish(eng *e, eng_act *a) {
  if (a->what >= 0) { /* an execution */
    if (e->host_fn)
      e->host_fn(e->host_ctx, a->what, e->now);
    e->nexec[a->what]--;
    if (e->solo[a->what] == a)
      e->solo[a->what] = NULL;
  }
  if (a->grp >= 0)
    heap_remove(&e->grp[a->grp].heap, a);
  if (e->n_riders && a->var && chained(a))
    rider_leave(e, a); /* (none before the first rider) */
  if (a->var)
    lmm_var_free(e->sys, a->var);
  a->var = NULL; /* (no twin joins it from here on: twin_start) */
  if (a->route) /* (its route forgets it: the pool recycles it) */
    route_forget(a->route, a);
  if (a->twin)
    twins_due(e, a);
  e->pending--;
  if (a->done)
    a->done(a->ctx, a);
  pool_put(&e->act_pool, a);
}

/* tir/simgrid-compat: SimGrid pops every action due at the date first (a latency phase
 * ending enables its variable then), and only then ends the finished ones, the CPU
 * model's before the network model's, each freeing its variable and waking its waiters
 * in turn (EngineImpl::handle_ended_actions). */
static void end_deferred(eng *e) {
  for (int net = 0; net < 2; net++)
    for (size_t i = 0; i < e->nended; i++)
      if (is_flow(e->ended[i]) == net)
        finish(e, e->ended[i]);
  e->nended = 0;
}

/* Level k's first action is due: it completes, the level's due moves on to the next one. */
static void group_pop(eng *e, int k) {
  double phi;
  eng_act *a = evq_top(&e->grp[k].heap, &phi);
  heap_remove(&e->grp[k].heap, a);
  a->grp = -1;
  a->remains = 0;
  if (a->var && chained(a))
    chain_next(e, a, k);
  group_schedule(e, k);
  finish(e, a);
}

/* The next event, by (date, tie): the main heap's top or a level's due. Returns 1 with
 * *a that action, or with *level >= 0 that level; 0 when there is none. */
static int next_event(const eng *e, eng_act **a, int *level, double *date) {
  *a = evq_top(&e->heap, date);
  *level = e->nlh ? e->lh[0] : -1;
  if (*level < 0)
    return *a != NULL;
  const egroup *g = &e->grp[*level];
  if (*a && (*date < g->due || (*date == g->due && ((*a)->seq ^ e->tie_xor) < g->due_tie)))
    *level = -1;
  else
    *date = g->due;
  return 1;
}

int eng_step(eng *e) {
  reschedule(e);
  double next;
  eng_act *a;
  int k, any = 0;
  while (next_event(e, &a, &k, &next)) {
    if (!any) { /* the first event: time advances to it */
      any = 1;
      if (next > e->now)
        e->now = next;
    }
    if (!(fabs(next - e->now) < e->cfg->surf_precision))
      break;
    e->ev_date = next;
    if (k >= 0) {
      group_pop(e, k);
      continue;
    }
    heap_remove(&e->heap, a);
    if (a->what == K_LATENCY) {
      a->what = K_FLOW;
      a->last_update = e->now;
      if (!rider_join(e, a))
        lmm_var_set_penalty(e->sys, a->var, a->penalty);
    } else if (e->sg_defer) {
      x_grow(&e->ended, &e->ended_cap, e->nended + 1, sizeof *e->ended);
      e->ended[e->nended++] = a;
    } else {
      finish(e, a);
    }
  }
  if (e->sg_defer)
    end_deferred(e);
  return any;
}
