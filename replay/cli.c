/* cli.c - tir-replay's command line: options table, set-up, the run and its outputs.
 *
 * Every option and its help are in `opts` below; --help prints them from there. smpirun's
 * single-dash spellings (-np, -platform, -hostfile, -replay, -map, -trace) are turned into
 * these long options first (cli_smpi.c), so a SimGrid command line runs unchanged. A bad
 * command line always exits with 2 and names the argument at fault; an option that takes
 * one value given twice with different values is such an error. Settings precedence:
 * defaults < the platform's <config> < -c/--cfg. The summary (output/summary.c) starts with
 * `Simulated time: <seconds> s`, the line scripts parse. */
#include "cli.h"

#include "cli_smpi.h"
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
#include "trace_meta.h"
#include "validate.h"
#include "xalloc.h"

#include "build-config.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { O_REPORT = 256, O_VALIDATE, O_STRICT, O_LIST_ALGOS, O_HELP_CFG, O_ENERGY, O_TIMELINE, O_TL_FORMAT,
       O_TL_WINDOW, O_POWER_TRACE, O_REPLAY, O_MAP, O_TRACE, O_TRACE_FILE,
       O_ALLOW_TRUNCATED };

#define OPTSTRING ":p:H:n:c:m:vqhV"
#define SMPI_TRACE_FILE "smpi_simgrid.trace" /* smpirun -trace's default file */

typedef struct opt_doc {
  struct option o;
  const char *arg, *help;
} opt_doc;

static const opt_doc opts[] = {
    {{"platform", required_argument, 0, 'p'}, "FILE", "SimGrid v4 XML platform, or the NAME of a shipped one"},
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
    {{"allow-truncated", no_argument, 0, O_ALLOW_TRUNCATED}, NULL,
     "a trace cut short (killed run): replay what every rank recorded, stop there"},
    {{"energy", no_argument, 0, O_ENERGY}, NULL, "same as --cfg=plugin:host_energy"},
    {{"list-algorithms", no_argument, 0, O_LIST_ALGOS}, NULL, "list collective algorithms and selectors"},
    {{"help-cfg", no_argument, 0, O_HELP_CFG}, NULL, "list the configuration keys"},
    {{"replay", required_argument, 0, O_REPLAY}, "TRACE", "the trace (smpirun's -replay; or give TRACE last)"},
    {{"map", no_argument, 0, O_MAP}, NULL, "print the host of each rank (smpirun's -map)"},
    {{"trace", no_argument, 0, O_TRACE}, NULL, "Paje timeline to " SMPI_TRACE_FILE " (smpirun's -trace)"},
    {{"trace-file", required_argument, 0, O_TRACE_FILE}, "FILE", "the file of --trace (smpirun's -trace-file)"},
    {{"help", no_argument, 0, 'h'}, NULL, "this help"},
    {{"version", no_argument, 0, 'V'}, NULL, "print the version"},
};
#define NOPTS (sizeof opts / sizeof opts[0])

typedef struct cli {
  const char *platform, *hostfile, *report, *trace, *model;
  const char *timeline, *tl_format, *power_trace, *window, *np_arg, *trace_file;
  char *platform_path; /* the shipped platform -p NAME found, or NULL */
  double win_start, win_end;
  int np, verbose, quiet, validate, strict, map, smpi_trace, allow_truncated;
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
  fprintf(out, "\nsmpirun's options work too: -np N, -platform FILE, -hostfile FILE (or -machinefile),\n"
               "-replay TRACE, -map, -trace, -trace-file FILE, --cfg=KEY:VALUE; a replay program\n"
               "before the trace is skipped, options without effect on a replay are ignored with a note.\n"
               "-p NAME finds a platform shipped in " TIR_PLATFORM_DIR " (e.g. -p graphene).\n");
  fprintf(out, "\nExit status: 0 ok, 1 replay error (deadlock, unmatched messages), 2 bad command line\n"
               "(options, their values, --cfg), 3 bad input (trace, platform and its <config>,\n"
               "hostfile), 4 I/O error, 5 out of memory.\n");
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

/* -n/--np: 1 to REPLAY_MAX_RANKS (no wrap-around: 4294967297 is not 1). Returns 0, or -1
 * with the message in msg. */
static int parse_np(const char *s, int *np, char *msg, size_t len) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end || v < 1) {
    snprintf(msg, len, "-n/--np: '%s' is not a positive integer", s);
    return -1;
  }
  if (errno == ERANGE || v > REPLAY_MAX_RANKS) {
    snprintf(msg, len, "-n/--np: %s ranks: tir replays at most %d", s, REPLAY_MAX_RANKS);
    return -1;
  }
  *np = (int)v;
  return 0;
}

