/* lmm_impl.h - the max-min solver's internal structures, shared by its files: lmm.c (the
 * SimGrid-exact core), lmm_group.c and lmm_slack.c (exact mode), lmm_local.c and
 * lmm_bundle.c (local mode), lmm_class.c (class mode).
 *
 * Not part of the solver's interface (lmm.h): only the solver's own files include it. The
 * objects and their invariants are described in lmm.c's header comment, each mode's fields
 * in its file's. A function of one file used by another carries the lmm_ prefix; the few
 * used on the core's hot paths are inline here. */
#ifndef TIR_LMM_IMPL_H
#define TIR_LMM_IMPL_H

#include "lmm.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pool.h"
#include "xalloc.h"

/* The helpers below are defined here for every solver file; each file uses some (static,
 * not inline: the compiler decides as for a file-local function). */
#define LMM_HELPER static __attribute__((unused))

typedef struct lmm_elem lmm_elem;
typedef struct lmm_edge lmm_edge;
typedef struct lmm_class lmm_class;
typedef struct lmm_khot lmm_khot;
typedef struct lmm_clog {    /* class mode: an entry of a solve's log (see "Restarts") */
  lmm_cnst *c;
  long it;                   /* the iteration that changed c's remaining, */
  double remaining;          /* which was this before */
} lmm_clog;

/* A compensated running sum (Neumaier): s + c is the sum of every term added, to about an
 * ulp, however many terms came and went (class mode's sums of a / p). */
typedef struct lmm_ksum {
  double s, c;
} lmm_ksum;

static inline void ksum_add(lmm_ksum *k, double x) {
  double t = k->s + x;
  k->c += fabs(k->s) >= fabs(x) ? (k->s - t) + x : (x - t) + k->s;
  k->s = t;
}
static inline double ksum_val(const lmm_ksum *k) { return k->s + k->c; }

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
 * Objects
 * ====================================================================== */

struct lmm_elem {
  lmm_cnst *cnst;              /* the constraint side */
  lmm_var *var;                /* the variable side */
  double weight;               /* a_ic, the consumption coefficient */
  lmm_elem *var_next;          /* next element of var, in creation order */
  lmm_elem *ac_prev, *ac_next; /* cnst's active list (solver's unfixed elements) */
  union {
    double contrib;            /* SHARED: a_ic t_i as counted in cnst->S (see "Slack") */
    lmm_edge *edge;            /* class mode: the edge listing it (through ac_prev/ac_next) */
  };
  unsigned char enabled;       /* its variable has penalty > 0 (exact and local modes: on the
                                  enabled list) */
  unsigned char active;        /* on the active list */
  unsigned char uncov;         /* counted in cnst->n_uncov (see "Inert FATPIPE") */
  unsigned char hidden;        /* a bundle member's element on a class constraint: off the
                                  enabled list, counted in the proxy's (see "Bundles") */
  unsigned char small;         /* made in class mode: ends here (ELEM_CLASS_SIZE bytes) */
  /* Exact and local modes only. Class mode keeps no enabled lists (its edges list the
   * elements of enabled variables), so the elements it makes stop before this. */
  lmm_elem *en_prev, *en_next; /* cnst's enabled list (var->penalty > 0) */
};
#define ELEM_CLASS_SIZE offsetof(lmm_elem, en_prev)

