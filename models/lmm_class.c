/* lmm_class.c - the solver's class mode: max-min over classes of variables that share a level.
 *
 * Many concurrent flows with few distinct rates (an alltoall: every rank sends to and receives
 * from every other one at once, n^2 flows over 2n node links) make the per-variable solve
 * O(flows) per event while the max-min solution has a handful of distinct levels: the
 * filling fixes every variable of a saturated constraint at one level m (x_i = m / p_i), and
 * the variables fixed by one iteration keep sharing their level from one solve to the next
 * as long as the structure of bottlenecks stays. This mode keeps them together.
 *
 * Objects. Every enabled variable belongs to one class; all members of a class have the
 * level of the class (x_i = level / p_i). A class has one edge per constraint its members
 * use: the edge lists the members' elements on that constraint and sums w = sum a_ic / p_i
 * over them (FATPIPE: also the max of a / p and how many elements reach it), and counts the
 * elements with a > 0 (npos). A constraint lists the edges on it and keeps the sum of their
 * w (cw) and the number of them with npos > 0 (n_pos), so that a solve starts without
 * looking at edges. The variables enabled since the last solve form one class (newcls).
 *
 * The filling is SimGrid's (lmm.c) over classes instead of variables: a constraint's usage
 * is the sum (FATPIPE: max) of the w of its unfixed classes' edges, a saturated constraint
 * fixes every unfixed class with an edge of npos > 0 on it, at the level m, and a fixed class
 * takes m w off each constraint it uses. When only some members of a class have a > 0 on the
 * constraints saturated by an iteration (the "covered" ones: counted through the edges, each
 * member stamped once), the class splits first: the covered members are fixed, the others go
 * on (the larger part keeps the class, the smaller one moves: each moved variable costs
 * O(its elements), but an edge all of whose elements move goes to the new class whole, as
 * it is: half the elements that splits move on issue 15's mixes). Bounds: a class whose
 * smallest b p (kept as a lower bound, recomputed when it matters) is below the level gives
 * up the members at the smallest one, which are fixed at their bound as classes of their
 * own, as SimGrid fixes only those. When the covered members are the smaller part and the
 * iteration also fixes a wholly covered class, they join the largest such class at once
 * (split_into) rather than a new class that the merge below would move them out of again,
 * unless they form a block ("Blocks apart", at merge_run). After the filling, the classes
 * made since the last solve (newcls, split parts but blocks) merge into the largest class
 * fixed by the same iteration (same level); older classes stay apart even at one level, so
 * that a tie that comes and goes moves few variables back and forth, unless one has at most
 * an eighth of the largest's members (SMALL_MERGE): such fragments (left by splits, or
 * classes whose members' coefficients changed in place, lmm_cls_reweight) would otherwise
 * pile up, each with its own edges on the same constraints, and each solve fixes them all.
 * On issue 15's desynchronised mix with 4 ranks a host (1,024 ranks) that is 239 -> 83
 * classes and 8,755 -> 6,878 edges per solve for a few more moves. A merge
 * moves whole edges: an edge of the new class on a constraint where the other class has one
 * hands over its list and its sums at once (its elements only learn their new edge).
 *
 * A solve covers every constraint with an edge (the flows of a dense collective form one
 * component: no walk). Constraints' levels only rise during a filling (fixing a class at the
 * minimum level m leaves remaining / usage >= m), so the lights are a lazy heap: an entry
 * whose level rose is pushed again when it reaches the top. A constraint whose level at the
 * start is above DEFER_RATIO x the last solve's top level is left out (links that hold no
 * flow back): fixing a class skips it, and it is not on the heap. Levels only rise, so it
 * can neither be the minimum nor tie with it while the filling's level stays below its
 * start; when the level comes near (DEFER_GAP covers rounding), or the heap empties, every
 * left-out constraint comes in: the fixed classes' takes are replayed on it in the order
 * they happened, so that its remaining and usage are the very numbers the filling would
 * have given it (only the heap's order among equal levels may differ). After a restart
 * (below), the constraints that the last solve did not saturate from the restart's iteration
 * on stay in the filling but off the heap until the filling's level comes near the lowest
 * of them ("Cold lights", at cold_in). Cost per solve:
 * O(constraints +
 * edges of the classes fixed + (iterations + stale entries) log constraints + elements of
 * partly covered edges + elements of the variables that move). Values equal a per-variable
 * solve's to rounding (the sums are taken per class; symmetric constraints tie, or not, as
 * the per-variable sums do, which changes how many iterations and classes there are, not the
 * values): not bit for bit the exact mode's. The sums of a / p are compensated running sums
 * (Neumaier), correct to about an ulp whatever came and went (a merge adds both parts of an
 * edge's sum to the other edge's: still about an ulp; an element that moves between two
 * edges on one constraint leaves the constraint's sum cw as it is), so that levels equal
 * in exact arithmetic come out equal, or within a few ulps, which tie (TIE): a FATPIPE constraint
 * saturated with another fixes all its variables, one saturated just after only those left
 * (SimGrid's rule), so a tie must not depend on the history of a sum.
 *
 * Restarts. Most solves of a desynchronised alltoall follow flow ends only, and the filling
 * before the iteration that fixed an ended flow's class is the same without it: at each
 * earlier iteration the saturated constraints did not carry that flow (it would have been
 * fixed there), and its other constraints only lose usage, so their levels rise and stay
 * above the minimum. A solve after frees only (no join, no class left unfixed by the last
 * solve) therefore keeps the classes fixed before the first iteration r reached (the
 * smallest fixing iteration of a freed member's class; with a bound fixed at an earlier
 * iteration, that one: the classes it queued waited, the saturated constraints may carry
 * the flow) and fills again from r. The state at r: each constraint's remaining is taken
 * back from the last solve's log (the value before the first change of each iteration, in
 * iteration order: walked back to r), its usage and count of unfixed edges summed afresh
 * from the classes not kept, and the left-out constraints, when they had not come in
 * before r, keep out with the takes of the classes fixed before r (a log of their replay,
 * walked back alike; the replay at their coming in starts after those). The numbers are
 * those of a whole solve but for the order of the sums of usage (an ulp), and the cost is
 * that of the iterations redone: on issue 15's 256-rank mix on the fat tree 37 % of the
 * edges a whole solve would fix (95 % of the solves follow frees only).
 *
 * Reporting. The caller follows members through their class's level (lmm_var_level gives
 * GRP_K + the class's id, lmm_level its level): lmm_next_modified lists only the
 * variables that changed class (new, moved by a split or a merge), lmm_next_level the levels
 * that changed. Ids go to the classes alive after a solve; one freed by a solve is reused
 * from the next solve on (the caller has seen its level emptied by then). */
#include "lmm_impl.h"

#include <assert.h>
#include <limits.h>
#include <stdio.h>

#define TIE 4e-15 /* relative: levels this close saturate in one iteration (see lh_min) */
/* A class of an iteration merges into the iteration's largest one when it has at most 1 /
 * SMALL_MERGE of that one's members (see merge_run; 4 and 16 cost 1.4 % and 1.2 % more
 * instructions than 8 on the 256-rank mix with 4 ranks a host, 2: 4.7 %, never: 4.8 %). */
#define SMALL_MERGE 8
#ifndef BLOCK_COVER
#define BLOCK_COVER 64 /* covered members per covering edge that make a block (merge_run) */
#endif
#ifndef DEFER_RATIO
#define DEFER_RATIO 1.25 /* left out: constraints starting above this x the last top level */
#endif
#define DEFER_GAP 1e-9 /* relative: a level's rounding below where it started (see defer_in) */
#define DEFERRED (-2)   /* a constraint's light while left out */
#ifndef COLD_STEP
#define COLD_STEP 2 /* cold lights come in up to this x the lowest level among them */
#endif

/* ======================================================================
 * Ids (level indices), classes
 * ====================================================================== */

void lmm_cls_init(lmm_system *s) {
  s->cls_on = 1;
  pool_init(&s->cls_pool, sizeof(lmm_class));
  pool_init(&s->edge_pool, sizeof(lmm_edge));
  s->defer_next = INFINITY;
  s->rs_full = 1;
  s->rs_it = LONG_MAX;
  if (!(s->defer_ratio > 0))
    s->defer_ratio = DEFER_RATIO;
  s->defer_it = LONG_MAX;
  s->bound_it = LONG_MAX;
}

void lmm_cls_destroy(lmm_system *s) {
  if (!s->cls_on)
    return;
  for (size_t i = 0; i < s->n_cls_live; i++) {
    free(s->cls_live[i]->hot);
    free(s->cls_live[i]->mem);
  }
  for (size_t i = 0; i < s->n_hot_cnsts; i++)
    free(s->hot_cnsts[i]->ehot);
  free(s->hot_cnsts);
  pool_destroy(&s->cls_pool);
  pool_destroy(&s->edge_pool);
  free(s->cls_ids);
  free(s->cls_live);
  free(s->cls_free);
  free(s->cls_pend);
  free(s->used);
  free(s->lh);
  free(s->cold);
  free(s->satc2);
  free(s->satn);
  free(s->defer);
  free(s->ccls);
  free(s->cq);
  free(s->lev_out);
  free(s->clog);
  free(s->dlog);
  free(s->rc);
  free(s->it_top);
}

