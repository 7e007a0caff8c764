/* lmm_slack.c - exact mode's left-out constraints: inert FATPIPE and slack SHARED ones.
 *
 * Inert FATPIPE (exact mode only). A FATPIPE constraint c has level bound_c / max_j a_jc/p_j
 * over its unfixed variables, i.e. min_j p_j bound_c / a_jc. A variable j of c is fixed at
 * a level no higher than p_j bound_k / a_jk for any other constraint k of j (k's level
 * while j is unfixed: remaining <= bound, usage >= a_jk / p_j). So when every enabled
 * variable of c has another constraint with bound_k / a_jk < bound_c / a_jc (penalties
 * cancel: "covered"), c stays strictly above the filling level, never saturates and never
 * fixes anything: it is left out of marking walks and of the solve (cnst_out), and no
 * longer ties the components of its variables together (a FATPIPE backbone). Each
 * element counts in n_uncov while its variable is enabled and it is not covered; c is
 * out while n_uncov == 0. Going out or coming back in, c is walked (fp_set), so that the
 * variables it may have fixed, or now connects, are re-solved. The argument has a gap:
 * the precision may drop k from the filling with j unfixed, and rounding may move
 * levels. So each run checks it (fp_verify: the highest level reached when j is fixed
 * must stay below bound_c / (a_jc / p_j), computed as the filling computes c's level;
 * fp_after_run: no variable left unfixed); a failing c is pinned in and the run is
 * repeated with it. A pinned c is released after a run in which it took part and every
 * variable of it passed the check (it never mattered). Values are those of the solve with
 * c (checked bit for bit on the FATPIPE stencils); fewer variables are re-solved and
 * handed out. Cost: O(elements of v) per enable or expand of a variable with a FATPIPE
 * element, one comparison per left-out element fixed, O(modified list) per run.
 *
 *
 * Slack SHARED constraints (exact mode only). The same for a SHARED constraint c that is
 * far from full. Let t_i = top_i / p_i, top_i the highest level the filling had reached
 * when it fixed i: x_i <= t_i (fixed at top_i / p_i, or at a bound below it). At any
 * iteration of level m, c's remaining minus m usage_c is bound_c - sum_fixed a x -
 * m sum_unfixed a / p >= bound_c - sum_i a_ic t_i (m <= top_i for i fixed later), so if
 * S_c = sum_i a_ic t_i < bound_c, c's level stays above m: c never saturates, never fixes
 * anything, and can be left out (cnst_out) like an inert FATPIPE; the levels reached by
 * the components it would join are the filling's levels anyway (they never decrease).
 * A SHARED constraint goes out (slack_release) after a run in which it took part, had
 * all its variables fixed and S_run <= 0.9 bound; while out it keeps S, the sum of its
 * enabled elements' contrib a t: a run that fixes one of its variables updates it
 * (slack_fixed), an enabled variable counts with a prediction (the smallest bound_k / a
 * over its other constraints: slack_enable), a leaving one is taken off. After each run,
 * every out constraint whose S it changed must have S <= (1 - 1e-6) bound (the margin
 * covers the rounding of S and of the filling's levels), and no variable may be left
 * unfixed on it; otherwise it comes back in (walked) and the run is repeated with it.
 * A prediction above the margin brings the constraint in at once. A variable whose value
 * must be recomputed and whose constraints are all out brings its tightest one in
 * (slack_ensure_in), and so do the variables of a FATPIPE going out. The group treats an
 * out constraint as any other (its variables must all be in the group, whose cap then
 * keeps it unsaturated). Checked: values bit-identical to a solve with every constraint in
 * on the stencils, and a SHARED backbone carrying few flows no longer ties them into one
 * component (the stencil's allreduce, the start of each halo exchange).
 * */
#include "lmm_impl.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLACK_LEAVE 0.9         /* a constraint goes out when S <= 0.9 bound */
#define SLACK_KEEP (1.0 - 1e-6) /* and stays out while S <= bound (1 - 1e-6) */

/* c (slack) comes back in: it is walked, so that what it connects is solved with it. */
static void slack_in(lmm_system *s, lmm_cnst *c) {
  c->slack = 0;
  lmm_mark_cnst(s, c);
}

