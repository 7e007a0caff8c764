/* lmm_group.c - exact mode's group: a component with one bottleneck per level, followed without solves.
 *
 * Group (exact mode only). Behind a shared backbone every flow is in one component, so
 * each flow start or end would re-solve all of them. When a full solve finds that its
 * leading filling iterations each saturated one SHARED constraint alone, B_0, B_1, ...
 * (at most GRP_K), with no bound deciding, and that every enabled variable of B_0's
 * component was fixed by one of them (at least LMM_GRP_MIN variables, no FATPIPE
 * constraint), the solution is x_i = m_k / p_i for the variables of level k (those whose
 * first B is B_k), with
 *   m_k = (bound_Bk - sum_{j<k} m_j gu_j(B_k)) / gu_k(B_k),  gu_j(c) = sum a_ic / p_i
 * over the variables of level j. Example: the stencil's reduce to rank 0 saturates rank
 * 0's down link first (level 0: the flows to rank 0), then the backbone (level 1: the
 * halo flows). The component then becomes the group: its constraints and variables carry
 * the group's generation stamp, each constraint its running sums gu_k, and grp_cap a
 * lower bound of every other constraint's level bound / sum_k gu_k and of every b_i p_i.
 * Enabling a variable that uses some B_k and touches nothing outside the component, or
 * freeing a group variable, then only updates the sums of its constraints and the m_k:
 * O(its elements + GRP_K^2), no marking, no filling. The m_k are still the filling's
 * levels while they increase, each B_j stays above m_k at the iterations k < j, and the
 * top level is within grp_cap: then no other constraint can be reached first (its level
 * at any iteration is at least bound / sum gu >= grp_cap, above every m below the top).
 * Enabling lowers the levels of its own constraints, which are folded into grp_cap;
 * freeing raises them, and the stale grp_cap stays a valid lower bound. Anything else
 * (a check failing, another kind of change touching the component, a variable connecting
 * it to others, or 4n + LMM_GRP_MIN fast changes, which bounds the rounding drift of the
 * running sums) dissolves the group: values are written back, the stamp is bumped (which
 * ungroups everything at once) and the B_k are marked, so the next solve re-solves the
 * component from scratch and may form the group again. Group variables are not listed by
 * lmm_next_modified when only the levels changed: the caller (engine.c) follows them
 * through the levels. A separate component (a CPU) keeps the ordinary path; the invariant
 * that makes this safe: a constraint of the group has only group variables among its
 * enabled ones.
 * */
#include "lmm_impl.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sum of c's group usages over levels k0 and up. */
static double gu_from(const lmm_cnst *c, int k0) {
  double u = 0.0;
  for (int k = k0; k < GRP_K; k++)
    u += c->gu[k];
  return u;
}

static int grp_is_b(const lmm_system *s, const lmm_cnst *c) {
  for (int k = 0; k < s->grp_k; k++)
    if (s->grp_b[k] == c)
      return 1;
  return 0;
}

/* The level of element e: k when its constraint is B_k and its coefficient > 0, else
 * GRP_K (the B_k are distinct: at most one k matches). */
static int grp_elem_level(const lmm_system *s, const lmm_elem *e) {
  if (e->weight > 0)
    for (int k = 0; k < s->grp_k; k++)
      if (e->cnst == s->grp_b[k])
        return k;
  return GRP_K;
}

/* Ends the group: its values are written back, its variables and constraints leave it
 * at once (new generation) and its bottlenecks are marked for a full re-solve. */
void lmm_grp_dissolve(lmm_system *s) {
  if (!s->grp_on)
    return;
  for (int k = 0; k < s->grp_k; k++)
    for (lmm_elem *e = s->grp_b[k]->en_head; e; e = e->en_next)
      if (e->var->grp_gen == s->grp_gen) {
        e->var->value = s->grp_lv[e->var->gidx] / e->var->penalty;
        if (s->local) { /* re-solved and listed: the caller follows it through a level */
          e->var->relist = 1;
          lmm_dirty_add(s, e->var);
        }
      }
  s->grp_on = 0;
  s->grp_gen++;
  s->modified = 1;
  for (int k = 0; k < s->grp_k; k++)
    lmm_mark_cnst(s, s->grp_b[k]);
}

