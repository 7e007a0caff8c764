/* energy.c - host energy: what every core does, the power it draws, its exact integral.
 *
 * The model watches the replay (observer.h). For each host it counts the ranks that
 * compute (OBS_COMPUTE) and, when the host has a polling wattage, those polling inside
 * MPI (OBS_MPI); sleeping and idle ranks draw nothing beyond the static power. Between
 * two events of a host its power is constant, so the energy is the exact sum of
 * power x duration over those intervals (SimGrid's plugin does the same sum, updating a
 * host at each start and end of an execution on it).
 *
 * Power of a host with c cores, k computing ranks and q polling ranks (pstate fixed):
 *   computing cores  kc = min(k, c), each computing rank gets the share kc / k of a core;
 *   polling cores    qc = min(q, c - kc) (computing has the cores first), share qc / q;
 *   static           S = Idle if kc + qc = 0, else Epsilon;
 *   P = S + sum over computing ranks of share x (AllCores_r - Epsilon) / c
 *         + sum over polling ranks of share x (Polling - Epsilon) / c,
 * with AllCores_r the region's wattage (wattage_region:NAME, else AllCores). Without the
 * extensions this is SimGrid's P = Epsilon + load x (AllCores - Epsilon) with
 * load = min(k, c) / c. A host without wattage_per_state draws 0 W.
 *
 * Attribution: a computing (polling) rank's dynamic power goes to its innermost region;
 * the static power is split equally over max(c, ranks on the host) parts: one per rank,
 * to the rank's region, the cores without a rank to "outside any region".
 *
 * SimGrid compatibility (quirks on by default, energy_simgrid_quirks): SimGrid's plugin
 * remembers a pstate per host that starts at 0 and catches up with the host's real
 * pstate only at the host's first update (the first start of an execution on it, or the
 * first end of an execution or sleep on it). Until then it charges pstate 0's figures;
 * a host that never computes draws pstate 0's Idle for the whole run. tir does the same
 * (prof0 until `synced`). The updates are seen through the activities: OBS_COMPUTE
 * starts, OBS_SLEEP ends, and the ends of OBS_MPI periods that are sleeps (inside a
 * `test`, the smpi/init sleep, any OBS_MPI end when smpi/os or smpi/or is set) or the
 * iprobe executions of a probing recv. Otherwise SimGrid's sum is exact (it updates a
 * host at every change of its load), and so is tir's. */
#include "energy_impl.h"

#include "trace.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* ====== hosts and their power ====== */

/* Shares of a core of one computing and one polling rank (see the top of this file). */
static void shares(const en_host *h, double *sc, double *sp) {
  int kc = h->ncomp < h->cores ? h->ncomp : h->cores;
  int free_cores = h->cores - kc;
  int qc = h->prof.poll < 0 ? 0 : h->npoll < free_cores ? h->npoll : free_cores;
  *sc = h->ncomp > 0 ? (double)kc / h->ncomp : 0;
  *sp = h->npoll > 0 ? (double)qc / h->npoll : 0;
}

/* The figures charged now: the active pstate's, or pstate 0's before SimGrid's first
 * update of the host (see the top of this file). */
static const en_profile *charged(const en_host *h) { return h->synced ? &h->prof : &h->prof0; }

static double static_power(const en_host *h, double sc, double sp) {
  return sc > 0 || sp > 0 ? charged(h)->eps : charged(h)->idle;
}

double en_host_power(const en_host *h) {
  if (!h->prof.has)
    return 0;
  double sc, sp, dyn = 0;
  shares(h, &sc, &sp);
  double poll_dyn = charged(h)->poll - charged(h)->eps;
  for (size_t i = 0; i < h->nslots; i++) {
    const en_slot *s = &h->slots[i];
    dyn += s->ncomp * sc * s->dyn_w + s->npoll * sp * poll_dyn;
  }
  return static_power(h, sc, sp) + dyn / h->cores;
}

/* Adds dt seconds at the current power to h and to its regions. */
static void attribute(en_host *h, double dt) {
  h->energy += h->power * dt;
  if (h->ncomp > 0)
    h->used = 1;
  if (!h->prof.has)
    return;
  double sc, sp;
  shares(h, &sc, &sp);
  double s = static_power(h, sc, sp);
  int parts = h->nranks > h->cores ? h->nranks : h->cores;
  double per_rank = s / parts, poll_dyn = charged(h)->poll - charged(h)->eps;
  for (size_t i = 0; i < h->nslots; i++) {
    en_slot *sl = &h->slots[i];
    sl->e_static += sl->nranks * per_rank * dt;
    sl->e_dyn += sl->ncomp * sc * sl->dyn_w / h->cores * dt;
    sl->e_poll += sl->npoll * sp * poll_dyn / h->cores * dt;
  }
  h->slots[0].e_static += (parts - h->nranks) * per_rank * dt;
}