/* The two smallest bound_k / a_vk over v's elements (a > 0), and the element of the
 * smallest: the smallest over the elements other than e is (e == *arg ? *min2 : *min1),
 * INFINITY when there is none. */
static void cap_mins(const lmm_var *v, double *min1, double *min2, const lmm_elem **arg) {
  *min1 = *min2 = INFINITY;
  *arg = NULL;
  for (const lmm_elem *e = v->elems; e; e = e->var_next) {
    if (e->weight <= 0)
      continue;
    double r = e->cnst->bound / e->weight;
    if (r < *min1) {
      *min2 = *min1;
      *min1 = r;
      *arg = e;
    } else if (r < *min2) {
      *min2 = r;
    }
  }
}

/* v was enabled: its elements on slack constraints count with a bound of v's value, the
 * smallest bound_k / a_vk over its other constraints; a constraint that may no longer be
 * slack comes in. */
void lmm_slack_enable(lmm_system *s, lmm_var *v) {
  double min1 = 0, min2 = 0;
  const lmm_elem *arg = NULL;
  int have = 0; /* min1, min2, arg computed (only when needed) */
  for (lmm_elem *e = v->elems; e; e = e->var_next) {
    lmm_cnst *c = e->cnst;
    if (c->fatpipe || !cnst_out(s, c) || e->weight <= 0)
      continue;
    if (!have)
      cap_mins(v, &min1, &min2, &arg), have = 1;
    e->contrib = e->weight * (e == arg ? min2 : min1);
    c->S += e->contrib;
    if (!(c->S <= c->bound * SLACK_KEEP))
      slack_in(s, c);
  }
}


/* v is disabled: its elements no longer count. */
void lmm_slack_leave(lmm_system *s, lmm_var *v) {
  for (lmm_elem *e = v->elems; e; e = e->var_next)
    slack_elem_leave(s, e);
}

/* A variable whose value must be recomputed needs a constraint in the solve other than
 * skip (NULL: none; a constraint about to go out): when all of them are out, the one with
 * the smallest bound / a comes in. */
void lmm_slack_ensure_in(lmm_system *s, const lmm_var *v, const lmm_cnst *skip) {
  const lmm_elem *best = NULL;
  for (const lmm_elem *e = v->elems; e; e = e->var_next) {
    if (e->weight <= 0 || e->cnst == skip)
      continue;
    if (!cnst_out(s, e->cnst))
      return;
    if (!best || e->cnst->bound / e->weight < best->cnst->bound / best->weight)
      best = e;
  }
  if (best && !best->cnst->fatpipe)
    slack_in(s, best->cnst);
}


/* Counts e in its constraint's n_uncov or not. The constraint is walked while it is still
 * in when it goes out (its variables, which it may have fixed, are re-solved without it),
 * and when it comes back in (what it connects is solved with it). */
static void fp_set(lmm_system *s, lmm_elem *e, int uncov) {
  lmm_cnst *c = e->cnst;
  if (e->uncov == uncov)
    return;
  e->uncov = (unsigned char)uncov;
  if (!uncov) {
    if (c->n_uncov == 1 && s->exact && !c->pinned) {
      for (const lmm_elem *x = c->en_head; x; x = x->en_next)
        lmm_slack_ensure_in(s, x->var, c); /* c may have fixed them: they need another */
      lmm_mark_cnst(s, c);
    }
    c->n_uncov--;
  } else if (++c->n_uncov == 1 && s->exact) {
    lmm_bun_evict(s, c, 0);
    lmm_mark_cnst(s, c);
  }
}

/* Recomputes which FATPIPE elements of the enabled variable v are covered: e on c is
 * covered when another constraint k of v has bound_k / a_vk < bound_c / a_vc (both
 * coefficients > 0). O(elements of v): with the two smallest ratios. */
void lmm_fp_cover(lmm_system *s, lmm_var *v) {
  if (!v->has_fp || v->penalty <= 0)
    return;
  double min1, min2;
  const lmm_elem *arg;
  cap_mins(v, &min1, &min2, &arg);
  for (lmm_elem *e = v->elems; e; e = e->var_next)
    if (e->cnst->fatpipe) {
      double other = e == arg ? min2 : min1;
      fp_set(s, e, e->weight > 0 && !(other < e->cnst->bound / e->weight));
    }
}

