/* tt_meta.c - DIR/index and DIR/trace.meta (see tt_meta.h).
 *
 * trace.meta is written to a temporary name then renamed, so a reader never sees half a
 * file. Host names are gathered once at start (MPI_Get_processor_name of every rank) and
 * written run-length encoded in rank order, `hosts = node1:2 node2:2`, the syntax of
 * SimGrid's hostfiles. */
#include "tt_meta.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tt.h"
#include "tt_out.h"

#ifndef TIR_VERSION /* given by tracer.am from configure's version */
#define TIR_VERSION "unknown"
#endif

static char *hosts;           /* rank-ordered host list, run-length encoded (rank 0) */
static char *counter_note;    /* why the counter source was chosen */
static int thread_provided;   /* MPI thread level */

const char *tt_meta_rank_file(int r) {
  static char name[64];
  snprintf(name, sizeof name, "rank-%05d.tit%s", r, tt.level > 0 ? ".gz" : "");
  return name;
}

/* The command line: TIR_COMMAND (set by tir-trace), else /proc/self/cmdline. */
static char *command(void) {
  const char *env = getenv("TIR_COMMAND");
  if (env)
    return x_strdup(env);
  FILE *f = fopen("/proc/self/cmdline", "r");
  char buf[4096];
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  if (f)
    fclose(f);
  for (size_t i = 0; i + 1 < n; i++)
    if (buf[i] == 0)
      buf[i] = ' ';
  buf[n] = 0;
  return x_strdup(buf);
}

/* Gather processor names to rank 0 and encode them as "h1:n1 h2:n2". */
static void gather_hosts(void) {
  char me[MPI_MAX_PROCESSOR_NAME] = "";
  int len = 0;
  PMPI_Get_processor_name(me, &len);
  char *all = tt.rank == 0 ? x_malloc((size_t)tt.np * MPI_MAX_PROCESSOR_NAME) : NULL;
  PMPI_Gather(me, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, all, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0,
              MPI_COMM_WORLD);
  if (tt.rank != 0)
    return;
  size_t cap = 0, n = 0;
  for (int r = 0, run = 1; r < tt.np; r++, run++) {
    const char *h = all + (size_t)r * MPI_MAX_PROCESSOR_NAME;
    if (r + 1 < tt.np && !strcmp(h, h + MPI_MAX_PROCESSOR_NAME))
      continue;
    char *item = x_asprintf("%s%s:%d", n ? " " : "", h, run);
    x_grow(&hosts, &cap, n + strlen(item) + 1, 1);
    memcpy(hosts + n, item, strlen(item) + 1);
    n += strlen(item);
    free(item);
    run = 0;
  }
  free(all);
}

static char *path_in_dir(const char *name) { return x_asprintf("%s/%s", tt.dir, name); }

static int write_index(void) {
  char *path = path_in_dir("index");
  FILE *f = fopen(path, "w");
  if (f) {
    for (int r = 0; r < tt.np; r++)
      fprintf(f, "%s\n", tt_meta_rank_file(r));
  }
  int bad = !f || fclose(f) != 0;
  if (bad)
    perror(path);
  free(path);
  return bad ? -1 : 0;
}

static void write_common(FILE *f) {
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
  int len = 0, v = 0, sv = 0;
  PMPI_Get_library_version(lib, &len);
  lib[strcspn(lib, "\n")] = 0;
  PMPI_Get_version(&v, &sv);
  char *cmd = command();
  fprintf(f, "# trace.meta - how this time-independent trace was taken (libtirtrace)\n");
  fprintf(f, "tir_version = %s\nformat = %s\n", TIR_VERSION,
          tt.simgrid ? "simgrid-ti (SimGrid 3.32 actions only)" : "tir-ti (SimGrid TI + tir extensions)");
  fprintf(f, "simgrid_compatible = %s\ncommand = %s\nnp = %d\n", tt.simgrid ? "yes" : "no", cmd, tt.np);
  fprintf(f, "mpi_library = %s\nmpi_version = %d.%d\n", lib, v, sv);
  fprintf(f, "thread_level = %d\n", thread_provided);
  fprintf(f, "counter_source = %s\n", tt.source == TT_SRC_INSTRUCTIONS ? "instructions" : "thread_cputime");
  if (tt.source == TT_SRC_CPUTIME)
    fprintf(f, "counter_rate = %.17g\ncompute_unit = 1/%.17g s of thread CPU time\n", tt.rate, tt.rate);
  else
    fprintf(f, "counter_rate = none\ncompute_unit = 1 user-space instruction\n");
  fprintf(f, "counter_note = %s\n", counter_note ? counter_note : "");
  fprintf(f, "counter_bias = %.6g (units subtracted from each burst on rank 0: the cost of one read)\n", tt.bias);
  fprintf(f, "min_burst = %.17g\n", tt.min_burst);
  fprintf(f, "callsite_regions = %s\n", tt.callsite_regions ? "yes" : "no");
  fprintf(f, "compression = %s%.0d\n", tt.level > 0 ? "gzip level " : "none", tt.level);
  fprintf(f, "index = index\nhosts = %s\nstart_date = %s\n", hosts ? hosts : "", tt.started);
  free(cmd);
}

