/* lmm_bundle.c - local mode's bundles: the variables a busy link fixes, solved as one proxy.
 *
 * Bundles (local mode; lmm_set_bundle_min). Behind a cabinet switch that is the bottleneck
 * of hundreds of flows, every flow start or end moves all their rates, so V holds them all
 * and each run walks every constraint they use. A SHARED constraint that fixes bun_min (32)
 * variables or more, or carries 2 bun_min enabled elements, becomes a class constraint
 * (for good); the variables a class constraint fixes are then grouped by their set of
 * class constraints with a > 0 (the key): the members of one bundle are all at one level m
 * (x_i = m / p_i), and are represented by a proxy variable of penalty 1, no bound and no
 * owner, whose element on each key constraint weighs sum_i a_ic / p_i; the members'
 * elements on those constraints leave the enabled lists (hidden), their other elements
 * stay. The solve treats the proxy as any variable (its value is m), so a change on a class
 * constraint re-solves a few proxies instead of hundreds of flows; a member's value is read
 * as proxy value / p_i (vval), and the caller follows members through the level, as the
 * group's. The key constraints are sound for the bundle: each member is at the level the
 * proxy gets from them. The members' other constraints (their own links, limiters) are not
 * in the solve of the proxy; the bundle keeps a promise kappa instead, a level up to which
 * every such constraint stays BUN_MARGIN below full with every bundle at its promise and
 * every other variable at its value (so none of them is, or can become, a bottleneck of a
 * member while the promises hold: none is full). Checked: a variable joins only when at the
 * bundle's level (within 1e-9) and its constraints afford BUN_GROW (1.25) x the level,
 * lowering the promise to what they afford (a lower promise holds for everyone); after each
 * run, a proxy solved above its promise gets a new one (up to BUN_KAPPA = 4 x the level,
 * as high as the members' constraints afford), the members on a constraint that does not
 * afford BUN_GROW x the level leaving; a constraint of C holding members, whose other
 * variables V changed, must still afford every promise, or its members leave. A member
 * leaving (freed, changed, failing a check, reached by a widening, or its key changing
 * when one of its constraints becomes a class) keeps its value (it is at the proxy's
 * bottleneck's top level) and is listed; the proxy's weights are recomputed from the
 * members every 2n + 16 joins and leaves (rounding drift) and exactly 0 when it is empty
 * (it goes after the solve; its level index is reused from the next solve on). A FATPIPE
 * constraint that may saturate fixes every variable on it, covered or not, so a variable
 * on one (not inert) never joins, and members leave when one of theirs stops being inert.
 * No exact group forms while bundles exist. Simulated times are unchanged to every printed
 * digit on every bench case (doc/performance.md, item 29, has the figures). */
#include "lmm_impl.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUN_KAPPA 4.0    /* a bundle promises its members' other constraints 4x its level */
#define BUN_MARGIN 1e-9  /* those stay this far below full with every promise kept */
#define BUN_LEVEL 1e-9   /* a variable joins a bundle within this of its level */
#define BUN_GROW 1.25    /* the lowest promise, relative to the level, worth bundling for */

/* FATPIPE c may now saturate (it fixes every variable on it then): bundle members on it
 * leave their bundles, and join V when a solve is running (in_solve). */
void lmm_bun_evict(lmm_system *s, lmm_cnst *c, int in_solve) {
  if (c->n_mem == 0)
    return;
  for (lmm_elem *e = c->en_head; e; e = e->en_next)
    if (e->var->proxy) {
      if (in_solve)
        lmm_bun_out(s, e->var);
      else
        lmm_bun_leave(s, e->var);
    }
}

/* The value of x if bundle b were at level kap and every other bundle at its promise. */
static double cap_value(const lmm_var *x, const lmm_bundle *b, double kap) {
  if (!x->proxy)
    return x->value;
  const lmm_bundle *q = x->proxy->bun;
  return (q == b ? kap : q->kappa) / x->penalty;
}

/* The load of SHARED c with every bundle at its promise (b at kap), v counted at vx. */
static double bun_load(const lmm_cnst *c, const lmm_bundle *b, double kap, const lmm_var *v, double vx) {
  double load = 0.0;
  for (const lmm_elem *e = c->en_head; e; e = e->en_next)
    if (e->weight > 0)
      load += e->weight * (e->var == v ? vx : cap_value(e->var, b, kap));
  return load;
}

/* A member's element that its bundle's proxy carries: a > 0 on a class constraint (a
 * member with a = 0 there is not held back by it: it is not part of the bundle's key). */
static int bun_keyed(const lmm_elem *e) { return e->weight > 0 && e->cnst->klass; }