/* Integrates host h up to now. */
static void advance(en_host *h, double now) {
  if (now > h->last) {
    attribute(h, now - h->last);
    h->last = now;
  }
}

/* ====== the power log (for --power-trace) ====== */

static void log_append(energy *en, int hi, double now) {
  en_host *h = &en->hosts[hi];
  x_grow(&en->log, &en->logcap, en->nlog + 1, sizeof *en->log);
  en->log[en->nlog] = (en_rec){now, h->power, hi, h->last_rec};
  h->last_rec = (long)en->nlog++;
}

/* Records host hi's power from now on, if it changed; changes at one date collapse. */
static void log_power(energy *en, int hi, double now) {
  en_host *h = &en->hosts[hi];
  long r = h->last_rec;
  if (!en->keep_log || (r >= 0 && en->log[r].w == h->power))
    return;
  if (r < 0 || en->log[r].t != now) {
    log_append(en, hi, now);
    return;
  }
  long prev = en->log[r].prev;
  if (prev >= 0 && en->log[prev].w == h->power) {
    en->log[r].host = -1; /* back to the previous value: the change never happened */
    h->last_rec = prev;
  } else {
    en->log[r].w = h->power;
  }
}

static void refresh(energy *en, int hi, double now) {
  en->hosts[hi].power = en_host_power(&en->hosts[hi]);
  log_power(en, hi, now);
  en->end = now;
}

/* ====== regions and slots ====== */

/* Id of region name, added if new. Linear search: programs have few regions (tens); a
 * hash map would pay off with thousands. */
static int region_id(energy *en, const char *name) {
  for (size_t i = 1; i < en->nregions; i++)
    if (!strcmp(en->regions[i], name))
      return (int)i;
  x_grow(&en->regions, &en->rcap, en->nregions + 1, sizeof *en->regions);
  en->regions[en->nregions] = x_strdup(name);
  return (int)en->nregions++;
}

/* Index of region's slot on host h, created if needed. */
static size_t slot_of(energy *en, en_host *h, int region) {
  for (size_t i = 0; i < h->nslots; i++)
    if (h->slots[i].region == region)
      return i;
  x_grow(&h->slots, &h->cap, h->nslots + 1, sizeof *h->slots);
  double all = en_profile_region(&h->prof, region == EN_OUTSIDE ? NULL : en->regions[region]);
  h->slots[h->nslots] = (en_slot){.region = region, .dyn_w = all - h->prof.eps};
  return h->nslots++;
}

/* Adds (sign = 1) or removes (-1) rank r from its host's and slot's counts. */
static void count(en_host *h, const en_rank *r, int sign) {
  en_slot *s = &h->slots[r->slot];
  s->nranks += sign;
  if (r->act == OBS_COMPUTE)
    s->ncomp += sign, h->ncomp += sign;
  else if (r->act == OBS_MPI)
    s->npoll += sign, h->npoll += sign;
}

/* ====== observer callbacks ====== */

static void on_start(void *ctx, int np, const int *host_of) {
  energy *en = ctx;
  if (en->ranks) /* a model watches one replay */
    return;
  en->np = np;
  en->ranks = x_calloc((size_t)np, sizeof *en->ranks);
  for (int i = 0; i < np; i++) {
    en_rank *r = &en->ranks[i];
    r->host = host_of[i];
    r->act = OBS_IDLE;
    r->op = -1;
    en_host *h = &en->hosts[r->host];
    h->nranks++;
    count(h, r, 1);
  }
}

/* Does blocking inside MPI, for rank r in its current action, start a single wait
 * (MPI_Wait, blocking send/recv: SimGrid then starts a sleep(-1) on the host, an
 * update) rather than a waitall/waitany (no update)? From the trace action and SimGrid's
 * default collective algorithms (SMPI_MODEL.md section 7): binomial bcast and the
 * non-roots of the ompi linear barrier block in single waits; allreduce is a linear
 * (waitall) reduce then a bcast: a non-root's first blocking period is its reduce
 * waitall (one request), the later ones the bcast's; the root's waitall may block
 * several times, so its (short) bcast sends are not told apart: it learns its pstate
 * at the allreduce's computation. The other collectives are linear nonblocking ones
 * (waitall). With another selector this is an approximation. */