static void write_meta(const char *status, void (*extra)(FILE *)) {
  char *path = path_in_dir("trace.meta"), *tmp = path_in_dir(".trace.meta.tmp");
  FILE *f = fopen(tmp, "w");
  if (!f) {
    perror(tmp);
  } else {
    write_common(f);
    if (extra)
      extra(f);
    fprintf(f, "status = %s\n", status);
    if (fclose(f) != 0 || rename(tmp, path) != 0)
      perror(path);
  }
  free(path);
  free(tmp);
}

int tt_meta_start(const char *counter_why, int thread_level) {
  counter_note = x_strdup(counter_why ? counter_why : "");
  thread_provided = thread_level;
  gather_hosts();
  if (tt.rank != 0)
    return 0;
  if (write_index() != 0)
    return -1;
  write_meta("incomplete (MPI_Finalize not reached yet)", NULL);
  return 0;
}

/* ---- end of run ---------------------------------------------------------------------- */
static long long sum_calls[TT_FN_COUNT], sum_unexp[TT_FN_COUNT], sum_approx[TT_FN_COUNT];
static long long sum_io[2]; /* trace lines, uncompressed bytes: summed over ranks */

static long long files_size(void) {
  long long total = 0;
  for (int r = 0; r < tt.np; r++) {
    char *p = path_in_dir(tt_meta_rank_file(r));
    FILE *f = fopen(p, "rb");
    if (f && fseek(f, 0, SEEK_END) == 0)
      total += ftell(f);
    if (f)
      fclose(f);
    free(p);
  }
  return total;
}

static void print_counts(FILE *f, const char *key, const long long *v) {
  long long total = 0;
  for (int i = 0; i < TT_FN_COUNT; i++)
    total += v[i];
  fprintf(f, "%s = %lld\n", key, total);
  for (int i = 0; i < TT_FN_COUNT; i++)
    if (v[i])
      fprintf(f, "%s.%s = %lld\n", key, tt_fn_name[i], v[i]);
}

static void write_final(FILE *f) {
  char date[32];
  time_t t = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
  fprintf(f, "end_date = %s\n", date);
  fprintf(f, "trace_lines = %lld\ntrace_bytes_uncompressed = %lld\n", sum_io[0], sum_io[1]);
  fprintf(f, "trace_bytes = %lld\n", files_size());
  print_counts(f, "calls", sum_calls);
  print_counts(f, "unexpressed", sum_unexp);
  print_counts(f, "approximated", sum_approx);
}

static void report(const char *what, const long long *v) {
  long long total = 0;
  for (int i = 0; i < TT_FN_COUNT; i++)
    total += v[i];
  if (!total)
    return;
  fprintf(stderr, "libtirtrace: %lld MPI call%s %s (all ranks):", total, total > 1 ? "s" : "", what);
  for (int i = 0; i < TT_FN_COUNT; i++)
    if (v[i])
      fprintf(stderr, " %s x%lld", tt_fn_name[i], v[i]);
  fprintf(stderr, " (see %s/trace.meta and doc/tracer.md)\n", tt.dir);
}

void tt_meta_finish(void) {
  long long io[2] = {(long long)tt_out_lines(), (long long)tt_out_written()};
  PMPI_Reduce(tt.calls, sum_calls, TT_FN_COUNT, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  PMPI_Reduce(tt.unexpressed, sum_unexp, TT_FN_COUNT, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  PMPI_Reduce(tt.approximated, sum_approx, TT_FN_COUNT, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  PMPI_Reduce(io, sum_io, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  PMPI_Barrier(MPI_COMM_WORLD); /* every rank has closed its file (caller closed it first) */
  if (tt.rank == 0) {
    write_meta("complete", write_final);
    report("could not be expressed in the trace", sum_unexp);
    report("were approximated", sum_approx);
  }
  free(hosts);
  free(counter_note);
  hosts = counter_note = NULL;
}
