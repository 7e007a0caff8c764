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
 * Cost: O(log n) per heap update; per step, the solver's cost for the touched
 * component plus O(k log n) for its k recomputed variables. */
#include "engine.h"

#include "lmm.h"
#include "xalloc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { K_FLOW, K_EXEC, K_SLEEP };
enum { S_LATENCY, S_RUNNING };

struct eng_act {
  uint8_t kind;       /* K_FLOW, K_EXEC, K_SLEEP */
  uint8_t state;      /* S_LATENCY while a flow pays its latency, else S_RUNNING */
  int32_t host;       /* K_EXEC: the host */
  double remains;     /* bytes or flops still to do */
  double factor;      /* effective rate = factor x variable value */
  double rate;        /* rate used since last_update */
  double last_update; /* date at which remains was last brought up to date */
  double penalty;     /* flows: penalty to set when the latency phase ends */
  double date;        /* heap key: completion (or latency end) date */
  uint64_t seq;       /* heap tie-breaker: creation order */
  size_t heap_idx;    /* position in the heap, SIZE_MAX when not in it */
  lmm_var *var;       /* NULL for sleeps and contention-free flows */
  eng_done_fn done;
  void *ctx;
};

typedef struct route_entry {
  uint64_t key; /* src * nhosts + dst + 1; 0 = empty slot */
  net_path path;
  int *links, *back; /* constraint indices of the route and of the reverse route */
  int nback;
} route_entry;

struct eng {
  platform *plat;
  const config *cfg;
  const net_model *model;
  lmm_system *sys;
  lmm_cnst **links; /* one constraint per platform link */
  lmm_cnst **cpus;  /* one per host */
  double *speed;    /* per host, current pstate */
  int *cores;
  int nhosts;
  double now;
  uint64_t seq;
  int lifo;        /* tir/lifo-ties: reverse the order of equal dates */
  eng_act **heap;
  size_t nheap, heap_cap;
  int pending;
  route_entry *routes; /* open-addressing cache of routes by host pair */
  size_t nroutes, routes_cap;
  plat_route scratch;
  eng_host_fn host_fn;
  void *host_ctx;
};

/* ====== heap (binary, keyed by date then seq) ====== */

static int before(const eng *e, const eng_act *a, const eng_act *b) {
  return a->date < b->date || (a->date == b->date && (e->lifo ? a->seq > b->seq : a->seq < b->seq));
}

static void heap_set(eng *e, size_t i, eng_act *a) {
  e->heap[i] = a;
  a->heap_idx = i;
}

static void sift_up(eng *e, size_t i) {
  eng_act *a = e->heap[i];
  while (i > 0 && before(e, a, e->heap[(i - 1) / 2])) {
    heap_set(e, i, e->heap[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  heap_set(e, i, a);
}

static void sift_down(eng *e, size_t i) {
  eng_act *a = e->heap[i];
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= e->nheap)
      break;
    if (c + 1 < e->nheap && before(e, e->heap[c + 1], e->heap[c]))
      c++;
    if (!before(e, e->heap[c], a))
      break;
    heap_set(e, i, e->heap[c]);
    i = c;
  }
  heap_set(e, i, a);
}

static void heap_remove(eng *e, eng_act *a) {
  size_t i = a->heap_idx;
  if (i == SIZE_MAX)
    return;
  a->heap_idx = SIZE_MAX;
  eng_act *last = e->heap[--e->nheap];
  if (i == e->nheap)
    return;
  heap_set(e, i, last);
  sift_up(e, i);
  sift_down(e, last->heap_idx);
}

static void heap_update(eng *e, eng_act *a, double date) {
  if (a->heap_idx != SIZE_MAX) {
    a->date = date;
    sift_up(e, a->heap_idx);
    sift_down(e, a->heap_idx);
    return;
  }
  a->date = date;
  x_grow(&e->heap, &e->heap_cap, e->nheap + 1, sizeof *e->heap);
  heap_set(e, e->nheap++, a);
  sift_up(e, a->heap_idx);
}

/* ====== construction ====== */

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
  e->lifo = c->lifo_ties;
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
  for (size_t i = 0; i < e->nheap; i++)
    free(e->heap[i]);
  for (size_t i = 0; i < e->routes_cap; i++)
    if (e->routes[i].key) {
      free(e->routes[i].links);
      free(e->routes[i].back);
    }
  free(e->routes);
  plat_route_free(&e->scratch);
  free(e->heap);
  lmm_free(e->sys);
  free(e->links);
  free(e->cpus);
  free(e->speed);
  free(e->cores);
  free(e);
}

