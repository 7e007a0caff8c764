/* lmm.c - the linear max-min solver's core: SimGrid 3.32's weighted progressive filling with
 * selective update, and the dispatch to the optional modes.
 *
 * The maths are in lmm.h. This file reproduces the numerics of SimGrid 3.32's max-min
 * solver operation for operation, because a different order of floating-point
 * operations, or a different tie, moves simulated times: the same sequence of calls
 * gives bit-identical values and the same modified sets (checked during development
 * against libsimgrid 3.32's MaxMin driven by the same random call sequences).
 *
 * Objects. The system owns three pools (constraints, variables, elements). An element
 * links one variable to one constraint with a coefficient; it sits on three lists:
 *  - its variable's element list (creation order: the order of lmm_expand calls);
 *  - its constraint's enabled list (only while the variable has penalty > 0), kept
 *    most-recently-enabled first, as SimGrid's enabled_element_set;
 *  - its constraint's active list (enabled, coefficient > 0, not yet fixed by the
 *    running solve), pushed at the front.
 * A disabled variable (penalty 0) keeps its elements; they are only counted in the
 * constraint's n_disabled. List orders matter: they fix the order of the sums.
 *
 * Selective update. Every change marks constraints as SimGrid does, eagerly: marking
 * constraint c appends it to the modified list and walks depth-first through the
 * enabled variables of c to every constraint they use (a variable is walked at most
 * once per round, through its `visited` stamp). lmm_solve runs the filling over the
 * modified list only, in list order, then lists the enabled variables of those
 * constraints as modified, and opens a new round. SimGrid 3.32 has a blind spot: a
 * walk starts only from a constraint not yet marked in the round, and a change to a
 * variable starts from one constraint only (the first one for a penalty change,
 * enabling, disabling or freeing; the expanded one for lmm_expand). When that one is
 * already marked, the variable's other constraints may stay unmarked, and what hangs
 * on them is not re-solved in that round. The default mode reproduces this;
 * lmm_set_exact_incremental() also marks every constraint of the changed variable,
 * so that every solve equals a from-scratch solve (to rounding).
 *
 * Invariants: between two calls, the saturated-variable queue and the light table are
 * empty; an element is on its constraint's enabled list iff its variable's penalty is
 * > 0; a constraint is on the modified list iff in_mod, and only while it has
 * elements (freeing its last variable takes it off, as in SimGrid).
 *
 * Costs: marking is O(elements of the reached part) per round; a solve is
 * O(I * L + E) where I is the number of filling iterations, L the number of
 * constraints still in the light table and E the number of elements of the solved
 * part (SimGrid's bound; a heap of levels would give O(E log L) but would have to
 * reproduce SimGrid's order among equal levels). A FATPIPE constraint recomputes its
 * max only when the last variable at the current max gets fixed, so n identical flows
 * cost O(n); distinct penalties fixed from the largest cost O(n^2) per FATPIPE
 * constraint (a per-solve sort would make it O(n log n); not needed so far). The
 * modified output is put in creation order by a sort, O(k log k), or by a pass over
 * the live variables, O(n), whichever is cheaper. Memory comes from pools and
 * grow-only arrays: a solve allocates nothing once warm (doc/performance.md has the
 * figures).
 *
 * Modes (each explained at the top of its file, all behind lmm_impl.h): exact mode
 * (lmm_set_exact_incremental) adds the group (lmm_group.c: a component with one bottleneck
 * per level, followed without solves) and leaves out the constraints that cannot saturate
 * (lmm_slack.c: inert FATPIPE and slack SHARED ones); local mode (lmm_set_local 1,
 * lmm_local.c) re-solves only what a change can move, with bundles (lmm_bundle.c) for the
 * variables a busy link fixes; class mode (lmm_set_local 3, lmm_class.c) solves variables
 * sharing a level as one class; the automatic mode (lmm_set_local 2, here) starts exact and
 * switches for good to local or class mode when large solves keep recurring (to class mode
 * also between two solves, for a large dense batch: CLASS_EAGER_VARS). The caller
 * follows a variable whose rate changes without a solve (group, bundles, classes) through
 * lmm.h's levels. */
