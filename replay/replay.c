/* replay.c - the replay driver: sets up traces, hosts, engine and ranks, runs the event
 * loop, and checks the end state (deadlocks, unmatched messages).
 *
 * The loop alternates two phases until every rank has ended: run every ready rank
 * until it blocks (ranks woken at the same date run in the order they were woken:
 * deterministic), then let the engine advance time to the next completion. If ranks
 * are blocked and the engine has nothing pending, the replay is deadlocked: tir reports
 * who waits on whom and fails instead of hanging. */
#include "replay.h"

#include "coll.h"
#include "inputs.h"
#include "replay_impl.h"
#include "xalloc.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void replay_enqueue(replay_ctx *x, int id) {
  rank *r = &x->ranks[id];
  if (r->queued || r->state == RS_DONE || r->state == RS_BUSY)
    return;
  r->queued = 1;
  x->runq[x->qtail] = id;
  x->qtail = (x->qtail + 1) % (size_t)(x->np + 1);
}

static void wake(void *ctx, int id) {
  replay_ctx *x = ctx;
  x->ranks[id].wakes++;
  if (x->ranks[id].state == RS_WAIT && !x->ranks[id].queued) {
    replay_note_activity(x, id, OBS_IDLE);
    replay_enqueue(x, id);
  }
}

/* tir/simgrid-compat: SimGrid answers only the ranks blocked in a wait registered on the
 * finished communication (CommImpl::finish), in the order they registered: the one that
 * started waiting first runs first; the others find it done at their next wait. (recv
 * NULL: an eager send's transfer ended before any receive took it.) */
static void wake2(void *ctx, const p2p_req *recv, const p2p_req *send) {
  replay_ctx *x = ctx;
  const rank *a = recv ? &x->ranks[recv->dst] : NULL, *b = send ? &x->ranks[send->src] : NULL;
  int wa = a && rank_waits_on(a, recv), wb = b && rank_waits_on(b, send);
  if (wa && wb && b->sg_stamp < a->sg_stamp) {
    wake(ctx, send->src);
    wake(ctx, recv->dst);
    return;
  }
  if (wa)
    wake(ctx, recv->dst);
  if (wb)
    wake(ctx, send->src);
}

void replay_note_activity_obs(replay_ctx *x, int id, obs_activity act) {
  for (int i = 0; i < x->o->nobs; i++)
    if (x->o->obs[i].activity)
      x->o->obs[i].activity(x->o->obs[i].ctx, id, act, eng_now(x->e));
}

void replay_note_region(replay_ctx *x, int id, const char *name) {
  for (int i = 0; i < x->o->nobs; i++)
    if (x->o->obs[i].region)
      x->o->obs[i].region(x->o->obs[i].ctx, id, name, eng_now(x->e));
}

void replay_note_action_obs(replay_ctx *x, rank *r, int begin) {
  for (int i = 0; i < x->o->nobs; i++) {
    const replay_observer *o = &x->o->obs[i];
    if (begin && o->action_begin)
      o->action_begin(o->ctx, r->id, &r->act, eng_now(x->e));
    else if (!begin && o->action_end)
      o->action_end(o->ctx, r->id, &r->act, r->category, r->act_start, eng_now(x->e));
  }
}

static void note_message(void *ctx, const p2p_req *s, double posted, double start, double end) {
  replay_ctx *x = ctx;
  for (int i = 0; i < x->o->nobs; i++)
    if (x->o->obs[i].message)
      x->o->obs[i].message(x->o->obs[i].ctx, s->src, s->dst, s->tag, s->bytes, posted, start, end);
}

static void vfail(replay_ctx *x, int code, const char *fmt, va_list ap) {
  if (x->failed)
    return;
  x->failed = 1;
  x->fail_code = code;
  vsnprintf(x->err, sizeof x->err, fmt, ap);
}

void replay_fail(replay_ctx *x, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(x, TIR_EXIT_INPUT, fmt, ap);
  va_end(ap);
}

void replay_fail_run(replay_ctx *x, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(x, TIR_EXIT_FAILURE, fmt, ap);
  va_end(ap);
}

static void p2p_error(void *ctx, int input, const char *msg) {
  if (input)
    replay_fail(ctx, "%s", msg);
  else
    replay_fail_run(ctx, "%s", msg);
}

static int warn_cb(void *ctx, const char *msg) {
  if (ctx)
    fprintf(ctx, "tir-replay: warning: %s\n", msg);
  return 0;
}

