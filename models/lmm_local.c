/* lmm_local.c - local mode: a change re-solves only the variables it can move, verified.
 *
 * Local (lmm_set_local; exact mode with the group, without marking walks, inert FATPIPE or
 * slack SHARED). On a fat tree every flow is tied to every other one through node links
 * and cables, so a component is the machine, while a flow start or end moves a handful of
 * rates. The max-min solution is characterised by bottlenecks: it is the feasible x in
 * which every variable i either sits at its bound or has a full constraint c on which its
 * level p_i x_i is the highest (SimGrid's FATPIPE twist: a FATPIPE constraint saturated at
 * level m fixes all its unfixed variables at m / p). Each variable keeps fix_cnst, such a
 * constraint (NULL: its bound). Invariant between solves: every variable with fix_cnst == c
 * is at the top level of c, and c is full. A change records its constraints (seeds) and
 * the changed variable (dirty) instead of walking; the solve then
 *  1. takes V = the dirty variables and every variable whose fix_cnst is a seed, and
 *     C = every constraint of a variable of V;
 *  2. runs the filling over V and C, each constraint of C starting from its bound less
 *     what the variables outside V (frozen) take (a constraint they fill up brings them
 *     all into V first), and records fix_cnst and the level at which each constraint
 *     saturated (lsat);
 *  3. checks every frozen variable j on a constraint of C: j above the level of a
 *     constraint the run saturated, or of a FATPIPE one at the lowest level of a variable
 *     filling it, would have been fixed there ("above"); otherwise j needs a bottleneck:
 *     its fix_cnst outside C (nothing on it changed), or a full constraint of C with j at
 *     its top level (or, FATPIPE, j alone filling it, which fixes j at that level, or the
 *     run saturating it at j's level), which becomes its fix_cnst. A variable of V above
 *     the level of a frozen one filling a FATPIPE brings the fillers into V (the run left
 *     them out of its usage: fp_fillers_in). Failing variables join V and the run is
 *     repeated; after LOCAL_ROUNDS rounds V becomes the whole component.
 * When the checks pass, V's values with the frozen ones satisfy the bottleneck property,
 * hence are the max-min solution (to rounding: relative 1e-12 in the checks, fullness at
 * the scale of the variable's share, and the frozen shares are subtracted in another order
 * than a solve of the component would; on every bench case the simulated times came out
 * digit for digit the same). Two details: a frozen variable that alone fills a FATPIPE
 * constraint still counts in its usage (it would be unfixed until that level in a solve of
 * the component, and SimGrid's FATPIPE rule fixes everything on it there); and an inert
 * FATPIPE constraint stays out of C, checked against V's values after each run (pinned in
 * for good when a variable comes within 1e-9 of filling it). Only the variables whose
 * value changed are listed. A run whose V covers a component that qualifies forms
 * the group as in exact mode; a dissolved group's variables are dirty (re-solved and
 * listed). Costs: O(elements of C) per run instead of O(elements of the component), a
 * handful of variables on a fat tree (doc/performance.md, item 28). LMM_STATS
 * prints counters at lmm_free; LMM_VERIFY compares every local solve with a solve of its
 * component and prints the differences above 1e-12 (debugging). The automatic mode
 * (lmm_set_local(s, 2)) runs exact mode, whose component solves and group are cheaper on
 * small or lock-step systems, and switches to local mode for good after LOCAL_AUTO_SOLVES
 * solves of LOCAL_AUTO_SIZE or more constraints or variables that formed no group; the switch needs
 * nothing but the flag, as exact mode keeps fix_cnst and the invariant (every solve
 * re-solves whole components), and the slack flags it leaves are ignored in local mode.
 * */
#include "lmm_impl.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOCAL_TOL 1e-12   /* relative slack of the bottleneck checks */

#define LOCAL_ROUNDS 8    /* widenings before the whole component is re-solved */

static void local_verify(lmm_system *s);

/* Local mode: the constraints of the current iteration's saturated set are stamped with its
 * level unless a bound decided (then they did not saturate). */
void lmm_local_sat_before(lmm_system *s) {
  GROW(s->satc, s->satc_cap, s->n_sat_cnsts);
  for (size_t i = 0; i < s->n_sat_cnsts; i++)
    s->satc[i] = s->lights[s->sat_cnsts[i]].cnst;
}