void lmm_cls_stats(const lmm_system *s) {
  if (!s->cls_on)
    return;
  double n = (double)(s->c_solves + !s->c_solves);
  fprintf(stderr,
          "lmm: class mode: %llu solves; per solve %.1f classes fixed, %.1f edges; %llu splits, %llu "
          "variables moved (%llu by merges), %llu merges; %zu level ids\n",
          (unsigned long long)s->c_solves, (double)s->c_classes / n, (double)s->c_edges / n,
          (unsigned long long)s->c_split, (unsigned long long)s->c_moved, (unsigned long long)s->c_mmoved,
          (unsigned long long)s->c_merge,
          s->n_cls_ids);
  fprintf(stderr,
          "lmm: class mode: %llu solves restarted, %.1f iterations kept each; %llu edges handed over; %llu "
          "splits' covered members joined a fixed class at once\n",
          (unsigned long long)s->c_restarts, (double)s->c_kept / (double)(s->c_restarts + !s->c_restarts),
          (unsigned long long)s->c_handed, (unsigned long long)s->c_into);
}

/* A new class, born in the solve stamped born (the running one, or the next one between
 * solves). Its id comes when a solve reports it (most new classes merge before). */
static lmm_class *cls_new(lmm_system *s, uint64_t born) {
  lmm_class *k = pool_get(&s->cls_pool);
  k->reported = NAN;
  k->min_bp = INFINITY;
  k->it = -2;
  k->id = -1;
  k->born = born;
  GROW(s->cls_live, s->cls_live_cap, s->n_cls_live + 1);
  k->li = s->n_cls_live;
  s->cls_live[s->n_cls_live++] = k;
  return k;
}

static void cls_give_id(lmm_system *s, lmm_class *k) {
  if (s->n_cls_free > 0) {
    k->id = s->cls_free[--s->n_cls_free];
  } else {
    GROW(s->cls_ids, s->cls_ids_cap, s->n_cls_ids + 1);
    k->id = (int)s->n_cls_ids++;
  }
  s->cls_ids[k->id] = k;
}

/* An empty class goes; its id is reused from the next solve on. */
static void cls_drop(lmm_system *s, lmm_class *k) {
  assert(k->n == 0 && k->nhot == 0);
  free(k->hot);
  free(k->mem);
  if (k->id >= 0) {
    s->cls_ids[k->id] = NULL;
    GROW(s->cls_pend, s->cls_pend_cap, s->n_cls_pend + 1);
    s->cls_pend[s->n_cls_pend++] = k->id;
  }
  s->cls_live[k->li] = s->cls_live[--s->n_cls_live];
  s->cls_live[k->li]->li = k->li;
  if (k->fixed == s->csolve && k->cci < s->n_ccls && s->ccls[k->cci] == k)
    s->ccls[k->cci] = NULL; /* (restart_sums walks the classes fixed by the last solve) */
  if (s->newcls == k)
    s->newcls = NULL;
  pool_put(&s->cls_pool, k);
}

double lmm_cls_level(const lmm_system *s, int k) {
  size_t id = (size_t)(k - GRP_K);
  return k >= GRP_K && id < s->n_cls_ids && s->cls_ids[id] ? s->cls_ids[id]->level : 0.0;
}

/* ======================================================================
 * Edges and their running sums
 * ====================================================================== */

/* c may no longer be left out: the classes with an edge on it lose their partition (see
 * "Left-out edges apart"). */
static void apart_lose(const lmm_cnst *c) {
  for (size_t i = 0; i < c->nehot; i++)
    c->ehot[i].k->apart = c->ehot[i].k->clean = 0;
}

/* c enters or leaves the list of constraints with an edge of npos > 0 (one ever left out
 * may be in when it takes part again). */
static void used_add(lmm_system *s, lmm_cnst *c) {
  if (c->def_solve != 0)
    apart_lose(c);
  GROW(s->used, s->used_cap, s->n_used + 1);
  c->ci = s->n_used;
  s->used[s->n_used++] = c;
}
static void used_del(lmm_system *s, lmm_cnst *c) {
  s->used[c->ci] = s->used[--s->n_used];
  s->used[c->ci]->ci = c->ci;
}

/* The class side and the constraint side of e. */
static inline lmm_chot *kside(const lmm_edge *e) { return &e->k->hot[e->ki]; }
static inline lmm_khot *cside(const lmm_edge *e) { return &e->c->ehot[e->ci]; }

/* c's sum of edge weights moves by d. */
static inline void cw_add(lmm_cnst *c, double d) {
  ksum_add(&c->cws, d);
  c->cw = ksum_val(&c->cws);
}

/* e's npos goes from 0 to 1 (d = 1) or from 1 to 0 (d = -1): c's counts follow, and during
 * a solve the count of unfixed classes' edges (n_act). */
static void npos_edge(lmm_system *s, lmm_edge *e, int d) {
  lmm_cnst *c = e->c;
  if (d > 0)
    e->k->clean = 0;
  if (d > 0 && c->n_pos++ == 0)
    used_add(s, c);
  else if (d < 0 && --c->n_pos == 0)
    used_del(s, c);
  if (e->k->fixed != s->csolve)
    c->n_act += (size_t)d;
}

/* Slots a and b of k's edges trade places. */
static void hot_swap(lmm_class *k, size_t a, size_t b) {
  lmm_chot t = k->hot[a];
  k->hot[a] = k->hot[b];
  k->hot[b] = t;
  k->hot[a].e->ki = a;
  k->hot[b].e->ki = b;
}

/* Slots a and b of c's edges trade places (see candidates). */
static void ehot_swap(lmm_cnst *c, size_t a, size_t b) {
  lmm_khot t = c->ehot[a];
  c->ehot[a] = c->ehot[b];
  c->ehot[b] = t;
  c->ehot[a].e->ci = a;
  c->ehot[b].e->ci = b;
}

/* h (its edge's) takes a slot in k's array: the end, or the end of the part not left out
 * (see "Left-out edges apart"), whose first left-out edge goes to the end. */
static void hot_put(lmm_class *k, lmm_chot h) {
  GROW(k->hot, k->hot_cap, k->nhot + 1);
  h.e->ki = k->nhot;
  k->hot[k->nhot++] = h;
  if (k->nin < k->nhot - 1)
    hot_swap(k, k->nin, k->nhot - 1);
  k->nin++;
  k->clean = 0;
}

/* e gets a slot at the end of its class's array and of its constraint's. */
static void hot_add(lmm_system *s, lmm_edge *e) {
  lmm_class *k = e->k;
  lmm_cnst *c = e->c;
  hot_put(k, (lmm_chot){c, 0.0, 0, e});
  if (!c->ehot_cap) {
    GROW(s->hot_cnsts, s->hot_cnsts_cap, s->n_hot_cnsts + 1);
    s->hot_cnsts[s->n_hot_cnsts++] = c;
  }
  GROW(c->ehot, c->ehot_cap, c->nehot + 1);
  e->ci = c->nehot;
  c->ehot[c->nehot++] = (lmm_khot){k, 0, e};
}

/* e leaves its class's array: the last slot of its part (see "Left-out edges apart") fills
 * its place, and the array's last slot that one's. */
static void kslot_del(lmm_edge *e) {
  lmm_class *k = e->k;
  size_t i = e->ki;
  if (i < k->nin) {
    k->nin--;
    if (i != k->nin)
      hot_swap(k, i, k->nin);
    i = k->nin;
  }
  k->hot[i] = k->hot[--k->nhot];
  k->hot[i].e->ki = i;
}

/* A new edge of class k on c, made c's tmp_edge. */
static lmm_edge *edge_make(lmm_system *s, lmm_class *k, lmm_cnst *c) {
  lmm_edge *e = pool_get(&s->edge_pool);
  e->k = k;
  e->c = c;
  hot_add(s, e);
  c->tmp_edge = e;
  return e;
}

/* c->tmp_edge when it is class k's edge on c (the last edge built or indexed on c; a freed
 * edge has lost its class: its first word links the pool), else NULL. */
static inline lmm_edge *tmp_edge_of(const lmm_cnst *c, const lmm_class *k) {
  lmm_edge *e = c->tmp_edge;
  return e && e->k == k && e->c == c ? e : NULL;
}

/* The edge of class k on c, created if none (tmp_edge_of). */
static inline lmm_edge *edge_for(lmm_system *s, lmm_class *k, lmm_cnst *c) {
  lmm_edge *e = tmp_edge_of(c, k);
  return e ? e : edge_make(s, k, c);
}

