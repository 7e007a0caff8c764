/* cli.c - tir-replay's command line: options table, set-up, summary.
 *
 * Every option and its help are in `opts` below; --help prints them from there.
 * Settings precedence: defaults < the platform's <config> < -c/--cfg. The summary's
 * first line is `Simulated time: <seconds> s` (scripts parse it), then per-rank totals. */
#include "cli.h"

#include "config.h"
#include "coll.h"
#include "energy.h"
#include "inputs.h"
#include "output.h"
#include "timeline.h"
#include "platform.h"
#include "replay.h"
#include "stats.h"
#include "trace.h"
#include "validate.h"
#include "xalloc.h"

#include "build-config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { O_REPORT = 256, O_VALIDATE, O_STRICT, O_LIST_ALGOS, O_HELP_CFG, O_ENERGY, O_TIMELINE, O_TL_FORMAT,
       O_TL_WINDOW, O_POWER_TRACE };

typedef struct opt_doc {
  struct option o;
  const char *arg, *help;
} opt_doc;

static const opt_doc opts[] = {
    {{"platform", required_argument, 0, 'p'}, "FILE", "SimGrid v4 XML platform (default: built-in cluster)"},
    {{"hostfile", required_argument, 0, 'H'}, "FILE", "hosts of the ranks: `host`, `host:count` or `host slots=count`"},
    {{"np", required_argument, 0, 'n'}, "N", "number of ranks (default: from the index, else the hostfile)"},
    {{"cfg", required_argument, 0, 'c'}, "KEY:VALUE", "model setting, SimGrid names (repeatable; --help-cfg)"},
    {{"network-model", required_argument, 0, 'm'}, "MODEL", "hybrid (default), loggps or fluid"},
    {{"verbose", no_argument, 0, 'v'}, NULL, "log every completed action: [time] action duration"},
    {{"quiet", no_argument, 0, 'q'}, NULL, "print only the summary"},
    {{"report", required_argument, 0, O_REPORT}, "FILE", "write a report (FILE.json or FILE.csv)"},
    {{"timeline", required_argument, 0, O_TIMELINE}, "FILE", "write a timeline (.csv, .paje, .prv, .svg)"},
    {{"timeline-format", required_argument, 0, O_TL_FORMAT}, "FMT", "timeline format: csv, paje, prv or svg"},
    {{"timeline-window", required_argument, 0, O_TL_WINDOW}, "START:END", "keep only this time window (s)"},
    {{"power-trace", required_argument, 0, O_POWER_TRACE}, "FILE", "write host power over time (CSV; energy on)"},
    {{"validate", no_argument, 0, O_VALIDATE}, NULL, "check the traces statically, do not simulate"},
    {{"strict", no_argument, 0, O_STRICT}, NULL, "SimGrid's trace-format quirks become errors"},
    {{"energy", no_argument, 0, O_ENERGY}, NULL, "same as --cfg=plugin:host_energy"},
    {{"list-algorithms", no_argument, 0, O_LIST_ALGOS}, NULL, "list collective algorithms and selectors"},
    {{"help-cfg", no_argument, 0, O_HELP_CFG}, NULL, "list the configuration keys"},
    {{"help", no_argument, 0, 'h'}, NULL, "this help"},
    {{"version", no_argument, 0, 'V'}, NULL, "print the version"},
};
#define NOPTS (sizeof opts / sizeof opts[0])

typedef struct cli {
  const char *platform, *hostfile, *report, *trace, *model;
  const char *timeline, *tl_format, *power_trace;
  double win_start, win_end;
  int np, verbose, quiet, validate, strict;
  const char **cfgs;
  size_t ncfg, cfg_cap;
} cli;

