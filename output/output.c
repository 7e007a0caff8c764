/* output.c - atomic output files and the replay report (JSON / CSV).
 *
 * The report holds what scripts need (tir-sweep reads it; doc/outputs.md lists every
 * field): simulated time, the model and settings, the trace's counter source (from
 * trace.meta), per-rank figures, per action kind and per region figures (from the
 * statistics observer, stats.h, when given), energy when on, and the replayer's own wall
 * time and actions/s. JSON numbers of times carry 17 significant digits (exact).
 * Every file goes through output_open/output_commit, which apply the rules of section
 * "where outputs go" below: never a partial file, never a device or an input replaced. */
#include "output.h"

#include "stats.h"

#include "coll.h"
#include "energy.h"
#include "inputs.h"
#include "trace_meta.h"
#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build-config.h"

/* ====== where outputs go ======
 *
 * The rules (doc/outputs.md, "Where outputs go"), applied to every file tir-replay writes:
 *  - a path that does not exist, or names a regular file: written to PATH.tmp.XXXXXX beside
 *    it, renamed over PATH when complete (atomic: a reader never sees a partial file),
 *    removed on any error and at exit when never committed (out of memory exits through
 *    x_malloc: no temporary file is left behind). A new file gets mode 0666 & ~umask, a
 *    replaced one keeps its mode;
 *  - a character device or a FIFO (/dev/null, /dev/stdout on a terminal or a pipe): written
 *    in place, never created, truncated or replaced; a FIFO nobody reads is an error, not
 *    a wait;
 *  - a symbolic link is followed: the file it points to obeys the rules above and the link
 *    stays; a link to nothing is refused;
 *  - the file open as our standard output or error (--report /dev/stdout run as `> f`) is
 *    written in place, so that nothing printed there is lost;
 *  - anything else (a directory, a block device, a socket) is refused, and so is one of the
 *    run's inputs (inputs.h: `--timeline trace.txt`), checked when opening and again just
 *    before the rename. */

/* The temporary files not committed yet: removed by the exit handler. */
static char **pending;
static size_t npending, pending_cap;

static void remove_pending(void) {
  for (size_t i = 0; i < npending; i++)
    unlink(pending[i]);
}

/* Room for one more pending file, made before the file exists: registering it then
 * allocates nothing (an allocation failing there would leave it behind). */
static void reserve_pending(void) {
  static int registered;
  if (!registered)
    registered = atexit(remove_pending) == 0;
  x_grow(&pending, &pending_cap, npending + 1, sizeof *pending);
}

static void add_pending(char *tmp) { pending[npending++] = tmp; }

static void drop_pending(const char *tmp) {
  for (size_t i = 0; i < npending; i++)
    if (pending[i] == tmp) {
      pending[i] = pending[--npending];
      break;
    }
  if (npending == 0) {
    free(pending);
    pending = NULL;
    pending_cap = 0;
  }
}

#define TMP_SUFFIX ".tmp.XXXXXX" /* output_commit finds the target by removing it */