/* k's edges become their constraints' tmp_edge (edge_for finds them). */
static void index_edges(const lmm_class *k) {
  for (size_t j = 0; j < k->nhot; j++)
    k->hot[j].c->tmp_edge = k->hot[j].e;
}

static void edge_unlink(lmm_system *s, lmm_edge *e) {
  lmm_cnst *c = e->c;
  kslot_del(e);
  c->ehot[e->ci] = c->ehot[--c->nehot];
  c->ehot[e->ci].e->ci = e->ci;
  pool_put(&s->edge_pool, e);
}

/* FATPIPE e's max of a / p and how many elements reach it, from its elements (its top one
 * left). */
static void edge_fp_rescan(lmm_edge *e) {
  e->fpmax = 0.0;
  e->fpcnt = 0;
  for (const lmm_elem *x = e->head; x; x = x->ac_next) {
    if (x->weight <= 0)
      continue;
    double ap = x->weight / x->var->penalty;
    if (ap > e->fpmax)
      e->fpmax = ap, e->fpcnt = 1;
    else if (ap == e->fpmax)
      e->fpcnt++;
  }
}

/* FATPIPE e: an element with a / p = ap > 0 joins / left (x already off e's list). */
static void fp_gain(lmm_edge *e, double ap) {
  if (ap > e->fpmax)
    e->fpmax = ap, e->fpcnt = 1;
  else if (ap == e->fpmax)
    e->fpcnt++;
}
static void fp_lose(lmm_edge *e, double ap) {
  if (ap == e->fpmax && --e->fpcnt == 0)
    edge_fp_rescan(e);
}

/* e's sums gain an element with a > 0 and a / p = ap: its npos (both sides; c's counts when
 * it leaves 0), its running sum and w, its FATPIPE max. */
__attribute__((always_inline)) static inline void edge_gain(lmm_system *s, lmm_edge *e,
                                                            double ap) {
  lmm_chot *h = kside(e);
  cside(e)->npos = ++h->npos;
  if (h->npos == 1)
    npos_edge(s, e, 1);
  ksum_add(&e->ws, ap);
  h->w = dmax(ksum_val(&e->ws), 0.0);
  if (e->c->fatpipe)
    fp_gain(e, ap);
}

/* e had no element with a > 0 left: w is exactly 0, and so is its running sum. Returns the
 * w it had. */
static double edge_zero(lmm_system *s, lmm_edge *e) {
  lmm_chot *h = kside(e);
  double old = h->w;
  npos_edge(s, e, -1);
  e->ws = (lmm_ksum){0.0, 0.0};
  h->w = 0.0;
  e->fpmax = 0.0;
  e->fpcnt = 0;
  return old;
}

/* The reverse of edge_gain; returns the change of e's w as c's sum (cw) takes it. */
static inline double edge_lose(lmm_system *s, lmm_edge *e, double ap) {
  lmm_chot *h = kside(e);
  cside(e)->npos = --h->npos;
  if (h->npos == 0)
    return -edge_zero(s, e);
  ksum_add(&e->ws, -ap);
  h->w = dmax(ksum_val(&e->ws), 0.0);
  if (e->c->fatpipe)
    fp_lose(e, ap);
  return -ap;
}

/* x goes on e's list (first) / off its edge's list. */
static inline void elem_link(lmm_edge *e, lmm_elem *x) {
  x->edge = e;
  x->ac_prev = NULL;
  x->ac_next = e->head;
  if (e->head)
    e->head->ac_prev = x;
  e->head = x;
  e->n++;
}
static inline void elem_unlink(lmm_elem *x) {
  lmm_edge *e = x->edge;
  if (x->ac_prev)
    x->ac_prev->ac_next = x->ac_next;
  else
    e->head = x->ac_next;
  if (x->ac_next)
    x->ac_next->ac_prev = x->ac_prev;
  x->ac_prev = x->ac_next = NULL;
  x->edge = NULL;
  e->n--;
}

/* x joins edge e. */
static void edge_add(lmm_system *s, lmm_edge *e, lmm_elem *x) {
  elem_link(e, x);
  if (x->weight > 0) {
    double ap = x->weight / x->var->penalty;
    edge_gain(s, e, ap);
    cw_add(e->c, ap);
  }
}

/* x leaves its edge, which goes when empty. */
static void edge_del(lmm_system *s, lmm_elem *x) {
  lmm_edge *e = x->edge;
  elem_unlink(x);
  if (x->weight > 0)
    cw_add(e->c, edge_lose(s, e, x->weight / x->var->penalty));
  if (e->n == 0)
    edge_unlink(s, e);
}

/* x moves from its edge to f, on the same constraint: c's sum of w is unchanged (no cw
 * update), and its count of edges with npos > 0 never passes through 0 (f gains first). */
static void edge_move(lmm_system *s, lmm_elem *x, lmm_edge *f) {
  lmm_edge *e = x->edge;
  elem_unlink(x);
  elem_link(f, x);
  if (x->weight > 0) {
    double ap = x->weight / x->var->penalty;
    edge_gain(s, f, ap);
    edge_lose(s, e, ap);
  }
  if (e->n == 0)
    edge_unlink(s, e);
}

/* ======================================================================
 * Members
 * ====================================================================== */

static void member_add(lmm_class *k, lmm_var *v) {
  v->cls = k;
  k->cov = 0; /* the covering edges of its last fixing may not hold v */
  GROW(k->mem, k->mem_cap, k->n + 1);
  v->cslot = k->n;
  k->mem[k->n++] = (lmm_cmem){v, 0};
  if (v->bound > 0)
    k->min_bp = dmin(k->min_bp, v->bound * v->penalty);
}

/* v leaves k's array (the last member fills its slot). */
static void member_del(lmm_class *k, lmm_var *v) {
  k->mem[v->cslot] = k->mem[--k->n];
  k->mem[v->cslot].v->cslot = v->cslot;
  v->cls = NULL;
}

/* v leaves its class for k (being built: its edges are the constraints' tmp_edge); listed.
 * Its elements on edges a split handed over to k whole are there already. */
static void var_move(lmm_system *s, lmm_var *v, lmm_class *k) {
  member_del(v->cls, v);
  for (lmm_elem *x = v->elems; x; x = x->var_next) {
    x->edge->mv = 0;
    if (x->edge->k != k)
      edge_move(s, x, edge_for(s, k, x->cnst));
  }
  member_add(k, v);
  lmm_dirty_add(s, v);
  s->c_moved++;
}

/* Edge e becomes class k's as it is (list, sums, counts: the same constraint, whose sums do
 * not change), the edge of k that c->tmp_edge gives: every element of e belongs to a member
 * that moves to k (a split, a merge). */
static void edge_handover(lmm_edge *e, lmm_class *k) {
  lmm_chot h = kside(e)[0];
  kslot_del(e);
  e->k = k;
  hot_put(k, h);
  cside(e)->k = k;
  e->c->tmp_edge = e;
}

/* Edge e's elements join f (same constraint, another class), e goes: its list goes in front
 * of f's, its running sum (both parts) is added to f's, its npos and FATPIPE max join f's.
 * c's sum of w is unchanged; its counts of edges with npos > 0 (all, and during the filling
 * unfixed) lose e's if both counted. */
static void edge_splice(lmm_system *s, lmm_edge *e, lmm_edge *f) {
  lmm_elem *tail = e->head;
  for (lmm_elem *x = e->head; x; x = x->ac_next)
    x->edge = f, tail = x;
  tail->ac_next = f->head;
  if (f->head)
    f->head->ac_prev = tail;
  f->head = e->head;
  f->n += e->n;
  lmm_chot *he = kside(e), *hf = kside(f);
  if (he->npos > 0) {
    f->k->clean &= hf->npos > 0;
    if (hf->npos > 0) { /* one edge with npos > 0 less on c (never the last: f's) */
      e->c->n_pos--;
      if (e->k->fixed != s->csolve) /* (during the filling: see split_into) */
        e->c->n_act--;
    }
    cside(f)->npos = hf->npos += he->npos;
    ksum_add(&f->ws, e->ws.s);
    ksum_add(&f->ws, e->ws.c);
    hf->w = dmax(ksum_val(&f->ws), 0.0);
    if (e->fpmax > f->fpmax)
      f->fpmax = e->fpmax, f->fpcnt = e->fpcnt;
    else if (e->fpmax == f->fpmax)
      f->fpcnt += e->fpcnt;
  }
  edge_unlink(s, e);
}

/* ======================================================================
 * Changes (between solves)
 * ====================================================================== */

void lmm_cls_join(lmm_system *s, lmm_var *v) {
  s->rs_full = 1;
  if (!s->newcls)
    s->newcls = cls_new(s, s->csolve + 1);
  lmm_class *k = s->newcls;
  member_add(k, v);
  for (lmm_elem *x = v->elems; x; x = x->var_next)
    edge_add(s, edge_for(s, k, x->cnst), x);
  lmm_dirty_add(s, v);
  s->modified = 1;
}