/* A member's element on another constraint, which must afford the bundle's promise. */
static int bun_private(const lmm_elem *e) { return !e->hidden && e->weight > 0 && !e->cnst->klass; }

/* The highest level of bundle b that SHARED d affords (staying BUN_MARGIN below full) with
 * every other bundle at its promise and the other variables at their values; v (joining
 * b, or NULL) counted with b. */
static double bun_room(const lmm_cnst *d, const lmm_bundle *b, const lmm_var *v) {
  double rest = 0.0, g = 0.0;
  for (const lmm_elem *e = d->en_head; e; e = e->en_next) {
    const lmm_var *x = e->var;
    if (e->weight <= 0)
      continue;
    if (x == v || (x->proxy && x->proxy->bun == b))
      g += e->weight / x->penalty;
    else
      rest += e->weight * cap_value(x, NULL, 0.0);
  }
  return g > 0 ? (d->bound * (1 - BUN_MARGIN) - rest) / g : INFINITY;
}

/* The highest level of bundle b (NULL: a new one) that v's other constraints afford with v
 * in it. */
static double bun_afford(const lmm_var *v, const lmm_bundle *b) {
  double kap = INFINITY;
  for (const lmm_elem *e = v->elems; e; e = e->var_next)
    if (bun_private(e) && !e->cnst->fatpipe && e->cnst->n_fix > 0)
      return 0.0; /* full (it is some variable's bottleneck): no room */
  for (const lmm_elem *e = v->elems; e; e = e->var_next)
    if (bun_private(e) && !e->cnst->fatpipe)
      kap = dmin(kap, bun_room(e->cnst, b, v));
  return kap;
}

static void bun_list(lmm_system *s, lmm_var *v) {
  if (v->fast_slot != SLOT_NONE && v->fast_slot < s->n_fast && s->fast[v->fast_slot] == v)
    return;
  GROW(s->fast, s->fast_cap, s->n_fast + 1);
  v->fast_slot = s->n_fast;
  s->fast[s->n_fast++] = v;
}

/* The proxy's weights recomputed from its members (they drift by one rounding per join
 * or leave). */
static void bun_reweigh(lmm_bundle *b) {
  for (lmm_elem *pe = b->proxy->elems; pe; pe = pe->var_next)
    pe->weight = 0.0;
  for (size_t i = 0; i < b->n; i++)
    for (const lmm_elem *e = b->mem[i]->elems; e; e = e->var_next)
      if (e->hidden)
        find_elem(b->proxy, e->cnst)->weight += e->weight / b->mem[i]->penalty;
  b->churn = 0;
}

/* Member v leaves its bundle: the same value, now its own (listed, so that the caller
 * stops following it through the level); its class elements are enabled again. No value
 * changes: v stays at the top level of the proxy's bottleneck. */
void lmm_bun_leave(lmm_system *s, lmm_var *v) {
  lmm_var *p = v->proxy;
  lmm_bundle *b = p->bun;
  v->value = p->value / v->penalty;
  for (lmm_elem *e = v->elems; e; e = e->var_next) {
    if (e->hidden) {
      e->hidden = 0;
      lmm_elem *pe = find_elem(p, e->cnst);
      pe->weight = dmax(pe->weight - e->weight / v->penalty, 0.0);
      enabled_push_front(e->cnst, e);
    } else if (e->weight > 0) {
      e->cnst->n_mem--;
    }
  }
  b->mem[v->bslot] = b->mem[--b->n];
  b->mem[v->bslot]->bslot = v->bslot;
  v->proxy = NULL;
  set_fix(v, p->fix_cnst);
  v->relist = 1;
  bun_list(s, v);
  s->n_bleave++;
  if (++b->churn > 2 * b->n + 16 || b->n == 0)
    bun_reweigh(b); /* an empty bundle's proxy weighs exactly 0 until it goes */
}

static void bun_join(lmm_system *s, lmm_var *v, lmm_bundle *b) {
  for (lmm_elem *e = v->elems; e; e = e->var_next) {
    if (bun_keyed(e)) {
      find_elem(b->proxy, e->cnst)->weight += e->weight / v->penalty;
      make_inactive(e);
      enabled_remove(e->cnst, e);
      e->hidden = 1;
    } else if (e->weight > 0) {
      e->cnst->n_mem++;
    }
  }
  GROW(b->mem, b->cap, b->n + 1);
  v->bslot = b->n;
  b->mem[b->n++] = v;
  v->proxy = b->proxy;
  set_fix(v, NULL);
  if (v->bound > 0)
    b->min_bp = dmin(b->min_bp, v->bound * v->penalty);
  bun_list(s, v);
  s->n_bjoin++;
  if (++b->churn > 2 * b->n + 16)
    bun_reweigh(b);
}