struct lmm_cnst {
  /* Line 0 (a constraint starts a cache line, X_LINE: pool chunks are line-aligned): what
   * a class solve reads or writes at each visit of an edge (fix_class, lh_min, sums_add),
   * and what the exact filling reads most. */
  _Alignas(X_LINE)
  double remaining;              /* solver: capacity not yet given to fixed variables */
  double usage;                  /* solver: sum (FATPIPE: max) of a_ic / p_i, unfixed i */
  double eps;                    /* class solve: bound x precision (remaining's snap) */
  size_t n_act;                  /* class solve: edges (a > 0) of classes not yet fixed */
  uint64_t log_stamp;            /* class mode: == system it_stamp when the solve's log has an
                                    entry of it for the current iteration (see "Restarts") */
  size_t top_count;              /* solver, FATPIPE: unfixed elements whose a/p == usage */
  int fatpipe;                   /* max instead of sum */
  int light;                     /* solver: index in the light table, -1 if not there
                                    (class solve: -1 out of the filling, -2 left out for
                                    now, else fatpipe != 0) */
  double bound;                  /* capacity C_c */
  /* Line 1: what a class solve reads once per constraint (restarts, saturations). */
  uint64_t nfix_solve;           /* class mode: the solve (csolve) nfixed is of */
  long sat_it;                   /* class mode: the iteration of that solve that saturated it */
  uint64_t def_solve;            /* class mode: == csolve: left out from the solve's start */
  size_t nfixed;                 /* class mode: members the last solve fixed on it (saturated) */
  size_t deferred;               /* class mode: removals left unsolved since that solve */
  size_t n_en;                   /* enabled elements (on the enabled list but in class mode,
                                    which counts them only: here, next to cw, both updated
                                    when an element comes or goes) */
  size_t n_pos;                  /* class mode: its edges with npos > 0 */
  double cw;                     /* class mode: sum of its edges' w (the value of cws) */
  /* Line 2: class mode's edges on it (and the flags, which fill the line). */
  lmm_khot *ehot;                /* class mode: the edges of the classes using it */
  size_t nehot, ehot_cap;
  lmm_ksum cws;                  /* that sum, running */
  size_t ci;                     /* class mode: index in the system's used list (n_pos > 0) */
  lmm_edge *tmp_edge;            /* class mode: the edge of the class last built on it */
  uint8_t klass;                 /* bundles: a class constraint (SHARED, fixes or carries
                                    many: 1; made by this pass: 2) */
  uint8_t in_mod;                /* on the modified list */
  uint8_t pinned;                /* FATPIPE: kept in although n_uncov == 0 */
  uint8_t slack;                 /* SHARED: left out, never saturates (see "Slack") */
  /* The rest. */
  size_t n_disabled;             /* elements whose variable has penalty 0 */
  size_t n_uncov;                /* FATPIPE: enabled elements (a > 0) not covered */
  uint64_t pin_solve;            /* system n_solves when it was pinned */
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
  double fill_lev;               /* local check, FATPIPE: the lowest p x of one filling it */
  uint64_t load_chk;             /* local check: == system lchk when load, maxlev, fill_lev are fresh */
  size_t load_n;                 /* local check: the number of terms of load */
  size_t n_fix;                  /* variables whose fix_cnst it is (set_fix) */
  size_t n_mem;                  /* bundles: enabled elements (a > 0) of members on it */
  uint64_t bchk;                 /* bundles: == system bchk when bload is fresh */
  double bload;                  /* bundles: load with every bundle at its promise */
  uint64_t grp_gen;              /* == system grp_gen: part of the group's component */
  double gu[GRP_K];              /* group: sum of a_ic / p_i over the variables of level k */
  size_t gcount;                 /* group: number of such elements */
  lmm_elem *en_head;             /* enabled elements, most recently enabled first (none in
                                    class mode, which counts them only: n_en) */
  lmm_elem *ac_head;             /* active elements, most recently activated first */
  lmm_cnst *mod_prev, *mod_next; /* modified list links */
};
_Static_assert(offsetof(lmm_cnst, bound) + sizeof(double) == X_LINE, "line 0 is full");
/* An odd number of lines: the constraints' lines 0 spread over every set of the cache (a
 * stride of 8 lines would put them all in 8 of the L1's 64 sets). */
_Static_assert(sizeof(lmm_cnst) / X_LINE % 2 == 1 && sizeof(lmm_cnst) % X_LINE == 0,
               "a constraint spans an odd number of lines");

/* An index of a variable in one of the system's arrays, or SLOT_NONE: no array holds more
 * than the live variables, fewer than SLOT_NONE (lmm_var_new). */
typedef uint32_t lmm_slot;
#define SLOT_NONE UINT32_MAX

/* No padding (one per flow); what class mode and the engine read most in the first 64
 * bytes. Class mode reads and writes only the fields before sat_next: the variables it
 * makes once the slots of those made before it are in use again stop there (VAR_CLASS_SIZE
 * bytes, the small flag set), as its elements do before en_prev. */