/* A member of class k frees capacity (it leaves, or a coefficient goes down): the next
 * solve fills again from k's fixing iteration, or an earlier bound's (see "Restarts"), or
 * from the start when the last solve did not fix k. */
static void restart_at(lmm_system *s, const lmm_class *k) {
  if (k->fixed != s->csolve) {
    s->rs_full = 1;
    return;
  }
  long r = k->fit < s->bound_it ? k->fit : s->bound_it;
  if (r < s->rs_it)
    s->rs_it = r;
}

/* v leaves its class (its edges and member slot); 1 when the class went with it. */
static void leave(lmm_system *s, lmm_var *v) {
  lmm_class *k = v->cls;
  restart_at(s, k);
  for (lmm_elem *x = v->elems; x; x = x->var_next)
    edge_del(s, x);
  member_del(k, v);
  if (k->n == 0)
    cls_drop(s, k);
}

/* v's coefficient on x's constraint becomes w: v stays in its class, whose edge there takes
 * the change (the engine's riders: a rider's share comes and goes). Going down is a free
 * for the restarts (see "Restarts": the iterations before v's class's fixing keep, since
 * v's constraints only lose usage); going up may lower any level: the next solve is a full
 * one, as after a join, which lists v too. Leaving and joining again instead would walk all
 * of v's elements twice per coefficient, and move v to a new class for the solve to split
 * out. */
void lmm_cls_reweight(lmm_system *s, lmm_var *v, lmm_elem *x, double w) {
  if (w > x->weight) {
    s->rs_full = 1;
    lmm_dirty_add(s, v); /* listed by the next solve, as after a join (a new rider's start) */
  } else {
    restart_at(s, v->cls);
  }
  lmm_edge *e = x->edge;
  double d = x->weight > 0 ? edge_lose(s, e, x->weight / v->penalty) : 0.0;
  x->weight = w;
  if (w > 0) {
    edge_gain(s, e, w / v->penalty);
    d += w / v->penalty;
  }
  cw_add(e->c, d);
  s->modified = 1;
}

void lmm_cls_leave(lmm_system *s, lmm_var *v) {
  leave(s, v);
  s->modified = 1;
}

/* Whether removing v can wait for the next solve: on each constraint of v that the last
 * solve saturated (it fixed nfixed members there: their level is the highest on it), the
 * removals since then, this one included, stay within tol x nfixed (each of those members
 * would gain at most that share of a flow's rate). A constraint it did not saturate gains
 * capacity nobody is held back by. With tol 0: only when v uses no saturated constraint
 * (held by its bound, or not yet solved...: never a rate change). */
static int can_defer(const lmm_system *s, const lmm_var *v) {
  if (s->modified || v->cls->fixed != s->csolve)
    return 0; /* a solve is due anyway, or v was not solved by the last one */
  for (const lmm_elem *x = v->elems; x; x = x->var_next) {
    const lmm_cnst *c = x->cnst;
    if (x->weight > 0 && c->nfix_solve == s->csolve && c->nfixed > 0 &&
        !((double)(c->deferred + 1) <= s->tol * (double)c->nfixed))
      return 0;
  }
  return 1;
}

void lmm_cls_free(lmm_system *s, lmm_var *v) {
  if (!can_defer(s, v)) {
    lmm_cls_leave(s, v);
    return;
  }
  for (lmm_elem *x = v->elems; x; x = x->var_next)
    if (x->weight > 0 && x->cnst->nfix_solve == s->csolve)
      x->cnst->deferred++;
  s->c_deferred++;
  leave(s, v);
}

/* ======================================================================
 * The lights: a lazy heap of (level, constraint)
 * ====================================================================== */

static void fp_usage(const lmm_system *s, lmm_cnst *c);

static int lh_less(const light *a, const light *b) { return a->level < b->level; }

static void lh_down(lmm_system *s, size_t i) {
  light *h = s->lh, x = h[i];
  const size_t n = s->n_lh;
  for (size_t c; (c = 2 * i + 1) < n; i = c) {
    if (c + 1 < n && lh_less(&h[c + 1], &h[c]))
      c++;
    if (!lh_less(&h[c], &x))
      break;
    h[i] = h[c];
  }
  h[i] = x;
}

/* x replaces the top (the top popped, or stale): the hole goes down along the smaller
 * children to the bottom, one comparison per level, then x goes up from there (Floyd's
 * order: a top entry mostly belongs near the bottom). */