/* A new bundle for the class constraints of v, at v's level, promising kap. */
static lmm_bundle *bun_new(lmm_system *s, const lmm_var *v, double kap) {
  lmm_bundle *b = x_calloc(1, sizeof *b);
  b->proxy = lmm_var_new(s, NULL, 1.0, -1.0);
  b->proxy->bun = b;
  b->proxy->value = v->penalty * v->value;
  b->proxy->fix_level = v->fix_level;
  for (const lmm_elem *e = v->elems; e; e = e->var_next)
    if (bun_keyed(e))
      lmm_new_elem(s, e->cnst, b->proxy, 0.0);
  set_fix(b->proxy, v->fix_cnst);
  b->kappa = kap;
  b->min_bp = INFINITY;
  if (s->n_free_ids > 0) {
    b->id = s->free_ids[--s->n_free_ids];
  } else {
    GROW(s->buns, s->buns_cap, s->n_buns + 1);
    b->id = (int)s->n_buns++;
  }
  s->buns[b->id] = b;
  s->n_bnew++;
  return b;
}

/* An empty bundle goes (after a solve: its proxy may be in V during one); its id is
 * reused from the next solve on (the caller's level of that id has emptied by then). */
void lmm_bun_free(lmm_system *s, lmm_bundle *b) {
  lmm_var *p = b->proxy;
  lmm_elem *next;
  for (lmm_elem *e = p->elems; e; e = next) {
    next = e->var_next;
    make_inactive(e);
    enabled_remove(e->cnst, e);
    pool_put(&s->elem_pool, e);
  }
  set_fix(p, NULL);
  lmm_var_unlink(s, p);
  pool_put(&s->var_pool, p);
  s->buns[b->id] = NULL;
  GROW(s->pend_ids, s->pend_ids_cap, s->n_pend_ids + 1);
  s->pend_ids[s->n_pend_ids++] = b->id;
  free(b->mem);
  free(b);
}

/* The bundle whose class constraints are v's (one is c, on which its proxy is enabled),
 * or NULL. An empty bundle, which goes after this pass, is none: its proxy's value and
 * bottleneck are those of the members it had (check_lmm's local_bundle_empty_join: a
 * member whose penalty changed left its bundle alone, came back at the same level, by
 * symmetry, but with another bottleneck, and joined the proxy that still named the old
 * one, no longer full). */
static lmm_bundle *bun_find(const lmm_var *v, const lmm_cnst *c) {
  size_t nk = 0;
  for (const lmm_elem *e = v->elems; e; e = e->var_next)
    nk += bun_keyed(e);
  for (const lmm_elem *pe = c->en_head; pe; pe = pe->en_next) {
    const lmm_var *p = pe->var;
    if (!p->bun || p->bun->n == 0)
      continue;
    size_t np = 0, match = 1;
    for (const lmm_elem *x = p->elems; x; x = x->var_next)
      np++;
    for (const lmm_elem *e = v->elems; match && e; e = e->var_next)
      if (bun_keyed(e) && !find_elem(p, e->cnst))
        match = 0;
    if (match && np == nk)
      return p->bun;
  }
  return NULL;
}

/* v (enabled, solved, its bottleneck a class constraint) joins the bundle of its class
 * constraints when at its level, its other constraints afford the bundle's promise, and
 * it has no FATPIPE constraint that may lmm_fill (an uncovered element); creates the bundle
 * when there is none. */
static void bun_try(lmm_system *s, lmm_var *v) {
  const lmm_cnst *c = v->fix_cnst;
  if (!c || !c->klass || v->penalty <= 0 || v->proxy || v->bun || grp_has(s, v->grp_gen))
    return;
  for (const lmm_elem *e = v->elems; e; e = e->var_next)
    if (e->cnst->fatpipe && e->weight > 0 && !lmm_local_skip(e->cnst))
      return; /* a FATPIPE that may saturate fixes every variable on it, covered or not */
  double lev = v->penalty * v->value;
  if (!(lev > 0))
    return;
  lmm_bundle *b = bun_find(v, c);
  if (b && !(fabs(b->proxy->value - lev) <= BUN_LEVEL * lev))
    return;
  double kap = dmin(b ? b->kappa : BUN_KAPPA * lev, bun_afford(v, b));
  if (v->bound > 0)
    kap = dmin(kap, v->bound * v->penalty * (1 - BUN_MARGIN));
  if (!(kap >= BUN_GROW * lev))
    return; /* too close to another bottleneck: it stays on its own */
  if (!b)
    b = bun_new(s, v, kap);
  b->kappa = kap; /* a lower promise holds for the members already in */
  bun_join(s, v, b);
}