static void usage(FILE *out) {
  fprintf(out, "Usage: tir-replay [OPTIONS] TRACE\n"
               "Replay a time-independent MPI trace (an index file, a trace file or a directory\n"
               "holding an index) on a platform and predict its run time.\n\nOptions:\n");
  for (size_t i = 0; i < NOPTS; i++) {
    char left[64];
    if (opts[i].o.val < 256)
      snprintf(left, sizeof left, "-%c, --%s%s%s", opts[i].o.val, opts[i].o.name, opts[i].arg ? " " : "",
               opts[i].arg ? opts[i].arg : "");
    else
      snprintf(left, sizeof left, "    --%s%s%s", opts[i].o.name, opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
    fprintf(out, "  %-30s %s\n", left, opts[i].help);
  }
  fprintf(out, "\nExit status: 0 ok, 1 replay error (deadlock, unmatched messages), 2 usage,\n"
               "3 bad input (trace, platform, hostfile, setting), 4 I/O error.\n");
}

static void list_algorithms(void) {
  printf("Selectors (--cfg=smpi/coll-selector:NAME):\n");
  for (int i = 0; i < coll_selector_count(); i++)
    printf("  %-10s %s\n", coll_selector_at(i)->name, coll_selector_at(i)->desc);
  printf("\nAlgorithms (--cfg=smpi/<collective>:NAME):\n");
  for (int k = 0; k < COLL_NKINDS; k++)
    for (int i = 0; i < coll_algo_count(); i++)
      if ((int)coll_algo_at(i)->kind == k)
        printf("  %-15s %-22s %s\n", coll_kind_name(k), coll_algo_at(i)->name, coll_algo_at(i)->desc);
}

/* -n/--np: 1 to REPLAY_MAX_RANKS (no wrap-around: 4294967297 is not 1). */
static int parse_np(const char *s, int *np) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end || v < 1) {
    fprintf(stderr, "tir-replay: -n/--np: '%s' is not a positive integer\n", s);
    return -1;
  }
  if (errno == ERANGE || v > REPLAY_MAX_RANKS) {
    fprintf(stderr, "tir-replay: -n/--np: %s ranks: tir replays at most %d\n", s, REPLAY_MAX_RANKS);
    return -1;
  }
  *np = (int)v;
  return 0;
}

/* Parses argv into c. Returns -1 to exit with status *rc (help, version, errors). */
static int parse(int argc, char **argv, cli *c, int *rc) {
  struct option lo[NOPTS + 1];
  for (size_t i = 0; i < NOPTS; i++)
    lo[i] = opts[i].o;
  memset(&lo[NOPTS], 0, sizeof lo[0]);
  int ch;
  opterr = 0;
  while ((ch = getopt_long(argc, argv, ":p:H:n:c:m:vqhV", lo, NULL)) != -1) {
    switch (ch) {
    case 'p': c->platform = optarg; break;
    case 'H': c->hostfile = optarg; break;
    case 'n':
      if (parse_np(optarg, &c->np) < 0)
        return *rc = TIR_EXIT_USAGE, -1;
      break;
    case 'c':
      x_grow(&c->cfgs, &c->cfg_cap, c->ncfg + 1, sizeof *c->cfgs);
      c->cfgs[c->ncfg++] = optarg;
      break;
    case O_ENERGY:
      x_grow(&c->cfgs, &c->cfg_cap, c->ncfg + 1, sizeof *c->cfgs);
      c->cfgs[c->ncfg++] = "plugin:host_energy";
      break;
    case 'm': c->model = optarg; break;
    case 'v': c->verbose = 1; break;
    case 'q': c->quiet = 1; break;
    case O_REPORT: c->report = optarg; break;
    case O_TIMELINE: c->timeline = optarg; break;
    case O_TL_FORMAT: c->tl_format = optarg; break;
    case O_POWER_TRACE: c->power_trace = optarg; break;
    case O_TL_WINDOW:
      if (sscanf(optarg, "%lf:%lf", &c->win_start, &c->win_end) != 2 || !(c->win_end > c->win_start)) {
        fprintf(stderr, "tir-replay: --timeline-window: '%s' is not START:END with END > START (seconds)\n", optarg);
        return *rc = TIR_EXIT_USAGE, -1;
      }
      break;
    case O_VALIDATE: c->validate = 1; break;
    case O_STRICT: c->strict = 1; break;
    case O_LIST_ALGOS: list_algorithms(); return *rc = 0, -1;
    case O_HELP_CFG: cfg_print_keys(stdout); return *rc = 0, -1;
    case 'h': usage(stdout); return *rc = 0, -1;
    case 'V': printf("tir-replay (tir) %s\n", PACKAGE_VERSION); return *rc = 0, -1;
    case ':':
      fprintf(stderr, "tir-replay: option %s needs an argument\n", argv[optind - 1]);
      return *rc = TIR_EXIT_USAGE, -1;
    default:
      fprintf(stderr, "tir-replay: unknown option '%s' (see --help)\n", argv[optind - 1]);
      return *rc = TIR_EXIT_USAGE, -1;
    }
  }
  if (optind != argc - 1) {
    fprintf(stderr, "tir-replay: %s (see --help)\n", optind >= argc ? "missing TRACE argument" : "too many arguments");
    return *rc = TIR_EXIT_USAGE, -1;
  }
  c->trace = argv[optind];
  return 0;
}

