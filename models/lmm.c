/* lmm.c - the linear max-min solver: weighted progressive filling with selective update.
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
 * grow-only arrays: a solve allocates nothing once warm. Measured: a 2048-node
 * cluster with ~5,000 flows through its backbone (one component, 33,000 elements)
 * re-solves in about 0.5 ms; marking is a third of that, the filling another.
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
 * c (measured bit for bit on the FATPIPE stencils); fewer variables are re-solved and
 * handed out. Cost: O(elements of v) per enable or expand of a variable with a FATPIPE
 * element, one comparison per left-out element fixed, O(modified list) per run.
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
 * keeps it unsaturated). Measured: values bit-identical to a solve with every constraint
 * in on the stencils, and a SHARED backbone carrying few flows no longer ties them into
 * one component (the stencil's allreduce, the start of each halo exchange).
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
 *     constraint the run saturated would have been fixed there ("above"); otherwise j
 *     needs a bottleneck: its fix_cnst outside C (nothing on it changed), or a full
 *     constraint of C with j at its top level (or, FATPIPE, j alone filling it or the run
 *     saturating it at j's level), which becomes its fix_cnst. Failing variables join V and
 *     the run is repeated; after LOCAL_ROUNDS rounds V becomes the whole component.
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
 * listed). Costs: O(elements of C) per run instead of O(elements of the component): on
 * the 2,048-node fat tree, 9-15 variables and 20-27 constraints per solve. LMM_STATS
 * prints counters at lmm_free; LMM_VERIFY compares every local solve with a solve of its
 * component and prints the differences above 1e-12 (debugging). The automatic mode
 * (lmm_set_local(s, 2)) runs exact mode, whose component solves and group are cheaper on
 * small or lock-step systems, and switches to local mode for good after LOCAL_AUTO_SOLVES
 * solves of LOCAL_AUTO_SIZE or more constraints or variables that formed no group; the switch needs
 * nothing but the flag, as exact mode keeps fix_cnst and the invariant (every solve
 * re-solves whole components), and the slack flags it leaves are ignored in local mode.
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
 * No exact group forms while bundles exist. Measured: on the 2,048-node graphene stencil,
 * V from 400 to 15 per solve, the 20-iteration prefix 12.9 s -> 1.7 s, simulated times
 * unchanged to every printed digit on every bench case. */
#include "lmm.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

typedef struct lmm_elem lmm_elem;

#define GRP_K LMM_GROUP_LEVELS /* most levels in a group (see "Group") */
#ifndef BUN_MIN
#define BUN_MIN 32 /* variables fixed by one constraint that make it a class (see "Bundles") */
#endif

/* Makes room for need elements in the grow-only array arr (the call only when full). */
#define GROW(arr, cap, need)                                                            \
  do {                                                                                   \
    if ((need) > (cap))                                                                  \
      x_grow(&(arr), &(cap), (need), sizeof *(arr));                                     \
  } while (0)

/* ======================================================================
 * Pools: fixed-size objects carved from chunks, recycled through a free list.
 * ====================================================================== */

#define POOL_CHUNK 256 /* objects per chunk */

typedef struct pool {
  size_t size;     /* object size, rounded up to a multiple of sizeof(void *) */
  void *free_list; /* recycled objects, linked through their first word */
  void **chunks;   /* every chunk allocated, freed by pool_destroy */
  size_t nchunks;  /* chunks in use */
  size_t cap;      /* capacity of chunks */
} pool;

static void pool_init(pool *p, size_t size) {
  memset(p, 0, sizeof *p);
  p->size = (size + sizeof(void *) - 1) / sizeof(void *) * sizeof(void *);
}

static void pool_add_chunk(pool *p) {
  char *chunk = x_malloc(p->size * POOL_CHUNK);
  x_grow(&p->chunks, &p->cap, p->nchunks + 1, sizeof *p->chunks);
  p->chunks[p->nchunks++] = chunk;
  for (size_t i = POOL_CHUNK; i-- > 0;) {
    void **obj = (void **)(chunk + i * p->size);
    *obj = p->free_list;
    p->free_list = obj;
  }
}

/* An object with unspecified contents; never NULL. */
static void *pool_take(pool *p) {
  if (!p->free_list)
    pool_add_chunk(p);
  void **obj = p->free_list;
  p->free_list = *obj;
  return obj;
}

/* A zeroed object; never NULL. */
static void *pool_get(pool *p) {
  void *obj = pool_take(p);
  memset(obj, 0, p->size);
  return obj;
}

static void pool_put(pool *p, void *obj) {
  *(void **)obj = p->free_list;
  p->free_list = obj;
}

static void pool_destroy(pool *p) {
  for (size_t i = 0; i < p->nchunks; i++)
    free(p->chunks[i]);
  free(p->chunks);
  memset(p, 0, sizeof *p);
}

/* ======================================================================
 * Objects
 * ====================================================================== */

struct lmm_elem {
  lmm_cnst *cnst;              /* the constraint side */
  lmm_var *var;                /* the variable side */
  double weight;               /* a_ic, the consumption coefficient */
  lmm_elem *var_next;          /* next element of var, in creation order */
  lmm_elem *en_prev, *en_next; /* cnst's enabled list (var->penalty > 0) */
  lmm_elem *ac_prev, *ac_next; /* cnst's active list (solver's unfixed elements) */
  unsigned char enabled;       /* on the enabled list */
  unsigned char active;        /* on the active list */
  unsigned char uncov;         /* counted in cnst->n_uncov (see "Inert FATPIPE") */
  double contrib;              /* SHARED: a_ic t_i as counted in cnst->S (see "Slack") */
  unsigned char hidden;        /* a bundle member's element on a class constraint: off the
                                  enabled list, counted in the proxy's (see "Bundles") */
};

struct lmm_cnst {
  double bound;                  /* capacity C_c */
  double remaining;              /* solver: capacity not yet given to fixed variables */
  double usage;                  /* solver: sum (FATPIPE: max) of a_ic / p_i, unfixed i */
  int fatpipe;                   /* max instead of sum */
  int light;                     /* solver: index in the light table, -1 if not there */
  size_t top_count;              /* solver, FATPIPE: unfixed elements whose a/p == usage */
  size_t n_disabled;             /* elements whose variable has penalty 0 */
  size_t n_uncov;                /* FATPIPE: enabled elements (a > 0) not covered */
  int pinned;                    /* FATPIPE: kept in although n_uncov == 0 */
  uint64_t pin_solve;            /* system n_solves when it was pinned */
  int slack;                     /* SHARED: left out, never saturates (see "Slack") */
  double S;                      /* SHARED, slack: sum of its enabled elements' contrib */
  double S_run;                  /* SHARED: sum of a_ic t_i over the last run's fixed i */
  uint64_t in_run;               /* system n_solves of the last run it took part in */
  uint64_t chk_solve;            /* system n_solves when last put on the chk list */
  uint64_t lc;                   /* local: == system lsolve when in the solved set C */
  uint64_t lseed;                /* local: == system round when on the seed list */
  uint64_t lsat_solve;           /* local: system n_solves of the run that saturated it */
  double lsat;                   /* local: the level at which that run saturated it */
  double load;                   /* local check: sum (FATPIPE: max) of a x, enabled a > 0 */
  double maxlev;                 /* local check: max of p x over the same elements */
  uint64_t load_chk;             /* local check: == system lchk when load, maxlev are fresh */
  size_t load_n;                 /* local check: the number of terms of load */
  size_t n_fix;                  /* variables whose fix_cnst it is (set_fix) */
  int klass;                     /* bundles: a class constraint (SHARED, fixes or carries many) */
  size_t n_en;                   /* elements on the enabled list */
  size_t n_mem;                  /* bundles: enabled elements (a > 0) of members on it */
  uint64_t bchk;                 /* bundles: == system bchk when bload is fresh */
  double bload;                  /* bundles: load with every bundle at its promise */
  uint64_t grp_gen;              /* == system grp_gen: part of the group's component */
  double gu[GRP_K];              /* group: sum of a_ic / p_i over the variables of level k */
  size_t gcount;                 /* group: number of such elements */
  lmm_elem *en_head;             /* enabled elements, most recently enabled first */
  lmm_elem *ac_head;             /* active elements, most recently activated first */
  lmm_cnst *mod_prev, *mod_next; /* modified list links */
  int in_mod;                    /* on the modified list */
};

