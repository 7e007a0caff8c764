/* summary.c - the summary tir-replay prints on standard output (output.h).
 *
 * Its first line, `Simulated time: <s> s`, is a contract (scripts parse it; 12 significant
 * digits); unless quiet, it goes on with the run's counts, what a compute unit is, and a
 * table of per-rank times (all ranks up to 64, else the first 16).
 *
 * What a compute unit is comes from trace.meta (trace_meta.h): a trace taken with hardware
 * counters counts instructions, one taken without counts CPU time (counter_rate units per
 * CPU second of the tracing machine, 1e9 by default: 1 unit = 1 ns). A host of speed S
 * replays a burst of V units in V / S seconds, so a CPU-time trace replayed on hosts whose
 * speed is not counter_rate runs its computation S / counter_rate times faster than it was
 * measured. That may be the question asked (a faster machine) or a surprise (a platform
 * written in flop/s): the summary says which rate the hosts have, and a warning on stderr
 * gives the factor whenever it is not 1 (within 1%).
 *
 * Point-to-point time (`p2p`) holds the sends and receives and the waits that complete
 * isend/irecv requests (a halo exchange's time is mostly in waitall); `collective` the
 * collective actions. */
#include "output.h"

#include "trace_meta.h"

#include <math.h>
#include <string.h>

#define ALL_UP_TO 64 /* ranks shown in full up to this count */
#define FIRST 16     /* else the first ones */

/* Speed of host h in the run: the pstate of host/pstate, else the host's own. */
static double host_speed(const replay_opts *o, int h) {
  const plat_host *ph = plat_host_at(o->plat, h);
  long ps = o->cfg.pstate >= 0 ? o->cfg.pstate : ph->pstate;
  return ph->speeds[ps >= 0 && ps < ph->npstates ? ps : 0];
}

/* Slowest and fastest host speeds among the ranks' hosts. */
static void speed_range(const replay_opts *o, const replay_result *r, double *lo, double *hi) {
  *lo = INFINITY, *hi = 0;
  for (int i = 0; i < r->np; i++) {
    double s = host_speed(o, r->ranks[i].host);
    *lo = fmin(*lo, s), *hi = fmax(*hi, s);
  }
}

static void rate_text(char *buf, size_t n, double lo, double hi) {
  if (hi > lo * (1 + 1e-9))
    snprintf(buf, n, "%.4g to %.4g", lo, hi);
  else
    snprintf(buf, n, "%.4g", lo);
}

/* A CPU-time trace with a usable rate. */
static int cpu_time(const trace_meta *m) {
  return m->counter_source && !strcmp(m->counter_source, "thread_cputime") && trace_meta_rate(m) > 0;
}

/* The CPU-time scaling warning (see the top of this file). */
static void warn_scaling(const trace_meta *m, double rate, double lo, double hi, FILE *warn) {
  if (!warn || !(hi > 0) || (lo >= 0.99 * rate && hi <= 1.01 * rate))
    return;
  char hosts[64];
  rate_text(hosts, sizeof hosts, lo, hi);
  char factor[64];
  rate_text(factor, sizeof factor, lo / rate, hi / rate);
  fprintf(warn, "tir-replay: warning: %s: compute volumes are thread CPU time at %g units per CPU second of "
                "the tracing machine, and the hosts run %s units/s: computation replays %sx as fast as it was "
                "measured (host speed %g f replays it at the traced speed)\n",
          m->file, rate, hosts, factor, rate);
}

/* "Counter source: ..." line. */
static void print_units(FILE *out, const trace_meta *m, double lo, double hi) {
  char hosts[64];
  rate_text(hosts, sizeof hosts, lo, hi);
  if (!m->file)
    fprintf(out, "Counter source: unknown (no trace.meta beside the trace); hosts run %s units/s\n", hosts);
  else if (cpu_time(m))
    fprintf(out, "Counter source: thread_cputime, %g units per CPU second of the tracing machine (%s); "
                 "hosts run %s units/s\n", trace_meta_rate(m), m->file, hosts);
  else
    fprintf(out, "Counter source: %s, rate %s (%s); hosts run %s units/s\n",
            m->counter_source ? m->counter_source : "unknown", m->counter_rate ? m->counter_rate : "unknown",
            m->file, hosts);
}

static void print_table(FILE *out, const replay_opts *o, const replay_result *r) {
  int shown = r->np <= ALL_UP_TO ? r->np : FIRST, w = 4;
  for (int i = 0; i < shown; i++) {
    int n = (int)strlen(plat_host_at(o->plat, r->ranks[i].host)->name);
    w = n > w ? n : w;
  }
  fprintf(out, "%6s %-*s %14s %14s %14s %14s\n", "rank", w, "host", "end (s)", "compute (s)", "p2p (s)",
          "collective (s)");
  for (int i = 0; i < shown; i++) {
    const replay_rank *k = &r->ranks[i];
    fprintf(out, "%6d %-*s %14.6f %14.6f %14.6f %14.6f\n", i, w, plat_host_at(o->plat, k->host)->name, k->finish,
            k->compute, k->comm - k->coll + k->wait, k->coll);
  }
  if (shown < r->np)
    fprintf(out, "  ... %d more ranks (see --report)\n", r->np - shown);
  fprintf(out, "p2p: sends, receives and the waits completing them; collective: collective actions\n");
}

/* A truncated trace's replay: where it stopped, which ranks were cut, which were blocked. */
static void print_truncation(FILE *out, const replay_result *r) {
  fprintf(out, "Truncated trace: %s at %.12g s; %d of %d ranks cut:",
          r->nblocked ? "the replay stopped where ranks ran out" : "every rank replayed what it recorded, the last ending",
          r->simulated_time, r->ncut, r->np);
  for (int i = 0, shown = 0; i < r->np && shown < 64; i++)
    if (r->cut[i])
      fprintf(out, " %d", i), shown++;
  if (r->ncut > 64)
    fprintf(out, " ...");
  if (r->ncut == 0)
    fprintf(out, " none");
  fprintf(out, "; %d rank%s blocked at the end", r->nblocked, r->nblocked == 1 ? "" : "s");
  if (r->nblocked)
    fprintf(out, " (%llu actions not replayed)", (unsigned long long)r->unreplayed);
  fprintf(out, "\n");
}

void output_summary(FILE *out, const replay_opts *o, const replay_result *r, int quiet, FILE *warn) {
  fprintf(out, "Simulated time: %.12g s\n", r->simulated_time);
  if (r->truncated)
    print_truncation(out, r);
  trace_meta m;
  double lo, hi;
  trace_meta_read(o->trace, &m);
  speed_range(o, r, &lo, &hi);
  if (!quiet) {
    fprintf(out, "Ranks: %d, actions: %llu, messages: %llu, replay wall time: %.3f s (%.0f actions/s)\n", r->np,
            (unsigned long long)r->actions, (unsigned long long)r->messages, r->wall_seconds,
            r->wall_seconds > 0 ? (double)r->actions / r->wall_seconds : 0.0);
    print_units(out, &m, lo, hi);
    print_table(out, o, r);
  }
  if (cpu_time(&m))
    warn_scaling(&m, trace_meta_rate(&m), lo, hi, warn);
  trace_meta_free(&m);
}