/* ====== hosts ====== */

/* The hostfile (man tir-replay, HOSTFILE): one host per line, `HOST` or `HOST:COUNT` as
 * SimGrid's smpirun reads it, or Open MPI's `HOST slots=COUNT [max_slots=M]` (max_slots is
 * checked and ignored: tir never refuses to oversubscribe); '#' starts a comment, blank
 * lines are skipped, so is a UTF-8 byte-order mark at the start of the file. A count is at
 * most REPLAY_MAX_RANKS; entries are expanded only up to the number of ranks needed. */

/* A count: decimal, 1 to REPLAY_MAX_RANKS. */
static int parse_count(const char *s, long *count) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end || errno || v < 1 || v > REPLAY_MAX_RANKS)
    return -1;
  *count = v;
  return 0;
}

/* s with its bytes outside printable ASCII written as \xHH (messages: an invisible
 * character is named). */
static const char *visible(const char *s, char *out, size_t n) {
  size_t k = 0;
  for (; *s && k + 5 < n; s++) {
    unsigned char c = (unsigned char)*s;
    k += (size_t)(c >= 0x20 && c < 0x7f ? snprintf(out + k, n - k, "%c", c) : snprintf(out + k, n - k, "\\x%02X", c));
  }
  out[k] = 0;
  return out;
}

/* One hostfile line (changed in place): 1 with the host and its count, 0 for a line with
 * nothing, -1 with "FILE:LINE: ..." in err. */
static int host_line(char *s, const char *path, long lineno, char **host, long *count, char *err, size_t errlen) {
  char vis[256], *save = NULL, *colon;
  s[strcspn(s, "#\r\n")] = 0;
  if (!(*host = strtok_r(s, " \t", &save)))
    return 0;
  const char *cnt = NULL, *w;
  if ((colon = strchr(*host, ':')))
    *colon = 0, cnt = colon + 1;
  *count = 1;
  while ((w = strtok_r(NULL, " \t", &save))) {
    long ignored;
    if (!colon && !cnt && !strncmp(w, "slots=", 6))
      cnt = w + 6;
    else if (strncmp(w, "max_slots=", 10) || parse_count(w + 10, &ignored) < 0)
      return x_err(err, errlen, "%s:%ld: unexpected '%s' after host '%s' (expected HOST, HOST:COUNT or "
                   "HOST slots=COUNT)", path, lineno, visible(w, vis, sizeof vis), *host);
  }
  if (cnt && parse_count(cnt, count) < 0)
    return x_err(err, errlen, "%s:%ld: bad count '%s' (expected HOST, HOST:COUNT or HOST slots=COUNT, "
                 "COUNT from 1 to %d)", path, lineno, visible(cnt, vis, sizeof vis), REPLAY_MAX_RANKS);
  return 1;
}

/* Reads the lines of f into *hosts (at most limit entries); the number stored, or -1. */
static int read_hosts(FILE *f, const char *path, const platform *p, int limit, int **hosts, char *err,
                      size_t errlen) {
  char *line = NULL, *host, vis[256];
  size_t cap = 0, hcap = 0;
  long lineno = 0, count, n = 0;
  int rc = 0;
  while (rc == 0 && (errno = 0, getline(&line, &cap, f) > 0)) {
    char *s = line + (++lineno == 1 && !strncmp(line, "\xEF\xBB\xBF", 3) ? 3 : 0);
    int got = host_line(s, path, lineno, &host, &count, err, errlen);
    int h = got > 0 ? plat_host_find(p, host) : 0;
    if (got < 0)
      rc = -1;
    else if (h < 0)
      rc = x_err(err, errlen, "%s:%ld: unknown host '%s' (not in platform %s)", path, lineno,
                 visible(host, vis, sizeof vis), plat_source(p));
    for (long k = 0; got > 0 && h >= 0 && k < count && n < limit; k++) {
      x_grow(hosts, &hcap, (size_t)n + 1, sizeof **hosts);
      (*hosts)[n++] = h;
    }
  }
  if (rc == 0 && errno == ENOMEM) /* getline's buffer */
    x_oom();
  free(line);
  if (rc == 0 && ferror(f))
    rc = x_err(err, errlen, "%s: read error: %s", path, strerror(errno));
  return rc < 0 ? -1 : (int)n;
}