struct lmm_var {
  void *owner;          /* the caller's action */
  double penalty;       /* p_i; 0 = disabled */
  double bound;         /* b_i; <= 0 = unbounded (SimGrid tests bound > 0) */
  double value;         /* x_i after the last solve that reached it */
  lmm_elem *elems;      /* elements, creation order */
  lmm_elem *elems_tail; /* last element, for appending */
  lmm_var *sat_next;    /* solver: next in the saturated-variable queue */
  int in_sat;           /* solver: on the saturated-variable queue */
  uint64_t rank;        /* creation stamp: the order of lmm_next_modified */
  uint64_t visited;     /* == system round: already walked by marking this round */
  uint64_t listed;      /* == system round: already in the modified output */
  size_t out_slot;      /* index in the modified-output array, SIZE_MAX if none */
  size_t fast_slot;     /* index in the system's fast array, SIZE_MAX if none */
  lmm_var *all_prev;    /* previous live variable (creation order) */
  lmm_var *all_next;    /* next live variable (creation order) */
  const lmm_system *sys; /* owner system, for the value of a grouped variable */
  uint64_t grp_gen;     /* == system grp_gen: value is grp_lv[gidx] / penalty */
  uint64_t fix_round;   /* == system n_solves: fixed at iteration gidx of that solve */
  int gidx;             /* group level (or solve iteration) of the variable */
  uint64_t fix_solve;   /* == system n_solves: fixed by that solve, at level fix_level */
  double fix_level;     /* highest filling level reached when it was fixed */
  double fix_t;         /* fix_level / penalty: bounds its value (see "Slack") */
  int has_fp;           /* has an element on a FATPIPE constraint */
  lmm_cnst *fix_cnst;   /* the saturated constraint that fixed it (NULL: its bound) */
  double old_value;     /* local: value before the solve that put it in V */
  uint64_t lv;          /* local: == system lsolve when in the re-solved set V */
  uint64_t lchk;        /* local: == system lchk when its bottleneck was checked */
  size_t dirty_slot;    /* local: index in the system's dirty array, SIZE_MAX if none */
  int relist;           /* local: left a group, to be listed by the next solve */
  lmm_var *proxy;       /* bundles: the proxy of v's bundle (v a member), else NULL */
  struct lmm_bundle *bun; /* bundles: v is the proxy of this bundle */
  size_t bslot;         /* bundles: index among the bundle's members */
};

/* A bundle (see "Bundles"): members sharing one level, represented in the system by a
 * proxy variable of penalty 1 whose element on each class constraint of theirs weighs
 * sum a_ic / p_i; member i's value is proxy value / p_i. */
typedef struct lmm_bundle {
  lmm_var *proxy;   /* no bound, no owner: its value is the members' level */
  lmm_var **mem;    /* the members */
  size_t n, cap;    /* their number and the array's capacity */
  double kappa;     /* promised highest level: the members' other constraints afford it */
  double min_bp;    /* smallest b_i p_i of a bounded member (INFINITY: none) */
  size_t churn;     /* weight updates since the proxy's weights were recomputed */
  int id;           /* level index lmm_var_group gives: LMM_GROUP_LEVELS + id */
} lmm_bundle;

typedef struct light {
  double level;   /* remaining / usage of cnst */
  lmm_cnst *cnst; /* a constraint still taking part in the filling */
} light;

typedef struct mark_frame {
  lmm_cnst *cnst;  /* constraint whose enabled elements are walked */
  lmm_elem *elem;  /* current enabled element of cnst (NULL: done) */
  lmm_elem *inner; /* next element of elem->var to look at */
} mark_frame;