/* Whether some constraint of v belongs to the group's component. */
static int grp_touches(const lmm_system *s, const lmm_var *v) {
  for (const lmm_elem *e = v->elems; e; e = e->var_next)
    if (grp_has(s, e->cnst->grp_gen))
      return 1;
  return 0;
}

/* Dissolves the group before a change that the fast path does not handle. */
void lmm_grp_guard(lmm_system *s, const lmm_var *v) {
  if (s->grp_on && (grp_has(s, v->grp_gen) || grp_touches(s, v)))
    lmm_grp_dissolve(s);
}

/* How the enabling of v relates to the group: it joins it when it uses some B_k and its
 * other constraints are in the component or unused; it conflicts when it would connect
 * the component to other enabled variables (or a FATPIPE constraint). *level is v's
 * level, the first B_k it uses (coefficient > 0), when it joins. One pass over v. */
int lmm_grp_check(const lmm_system *s, const lmm_var *v, int *level) {
  int flagged = 0, foreign = 0, best = GRP_K;
  for (const lmm_elem *e = v->elems; e; e = e->var_next) {
    const lmm_cnst *c = e->cnst;
    if (grp_has(s, c->grp_gen))
      flagged = 1;
    else if (c->en_head || c->fatpipe)
      foreign = 1;
    int k = grp_elem_level(s, e);
    if (k < best)
      best = k;
  }
  *level = best;
  if (best == GRP_K)
    return flagged ? GRP_CONFLICT : GRP_OUTSIDE;
  return foreign ? GRP_CONFLICT : GRP_JOIN;
}

/* Level k of B_j (j > k): what it has left after the levels below k, over its usage from
 * level k up; 1 when it stays strictly above m_k, as the filling needs. */
static int grp_b_above(const lmm_system *s, const lmm_cnst *b, int k) {
  double rem = b->bound;
  for (int i = 0; i < k; i++)
    rem -= s->grp_lv[i] * b->gu[i];
  return rem > s->grp_lv[k] * gu_from(b, k);
}

/* Computes m_k = (bound_Bk - sum_{j<k} m_j gu_j(B_k)) / gu_k(B_k) and checks that they
 * are the filling's levels: positive, increasing, each B_j above the levels before its
 * own, and the top one within grp_cap (a lower bound of the other constraints' levels
 * bound / sum gu and of the b_i * p_i: then none of those can be reached first). */
static inline int grp_levels(lmm_system *s) {
  for (int k = 0; k < s->grp_k; k++) {
    const lmm_cnst *b = s->grp_b[k];
    double rem = b->bound;
    for (int j = 0; j < k; j++)
      rem -= s->grp_lv[j] * b->gu[j];
    if (!double_positive(b->gu[k], s->precision) || !double_positive(rem, b->bound * s->precision))
      return 0;
    s->grp_lv[k] = rem / b->gu[k];
    if (k > 0 && !(s->grp_lv[k] > s->grp_lv[k - 1]))
      return 0;
  }
  for (int j = 1; j < s->grp_k; j++)
    for (int k = 0; k < j; k++)
      if (!grp_b_above(s, s->grp_b[j], k))
        return 0;
  return s->grp_lv[s->grp_k - 1] <= s->grp_cap;
}

/* After a fast change: new levels; the group survives while they are still the filling's,
 * and is re-solved from scratch now and then so that rounding in the running sums cannot
 * accumulate. */
static void grp_settle(lmm_system *s) {
  s->grp_events++;
  if (!grp_levels(s) || s->grp_events > 4 * s->grp_n + GRP_MIN)
    lmm_grp_dissolve(s);
}

/* Folds c's level (bound / total group usage) into grp_cap unless c is a bottleneck. */
static inline void grp_cap_cnst(lmm_system *s, const lmm_cnst *c) {
  double u = gu_from(c, 0);
  if (!(u > 0))
    return;
  double r = c->bound / u;
  if (r < s->grp_cap && !grp_is_b(s, c)) /* dmin, with the B_k test only when r is lower */
    s->grp_cap = r;
}