int replay_read_hostfile(const char *path, const platform *p, int limit, int **hosts, char *err, size_t errlen) {
  const char *why;
  FILE *f = inputs_fopen(path, &why);
  *hosts = NULL;
  if (!f)
    return x_err(err, errlen, "%s: cannot open hostfile: %s", path, why);
  int n = read_hosts(f, path, p, limit > 0 ? limit : REPLAY_MAX_RANKS + 1, hosts, err, errlen);
  fclose(f);
  if (n == 0)
    n = x_err(err, errlen, "%s: the hostfile names no host", path);
  else if (n > REPLAY_MAX_RANKS)
    n = x_err(err, errlen, "%s: the hostfile names more than %d slots (tir's limit of ranks; with -n N "
              "only the first N are used)", path, REPLAY_MAX_RANKS);
  if (n < 0) {
    free(*hosts);
    *hosts = NULL;
  }
  return n;
}

/* Fills x->host_of and fixes np. Returns 0 or -1 with err. */
static int place_ranks(replay_ctx *x, const replay_opts *o, char *err, size_t errlen) {
  int *hosts = NULL, nh = 0;
  int np = o->np > 0 ? o->np : trace_nfiles(x->t);
  if (o->hostfile && (nh = replay_read_hostfile(o->hostfile, o->plat, np, &hosts, err, errlen)) < 0)
    return -1;
  np = np > 0 ? np : nh;
  if (np <= 0) {
    free(hosts);
    return x_err(err, errlen, "%s: cannot tell the number of ranks (one trace file for all ranks and "
                 "no hostfile): give -n/--np", o->trace);
  }
  if (np > REPLAY_MAX_RANKS) {
    free(hosts);
    return x_err(err, errlen, "%d ranks: tir replays at most %d ranks (REPLAY_MAX_RANKS: each rank costs "
                 "memory even when idle)", np, REPLAY_MAX_RANKS);
  }
  if (plat_host_count(o->plat) < 1) {
    free(hosts);
    return x_err(err, errlen, "%s: the platform has no host", plat_source(o->plat));
  }
  x->np = np;
  x->host_of = x_malloc((size_t)np * sizeof *x->host_of);
  int nplat = plat_host_count(o->plat);
  for (int i = 0; i < np; i++)
    x->host_of[i] = nh ? hosts[i % nh] : i % nplat;
  free(hosts);
  return 0;
}

/* ====== setup and teardown ====== */

/* What trace.meta says of the traced run: a warning when it did not complete. */
static void read_meta(replay_ctx *x, const replay_opts *o) {
  trace_meta_read(o->trace, &x->meta);
  if (x->meta.complete || !o->warn)
    return;
  fprintf(o->warn, "tir-replay: warning: %s: status = %s", x->meta.file, x->meta.status);
  if (x->meta.ranks_finished >= 0 && x->meta.np > 0)
    fprintf(o->warn, ", %d of %d ranks finished", x->meta.ranks_finished, x->meta.np);
  fprintf(o->warn, ": the traced run did not complete, ranks cut short stop early%s\n",
          o->allow_truncated ? " (--allow-truncated)" : "; --allow-truncated replays what every rank recorded");
}

int replay_check_region_speed(const platform *p, char *err, size_t errlen) {
  static const char prefix[] = "speed_factor:";
  int found = 0;
  for (int h = 0; h < plat_host_count(p); h++) {
    const plat_host *ph = plat_host_at(p, h);
    for (int i = 0; i < ph->nprops; i++) {
      const plat_prop *q = &ph->props[i];
      if (strncmp(q->key, prefix, sizeof prefix - 1) != 0)
        continue;
      char *end;
      errno = 0;
      double f = strtod(q->value, &end);
      if (end == q->value || *end || errno || !(f > 0) || f > 1e300)
        return x_err(err, errlen, "%s: host %s: property %s=\"%s\": expected a positive number (how many times "
                     "as fast computation runs in region %s)", plat_source(p), ph->name, q->key, q->value,
                     q->key + sizeof prefix - 1);
      found = 1;
    }
  }
  return found;
}

int replay_check_host_props(const platform *p, char *err, size_t errlen) {
  return replay_check_region_speed(p, err, errlen) < 0 || p2p_check_host_overheads(p, err, errlen) < 0 ? -1 : 0;
}