/* v is disabled or freed: its elements no longer count (v still attached). */
void lmm_fp_leave(lmm_system *s, lmm_var *v) {
  if (v->has_fp)
    for (lmm_elem *e = v->elems; e; e = e->var_next)
      fp_set(s, e, 0);
}

/* The solve found that c may not be left out: it is pinned in (and re-solved with). */
static void fp_pin(lmm_system *s, lmm_cnst *c) {
  if (c->pinned)
    return;
  c->pinned = 1;
  c->pin_solve = s->n_solves;
  GROW(s->pins, s->pins_cap, s->n_pins + 1);
  s->pins[s->n_pins++] = c;
}

/* v was just fixed with e on a left-out c: c's level with v unfixed, bound / (a / p)
 * (as the filling computes it), must stay strictly above every level reached so far. */
void lmm_fp_verify(lmm_system *s, const lmm_elem *e, const lmm_var *v) {
  if (e->weight > 0 && !(s->top_level < e->cnst->bound / (e->weight / v->penalty)))
    fp_pin(s, e->cnst);
}

/* Whether every enabled variable of c (coefficient > 0) was fixed by the last run strictly
 * below c's level with it unfixed: then c never saturated, and the run without c gives the
 * same values. */
static int fp_all_below(const lmm_system *s, const lmm_cnst *c) {
  for (const lmm_elem *e = c->en_head; e; e = e->en_next) {
    const lmm_var *v = e->var;
    if (e->weight > 0 &&
        (v->fix_solve != s->n_solves || !(v->fix_level < c->bound / (e->weight / v->penalty))))
      return 0;
  }
  return 1;
}

/* A left-out constraint found wrong by the last run comes back in (walked); returns 1. */
static int out_failed(lmm_system *s, lmm_cnst *c) {
  if (c->fatpipe)
    fp_pin(s, c); /* walked with the others by lmm_after_run */
  else
    slack_in(s, c);
  return 1;
}

/* After a run: checks the left-out constraints. A slack one must still have S within
 * SLACK_KEEP of its bound; a variable left unfixed (its constraints dropped by the
 * precision) may have had a left-out constraint fix it. Those come back in. A pinned
 * FATPIPE that took part and never mattered (fp_all_below) is released. Returns 1 when
 * the run must be repeated with what came back in. */
int lmm_after_run(lmm_system *s) {
  int again = 0;
  for (size_t i = 0; i < s->n_chk; i++)
    if (cnst_out(s, s->chk[i]) && !(s->chk[i]->S <= s->chk[i]->bound * SLACK_KEEP))
      again = out_failed(s, s->chk[i]);
  s->n_chk = 0;
  for (lmm_cnst *c = s->mod_head; c; c = c->mod_next) {
    if (c->pinned && c->pin_solve != s->n_solves && c->n_uncov == 0 && fp_all_below(s, c))
      c->pinned = 0; /* not pushed on pins: nothing to re-solve */
    for (const lmm_elem *a = c->ac_head; a; a = a->ac_next)
      for (const lmm_elem *e = a->var->elems; e; e = e->var_next)
        if (e->weight > 0 && cnst_out(s, e->cnst))
          again = out_failed(s, e->cnst);
  }
  for (size_t i = 0; i < s->n_pins; i++)
    lmm_mark_cnst(s, s->pins[i]);
  if (s->n_pins > 0)
    again = 1; /* pinned by lmm_fp_verify during the run: its values were computed without c */
  s->n_pins = 0;
  return again;
}

/* After the last run: a SHARED constraint that took part, had all its variables fixed and
 * S_run <= SLACK_LEAVE bound never saturated; it goes out (slack) with S = S_run. */
void lmm_slack_release(lmm_system *s) {
  for (lmm_cnst *c = s->mod_head; c; c = c->mod_next)
    if (!c->fatpipe && !c->slack && c->in_run == s->n_solves && !c->ac_head && c->en_head &&
        c->S_run <= c->bound * SLACK_LEAVE) {
      c->slack = 1;
      c->S = c->S_run;
    }
}