struct lmm_system {
  double precision;          /* maxmin/precision (SimGrid's sg_maxmin_precision) */
  int exact;                 /* lmm_set_exact_incremental */
  int sg_order;              /* lmm_set_simgrid_order: modified output not sorted */
  int modified;              /* something changed since the last solve */
  uint64_t round;            /* marking round, bumped after each solve */
  uint64_t next_rank;        /* creation stamp of the next variable */
  lmm_var *all_head;         /* live variables, creation order */
  lmm_var *all_tail;         /* the last one created */
  size_t n_vars;             /* live variables */
  pool cnst_pool;            /* owns every lmm_cnst */
  pool var_pool;             /* owns every lmm_var */
  pool elem_pool;            /* owns every lmm_elem */
  lmm_cnst *mod_head;        /* modified list, marking order */
  lmm_cnst *mod_tail;        /* its last constraint */
  size_t n_mod;              /* its length */
  mark_frame *stack;         /* marking's depth-first stack */
  size_t stack_cap;          /* its capacity */
  light *lights;             /* solver: constraints still being filled */
  size_t n_lights, lights_cap; /* its length and capacity */
  int *sat_cnsts;            /* solver: light indices at the minimum level */
  size_t n_sat_cnsts, sat_cnsts_cap; /* its length and capacity */
  lmm_var *sat_head;         /* solver: saturated-variable queue (FIFO) */
  lmm_var *sat_tail;         /* its last variable */
  lmm_var **out;             /* variables recomputed by the last solve, by rank */
  size_t n_out, out_cap, out_pos; /* its length, capacity, next to hand out */
  int grp_on;                /* exact mode: a group is active (see "Group") */
  uint64_t grp_gen;          /* generation stamp of the group (bumped on dissolve) */
  int grp_k;                 /* number of levels of the group */
  lmm_cnst *grp_b[GRP_K];    /* the bottleneck B_k of each level */
  double grp_lv[GRP_K];      /* the levels m_k, increasing */
  double grp_cap;            /* lower bound on every other level and b_i * p_i */
  size_t grp_n;              /* variables in the group */
  size_t grp_events;         /* fast changes since the group was formed */
  lmm_var **fast;            /* variables that joined the group this round */
  size_t n_fast, fast_cap;   /* its length and capacity */
  lmm_cnst *sat_b[GRP_K];    /* solver: the constraint saturated alone by iteration k */
  int n_sat_b;               /* solver: leading iterations that saturated one alone */
  lmm_cnst **walk;           /* grp_form's stack of constraints to scan */
  size_t walk_cap;           /* its capacity */
  uint64_t n_solves;         /* filling runs so far (stamps fix_round, fix_solve) */
  double top_level;          /* solver: highest level reached so far in this run */
  int has_fp;                /* some constraint is FATPIPE */
  lmm_var **tmp;             /* order_out's merge buffer */
  size_t tmp_cap;            /* its capacity */
  lmm_cnst **chk;            /* slack constraints whose S the last run changed */
  size_t n_chk, chk_cap;     /* its length and capacity */
  lmm_cnst **pins;           /* inert FATPIPE constraints found wrong by the last run */
  size_t n_pins, pins_cap;   /* its length and capacity */
  int local;                 /* lmm_set_local: verified local re-solves (see "Local") */
  uint64_t lsolve;           /* local: solve stamp of V and C */
  uint64_t lchk;             /* local: check stamp */
  lmm_cnst **seeds;          /* local: constraints changed this round */
  size_t n_seeds, seeds_cap; /* its length and capacity */
  lmm_var **dirty;           /* local: variables changed this round (enabled, bound, expand) */
  size_t n_dirty, dirty_cap; /* its length and capacity */
  lmm_var **lvars;           /* local: V, the variables re-solved */
  size_t n_lvars, lvars_cap; /* its length and capacity */
  lmm_cnst **lcnsts;         /* local: C, every constraint of a variable of V */
  size_t n_lcnsts, lcnsts_cap; /* its length and capacity */
  lmm_cnst **satc;           /* local: the constraints saturated by the current iteration */
  size_t satc_cap;           /* its capacity */
  uint64_t n_local, n_widen, n_full; /* local: solves, widenings, fallbacks to a component */
  int verify;                /* local: LMM_VERIFY set (debugging) */
  int auto_local;            /* lmm_set_local(s, 2): switch to local mode on large solves */
  uint64_t n_big;            /* auto: solves of a large component that formed no group */
  uint64_t sum_mod, n_exact; /* exact-mode solves and their constraints, for LMM_STATS */
  uint64_t sum_v, sum_c, sum_out; /* local: totals of V, C and listed, for LMM_STATS */
  uint64_t n_above, n_uncert; /* local: check failures of each kind, for LMM_STATS */
  size_t bun_min;            /* bundles: n_fix that makes a class constraint (0: off) */
  lmm_bundle **buns;         /* bundles by id (NULL: a free id) */
  size_t n_buns, buns_cap;   /* ids given so far (the caller's level count: + GRP_K) */
  int *free_ids;             /* ids free for reuse */
  size_t n_free_ids, free_ids_cap; /* its length and capacity */
  int *pend_ids;             /* ids freed by this solve, reusable from the next one */
  size_t n_pend_ids, pend_ids_cap; /* its length and capacity */
  lmm_var **btmp;            /* bundles: candidates of a class being formed */
  size_t btmp_cap;           /* its capacity */
  uint64_t bchk;             /* bundles: stamp of bload */
  uint64_t n_bjoin, n_bleave, n_promise, n_bnew; /* bundles: counters, for LMM_STATS */
};

/* v's value: a member's follows its proxy. */
static inline double vval(const lmm_var *v) { return v->proxy ? v->proxy->value / v->penalty : v->value; }

/* Live bundles. */
static size_t bun_live(const lmm_system *s) { return s->n_buns - s->n_free_ids - s->n_pend_ids; }

/* v's bottleneck becomes c (NULL: its bound, or none), counted in c->n_fix: a constraint
 * that fixes no variable needs no bottleneck check in local mode. */
static inline void set_fix(lmm_var *v, lmm_cnst *c) {
  if (v->fix_cnst)
    v->fix_cnst->n_fix--;
  v->fix_cnst = c;
  if (c)
    c->n_fix++;
}

/* SimGrid's precision helpers (src/surf/surf_interface.hpp): subtract and snap small
 * results to 0; strictly greater than the precision; closer than the precision. */
static void double_update(double *x, double delta, double precision) {
  *x -= delta;
  if (*x < precision)
    *x = 0.0;
}
static int double_positive(double x, double precision) { return x > precision; }
/* fmin / fmax for numbers (never NaN here), inline instead of libm calls. */
static double dmin(double a, double b) { return b < a ? b : a; }
static double dmax(double a, double b) { return b > a ? b : a; }
static int double_equals(double a, double b, double precision) {
  return fabs(a - b) < precision;
}

/* ======================================================================
 * Intrusive lists
 * ====================================================================== */

static void enabled_push_front(lmm_cnst *c, lmm_elem *e) {
  e->en_prev = NULL;
  e->en_next = c->en_head;
  if (c->en_head)
    c->en_head->en_prev = e;
  c->en_head = e;
  e->enabled = 1;
  c->n_en++;
}

static void enabled_remove(lmm_cnst *c, lmm_elem *e) {
  if (e->en_prev)
    e->en_prev->en_next = e->en_next;
  else
    c->en_head = e->en_next;
  if (e->en_next)
    e->en_next->en_prev = e->en_prev;
  e->en_prev = e->en_next = NULL;
  e->enabled = 0;
  c->n_en--;
}

static void make_inactive(lmm_elem *e) {
  if (!e->active)
    return;
  lmm_cnst *c = e->cnst;
  if (e->ac_prev)
    e->ac_prev->ac_next = e->ac_next;
  else
    c->ac_head = e->ac_next;
  if (e->ac_next)
    e->ac_next->ac_prev = e->ac_prev;
  e->ac_prev = e->ac_next = NULL;
  e->active = 0;
}

/* Pushes e at the front of its constraint's active list. SimGrid pushes without
 * checking; an element left active by an earlier solve (a variable never fixed because
 * its constraints were all dropped by the precision test) is moved to the front. */
static void make_active(lmm_elem *e) {
  lmm_cnst *c = e->cnst;
  make_inactive(e);
  e->ac_prev = NULL;
  e->ac_next = c->ac_head;
  if (c->ac_head)
    c->ac_head->ac_prev = e;
  c->ac_head = e;
  e->active = 1;
}

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

/* Exact mode: c is an inert FATPIPE constraint, left out of marking and solving (see
 * "Inert FATPIPE" in the file comment). */
static int cnst_out(const lmm_system *s, const lmm_cnst *c) {
  if (!s->exact || s->local)
    return 0;
  return c->fatpipe ? c->n_uncov == 0 && !c->pinned : c->slack;
}

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

static void seed_add(lmm_system *s, lmm_cnst *c);
static void dirty_add(lmm_system *s, lmm_var *v);