static int same_file(const struct stat *a, int fd) {
  struct stat b;
  return fstat(fd, &b) == 0 && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

/* Where path's bytes go: *target (allocated: path, or what its link points to) and *st (its
 * lstat; st_mode 0 when it does not exist). Returns 0, or -1 with err for a refusal. */
static int resolve(const char *path, char **target, struct stat *st, char *err, size_t errlen) {
  memset(st, 0, sizeof *st);
  if (lstat(path, st) < 0) {
    int e = errno;
    memset(st, 0, sizeof *st);
    *target = x_strdup(path);
    return e == ENOENT ? 0 : x_err(err, errlen, "%s: cannot write: %s", path, strerror(e));
  }
  if (S_ISLNK(st->st_mode)) { /* a device or a FIFO is opened through the link itself (/dev/stdout
                                 on a pipe names no path: /proc's "pipe:[N]"), a file by its path */
    if (stat(path, st) < 0)
      return *target = NULL, x_err(err, errlen, "%s: a symbolic link to a file that does not exist (%s): "
                                   "not written", path, strerror(errno));
    *target = S_ISREG(st->st_mode) ? realpath(path, NULL) : x_strdup(path);
    if (!*target)
      return x_err(err, errlen, "%s: cannot write: %s", path, strerror(errno));
  } else
    *target = x_strdup(path);
  if (inputs_contains(st))
    return x_err(err, errlen, "%s: is one of this run's inputs: not replaced", path);
  if (!S_ISREG(st->st_mode) && !S_ISCHR(st->st_mode) && !S_ISFIFO(st->st_mode))
    return x_err(err, errlen, "%s: is %s: not written", path, inputs_kind(st->st_mode));
  return 0;
}

/* A device or a FIFO, opened for writing in place; or our own standard output or error
 * (own: 1 or 2), written through a duplicate of that descriptor, which shares its offset:
 * what the run prints there and the output follow each other instead of overwriting. */
static FILE *open_direct(const char *path, const char *target, int own, char *err, size_t errlen) {
  if (own)
    fflush(own == 1 ? stdout : stderr);
  int fd = own ? dup(own) : open(target, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    x_err(err, errlen, "%s: cannot write: %s", path,
          errno == ENXIO ? "a FIFO that no process reads" : strerror(errno));
    return NULL;
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0 && !own)
    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  FILE *f = fdopen(fd, "w");
  if (!f && errno == ENOMEM)
    x_oom();
  if (!f) {
    x_err(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    close(fd);
  }
  return f;
}

/* A temporary file beside target, with the mode the output will have. */
static FILE *open_temp(const char *path, const char *target, const struct stat *st, char **tmp_path, char *err,
                       size_t errlen) {
  *tmp_path = x_asprintf("%s" TMP_SUFFIX, target);
  reserve_pending();
  int fd = mkstemp(*tmp_path);
  if (fd >= 0) { /* mkstemp makes it 0600: give it the mode the file would have */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, S_ISREG(st->st_mode) ? st->st_mode & 07777 : 0666 & ~mask);
    add_pending(*tmp_path);
  }
  FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
  if (!f && fd >= 0 && errno == ENOMEM)
    x_oom(); /* (the exit handler removes the temporary file) */
  if (!f) {
    x_err(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    if (fd >= 0)
      close(fd), unlink(*tmp_path), drop_pending(*tmp_path);
    free(*tmp_path);
    *tmp_path = NULL;
  }
  return f;
}

FILE *output_open(const char *path, char **tmp_path, char *err, size_t errlen) {
  char *target;
  struct stat st;
  FILE *f = NULL;
  *tmp_path = NULL;
  if (resolve(path, &target, &st, err, errlen) == 0) {
    int own = !S_ISREG(st.st_mode) ? 0 : same_file(&st, 1) ? 1 : same_file(&st, 2) ? 2 : 0;
    f = S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode) || own ? open_direct(path, target, own, err, errlen)
                                                          : open_temp(path, target, &st, tmp_path, err, errlen);
  }
  free(target);
  return f;
}

enum { BECAME_INPUT = -1, BECAME_OTHER = -2 };

/* Renames tmp over its target unless the target became something the rules refuse.
 * Returns 0, an errno value, or BECAME_INPUT / BECAME_OTHER. */
static int install(const char *tmp) {
  size_t n = strlen(tmp) - strlen(TMP_SUFFIX);
  char *target = x_asprintf("%.*s", (int)n, tmp);
  struct stat st;
  int rc = 0;
  if (lstat(target, &st) == 0 && !S_ISREG(st.st_mode))
    rc = BECAME_OTHER;
  else if (lstat(target, &st) == 0 && inputs_contains(&st))
    rc = BECAME_INPUT;
  else if (rename(tmp, target) != 0)
    rc = errno ? errno : EIO;
  free(target);
  return rc;
}

int output_commit(FILE *f, char *tmp_path, const char *path, int failed, char *err, size_t errlen) {
  int bad = failed || ferror(f);
  int e = errno;
  if (fclose(f) != 0 && !bad)
    bad = 1, e = errno;
  if (!bad && tmp_path && (e = install(tmp_path)) != 0)
    bad = 1;
  if (tmp_path) {
    if (bad)
      unlink(tmp_path);
    drop_pending(tmp_path);
  }
  if (bad && e < 0)
    x_err(err, errlen, "%s: %s: not replaced", path,
          e == BECAME_INPUT ? "is one of this run's inputs" : "is no longer a regular file");
  else if (bad)
    x_err(err, errlen, "%s: cannot write: %s", path, strerror(e ? e : EIO));
  free(tmp_path);
  return bad ? -1 : 0;
}

void output_csv_field(FILE *f, const char *s) {
  if (!s)
    return;
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

void output_json_string(FILE *f, const char *s) {
  if (!s) {
    fputs("null", f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fprintf(f, "\\%c", *s);
    else if ((unsigned char)*s < 0x20)
      fprintf(f, "\\u%04x", *s);
    else
      fputc(*s, f);
  }
  fputc('"', f);
}

/* ====== trace.meta: how the trace was taken ====== */

static void write_meta(FILE *f, const char *trace) {
  trace_meta m;
  trace_meta_read(trace, &m);
  fprintf(f, "  \"trace_meta\": {\"file\": ");
  output_json_string(f, m.file);
  fprintf(f, ", \"counter_source\": ");
  output_json_string(f, m.counter_source ? m.counter_source : "unknown");
  fprintf(f, ", \"counter_rate\": ");
  output_json_string(f, m.counter_rate ? m.counter_rate : "unknown");
  fprintf(f, "},\n");
  trace_meta_free(&m);
}

/* ====== settings ====== */

/* A table as the --cfg syntax writes it: "T0:v0[:w0];T1:v1[:w1]". */
static void json_table(FILE *f, const char *key, const cfg_table *t, int affine) {
  fprintf(f, "    \"%s\": \"", key);
  for (int i = 0; i < t->n; i++) {
    fprintf(f, "%s%.17g:%.17g", i ? ";" : "", t->v[i].thresh, t->v[i].a);
    if (affine)
      fprintf(f, ":%.17g", t->v[i].b);
  }
  fprintf(f, "\",\n");
}

static void write_settings(FILE *f, const config *c) {
  fprintf(f, "  \"settings\": {\n");
  json_table(f, "smpi/bw-factor", &c->bw_factor, 0);
  json_table(f, "smpi/lat-factor", &c->lat_factor, 0);
  json_table(f, "smpi/os", &c->os, 1);
  json_table(f, "smpi/ois", &c->ois, 1);
  json_table(f, "smpi/or", &c->orecv, 1);
  fprintf(f, "    \"network/TCP-gamma\": %.17g,\n    \"network/weight-S\": %.17g,\n", c->tcp_gamma, c->weight_s);
  fprintf(f, "    \"network/crosstraffic\": %s,\n", c->crosstraffic ? "true" : "false");
  fprintf(f, "    \"network/loopback-bw\": %.17g,\n    \"network/loopback-lat\": %.17g,\n", c->loopback_bw,
          c->loopback_lat);
  fprintf(f, "    \"smpi/async-small-thresh\": %ld,\n    \"smpi/send-is-detached-thresh\": %ld,\n",
          c->async_small_thresh, c->detached_thresh);
  fprintf(f, "    \"smpi/test\": %.17g,\n    \"smpi/iprobe\": %.17g,\n    \"smpi/iprobe-cpu-usage\": %.17g,\n",
          c->test_sleep, c->iprobe_sleep, c->iprobe_cpu_usage);
  fprintf(f, "    \"smpi/grow-injected-times\": %s,\n    \"smpi/simulate-computation\": %s,\n",
          c->grow_injected ? "true" : "false", c->simulate_computation ? "true" : "false");
  fprintf(f, "    \"smpi/finalization-barrier\": %s,\n    \"smpi/init\": %.17g,\n",
          c->finalization_barrier ? "true" : "false", c->init_sleep);
  fprintf(f, "    \"surf/precision\": %.17g,\n    \"maxmin/precision\": %.17g,\n", c->surf_precision,
          c->maxmin_precision);
  fprintf(f, "    \"smpi/coll-selector\": ");
  output_json_string(f, c->coll_selector);
  for (int k = 0; k < COLL_NKINDS; k++)
    if (c->coll_algo[k][0])
      fprintf(f, ",\n    \"smpi/%s\": ", coll_kind_name((coll_kind)k)), output_json_string(f, c->coll_algo[k]);
  fprintf(f, ",\n    \"plugin:host_energy\": %s,\n    \"host/pstate\": %ld\n  },\n",
          c->host_energy ? "true" : "false", c->pstate);
}

/* ====== per rank, per kind, per region ====== */

static void write_rank(FILE *f, const replay_opts *o, const replay_result *r, const stats *st, int i) {
  const replay_rank *k = &r->ranks[i];
  fprintf(f, "    {\"rank\": %d, \"host\": ", i);
  output_json_string(f, plat_host_at(o->plat, k->host)->name);
  fprintf(f, ", \"end\": %.17g, \"compute\": %.17g, \"comm\": %.17g, \"wait\": %.17g, \"actions\": %llu", k->finish,
          k->compute, k->comm, k->wait, (unsigned long long)k->actions);
  if (st && i < st->np) {
    const stats_rank *s = &st->ranks[i];
    fprintf(f, ", \"p2p\": %.17g, \"collective\": %.17g, \"bytes_sent\": %llu, \"bytes_received\": %llu, "
               "\"messages_sent\": %llu, \"messages_received\": %llu", s->p2p, s->coll,
            (unsigned long long)s->bytes_sent, (unsigned long long)s->bytes_recv, (unsigned long long)s->msgs_sent,
            (unsigned long long)s->msgs_recv);
  } else
    fprintf(f, ", \"bytes_sent\": %llu", (unsigned long long)k->bytes_sent);
  fprintf(f, "}%s\n", i + 1 < r->np ? "," : "");
}

/* wait, waitall and test are point-to-point (they complete isend/irecv requests; those of
 * non-blocking collectives count as collective in the per-rank figures). */
static const char *class_of(trace_op op) {
  if (op == TRACE_COMPUTE || op == TRACE_SLEEP)
    return "compute";
  return stats_is_collective(op) ? "collective" : "p2p";
}

/* "name": {"calls": N, "time": T[, "class": C]} for the kinds seen (collectives only). */
static void write_kinds(FILE *f, const char *key, const stats *st, int coll_only) {
  fprintf(f, "  \"%s\": {", key);
  int n = 0;
  for (int op = 0; op < TRACE_NOPS; op++) {
    const stats_kind *k = &st->kinds[op];
    if (!k->calls || (coll_only && !stats_is_collective((trace_op)op)))
      continue;
    fprintf(f, "%s\n    \"%s\": {\"calls\": %llu, \"time\": %.17g", n++ ? "," : "", trace_op_name((trace_op)op),
            (unsigned long long)k->calls, k->time);
    if (!coll_only)
      fprintf(f, ", \"class\": \"%s\"", class_of((trace_op)op));
    fputc('}', f);
  }
  fprintf(f, "%s},\n", n ? "\n  " : "");
}

/* Collectives per (kind, communicator): sub-communicator ones apart from the world's. */
static void write_colls(FILE *f, const stats *st) {
  fprintf(f, "  \"collectives_by_communicator\": [");
  for (size_t i = 0; i < st->ncolls; i++) {
    const stats_coll *c = &st->colls[i];
    fprintf(f, "%s\n    {\"kind\": \"%s\", \"communicator\": %d, \"name\": ", i ? "," : "", trace_op_name(c->op),
            c->comm);
    char name[64];
    snprintf(name, sizeof name, "comm %d", c->comm);
    output_json_string(f, c->comm ? name : "MPI_COMM_WORLD");
    fprintf(f, ", \"size\": %d, \"calls\": %llu, \"time\": %.17g}", c->size, (unsigned long long)c->calls,
            c->time);
  }
  fprintf(f, "%s],\n", st->ncolls ? "\n  " : "");
}

static void write_regions(FILE *f, const stats *st) {
  fprintf(f, "  \"regions\": [");
  for (size_t i = 0; i < st->nregions; i++) {
    const stats_region *g = &st->regions[i];
    fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
    output_json_string(f, g->name);
    fprintf(f, ", \"entries\": %llu, \"time\": %.17g, \"compute\": %.17g, \"mpi\": %.17g}",
            (unsigned long long)g->entries, g->time, g->compute, g->mpi);
  }
  fprintf(f, "%s]", st->nregions ? "\n  " : "");
}

/* ====== the report ====== */

static void write_json(FILE *f, const replay_opts *o, const replay_result *r, const energy *en, const stats *st) {
  fprintf(f, "{\n  \"tir_version\": \"%s\",\n  \"trace\": ", PACKAGE_VERSION);
  output_json_string(f, o->trace);
  fprintf(f, ",\n  \"platform\": ");
  output_json_string(f, plat_source(o->plat));
  fprintf(f, ",\n  \"network_model\": \"%s\",\n  \"coll_selector\": ", o->model ? o->model->name : "hybrid");
  output_json_string(f, o->cfg.coll_selector);
  fprintf(f, ",\n  \"np\": %d,\n  \"simulated_time\": %.17g,\n  \"actions\": %llu,\n  \"messages\": %llu,\n", r->np,
          r->simulated_time, (unsigned long long)r->actions, (unsigned long long)r->messages);
  fprintf(f, "  \"wall_seconds\": %.6f,\n  \"actions_per_second\": %.1f,\n", r->wall_seconds,
          r->wall_seconds > 0 ? (double)r->actions / r->wall_seconds : 0.0);
  if (r->truncated) { /* --allow-truncated on a trace cut short */
    fprintf(f, "  \"truncated\": {\"ranks_blocked\": %d, \"actions_not_replayed\": %llu, \"ranks_cut\": [",
            r->nblocked, (unsigned long long)r->unreplayed);
    for (int i = 0, n = 0; i < r->np; i++)
      if (r->cut[i])
        fprintf(f, "%s%d", n++ ? ", " : "", i);
    fprintf(f, "]},\n");
  }
  write_meta(f, o->trace);
  write_settings(f, &o->cfg);
  fprintf(f, "  \"ranks\": [\n");
  for (int i = 0; i < r->np; i++)
    write_rank(f, o, r, st, i);
  fprintf(f, "  ]");
  if (st) {
    fprintf(f, ",\n");
    write_kinds(f, "actions_by_kind", st, 0);
    write_kinds(f, "collectives", st, 1);
    write_colls(f, st);
    write_regions(f, st);
  }
  if (en) {
    fprintf(f, ",\n  \"energy\": ");
    output_energy_json(en, f);
  }
  fprintf(f, "\n}\n");
}

/* One row per rank, then `all` (the simulated time in `end`, totals elsewhere). */
static void write_csv(FILE *f, const replay_opts *o, const replay_result *r, const stats *st) {
  fprintf(f, "rank,host,end,compute,comm,wait,actions,bytes_sent%s\n",
          st ? ",p2p,collective,bytes_received,messages_sent,messages_received" : "");
  double sum[4] = {0};
  unsigned long long bytes = 0;
  for (int i = 0; i < r->np; i++) {
    const replay_rank *k = &r->ranks[i];
    const stats_rank *s = st && i < st->np ? &st->ranks[i] : NULL;
    uint64_t sent = s ? s->bytes_sent : k->bytes_sent;
    fprintf(f, "%d,%s,%.17g,%.17g,%.17g,%.17g,%llu,%llu", i, plat_host_at(o->plat, k->host)->name, k->finish,
            k->compute, k->comm, k->wait, (unsigned long long)k->actions, (unsigned long long)sent);
    if (s) {
      fprintf(f, ",%.17g,%.17g,%llu,%llu,%llu", s->p2p, s->coll, (unsigned long long)s->bytes_recv,
              (unsigned long long)s->msgs_sent, (unsigned long long)s->msgs_recv);
      sum[2] += s->p2p, sum[3] += s->coll;
    }
    fputc('\n', f);
    sum[0] += k->compute, sum[1] += k->wait, bytes += sent;
  }
  fprintf(f, "all,,%.17g,%.17g,,%.17g,%llu,%llu", r->simulated_time, sum[0], sum[1],
          (unsigned long long)r->actions, bytes);
  if (st)
    fprintf(f, ",%.17g,%.17g,,%llu,", sum[2], sum[3], (unsigned long long)r->messages);
  fputc('\n', f);
}

int output_report_check(const char *path, char *err, size_t errlen) {
  if (ends_with(path, ".json") || ends_with(path, ".csv"))
    return 0;
  return x_err(err, errlen, "%s: report name must end in .json or .csv", path);
}

int output_report_stats(const char *path, const replay_opts *o, const replay_result *res, const energy *en,
                        const stats *st, char *err, size_t errlen) {
  int json = ends_with(path, ".json");
  if (output_report_check(path, err, errlen) < 0)
    return -1;
  char *tmp;
  FILE *f = output_open(path, &tmp, err, errlen);
  if (!f)
    return -1;
  if (json)
    write_json(f, o, res, en, st);
  else
    write_csv(f, o, res, st);
  return output_commit(f, tmp, path, 0, err, errlen);
}

int output_report(const char *path, const replay_opts *o, const replay_result *res, const energy *en,
                  char *err, size_t errlen) {
  return output_report_stats(path, o, res, en, NULL, err, errlen);
}