void lmm_local_sat_after(lmm_system *s, size_t n, double level) {
  for (size_t i = 0; i < n; i++) {
    s->satc[i]->lsat = level;
    s->satc[i]->lsat_solve = s->n_solves;
  }
}

void lmm_seed_add(lmm_system *s, lmm_cnst *c) {
  if (c->lseed == s->round)
    return;
  c->lseed = s->round;
  GROW(s->seeds, s->seeds_cap, s->n_seeds + 1);
  s->seeds[s->n_seeds++] = c;
}

void lmm_dirty_add(lmm_system *s, lmm_var *v) {
  if (v->dirty_slot != SLOT_NONE && v->dirty_slot < s->n_dirty && s->dirty[v->dirty_slot] == v)
    return;
  GROW(s->dirty, s->dirty_cap, s->n_dirty + 1);
  v->dirty_slot = s->n_dirty;
  s->dirty[s->n_dirty++] = v;
}

/* An inert FATPIPE constraint (every variable on it has another constraint with a smaller
 * bound / a: "Inert FATPIPE" above) never fills, so it stays out of C; local_check verifies
 * it against the values and pins it in when a variable comes close. */
int lmm_local_skip(const lmm_cnst *c) { return c->fatpipe && c->n_uncov == 0 && !c->pinned; }

static void local_add_cnst(lmm_system *s, lmm_cnst *c) {
  c->lc = s->lsolve;
  GROW(s->lcnsts, s->lcnsts_cap, s->n_lcnsts + 1);
  s->lcnsts[s->n_lcnsts++] = c;
}

/* v (enabled) joins V: its value is re-solved; its constraints join C. */
void lmm_local_add_var(lmm_system *s, lmm_var *v) {
  if (v->lv == s->lsolve || v->penalty <= 0 || (v->bun && v->bun->n == 0))
    return;
  if (v->proxy) { /* a member: out of its bundle first (lmm_bun_out adds it) */
    lmm_bun_out(s, v);
    return;
  }
  v->lv = s->lsolve;
  v->old_value = v->value;
  GROW(s->lvars, s->lvars_cap, s->n_lvars + 1);
  s->lvars[s->n_lvars++] = v;
  for (lmm_elem *e = v->elems; e; e = e->var_next)
    if (e->cnst->lc != s->lsolve && !lmm_local_skip(e->cnst))
      local_add_cnst(s, e->cnst);
}

/* Every enabled variable (a > 0) of c joins V. */
static void local_add_all(lmm_system *s, const lmm_cnst *c) {
  for (lmm_elem *e = c->en_head; e; e = e->en_next)
    if (e->weight > 0)
      lmm_local_add_var(s, e->var);
}

/* The first V: the changed variables and those a changed constraint had fixed (they move
 * first); the checks bring in whatever else moves. */
static void local_seed(lmm_system *s) {
  for (size_t i = 0; i < s->n_dirty; i++)
    if (s->dirty[i]) {
      s->dirty[i]->dirty_slot = SLOT_NONE;
      lmm_local_add_var(s, s->dirty[i]);
    }
  s->n_dirty = 0;
  for (size_t i = 0; i < s->n_seeds; i++) {
    const lmm_cnst *c = s->seeds[i];
    if (c->n_fix == 0)
      continue; /* it fixes nothing (a FATPIPE backbone's thousands of flows: no walk) */
    for (lmm_elem *e = c->en_head; e; e = e->en_next)
      if (e->weight > 0 && e->var->fix_cnst == c)
        lmm_local_add_var(s, e->var);
  }
  s->n_seeds = 0;
}

/* Initialises c for a run over V: remaining = bound less what the variables outside V
 * (frozen) take (SHARED), usage from the elements of V, which alone are active. Returns -1
 * when the frozen variables leave c no room although V uses it (they must join V), 1 when
 * c takes part, 0 when not. */