static inline void mark_cnst(lmm_system *s, lmm_cnst *c) {
  if (s->local) {
    seed_add(s, c); /* no walk: the local solve starts from the seeds */
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
    dirty_add(s, v);
  mark_cnst(s, v->elems->cnst);
  if (s->exact)
    for (lmm_elem *e = v->elems->var_next; e; e = e->var_next)
      mark_cnst(s, e->cnst);
}

/* ======================================================================
 * Slack SHARED constraints (exact mode; the idea is in the file comment)
 * ====================================================================== */

#define SLACK_LEAVE 0.9         /* a constraint goes out when S <= 0.9 bound */
#define SLACK_KEEP (1.0 - 1e-6) /* and stays out while S <= bound (1 - 1e-6) */

/* c (slack) comes back in: it is walked, so that what it connects is solved with it. */
static void slack_in(lmm_system *s, lmm_cnst *c) {
  c->slack = 0;
  mark_cnst(s, c);
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
static void slack_enable(lmm_system *s, lmm_var *v) {
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

/* e's variable is disabled or freed: e no longer counts in its (slack) constraint. Only
 * enabled elements count in S (a disabled one may keep the contrib of a run before its
 * constraint went out). */
static inline void slack_elem_leave(const lmm_system *s, lmm_elem *e) {
  if (e->enabled && !e->cnst->fatpipe && cnst_out(s, e->cnst)) {
    e->cnst->S -= e->contrib;
    e->contrib = 0.0;
  }
}

/* v is disabled: its elements no longer count. */
static void slack_leave(lmm_system *s, lmm_var *v) {
  for (lmm_elem *e = v->elems; e; e = e->var_next)
    slack_elem_leave(s, e);
}

/* A variable whose value must be recomputed needs a constraint in the solve other than
 * skip (NULL: none; a constraint about to go out): when all of them are out, the one with
 * the smallest bound / a comes in. */
static void slack_ensure_in(lmm_system *s, const lmm_var *v, const lmm_cnst *skip) {
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

/* The variable of e was fixed by a run, with value bound t per unit of coefficient: e's
 * contribution to its (slack) constraint becomes a t; the constraint is checked after. */
static void slack_fixed(lmm_system *s, lmm_elem *e, double t) {
  lmm_cnst *c = e->cnst;
  c->S += e->weight * t - e->contrib;
  e->contrib = e->weight * t;
  if (c->chk_solve != s->n_solves) {
    c->chk_solve = s->n_solves;
    GROW(s->chk, s->chk_cap, s->n_chk + 1);
    s->chk[s->n_chk++] = c;
  }
}

static void bun_leave(lmm_system *s, lmm_var *v);
static void bun_out(lmm_system *s, lmm_var *v);

/* FATPIPE c may now saturate (it fixes every variable on it then): bundle members on it
 * leave their bundles, and join V when a solve is running (in_solve). */
static void bun_evict(lmm_system *s, lmm_cnst *c, int in_solve) {
  if (c->n_mem == 0)
    return;
  for (lmm_elem *e = c->en_head; e; e = e->en_next)
    if (e->var->proxy) {
      if (in_solve)
        bun_out(s, e->var);
      else
        bun_leave(s, e->var);
    }
}

/* ======================================================================
 * Inert FATPIPE constraints (exact mode; the idea is in the file comment)
 * ====================================================================== */

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
        slack_ensure_in(s, x->var, c); /* c may have fixed them: they need another */
      mark_cnst(s, c);
    }
    c->n_uncov--;
  } else if (++c->n_uncov == 1 && s->exact) {
    bun_evict(s, c, 0);
    mark_cnst(s, c);
  }
}

/* Recomputes which FATPIPE elements of the enabled variable v are covered: e on c is
 * covered when another constraint k of v has bound_k / a_vk < bound_c / a_vc (both
 * coefficients > 0). O(elements of v): with the two smallest ratios. */
static void fp_cover(lmm_system *s, lmm_var *v) {
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
static void fp_leave(lmm_system *s, lmm_var *v) {
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
static void fp_verify(lmm_system *s, const lmm_elem *e, const lmm_var *v) {
  if (e->weight > 0 && !(s->top_level < e->cnst->bound / (e->weight / v->penalty)))
    fp_pin(s, e->cnst);
}

/* ======================================================================
 * Group: exact mode's fast path for a component with one bottleneck
 * ====================================================================== */
/* (the idea and invariants are in the file comment) */

static lmm_elem *find_elem(const lmm_var *v, const lmm_cnst *c) {
  for (lmm_elem *e = v->elems; e; e = e->var_next)
    if (e->cnst == c)
      return e;
  return NULL;
}

#ifndef LMM_GRP_MIN
#define LMM_GRP_MIN 16 /* the smallest component worth grouping (in variables) */
#endif
#define GRP_MIN LMM_GRP_MIN

/* lmm_set_local(s, 2): exact mode until LOCAL_AUTO_SOLVES solves have each re-solved at
 * least LOCAL_AUTO_SIZE constraints or variables without forming a group, local mode after
 * (variables too: slack constraints left out of a solve do not shrink that count). */
#define LOCAL_AUTO_SIZE 128
#define LOCAL_AUTO_SOLVES 32

enum { GRP_OUTSIDE, GRP_JOIN, GRP_CONFLICT };

static int grp_has(const lmm_system *s, uint64_t gen) { return s->grp_on && gen == s->grp_gen; }

static void gu_clear(lmm_cnst *c) {
  for (int k = 0; k < GRP_K; k++)
    c->gu[k] = 0.0;
  c->gcount = 0;
}

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
static void grp_dissolve(lmm_system *s) {
  if (!s->grp_on)
    return;
  for (int k = 0; k < s->grp_k; k++)
    for (lmm_elem *e = s->grp_b[k]->en_head; e; e = e->en_next)
      if (e->var->grp_gen == s->grp_gen) {
        e->var->value = s->grp_lv[e->var->gidx] / e->var->penalty;
        if (s->local) { /* re-solved and listed: the caller follows it through a level */
          e->var->relist = 1;
          dirty_add(s, e->var);
        }
      }
  s->grp_on = 0;
  s->grp_gen++;
  s->modified = 1;
  for (int k = 0; k < s->grp_k; k++)
    mark_cnst(s, s->grp_b[k]);
}

/* Whether some constraint of v belongs to the group's component. */
static int grp_touches(const lmm_system *s, const lmm_var *v) {
  for (const lmm_elem *e = v->elems; e; e = e->var_next)
    if (grp_has(s, e->cnst->grp_gen))
      return 1;
  return 0;
}

/* Dissolves the group before a change that the fast path does not handle. */
static void grp_guard(lmm_system *s, const lmm_var *v) {
  if (s->grp_on && (grp_has(s, v->grp_gen) || grp_touches(s, v)))
    grp_dissolve(s);
}

/* How the enabling of v relates to the group: it joins it when it uses some B_k and its
 * other constraints are in the component or unused; it conflicts when it would connect
 * the component to other enabled variables (or a FATPIPE constraint). *level is v's
 * level, the first B_k it uses (coefficient > 0), when it joins. One pass over v. */
static int grp_check(const lmm_system *s, const lmm_var *v, int *level) {
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
    grp_dissolve(s);
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
static void grp_join(lmm_system *s, lmm_var *v, int k) {
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

/* The element e of a grouped variable being freed leaves its constraint's sums. */
static void grp_elem_leave(lmm_system *s, lmm_elem *e) {
  lmm_cnst *c = e->cnst;
  if (e->weight > 0)
    c->gu[e->var->gidx] -= e->weight / e->var->penalty;
  if (--c->gcount == 0) {
    gu_clear(c);
    c->grp_gen = 0; /* leaves the component */
  }
  (void)s;
}

/* After a grouped variable was detached: the levels rise. */
static void grp_after_leave(lmm_system *s) {
  if (--s->grp_n == 0) {
    s->grp_on = 0;
    s->grp_gen++;
    return;
  }
  s->modified = 1;
  grp_settle(s);
}

/* Whether the last run fixed v in one of its first k iterations (those that each saturated
 * one constraint alone: the group's levels). */
static int grp_fixed_lead(const lmm_system *s, const lmm_var *v, int k) {
  return v->fix_round == s->n_solves && v->gidx >= 0 && v->gidx < k;
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
static void grp_form(lmm_system *s, size_t n_solved) {
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

/* ======================================================================
 * System, constraints, variables
 * ====================================================================== */

lmm_system *lmm_new(double precision) {
  lmm_system *s = x_calloc(1, sizeof *s);
  s->precision = precision;
  s->round = 1;
  s->next_rank = 1;
  pool_init(&s->cnst_pool, sizeof(lmm_cnst));
  pool_init(&s->var_pool, sizeof(lmm_var));
  pool_init(&s->elem_pool, sizeof(lmm_elem));
  return s;
}

void lmm_free(lmm_system *s) {
  if (!s)
    return;
  if (getenv("LMM_STATS")) {
    fprintf(stderr, "lmm: %s mode, %llu large solves without a group; %llu exact-mode solves of %.1f constraints\n",
            s->local ? "local" : s->exact ? "exact" : "SimGrid", (unsigned long long)s->n_big,
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
  }
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
  pool_destroy(&s->var_pool);
  pool_destroy(&s->elem_pool);
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

void lmm_set_local(lmm_system *s, int mode) {
  s->local = mode == 1;
  s->auto_local = mode == 2;
  if (mode)
    s->exact = 1;
  s->verify = getenv("LMM_VERIFY") != NULL;
  s->bun_min = mode ? BUN_MIN : 0;
}

void lmm_set_bundle_min(lmm_system *s, unsigned n) { s->bun_min = n; }

lmm_cnst *lmm_cnst_new(lmm_system *s, double bound, int fatpipe) {
  lmm_cnst *c = pool_get(&s->cnst_pool);
  c->bound = bound;
  c->fatpipe = fatpipe != 0;
  c->light = -1;
  s->has_fp |= c->fatpipe;
  return c;
}

double lmm_cnst_bound(const lmm_cnst *c) { return c->bound; }

double lmm_cnst_usage(const lmm_cnst *c) {
  double u = 0.0;
  for (const lmm_elem *e = c->en_head; e; e = e->en_next) {
    if (e->weight <= 0)
      continue;
    double x = e->weight * lmm_var_value(e->var);
    u = c->fatpipe ? dmax(u, x) : u + x;
  }
  return u;
}

lmm_var *lmm_var_new(lmm_system *s, void *owner, double penalty, double bound) {
  assert(penalty >= 0);
  lmm_var *v = pool_get(&s->var_pool);
  v->owner = owner;
  v->penalty = penalty;
  v->bound = bound;
  v->rank = s->next_rank++;
  v->visited = s->round - 1;
  v->listed = s->round - 1;
  v->out_slot = SIZE_MAX;
  v->fast_slot = SIZE_MAX;
  v->dirty_slot = SIZE_MAX;
  v->sys = s;
  v->all_prev = s->all_tail;
  if (s->all_tail)
    s->all_tail->all_next = v;
  else
    s->all_head = v;
  s->all_tail = v;
  s->n_vars++;
  return v;
}

static inline lmm_elem *new_elem(lmm_system *s, lmm_cnst *c, lmm_var *v, double coeff) {
  lmm_elem *e = pool_take(&s->elem_pool);
  *e = (lmm_elem){.cnst = c, .var = v, .weight = coeff}; /* every other field zero */
  v->has_fp |= c->fatpipe;
  if (v->elems_tail)
    v->elems_tail->var_next = e;
  else
    v->elems = e;
  v->elems_tail = e;
  if (v->penalty != 0.0)
    enabled_push_front(c, e);
  else
    c->n_disabled++;
  return e;
}

/* lmm_expand of an enabled variable, or in SimGrid's mode: kept out of line, so that the
 * common case (a flow's route expanded while its variable is disabled) stays small. */
static void expand_marking(lmm_system *s, lmm_cnst *c, lmm_var *v, double coeff, lmm_elem *e);

void lmm_expand(lmm_system *s, lmm_cnst *c, lmm_var *v, double coeff) {
  lmm_elem *e = find_elem(v, c);
  if (s->exact && v->penalty <= 0) {
    /* A disabled variable takes no capacity: no value can change, nothing to mark
     * (enabling it later marks every constraint it uses). */
    if (!e)
      new_elem(s, c, v, coeff);
    else
      e->weight = c->fatpipe ? dmax(e->weight, coeff) : e->weight + coeff;
    return;
  }
  expand_marking(s, c, v, coeff, e);
}

__attribute__((noinline)) static void expand_marking(lmm_system *s, lmm_cnst *c, lmm_var *v,
                                                      double coeff, lmm_elem *e) {
  if (v->proxy)
    bun_leave(s, v);
  grp_guard(s, v);
  if (grp_has(s, c->grp_gen))
    grp_dissolve(s);
  s->modified = 1;
  if (!e)
    e = new_elem(s, c, v, coeff);
  else if (c->fatpipe)
    e->weight = dmax(e->weight, coeff);
  else
    e->weight += coeff;
  fp_cover(s, v);
  if (!c->fatpipe && cnst_out(s, c))
    c->slack = 0; /* simpler than re-counting its S: in again (walked just below) */
  if (e->weight > 0 || v->penalty > 0)
    mark_cnst(s, c);
  if (s->exact)
    mark_from_var(s, v); /* c may have been marked already: reach v's other constraints */
}

static void enable_var(lmm_system *s, lmm_var *v, double penalty) {
  int level = GRP_K;
  int how = s->grp_on ? grp_check(s, v, &level) : GRP_OUTSIDE;
  if (how == GRP_CONFLICT)
    grp_dissolve(s);
  v->penalty = penalty;
  for (lmm_elem *e = v->elems; e; e = e->var_next) {
    e->cnst->n_disabled--;
    enabled_push_front(e->cnst, e);
  }
  if (how == GRP_JOIN) {
    grp_join(s, v, level);
    return;
  }
  slack_enable(s, v);
  fp_cover(s, v);
  slack_ensure_in(s, v, NULL);
  mark_from_var(s, v); /* after the move: the walk must see v */
}

static void disable_var(lmm_system *s, lmm_var *v) {
  mark_from_var(s, v); /* before the move: the walk must see v */
  fp_leave(s, v);
  slack_leave(s, v);
  for (lmm_elem *e = v->elems; e; e = e->var_next) {
    enabled_remove(e->cnst, e);
    e->cnst->n_disabled++;
    make_inactive(e);
  }
  v->penalty = 0.0;
  v->value = 0.0;
  set_fix(v, NULL);
}

void lmm_var_set_penalty(lmm_system *s, lmm_var *v, double penalty) {
  assert(penalty >= 0);
  if (penalty == v->penalty)
    return;
  s->modified = 1;
  if (v->proxy)
    bun_leave(s, v);
  if (penalty > 0 && v->penalty <= 0) {
    enable_var(s, v, penalty);
    return;
  }
  grp_guard(s, v);
  if (penalty <= 0 && v->penalty > 0) {
    disable_var(s, v);
  } else {
    v->penalty = penalty;
    if (s->exact)
      slack_ensure_in(s, v, NULL);
    mark_from_var(s, v);
  }
}

void lmm_var_set_bound(lmm_system *s, lmm_var *v, double bound) {
  if (v->proxy)
    bun_leave(s, v);
  grp_guard(s, v);
  s->modified = 1;
  v->bound = bound;
  if (s->local && v->penalty > 0)
    dirty_add(s, v);
  if (s->exact && v->penalty > 0)
    slack_ensure_in(s, v, NULL);
  for (lmm_elem *e = v->elems; e; e = e->var_next)
    mark_cnst(s, e->cnst);
}

/* Takes v off the live list and off the modified output. */
static void var_unlink(lmm_system *s, lmm_var *v) {
  if (v->all_prev)
    v->all_prev->all_next = v->all_next;
  else
    s->all_head = v->all_next;
  if (v->all_next)
    v->all_next->all_prev = v->all_prev;
  else
    s->all_tail = v->all_prev;
  s->n_vars--;
  if (v->out_slot != SIZE_MAX && v->out_slot < s->n_out && s->out[v->out_slot] == v)
    s->out[v->out_slot] = NULL;
  if (v->fast_slot != SIZE_MAX && v->fast_slot < s->n_fast && s->fast[v->fast_slot] == v)
    s->fast[v->fast_slot] = NULL;
  if (v->dirty_slot != SIZE_MAX && v->dirty_slot < s->n_dirty && s->dirty[v->dirty_slot] == v)
    s->dirty[v->dirty_slot] = NULL;
}

void lmm_var_free(lmm_system *s, lmm_var *v) {
  if (v->proxy)
    bun_leave(s, v);
  int grouped = grp_has(s, v->grp_gen);
  if (!grouped) {
    if (v->penalty > 0)
      grp_guard(s, v);
    s->modified = 1;
    mark_from_var(s, v); /* before detaching: the walk must see v */
  }
  fp_leave(s, v);
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
    grp_after_leave(s);
  pool_put(&s->var_pool, v);
}

double lmm_var_value(const lmm_var *v) {
  if (v->proxy)
    return v->proxy->value / v->penalty;
  return grp_has(v->sys, v->grp_gen) ? v->sys->grp_lv[v->gidx] / v->penalty : v->value;
}
int lmm_var_group(const lmm_var *v) {
  if (v->proxy)
    return GRP_K + v->proxy->bun->id;
  return grp_has(v->sys, v->grp_gen) ? v->gidx : -1;
}
double lmm_group_level(const lmm_system *s, int k) {
  if (k >= GRP_K) {
    size_t id = (size_t)(k - GRP_K);
    return id < s->n_buns && s->buns[id] ? s->buns[id]->proxy->value : 0.0;
  }
  return s->grp_on && k >= 0 && k < s->grp_k ? s->grp_lv[k] : 0.0;
}
int lmm_group_count(const lmm_system *s) { return GRP_K + (int)s->n_buns; }
double lmm_var_penalty(const lmm_var *v) { return v->penalty; }
void *lmm_var_owner(const lmm_var *v) { return v->owner; }

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

/* Usage of a FATPIPE constraint: the max of a/p over its unfixed enabled elements
 * (a fixed variable has value > 0), with the number of elements reaching it. */
static int local_fp_top(const lmm_elem *e);

static void fatpipe_rescan(const lmm_system *s, lmm_cnst *c) {
  c->usage = 0.0;
  c->top_count = 0;
  for (const lmm_elem *e = c->en_head; e; e = e->en_next) {
    if (e->weight <= 0)
      continue;
    if (s->local && e->var->lv != s->lsolve ? !local_fp_top(e) : e->var->value > 0)
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
      fp_verify(s, e, v);
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


/* Also records, for grp_form, the constraints saturated alone (no bound deciding) by the
 * leading iterations (sat_b), and stamps the variables those iterations fixed. */
static void fill(lmm_system *s, double min_level);

static void maxmin_solve(lmm_system *s) {
  s->n_solves++;
  fill(s, init_lights(s));
}

/* Local mode: the constraints of the current iteration's saturated set are stamped with its
 * level unless a bound decided (then they did not saturate). */
static void local_sat_before(lmm_system *s) {
  GROW(s->satc, s->satc_cap, s->n_sat_cnsts);
  for (size_t i = 0; i < s->n_sat_cnsts; i++)
    s->satc[i] = s->lights[s->sat_cnsts[i]].cnst;
}
static void local_sat_after(lmm_system *s, size_t n, double level) {
  for (size_t i = 0; i < n; i++) {
    s->satc[i]->lsat = level;
    s->satc[i]->lsat_solve = s->n_solves;
  }
}

/* The progressive filling from the light table (min_level: its minimum). */
static void fill(lmm_system *s, double min_level) {
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
      local_sat_before(s);
    fix_saturated(s, min_level, &by_bound, lead ? it : -1);
    if (s->local && !by_bound)
      local_sat_after(s, nsat, min_level);
    lead = lead && !by_bound;
    if (lead)
      s->sat_b[s->n_sat_b++] = b;
    it++;
    min_level = next_level(s);
    saturated_var_update(s);
  } while (s->n_lights > 0);
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
    fp_pin(s, c); /* walked with the others by after_run */
  else
    slack_in(s, c);
  return 1;
}

/* After a run: checks the left-out constraints. A slack one must still have S within
 * SLACK_KEEP of its bound; a variable left unfixed (its constraints dropped by the
 * precision) may have had a left-out constraint fix it. Those come back in. A pinned
 * FATPIPE that took part and never mattered (fp_all_below) is released. Returns 1 when
 * the run must be repeated with what came back in. */
static int after_run(lmm_system *s) {
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
    mark_cnst(s, s->pins[i]);
  if (s->n_pins > 0)
    again = 1; /* pinned by fp_verify during the run: its values were computed without c */
  s->n_pins = 0;
  return again;
}

/* After the last run: a SHARED constraint that took part, had all its variables fixed and
 * S_run <= SLACK_LEAVE bound never saturated; it goes out (slack) with S = S_run. */
static void slack_release(lmm_system *s) {
  for (lmm_cnst *c = s->mod_head; c; c = c->mod_next)
    if (!c->fatpipe && !c->slack && c->in_run == s->n_solves && !c->ac_head && c->en_head &&
        c->S_run <= c->bound * SLACK_LEAVE) {
      c->slack = 1;
      c->S = c->S_run;
    }
}

/* Exact mode: runs the filling without the left-out constraints, then again with those
 * that turned out to matter (each repetition brings at least one more in). */
static void solve_marked(lmm_system *s) {
  maxmin_solve(s);
  if (!s->exact)
    return;
  while (after_run(s))
    maxmin_solve(s);
  slack_release(s);
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
      s->out[i]->out_slot = SIZE_MAX;
  s->n_out = 0;
  s->out_pos = 0;
}

static void end_round(lmm_system *s) {
  while (s->mod_head)
    mod_remove(s, s->mod_head);
  s->round++; /* un-visits every variable at once (64 bits: never wraps) */
}

/* Appends v to the modified output of this round. */
static void out_push(lmm_system *s, lmm_var *v) {
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
    v->fast_slot = SIZE_MAX;
    if (v->listed != s->round)
      out_push(s, v);
  }
  s->n_fast = 0;
}

/* ======================================================================
 * Local: verified local re-solves (lmm_set_local; the idea is in the file comment)
 * ====================================================================== */

#define LOCAL_TOL 1e-12   /* relative slack of the bottleneck checks */

#define LOCAL_ROUNDS 8    /* widenings before the whole component is re-solved */

static void seed_add(lmm_system *s, lmm_cnst *c) {
  if (c->lseed == s->round)
    return;
  c->lseed = s->round;
  GROW(s->seeds, s->seeds_cap, s->n_seeds + 1);
  s->seeds[s->n_seeds++] = c;
}

static void dirty_add(lmm_system *s, lmm_var *v) {
  if (v->dirty_slot != SIZE_MAX && v->dirty_slot < s->n_dirty && s->dirty[v->dirty_slot] == v)
    return;
  GROW(s->dirty, s->dirty_cap, s->n_dirty + 1);
  v->dirty_slot = s->n_dirty;
  s->dirty[s->n_dirty++] = v;
}

/* An inert FATPIPE constraint (every variable on it has another constraint with a smaller
 * bound / a: "Inert FATPIPE" above) never fills, so it stays out of C; local_check verifies
 * it against the values and pins it in when a variable comes close. */
static int local_skip(const lmm_cnst *c) { return c->fatpipe && c->n_uncov == 0 && !c->pinned; }

static void local_add_cnst(lmm_system *s, lmm_cnst *c) {
  c->lc = s->lsolve;
  GROW(s->lcnsts, s->lcnsts_cap, s->n_lcnsts + 1);
  s->lcnsts[s->n_lcnsts++] = c;
}

/* v (enabled) joins V: its value is re-solved; its constraints join C. */
static void local_add_var(lmm_system *s, lmm_var *v) {
  if (v->lv == s->lsolve || v->penalty <= 0 || (v->bun && v->bun->n == 0))
    return;
  if (v->proxy) { /* a member: out of its bundle first (bun_out adds it) */
    bun_out(s, v);
    return;
  }
  v->lv = s->lsolve;
  v->old_value = v->value;
  GROW(s->lvars, s->lvars_cap, s->n_lvars + 1);
  s->lvars[s->n_lvars++] = v;
  for (lmm_elem *e = v->elems; e; e = e->var_next)
    if (e->cnst->lc != s->lsolve && !local_skip(e->cnst))
      local_add_cnst(s, e->cnst);
}

/* Every enabled variable (a > 0) of c joins V. */
static void local_add_all(lmm_system *s, const lmm_cnst *c) {
  for (lmm_elem *e = c->en_head; e; e = e->en_next)
    if (e->weight > 0)
      local_add_var(s, e->var);
}

/* The first V: the changed variables and those a changed constraint had fixed (they move
 * first); the checks bring in whatever else moves. */
static void local_seed(lmm_system *s) {
  for (size_t i = 0; i < s->n_dirty; i++)
    if (s->dirty[i]) {
      s->dirty[i]->dirty_slot = SIZE_MAX;
      local_add_var(s, s->dirty[i]);
    }
  s->n_dirty = 0;
  for (size_t i = 0; i < s->n_seeds; i++) {
    const lmm_cnst *c = s->seeds[i];
    if (c->n_fix == 0)
      continue; /* it fixes nothing (a FATPIPE backbone's thousands of flows: no walk) */
    for (lmm_elem *e = c->en_head; e; e = e->en_next)
      if (e->weight > 0 && e->var->fix_cnst == c)
        local_add_var(s, e->var);
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
      if (!c->fatpipe || !local_fp_top(e))
        continue;
    } else {
      v->value = 0.0;
      make_active(e);
    }
    usage_add(c, e->weight / v->penalty);
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
static int local_fp_top(const lmm_elem *e) {
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
    saturated_cnst_update(s, s->lights[pos].level, pos, &min_level);
  }
  if (!ok) { /* the next run re-initialises every constraint of C (active lists, lights) */
    s->n_lights = 0;
    s->n_sat_cnsts = 0;
    return 0;
  }
  fill(s, min_level);
  return 1;
}

/* Whether the frozen variable v still has a bottleneck: its bound, the constraint that
 * fixed it when that one is outside C (nothing on it changed), or a constraint of C that
 * is full with v at the top level on it (FATPIPE: v alone fills it, or the run saturated it
 * at v's level, which then fixes every variable on it, as the filling does). */
/* c's load (sum, FATPIPE max, of a x) and top level (max p x) over its enabled elements,
 * computed once per check. */
static void local_load(const lmm_system *s, lmm_cnst *c) {
  if (c->load_chk == s->lchk)
    return;
  c->load_chk = s->lchk;
  double load = 0.0, maxlev = 0.0;
  size_t n = 0;
  for (const lmm_elem *e = c->en_head; e; e = e->en_next) {
    if (e->weight <= 0)
      continue;
    double vx = vval(e->var), x = e->weight * vx;
    load = c->fatpipe ? dmax(load, x) : load + x;
    maxlev = dmax(maxlev, e->var->penalty * vx);
    n++;
  }
  c->load_n = n;
  c->load = load;
  c->maxlev = maxlev;
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
    if (!c->fatpipe ? local_full(c, e->weight * v->value) && lev >= c->maxlev * (1 - LOCAL_TOL)
                    : e->weight * v->value >= c->bound * (1 - LOCAL_TOL) ||
                          (c->lsat_solve == s->n_solves && fabs(lev - c->lsat) <= c->lsat * LOCAL_TOL)) {
      set_fix(v, c); /* its bottleneck now: a change there must re-solve it */
      return 1;
    }
  }
  return 0;
}

/* After a run: every frozen variable on C keeps a bottleneck, and none is above the level
 * of a constraint the run saturated (it would have been fixed there). Those failing join
 * V; returns their number. */
static size_t local_check(lmm_system *s) {
  size_t nc = s->n_lcnsts, fails = 0;
  s->lchk++;
  for (size_t i = 0; i < s->n_lvars; i++) /* the inert FATPIPE constraints left out */
    for (const lmm_elem *e = s->lvars[i]->has_fp ? s->lvars[i]->elems : NULL; e; e = e->var_next)
      if (e->cnst->lc != s->lsolve && e->weight > 0 && local_skip(e->cnst) &&
          !(e->weight * e->var->value < e->cnst->bound * (1 - 1e-9))) {
        e->cnst->pinned = 1; /* in for good: rare, and then it matters */
        bun_evict(s, e->cnst, 1);
        local_add_cnst(s, e->cnst);
        fails++;
      }
  for (size_t i = 0; i < nc; i++) {
    const lmm_cnst *c = s->lcnsts[i];
    if (c->lsat_solve != s->n_solves && c->n_fix == 0)
      continue; /* nothing above its level, no variable whose bottleneck it is */
    double sat = c->lsat_solve == s->n_solves ? c->lsat * (1 + LOCAL_TOL) : INFINITY;
    for (lmm_elem *e = c->en_head; e; e = e->en_next) {
      lmm_var *v = e->var;
      if (e->weight <= 0 || v->lv == s->lsolve)
        continue;
      if (v->penalty * vval(v) > sat) {
        local_add_var(s, v), fails++;
        s->n_above++;
        continue;
      }
      if (v->lchk == s->lchk)
        continue;
      v->lchk = s->lchk;
      if (!local_certified(s, v))
        local_add_var(s, v), fails++, s->n_uncert++;
    }
  }
  return fails;
}

/* ======================================================================
 * Bundles: many variables at one level, one proxy (local mode; the idea is in the file
 * comment)
 * ====================================================================== */

#define BUN_KAPPA 4.0    /* a bundle promises its members' other constraints 4x its level */
#define BUN_MARGIN 1e-9  /* those stay this far below full with every promise kept */
#define BUN_LEVEL 1e-9   /* a variable joins a bundle within this of its level */
#define BUN_GROW 1.25    /* the lowest promise, relative to the level, worth bundling for */


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
  if (v->fast_slot != SIZE_MAX && v->fast_slot < s->n_fast && s->fast[v->fast_slot] == v)
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
static void bun_leave(lmm_system *s, lmm_var *v) {
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
      new_elem(s, e->cnst, b->proxy, 0.0);
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
static void bun_free(lmm_system *s, lmm_bundle *b) {
  lmm_var *p = b->proxy;
  lmm_elem *next;
  for (lmm_elem *e = p->elems; e; e = next) {
    next = e->var_next;
    make_inactive(e);
    enabled_remove(e->cnst, e);
    pool_put(&s->elem_pool, e);
  }
  set_fix(p, NULL);
  var_unlink(s, p);
  pool_put(&s->var_pool, p);
  s->buns[b->id] = NULL;
  GROW(s->pend_ids, s->pend_ids_cap, s->n_pend_ids + 1);
  s->pend_ids[s->n_pend_ids++] = b->id;
  free(b->mem);
  free(b);
}

/* The bundle whose class constraints are v's (one is c, on which its proxy is enabled),
 * or NULL. */
static lmm_bundle *bun_find(const lmm_var *v, const lmm_cnst *c) {
  size_t nk = 0;
  for (const lmm_elem *e = v->elems; e; e = e->var_next)
    nk += bun_keyed(e);
  for (const lmm_elem *pe = c->en_head; pe; pe = pe->en_next) {
    const lmm_var *p = pe->var;
    if (!p->bun)
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
 * it has no FATPIPE constraint that may fill (an uncovered element); creates the bundle
 * when there is none. */
static void bun_try(lmm_system *s, lmm_var *v) {
  const lmm_cnst *c = v->fix_cnst;
  if (!c || !c->klass || v->penalty <= 0 || v->proxy || v->bun || grp_has(s, v->grp_gen))
    return;
  for (const lmm_elem *e = v->elems; e; e = e->var_next)
    if (e->cnst->fatpipe && e->weight > 0 && !local_skip(e->cnst))
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

/* Candidates of bun_pass: v once. */
static void bun_cand(lmm_system *s, lmm_var *v, size_t *n) {
  GROW(s->btmp, s->btmp_cap, *n + 1);
  s->btmp[(*n)++] = v;
}

/* After a solve: the constraints of C that fix bun_min variables or more become class
 * constraints (all first: the variables of one are often fixed by another at the same
 * level); members with an element on one leave their bundles (their class sets changed).
 * Then they, the variables the new classes fix and those of V try to join bundles (by
 * class sets). Empty bundles go. */
static void bun_pass(lmm_system *s) {
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
        bun_leave(s, v);
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
      bun_free(s, s->buns[i]);
}

/* Member v must be re-solved on its own: it leaves its bundle, and joins V with the proxy
 * (whose weights changed). */
static void bun_out(lmm_system *s, lmm_var *v) {
  lmm_var *p = v->proxy;
  bun_leave(s, v);
  local_add_var(s, p);
  local_add_var(s, v);
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
      bun_out(s, b->mem[b->n - 1]), out++;
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
    bun_out(s, v), out++; /* swaps the last member into slot i */
  }
  b->kappa = kap;
  return out;
}

/* After a run: proxies of V above their promise get a new one, and every constraint of C
 * on which members and variables of V meet (the latter's values changed) still affords
 * the promises, or its members are re-solved on their own. Returns the number of variables
 * that joined V. */
static size_t bun_check(lmm_system *s) {
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
        bun_out(s, e->var), out++;
  }
  return out;
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
    out_push(s, v);
  }
}

static void local_verify(lmm_system *s);

/* grp_form's first test, over V alone: every variable of a group was fixed by one of the
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

static void local_solve(lmm_system *s) {
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
      fails += bun_check(s);
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
    bun_pass(s);
  if (!s->grp_on && !s->verify && bun_live(s) == 0 && s->n_lvars >= GRP_MIN && local_groupable(s)) {
    grp_form(s, s->n_lvars);
    if (s->grp_on) /* every variable of the group must be listed: the caller follows them */
      for (size_t i = 0; i < s->n_lvars; i++) {
        lmm_var *v = s->lvars[i];
        if (v->listed != s->round && v->grp_gen == s->grp_gen)
          out_push(s, v);
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

void lmm_solve(lmm_system *s) {
  clear_out(s);
  while (s->n_pend_ids > 0) { /* the caller has seen those bundles empty */
    GROW(s->free_ids, s->free_ids_cap, s->n_free_ids + 1);
    s->free_ids[s->n_free_ids++] = s->pend_ids[--s->n_pend_ids];
  }
  if (!s->modified)
    return;
  if (s->local) {
    if (s->n_seeds > 0 || s->n_dirty > 0)
      local_solve(s);
    append_fast(s);
    s->modified = 0;
    end_round(s);
    return;
  }
  if (s->mod_head) {
    solve_marked(s);
    collect_modified(s);
    if (s->exact && !s->grp_on)
      grp_form(s, s->n_out);
    s->sum_mod += s->n_mod;
    s->n_exact++;
    if (s->auto_local && !s->grp_on && (s->n_mod >= LOCAL_AUTO_SIZE || s->n_out >= LOCAL_AUTO_SIZE) &&
        ++s->n_big >= LOCAL_AUTO_SOLVES)
      s->local = 1; /* from the next round on (the walk-free state is the same: see lmm_set_local) */
  }
  append_fast(s);
  s->modified = 0;
  end_round(s);
}

lmm_var *lmm_next_modified(lmm_system *s) {
  while (s->out_pos < s->n_out) {
    lmm_var *v = s->out[s->out_pos++];
    if (v && !v->bun) {
      v->out_slot = SIZE_MAX;
      return v;
    }
  }
  return NULL;
}