/* v (enabled, on the enabled lists) joins level k; it is listed as modified. */
void lmm_grp_join(lmm_system *s, lmm_var *v, int k) {
  for (lmm_elem *e = v->elems; e; e = e->var_next) {
    lmm_cnst *c = e->cnst;
    if (!grp_has(s, c->grp_gen)) {
      c->grp_gen = s->grp_gen;
      gu_clear(c);
    }
    c->gcount++;
    if (e->weight > 0)
      c->gu[k] += e->weight / v->penalty;
    grp_cap_cnst(s, c);
  }
  if (v->bound > 0)
    s->grp_cap = dmin(s->grp_cap, v->bound * v->penalty);
  v->grp_gen = s->grp_gen;
  v->gidx = k;
  set_fix(v, s->grp_b[k]);
  s->grp_n++;
  GROW(s->fast, s->fast_cap, s->n_fast + 1);
  v->fast_slot = s->n_fast;
  s->fast[s->n_fast++] = v;
  s->modified = 1;
  grp_settle(s);
}


/* After a grouped variable was detached: the levels rise. */
void lmm_grp_after_leave(lmm_system *s) {
  if (--s->grp_n == 0) {
    s->grp_on = 0;
    s->grp_gen++;
    return;
  }
  s->modified = 1;
  grp_settle(s);
}


/* Sums the group usages of c (fresh, in enabled-list order) and queues the constraints
 * of its variables not seen yet; returns 0 when c or one of its variables cannot be in
 * the group (FATPIPE, or a variable not fixed by the leading iterations of the solve). */
static int grp_scan(lmm_system *s, lmm_cnst *c, size_t *top, size_t *nv) {
  if (c->fatpipe && c->en_head)
    return 0;
  gu_clear(c);
  for (lmm_elem *e = c->en_head; e; e = e->en_next) {
    lmm_var *v = e->var;
    c->gcount++;
    if (!grp_fixed_lead(s, v, s->grp_k))
      return 0;
    if (e->weight > 0)
      c->gu[v->gidx] += e->weight / v->penalty;
    if (v->grp_gen == s->grp_gen)
      continue;
    v->grp_gen = s->grp_gen;
    (*nv)++;
    if (v->bound > 0)
      s->grp_cap = dmin(s->grp_cap, v->bound * v->penalty);
    for (lmm_elem *x = v->elems; x; x = x->var_next)
      if (x->cnst->grp_gen != s->grp_gen) {
        x->cnst->grp_gen = s->grp_gen;
        gu_clear(x->cnst);
        GROW(s->walk, s->walk_cap, *top + 1);
        s->walk[(*top)++] = x->cnst;
      }
  }
  grp_cap_cnst(s, c);
  return 1;
}

/* After a full solve: forms the group when its leading iterations each saturated one
 * constraint alone with no bound deciding (B_0, B_1, ...: each fixed every variable on it
 * at m_k / p), every enabled variable of B_0's component was fixed by one of them, and
 * the component is large. Walks the component from B_0: flags its constraints and
 * variables, sums their usages per level. */
void lmm_grp_form(lmm_system *s, size_t n_solved) {
  /* The group's variables were all fixed by this solve: n_solved (the variables it listed,
   * or re-solved in local mode) bounds them; B_0 must have been solved by it. */
  if (s->n_sat_b == 0 || n_solved < GRP_MIN)
    return;
  if (s->local ? s->sat_b[0]->lc != s->lsolve : !s->sat_b[0]->in_mod)
    return;
  s->grp_gen++; /* the new group's stamp; bumped again on failure, which unflags all */
  s->grp_k = s->n_sat_b;
  memcpy(s->grp_b, s->sat_b, sizeof s->grp_b);
  s->grp_cap = INFINITY;
  s->grp_b[0]->grp_gen = s->grp_gen;
  size_t top = 0, nv = 0;
  x_grow(&s->walk, &s->walk_cap, 1, sizeof *s->walk);
  s->walk[top++] = s->grp_b[0];
  int ok = 1;
  while (ok && top > 0) {
    lmm_cnst *c = s->walk[--top];
    ok = grp_scan(s, c, &top, &nv);
    if (ok && c->gcount == 0)
      c->grp_gen = 0; /* nothing of the group on it */
  }
  for (int k = 0; ok && k < s->grp_k; k++)
    ok = s->grp_b[k]->grp_gen == s->grp_gen;
  s->grp_on = ok && nv >= GRP_MIN;
  if (!s->grp_on || !grp_levels(s)) {
    s->grp_on = 0;
    s->grp_gen++;
    return;
  }
  s->grp_n = nv;
  s->grp_events = 0;
}