/* Number of rank files listed by the trace's index (0 in shared mode), or -1. */
static int count_ranks(const char *trace, char *err, size_t errlen) {
  trace_opts to = {0};
  trace_set *t = trace_open(trace, &to, err, errlen);
  if (!t)
    return -1;
  int n = trace_nfiles(t);
  trace_close(t);
  return n;
}

static platform *load_platform(const cli *c, char *err, size_t errlen) {
  if (c->platform)
    return plat_load(c->platform, err, errlen);
  int n = c->np;
  if (n <= 0 && (n = count_ranks(c->trace, err, errlen)) < 0)
    return NULL;
  if (n <= 0) {
    x_err(err, errlen, "%s: without -p/--platform, give -n/--np (one trace file for all ranks)", c->trace);
    return NULL;
  }
  if (!c->quiet)
    printf("No platform given: using the built-in default cluster of %d hosts (1 Gf, 125 MBps, 50 us, "
           "backbone 2.25 GBps)\n", n);
  return plat_default_cluster(n);
}

static int apply_cfg(const cli *c, platform *p, config *cfg, char *err, size_t errlen) {
  cfg_init(cfg);
  for (int i = 0; i < plat_config_count(p); i++) {
    const char *k, *v;
    plat_config_at(p, i, &k, &v);
    char e2[1024];
    if (cfg_set(cfg, k, v, e2, sizeof e2) < 0)
      return x_err(err, errlen, "%s: <config>: %s", plat_source(p), e2);
  }
  for (size_t i = 0; i < c->ncfg; i++)
    if (cfg_set_kv(cfg, c->cfgs[i], err, errlen) < 0)
      return -1;
  return 0;
}

static void print_summary(const cli *c, const replay_result *r, const platform *p) {
  printf("Simulated time: %.12g s\n", r->simulated_time);
  if (c->quiet)
    return;
  printf("Ranks: %d, actions: %llu, messages: %llu, replay wall time: %.3f s (%.0f actions/s)\n", r->np,
         (unsigned long long)r->actions, (unsigned long long)r->messages, r->wall_seconds,
         r->wall_seconds > 0 ? (double)r->actions / r->wall_seconds : 0.0);
  int shown = r->np <= 64 ? r->np : 16;
  printf("%6s %-20s %14s %14s %14s %14s\n", "rank", "host", "end (s)", "compute (s)", "comm (s)", "wait (s)");
  for (int i = 0; i < shown; i++) {
    const replay_rank *k = &r->ranks[i];
    printf("%6d %-20.20s %14.6f %14.6f %14.6f %14.6f\n", i, plat_host_at(p, k->host)->name, k->finish,
           k->compute, k->comm, k->wait);
  }
  if (shown < r->np)
    printf("  ... %d more ranks (see --report)\n", r->np - shown);
}

static int cli_warn(void *ctx, const char *msg) {
  fprintf(ctx, "tir-replay: warning: %s\n", msg);
  return 0;
}

/* --validate: static checks, no simulation. */
static int validate_main(const replay_opts *o, FILE *out, FILE *errout) {
  char err[2048];
  trace_opts to = {.strict = o->strict, .warn = cli_warn, .warn_ctx = errout};
  trace_set *t = trace_open(o->trace, &to, err, sizeof err);
  if (!t) {
    fprintf(errout, "tir-replay: %s\n", err);
    return TIR_EXIT_INPUT;
  }
  int np = o->np > 0 ? o->np : trace_nfiles(t);
  int *hosts = NULL;
  if (np <= 0 && o->hostfile && (np = replay_read_hostfile(o->hostfile, o->plat, 0, &hosts, err, sizeof err)) < 0) {
    fprintf(errout, "tir-replay: %s\n", err);
    trace_close(t);
    return TIR_EXIT_INPUT;
  }
  free(hosts);
  int rc = TIR_EXIT_OK;
  if (np <= 0) {
    fprintf(errout, "tir-replay: %s: cannot tell the number of ranks: give -n/--np\n", o->trace);
    rc = TIR_EXIT_USAGE;
  } else if (validate_traces(t, np, out, err, sizeof err) < 0) {
    fprintf(errout, "tir-replay: %s\n", err);
    rc = TIR_EXIT_INPUT;
  }
  trace_close(t);
  return rc;
}

/* Observers asked for on the command line: energy and a timeline. */
typedef struct watchers {
  energy *en;
  timeline *tl;
  stats *st;
  replay_observer obs[3];
} watchers;