static int setup(replay_ctx *x, const replay_opts *o, char *err, size_t errlen) {
  x->o = o;
  read_meta(x, o);
  trace_opts topts = {.strict = o->strict, .warn = warn_cb, .warn_ctx = o->warn,
                      .allow_truncated = o->allow_truncated, .incomplete = !x->meta.complete};
  x->t = trace_open(o->trace, &topts, err, errlen);
  if (!x->t)
    return -1;
  if (place_ranks(x, o, err, errlen) < 0 || trace_set_np(x->t, x->np, err, errlen) < 0 ||
      (x->region_speed = replay_check_region_speed(o->plat, err, errlen)) < 0)
    return -1;
  x->sel = coll_selector_find(o->cfg.coll_selector);
  if (x->sel < 0)
    x->sel = 0;
  coll_run_begin(o->cfg.simgrid_compat);
  for (int k = 0; k < COLL_NKINDS; k++) /* sub-collectives follow forced algorithms too */
    coll_force((coll_kind)k, o->cfg.coll_algo[k]);
  int nh = plat_host_count(o->plat);
  int *pstates = x_malloc((size_t)nh * sizeof *pstates);
  for (int h = 0; h < nh; h++) {
    const plat_host *ph = plat_host_at(o->plat, h);
    long ps = o->cfg.pstate >= 0 ? o->cfg.pstate : ph->pstate;
    pstates[h] = (int)(ps < ph->npstates ? ps : 0);
    if (ps >= ph->npstates) {
      x_err(err, errlen, "host %s has %d pstate%s: pstate %ld does not exist (host/pstate)", ph->name, ph->npstates,
            ph->npstates > 1 ? "s" : "", ps);
      free(pstates);
      return -1;
    }
  }
  x->e = eng_new(o->plat, &o->cfg, o->model, pstates);
  x->now = eng_clock(x->e);
  free(pstates);
  x->w = p2p_new(x->e, &o->cfg, x->np, x->host_of, wake, p2p_error, x);
  if (p2p_host_overheads(x->w, o->plat, err, errlen) < 0)
    return -1;
  x->rma = rma_new(x->e, x->w, x->np, x->host_of, wake, p2p_error, x);
  x->sgc = o->cfg.simgrid_compat;
  if (x->sgc)
    p2p_set_wake2_fn(x->w, wake2);
  for (int i = 0; i < o->nobs; i++)
    if (o->obs[i].message) {
      p2p_set_message_fn(x->w, note_message);
      break;
    }
  x->ranks = x_calloc((size_t)x->np, sizeof *x->ranks);
  x->runq = x_malloc((size_t)(x->np + 1) * sizeof *x->runq);
  x->comms = comm_reg_new(x->np);
  x->scratch = x_malloc((size_t)x->np * sizeof *x->scratch);
  x->dt_default = 1;
  x->test_nsleeps = x->iprobe_nsleeps = 1;
  x->no_recv_ov = p2p_no_recv_overhead(x->w);
  return 0;
}

static void teardown(replay_ctx *x) {
  rma_free(x->rma);
  trace_meta_free(&x->meta);
  if (x->ranks)
    for (int i = 0; i < x->np; i++)
      rank_free(&x->ranks[i]);
  free(x->ranks);
  free(x->runq);
  comm_reg_free(x->comms);
  free(x->scratch);
  p2p_free(x->w);
  eng_free(x->e);
  trace_close(x->t);
  free(x->host_of);
}

/* ====== the loop ====== */

static void rank_ended(replay_ctx *x, rank *r) {
  x->ndone++;
  r->stats->finish = eng_now(x->e);
  /* SimGrid prints the time of the last rank to end, from that rank's init */
  x->last_end = eng_now(x->e);
  x->last_origin = r->init_time;
}

static void report_deadlock(replay_ctx *x) {
  FILE *out = x->o->warn ? x->o->warn : stderr;
  fprintf(out, "tir-replay: deadlock at simulated time %.9f s: %d of %d ranks are blocked and nothing "
          "can complete:\n", eng_now(x->e), x->np - x->ndone, x->np);
  int shown = 0;
  for (int i = 0; i < x->np && shown < 32; i++)
    if (x->ranks[i].state != RS_DONE) {
      rank_describe(&x->ranks[i], out);
      shown++;
    }
  if (x->np - x->ndone > shown)
    fprintf(out, "  ... and %d more blocked ranks\n", x->np - x->ndone - shown);
  p2p_report_unmatched(x->w, out);
}