static int local_init_cnst(lmm_system *s, lmm_cnst *c) {
  while (c->ac_head)
    make_inactive(c->ac_head);
  double frozen = 0.0;
  c->usage = 0.0;
  c->top_count = 0;
  c->S_run = 0.0;
  for (lmm_elem *e = c->en_head; e; e = e->en_next) {
    if (e->weight <= 0)
      continue;
    lmm_var *v = e->var;
    if (v->lv != s->lsolve) {
      frozen += e->weight * (v->proxy ? v->proxy->value / v->penalty : v->value);
      if (!c->fatpipe || !lmm_local_fp_top(e))
        continue;
    } else {
      v->value = 0.0;
      make_active(e);
    }
    lmm_usage_add(c, e->weight / v->penalty);
  }
  c->remaining = c->fatpipe ? c->bound : c->bound - frozen;
  if (!c->ac_head || !(c->usage > 0))
    return 0;
  if (!double_positive(c->remaining, c->bound * s->precision))
    return -1;
  return 1;
}

/* Whether the frozen variable of e would still be unfixed, hence count in the usage of its
 * FATPIPE constraint, when the filling reaches the level at which it alone saturates it,
 * bound / (a / p) (computed as the filling does): when the level at which it was fixed
 * (its bound times p when a bound fixed it, as the filling compares them) is not below. */
int lmm_local_fp_top(const lmm_elem *e) {
  const lmm_var *v = e->var;
  double level = v->proxy ? v->proxy->value : v->fix_cnst ? v->fix_level : v->bound * v->penalty;
  return e->weight > 0 && !(level < e->cnst->bound / (e->weight / v->penalty));
}

/* One run over V and C. Returns 0 when some frozen variables had to join V first (the run
 * is to be repeated). */
static int local_run(lmm_system *s) {
  s->n_solves++;
  double min_level = -1;
  int ok = 1;
  s->n_lights = 0;
  s->n_sat_cnsts = 0;
  for (size_t i = 0; i < s->n_lvars; i++)
    s->lvars[i]->value = 0.0;
  for (size_t i = 0; i < s->n_lcnsts; i++) { /* n_lcnsts may grow: a choked c widens V */
    lmm_cnst *c = s->lcnsts[i];
    c->light = -1;
    int r = local_init_cnst(s, c);
    if (r < 0) {
      local_add_all(s, c);
      ok = 0;
    }
    if (r <= 0 || !ok)
      continue;
    GROW(s->lights, s->lights_cap, s->n_lights + 1);
    int pos = (int)s->n_lights++;
    s->lights[pos] = (light){c->remaining / c->usage, c};
    c->light = pos;
    lmm_saturated_cnst_update(s, s->lights[pos].level, pos, &min_level);
  }
  if (!ok) { /* the next run re-initialises every constraint of C (active lists, lights) */
    s->n_lights = 0;
    s->n_sat_cnsts = 0;
    return 0;
  }
  lmm_fill(s, min_level);
  return 1;
}

/* Whether the frozen variable v still has a bottleneck: its bound, the constraint that
 * fixed it when that one is outside C (nothing on it changed), or a constraint of C that
 * is full with v at the top level on it (FATPIPE: v alone fills it, or the run saturated it
 * at v's level, which then fixes every variable on it, as the filling does). */
/* Whether a variable taking ax of FATPIPE c fills it (within LOCAL_TOL). */
static int fp_fills(const lmm_cnst *c, double ax) { return ax >= c->bound * (1 - LOCAL_TOL); }

/* c's load (sum, FATPIPE max, of a x), top level (max p x) and, FATPIPE, the lowest level
 * of a variable that fills it, over its enabled elements, computed once per check. */
static void local_load(const lmm_system *s, lmm_cnst *c) {
  if (c->load_chk == s->lchk)
    return;
  c->load_chk = s->lchk;
  double load = 0.0, maxlev = 0.0, fill = INFINITY;
  size_t n = 0;
  for (const lmm_elem *e = c->en_head; e; e = e->en_next) {
    if (e->weight <= 0)
      continue;
    double vx = vval(e->var), x = e->weight * vx;
    load = c->fatpipe ? dmax(load, x) : load + x;
    maxlev = dmax(maxlev, e->var->penalty * vx);
    if (c->fatpipe && fp_fills(c, x))
      fill = dmin(fill, e->var->penalty * vx);
    n++;
  }
  c->load_n = n;
  c->load = load;
  c->maxlev = maxlev;
  c->fill_lev = fill;
}

/* Whether SHARED c is full for a variable taking ax of it: what is left would raise it
 * by at most LOCAL_TOL of its share (plus the rounding of the load's sum), so a check at
 * the variable's scale, not the capacity's: a small share of a large link stays exact. */
