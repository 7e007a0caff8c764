/* lmm.h - the linear max-min (LMM) flow-sharing solver: weighted max-min fairness with
 * bounds, SHARED and FATPIPE constraints, per-variable coefficients.
 *
 * The maths (as SimGrid's src/kernel/lmm/maxmin.cpp, which tir must equal to 1e-6):
 * variables x_i (flows, executions) have a sharing penalty p_i > 0 and an optional
 * upper bound b_i; constraints c (links, CPUs) have a capacity C_c and coefficients
 * a_ic >= 0. The solution maximises the minimum of p_i * x_i by progressive filling:
 *   1. usage_c = sum_i a_ic / p_i over the unfixed variables of c (FATPIPE: max_i);
 *      the candidate level of c is r_c = remaining_c / usage_c.
 *   2. m = min_c r_c; the saturated constraints are those with r_c == m.
 *   3. Among the unfixed variables of the saturated constraints, if some have
 *      b_i * p_i < m (b_i > 0), only those with the smallest b_i * p_i (equal within
 *      the precision) are fixed, to x_i = b_i; otherwise all of them are fixed to
 *      x_i = m / p_i (on a saturated FATPIPE too, even those with a small a/p).
 *   4. remaining_c -= a_ic * x_i for every constraint of a fixed variable (FATPIPE:
 *      remaining unchanged, usage recomputed as a max); constraints whose usage or
 *      remaining falls to 0 (within maxmin/precision) are dropped; repeat.
 * Example: one SHARED link of capacity 10, flow A with p=1, flow B with p=3, no bounds:
 *   usage = 1/1 + 1/3 = 4/3, m = 10 / (4/3) = 7.5, x_A = 7.5, x_B = 2.5 (A:B = 3:1).
 * The same two flows on a FATPIPE link of capacity 10: usage = max(1/1, 1/3) = 1,
 *   m = 10, x_A = 10, x_B = 10/3 (every variable of a saturated constraint is fixed at
 *   m / p_i); with equal penalties they get 10 each (no contention).
 *
 * A variable with penalty 0 is disabled (it takes no capacity, value 0): a flow in its
 * latency phase. Incremental solving: every change (new variable, expand, penalty,
 * bound, free) marks the constraints it touches as modified; lmm_solve re-solves only
 * the part of the system connected to modified constraints, and lmm_next_modified then
 * hands out every variable whose value may have changed.
 *
 * Ownership: the system owns constraints and variables; a variable's owner pointer is
 * the caller's. Memory errors exit (xalloc.h). */
#ifndef TIR_LMM_H
#define TIR_LMM_H

#include <stdint.h>

typedef struct lmm_system lmm_system;
typedef struct lmm_cnst lmm_cnst;
typedef struct lmm_var lmm_var;

/* precision: SimGrid's maxmin/precision (1e-5), used as in its double_update /
 * double_positive / double_equals helpers. Never NULL (memory errors exit). */
lmm_system *lmm_new(double precision);
/* Frees the system with every constraint and variable still in it (NULL: no-op). */
void lmm_free(lmm_system *s);

/* A constraint of capacity bound (> 0); fatpipe != 0 for FATPIPE sharing. */
lmm_cnst *lmm_cnst_new(lmm_system *s, double bound, int fatpipe);
double lmm_cnst_bound(const lmm_cnst *c);
/* Sum of a_ic * x_i over the enabled variables of c (the constraint's current usage,
 * e.g. a CPU's used flop/s for the energy model). FATPIPE: the max. */
double lmm_cnst_usage(const lmm_cnst *c);

/* A variable (value 0 until solved); penalty >= 0, 0 creates it disabled; bound <= 0
 * means unbounded (SimGrid applies only bounds > 0). */
lmm_var *lmm_var_new(lmm_system *s, void *owner, double penalty, double bound);
/* Adds coefficient coeff of v on c; if v already uses c, SHARED adds the coefficients,
 * FATPIPE keeps the max (SimGrid's System::expand). */