#include "lmm_impl.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* lmm_expand of an enabled variable, or in SimGrid's mode: kept out of line, so that the
 * common case (a flow's route expanded while its variable is disabled) stays small. */
static void expand_marking(lmm_system *s, lmm_cnst *c, lmm_var *v, double coeff, lmm_elem *e,
                           lmm_elem *last);

/* ======================================================================
 * The modified list
 * ====================================================================== */

static void mod_push_back(lmm_system *s, lmm_cnst *c) {
  c->mod_next = NULL;
  c->mod_prev = s->mod_tail;
  if (s->mod_tail)
    s->mod_tail->mod_next = c;
  else
    s->mod_head = c;
  s->mod_tail = c;
  c->in_mod = 1;
  s->n_mod++;
}

static void mod_remove(lmm_system *s, lmm_cnst *c) {
  if (!c->in_mod)
    return;
  if (c->mod_prev)
    c->mod_prev->mod_next = c->mod_next;
  else
    s->mod_head = c->mod_next;
  if (c->mod_next)
    c->mod_next->mod_prev = c->mod_prev;
  else
    s->mod_tail = c->mod_prev;
  c->mod_prev = c->mod_next = NULL;
  c->in_mod = 0;
  s->n_mod--;
}

/* ======================================================================
 * Marking (SimGrid's update_modified_cnst_set and its recursion)
 * ====================================================================== */

static inline void stack_push(lmm_system *s, size_t *top, lmm_cnst *c) {
  GROW(s->stack, s->stack_cap, *top + 1);
  lmm_elem *e = c->en_head;
  s->stack[(*top)++] = (mark_frame){c, e, e ? e->var->elems : NULL};
}

/* One step of the inner loop of frame f: returns a newly marked constraint to descend
 * into, or NULL when the current variable is done (exhausted or already visited: only a
 * descent can stamp it, so once per step is enough). f->cnst is marked (in_mod). */
static lmm_cnst *mark_step(lmm_system *s, mark_frame *f) {
  if (f->elem->var->visited == s->round)
    return NULL;
  while (f->inner) {
    lmm_elem *x = f->inner;
    f->inner = x->var_next;
    if (!x->cnst->in_mod && !cnst_out(s, x->cnst)) {
      mod_push_back(s, x->cnst);
      return x->cnst;
    }
  }
  return NULL;
}

/* Depth-first walk from c, with an explicit stack (chains of links can be long): for
 * each enabled element of c, each constraint of its variable not yet marked is marked
 * and walked before the next one; the variable is then stamped as visited. */
static void mark_walk(lmm_system *s, lmm_cnst *c) {
  size_t top = 0;
  stack_push(s, &top, c);
  while (top > 0) {
    mark_frame *f = &s->stack[top - 1];
    if (!f->elem) {
      top--;
      continue;
    }
    lmm_cnst *down = mark_step(s, f);
    if (down) {
      stack_push(s, &top, down);
      continue;
    }
    f->elem->var->visited = s->round;
    f->elem = f->elem->en_next;
    f->inner = f->elem ? f->elem->var->elems : NULL;
  }
}

static inline void mark_cnst(lmm_system *s, lmm_cnst *c) {
  if (s->local) {
    lmm_seed_add(s, c); /* no walk: the local solve starts from the seeds */
    return;
  }
  if (c->in_mod || cnst_out(s, c))
    return;
  mod_push_back(s, c);
  mark_walk(s, c);
}

/* SimGrid marks the first constraint only (see the file comment); exact mode marks
 * each one, which is a no-op for those already marked this round. */
static void mark_from_var(lmm_system *s, lmm_var *v) {
  if (!v->elems || v->penalty <= 0)
    return;
  if (s->local)
    lmm_dirty_add(s, v);
  mark_cnst(s, v->elems->cnst);
  if (s->exact)
    for (lmm_elem *e = v->elems->var_next; e; e = e->var_next)
      mark_cnst(s, e->cnst);
}

/* ======================================================================
 * System, constraints, variables
 * ====================================================================== */

lmm_system *lmm_new(double precision) {
  lmm_system *s = x_calloc(1, sizeof *s);
  s->precision = precision;
  s->round = 1;
  s->next_rank = 1;
  s->stats = getenv("LMM_STATS") != NULL;
  pool_init(&s->cnst_pool, sizeof(lmm_cnst));
  pool_init(&s->var_pool, sizeof(lmm_var));
  pool_init(&s->var_cls_pool, VAR_CLASS_SIZE);
  s->eager_next = CLASS_EAGER_VARS;
  pool_init(&s->elem_pool, sizeof(lmm_elem));
  pool_init(&s->elem_cls_pool, ELEM_CLASS_SIZE);
  return s;
}

void lmm_free(lmm_system *s) {
  if (!s)
    return;
  if (getenv("LMM_STATS")) {
    fprintf(stderr, "lmm: %s mode%s, %llu large solves without a group (%.1f constraints each); %llu exact-mode solves of %.1f constraints\n",
            s->local ? "local" : s->exact ? "exact" : "SimGrid", s->no_local ? " (local mode left)" : "", (unsigned long long)s->n_big,
            (double)s->big_mod / (double)(s->n_big + !s->n_big),
            (unsigned long long)s->n_exact, (double)s->sum_mod / (double)(s->n_exact + !s->n_exact));
    fprintf(stderr,
            "lmm: %llu local solves, %llu widenings (%llu above, %llu without bottleneck), %llu whole "
            "components, %llu runs; per solve V %.1f C %.1f listed %.1f\n",
            (unsigned long long)s->n_local, (unsigned long long)s->n_widen, (unsigned long long)s->n_above,
            (unsigned long long)s->n_uncert, (unsigned long long)s->n_full, (unsigned long long)s->n_solves, (double)s->sum_v / (double)(s->n_local + !s->n_local),
            (double)s->sum_c / (double)(s->n_local + !s->n_local), (double)s->sum_out / (double)(s->n_local + !s->n_local));
    fprintf(stderr, "lmm: bundles: %llu made, %zu live, %llu joins, %llu leaves, %llu new promises\n",
            (unsigned long long)s->n_bnew, bun_live(s), (unsigned long long)s->n_bjoin,
            (unsigned long long)s->n_bleave, (unsigned long long)s->n_promise);
    if (s->eager_at)
      fprintf(stderr, "lmm: class mode from %zu live variables on, before a solve\n", s->eager_at);
    lmm_cls_stats(s);
  }
  lmm_cls_destroy(s);
  for (size_t i = 0; i < s->n_buns; i++)
    if (s->buns[i]) {
      free(s->buns[i]->mem);
      free(s->buns[i]);
    }
  free(s->buns);
  free(s->free_ids);
  free(s->pend_ids);
  free(s->btmp);
  pool_destroy(&s->cnst_pool);
  free(s->cnsts);
  pool_destroy(&s->var_pool);
  pool_destroy(&s->var_cls_pool);
  pool_destroy(&s->elem_pool);
  pool_destroy(&s->elem_cls_pool);
  free(s->stack);
  free(s->lights);
  free(s->sat_cnsts);
  free(s->out);
  free(s->fast);
  free(s->walk);
  free(s->pins);
  free(s->chk);
  free(s->tmp);
  free(s->seeds);
  free(s->dirty);
  free(s->lvars);
  free(s->lcnsts);
  free(s->satc);
  free(s);
}

void lmm_set_exact_incremental(lmm_system *s, int exact) { s->exact = exact != 0; }

void lmm_set_simgrid_order(lmm_system *s, int on) { s->sg_order = on != 0; }

void lmm_cnst_touch(lmm_system *s, lmm_cnst *c) {
  s->modified = 1;
  mark_cnst(s, c);
}

int lmm_local_on(const lmm_system *s) { return s->local; }

int lmm_class_on(const lmm_system *s) { return s->cls_on; }

void lmm_set_class_restarts(lmm_system *s, int on) { s->no_restarts = !on; }

void lmm_set_defer_ratio(lmm_system *s, double ratio) { s->defer_ratio = ratio > 0 ? ratio : 0.0; }

uint64_t lmm_class_handovers(const lmm_system *s) { return s->c_handed; }

uint64_t lmm_class_moves(const lmm_system *s) { return s->c_moved; }

uint64_t lmm_class_restarts(const lmm_system *s, uint64_t *kept) {
  if (kept)
    *kept = s->c_kept;
  return s->c_restarts;
}

/* Class mode from now on: it keeps no enabled lists (lmm_cnst_usage walks its edges), so
 * the lists go; the elements it makes are small (ELEM_CLASS_SIZE). */
static void class_start(lmm_system *s) {
  lmm_cls_init(s);
  for (size_t i = 0; i < s->n_cnsts; i++)
    s->cnsts[i]->en_head = NULL;
}

void lmm_set_local(lmm_system *s, int mode) {
  if (mode == 3) {
    s->exact = 1;
    class_start(s);
    return;
  }
  s->local = mode == 1;
  s->auto_local = mode == 2;
  if (mode)
    s->exact = 1;
  s->verify = getenv("LMM_VERIFY") != NULL;
  s->bun_min = mode ? BUN_MIN : 0;
}

void lmm_set_bundle_min(lmm_system *s, unsigned n) { s->bun_min = n; }

void lmm_set_tolerance(lmm_system *s, double eps) { s->tol = eps > 0 ? eps : 0.0; }

lmm_cnst *lmm_cnst_new(lmm_system *s, double bound, int fatpipe) {
  lmm_cnst *c = pool_get(&s->cnst_pool);
  GROW(s->cnsts, s->cnsts_cap, s->n_cnsts + 1);
  s->cnsts[s->n_cnsts++] = c;
  c->bound = bound;
  c->fatpipe = fatpipe != 0;
  c->light = -1;
  s->has_fp |= c->fatpipe;
  return c;
}

double lmm_cnst_bound(const lmm_cnst *c) { return c->bound; }

static inline double usage_term(const lmm_cnst *c, double u, const lmm_elem *e) {
  if (e->weight <= 0)
    return u;
  double x = e->weight * lmm_var_value(e->var);
  return c->fatpipe ? dmax(u, x) : u + x;
}

/* Over the enabled list, or in class mode the edges' lists (every enabled element). */
double lmm_cnst_usage(const lmm_cnst *c) {
  double u = 0.0;
  for (const lmm_elem *e = c->en_head; e; e = e->en_next)
    u = usage_term(c, u, e);
  for (size_t i = 0; i < c->nehot; i++)
    for (const lmm_elem *e = c->ehot[i].e->head; e; e = e->ac_next)
      u = usage_term(c, u, e);
  return u;
}

static void auto_eager(lmm_system *s);

/* A zeroed variable: small (VAR_CLASS_SIZE) in class mode once the slots freed by the
 * variables made before it are all in use again (see lmm_var). */
static lmm_var *var_alloc(lmm_system *s) {
  int small = s->cls_on && !s->var_pool.free_list;
  lmm_var *v = pool_take(small ? &s->var_cls_pool : &s->var_pool);
  memset(v, 0, VAR_CLASS_SIZE);
  v->small = (uint8_t)small;
  if (!small) {
    memset(&v->sat_next, 0, sizeof *v - VAR_CLASS_SIZE);
    v->visited = s->round - 1;
  }
  return v;
}

lmm_var *lmm_var_new(lmm_system *s, void *owner, double penalty, double bound) {
  assert(penalty >= 0);
  if (s->n_vars >= SLOT_NONE - 1)
    x_oom(); /* an lmm_slot could not index them all */
  lmm_var *v = var_alloc(s);
  v->owner = owner;
  v->penalty = penalty;
  v->bound = bound;
  v->rank = s->next_rank++;
  v->listed = s->round - 1;
  v->out_slot = SLOT_NONE;
  v->fast_slot = SLOT_NONE;
  v->dirty_slot = SLOT_NONE;
  v->sys = s;
  v->all_prev = s->all_tail;
  if (s->all_tail)
    s->all_tail->all_next = v;
  else
    s->all_head = v;
  s->all_tail = v;
  s->n_vars++;
  if (s->auto_local && s->n_vars >= s->eager_next)
    auto_eager(s);
  return v;
}

/* The element of v on c, or NULL with *last v's last element (NULL: it has none), found
 * by the same walk: a variable keeps no tail pointer (one per flow). */
static inline lmm_elem *find_or_last(const lmm_var *v, const lmm_cnst *c, lmm_elem **last) {
  lmm_elem *p = NULL;
  for (lmm_elem *e = v->elems; e; p = e, e = e->var_next)
    if (e->cnst == c)
      return e;
  *last = p;
  return NULL;
}

/* A new element of v on c, appended after last (v's last element, NULL: none). Class mode
 * puts it on no enabled list, and makes it small (ELEM_CLASS_SIZE) once the slots freed by
 * the elements made before it are all in use again. */
static inline lmm_elem *new_elem(lmm_system *s, lmm_cnst *c, lmm_var *v, double coeff, lmm_elem *last) {
  lmm_elem *e;
  if (s->cls_on && !s->elem_pool.free_list) {
    e = pool_take(&s->elem_cls_pool);
    memset(e, 0, ELEM_CLASS_SIZE);
    e->small = 1;
  } else { /* (class mode reuses the slots of the elements made before it) */
    e = pool_take(&s->elem_pool);
    memset(e, 0, sizeof *e);
  }
  e->cnst = c;
  e->var = v;
  e->weight = coeff;
  v->has_fp |= c->fatpipe;
  if (last)
    last->var_next = e;
  else
    v->elems = e;
  if (v->penalty == 0.0)
    c->n_disabled++;
  else if (s->cls_on)
    e->enabled = 1, c->n_en++;
  else
    enabled_push_front(c, e);
  return e;
}

/* Class mode: a coefficient of v (enabled) changes in place; a new element makes v leave its
 * class (if enabled) and join a new one. */
__attribute__((noinline)) static void expand_class(lmm_system *s, lmm_cnst *c, lmm_var *v, double coeff, lmm_elem *e,
                                                   lmm_elem *last) {
  if (e && coeff < 0 && c->fatpipe)
    return; /* (the max of the coefficients: unchanged) */
  if (e && v->cls) {
    double w = c->fatpipe ? dmax(e->weight, coeff) : e->weight + coeff;
    if (!(w == e->weight))
      lmm_cls_reweight(s, v, e, w);
    return;
  }
  if (v->cls)
    lmm_cls_leave(s, v);
  if (!e)
    new_elem(s, c, v, coeff, last);
  else
    e->weight = c->fatpipe ? dmax(e->weight, coeff) : e->weight + coeff;
  if (v->penalty > 0)
    lmm_cls_join(s, v);
}

/* Class mode, v in a class (a carrier whose rider comes or goes: the engine expands the
 * route's links in the order they were made): v's element on c, or NULL and its last one in
 * *last; the one after the last one found on v is tried first (one test each). */
static inline lmm_elem *expand_find(lmm_system *s, const lmm_var *v, const lmm_cnst *c, lmm_elem **last) {
  lmm_elem *h = s->x_hint && s->x_hint->var == v ? s->x_hint->var_next : v->elems;
  lmm_elem *e = h && h->cnst == c ? h : find_or_last(v, c, last);
  if (e)
    s->x_hint = e;
  return e;
}

void lmm_expand(lmm_system *s, lmm_cnst *c, lmm_var *v, double coeff) {
  lmm_elem *last = NULL, *e;
  if (s->cls_on) {
    e = v->cls ? expand_find(s, v, c, &last) : find_or_last(v, c, &last);
    expand_class(s, c, v, coeff, e, last);
    return;
  }
  e = find_or_last(v, c, &last);
  if (s->exact && v->penalty <= 0) {
    /* A disabled variable takes no capacity: no value can change, nothing to mark
     * (enabling it later marks every constraint it uses). */
    if (!e)
      new_elem(s, c, v, coeff, last);
    else
      e->weight = c->fatpipe ? dmax(e->weight, coeff) : e->weight + coeff;
    return;
  }
  expand_marking(s, c, v, coeff, e, last);
}

/* (v's elements do not change before e or a new one after last: the calls before only
 * move them between lists.) */
__attribute__((noinline)) static void expand_marking(lmm_system *s, lmm_cnst *c, lmm_var *v,
                                                      double coeff, lmm_elem *e, lmm_elem *last) {
  if (v->proxy)
    lmm_bun_leave(s, v);
  lmm_grp_guard(s, v);
  if (grp_has(s, c->grp_gen))
    lmm_grp_dissolve(s);
  s->modified = 1;
  if (!e)
    e = new_elem(s, c, v, coeff, last);
  else if (c->fatpipe)
    e->weight = dmax(e->weight, coeff);
  else
    e->weight += coeff;
  lmm_fp_cover(s, v);
  if (!c->fatpipe && cnst_out(s, c))
    c->slack = 0; /* simpler than re-counting its S: in again (walked just below) */
  if (e->weight > 0 || v->penalty > 0)
    mark_cnst(s, c);
  if (s->exact)
    mark_from_var(s, v); /* c may have been marked already: reach v's other constraints */
}

static void enable_var(lmm_system *s, lmm_var *v, double penalty) {
  int level = GRP_K;
  int how = s->grp_on ? lmm_grp_check(s, v, &level) : GRP_OUTSIDE;
  if (how == GRP_CONFLICT)
    lmm_grp_dissolve(s);
  v->penalty = penalty;
  for (lmm_elem *e = v->elems; e; e = e->var_next) {
    e->cnst->n_disabled--;
    enabled_push_front(e->cnst, e);
  }
  if (how == GRP_JOIN) {
    lmm_grp_join(s, v, level);
    return;
  }
  lmm_slack_enable(s, v);
  lmm_fp_cover(s, v);
  lmm_slack_ensure_in(s, v, NULL);
  mark_from_var(s, v); /* after the move: the walk must see v */
}

static void disable_var(lmm_system *s, lmm_var *v) {
  mark_from_var(s, v); /* before the move: the walk must see v */
  lmm_fp_leave(s, v);
  lmm_slack_leave(s, v);
  for (lmm_elem *e = v->elems; e; e = e->var_next) {
    enabled_remove(e->cnst, e);
    e->cnst->n_disabled++;
    make_inactive(e);
  }
  v->penalty = 0.0;
  v->value = 0.0;
  set_fix(v, NULL);
}

/* Class mode: e's variable enabled (on) or disabled; counted, on no list. */
static void cls_enable_elem(lmm_elem *e, int on) {
  lmm_cnst *c = e->cnst;
  e->enabled = (unsigned char)on;
  c->n_en += on ? 1 : (size_t)-1;
  c->n_disabled += on ? (size_t)-1 : 1;
}

/* Class mode: v leaves its class, changes, and joins one of its own if enabled. */
__attribute__((noinline)) static void penalty_class(lmm_system *s, lmm_var *v, double penalty) {
  if (v->cls)
    lmm_cls_leave(s, v);
  if ((penalty > 0) != (v->penalty > 0))
    for (lmm_elem *e = v->elems; e; e = e->var_next)
      cls_enable_elem(e, penalty > 0);
  v->penalty = penalty;
  v->value = 0.0;
  if (penalty > 0)
    lmm_cls_join(s, v);
}

void lmm_var_set_penalty(lmm_system *s, lmm_var *v, double penalty) {
  assert(penalty >= 0);
  if (penalty == v->penalty)
    return;
  if (s->cls_on) {
    penalty_class(s, v, penalty);
    return;
  }
  s->modified = 1;
  if (v->proxy)
    lmm_bun_leave(s, v);
  if (penalty > 0 && v->penalty <= 0) {
    enable_var(s, v, penalty);
    return;
  }
  lmm_grp_guard(s, v);
  if (penalty <= 0 && v->penalty > 0) {
    disable_var(s, v);
  } else {
    v->penalty = penalty;
    if (s->exact)
      lmm_slack_ensure_in(s, v, NULL);
    mark_from_var(s, v);
  }
}

void lmm_var_set_bound(lmm_system *s, lmm_var *v, double bound) {
  if (s->cls_on) {
    if (v->cls)
      lmm_cls_leave(s, v);
    v->bound = bound;
    if (v->penalty > 0)
      lmm_cls_join(s, v);
    return;
  }
  if (v->proxy)
    lmm_bun_leave(s, v);
  lmm_grp_guard(s, v);
  s->modified = 1;
  v->bound = bound;
  if (s->local && v->penalty > 0)
    lmm_dirty_add(s, v);
  if (s->exact && v->penalty > 0)
    lmm_slack_ensure_in(s, v, NULL);
  for (lmm_elem *e = v->elems; e; e = e->var_next)
    mark_cnst(s, e->cnst);
}

/* Takes v off the live list and off the modified output. */
static void var_unlink(lmm_system *s, lmm_var *v) {
  s->x_hint = NULL; /* (it may be one of v's elements, gone) */
  if (v->all_prev)
    v->all_prev->all_next = v->all_next;
  else
    s->all_head = v->all_next;
  if (v->all_next)
    v->all_next->all_prev = v->all_prev;
  else
    s->all_tail = v->all_prev;
  s->n_vars--;
  if (s->n_vars + 2 * CLASS_EAGER_VARS <= s->eager_next) /* well below the last check */
    s->eager_next = s->n_vars + CLASS_EAGER_VARS;
  if (v->out_slot != SLOT_NONE && v->out_slot < s->n_out && s->out[v->out_slot] == v)
    s->out[v->out_slot] = NULL;
  if (v->fast_slot != SLOT_NONE && v->fast_slot < s->n_fast && s->fast[v->fast_slot] == v)
    s->fast[v->fast_slot] = NULL;
  if (v->dirty_slot != SLOT_NONE && v->dirty_slot < s->n_dirty && s->dirty[v->dirty_slot] == v)
    s->dirty[v->dirty_slot] = NULL;
}

/* Class mode: v leaves its class, its elements their constraints' lists. */
__attribute__((noinline)) static void free_class(lmm_system *s, lmm_var *v) {
  if (v->cls)
    lmm_cls_free(s, v);
  lmm_elem *next;
  for (lmm_elem *e = v->elems; e; e = next) {
    next = e->var_next;
    if (e->enabled)
      e->cnst->n_en--;
    else
      e->cnst->n_disabled--;
    pool_put(e->small ? &s->elem_cls_pool : &s->elem_pool, e);
  }
  var_unlink(s, v);
  pool_put(v->small ? &s->var_cls_pool : &s->var_pool, v);
}

void lmm_var_free(lmm_system *s, lmm_var *v) {
  if (s->cls_on) {
    free_class(s, v);
    return;
  }
  if (v->proxy)
    lmm_bun_leave(s, v);
  int grouped = grp_has(s, v->grp_gen);
  if (!grouped) {
    if (v->penalty > 0)
      lmm_grp_guard(s, v);
    s->modified = 1;
    mark_from_var(s, v); /* before detaching: the walk must see v */
  }
  lmm_fp_leave(s, v);
  set_fix(v, NULL);
  lmm_elem *next;
  for (lmm_elem *e = v->elems; e; e = next) { /* one pass: each constraint once (find_elem) */
    next = e->var_next;
    lmm_cnst *c = e->cnst;
    slack_elem_leave(s, e);
    if (grouped)
      grp_elem_leave(s, e);
    if (e->enabled)
      enabled_remove(c, e);
    else
      c->n_disabled--;
    make_inactive(e);
    if (!c->en_head && c->n_disabled == 0)
      mod_remove(s, c); /* SimGrid: an empty constraint leaves the modified set */
    pool_put(&s->elem_pool, e);
  }
  var_unlink(s, v);
  if (grouped)
    lmm_grp_after_leave(s);
  pool_put(&s->var_pool, v);
}

double lmm_var_value(const lmm_var *v) {
  if (v->cls)
    return v->cls->level / v->penalty;
  if (v->proxy)
    return v->proxy->value / v->penalty;
  return grp_has(v->sys, v->grp_gen) ? v->sys->grp_lv[v->gidx] / v->penalty : v->value;
}

int lmm_var_level(const lmm_var *v) {
  if (v->cls)
    return GRP_K + v->cls->id;
  if (v->proxy)
    return GRP_K + v->proxy->bun->id;
  return grp_has(v->sys, v->grp_gen) ? v->gidx : -1;
}

double lmm_level(const lmm_system *s, int k) {
  if (s->cls_on)
    return lmm_cls_level(s, k);
  if (k >= GRP_K) {
    size_t id = (size_t)(k - GRP_K);
    return id < s->n_buns && s->buns[id] ? s->buns[id]->proxy->value : 0.0;
  }
  return s->grp_on && k >= 0 && k < s->grp_k ? s->grp_lv[k] : 0.0;
}

int lmm_level_count(const lmm_system *s) { return GRP_K + (int)(s->cls_on ? s->n_cls_ids : s->n_buns); }

/* Exact and local modes: the group's levels (while there is a group) and the live bundles'. */
int lmm_next_level(lmm_system *s) {
  if (s->cls_on)
    return lmm_cls_next_level(s);
  if (s->lev_pos < GRP_K) {
    if (s->grp_on && s->lev_pos < (size_t)s->grp_k)
      return (int)s->lev_pos++;
    s->lev_pos = GRP_K;
  }
  while (s->lev_pos - GRP_K < s->n_buns && !s->buns[s->lev_pos - GRP_K])
    s->lev_pos++;
  return s->lev_pos - GRP_K < s->n_buns ? (int)s->lev_pos++ : -1;
}

double lmm_var_penalty(const lmm_var *v) { return v->penalty; }

void *lmm_var_owner(const lmm_var *v) { return v->owner; }
void lmm_var_set_owner(lmm_var *v, void *owner) { v->owner = owner; }
double lmm_var_bound(const lmm_var *v) { return v->bound; }

/* ======================================================================
 * The solver (SimGrid's MaxMin::maxmin_solve)
 * ====================================================================== */

/* A new candidate level at light index pos: a strictly smaller level restarts the
 * saturated set, an exactly equal one joins it (SimGrid compares levels with ==). */
static inline void saturated_cnst_update(lmm_system *s, double level, int pos, double *min_level) {
  assert(level > 0);
  if (*min_level < 0 || *min_level > level) {
    *min_level = level;
    s->n_sat_cnsts = 0;
  } else if (*min_level != level) {
    return;
  }
  GROW(s->sat_cnsts, s->sat_cnsts_cap, s->n_sat_cnsts + 1);
  s->sat_cnsts[s->n_sat_cnsts++] = pos;
}

static void sat_push(lmm_system *s, lmm_var *v) {
  v->in_sat = 1;
  v->sat_next = NULL;
  if (s->sat_tail)
    s->sat_tail->sat_next = v;
  else
    s->sat_head = v;
  s->sat_tail = v;
}

static lmm_var *sat_pop(lmm_system *s) {
  lmm_var *v = s->sat_head;
  s->sat_head = v->sat_next;
  if (!s->sat_head)
    s->sat_tail = NULL;
  v->in_sat = 0;
  v->sat_next = NULL;
  return v;
}

/* Queues the unfixed variables of the saturated constraints, each once, constraint
 * by constraint in saturated-set order, each in active-list order. */
static void saturated_var_update(lmm_system *s) {
  for (size_t i = 0; i < s->n_sat_cnsts; i++) {
    lmm_cnst *c = s->lights[s->sat_cnsts[i]].cnst;
    for (lmm_elem *e = c->ac_head; e; e = e->ac_next) {
      assert(e->var->penalty > 0);
      if (e->weight > 0 && !e->var->in_sat) {
        set_fix(e->var, c);
        sat_push(s, e->var);
      }
    }
  }
}

static void fatpipe_rescan(const lmm_system *s, lmm_cnst *c) {
  c->usage = 0.0;
  c->top_count = 0;
  for (const lmm_elem *e = c->en_head; e; e = e->en_next) {
    if (e->weight <= 0)
      continue;
    if (s->local && e->var->lv != s->lsolve ? !lmm_local_fp_top(e) : e->var->value > 0)
      continue;
    double x = e->weight / e->var->penalty;
    if (x > c->usage) {
      c->usage = x;
      c->top_count = 1;
    } else if (x == c->usage) {
      c->top_count++;
    }
  }
}

/* Adds x = a / p of an unfixed element to c's usage: the sum, or (FATPIPE) the max with the
 * number of elements reaching it. */
static inline void usage_add(lmm_cnst *c, double x) {
  if (!c->fatpipe)
    c->usage += x;
  else if (c->usage < x)
    c->usage = x, c->top_count = 1;
  else if (c->usage == x)
    c->top_count++;
}

/* Solve initialisation of one constraint: remaining = bound, usage from its enabled
 * elements (values reset to 0, elements with a coefficient made active). Returns 0
 * when the constraint takes no part (no capacity or no usage). */
static int init_cnst(lmm_system *s, lmm_cnst *c) {
  c->remaining = c->bound;
  c->S_run = 0.0;
  if (!double_positive(c->remaining, c->bound * s->precision))
    return 0;
  c->usage = 0.0;
  c->top_count = 0;
  for (lmm_elem *e = c->en_head; e; e = e->en_next) {
    assert(e->var->penalty > 0);
    e->var->value = 0.0;
    if (e->weight <= 0)
      continue;
    usage_add(c, e->weight / e->var->penalty);
    make_active(e);
  }
  return c->usage > 0;
}

/* Fills the light table from the modified list; returns the minimum level. */
static double init_lights(lmm_system *s) {
  double min_level = -1;
  s->n_lights = 0;
  s->n_sat_cnsts = 0;
  x_grow(&s->lights, &s->lights_cap, s->n_mod, sizeof *s->lights);
  for (lmm_cnst *c = s->mod_head; c; c = c->mod_next) {
    c->light = -1;
    if (cnst_out(s, c) || !init_cnst(s, c))
      continue;
    c->in_run = s->n_solves;
    int pos = (int)s->n_lights++;
    s->lights[pos] = (light){c->remaining / c->usage, c};
    c->light = pos;
    saturated_cnst_update(s, s->lights[pos].level, pos, &min_level);
  }
  return min_level;
}

/* Drops c from the light table when it is used up, else refreshes its level. */
static inline void refresh_light(lmm_system *s, lmm_cnst *c) {
  if (c->light < 0)
    return;
  if (!double_positive(c->usage, s->precision) ||
      !double_positive(c->remaining, c->bound * s->precision)) {
    size_t pos = (size_t)c->light;
    s->lights[pos] = s->lights[s->n_lights - 1];
    s->lights[pos].cnst->light = (int)pos;
    s->n_lights--;
    c->light = -1;
  } else {
    s->lights[c->light].level = c->remaining / c->usage;
  }
}

/* Takes the fixed value of v off the constraint of e. */
static void consume(lmm_system *s, lmm_elem *e, const lmm_var *v) {
  lmm_cnst *c = e->cnst;
  if (!c->fatpipe) {
    if (c->slack && s->exact && !s->local) { /* (a flag left from before an automatic switch) */
      slack_fixed(s, e, v->fix_t);
      make_inactive(e);
      return;
    }
    if (!s->local) { /* slack bookkeeping: exact mode only */
      e->contrib = e->weight * v->fix_t;
      c->S_run += e->contrib;
    }
    double_update(&c->remaining, e->weight * v->value, c->bound * s->precision);
    double_update(&c->usage, e->weight / v->penalty, s->precision);
    refresh_light(s, c);
    make_inactive(e);
    return;
  }
  make_inactive(e);
  if (c->light < 0) {
    if (cnst_out(s, c))
      lmm_fp_verify(s, e, v);
    return; /* its usage is never read again in this solve */
  }
  if (e->weight > 0 && e->weight / v->penalty == c->usage && --c->top_count == 0)
    fatpipe_rescan(s, c);
  refresh_light(s, c);
}

/* The smallest b_i * p_i below the current level among the queued variables, or -1. */
static double min_bound_level(const lmm_system *s, double min_level) {
  double min_bound = -1;
  for (const lmm_var *v = s->sat_head; v; v = v->sat_next) {
    double bp = v->bound * v->penalty;
    if (v->bound > 0 && bp < min_level)
      min_bound = min_bound < 0 ? bp : dmin(min_bound, bp);
  }
  return min_bound;
}

/* Fixes the queued variables: all at min_level / p, or, when some bound is below the
 * level, only those at the smallest bound (the others wait for a later iteration).
 * Stamps them with iteration it (-1: not recorded); *by_bound: a bound decided. */
static void fix_saturated(lmm_system *s, double min_level, int *by_bound, int it) {
  double min_bound = min_bound_level(s, min_level);
  *by_bound = min_bound >= 0;
  if (*by_bound)
    it = -1;
  while (s->sat_head) {
    lmm_var *v = sat_pop(s);
    assert(v->penalty > 0);
    if (min_bound < 0)
      v->value = min_level / v->penalty;
    else if (double_equals(min_bound, v->bound * v->penalty, s->precision))
      v->value = v->bound, set_fix(v, NULL);
    else
      continue;
    v->fix_round = it >= 0 ? s->n_solves : 0;
    v->gidx = it;
    v->fix_solve = s->n_solves;
    v->fix_level = s->top_level;
    v->fix_t = s->top_level / v->penalty;
    for (lmm_elem *e = v->elems; e; e = e->var_next)
      consume(s, e, v);
  }
}

/* The next minimum level over the light table, in table order. A constraint left with
 * no active element (its usage kept above the precision by rounding) is dropped:
 * SimGrid asserts that this never happens, and would otherwise loop forever. */
static double next_level(lmm_system *s) {
  double min_level = -1;
  s->n_sat_cnsts = 0;
  for (size_t pos = 0; pos < s->n_lights;) {
    lmm_cnst *c = s->lights[pos].cnst;
    if (!c->ac_head) {
      c->usage = 0.0;
      refresh_light(s, c); /* swaps the last entry into pos */
      continue;
    }
    saturated_cnst_update(s, s->lights[pos].level, (int)pos, &min_level);
    pos++;
  }
  return min_level;
}

static void maxmin_solve(lmm_system *s) {
  s->n_solves++;
  lmm_fill(s, init_lights(s));
}

/* The progressive filling from the light table (min_level: its minimum). */
void lmm_fill(lmm_system *s, double min_level) {
  int it = 0, by_bound, lead = 1; /* lead: every iteration so far saturated one alone */
  s->n_sat_b = 0;
  s->top_level = 0.0;
  saturated_var_update(s);
  do {
    s->top_level = dmax(s->top_level, min_level);
    lead = lead && it < GRP_K && s->n_sat_cnsts == 1;
    lmm_cnst *b = lead ? s->lights[s->sat_cnsts[0]].cnst : NULL;
    size_t nsat = s->n_sat_cnsts;
    if (s->local)
      lmm_local_sat_before(s);
    fix_saturated(s, min_level, &by_bound, lead ? it : -1);
    if (s->local && !by_bound)
      lmm_local_sat_after(s, nsat, min_level);
    lead = lead && !by_bound;
    if (lead)
      s->sat_b[s->n_sat_b++] = b;
    it++;
    min_level = next_level(s);
    saturated_var_update(s);
  } while (s->n_lights > 0);
}

/* Exact mode: runs the filling without the left-out constraints, then again with those
 * that turned out to matter (each repetition brings at least one more in). */
static void solve_marked(lmm_system *s) {
  maxmin_solve(s);
  if (!s->exact)
    return;
  while (lmm_after_run(s))
    maxmin_solve(s);
  lmm_slack_release(s);
}

/* ======================================================================
 * Rounds: what the last solve recomputed
 * ====================================================================== */

/* Sorts a[0..n) by creation rank (all distinct): insertion sort on short runs, merge
 * sort through tmp (n entries) above. */
static void sort_by_rank(lmm_var **a, size_t n, lmm_var **tmp) {
  if (n <= 16) {
    for (size_t i = 1; i < n; i++) {
      lmm_var *v = a[i];
      size_t j = i;
      for (; j > 0 && a[j - 1]->rank > v->rank; j--)
        a[j] = a[j - 1];
      a[j] = v;
    }
    return;
  }
  size_t h = n / 2, i = 0, j = h, k = 0;
  sort_by_rank(a, h, tmp);
  sort_by_rank(a + h, n - h, tmp);
  while (i < h && j < n)
    tmp[k++] = a[i]->rank < a[j]->rank ? a[i++] : a[j++];
  while (i < h)
    tmp[k++] = a[i++];
  memcpy(a, tmp, k * sizeof *a); /* a[j..n) is already in place */
}

/* Puts the listed variables in creation order: a sort costs O(k log k), a pass over
 * the live list O(n); the pass wins when the solved part is most of the system (the
 * usual case behind a shared backbone). */
static void order_out(lmm_system *s) {
  size_t k = s->n_out, logk = 1;
  while ((size_t)1 << logk < k)
    logk++;
  if (k * logk < s->n_vars) {
    GROW(s->tmp, s->tmp_cap, k);
    sort_by_rank(s->out, k, s->tmp);
    return;
  }
  size_t i = 0;
  for (lmm_var *v = s->all_head; v; v = v->all_next)
    if (v->listed == s->round)
      s->out[i++] = v;
  assert(i == k);
}

/* The enabled variables with a coefficient on a solved constraint (SimGrid's modified
 * action set), in creation order; with sg_order, in the order SimGrid's solve fills that
 * set: constraints in modified-list order, each one's enabled list (most recent first). */
static void collect_modified(lmm_system *s) {
  for (lmm_cnst *c = s->mod_head; c; c = c->mod_next) {
    for (lmm_elem *e = c->en_head; e; e = e->en_next) {
      if (e->weight <= 0 || e->var->listed == s->round)
        continue;
      GROW(s->out, s->out_cap, s->n_out + 1);
      s->out[s->n_out++] = e->var;
      e->var->listed = s->round;
    }
  }
  if (!s->sg_order)
    order_out(s);
  for (size_t i = 0; i < s->n_out; i++)
    s->out[i]->out_slot = i;
}

static void clear_out(lmm_system *s) {
  for (size_t i = 0; i < s->n_out; i++)
    if (s->out[i])
      s->out[i]->out_slot = SLOT_NONE;
  s->n_out = 0;
  s->out_pos = 0;
}

static void end_round(lmm_system *s) {
  while (s->mod_head)
    mod_remove(s, s->mod_head);
  s->round++; /* un-visits every variable at once (64 bits: never wraps) */
}

/* Appends v to the modified output of this round. */
static inline void out_push(lmm_system *s, lmm_var *v) {
  GROW(s->out, s->out_cap, s->n_out + 1);
  v->out_slot = s->n_out;
  v->listed = s->round;
  s->out[s->n_out++] = v;
}

/* Lists the variables that joined the group this round (those not already listed). */
static void append_fast(lmm_system *s) {
  for (size_t i = 0; i < s->n_fast; i++) {
    lmm_var *v = s->fast[i];
    if (!v)
      continue;
    v->fast_slot = SLOT_NONE;
    if (v->listed != s->round)
      out_push(s, v);
  }
  s->n_fast = 0;
}

/* ======================================================================
 * The automatic mode, and the solve of each mode
 * ====================================================================== */

/* The automatic mode after a large solve that formed no group: class mode when such solves
 * re-solve many variables per constraint (from the next solve on: this one's values are the
 * caller's now), local mode when they re-solve a large part (from the next round on: the
 * walk-free state is the same, see lmm_set_local). */
static void auto_large(lmm_system *s) {
  if (lmm_auto_dense(s, s->n_out) || s->no_local)
    return;
  s->big_mod += s->n_mod;
  if (++s->n_big >= LOCAL_AUTO_SOLVES)
    s->local = 1;
}

/* After a local solve of the automatic mode: back to component solves when the local
 * solves do not pay (see LOCAL_BACK_SOLVES). */
void lmm_auto_local(lmm_system *s) {
  if (s->n_local == LOCAL_BACK_SOLVES && !s->to_class && s->n_big > 0 &&
      2 * s->sum_c * s->n_big >= s->n_local * s->big_mod)
    s->to_exact = 1;
}

/* Whether the constraints in use hold CLASS_AUTO_RATIO enabled elements each or more, on
 * average (one pass over the constraints: only after a large solve); with waiting, the
 * elements of disabled variables count too (flows in their latency, enabled together). */
static int dense_now(const lmm_system *s, int waiting) {
  size_t used = 0, elems = 0;
  for (size_t i = 0; i < s->n_cnsts; i++) {
    size_t n = s->cnsts[i]->n_en + (waiting ? s->cnsts[i]->n_disabled : 0);
    used += n > 0;
    elems += n;
  }
  return used > 0 && elems >= CLASS_AUTO_RATIO * used;
}

/* A large solve (solved: the variables it re-solved) while the links in use carry many flows
 * each: counts towards class mode; 1 when it was one. */
int lmm_auto_dense(lmm_system *s, size_t solved) {
  if (!dense_now(s, 0))
    return 0;
  s->n_dense += solved;
  s->to_class = ++s->n_dense_solves >= LOCAL_AUTO_SOLVES || s->n_dense >= CLASS_AUTO_VARS;
  return 1;
}

/* Local mode's bundles go; their members are listed by the next solve. */
static void drop_bundles(lmm_system *s) {
  for (size_t i = 0; i < s->n_buns; i++) {
    lmm_bundle *b = s->buns[i];
    while (b && b->n > 0)
      lmm_bun_leave(s, b->mem[b->n - 1]);
    if (b)
      lmm_bun_free(s, b);
  }
}

/* The automatic mode leaves local mode for good: the bundles and the group go, the changes
 * recorded for the next local solve are dropped and every constraint in use is marked
 * instead, so that the next solve re-solves every component (and lists what changed). */
static void switch_to_exact(lmm_system *s) {
  s->to_exact = 0;
  s->no_local = 1;
  drop_bundles(s);
  s->bun_min = 0;
  s->local = 0;
  for (size_t i = 0; i < s->n_dirty; i++)
    if (s->dirty[i])
      s->dirty[i]->dirty_slot = SLOT_NONE;
  s->n_dirty = s->n_seeds = 0;
  lmm_grp_dissolve(s);
  for (size_t i = 0; i < s->n_cnsts; i++)
    if (s->cnsts[i]->n_en > 0)
      mark_cnst(s, s->cnsts[i]);
  s->modified = 1;
}

/* The automatic mode switches to class mode: every enabled variable joins a class (the
 * next class solve lists them all), the exact mode's marks are dropped. */
static void switch_to_class(lmm_system *s) {
  s->to_class = 0;
  s->auto_local = 0;
  while (s->mod_head)
    mod_remove(s, s->mod_head);
  drop_bundles(s); /* local mode's bundles and group go */
  s->grp_on = 0;
  s->grp_gen++;
  s->local = 0;
  class_start(s);
  for (lmm_var *v = s->all_head; v; v = v->all_next) {
    for (lmm_elem *e = v->elems; e; e = e->var_next)
      make_inactive(e); /* ac_prev, ac_next become the class edge's list */
    if (v->penalty > 0)
      lmm_cls_join(s, v);
  }
}

/* The automatic mode between two solves, CLASS_EAGER_VARS variables after its last check:
 * class mode at once if the constraints in use are dense (see CLASS_EAGER_VARS). */
static void auto_eager(lmm_system *s) {
  s->eager_next = s->n_vars + CLASS_EAGER_VARS;
  if (!dense_now(s, 1))
    return;
  switch_to_class(s);
  s->modified = 1;
  s->eager_at = s->n_vars;
}

void lmm_solve(lmm_system *s) {
  clear_out(s);
  s->lev_pos = 0;
  if (s->to_class)
    switch_to_class(s);
  else if (s->to_exact)
    switch_to_exact(s);
  if (s->cls_on) {
    s->n_lev_out = 0;
    if (s->modified)
      lmm_cls_solve(s);
    s->modified = 0;
    s->round++;
    return;
  }
  while (s->n_pend_ids > 0) { /* the caller has seen those bundles empty */
    GROW(s->free_ids, s->free_ids_cap, s->n_free_ids + 1);
    s->free_ids[s->n_free_ids++] = s->pend_ids[--s->n_pend_ids];
  }
  if (!s->modified)
    return;
  if (s->local) {
    if (s->n_seeds > 0 || s->n_dirty > 0)
      lmm_local_solve(s);
    append_fast(s);
    s->modified = 0;
    end_round(s);
    return;
  }
  if (s->mod_head) {
    solve_marked(s);
    collect_modified(s);
    if (s->exact && !s->grp_on)
      lmm_grp_form(s, s->n_out);
    s->sum_mod += s->n_mod;
    s->n_exact++;
    if (s->auto_local && !s->grp_on && (s->n_mod >= LOCAL_AUTO_SIZE || s->n_out >= LOCAL_AUTO_SIZE))
      auto_large(s);
  }
  append_fast(s);
  s->modified = 0;
  end_round(s);
}

/* The variables a class solve lists (those it moved) lie anywhere in memory: the caller
 * reads each and its owner, fetched ahead here (not in the other modes, whose lists are
 * mostly in cache: +0.5 % instructions on the stencils for nothing). */
#define OUT_AHEAD 8
static inline void out_prefetch(const lmm_system *s, size_t i) {
  if (i + OUT_AHEAD < s->n_out && s->out[i + OUT_AHEAD])
    __builtin_prefetch(s->out[i + OUT_AHEAD]);
  if (i + OUT_AHEAD / 2 < s->n_out && s->out[i + OUT_AHEAD / 2])
    __builtin_prefetch(s->out[i + OUT_AHEAD / 2]->owner);
}

lmm_var *lmm_next_modified(lmm_system *s) {
  while (s->out_pos < s->n_out) {
    size_t i = s->out_pos++;
    if (s->cls_on)
      out_prefetch(s, i);
    lmm_var *v = s->out[i];
    if (v && !v->bun) {
      v->out_slot = SLOT_NONE;
      return v;
    }
  }
  return NULL;
}

/* For the mode files (lmm_impl.h): the core's own calls stay inline. */
void lmm_mark_cnst(lmm_system *s, lmm_cnst *c) { mark_cnst(s, c); }
lmm_elem *lmm_new_elem(lmm_system *s, lmm_cnst *c, lmm_var *v, double coeff) {
  lmm_elem *last = v->elems;
  while (last && last->var_next)
    last = last->var_next;
  return new_elem(s, c, v, coeff, last);
}
void lmm_saturated_cnst_update(lmm_system *s, double level, int pos, double *min_level) { saturated_cnst_update(s, level, pos, min_level); }
void lmm_usage_add(lmm_cnst *c, double x) { usage_add(c, x); }
void lmm_var_unlink(lmm_system *s, lmm_var *v) { var_unlink(s, v); }
void lmm_out_push(lmm_system *s, lmm_var *v) { out_push(s, v); }