static int local_full(const lmm_cnst *c, double ax) {
  return c->bound - c->load <= LOCAL_TOL * ax + 4e-16 * (double)c->load_n * c->bound;
}

static int local_certified(const lmm_system *s, lmm_var *v) {
  if (v->proxy)
    return 1; /* its proxy, on the class constraints, is checked (or solved) instead */
  if (!v->fix_cnst)
    return v->bound > 0 && v->value == v->bound;
  if (v->fix_cnst->lc != s->lsolve)
    return 1;
  double lev = v->penalty * v->value;
  for (const lmm_elem *e = v->elems; e; e = e->var_next) {
    lmm_cnst *c = e->cnst;
    if (e->weight <= 0 || c->lc != s->lsolve)
      continue;
    if (!c->fatpipe)
      local_load(s, c);
    if (c->fatpipe && fp_fills(c, e->weight * v->value)) {
      set_fix(v, c);
      v->fix_level = c->bound / (e->weight / v->penalty); /* c saturates there: fp_top */
      return 1;
    }
    if (!c->fatpipe ? local_full(c, e->weight * v->value) && lev >= c->maxlev * (1 - LOCAL_TOL)
                    : c->lsat_solve == s->n_solves && fabs(lev - c->lsat) <= c->lsat * LOCAL_TOL) {
      set_fix(v, c); /* its bottleneck now: a change there must re-solve it */
      return 1;
    }
  }
  return 0;
}

/* FATPIPE c saturates at sat (the lowest level of a variable filling it, within LOCAL_TOL):
 * a variable of V above it was solved without a frozen filler in c's usage (fixed, by
 * rounding, just below the level at which it fills c: lmm_local_fp_top), so the frozen
 * fillers join V, and the run is repeated with them. Returns how many joined. */
static size_t fp_fillers_in(lmm_system *s, const lmm_cnst *c, double sat) {
  int above = 0;
  for (const lmm_elem *e = c->en_head; e && !above; e = e->en_next)
    above = e->weight > 0 && e->var->lv == s->lsolve && e->var->penalty * e->var->value > sat;
  size_t n = 0;
  for (const lmm_elem *e = c->en_head; above && e; e = e->en_next)
    if (e->weight > 0 && e->var->lv != s->lsolve && fp_fills(c, e->weight * vval(e->var)))
      lmm_local_add_var(s, e->var), n++;
  return n;
}

/* After a run: every frozen variable on C keeps a bottleneck, and none is above the level
 * of a constraint the run saturated (it would have been fixed there). Those failing join
 * V; returns their number. */
static size_t local_check(lmm_system *s) {
  size_t nc = s->n_lcnsts, fails = 0;
  s->lchk++;
  for (size_t i = 0; i < s->n_lvars; i++) /* the inert FATPIPE constraints left out */
    for (const lmm_elem *e = s->lvars[i]->has_fp ? s->lvars[i]->elems : NULL; e; e = e->var_next)
      if (e->cnst->lc != s->lsolve && e->weight > 0 && lmm_local_skip(e->cnst) &&
          !(e->weight * e->var->value < e->cnst->bound * (1 - 1e-9))) {
        e->cnst->pinned = 1; /* in for good: rare, and then it matters */
        lmm_bun_evict(s, e->cnst, 1);
        local_add_cnst(s, e->cnst);
        fails++;
      }
  for (size_t i = 0; i < nc; i++) {
    lmm_cnst *c = s->lcnsts[i];
    if (c->lsat_solve != s->n_solves && c->n_fix == 0 && !c->fatpipe)
      continue; /* nothing above its level, no variable whose bottleneck it is */
    double sat = c->lsat_solve == s->n_solves ? c->lsat * (1 + LOCAL_TOL) : INFINITY;
    if (c->fatpipe) { /* saturated at the level of the lowest variable filling it */
      local_load(s, c);
      sat = dmin(sat, c->fill_lev * (1 + LOCAL_TOL));
      fails += fp_fillers_in(s, c, sat);
    }
    for (lmm_elem *e = c->en_head; e; e = e->en_next) {
      lmm_var *v = e->var;
      if (e->weight <= 0 || v->lv == s->lsolve)
        continue;
      if (v->penalty * vval(v) > sat) {
        lmm_local_add_var(s, v), fails++;
        s->n_above++;
        continue;
      }
      if (v->lchk == s->lchk)
        continue;
      v->lchk = s->lchk;
      if (!local_certified(s, v))
        lmm_local_add_var(s, v), fails++, s->n_uncert++;
    }
  }
  return fails;
}