void lmm_expand(lmm_system *s, lmm_cnst *c, lmm_var *v, double coeff);
/* penalty >= 0; 0 disables v (value 0 at once), > 0 enables it again. */
void lmm_var_set_penalty(lmm_system *s, lmm_var *v, double penalty);
void lmm_var_set_bound(lmm_system *s, lmm_var *v, double bound);
/* Detaches v from its constraints and frees it: v is invalid afterwards. */
void lmm_var_free(lmm_system *s, lmm_var *v);

double lmm_var_value(const lmm_var *v);
double lmm_var_penalty(const lmm_var *v);
void *lmm_var_owner(const lmm_var *v);
/* The caller's pointer becomes owner (a variable handed from one action to another). */
void lmm_var_set_owner(lmm_var *v, void *owner);
double lmm_var_bound(const lmm_var *v);

/* Incremental mode. 0 (the default) marks constraints exactly as SimGrid 3.32 does,
 * blind spot included: a change to a variable (penalty, enabling, disabling, freeing,
 * expand) marks one of its constraints (the first, or the expanded one) and walks
 * from it only if it was not marked yet in the current round, so the variable's other
 * constraints (and what hangs on them) may not be re-solved. Example: links c0 = 10,
 * c1 = 4, u on c0, w on c1, v on both created disabled; after a solve, u's bound
 * changes then v is enabled: SimGrid gives u = v = 5, w = 4 (c1 over-used) where a
 * fresh solve gives u = 8, v = w = 2. 1 marks every constraint of the changed
 * variable: lmm_solve then gives the values of a from-scratch solve (to rounding).
 * Exact mode also leaves out the constraints that provably never saturate: a FATPIPE
 * whose every variable has another constraint with a smaller bound / coefficient, and a
 * SHARED one far from full (lmm_slack.c), checking after each
 * solve that they still do not; so that they no longer tie their variables into one
 * component: a change then re-solves and hands out only the variables of the changed one.
 * Set the mode before adding variables. */
void lmm_set_exact_incremental(lmm_system *s, int exact);

/* Local mode (implies exact mode): a change re-solves only the variables it can move. A
 * solve starts from the changed variables and those of the changed constraints (V), runs
 * the filling over them with what the other (frozen) variables take off each constraint,
 * then checks that every frozen variable on a constraint of V still has a bottleneck (a
 * full constraint on which it is at the top level, or its bound) and is not above the level
 * at which the run saturated one of its constraints; those failing join V and the run is
 * repeated (after 8 rounds, V becomes the whole component). The result is the max-min
 * solution to rounding (checks at a relative 1e-9), not bit-identical to a solve of the
 * component: the frozen variables' shares are subtracted in another order. The group is
 * kept (formed when a run covers a qualifying component); inert FATPIPE and slack SHARED
 * constraints are not used (the local solve does not walk components). lmm_next_modified
 * then lists only the variables whose value changed (and those entering or leaving the
 * group). Set the mode before adding variables. */
/* mode: 0 off, 1 local mode, 2 automatic: exact mode while it pays (its solves of small
 * components and its group are cheaper than the local checks), switching to local mode for
 * good once 32 solves have each re-solved 128 or more constraints or variables without
 * forming a group (desynchronised flows on a machine-wide component). */
void lmm_set_local(lmm_system *s, int mode);
/* 1 when the local mode is on (set, or switched on by the automatic mode). */
int lmm_local_on(const lmm_system *s);
/* 1 when the class mode is on (set with mode 3, or switched on by the automatic mode: after 32
 * large solves, or large solves of 8,192 variables in all, while the system held 4 variables
 * per constraint or more, from exact or local mode; for good). */
int lmm_class_on(const lmm_system *s);
/* Class mode: how many solves kept the iterations of the last solve before the first one a
 * change reached (restarts, lmm_class.c), and how many iterations they kept in all. */
uint64_t lmm_class_restarts(const lmm_system *s, uint64_t *kept);
/* Class mode: how many class edges splits handed over whole (lmm_class.c, split). */
uint64_t lmm_class_handovers(const lmm_system *s);
/* Class mode: how many times a variable went from one class to another (splits, merges). */
uint64_t lmm_class_moves(const lmm_system *s);
/* Class mode: constraints that start a solve above ratio x the last solve's top level are
 * left out until the filling comes near (lmm_class.c; 1.25 by default). The values do not
 * depend on it (tests use a low ratio to leave many out). */