static int watch(const cli *c, replay_opts *o, platform *p, watchers *w, char *err, size_t errlen) {
  memset(w, 0, sizeof *w);
  if (o->cfg.host_energy || c->power_trace) {
    if (!(w->en = energy_new(p, &o->cfg, err, errlen)))
      return TIR_EXIT_INPUT;
    energy_keep_power_trace(w->en, c->power_trace != NULL);
    energy_observer(w->en, &w->obs[o->nobs++]);
  }
  if (c->timeline) {
    if (!(w->tl = timeline_open(c->timeline, c->tl_format, c->win_start, c->win_end, p, err, errlen)))
      return TIR_EXIT_IO;
    timeline_observer(w->tl, &w->obs[o->nobs++]);
  }
  if (c->report) {
    w->st = stats_new();
    stats_observer(w->st, &w->obs[o->nobs++]);
  }
  o->obs = w->obs;
  return 0;
}

/* Writes what the run produced besides the summary. Returns an exit code. */
static int write_outputs(const cli *c, const replay_opts *o, const replay_result *res, watchers *w) {
  char err[2048];
  int rc = 0;
  if (w->en) {
    output_energy_summary(w->en, stdout);
    if (c->power_trace && output_power_trace(w->en, c->power_trace, err, sizeof err) < 0)
      fprintf(stderr, "tir-replay: %s\n", err), rc = TIR_EXIT_IO;
  }
  if (w->tl) {
    int r = timeline_close(w->tl, 0, err, sizeof err);
    w->tl = NULL;
    if (r < 0)
      fprintf(stderr, "tir-replay: %s\n", err), rc = TIR_EXIT_IO;
  }
  if (c->report && output_report_stats(c->report, o, res, w->en, w->st, err, sizeof err) < 0)
    fprintf(stderr, "tir-replay: %s\n", err), rc = TIR_EXIT_IO;
  return rc;
}

static int simulate(const cli *c, replay_opts *o, platform *p) {
  char err[2048];
  watchers w;
  int rc = watch(c, o, p, &w, err, sizeof err);
  if (rc != 0) {
    fprintf(stderr, "tir-replay: %s\n", err);
  } else {
    replay_result res;
    rc = replay_run(o, &res, err, sizeof err);
    if (rc != 0)
      fprintf(stderr, "tir-replay: %s\n", err);
    else {
      print_summary(c, &res, p);
      rc = write_outputs(c, o, &res, &w);
    }
    replay_result_free(&res);
  }
  if (w.tl)
    timeline_close(w.tl, 1, err, sizeof err);
  energy_free(w.en);
  stats_free(w.st);
  return rc;
}

static int run(cli *c) {
  char err[2048];
  platform *p = load_platform(c, err, sizeof err);
  inputs_note(c->hostfile); /* no output may replace an input (output.c); the trace's */
  inputs_note(c->trace);    /* own files are noted as they are opened */
  if (!p) {
    fprintf(stderr, "tir-replay: %s\n", err);
    return TIR_EXIT_INPUT;
  }
  replay_opts o = {.trace = c->trace, .hostfile = c->hostfile, .plat = p, .np = c->np, .strict = c->strict,
                   .warn = stderr, .log = c->verbose ? stdout : NULL, .progress = !c->quiet && isatty(2)};
  o.model = net_model_find(c->model ? c->model : "hybrid");
  int rc = TIR_EXIT_INPUT;
  if (!o.model)
    fprintf(stderr, "tir-replay: unknown network model '%s' (valid: %s)\n", c->model, net_model_names());
  else if (apply_cfg(c, p, &o.cfg, err, sizeof err) < 0)
    fprintf(stderr, "tir-replay: %s\n", err);
  else if (c->validate)
    rc = validate_main(&o, stdout, stderr);
  else
    rc = simulate(c, &o, p);
  cfg_free(&o.cfg);
  plat_free(p);
  return rc;
}

/* What standard output could not take (a full disk, an I/O error) is lost silently unless
 * asked for: the summary is an output like the others, so that is exit 4. */
static int check_stdout(int rc) {
  int failed = fflush(stdout) != 0 ? errno : ferror(stdout) ? EIO : 0;
  if (!failed)
    return rc;
  fprintf(stderr, "tir-replay: standard output: cannot write: %s\n", strerror(failed));
  return rc ? rc : TIR_EXIT_IO;
}

int cli_main(int argc, char **argv) {
  cli c;
  memset(&c, 0, sizeof c);
  int rc = 0;
  coll_settings_register();
  if (parse(argc, argv, &c, &rc) == 0)
    rc = run(&c);
  free(c.cfgs);
  return check_stdout(rc);
}