/* Deadlocked although the engine has work: every action it runs is the poll of a probe
 * loop (MPI_Probe, or a receive of unknown size) whose probe failed with no send posted
 * since. A blocked rank waits for a transfer (none runs) or a match (only a running rank
 * could post one), and a poller's next probe would look at the same mailboxes: nothing can
 * change any more, and the loops would poll forever. The scan over the ranks runs only
 * when the engine holds nothing but polls. */
static int stuck_polling(replay_ctx *x) {
  if (x->npolling == 0 || eng_pending(x->e) != x->npolling)
    return 0;
  for (int i = 0; i < x->np; i++)
    if (x->ranks[i].polling && x->ranks[i].poll_stamp != x->sends_posted)
      return 0;
  return 1;
}

static double wall_now(void);

/* Whether the trace is known to be cut short: trace.meta, or a rank's file. */
static int cut_short(const replay_ctx *x) {
  for (int i = 0; x->meta.complete && i < x->np; i++)
    if (trace_rank_cut(x->t, i))
      return 1;
  return !x->meta.complete;
}

/* Ranks are blocked and nothing can complete: where a truncated trace's ranks run out
 * (allow_truncated and a trace cut short: stop there, 0), else a deadlock (-1, reported). */
static int stuck(replay_ctx *x) {
  if (x->o->allow_truncated && cut_short(x)) {
    x->stopped = 1;
    return 0;
  }
  report_deadlock(x);
  replay_fail_run(x, "deadlock: %d of %d ranks blocked forever (see the report above)%s", x->np - x->ndone, x->np,
                  cut_short(x) ? "; the trace was cut short: --allow-truncated replays what every rank recorded "
                                 "and stops there" : "");
  return -1;
}

/* Progress line on stderr, at most twice a second, after the first second. */
static void progress(replay_ctx *x, double t0, double *last) {
  double now = wall_now();
  if (now - t0 < 1.0 || now - *last < 0.5)
    return;
  *last = now;
  uint64_t done = 0;
  for (int i = 0; i < x->np; i++)
    done += x->res_ranks[i].actions;
  uint64_t rd = trace_bytes_read(x->t), tot = trace_bytes_total(x->t);
  double frac = tot ? (double)rd / (double)tot : 0;
  fprintf(stderr, "\r[tir] simulated %.6g s, %.0f actions/rank, %.3g actions/s", eng_now(x->e),
          (double)done / x->np, (double)done / (now - t0));
  if (frac > 0.01 && frac < 0.99) /* traces read ahead of the replay give no estimate */
    fprintf(stderr, ", %.0f%% read, ETA %.0f s   ", 100 * frac, (now - t0) * (1 - frac) / frac);
  else
    fputs("          ", stderr);
  fflush(stderr);
}

static int loop(replay_ctx *x) {
  double t0 = wall_now(), last = 0;
  unsigned long steps = 0;
  for (int i = 0; i < x->o->nobs; i++)
    if (x->o->obs[i].start)
      x->o->obs[i].start(x->o->obs[i].ctx, x->np, x->host_of);
  for (int i = 0; i < x->np; i++) {
    rank *r = &x->ranks[i];
    r->x = x;
    r->id = i;
    r->host = x->host_of[i];
    r->stats = &x->res_ranks[i];
    r->stats->host = r->host;
    if (x->o->cfg.init_sleep > 0) /* smpi/init: injected before the first action */
      rank_start_sleep(r, x->o->cfg.init_sleep);
    else if (!x->o->cfg.simgrid_marking || x->sgc)
      replay_enqueue(x, i);
  }
  /* tir/simgrid-marking alone: SimGrid 3.32 creates the last rank's flow of a ring of
   * sendRecv at date 0 first (doc/model.md, "Equal dates"): running that rank first
   * approximates it. The compat mode gets it from SimGrid's scheduling itself (rank.c,
   * sg_yield: each rank posts its send, then each its receive), ranks in rank order. */
  if (x->o->cfg.simgrid_marking && !x->sgc && !(x->o->cfg.init_sleep > 0)) {
    replay_enqueue(x, x->np - 1);
    for (int i = 0; i < x->np - 1; i++)
      replay_enqueue(x, i);
  }
  while (x->ndone < x->np) {
    while (x->qhead != x->qtail) {
      int id = x->runq[x->qhead];
      x->qhead = (x->qhead + 1) % (size_t)(x->np + 1);
      rank *r = &x->ranks[id];
      r->queued = 0;
      if (rank_run(x, r) < 0)
        return -1;
      if (r->state == RS_DONE)
        rank_ended(x, r);
    }
    if (x->failed)
      return -1;
    if (x->ndone == x->np)
      break;
    if (x->o->progress && (++steps & 1023) == 0)
      progress(x, t0, &last);
    if (!(eng_now(x->e) < HUGE_VAL)) { /* sums of huge amounts: time would stand still at inf */
      replay_fail(x, "the simulated time overflowed (the trace's amounts add up beyond %g s)", DBL_MAX);
      return -1;
    }
    if (stuck_polling(x) || !eng_step(x->e))
      return stuck(x);
  }
  if (x->o->progress && wall_now() - t0 >= 1.0)
    fputs("\r\033[K", stderr); /* erase the progress line */
  return 0;
}

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The rest of the trace of a rank blocked when the replay stopped, read (not replayed) to
 * see how it ends: the number of its actions. */