/* Prints "tir-replay: MESSAGE (see --help)" and sets the usage exit status. Returns -1. */
static int usage_error(int *rc, const char *msg) {
  fprintf(stderr, "tir-replay: %s (see --help)\n", msg);
  *rc = TIR_EXIT_USAGE;
  return -1;
}

/* An option that takes one value: given twice with different values is an error. */
static int once(const char **field, const char *v, const char *name, int *rc) {
  if (*field && strcmp(*field, v)) {
    char msg[1024];
    snprintf(msg, sizeof msg, "%s given twice, '%s' then '%s': it takes one value", name, *field, v);
    return usage_error(rc, msg);
  }
  *field = v;
  return 0;
}

static void add_cfg(cli *c, const char *kv) {
  x_grow(&c->cfgs, &c->cfg_cap, c->ncfg + 1, sizeof *c->cfgs);
  c->cfgs[c->ncfg++] = kv;
}

/* Options that print something and exit 0: returns 1 when ch is one. */
static int informative(int ch) {
  switch (ch) {
  case O_LIST_ALGOS: list_algorithms(); return 1;
  case O_HELP_CFG: cfg_print_keys(stdout); return 1;
  case 'h': usage(stdout); return 1;
  case 'V': printf("tir-replay (tir) %s\n", PACKAGE_VERSION); return 1;
  default: return 0;
  }
}

/* Options with a value to check or keep once. Returns 0, or -1 with *rc set. */
static int valued(cli *c, int ch, const char *v, int *rc) {
  switch (ch) {
  case 'p': return once(&c->platform, v, "-p/--platform", rc);
  case 'H': return once(&c->hostfile, v, "-H/--hostfile", rc);
  case 'm': return once(&c->model, v, "-m/--network-model", rc);
  case O_REPORT: return once(&c->report, v, "--report", rc);
  case O_TIMELINE: return once(&c->timeline, v, "--timeline", rc);
  case O_TL_FORMAT: return once(&c->tl_format, v, "--timeline-format", rc);
  case O_POWER_TRACE: return once(&c->power_trace, v, "--power-trace", rc);
  case O_REPLAY: return once(&c->trace, v, "--replay", rc);
  case O_TRACE_FILE: return once(&c->trace_file, v, "--trace-file", rc);
  case O_TL_WINDOW: return once(&c->window, v, "--timeline-window", rc);
  default: return once(&c->np_arg, v, "-n/--np", rc);
  }
}

/* One option of getopt. Returns 0 to go on, -1 to exit with *rc. */
static int option(cli *c, int ch, const char *v, int *rc) {
  if (informative(ch))
    return *rc = 0, -1;
  switch (ch) {
  case 'c': add_cfg(c, v); return 0;
  case O_ENERGY: add_cfg(c, "plugin:host_energy"); return 0;
  case 'v': c->verbose = 1; return 0;
  case 'q': c->quiet = 1; return 0;
  case O_VALIDATE: c->validate = 1; return 0;
  case O_STRICT: c->strict = 1; return 0;
  case O_ALLOW_TRUNCATED: c->allow_truncated = 1; return 0;
  case O_MAP: c->map = 1; return 0;
  case O_TRACE: c->smpi_trace = 1; return 0;
  default: return valued(c, ch, v, rc);
  }
}

/* --trace (smpirun's -trace): a Paje timeline in --trace-file's file or SimGrid's default. */
static int smpi_trace(cli *c, int *rc) {
  char msg[1024];
  if (c->trace_file && !c->smpi_trace)
    fprintf(stderr, "tir-replay: note: --trace-file '%s' ignored without --trace (as smpirun)\n", c->trace_file);
  if (!c->smpi_trace)
    return 0;
  if (c->timeline) {
    snprintf(msg, sizeof msg, "--trace and --timeline '%s' both ask for a timeline: give one", c->timeline);
    return usage_error(rc, msg);
  }
  c->timeline = c->trace_file ? c->trace_file : SMPI_TRACE_FILE;
  c->tl_format = c->tl_format ? c->tl_format : "paje";
  return 0;
}