void lmm_set_defer_ratio(lmm_system *s, double ratio);
/* Class mode: restarts on (1, the default) or off (0: every solve from the start). */
void lmm_set_class_restarts(lmm_system *s, int on);

/* The order of lmm_next_modified: 0 (the default) creation order; 1 SimGrid 3.32's, the
 * order in which its solve fills the modified action set (the re-solved constraints in
 * marking order, each one's enabled variables most recently enabled first). SimGrid
 * updates its action heap in that order, and its heap orders equal dates by their last
 * update: a caller reproducing SimGrid's ties needs this order. */
void lmm_set_simgrid_order(lmm_system *s, int on);
/* Marks c modified as SimGrid's update_modified_cnst_set does (c and what its enabled
 * variables reach): the next solve re-solves it. tir/simgrid-compat's stand-in for a
 * disabled variable SimGrid creates on c (a CPU sleep action, which uses no capacity). */
void lmm_cnst_touch(lmm_system *s, lmm_cnst *c);

/* Re-solves the modified part of the system (all of it on the first call); does
 * nothing when nothing changed since the last call. */
void lmm_solve(lmm_system *s);
/* After lmm_solve: returns the next variable whose value was recomputed (each once,
 * in a deterministic order: the order in which they were created, or SimGrid's with
 * lmm_set_simgrid_order), NULL when done.
 * These are the enabled variables with a coefficient > 0 on a re-solved constraint
 * (SimGrid's modified action set); a variable disabled by the caller is not listed
 * (its value became 0 at once). Each lmm_solve starts a new list; variables freed
 * meanwhile are skipped. */
lmm_var *lmm_next_modified(lmm_system *s);

/* Local mode's bundles (lmm_bundle.c): when a SHARED constraint is the bottleneck of n or
 * more variables (32 by default in local mode; 0: off), the variables it fixes, grouped by
 * the set of such constraints they use, are solved as one proxy variable each (their values
 * follow a level: see "Levels" below). */
void lmm_set_bundle_min(lmm_system *s, unsigned n);

/* Class mode's rate tolerance (0, the default: exact). Freeing a variable changes the rates
 * only through the constraints the last solve saturated: when none of its constraints was
 * saturated, no solve is needed (exact, whatever eps). With eps > 0, the removals on a
 * saturated constraint wait for the next solve while they are at most eps x the variables
 * that constraint fixed: the others keep their rates meanwhile (feasible, at most about eps
 * below their max-min share). An approximation: lmm.h's other promises hold to eps. */
void lmm_set_tolerance(lmm_system *s, double eps);

/* Levels: rates that change without a solve listing the variable. Three modes keep
 * variables at a shared level m (value m / penalty) and move m without listing them:
 * exact mode's group (lmm_group.c: levels 0 .. LMM_GROUP_LEVELS - 1, each the level of one
 * bottleneck of a component), local mode's bundles and class mode's classes (level
 * indices from LMM_GROUP_LEVELS on, one per bundle or class). The caller follows such a
 * variable through its level (the engine: one virtual clock per level) instead of through
 * lmm_next_modified:
 *  - lmm_var_level(v): v's level index now, -1 when v follows none (its value is then
 *    listed when it changes). A variable that joins, leaves or changes level is listed by
 *    lmm_next_modified (so the caller reads lmm_var_level of listed variables only).
 *  - lmm_level(s, k): level k's value; 0 for an index with no level now.
 *  - lmm_level_count(s): one more than the highest index given so far (it only grows; an
 *    index is reused only after a solve at which its level had no variable left).
 *  - lmm_next_level(s): after lmm_solve, the next index whose level may have changed, -1
 *    when done (the group's and the bundles' levels at every solve; only the classes whose
 *    level changed). A level not handed out kept its value. */
#define LMM_GROUP_LEVELS 4 /* indices of the group's levels */
int lmm_var_level(const lmm_var *v);
double lmm_level(const lmm_system *s, int k);
int lmm_level_count(const lmm_system *s);
int lmm_next_level(lmm_system *s);

#endif