static uint64_t drain(replay_ctx *x, rank *r) {
  char err[1024];
  uint64_t n = 0;
  trace_action a;
  while (trace_next(x->t, r->id, &a, err, sizeof err) > 0) {
    r->finalized |= a.op == TRACE_FINALIZE;
    n++;
  }
  r->ended = 1;
  return n;
}

/* allow_truncated: which ranks were cut (their file ends cut short, or trace.meta says the
 * run did not complete and their trace ends without finalize; the traces of ranks blocked
 * at the stop are read to their end to tell), which are blocked, and, when the replay
 * stopped, the date reached (from the earliest init). */
static void truncation(replay_ctx *x, replay_result *res) {
  res->cut = x_calloc((size_t)x->np, sizeof *res->cut);
  double origin = x->np ? x->ranks[0].init_time : 0;
  for (int i = 0; i < x->np; i++) {
    rank *r = &x->ranks[i];
    if (x->stopped && !r->ended)
      res->unreplayed += drain(x, r);
    res->cut[i] = trace_rank_cut(x->t, i) != 0 || (!x->meta.complete && r->ended && !r->finalized);
    res->ncut += res->cut[i];
    res->nblocked += r->state != RS_DONE;
    origin = r->init_time < origin ? r->init_time : origin;
  }
  res->truncated = x->stopped || res->ncut > 0;
  if (x->stopped)
    res->simulated_time = eng_now(x->e) - origin;
}

int replay_run(const replay_opts *o, replay_result *res, char *err, size_t errlen) {
  double t0 = wall_now();
  replay_ctx x;
  memset(&x, 0, sizeof x);
  memset(res, 0, sizeof *res);
  if (setup(&x, o, err, errlen) < 0) {
    teardown(&x);
    return TIR_EXIT_INPUT;
  }
  res->np = x.np;
  res->ranks = x_calloc((size_t)x.np, sizeof *res->ranks);
  x.res_ranks = res->ranks;
  int rc = loop(&x);
  int code = TIR_EXIT_OK;
  if (rc == 0 && o->allow_truncated)
    truncation(&x, res);
  if (rc < 0) {
    snprintf(err, errlen, "%s", x.err);
    code = x.fail_code;
  } else if (p2p_unmatched(x.w) > 0 && !res->truncated) {
    FILE *out = o->warn ? o->warn : stderr;
    fprintf(out, "tir-replay: %d messages were never matched at the end of the replay:\n", p2p_unmatched(x.w));
    p2p_report_unmatched(x.w, out);
    snprintf(err, errlen, "%d unmatched point-to-point messages at the end of the replay", p2p_unmatched(x.w));
    code = TIR_EXIT_FAILURE;
  }
  if (!res->truncated || !x.stopped)
    res->simulated_time = x.last_end - x.last_origin;
  if (code == TIR_EXIT_OK)
    for (int i = 0; i < o->nobs; i++)
      if (o->obs[i].finish)
        o->obs[i].finish(o->obs[i].ctx, x.e ? eng_now(x.e) : 0);
  res->messages = p2p_messages(x.w);
  for (int i = 0; i < x.np; i++)
    res->actions += res->ranks[i].actions;
  teardown(&x);
  res->wall_seconds = wall_now() - t0;
  return code;
}

void replay_result_free(replay_result *res) {
  free(res->ranks);
  free(res->cut);
  res->ranks = NULL;
  res->cut = NULL;
}