/* V becomes the whole component of the current V (through every constraint). */
static void local_component(lmm_system *s) {
  for (size_t i = 0; i < s->n_lcnsts; i++) /* n_lcnsts grows as variables join */
    local_add_all(s, s->lcnsts[i]);
}

/* Lists the variables of V whose value changed (every enabled one the first time). */
static void local_list(lmm_system *s) {
  for (size_t i = 0; i < s->n_lvars; i++) {
    lmm_var *v = s->lvars[i];
    if (v->bun || (v->value == v->old_value && !v->relist))
      continue;
    v->relist = 0;
    lmm_out_push(s, v);
  }
}

/* lmm_grp_form's first test, over V alone: every variable of a group was fixed by one of the
 * last run's leading iterations (cheaper than a walk that fails late). */
static int local_groupable(const lmm_system *s) {
  if (s->n_sat_b == 0)
    return 0;
  for (size_t i = 0; i < s->n_lvars; i++) {
    const lmm_var *v = s->lvars[i];
    if (v->penalty > 0 && !grp_fixed_lead(s, v, s->n_sat_b))
      return 0;
  }
  return 1;
}

void lmm_local_solve(lmm_system *s) {
  s->lsolve++;
  s->n_lvars = s->n_lcnsts = 0;
  s->n_local++;
  local_seed(s);
  for (int round = 0;; round++) {
    if (round >= LOCAL_ROUNDS) { /* then no frozen variable is left on C: one more run */
      s->n_full += round == LOCAL_ROUNDS;
      local_component(s);
    }
    if (!local_run(s))
      continue;
    size_t fails = local_check(s);
    if (s->bun_min > 0)
      fails += lmm_bun_check(s);
    if (fails == 0)
      break;
    s->n_widen++;
  }
  if (s->verify)
    local_verify(s);
  local_list(s);
  s->sum_v += s->n_lvars;
  s->sum_c += s->n_lcnsts;
  s->sum_out += s->n_out;
  if (s->bun_min > 0 && !s->grp_on && !s->verify)
    lmm_bun_pass(s);
  if (s->auto_local && s->n_lvars >= LOCAL_AUTO_SIZE)
    lmm_auto_dense(s, s->n_lvars);
  if (s->auto_local)
    lmm_auto_local(s);
  if (!s->grp_on && !s->verify && bun_live(s) == 0 && s->n_lvars >= GRP_MIN && local_groupable(s)) {
    lmm_grp_form(s, s->n_lvars);
    if (s->grp_on) /* every variable of the group must be listed: the caller follows them */
      for (size_t i = 0; i < s->n_lvars; i++) {
        lmm_var *v = s->lvars[i];
        if (v->listed != s->round && v->grp_gen == s->grp_gen)
          lmm_out_push(s, v);
      }
  }
}

/* Debugging (LMM_VERIFY set): the values of V and of the frozen variables against a solve of
 * the whole component; prints the largest relative difference above 1e-12. */
static void local_verify(lmm_system *s) {
  size_t nv = s->n_lvars;
  double *keep = x_malloc((nv + 1) * sizeof *keep);
  for (size_t i = 0; i < nv; i++)
    keep[i] = s->lvars[i]->value;
  local_component(s);
  while (!local_run(s))
    ;
  double worst = 0;
  for (size_t i = 0; i < s->n_lvars; i++) {
    lmm_var *v = s->lvars[i];
    double was = i < nv ? keep[i] : v->old_value;
    double d = fabs(v->value - was) / dmax(fabs(v->value), 1e-300);
    if (d > worst)
      worst = d;
    if (i < nv)
      v->value = keep[i]; /* keep the local answer: the run goes on as without checking */
    else
      v->value = v->old_value;
  }
  if (worst > 1e-12)
    fprintf(stderr, "lmm verify: solve %llu: V %zu of %zu, worst %.3g\n", (unsigned long long)s->n_local, nv,
            s->n_lvars, worst);
  s->n_lvars = nv;
  free(keep);
}