struct lmm_var {
  /* The first 64 bytes: what class mode and the engine read of a variable (its class,
   * slots, elements): mostly one line, or two, not three. */
  void *owner;          /* the caller's action */
  double penalty;       /* p_i; 0 = disabled */
  double bound;         /* b_i; <= 0 = unbounded (SimGrid tests bound > 0) */
  lmm_elem *elems;      /* elements, creation order */
  lmm_class *cls;       /* class mode: its class (enabled), else NULL */
  lmm_slot out_slot;    /* index in the modified-output array */
  lmm_slot dirty_slot;  /* local: index in the system's dirty array */
  union {               /* a bundle member (proxy set) is in no class: class mode, once on,
                           makes no bundle, and its switch empties them first */
    lmm_slot bslot;     /* bundles: index among the bundle's members */
    lmm_slot cslot;     /* class mode: its slot in its class's member array */
  };
  int32_t gidx;         /* group level (or solve iteration) of the variable */
  uint8_t in_sat;       /* solver: on the saturated-variable queue */
  uint8_t has_fp;       /* has an element on a FATPIPE constraint */
  uint8_t relist;       /* local: left a group, to be listed by the next solve */
  uint8_t small;        /* made in class mode: ends here (VAR_CLASS_SIZE bytes) */
  lmm_slot fast_slot;   /* index in the system's fast array */
  /* The rest of the fields of every mode. */
  double value;         /* x_i after the last solve that reached it */
  uint64_t rank;        /* creation stamp: the order of lmm_next_modified */
  uint64_t listed;      /* == system round: already in the modified output */
  lmm_var *all_prev;    /* previous live variable (creation order) */
  lmm_var *all_next;    /* next live variable (creation order) */
  const lmm_system *sys; /* owner system, for the value of a grouped variable */
  uint64_t grp_gen;     /* == system grp_gen: value is grp_lv[gidx] / penalty */
  lmm_var *proxy;       /* bundles: the proxy of v's bundle (v a member), else NULL */
  struct lmm_bundle *bun; /* bundles: v is the proxy of this bundle */
  /* Exact and local modes only. */
  lmm_var *sat_next;    /* solver: next in the saturated-variable queue */
  uint64_t visited;     /* == system round: already walked by marking this round */
  uint64_t fix_round;   /* == system n_solves: fixed at iteration gidx of that solve */
  uint64_t fix_solve;   /* == system n_solves: fixed by that solve, at level fix_level */
  double fix_level;     /* highest filling level reached when it was fixed */
  double fix_t;         /* fix_level / penalty: bounds its value (see "Slack") */
  lmm_cnst *fix_cnst;   /* the saturated constraint that fixed it (NULL: its bound) */
  double old_value;     /* local: value before the solve that put it in V */
  uint64_t lv;          /* local: == system lsolve when in the re-solved set V */
  uint64_t lchk;        /* local: == system lchk when its bottleneck was checked */
};
#define VAR_CLASS_SIZE offsetof(lmm_var, sat_next)
_Static_assert(offsetof(lmm_var, value) == 64, "class mode's fields in the first 64 bytes");

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
  int id;           /* level index lmm_var_level gives: LMM_GROUP_LEVELS + id */
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
  lmm_elem *x_hint;          /* lmm_expand, class mode: the element of a variable in a class it
                                last found (NULL after any variable's free); the next call on
                                that variable tries the one after first */
  size_t n_vars;             /* live variables */
  size_t n_cnsts;            /* constraints */
  lmm_cnst **cnsts;          /* every constraint, creation order (the automatic mode's scan) */
  size_t cnsts_cap;
  pool cnst_pool;            /* owns every lmm_cnst */
  pool var_pool;             /* owns every lmm_var but class mode's, */
  pool var_cls_pool;         /* which are VAR_CLASS_SIZE bytes (small) */
  pool elem_pool;            /* owns every lmm_elem but class mode's, */
  pool elem_cls_pool;        /* which are ELEM_CLASS_SIZE bytes (small) */
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
  uint64_t big_mod;          /* auto: the constraints those solves re-solved, summed */
  int to_exact;              /* auto: back to component solves from the next solve on */
  int no_local;              /* auto: local mode was left for good */
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
  int cls_on;                /* class mode (lmm_class.c) */
  int to_class;              /* auto: switch to class mode at the next solve */
  size_t eager_at;           /* auto: the live variables when it switched between solves */
  size_t eager_next;         /* auto: the live variables of its next check (see CLASS_EAGER_VARS) */
  uint64_t n_dense;          /* auto: variables listed by solves that listed many per constraint, */
  uint64_t n_dense_solves;   /* and those solves */
  int stats;                 /* LMM_STATS set: count what it prints */
  double tol;                /* class mode: rate tolerance (lmm_set_tolerance; 0: exact) */
  uint64_t c_deferred;       /* LMM_STATS: removals without a solve */
  pool cls_pool, edge_pool;  /* class mode: own every lmm_class and lmm_edge */
  lmm_class **cls_ids;       /* class mode: classes by level index - GRP_K (NULL: free) */
  lmm_class **cls_live;      /* class mode: the live classes (index: class li) */
  size_t n_cls_live, cls_live_cap;
  lmm_class *newcls;         /* class mode: the class of the variables enabled since the last solve */
  lmm_cnst **used;           /* class mode: the constraints with an edge of npos > 0 (index ci) */
  size_t n_used, used_cap;
  lmm_cnst **hot_cnsts;      /* class mode: every constraint that got an ehot array */
  size_t n_hot_cnsts, hot_cnsts_cap;
  light *lh;                 /* class solve: the lights' heap by level (lazy: stale entries are
                                pushed again with their level when they reach the top) */
  size_t n_lh, lh_cap;
  light *cold;               /* class solve, after a restart: constraints in the filling whose
                                heap entries wait (see "Cold lights" in lmm_class.c) */
  size_t n_cold, cold_cap;
  double cold_min;           /* the lowest of their levels at the restart */
  lmm_cnst **satc2;          /* class solve: the constraints saturated by the current iteration */
  size_t n_satc2, satc2_cap;
  size_t *satn, satn_cap;    /* class solve: satc2[i]'s candidates' edges, its first satn[i] */
  int it_split;              /* class solve: the current iteration split a class */
  lmm_cnst **defer;          /* class solve: constraints left out while the filling's level is
                                below defer_at (their level at the start is above it) */
  size_t n_defer, defer_cap;
  double defer_at;           /* class solve: that level (INFINITY: none left out) */
  double defer_next;         /* class mode: defer_at of the next solve (from this one's levels) */
  size_t n_cls_ids, cls_ids_cap; /* ids given so far and the array's capacity */
  int *cls_free;             /* class mode: ids free for reuse, */
  size_t n_cls_free, cls_free_cap;
  int *cls_pend;             /* and ids freed by this solve, reusable from the next one */
  size_t n_cls_pend, cls_pend_cap;
  uint64_t csolve;           /* class mode: solve stamp (component, fixed classes) */
  uint64_t tstamp;           /* class mode: stamp of the filling's iterations (lmm_cmem mark) */
  uint64_t cov_stamp;        /* class mode: the last covering stamp given (lmm_class cov) */
  uint64_t cov_base;         /* class solve: cov_stamp when the current iteration began */
  long cur_it;               /* class solve: the current iteration */
  uint64_t it_stamp;         /* class solve: new at each iteration of each solve (log_stamp) */
  lmm_class **ccls;          /* class solve: the classes fixed, in iteration order */
  size_t n_ccls, ccls_cap;   /* its length and capacity */
  lmm_class **cq;            /* class solve: the classes fixed by the current iteration */
  size_t n_cq, cq_cap;       /* its length and capacity */
  int *lev_out;              /* class mode: level indices whose level changed (lmm_next_level) */
  size_t n_lev_out, lev_out_cap, lev_pos; /* its length, capacity, next to hand out */
  uint64_t c_solves, c_classes, c_edges, c_split, c_moved, c_merge, c_mmoved; /* LMM_STATS */
  uint64_t c_into;              /* LMM_STATS: splits whose covered members joined a class at once */
  uint64_t c_restarts, c_kept;   /* LMM_STATS: solves restarted, iterations kept by them */
  uint64_t c_handed;         /* LMM_STATS: edges handed over whole by splits */
  /* Restarts (lmm_class.c): */
  long rs_it;                /* the first iteration of the last solve that a change reached */
  int rs_full;               /* a change since the last solve needs a solve from the start */
  int no_restarts;           /* lmm_set_class_restarts(s, 0): none */
  double defer_ratio;        /* class mode: DEFER_RATIO, or lmm_set_defer_ratio's */
  int clog_ok;               /* the log below is the last solve's, complete */
  lmm_clog *clog;            /* the last solve's log: a constraint's remaining before the */
  size_t n_clog, clog_cap;   /*   first change of each iteration, in iteration order */
  double *it_top;            /* the level of each iteration of the last solve */
  size_t n_it_top, it_top_cap;
  long defer_it;             /* the iteration at which its left-out constraints came in */
  long bound_it;             /* its first iteration that fixed variables at their bound */
  size_t n_unfixed;          /* the live classes it did not fix */
  struct lmm_recount *rc;    /* defer_recount_all: the unfixed edges on left-out constraints */
  size_t rc_cap;
  lmm_clog *dlog;            /* the takes replayed on left-out constraints (it: the fixing */
  size_t n_dlog, dlog_cap;   /*   iteration of the class), in replay order */
  long dq_fit;               /* the left-out constraints hold the takes of the classes fixed
                                before this iteration (and no other) */
  int defer_fresh;           /* a solve from the start: left-out constraints untouched */
  double defer_at0;          /* its defer_at at the start */
};