static void lh_top(lmm_system *s, light x) {
  light *h = s->lh;
  const size_t n = s->n_lh;
  size_t i = 0;
  for (size_t c; (c = 2 * i + 1) < n; i = c) {
    if (c + 1 < n && lh_less(&h[c + 1], &h[c]))
      c++;
    h[i] = h[c];
  }
  while (i > 0 && lh_less(&x, &h[(i - 1) / 2])) {
    h[i] = h[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h[i] = x;
}

/* c's level now (computed when it reaches the top of the heap, not at each change). */
static inline double lvl(const lmm_cnst *c) { return c->remaining / c->usage; }

static void lh_push(lmm_system *s, lmm_cnst *c) {
  GROW(s->lh, s->lh_cap, s->n_lh + 1);
  size_t i = s->n_lh++;
  light x = {lvl(c), c};
  while (i > 0 && lh_less(&x, &s->lh[(i - 1) / 2])) {
    s->lh[i] = s->lh[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  s->lh[i] = x;
}

static void lh_pop(lmm_system *s) {
  light x = s->lh[--s->n_lh];
  if (s->n_lh > 0)
    lh_top(s, x);
}

/* Whether c still takes part: some unfixed class, capacity and usage left. A constraint
 * that does not is dropped (light -1) for the rest of the solve. */
static int light_alive(const lmm_system *s, lmm_cnst *c) {
  if (c->light < 0)
    return 0;
  if (c->n_act == 0 || !double_positive(c->usage, s->precision) ||
      !double_positive(c->remaining, c->eps)) {
    c->light = -1;
    return 0;
  }
  return 1;
}

/* c's remaining is about to change in the current iteration: the first change of each
 * iteration logs the value before it (see "Restarts"). */
static inline void clog_note(lmm_system *s, lmm_cnst *c) {
  if (c->log_stamp == s->it_stamp)
    return;
  c->log_stamp = s->it_stamp;
  s->clog[s->n_clog++] = (lmm_clog){c, s->cur_it, c->remaining}; /* (room: fix_class) */
}

/* The left-out constraints come in (defer_in): each one gets what the classes fixed so far
 * took off it, in the order they were fixed (ccls), so that its remaining and usage are
 * the very numbers it would have had in the filling; its count of unfixed classes' edges
 * and, FATPIPE, its max are taken afresh. It then goes on the heap if still alive. */
static void defer_replay(lmm_system *s, size_t from) { /* (clean: "Left-out edges apart") */
  const double prec = s->precision;
  for (size_t i = from; i < s->n_ccls; i++) {
    const lmm_class *k = s->ccls[i];
    const lmm_chot *h = k->hot + (k->clean ? k->nin : 0), *end = k->hot + k->nhot;
    GROW(s->dlog, s->dlog_cap, s->n_dlog + (size_t)(end - h));
    for (; h < end; h++) {
      lmm_cnst *c = h->c;
      if (h->npos == 0 || c->light != DEFERRED)
        continue;
      if (s->defer_fresh) /* (else counted afresh: defer_recount) */
        c->n_act--;
      if (!c->fatpipe) {
        s->dlog[s->n_dlog++] = (lmm_clog){c, k->fit, c->remaining};
        double_update(&c->remaining, k->level * h->w, c->eps);
        double_update(&c->usage, h->w, prec);
      }
    }
  }
}

/* After a restart, a left-out constraint held the takes of the classes fixed before
 * dq_fit only: its usage and count of unfixed classes' edges are taken afresh. */
static void defer_recount(const lmm_system *s, lmm_cnst *c) {
  double u = 0.0;
  size_t n = 0;
  for (size_t i = 0; i < c->nehot; i++) {
    const lmm_khot *h = &c->ehot[i];
    if (h->npos == 0 || h->k->fixed == s->csolve)
      continue;
    n++;
    u += kside(h->e)->w;
  }
  c->n_act = n;
  c->usage = u;
}

/* An edge of an unfixed class on a left-out constraint, at slot ci of c's array. */
struct lmm_recount {
  lmm_cnst *c;
  size_t ci;
  double w;
};

static int recount_cmp(const void *a, const void *b) {
  const struct lmm_recount *x = a, *y = b;
  uintptr_t p = (uintptr_t)x->c, q = (uintptr_t)y->c; /* (grouped by constraint) */
  if (p != q)
    return p < q ? -1 : 1;
  return x->ci < y->ci ? -1 : x->ci > y->ci;
}

/* defer_recount on every left-out constraint, from the classes still unfixed when that is
 * less to walk than the constraints' edges (at defer_in most classes are fixed: on the
 * 256-rank desynchronised mix with one rank a host, 0.7 % of those edges are unfixed ones).
 * The same numbers: each constraint's usage adds its unfixed edges' w from 0 in the order
 * of its array, as defer_recount does. */
static void defer_recount_all(lmm_system *s) {
  size_t on_cnsts = 0, on_cls = 0, n = 0;
  for (size_t i = 0; i < s->n_defer; i++)
    on_cnsts += s->defer[i]->nehot;
  for (size_t i = 0; i < s->n_cls_live && on_cls < on_cnsts; i++)
    if (s->cls_live[i]->fixed != s->csolve)
      on_cls += s->cls_live[i]->nhot;
  if (on_cls >= on_cnsts) {
    for (size_t i = 0; i < s->n_defer; i++)
      defer_recount(s, s->defer[i]);
    return;
  }
  GROW(s->rc, s->rc_cap, on_cls);
  for (size_t i = 0; i < s->n_cls_live; i++) {
    const lmm_class *k = s->cls_live[i];
    if (k->fixed == s->csolve)
      continue;
    for (const lmm_chot *h = k->hot, *end = h + k->nhot; h < end; h++)
      if (h->npos > 0 && h->c->light == DEFERRED)
        s->rc[n++] = (struct lmm_recount){h->c, h->e->ci, h->w};
  }
  if (n > 1)
    qsort(s->rc, n, sizeof *s->rc, recount_cmp);
  for (size_t i = 0; i < s->n_defer; i++)
    s->defer[i]->n_act = 0, s->defer[i]->usage = 0.0;
  for (size_t i = 0; i < n; i++)
    s->rc[i].c->n_act++, s->rc[i].c->usage += s->rc[i].w;
}

/* The first class of ccls fixed at or after iteration it. */
static size_t ccls_from(const lmm_system *s, long it) {
  size_t i = 0;
  while (i < s->n_ccls && s->ccls[i]->fit < it)
    i++;
  return i;
}

static void defer_in(lmm_system *s) {
  if (s->defer_fresh) {
    for (size_t i = 0; i < s->n_defer; i++)
      s->defer[i]->n_act = s->defer[i]->n_pos;
    defer_replay(s, 0);
  } else {
    defer_replay(s, ccls_from(s, s->dq_fit));
    defer_recount_all(s);
  }
  s->dq_fit = s->cur_it;
  for (size_t i = 0; i < s->n_defer; i++) {
    lmm_cnst *c = s->defer[i];
    c->light = c->fatpipe != 0;
    if (c->fatpipe)
      fp_usage(s, c);
    if (light_alive(s, c))
      lh_push(s, c);
  }
  s->n_defer = 0;
  s->defer_at = INFINITY;
  s->defer_it = s->cur_it;
}

/* Cold lights. After a restart, the constraints that the last solve did not saturate at
 * the restart's iteration or after it mostly stay below saturation again: they take part in
 * the filling as any other (fixing a class updates them), but their heap entries wait in
 * the cold array with the levels they had at the restart, cold_min the lowest. Levels only
 * rise during a filling (within DEFER_GAP of rounding), so none of them can be the minimum
 * or tie with it while the heap's fresh top stays below cold_min; when the top comes near,
 * those up to COLD_STEP x cold_min (and up to the top) go on the heap with the levels they
 * have then, and cold_min is taken again over the others; all of them when the heap
 * empties. What that saves: building a heap of every constraint at each restart, and
 * popping the dead ones (-2.3 % instructions on issue 15's 256-rank mix with 4 ranks a
 * host; COLD_STEP 1.1, 1.5, 3, 5 and all at once: -0.4, -2.0, -2.2, -1.9 and -1.2 %). */
static void cold_in(lmm_system *s, double upto) {
  size_t n = 0;
  s->cold_min = INFINITY;
  for (size_t i = 0; i < s->n_cold; i++) {
    light x = s->cold[i];
    if (x.level > upto) {
      s->cold[n++] = x;
      s->cold_min = dmin(s->cold_min, x.level);
    } else if (light_alive(s, x.cnst)) {
      lh_push(s, x.cnst);
    }
  }
  s->n_cold = n;
}

/* The minimum level m, its constraints popped into satc2 (those within TIE of m: the class
 * sums are running sums, so a level equal to another in a per-variable solve may come out
 * an ulp off here; a FATPIPE constraint missing the tie of its first saturation would then
 * fix its other variables much later); -1 when no constraint is left. A stale entry (its
 * constraint's level rose) is pushed again with the level it has now. */
static double lh_min(lmm_system *s) {
  s->n_satc2 = 0;
  double m = -1;
  while (s->n_lh > 0 || (m < 0 && (s->n_defer > 0 || s->n_cold > 0))) {
    if (s->n_lh == 0) { /* only cold or left-out constraints are left */
      if (s->n_cold > 0)
        cold_in(s, INFINITY);
      else
        defer_in(s);
      continue;
    }
    light top = s->lh[0];
    if (!light_alive(s, top.cnst)) {
      lh_pop(s);
      continue;
    }
    double now = lvl(top.cnst);
    if (top.level != now) { /* it rose (never below the top's key): down from the top */
      s->lh[0].level = now;
      lh_down(s, 0);
      continue;
    }
    if (m >= 0 && !(top.level <= m * (1 + TIE)))
      break;
    double reach = top.level * (1 + TIE) * (1 + DEFER_GAP);
    if (m < 0 && s->n_cold > 0 && reach >= s->cold_min) {
      cold_in(s, dmax(reach, COLD_STEP * s->cold_min)); /* one may tie with the top, or below */
      continue;
    }
    if (m < 0 && s->n_defer > 0 && reach >= s->defer_at) {
      defer_in(s); /* a left-out constraint may tie with the top or be below it */
      continue;
    }
    if (m < 0)
      m = top.level;
    lh_pop(s);
    GROW(s->satc2, s->satc2_cap, s->n_satc2 + 1);
    s->satc2[s->n_satc2++] = top.cnst;
  }
  return m;
}

/* FATPIPE c's usage: the max of fpmax over the edges of unfixed classes. */
static void fp_usage(const lmm_system *s, lmm_cnst *c) {
  c->usage = 0.0;
  c->top_count = 0;
  for (size_t i = 0; i < c->nehot; i++) {
    const lmm_khot *h = &c->ehot[i];
    if (h->npos == 0 || h->k->fixed == s->csolve)
      continue;
    if (h->e->fpmax > c->usage)
      c->usage = h->e->fpmax, c->top_count = h->e->fpcnt;
    else if (h->e->fpmax == c->usage)
      c->top_count += h->e->fpcnt;
  }
}

/* c becomes a light for a whole solve: on the heap, left out, or out (light -1). */
static void init_light(lmm_system *s, lmm_cnst *c) {
  c->light = -1;
  c->remaining = c->bound;
  c->eps = c->bound * s->precision;
  c->n_act = c->n_pos;
  if (c->fatpipe)
    fp_usage(s, c);
  else
    c->usage = c->cw;
  if (!(c->usage > 0) || !double_positive(c->remaining, c->eps))
    return;
  c->light = c->fatpipe != 0;
  double l = lvl(c);
  if (l > s->defer_at) {
    c->light = DEFERRED;
    c->def_solve = s->csolve;
    GROW(s->defer, s->defer_cap, s->n_defer + 1);
    s->defer[s->n_defer++] = c;
    return;
  }
  s->lh[s->n_lh++] = (light){l, c};
}

/* Every used constraint becomes a light: remaining = bound, usage = its sum (FATPIPE: max). */
static void init_lights(lmm_system *s) {
  s->n_lh = s->n_defer = s->n_cold = 0;
  s->cold_min = INFINITY;
  s->defer_at = s->defer_at0 = s->defer_next;
  s->defer_it = s->bound_it = LONG_MAX;
  s->n_clog = s->n_dlog = s->n_it_top = 0;
  s->dq_fit = 0;
  s->defer_fresh = 1;
  GROW(s->lh, s->lh_cap, s->n_used);
  for (size_t i = 0; i < s->n_used; i++) {
    lmm_cnst *c = s->used[i];
    const int was_out = c->def_solve == s->csolve - 1; /* (see "Left-out edges apart") */
    init_light(s, c);
    if (was_out && c->light != DEFERRED)
      apart_lose(c);
  }
  for (size_t i = s->n_lh / 2; i-- > 0;)
    lh_down(s, i);
}

/* ======================================================================
 * The filling over classes
 * ====================================================================== */

/* A class made by a split during the solve: unfixed. */
static lmm_class *split_class(lmm_system *s) {
  lmm_class *k = cls_new(s, s->csolve);
  k->split = 1;
  return k;
}

/* Candidate k's covered part is a block (see "Blocks apart"): large against into, the class
 * it would join, and covered through few edges. */
static int covered_block(const lmm_class *k, const lmm_class *into) {
  return SMALL_MERGE * k->cover > into->n && k->cover >= BLOCK_COVER * k->cedges;
}

/* Class k (a candidate of the iteration stamped mark: its covered members' mark) splits:
 * returns the class of the covered members, k itself when they are the larger part (the
 * others move to a new class), else a new class, or into (see split_into; NULL is then
 * returned: into is queued already). From the end: a move fills the slot it leaves with the
 * last member, already seen. An edge all of whose elements move goes as it is, joined to
 * into's edge on its constraint when into has one. */
static lmm_class *split(lmm_system *s, lmm_class *k, uint64_t mark, lmm_class *into) {
  int keep_covered = !into && 2 * k->cover >= k->n;
  lmm_class *to = into ? into : split_class(s);
  for (size_t i = k->n; i-- > 0;)
    if ((k->mem[i].mark == mark) != keep_covered)
      for (const lmm_elem *x = k->mem[i].v->elems; x; x = x->var_next)
        x->edge->mv++;
  for (size_t j = k->nhot; j-- > 0;) { /* (a handover fills slot j from the end: seen) */
    lmm_edge *e = k->hot[j].e, *f = into ? tmp_edge_of(e->c, into) : NULL;
    if (e->mv != e->n)
      continue;
    e->mv = 0;
    if (f)
      edge_splice(s, e, f);
    else
      edge_handover(e, to);
    s->c_handed++;
  }
  for (size_t i = k->n; i-- > 0;)
    if ((k->mem[i].mark == mark) != keep_covered)
      var_move(s, k->mem[i].v, to);
  s->c_split++;
  s->it_split = 1;
  s->c_into += into != NULL;
  return keep_covered ? k : to == into ? NULL : to;
}

static void queue(lmm_system *s, lmm_class *k) {
  GROW(s->cq, s->cq_cap, s->n_cq + 1);
  s->cq[s->n_cq++] = k;
}

/* Marks the candidates of the saturated constraints (satc2). A candidate is wholly covered
 * ("full") when one of its edges there holds every member, or when every edge that covered
 * its last fixing is there (and no member joined since: members who leave do not matter).
 * The candidates' edges on a saturated constraint c move to the front of c's array as they
 * are found, and the walk stops at the n_act-th (c's count of unfixed classes' edges): their
 * number is kept in satn, for the walks of the same iteration (count_covered, and
 * mark_covering unless a split reshuffled the arrays). Most of c's edges are of classes
 * fixed before c saturates (84 % of the entries on issue 15's 512-rank mix with 4 ranks a
 * host, 92 % at 1,024), and the classes still unfixed when c saturates are mostly the same
 * from one solve to the next (a restart redoes the iterations from one before c's): the
 * walks then see those first, and few others (6.8 M entries instead of 37.8 M in candidates,
 * 92 k swaps, on the 512-rank mix). */
static size_t candidates(lmm_system *s, uint64_t mark) {
  size_t n = 0;
  GROW(s->satn, s->satn_cap, s->n_satc2);
  for (size_t i = 0; i < s->n_satc2; i++) {
    lmm_cnst *c = s->satc2[i];
    c->nfixed = 0; /* the members it fixes (see lmm_cls_free) */
    c->nfix_solve = s->csolve;
    c->sat_it = s->cur_it;
    c->deferred = 0;
    size_t found = 0;
    for (size_t j = 0; j < c->nehot && found < c->n_act; j++) {
      const lmm_khot *h = &c->ehot[j];
      lmm_class *k = h->k;
      if (h->npos == 0 || k->fixed == s->csolve)
        continue;
      if (j != found)
        ehot_swap(c, j, found);
      h = &c->ehot[found++];
      c->nfixed += h->npos;
      if (k->queued != mark) {
        k->queued = mark;
        k->cover = k->hits = k->cedges = 0;
        k->full = 0;
        queue(s, k);
        n++;
      }
      k->full |= h->npos == k->n;
      k->hits += k->cov && h->e->cov == k->cov;
    }
    s->satn[i] = found;
  }
  s->it_split = 0;
  return n;
}

/* A candidate not known to be covered counts its covered members (each marked once) over
 * its edges on the saturated constraints. */
static void count_covered(lmm_system *s, uint64_t mark) {
  for (size_t i = 0; i < s->n_satc2; i++)
    for (size_t j = 0; j < s->satn[i]; j++) {
      const lmm_khot *h = &s->satc2[i]->ehot[j];
      lmm_class *k = h->k;
      if (h->npos == 0 || k->queued != mark || k->full)
        continue;
      k->cedges++;
      for (const lmm_elem *x = h->e->head; x; x = x->ac_next)
        if (x->weight > 0 && k->mem[x->var->cslot].mark != mark) {
          k->mem[x->var->cslot].mark = mark;
          k->cover++;
        }
    }
}

/* After an iteration fixed its classes: each one's edges on the saturated constraints are
 * its covering edges (for the candidates of the next solves). Without a split they are the
 * candidates' edges, at the front of each array (see candidates). */
static void mark_covering(lmm_system *s) {
  for (size_t i = 0; i < s->n_satc2; i++)
    for (size_t j = 0, n = s->it_split ? s->satc2[i]->nehot : s->satn[i]; j < n; j++) {
      const lmm_khot *h = &s->satc2[i]->ehot[j];
      lmm_class *k = h->k;
      if (h->npos == 0 || k->fixed != s->csolve || k->it != s->cur_it)
        continue;
      if (k->cov <= s->cov_base) { /* first covering edge seen for this fixing */
        k->cov = ++s->cov_stamp;
        k->ncov = 0;
      }
      h->e->cov = k->cov;
      k->ncov++;
    }
}

/* The class that the covered members of this iteration's partly covered candidates join
 * at once (NULL: none): the largest wholly covered candidate.
 * The iteration fixes it, and the merge after the filling (merge_iterations) would have
 * moved those members into the largest class of the iteration a second time: on issue 15's
 * desynchronised mix nearly every member a merge moved came from a split. Not when a bound
 * may decide the iteration (some candidate's lower bound of b p is below m: fix_bounds then
 * fixes bounded members only, and the others wait, apart). */
static lmm_class *split_into(lmm_system *s, size_t n, double m) {
  lmm_class *into = NULL;
  for (size_t i = 0; i < n; i++) {
    lmm_class *k = s->cq[i];
    if (k->min_bp < m)
      return NULL;
    if ((k->full || k->cover == k->n) && (!into || k->n > into->n))
      into = k;
  }
  if (into)
    into->full = 1; /* (the members joining it are covered: it must not split after them) */
  return into;
}

/* Queues (cq) the classes to fix at this iteration (of level m): the candidates wholly
 * covered, and the covered part of the others. */
static void queue_saturated(lmm_system *s, double m) {
  uint64_t mark = ++s->tstamp;
  s->n_cq = 0;
  size_t n = candidates(s, mark), unknown = 0;
  for (size_t i = 0; i < n; i++) {
    lmm_class *k = s->cq[i];
    k->full |= k->cov && k->hits == k->ncov;
    unknown += !k->full;
  }
  if (!unknown)
    return;
  count_covered(s, mark);
  lmm_class *into = split_into(s, n, m);
  size_t q = 0;
  for (size_t i = 0, indexed = 0; i < n; i++) {
    lmm_class *k = s->cq[i];
    if (!k->full && k->cover < k->n) {
      /* (else a new class: see split) */
      int redirect = into && 2 * k->cover < k->n && !covered_block(k, into);
      if (redirect && !indexed)
        index_edges(into);
      indexed = redirect; /* (a new class's edges take the constraints' tmp_edge) */
      k = split(s, k, mark, redirect ? into : NULL);
    }
    if (k)
      s->cq[q++] = k;
  }
  s->n_cq = q;
}

/* Left-out edges apart. About half of a class's edges on issue 15's mixes are on left-out
 * constraints (a fat tree's switch links, far from saturation), which the filling skips
 * while they are out, and a restart's sums recount (defer_recount). A class keeps those it
 * has met in the last part of its array, hot[nin, nhot) (apart set): fix_class walks only
 * hot[0, nin) while the left-out constraints are out, moving there the left-out edges it
 * meets, and the restart's sums skip them when the restart leaves them out. A left-out
 * constraint stays so at every restart until the next whole solve (restart_lights: the
 * same set, which comes in at one iteration or not at all); the classes on a constraint
 * that leaves the set (a whole solve that does not leave it out, or a use again after none,
 * used_add) lose their partition (apart_lose), and a class whose partition is lost walks
 * all its edges until its next fixing while they are out. Edges come and go in the first
 * part (hot_put, kslot_del). Same numbers: each constraint sees one take per class, in
 * class order, whatever the order of a class's edges.
 * A class fixed while they were out has all its left-out edges with npos > 0 in the last
 * part (clean), until an edge joins its first part (hot_put) or one there goes from npos 0
 * to more (npos_edge, edge_splice), or it loses its partition: defer_replay, which gives
 * the left-out constraints the takes of the classes fixed before they come in, walks only
 * the last part of the clean ones (on the 256-rank desynchronised mix with one rank a
 * host, 30 M edges instead of 95 M: -1.3 % instructions).
 *
 * Fixes class k at level m: takes m w off each constraint it uses that is still in the
 * filling (light >= 0: light is its fatpipe flag; n_act is read only then). */
static void fix_class(lmm_system *s, lmm_class *k, double m, long it) {
  k->cov = 0; /* its covering edges: mark_covering (none when a bound fixes it) */
  k->level = m;
  k->fixed = s->csolve;
  k->it = it;
  k->fit = s->cur_it;
  GROW(s->ccls, s->ccls_cap, s->n_ccls + 1);
  k->cci = s->n_ccls;
  s->ccls[s->n_ccls++] = k;
  const double prec = s->precision;
  GROW(s->clog, s->clog_cap, s->n_clog + k->nhot);
  const int apart = s->n_defer > 0; /* left-out constraints still out: theirs apart */
  size_t n = k->nhot;
  if (apart) {
    if (!k->apart)
      k->apart = 1, k->nin = k->nhot;
    n = k->nin;
  }
  k->clean = apart; /* (the walk below moves them) */
  for (size_t j = 0; j < n;) {
    const lmm_chot *h = &k->hot[j];
    lmm_cnst *c = h->c;
    if (h->npos == 0 || c->light < 0) { /* npos > 0: c is used, initialised by this solve */
      if (apart && h->npos > 0 && c->light == DEFERRED) {
        hot_swap(k, j, --n); /* (slot j again: an edge not yet seen) */
        k->nin = n;
      } else {
        j++;
      }
      continue;
    }
    j++;
    c->n_act--;
    if (c->light == 0) {
      clog_note(s, c);
      double_update(&c->remaining, m * h->w, c->eps);
      double_update(&c->usage, h->w, prec);
    } else if (h->e->fpmax == c->usage && (c->top_count -= h->e->fpcnt) == 0) {
      fp_usage(s, c);
    }
  }
}

/* The exact smallest b p over k's bounded members (INFINITY: none). */
static double class_min_bp(lmm_class *k) {
  double m = INFINITY;
  for (size_t i = 0; i < k->n; i++)
    if (k->mem[i].v->bound > 0)
      m = dmin(m, k->mem[i].v->bound * k->mem[i].v->penalty);
  k->min_bp = m;
  return m;
}

/* Some queued member has b p below the level: only the members at the smallest b p
 * (within the precision) are fixed, at their bound, each as a class of its own; the
 * queued classes wait. Returns 1 when that was the case. */
static int fix_bounds(lmm_system *s, double m) {
  double min_bound = INFINITY;
  for (size_t i = 0; i < s->n_cq; i++)
    if (s->cq[i]->min_bp < m && class_min_bp(s->cq[i]) < m)
      min_bound = dmin(min_bound, s->cq[i]->min_bp);
  if (isinf(min_bound))
    return 0;
  for (size_t i = 0; i < s->n_cq; i++) {
    lmm_class *k = s->cq[i];
    if (!double_equals(k->min_bp, min_bound, s->precision))
      continue;
    for (size_t q = k->n; q-- > 0;) {
      lmm_var *v = k->mem[q].v;
      if (v->bound <= 0 || !double_equals(min_bound, v->bound * v->penalty, s->precision))
        continue;
      lmm_class *b = k;
      if (k->n > 1) {
        b = split_class(s);
        var_move(s, v, b);
      }
      fix_class(s, b, v->bound * v->penalty, -1);
    }
    if (k->n > 0 && k->fixed != s->csolve)
      class_min_bp(k);
  }
  return 1;
}

/* From iteration it on (top: the level of the one before); stops when every class is fixed
 * (the constraints left are dead entries of the heap). */
static void fill(lmm_system *s, long it, double top) {
  for (double m; s->n_ccls < s->n_cls_live; it++) {
    s->cur_it = it;
    s->it_stamp++;
    if ((m = lh_min(s)) < 0)
      break;
    top = m;
    GROW(s->it_top, s->it_top_cap, s->n_it_top + 1);
    s->it_top[s->n_it_top++] = m;
    queue_saturated(s, m);
    if (s->n_cq == 0) { /* no unfixed class on them (never with exact counts): out */
      for (size_t i = 0; i < s->n_satc2; i++)
        s->satc2[i]->light = -1;
      continue;
    }
    s->cov_base = s->cov_stamp;
    if (fix_bounds(s, m)) {
      if (s->bound_it == LONG_MAX)
        s->bound_it = it;
    } else {
      for (size_t i = 0; i < s->n_cq; i++)
        fix_class(s, s->cq[i], m, it);
      mark_covering(s);
    }
    for (size_t i = 0; i < s->n_satc2; i++) /* still in (a bound decided): again */
      if (light_alive(s, s->satc2[i]))
        lh_push(s, s->satc2[i]);
  }
  s->defer_next = top > 0 ? top * s->defer_ratio : INFINITY;
}

/* ======================================================================
 * After the filling: merges, reporting
 * ====================================================================== */

/* Class o (new since the last solve) joins class k (same level): o's edges join k's on the
 * same constraints (their elements move) or become k's; o's members are listed. */
static void merge(lmm_system *s, lmm_class *k, lmm_class *o) {
  uint64_t kc = o->cov ? k->cov : 0; /* both fixed by one iteration: the covering edges join */
  while (o->nhot > 0) {
    lmm_edge *e = o->hot[o->nhot - 1].e;
    lmm_edge *f = tmp_edge_of(e->c, k);
    int covering = kc && e->cov == o->cov;
    if (f) {
      edge_splice(s, e, f);
      if (covering && f->cov != kc)
        f->cov = kc, k->ncov++;
      continue;
    }
    e->cov = covering ? kc : 0;
    k->ncov += covering;
    edge_handover(e, k);
  }
  while (o->n > 0) {
    lmm_var *v = o->mem[o->n - 1].v;
    member_del(o, v);
    member_add(k, v);
    lmm_dirty_add(s, v);
    s->c_moved++;
    s->c_mmoved++;
  }
  k->cov = kc;
  k->min_bp = dmin(k->min_bp, o->min_bp);
  cls_drop(s, o);
  s->c_merge++;
}

/* Blocks apart. On the cabinets, most moves are of blocks: the flows between two cabinets
 * (1,000 to 2,200 at once at 512 ranks with one rank a host) go from the class of the
 * sender's cabinet link to the class of the receiver's, and back, each time the two links'
 * levels cross (0.1 % to 1 % apart). Merged into the largest class of its iteration, such a
 * block splits out of it again at the next crossing; kept as a class of its own, it is
 * fixed whole by whichever link comes first, and moves no more. A block is told by its
 * members sharing their links:
 * - a covered part of at least 1 / SMALL_MERGE of the class it would join at once, covered
 *   through at least BLOCK_COVER members an edge, does not join it (covered_block);
 * - a split part born in this solve with no more edges than members merges only as the
 *   older classes do, when it has at most 1 / SMALL_MERGE of the largest's members.
 * On a fat tree with one rank a host a split part is mostly flows of distinct node links
 * (several edges a member, one member an edge): they merge as before. Measured (same
 * simulated times; moves, CPU): the desynchronised mix with one rank a host on the cabinets,
 * 22.8 M -> 4.6 M moves and 35.0 s -> 12.8 s at 512 ranks, 134 M -> 23.7 M and 215.7 s ->
 * 62.0 s at 1,024; the 256-rank IS-like alltoallv there 2.89 M -> 0.78 M; with 4 ranks a
 * host on the fat tree, the 512-rank mix 1.72 M -> 1.19 M and the 256-rank alltoallv 1.68 M
 * -> 0.99 M. With one rank a host on the fat tree, more classes for fewer moves: the mix
 * +0.1 % instructions at 128 ranks, +1.6 % at 256 (2.39 M -> 2.04 M moves, the same CPU
 * time); BLOCK_COVER 8: +3.2 % at 128, 32: +0.5 %. */

/* Merges the new classes of ccls[i..j) (one iteration's, at one level) but blocks, and the
 * small old ones, into the largest. */
static void merge_run(lmm_system *s, size_t i, size_t j) {
  size_t b = i;
  for (size_t q = i + 1; q < j; q++)
    if (s->ccls[q]->n > s->ccls[b]->n)
      b = q;
  lmm_class *base = s->ccls[b];
  int indexed = 0;
  for (size_t q = i; q < j; q++) {
    lmm_class *o = s->ccls[q];
    const int apart = o->born != s->csolve || (o->split && o->nhot <= o->n);
    if (q == b || (apart && SMALL_MERGE * o->n > base->n))
      continue; /* old classes and blocks stay: few moves back and forth */
    if (!indexed) /* base's edges indexed by constraint, once */
      index_edges(base), indexed = 1;
    merge(s, base, o);
    s->ccls[q] = NULL;
  }
}

/* ccls holds the fixed classes in iteration order: each run of one iteration merges. */
static void merge_iterations(lmm_system *s, size_t kept) {
  for (size_t i = kept, j; i < s->n_ccls; i = j) {
    for (j = i + 1; j < s->n_ccls && s->ccls[j]->it == s->ccls[i]->it;)
      j++;
    if (j > i + 1 && s->ccls[i]->it >= 0)
      merge_run(s, i, j);
  }
}

static void level_out(lmm_system *s, lmm_class *k) {
  GROW(s->lev_out, s->lev_out_cap, s->n_lev_out + 1);
  s->lev_out[s->n_lev_out++] = GRP_K + k->id;
}

/* Every live class gets an id; one not fixed by the solve (every constraint dropped by the
 * precision, or none) has level 0, as SimGrid leaves such variables at 0. The levels that
 * changed are listed, and so are the variables that changed class. */
static void report(lmm_system *s) {
  s->n_lev_out = s->lev_pos = 0;
  for (size_t i = 0; i < s->n_cls_live; i++) {
    lmm_class *k = s->cls_live[i];
    if (k->id < 0)
      cls_give_id(s, k);
    if (k->fixed != s->csolve)
      k->level = 0.0;
    if (!(k->level == k->reported)) {
      k->reported = k->level;
      level_out(s, k);
    }
  }
  for (size_t i = 0; i < s->n_dirty; i++) {
    lmm_var *v = s->dirty[i];
    if (!v)
      continue;
    v->dirty_slot = SLOT_NONE;
    if (v->cls)
      lmm_out_push(s, v);
  }
  s->n_dirty = 0;
}

static void count_stats(lmm_system *s, size_t kept) {
  s->c_solves++;
  s->c_classes += s->n_ccls - kept;
  for (size_t i = kept; i < s->n_ccls; i++)
    s->c_edges += s->ccls[i]->nhot;
}

/* ======================================================================
 * Restarts
 * ====================================================================== */

/* The fixed classes without the holes the merges left, still in fixing order. */
static void ccls_compact(lmm_system *s) {
  size_t n = 0;
  for (size_t i = 0; i < s->n_ccls; i++)
    if (s->ccls[i]) {
      s->ccls[i]->cci = n;
      s->ccls[n++] = s->ccls[i];
    }
  s->n_ccls = n;
  s->n_unfixed = s->n_cls_live - n;
}

/* k's edges add to their constraints' usage and counts; with apart, not those known to be
 * on left-out constraints (see "Left-out edges apart"). */
static void sums_add(const lmm_class *k, int apart) {
  size_t n = apart && k->apart ? k->nin : k->nhot;
  for (const lmm_chot *h = k->hot, *end = h + n; h < end; h++)
    if (h->npos > 0)
      h->c->usage += h->w, h->c->n_act++;
}

/* The constraints' usage and count of edges of unfixed classes, from those classes: the
 * classes the last solve fixed from ccls[p] on (those gone since are holes), and the
 * ones it did not fix, if any. */
static void restart_sums(lmm_system *s, size_t p, size_t n, int apart) {
  for (size_t i = 0; i < s->n_used; i++)
    s->used[i]->usage = 0.0, s->used[i]->n_act = 0;
  for (size_t i = p; i < n; i++)
    if (s->ccls[i])
      sums_add(s->ccls[i], apart);
  for (size_t i = 0; s->n_unfixed > 0 && i < s->n_cls_live; i++)
    if (s->cls_live[i]->fixed < s->csolve - 1) /* (kept ones: csolve) */
      sums_add(s->cls_live[i], apart);
}

/* c was left out from the start of the last solve, and still is at the restart. */
static void restart_left_out(lmm_system *s, lmm_cnst *c) {
  c->light = DEFERRED;
  GROW(s->defer, s->defer_cap, s->n_defer + 1);
  s->defer[s->n_defer++] = c;
}

/* c, in the filling at the restart, on the heap when the last solve saturated it at the
 * restart's iteration or after (hot), else cold (see "Cold lights"). */
static void restart_light(lmm_system *s, lmm_cnst *c, int hot) {
  light x = {lvl(c), c};
  if (hot) {
    s->lh[s->n_lh++] = x;
    return;
  }
  s->cold[s->n_cold++] = x; /* (room: restart_lights) */
  s->cold_min = dmin(s->cold_min, x.level);
}

/* Every used constraint as at the start of iteration r of the last solve, less the
 * variables gone since: on the heap if still in the filling. */
static void restart_lights(lmm_system *s, long r) {
  const uint64_t last = s->csolve - 1;
  const int left_out = r <= s->defer_it; /* the left-out ones had not come in yet */
  s->n_lh = s->n_defer = s->n_cold = 0;
  s->cold_min = INFINITY;
  GROW(s->lh, s->lh_cap, s->n_used);
  GROW(s->cold, s->cold_cap, s->n_used);
  for (size_t i = 0; i < s->n_used; i++) {
    lmm_cnst *c = s->used[i];
    if (c->nfix_solve == last && c->sat_it < r)
      c->nfix_solve = s->csolve; /* saturated by a kept iteration */
    if (c->def_solve == last) { /* left out from the start, in at defer_it */
      c->def_solve = s->csolve;
      if (left_out) {
        restart_left_out(s, c);
        continue;
      }
    }
    c->light = c->fatpipe != 0;
    if (c->fatpipe)
      fp_usage(s, c);
    if (light_alive(s, c))
      restart_light(s, c, c->nfix_solve == last);
  }
  for (size_t i = s->n_lh / 2; i-- > 0;)
    lh_down(s, i);
  s->defer_at = s->n_defer > 0 ? s->defer_at0 : INFINITY;
  if (left_out)
    s->defer_it = LONG_MAX;
}

/* The state of the last solve at the start of its iteration r: the classes it fixed before
 * stay fixed, the constraints get back the remaining they had then (from the log), their
 * usage and counts from the classes not fixed. */
static void restart(lmm_system *s, long r) {
  size_t p = 0, n = s->n_ccls;
  for (; p < n && s->ccls[p] && s->ccls[p]->fit < r; p++) /* (a hole: fixed at r or after) */
    s->ccls[p]->fixed = s->csolve;
  const int left_out = r <= s->defer_it; /* the left-out ones had not come in before r */
  restart_sums(s, p, n, left_out); /* (left out: recounted) */
  s->n_ccls = p;
  size_t i = s->n_clog;
  for (; i > 0 && s->clog[i - 1].it >= r; i--)
    s->clog[i - 1].c->remaining = s->clog[i - 1].remaining;
  s->n_clog = i;
  if (left_out) { /* left-out constraints: back to the takes before r */
    for (i = s->n_dlog; i > 0 && s->dlog[i - 1].it >= r; i--)
      s->dlog[i - 1].c->remaining = s->dlog[i - 1].remaining;
    s->n_dlog = i;
    s->dq_fit = s->dq_fit < r ? s->dq_fit : r;
  }
  s->defer_fresh = 0;
  s->n_it_top = (size_t)r;
  if (s->bound_it >= r)
    s->bound_it = LONG_MAX;
  restart_lights(s, r);
  s->c_restarts++;
  s->c_kept += (uint64_t)r;
}

/* The first iteration of the last solve that the changes since reach (0: none kept). */
static long restart_point(const lmm_system *s) {
  if (s->rs_full || !s->clog_ok || s->no_restarts)
    return 0;
  return s->rs_it < (long)s->n_it_top ? s->rs_it : (long)s->n_it_top;
}

void lmm_cls_solve(lmm_system *s) {
  while (s->n_cls_pend > 0) { /* the caller has seen those levels emptied */
    GROW(s->cls_free, s->cls_free_cap, s->n_cls_free + 1);
    s->cls_free[s->n_cls_free++] = s->cls_pend[--s->n_cls_pend];
  }
  long r = restart_point(s);
  s->csolve++;
  s->newcls = NULL; /* from now on an ordinary class (born == csolve) */
  size_t kept = 0;
  if (r > 0) {
    restart(s, r);
    kept = s->n_ccls;
  } else {
    s->n_ccls = 0;
    init_lights(s);
  }
  fill(s, r, r > 0 ? s->it_top[r - 1] : 0.0);
  if (s->stats)
    count_stats(s, kept);
  merge_iterations(s, kept);
  ccls_compact(s);
  report(s);
  s->rs_it = LONG_MAX;
  s->rs_full = 0;
  s->clog_ok = 1;
}

int lmm_cls_next_level(lmm_system *s) {
  return s->lev_pos < s->n_lev_out ? s->lev_out[s->lev_pos++] : -1;
}