double eng_now(const eng *e) { return e->now; }
int eng_pending(const eng *e) { return e->pending; }
double eng_host_speed(const eng *e, int host) { return e->speed[host]; }
int eng_host_cores(const eng *e, int host) { return e->cores[host]; }
double eng_host_usage(const eng *e, int host) { return lmm_cnst_usage(e->cpus[host]); }

void eng_set_host_observer(eng *e, eng_host_fn fn, void *ctx) {
  e->host_fn = fn;
  e->host_ctx = ctx;
}

static eng_act *act_new(eng *e, int kind, eng_done_fn done, void *ctx) {
  eng_act *a = x_calloc(1, sizeof *a);
  a->kind = (uint8_t)kind;
  a->state = S_RUNNING;
  a->host = -1;
  a->factor = 1.0;
  a->last_update = e->now;
  a->seq = e->seq++;
  a->heap_idx = SIZE_MAX;
  a->done = done;
  a->ctx = ctx;
  e->pending++;
  return a;
}

/* ====== routes (cached per host pair) ====== */

static int fill_route(eng *e, int src, int dst, route_entry *r, char *err, size_t errlen) {
  char why[512];
  if (plat_get_route(e->plat, src, dst, &e->scratch, why, sizeof why) < 0)
    return x_err(err, errlen, "%s: %s", plat_source(e->plat), why);
  r->path.latency = e->scratch.latency;
  r->path.nlinks = (int)e->scratch.n;
  r->path.min_bw = -1;
  r->path.sum_inv_bw = 0;
  r->links = x_malloc((e->scratch.n + 1) * sizeof *r->links);
  for (size_t i = 0; i < e->scratch.n; i++) {
    const plat_link *l = plat_link_at(e->plat, e->scratch.links[i]);
    r->links[i] = e->scratch.links[i];
    if (r->path.min_bw < 0 || l->bandwidth < r->path.min_bw)
      r->path.min_bw = l->bandwidth;
    r->path.sum_inv_bw += 1.0 / l->bandwidth;
  }
  r->back = NULL;
  r->nback = 0;
  if (plat_get_route(e->plat, dst, src, &e->scratch, NULL, 0) == 0) {
    r->back = x_malloc((e->scratch.n + 1) * sizeof *r->back);
    memcpy(r->back, e->scratch.links, e->scratch.n * sizeof *r->back);
    r->nback = (int)e->scratch.n;
  }
  return 0;
}

static void routes_rehash(eng *e) {
  size_t ncap = e->routes_cap ? 2 * e->routes_cap : 1024;
  route_entry *old = e->routes, *nr = x_calloc(ncap, sizeof *nr);
  for (size_t i = 0; i < e->routes_cap; i++)
    if (old[i].key) {
      size_t j = (size_t)(old[i].key * 0x9E3779B97F4A7C15ull) & (ncap - 1);
      while (nr[j].key)
        j = (j + 1) & (ncap - 1);
      nr[j] = old[i];
    }
  free(old);
  e->routes = nr;
  e->routes_cap = ncap;
}

static route_entry *get_route(eng *e, int src, int dst, char *err, size_t errlen) {
  if (2 * (e->nroutes + 1) > e->routes_cap)
    routes_rehash(e);
  uint64_t key = (uint64_t)src * (uint64_t)e->nhosts + (uint64_t)dst + 1;
  size_t j = (size_t)(key * 0x9E3779B97F4A7C15ull) & (e->routes_cap - 1);
  while (e->routes[j].key && e->routes[j].key != key)
    j = (j + 1) & (e->routes_cap - 1);
  route_entry *r = &e->routes[j];
  if (r->key)
    return r;
  if (fill_route(e, src, dst, r, err, errlen) < 0)
    return NULL;
  r->key = key;
  e->nroutes++;
  return r;
}

/* ====== starting actions ====== */