static int single_wait(const en_rank *r, int rank) {
  switch (r->op) {
  case TRACE_SEND:
  case TRACE_RECV:
  case TRACE_WAIT:
  case TRACE_BCAST:
    return 1;
  case TRACE_BARRIER:
    return rank != 0;
  case TRACE_ALLREDUCE:
    return rank != 0 && r->nmpi > 1;
  default:
    return 0;
  }
}

/* Would SimGrid's plugin update rank r's host (and so learn its pstate) when r goes
 * from r->act to act at now? See "SimGrid compatibility" at the top of this file. */
static int simgrid_updates(const energy *en, const en_rank *r, int rank, obs_activity act, double now) {
  if (act == OBS_COMPUTE || (act == OBS_MPI && r->probe))
    return 1; /* an execution starts: always */
  if (now <= 0)
    return 0; /* the other updates happen only once the clock has advanced */
  if (r->act == OBS_SLEEP)
    return 1; /* a sleep ends */
  if (act == OBS_MPI)
    return single_wait(r, rank);
  return r->act == OBS_MPI && (r->op == TRACE_TEST || r->op < 0 || en->mpi_sleeps);
}

static void on_activity(void *ctx, int rank, obs_activity act, double now) {
  energy *en = ctx;
  en_rank *r = &en->ranks[rank];
  if (r->act == act)
    return;
  en_host *h = &en->hosts[r->host];
  advance(h, now);
  if (act == OBS_MPI)
    r->nmpi++;
  if (!h->synced && simgrid_updates(en, r, rank, act, now))
    h->synced = 1;
  count(h, r, -1);
  r->act = act;
  count(h, r, 1);
  refresh(en, r->host, now);
}

static void on_action_begin(void *ctx, int rank, const trace_action *a, double now) {
  (void)now;
  en_rank *r = &((energy *)ctx)->ranks[rank];
  r->op = (int)a->op;
  r->probe = a->op == TRACE_RECV && a->count < 0;
  r->nmpi = 0;
}

static void on_action_end(void *ctx, int rank, const trace_action *a, int category, double start, double now) {
  (void)a, (void)category, (void)start, (void)now;
  ((energy *)ctx)->ranks[rank].probe = 0;
}

static void on_region(void *ctx, int rank, const char *name, double now) {
  energy *en = ctx;
  en_rank *r = &en->ranks[rank];
  if (!name && r->depth == 0)
    return; /* leaving no region: nothing to attribute differently */
  en_host *h = &en->hosts[r->host];
  advance(h, now);
  count(h, r, -1);
  if (name) {
    x_grow(&r->stack, &r->cap, r->depth + 1, sizeof *r->stack);
    r->stack[r->depth++] = region_id(en, name);
  } else {
    r->depth--;
  }
  r->slot = slot_of(en, h, r->depth ? r->stack[r->depth - 1] : EN_OUTSIDE);
  count(h, r, 1);
  refresh(en, r->host, now);
}

static void on_finish(void *ctx, double now) {
  energy *en = ctx;
  for (int i = 0; i < en->nhosts; i++) {
    en_host *h = &en->hosts[i];
    advance(h, now);
    if (en->keep_log && (h->last_rec < 0 || en->log[h->last_rec].t != now))
      log_append(en, i, now); /* closes every host's step function */
  }
  en->end = now;
  en->finished = 1;
}

void energy_observer(energy *en, replay_observer *o) {
  memset(o, 0, sizeof *o);
  o->ctx = en;
  o->start = on_start;
  o->activity = on_activity;
  o->region = on_region;
  o->action_begin = on_action_begin;
  o->action_end = on_action_end;
  o->finish = on_finish;
}

/* ====== creation ====== */