/* The values that need checking once every option is known. Returns 0 or -1 with *rc. */
static int check_values(cli *c, int *rc) {
  char msg[1024];
  if (c->np_arg && parse_np(c->np_arg, &c->np, msg, sizeof msg) < 0)
    return usage_error(rc, msg);
  if (c->window && (sscanf(c->window, "%lf:%lf", &c->win_start, &c->win_end) != 2 || !(c->win_end > c->win_start))) {
    snprintf(msg, sizeof msg, "--timeline-window: '%s' is not START:END with END > START (seconds)", c->window);
    return usage_error(rc, msg);
  }
  if (c->model && !net_model_find(c->model)) {
    snprintf(msg, sizeof msg, "-m/--network-model: unknown model '%s' (valid: %s)", c->model, net_model_names());
    return usage_error(rc, msg);
  }
  if (c->report && output_report_check(c->report, msg, sizeof msg) < 0)
    return usage_error(rc, msg);
  if (smpi_trace(c, rc) < 0)
    return -1;
  if ((c->timeline || c->tl_format) && timeline_check(c->timeline ? c->timeline : ".csv", c->tl_format, msg,
                                                      sizeof msg) < 0)
    return usage_error(rc, msg);
  return 0;
}

static int executable_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The operands: TRACE, unless --replay gave it. smpirun's replay program (an executable
 * before the trace, or after -replay's trace) is skipped with a note. */
static int operands(cli *c, int n, char **v, int *rc) {
  char msg[1024];
  if (n > 0 && executable_file(v[0]) && (n > 1 || c->trace)) {
    fprintf(stderr, "tir-replay: note: '%s' ignored (a replay program: tir-replay replays the trace itself)\n", v[0]);
    n--, v++;
  }
  if (n > (c->trace ? 0 : 1)) {
    snprintf(msg, sizeof msg, "unexpected argument '%s'%s", v[c->trace ? 0 : 1],
             c->trace ? " (the trace was given by --replay)" : " (one TRACE)");
    return usage_error(rc, msg);
  }
  if (n == 1)
    c->trace = v[0];
  if (!c->trace)
    return usage_error(rc, "missing TRACE argument");
  return 0;
}

/* The getopt loop over the rewritten command line w. Returns 0, or -1 to exit with *rc. */
static int parse_words(cli_words *w, const struct option *lo, cli *c, int *rc) {
  char msg[1024];
  int ch;
  opterr = 0;
  optind = 0; /* full reset of glibc's getopt (tests parse several command lines) */
  while ((ch = getopt_long(w->argc, w->argv, OPTSTRING, lo, NULL)) != -1) {
    const char *arg = cli_smpi_orig(w, w->argv[optind - 1]);
    if (ch == ':')
      snprintf(msg, sizeof msg, "option '%s' needs an argument", arg);
    else if (ch == '?' && optopt >= 256)
      snprintf(msg, sizeof msg, "option '%s' takes no argument", arg);
    else if (ch == '?')
      snprintf(msg, sizeof msg, "unknown option '%s'", arg);
    if (ch == ':' || ch == '?')
      return usage_error(rc, msg);
    if (option(c, ch, optarg, rc) < 0)
      return -1;
  }
  if (check_values(c, rc) < 0)
    return -1;
  return operands(c, w->argc - optind, w->argv + optind, rc);
}

