/* tt_life.c - start and stop of the tracer: configuration, files, crash paths.
 *
 * Configuration comes from the environment (tir-trace sets it; see doc/tracer.md):
 * TIR_TRACE_DIR, TIR_LEVEL, TIR_SIMGRID, TIR_RATE, TIR_MIN_BURST, TIR_COUNTER,
 * TIR_CALLSITE_REGIONS, TIR_FLUSH_INTERVAL, TIR_SIGNALS. A bad value stops the job with a
 * message naming the variable: a tracer that silently traces something else misleads.
 * Crash paths: MPI_Abort, fatal signals and exit() without MPI_Finalize close the stream
 * properly (a readable gzip file ending on a complete line); SIGKILL loses at most the
 * last TIR_FLUSH_INTERVAL seconds. */
#include "tt.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tt_callsite.h"
#include "tt_comm.h"
#include "tt_counter.h"
#include "tt_meta.h"
#include "tt_out.h"
#include "tt_req.h"
#include "tt_win.h"

static int started;          /* tt_start ran (and tt_stop not yet) */
static double flush_interval = 1.0;
static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGQUIT};
#define NSIG_FATAL ((int)(sizeof fatal_signals / sizeof *fatal_signals))
static struct sigaction old_action[NSIG_FATAL];

static void fatal(const char *fmt, const char *a, const char *b) {
  fprintf(stderr, "libtirtrace (rank %d): ", tt.rank);
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
  PMPI_Abort(MPI_COMM_WORLD, 1);
  exit(1);
}

static double env_num(const char *name, double dflt, double lo, double hi) {
  const char *s = getenv(name);
  if (!s || !*s)
    return dflt;
  char *end;
  double v = strtod(s, &end);
  if (*end || v < lo || v > hi)
    fatal("%s=%s: expected a number in the documented range (see tir-trace(1))", name, s);
  return v;
}

static int env_flag(const char *name) { return env_num(name, 0, 0, 1) != 0; }

static void read_config(void) {
  const char *dir = getenv("TIR_TRACE_DIR");
  tt.dir = x_strdup(dir && *dir ? dir : "tir-traces");
  tt.level = (int)env_num("TIR_LEVEL", 6, 0, 9);
  tt.simgrid = env_flag("TIR_SIMGRID");
  tt.rate = env_num("TIR_RATE", 1e9, 1e-300, 1e300);
  tt.min_burst = env_num("TIR_MIN_BURST", 0, 0, 1e300);
  tt.callsite_regions = env_flag("TIR_CALLSITE_REGIONS");
  flush_interval = env_num("TIR_FLUSH_INTERVAL", 1, 0, 1e9);
}

static void mkdir_p(const char *dir) {
  char *p = x_strdup(dir);
  for (char *s = p + 1;; s++) {
    char c = *s;
    if (c != '/' && c != 0)
      continue;
    *s = 0;
    if (mkdir(p, 0777) != 0 && errno != EEXIST)
      fatal("cannot create the trace directory %s: %s", p, strerror(errno));
    *s = c;
    if (!c)
      break;
  }
  free(p);
}

/* Pick the counter: the same source on every rank (hardware only if all ranks have it). */
static const char *choose_counter(void) {
  const char *want = getenv("TIR_COUNTER"), *why = "TIR_COUNTER=cputime";
  if (want && *want && strcmp(want, "auto") && strcmp(want, "instructions") && strcmp(want, "cputime"))
    fatal("TIR_COUNTER=%s: expected auto, instructions or cputime%s", want, "");
  int hw = !(want && !strcmp(want, "cputime")) && tt_counter_try_hw(&why), all = 0;
  PMPI_Allreduce(&hw, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (hw && !all)
    why = "another rank has no instruction counter";
  if (!all && want && !strcmp(want, "instructions"))
    fatal("TIR_COUNTER=instructions, but %s%s", why, "");
  tt_counter_use(all, tt.rate);
  tt.bias = tt_counter_bias();
  tt.source = all ? TT_SRC_INSTRUCTIONS : TT_SRC_CPUTIME;
  return all ? "hardware instruction counter (perf_event_open)" : why;
}

static void on_signal(int sig) {
  tt_emergency();
  for (int i = 0; i < NSIG_FATAL; i++)
    if (fatal_signals[i] == sig)
      sigaction(sig, &old_action[i], NULL);
  raise(sig);
}

static void on_exit_path(void) { tt_emergency(); }

static void install_crash_paths(void) {
  atexit(on_exit_path);
  if (getenv("TIR_SIGNALS") && !strcmp(getenv("TIR_SIGNALS"), "0"))
    return;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < NSIG_FATAL; i++)
    sigaction(fatal_signals[i], &sa, &old_action[i]);
}

static void start_date(void) {
  char date[32];
  time_t t = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
  tt.started = x_strdup(date);
}

void tt_start(int thread_level) {
  if (started)
    return;
  started = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &tt.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &tt.np);
  read_config();
  start_date();
  const char *why = choose_counter();
  mkdir_p(tt.dir);
  PMPI_Barrier(MPI_COMM_WORLD); /* the directory exists for everyone */
  char *path = x_asprintf("%s/%s", tt.dir, tt_meta_rank_file(tt.rank));
  if (tt_out_open(path, tt.level, flush_interval) != 0)
    fatal("cannot write the trace file %s: %s", path, strerror(errno));
  free(path);
  if (tt_meta_start(why, thread_level) != 0)
    fatal("cannot write %s/index%s", tt.dir, "");
  tt.next_comm_id = tt.next_win_id = 1;
  tt_out_begin(tt.rank, TT_KW(INIT), 0);
  tt_out_end();
  install_crash_paths();
  tt.active = 1;
  tt.last = tt_counter_read();
}

static void release(void) {
  tt_req_clear();
  tt_comm_clear();
  tt_win_clear();
  tt_callsite_clear();
  tt_counter_close();
  tt_util_free();
  free(tt.dir);
  free(tt.started);
  tt.dir = tt.started = NULL;
}

void tt_stop(void) {
  if (!tt.active)
    return;
  struct tt_call c = {TT_FN_Finalize, TT_EV, 0, __builtin_return_address(0), 0};
  tt.pending += tt_counter_read() - tt.last;
  tt.active = 0;
  tt_burst_flush(&c, 1);
  tt_out_begin(tt.rank, TT_KW(FINALIZE), 0);
  tt_out_end();
  if (tt_out_close() != 0)
    fprintf(stderr, "libtirtrace (rank %d): error while closing the trace file in %s\n", tt.rank, tt.dir);
  tt_meta_finish();
  release();
  started = 0;
}

void tt_emergency(void) {
  if (!tt.active)
    return;
  tt.active = 0;
  tt_out_emergency_close();
}