/* Sets host i up at its active pstate. Returns 0, 1 (no wattage_per_state) or -1. */
static int host_init(energy *en, const config *c, int i, char *err, size_t errlen) {
  const plat_host *ph = plat_host_at(en->plat, i);
  en_host *h = &en->hosts[i];
  h->name = ph->name;
  h->cores = ph->cores > 0 ? ph->cores : 1;
  long ps = c->pstate >= 0 ? c->pstate : ph->pstate;
  h->last_rec = -1;
  if (ps >= ph->npstates)
    return x_err(err, errlen, "%s: host %s: pstate %ld does not exist (the host has %d pstate%s; host/pstate)",
                 plat_source(en->plat), ph->name, ps, ph->npstates, ph->npstates > 1 ? "s" : "");
  h->pstate = (int)ps;
  int rc = en_profile_read(en->plat, i, h->pstate, &h->prof, err, errlen);
  if (rc < 0)
    return -1;
  h->synced = h->pstate == 0 || !en->quirks;
  if (!h->synced)
    en_profile_read(en->plat, i, 0, &h->prof0, err, errlen); /* same properties: cannot fail */
  slot_of(en, h, EN_OUTSIDE);
  h->power = en_host_power(h);
  return rc;
}

/* One warning line for the hosts without wattage_per_state (SimGrid warns per host). */
static void warn_missing(const energy *en, int nmissing, const int *missing) {
  if (nmissing == 0)
    return;
  fprintf(stderr, "tir-replay: warning: %s: no wattage_per_state for %d host%s (", plat_source(en->plat), nmissing,
          nmissing > 1 ? "s" : "");
  for (int i = 0; i < nmissing && i < 4; i++)
    fprintf(stderr, "%s%s", i ? ", " : "", en->hosts[missing[i]].name);
  fprintf(stderr, "%s): %s 0 W\n", nmissing > 4 ? ", ..." : "", nmissing > 1 ? "they consume" : "it consumes");
}

/* Does an affine table (smpi/os, smpi/or) ever give a non-zero overhead? */
static int has_sleeps(const cfg_table *t) {
  for (int i = 0; i < t->n; i++)
    if (t->v[i].a != 0 || t->v[i].b != 0)
      return 1;
  return 0;
}

energy *energy_new(const platform *p, const config *c, char *err, size_t errlen) {
  energy *en = x_calloc(1, sizeof *en);
  en->plat = p;
  en->nhosts = plat_host_count(p);
  en->hosts = x_calloc((size_t)en->nhosts, sizeof *en->hosts);
  en->keep_log = 1;
  en->quirks = 1;
  en->mpi_sleeps = has_sleeps(&c->os) || has_sleeps(&c->orecv);
  x_grow(&en->regions, &en->rcap, 1, sizeof *en->regions);
  en->regions[en->nregions++] = NULL; /* EN_OUTSIDE */
  int *missing = x_malloc(((size_t)en->nhosts + 1) * sizeof *missing), nmissing = 0;
  for (int i = 0; i < en->nhosts; i++) {
    int rc = host_init(en, c, i, err, errlen);
    if (rc < 0)
      goto err;
    if (rc == 1)
      missing[nmissing++] = i;
  }
  for (int i = 0; i < en->nhosts; i++)
    log_append(en, i, 0);
  warn_missing(en, nmissing, missing);
  free(missing);
  return en;
err:
  free(missing);
  energy_free(en);
  return NULL;
}

void energy_simgrid_quirks(energy *en, int on) {
  en->quirks = on;
  for (int i = 0; i < en->nhosts; i++) {
    en_host *h = &en->hosts[i];
    h->synced = h->pstate == 0 || !on;
    if (!h->synced && !h->prof0.has && h->prof.has)
      en_profile_read(en->plat, i, 0, &h->prof0, NULL, 0);
    h->power = en_host_power(h);
    if (h->last_rec >= 0)
      en->log[h->last_rec].w = h->power;
  }
}

void energy_keep_power_trace(energy *en, int keep) {
  en->keep_log = keep;
  if (!keep) {
    free(en->log);
    en->log = NULL;
    en->nlog = en->logcap = 0;
    for (int i = 0; i < en->nhosts; i++)
      en->hosts[i].last_rec = -1;
  }
}

void energy_free(energy *en) {
  if (!en)
    return;
  for (int i = 0; i < en->nhosts; i++) {
    en_profile_free(&en->hosts[i].prof);
    en_profile_free(&en->hosts[i].prof0);
    free(en->hosts[i].slots);
  }
  for (int i = 0; i < en->np; i++)
    free(en->ranks[i].stack);
  for (size_t i = 1; i < en->nregions; i++)
    free(en->regions[i]);
  free(en->regions);
  free(en->hosts);
  free(en->ranks);
  free(en->log);
  free(en);
}