/* Parses argv into c. Returns -1 to exit with status *rc (help, version, errors). */
static int parse(int argc, char **argv, cli *c, int *rc) {
  struct option lo[NOPTS + 1];
  for (size_t i = 0; i < NOPTS; i++)
    lo[i] = opts[i].o;
  memset(&lo[NOPTS], 0, sizeof lo[0]);
  cli_words w;
  char err[1024];
  int r = cli_smpi_rewrite(argc, argv, OPTSTRING, lo, &w, stderr, err, sizeof err);
  if (r < 0)
    r = usage_error(rc, err);
  else
    r = parse_words(&w, lo, c, rc);
  cli_words_free(&w);
  return r;
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

/* Folder of the running executable (from /proc/self/exe), or NULL. */
static char *exe_dir(void) {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    return NULL;
  buf[n] = 0;
  char *slash = strrchr(buf, '/');
  return slash ? x_asprintf("%.*s", (int)(slash - buf), buf) : NULL;
}

/* The message of a -p NAME that is neither a file nor a shipped platform (dir: the folder
 * of shipped platforms, or NULL). */
static void no_platform(const char *name, DIR *dir, char *err, size_t errlen) {
  size_t at = (size_t)snprintf(err, errlen, "%s: no such platform file, nor a platform shipped with tir", name);
  const char *sep = " (shipped: ";
  for (struct dirent *e; dir && (e = readdir(dir)) && at + 80 < errlen;) {
    size_t n = strlen(e->d_name);
    if (n > 4 && !strcmp(e->d_name + n - 4, ".xml"))
      at += (size_t)snprintf(err + at, errlen - at, "%s%.*s", sep, (int)(n - 4), e->d_name), sep = ", ";
  }
  if (*sep == ',' && at + 2 < errlen)
    snprintf(err + at, errlen - at, ")");
}

/* -p NAME, when no file NAME exists and NAME has no '/': a platform shipped with tir,
 * NAME.xml (or NAME) in the share/tir/platforms beside the executable's bin/ (an install,
 * even moved or staged with DESTDIR), then in the configured one, then in the source
 * tree's platforms/ (a build that is not installed). */
static const char *platform_file(cli *c, char *err, size_t errlen) {
  if (access(c->platform, F_OK) == 0 || strchr(c->platform, '/'))
    return c->platform;
  char *bin = exe_dir();
  char *dirs[3] = {bin ? x_asprintf("%s/../share/tir/platforms", bin) : NULL, x_strdup(TIR_PLATFORM_DIR),
                   x_strdup(TIR_SRC_PLATFORM_DIR)};
  size_t n = strlen(c->platform);
  const char *ext = n > 4 && !strcmp(c->platform + n - 4, ".xml") ? "" : ".xml";
  DIR *first = NULL;
  for (int i = 0; i < 3 && !c->platform_path; i++) {
    char *path = dirs[i] ? x_asprintf("%s/%s%s", dirs[i], c->platform, ext) : NULL;
    if (path && access(path, R_OK) == 0)
      c->platform_path = path;
    else
      free(path);
    if (!first && dirs[i])
      first = opendir(dirs[i]);
  }
  if (!c->platform_path)
    no_platform(c->platform, first, err, errlen);
  if (first)
    closedir(first);
  for (int i = 0; i < 3; i++)
    free(dirs[i]);
  free(bin);
  return c->platform_path;
}

static platform *load_platform(cli *c, char *err, size_t errlen) {
  if (c->platform) {
    const char *path = platform_file(c, err, errlen);
    return path ? plat_load(path, err, errlen) : NULL;
  }
  int n = c->np;
  if (n <= 0 && (n = count_ranks(c->trace, err, errlen)) < 0)
    return NULL;
  if (n <= 0) {
    x_err(err, errlen, "%s: without -p/--platform, give -n/--np (one trace file for all ranks)", c->trace);
    return NULL;
  }
  if (!c->quiet && !c->validate)
    printf("No platform given: using the built-in default cluster of %d hosts (1 Gf, 125 MBps, 50 us, "
           "backbone 2.25 GBps)\n", n);
  return plat_default_cluster(n);
}

/* A trace taken by tir-trace on one rank has a one-line index, which reads as one file
 * shared by all ranks: its trace.meta's np = 1 says how many ranks there are. */
static void np_from_meta(cli *c) {
  trace_meta m;
  if (c->np != 0)
    return;
  if (trace_meta_read(c->trace, &m) && m.np == 1)
    c->np = 1;
  trace_meta_free(&m);
}

/* Settings: the platform's <config> (a bad one is bad input, 3), then --cfg (a bad one is
 * a bad command line, 2). Returns 0 or the exit status with err. */
static int apply_cfg(const cli *c, platform *p, config *cfg, char *err, size_t errlen) {
  cfg_init(cfg);
  for (int i = 0; i < plat_config_count(p); i++) {
    const char *k, *v;
    plat_config_at(p, i, &k, &v);
    char e2[1024];
    if (cfg_set(cfg, k, v, e2, sizeof e2) < 0)
      return x_err(err, errlen, "%s: <config>: %s", plat_source(p), e2), TIR_EXIT_INPUT;
  }
  for (size_t i = 0; i < c->ncfg; i++) {
    char e2[1024];
    if (cfg_set_kv(cfg, c->cfgs[i], e2, sizeof e2) < 0)
      return x_err(err, errlen, "--cfg=%s: %s", c->cfgs[i], e2), TIR_EXIT_USAGE;
  }
  return 0;
}

static int cli_warn(void *ctx, const char *msg) {
  fprintf(ctx, "tir-replay: warning: %s\n", msg);
  return 0;
}

/* --validate: static checks, no simulation. */
static int validate_main(const replay_opts *o, FILE *out, FILE *errout) {
  char err[2048];
  trace_opts to = {.strict = o->strict, .warn = cli_warn, .warn_ctx = errout, .allow_truncated = o->allow_truncated};
  trace_set *t = replay_check_host_props(o->plat, err, sizeof err) < 0 ? NULL : trace_open(o->trace, &to, err, sizeof err);
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

/* Observers asked for on the command line: energy, a timeline, the report's statistics,
 * the map of ranks to hosts. */
typedef struct watchers {
  energy *en;
  timeline *tl;
  stats *st;
  replay_observer obs[4];
} watchers;

/* --map (smpirun's -map): where each rank runs, printed as the replay starts. */
static void map_start(void *ctx, int np, const int *host_of) {
  for (int i = 0; i < np; i++)
    printf("[rank %d] -> %s\n", i, plat_host_at(ctx, host_of[i])->name);
}

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
  if (c->map)
    w->obs[o->nobs++] = (replay_observer){.ctx = p, .start = map_start};
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
      output_summary(stdout, o, &res, c->quiet, stderr);
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

/* Combinations of settings SimGrid 3.32 refuses (smpi_config.cpp aborts): refused here too,
 * with the exit code of where they came from (a --cfg, else the platform's <config>). */
static int check_settings(const cli *c, const config *cfg, char *err, size_t errlen) {
  if (cfg->async_small_thresh <= cfg->detached_thresh)
    return 0;
  int cmdline = 0;
  for (size_t i = 0; i < c->ncfg; i++)
    cmdline |= !strncmp(c->cfgs[i], "smpi/async-small-thresh:", 24) ||
               !strncmp(c->cfgs[i], "smpi/send-is-detached-thresh:", 29);
  x_err(err, errlen, "smpi/async-small-thresh (%ld) is above smpi/send-is-detached-thresh (%ld): SimGrid refuses "
        "it (a message sent before its receive is posted must be detached)", cfg->async_small_thresh,
        cfg->detached_thresh);
  return cmdline ? TIR_EXIT_USAGE : TIR_EXIT_INPUT;
}

static int run(cli *c) {
  char err[2048];
  np_from_meta(c);
  platform *p = load_platform(c, err, sizeof err);
  inputs_note(c->hostfile); /* no output may replace an input (output.c); the trace's */
  inputs_note(c->trace);    /* own files are noted as they are opened */
  if (!p) {
    fprintf(stderr, "tir-replay: %s\n", err);
    return TIR_EXIT_INPUT;
  }
  replay_opts o = {.trace = c->trace, .hostfile = c->hostfile, .plat = p, .np = c->np, .strict = c->strict,
                   .warn = stderr, .log = c->verbose ? stdout : NULL, .progress = !c->quiet && isatty(2),
                   .allow_truncated = c->allow_truncated};
  o.model = net_model_find(c->model ? c->model : "hybrid");
  int rc = apply_cfg(c, p, &o.cfg, err, sizeof err);
  if (rc == 0)
    rc = check_settings(c, &o.cfg, err, sizeof err);
  if (rc != 0)
    fprintf(stderr, "tir-replay: %s\n", err);
  else {
    rc = c->validate ? validate_main(&o, stdout, stderr) : simulate(c, &o, p);
  }
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
  free(c.platform_path);
  return check_stdout(rc);
}