/* ======================================================================
 * Helpers for every file (static: each file gets the ones it uses)
 * ====================================================================== */

LMM_HELPER void enabled_push_front(lmm_cnst *c, lmm_elem *e) {
  e->en_prev = NULL;
  e->en_next = c->en_head;
  if (c->en_head)
    c->en_head->en_prev = e;
  c->en_head = e;
  e->enabled = 1;
  c->n_en++;
}

LMM_HELPER void enabled_remove(lmm_cnst *c, lmm_elem *e) {
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

LMM_HELPER void make_inactive(lmm_elem *e) {
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
LMM_HELPER void make_active(lmm_elem *e) {
  lmm_cnst *c = e->cnst;
  make_inactive(e);
  e->ac_prev = NULL;
  e->ac_next = c->ac_head;
  if (c->ac_head)
    c->ac_head->ac_prev = e;
  c->ac_head = e;
  e->active = 1;
}

/* Exact mode: c is an inert FATPIPE constraint, left out of marking and solving (see
 * "Inert FATPIPE" in the file comment). */
LMM_HELPER int cnst_out(const lmm_system *s, const lmm_cnst *c) {
  if (!s->exact || s->local)
    return 0;
  return c->fatpipe ? c->n_uncov == 0 && !c->pinned : c->slack;
}

LMM_HELPER lmm_elem *find_elem(const lmm_var *v, const lmm_cnst *c) {
  for (lmm_elem *e = v->elems; e; e = e->var_next)
    if (e->cnst == c)
      return e;
  return NULL;
}

LMM_HELPER int grp_has(const lmm_system *s, uint64_t gen) { return s->grp_on && gen == s->grp_gen; }

/* ======================================================================
 * Shared constants; functions of one solver file used by another
 * ====================================================================== */

#ifndef LMM_GRP_MIN
#define LMM_GRP_MIN 16 /* the smallest component worth grouping (in variables) */
#endif
#define GRP_MIN LMM_GRP_MIN

/* lmm_set_local(s, 2): exact mode until LOCAL_AUTO_SOLVES solves have each re-solved at
 * least LOCAL_AUTO_SIZE constraints or variables without forming a group, local mode after
 * (variables too: slack constraints left out of a solve do not shrink that count). */
#define LOCAL_AUTO_SIZE 128
#define LOCAL_AUTO_SOLVES 32
/* and class mode once such solves, while the enabled lists held CLASS_AUTO_RATIO elements
 * per constraint in use or more (many flows on every link: a collective that sends to every
 * rank; a stencil's or a wavefront's links carry a few flows each, a cabinet switch many:
 * their mean stays below), number LOCAL_AUTO_SOLVES or have re-solved CLASS_AUTO_VARS
 * variables in all, whichever comes first. */
#define CLASS_AUTO_RATIO 16
/* Local mode is left for component solves, for good, when its first LOCAL_BACK_SOLVES
 * solves re-solved on average at least half as many constraints as the large solves that
 * led to it (the flows that move are most of the component each time, as in a pairwise
 * exchange behind a cabinet switch: a local solve, which also checks what it leaves out,
 * then costs more than the component solve it replaces). */
#define LOCAL_BACK_SOLVES 256
#define CLASS_AUTO_VARS 8192
/* and at once, between two solves, when the live variables reach CLASS_EAGER_VARS, or
 * CLASS_EAGER_VARS more than at the last such check or than their low since (a check scans
 * the constraints: CLASS_EAGER_VARS variables made between two checks, however the count
 * goes up and down), while the constraints in use are dense as above: a batch that large,
 * started at one date (a lock-step alltoall: (n - 1) n flows, millions at 2,048 ranks), is
 * solved in class mode from its first solve, and most of its elements and variables are made
 * in class mode's smaller form (before, the whole batch was made in the exact mode's and its
 * slots were reused for the rest of the replay). The switch between two solves is the same
 * as at the next solve's start: the caller has read the last solve's output, and follows
 * its flows by their own level indices until the next solve lists them all. */
#define CLASS_EAGER_VARS 65536

enum { GRP_OUTSIDE, GRP_JOIN, GRP_CONFLICT };

/* lmm.c (the core) */
void lmm_mark_cnst(lmm_system *s, lmm_cnst *c);
lmm_elem *lmm_new_elem(lmm_system *s, lmm_cnst *c, lmm_var *v, double coeff);
void lmm_var_unlink(lmm_system *s, lmm_var *v);
void lmm_saturated_cnst_update(lmm_system *s, double level, int pos, double *min_level);
void lmm_usage_add(lmm_cnst *c, double x);
void lmm_fill(lmm_system *s, double min_level);
int lmm_auto_dense(lmm_system *s, size_t solved);
void lmm_auto_local(lmm_system *s);

/* lmm_group.c */
void lmm_grp_dissolve(lmm_system *s);
void lmm_grp_guard(lmm_system *s, const lmm_var *v);
int lmm_grp_check(const lmm_system *s, const lmm_var *v, int *level);
void lmm_grp_join(lmm_system *s, lmm_var *v, int k);
void lmm_grp_after_leave(lmm_system *s);
void lmm_grp_form(lmm_system *s, size_t n_solved);

/* lmm_slack.c */
void lmm_slack_enable(lmm_system *s, lmm_var *v);
void lmm_slack_leave(lmm_system *s, lmm_var *v);
void lmm_slack_ensure_in(lmm_system *s, const lmm_var *v, const lmm_cnst *skip);
void lmm_fp_cover(lmm_system *s, lmm_var *v);
void lmm_fp_leave(lmm_system *s, lmm_var *v);
void lmm_fp_verify(lmm_system *s, const lmm_elem *e, const lmm_var *v);
int lmm_after_run(lmm_system *s);
void lmm_slack_release(lmm_system *s);

/* lmm_local.c */
void lmm_local_sat_before(lmm_system *s);
void lmm_local_sat_after(lmm_system *s, size_t n, double level);
int lmm_local_skip(const lmm_cnst *c);
void lmm_local_add_var(lmm_system *s, lmm_var *v);
int lmm_local_fp_top(const lmm_elem *e);
void lmm_local_solve(lmm_system *s);

/* lmm_bundle.c */
void lmm_bun_evict(lmm_system *s, lmm_cnst *c, int in_solve);
void lmm_bun_leave(lmm_system *s, lmm_var *v);
void lmm_bun_free(lmm_system *s, lmm_bundle *b);
void lmm_bun_pass(lmm_system *s);
void lmm_bun_out(lmm_system *s, lmm_var *v);
size_t lmm_bun_check(lmm_system *s);

/* The modes' per-element fast paths, inline where the core calls them (lmm_group.c's and
 * lmm_slack.c's file comments explain them). */

/* Whether the last run fixed v in one of its first k iterations (those that each saturated
 * one constraint alone: the group's levels). */
static inline int grp_fixed_lead(const lmm_system *s, const lmm_var *v, int k) {
  return v->fix_round == s->n_solves && v->gidx >= 0 && v->gidx < k;
}

static inline void gu_clear(lmm_cnst *c) {
  for (int k = 0; k < GRP_K; k++)
    c->gu[k] = 0.0;
  c->gcount = 0;
}

/* The element e of a grouped variable being freed leaves its constraint's sums. */
static inline void grp_elem_leave(lmm_system *s, lmm_elem *e) {
  lmm_cnst *c = e->cnst;
  if (e->weight > 0)
    c->gu[e->var->gidx] -= e->weight / e->var->penalty;
  if (--c->gcount == 0) {
    gu_clear(c);
    c->grp_gen = 0; /* leaves the component */
  }
  (void)s;
}

/* e's variable is disabled or freed: e no longer counts in its (slack) constraint. Only
 * enabled elements count in S, and a disabled one counts 0 (it may have kept the contrib
 * of a run before its constraint went out): enabled into the group (lmm_group.c), which
 * skips lmm_slack_enable, it must count 0, since freeing it or its next fixing takes its
 * contrib off S (class_random_vs_fresh's seed 11107: exact_slack_group_join). While the
 * group lives, its cap keeps its slack constraints unsaturated; the solve after its end
 * fixes all their variables again (slack_fixed) and checks them. */
static inline void slack_elem_leave(const lmm_system *s, lmm_elem *e) {
  if (e->enabled && !e->cnst->fatpipe && cnst_out(s, e->cnst))
    e->cnst->S -= e->contrib;
  e->contrib = 0.0;
}

/* The variable of e was fixed by a run, with value bound t per unit of coefficient: e's
 * contribution to its (slack) constraint becomes a t; the constraint is checked after. */
static inline void slack_fixed(lmm_system *s, lmm_elem *e, double t) {
  lmm_cnst *c = e->cnst;
  c->S += e->weight * t - e->contrib;
  e->contrib = e->weight * t;
  if (c->chk_solve != s->n_solves) {
    c->chk_solve = s->n_solves;
    GROW(s->chk, s->chk_cap, s->n_chk + 1);
    s->chk[s->n_chk++] = c;
  }
}

/* ======================================================================
 * Class mode (lmm_class.c): entry points for lmm.c's interface functions
 * ====================================================================== */

void lmm_cls_init(lmm_system *s);
void lmm_cls_destroy(lmm_system *s);
void lmm_cls_stats(const lmm_system *s);
/* v (enabled) joins the class of the variables enabled since the last solve; v (in a class)
 * leaves it. */
void lmm_cls_join(lmm_system *s, lmm_var *v);
void lmm_cls_leave(lmm_system *s, lmm_var *v);
void lmm_cls_reweight(lmm_system *s, lmm_var *v, lmm_elem *x, double w);
/* v (in a class) is freed: leaves its class; no solve is needed when no constraint of v was
 * saturated by the last solve (no rate changes: exact), nor, with a rate tolerance eps > 0,
 * when on each saturated one the removals since then stay within eps x the members it fixed
 * (lmm_set_tolerance). */
void lmm_cls_free(lmm_system *s, lmm_var *v);
void lmm_cls_solve(lmm_system *s);
/* After lmm_cls_solve: the next level index whose level changed, -1 when done. */
int lmm_cls_next_level(lmm_system *s);
double lmm_cls_level(const lmm_system *s, int k);

/* The modified output (lmm.c), the seed and dirty lists (lmm_local.c). */
void lmm_out_push(lmm_system *s, lmm_var *v);
void lmm_seed_add(lmm_system *s, lmm_cnst *c);
void lmm_dirty_add(lmm_system *s, lmm_var *v);

/* Class mode (lmm_class.c): the edge of class k on constraint c, and a class. What a solve
 * reads of an edge sits in two arrays: the class's (constraint, w, npos), the constraint's
 * (class, npos); each edge knows its slot in both. */
struct lmm_edge {
  lmm_class *k;               /* the class */
  lmm_cnst *c;                /* the constraint */
  lmm_elem *head;             /* the members' elements on c (linked through ac_prev/ac_next) */
  size_t n;                   /* elements */
  double fpmax;               /* FATPIPE: max of a / p over them, */
  size_t fpcnt;               /* and how many reach it */
  lmm_ksum ws;                /* the sum of a / p over its elements with a > 0 (running) */
  uint64_t cov;               /* == its class's cov: it covered its class's last fixing */
  size_t ki, ci;              /* its slot in k->hot and in c->ehot */
  size_t mv;                  /* split: its elements whose member moves (0 between splits) */
};
typedef struct lmm_chot {     /* a class's edge, as its class sees it */
  lmm_cnst *c;
  double w;                   /* sum of a / p over its elements with a > 0 */
  size_t npos;                /* its elements with a > 0 */
  lmm_edge *e;
} lmm_chot;
typedef struct lmm_cmem {     /* a member of a class */
  lmm_var *v;
  uint64_t mark;              /* == an iteration's stamp: covered by its saturated constraints */
} lmm_cmem;
struct lmm_khot {             /* a class's edge, as its constraint sees it */
  lmm_class *k;
  size_t npos;                /* (a copy of the class side's) */
  lmm_edge *e;
};

struct lmm_class {
  double level;     /* the members' level: x_i = level / p_i */
  double reported;  /* the level last handed out by lmm_next_level (NAN: never) */
  lmm_cmem *mem;    /* members (an array: a split scans it) */
  size_t n, mem_cap; /* their number and the array's capacity */
  lmm_chot *hot;    /* its edges */
  size_t nhot, hot_cap;
  double min_bp;    /* lower bound of the smallest b p of a bounded member (INFINITY: none) */
  uint64_t visit;   /* == csolve: in the component being solved */
  uint64_t fixed;   /* == csolve: fixed by the running solve, at iteration it */
  uint64_t queued;  /* == the iteration stamp: a candidate of the current iteration */
  size_t cover;     /* candidates: members with a > 0 on a saturated constraint */
  int full;         /* candidates: one edge on a saturated constraint holds every member */
  uint64_t cov;     /* stamp of its covering edges at its last fixing (0: none valid: a
                       member joined since) */
  size_t ncov;      /* how many edges that is */
  size_t hits;      /* candidates: those on a saturated constraint of this iteration */
  size_t cedges;    /* candidates: their edges count_covered walked (see "Blocks apart") */
  size_t li;        /* index in the system's live list */
  size_t cci;       /* index in ccls when fixed by the last solve (see "Restarts") */
  long it;          /* iteration that fixed it (-1: by a bound, never merged) */
  long fit;         /* iteration during which it was fixed (a bound's too) */
  uint64_t born;    /* the solve (csolve) in which, or just before which, it was made */
  int id;           /* level index GRP_K + id (-1: none given yet) */
  int apart;        /* hot[nin, nhot) are on left-out constraints (see "Left-out edges apart") */
  int split;        /* made by a split (in the solve it was born in: see "Blocks apart") */
  int clean;        /* and hot[0, nin) holds no edge with npos > 0 on a left-out one (fixed
                       while they were out, unchanged since) */
  size_t nin;       /* the length of the first part (maintained even when apart is 0) */
};

/* v's value: a member's follows its proxy. */
static inline double vval(const lmm_var *v) { return v->proxy ? v->proxy->value / v->penalty : v->value; }

/* Live bundles. */
LMM_HELPER size_t bun_live(const lmm_system *s) { return s->n_buns - s->n_free_ids - s->n_pend_ids; }

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
LMM_HELPER void double_update(double *x, double delta, double precision) {
  *x -= delta;
  if (*x < precision)
    *x = 0.0;
}
LMM_HELPER int double_positive(double x, double precision) { return x > precision; }
/* fmin / fmax for numbers (never NaN here), inline instead of libm calls. */
LMM_HELPER double dmin(double a, double b) { return b < a ? b : a; }
LMM_HELPER double dmax(double a, double b) { return b > a ? b : a; }
LMM_HELPER int double_equals(double a, double b, double precision) {
  return fabs(a - b) < precision;
}

#endif