eng_act *eng_flow_start(eng *e, int src, int dst, double payload, eng_done_fn done, void *ctx,
                        char *err, size_t errlen) {
  route_entry *r = get_route(e, src, dst, err, errlen);
  if (!r)
    return NULL;
  net_flow f;
  e->model->flow(e->cfg, payload, &r->path, &f);
  eng_act *a = act_new(e, K_FLOW, done, ctx);
  a->remains = payload;
  a->factor = f.factor;
  if (!f.shared) { /* contention-free: latency, then the bound's rate */
    a->rate = f.bound > 0 ? f.bound * f.factor : INFINITY;
    heap_update(e, a, e->now + f.latency + (isinf(a->rate) ? 0 : payload / a->rate));
    a->remains = 0;
    return a;
  }
  int lat = f.latency > 0;
  a->var = lmm_var_new(e->sys, a, lat ? 0.0 : f.penalty, f.bound);
  a->penalty = f.penalty;
  for (int i = 0; i < r->path.nlinks; i++)
    lmm_expand(e->sys, e->links[r->links[i]], a->var, 1.0);
  if (f.back_coeff > 0)
    for (int i = 0; i < r->nback; i++)
      lmm_expand(e->sys, e->links[r->back[i]], a->var, f.back_coeff);
  if (lat) {
    a->state = S_LATENCY;
    heap_update(e, a, e->now + f.latency);
  }
  return a;
}

eng_act *eng_exec_start(eng *e, int host, double flops, eng_done_fn done, void *ctx) {
  return eng_exec_start_bounded(e, host, flops, e->speed[host], done, ctx);
}

eng_act *eng_exec_start_bounded(eng *e, int host, double flops, double bound, eng_done_fn done, void *ctx) {
  if (e->host_fn)
    e->host_fn(e->host_ctx, host, e->now);
  eng_act *a = act_new(e, K_EXEC, done, ctx);
  a->host = host;
  a->remains = flops;
  a->var = lmm_var_new(e->sys, a, 1.0, bound);
  lmm_expand(e->sys, e->cpus[host], a->var, 1.0);
  return a;
}

eng_act *eng_sleep_start(eng *e, double seconds, eng_done_fn done, void *ctx) {
  eng_act *a = act_new(e, K_SLEEP, done, ctx);
  heap_update(e, a, e->now + (seconds > 0 ? seconds : 0));
  return a;
}

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

static long st_solves, st_mod, st_steps;
static void reschedule(eng *e) {
  lmm_solve(e->sys);
  st_solves++;
  for (lmm_var *v; (v = lmm_next_modified(e->sys));) {
    st_mod++;
    eng_act *a = lmm_var_owner(v);
    if (a->state != S_RUNNING || lmm_var_penalty(v) <= 0)
      continue;
    update_remains(e, a);
    a->rate = lmm_var_value(v) * a->factor;
    if (a->rate > 0)
      heap_update(e, a, e->now + (a->remains > 0 ? a->remains / a->rate : 0));
    else
      heap_remove(e, a);
  }
}

static void finish(eng *e, eng_act *a) {
  if (a->kind == K_EXEC && e->host_fn)
    e->host_fn(e->host_ctx, a->host, e->now);
  if (a->var)
    lmm_var_free(e->sys, a->var);
  e->pending--;
  if (a->done)
    a->done(a->ctx, a);
  free(a);
}

int eng_step(eng *e) {
  st_steps++;
  if (getenv("TIRSTATS") && st_steps % 1000 == 0) { extern long lmm_st_iters, lmm_st_lights, lmm_st_nl; fprintf(stderr, "steps %ld solves %ld mod %ld iters %ld lights %ld init %ld\n", st_steps, st_solves, st_mod, lmm_st_iters, lmm_st_lights, lmm_st_nl);}
  reschedule(e);
  if (e->nheap == 0)
    return 0;
  double next = e->heap[0]->date;
  if (next > e->now)
    e->now = next;
  while (e->nheap > 0 && fabs(e->heap[0]->date - e->now) < e->cfg->surf_precision) {
    eng_act *a = e->heap[0];
    heap_remove(e, a);
    if (a->state == S_LATENCY) {
      a->state = S_RUNNING;
      a->last_update = e->now;
      lmm_var_set_penalty(e->sys, a->var, a->penalty);
    } else {
      finish(e, a);
    }
  }
  return 1;
}