/* Candidates of lmm_bun_pass: v once. */
static void bun_cand(lmm_system *s, lmm_var *v, size_t *n) {
  GROW(s->btmp, s->btmp_cap, *n + 1);
  s->btmp[(*n)++] = v;
}

/* After a solve: the constraints of C that fix bun_min variables or more become class
 * constraints (all first: the variables of one are often fixed by another at the same
 * level); members with an element on one leave their bundles (their class sets changed).
 * Then they, the variables the new classes fix and those of V try to join bundles (by
 * class sets). Empty bundles go. */
void lmm_bun_pass(lmm_system *s) {
  size_t n = 0;
  for (size_t i = 0; i < s->n_lcnsts; i++) {
    lmm_cnst *c = s->lcnsts[i];
    if (!c->klass && !c->fatpipe && (c->n_fix >= s->bun_min || c->n_en >= 2 * s->bun_min))
      c->klass = 2; /* new */
  }
  for (size_t i = 0; i < s->n_lcnsts; i++) {
    lmm_cnst *c = s->lcnsts[i];
    if (c->klass != 2)
      continue;
    c->klass = 1;
    for (lmm_elem *e = c->en_head; e; e = e->en_next) {
      lmm_var *v = e->var;
      if (v->proxy)
        lmm_bun_leave(s, v);
      if (e->weight > 0 && !v->bun)
        bun_cand(s, v, &n);
    }
  }
  for (size_t i = 0; i < n; i++)
    bun_try(s, s->btmp[i]);
  for (size_t i = 0; i < s->n_lvars; i++)
    bun_try(s, s->lvars[i]);
  for (size_t i = 0; i < s->n_buns; i++)
    if (s->buns[i] && s->buns[i]->n == 0)
      lmm_bun_free(s, s->buns[i]);
}

/* Member v must be re-solved on its own: it leaves its bundle, and joins V with the proxy
 * (whose weights changed). */
void lmm_bun_out(lmm_system *s, lmm_var *v) {
  lmm_var *p = v->proxy;
  lmm_bun_leave(s, v);
  lmm_local_add_var(s, p);
  lmm_local_add_var(s, v);
}

/* The proxy of b was solved above its promise: a new one, up to BUN_KAPPA x its level, as
 * high as the members' other constraints afford; the members on a constraint that does
 * not afford BUN_GROW x the level are re-solved on their own (all of them when a bound
 * is in the way). Returns the number of members out. */
static size_t bun_promise(lmm_system *s, lmm_bundle *b) {
  double lev = b->proxy->value, kap = dmin(BUN_KAPPA * lev, b->min_bp * (1 - BUN_MARGIN));
  size_t out = 0;
  s->n_promise++;
  if (!(kap >= BUN_GROW * lev)) {
    while (b->n > 0)
      lmm_bun_out(s, b->mem[b->n - 1]), out++;
    b->min_bp = INFINITY;
    return out;
  }
  s->bchk++;
  for (size_t i = 0; i < b->n;) {
    lmm_var *v = b->mem[i];
    double room = INFINITY;
    for (lmm_elem *e = v->elems; e; e = e->var_next) {
      lmm_cnst *d = e->cnst;
      if (!bun_private(e) || d->fatpipe)
        continue;
      if (d->bchk != s->bchk) { /* once per constraint: members leaving only free room */
        d->bchk = s->bchk;
        d->bload = bun_room(d, b, NULL);
      }
      room = dmin(room, d->bload);
    }
    if (room >= BUN_GROW * lev) {
      kap = dmin(kap, room);
      i++;
      continue;
    }
    lmm_bun_out(s, v), out++; /* swaps the last member into slot i */
  }
  b->kappa = kap;
  return out;
}

/* After a run: proxies of V above their promise get a new one, and every constraint of C
 * on which members and variables of V meet (the latter's values changed) still affords
 * the promises, or its members are re-solved on their own. Returns the number of variables
 * that joined V. */
size_t lmm_bun_check(lmm_system *s) {
  size_t out = 0;
  for (size_t i = 0; i < s->n_lvars; i++) {
    lmm_var *p = s->lvars[i];
    if (p->bun && p->bun->n > 0 && p->value > p->bun->kappa)
      out += bun_promise(s, p->bun);
  }
  for (size_t i = 0; i < s->n_lcnsts; i++) {
    lmm_cnst *c = s->lcnsts[i];
    if (c->n_mem == 0 || c->fatpipe || c->klass ||
        bun_load(c, NULL, 0.0, NULL, 0.0) <= c->bound * (1 - BUN_MARGIN))
      continue;
    for (lmm_elem *e = c->en_head; e; e = e->en_next)
      if (e->var->proxy)
        lmm_bun_out(s, e->var), out++;
  }
  return out;
}
