/* output.c - atomic output files and the replay report (JSON / CSV).
 *
 * The report holds what scripts need (tir-sweep reads it): simulated time, the model
 * and settings, per-rank figures, the replayer's own wall time and actions/s. */
#include "output.h"

#include "coll.h"
#include "energy.h"
#include "xalloc.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "build-config.h"

FILE *output_open(const char *path, char **tmp_path, char *err, size_t errlen) {
  *tmp_path = x_asprintf("%s.tmp.XXXXXX", path);
  int fd = mkstemp(*tmp_path);
  FILE *f = fd < 0 ? NULL : fdopen(fd, "w");
  if (!f) {
    x_err(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    if (fd >= 0)
      close(fd), unlink(*tmp_path);
    free(*tmp_path);
    *tmp_path = NULL;
  }
  return f;
}

int output_commit(FILE *f, char *tmp_path, const char *path, int failed, char *err, size_t errlen) {
  int bad = failed || ferror(f);
  int e = errno;
  if (fclose(f) != 0 && !bad)
    bad = 1, e = errno;
  if (!bad && rename(tmp_path, path) != 0)
    bad = 1, e = errno;
  if (bad) {
    unlink(tmp_path);
    x_err(err, errlen, "%s: cannot write: %s", path, strerror(e ? e : EIO));
  }
  free(tmp_path);
  return bad ? -1 : 0;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

static void json_str(FILE *f, const char *s) {
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

static void write_json(FILE *f, const replay_opts *o, const replay_result *r, const energy *en) {
  fprintf(f, "{\n  \"tir_version\": \"%s\",\n  \"trace\": ", PACKAGE_VERSION);
  json_str(f, o->trace);
  fprintf(f, ",\n  \"platform\": ");
  json_str(f, plat_source(o->plat));
  fprintf(f, ",\n  \"network_model\": \"%s\",\n  \"coll_selector\": \"%s\",\n", o->model->name,
          o->cfg.coll_selector);
  fprintf(f, "  \"np\": %d,\n  \"simulated_time\": %.17g,\n  \"actions\": %llu,\n  \"messages\": %llu,\n", r->np,
          r->simulated_time, (unsigned long long)r->actions, (unsigned long long)r->messages);
  fprintf(f, "  \"wall_seconds\": %.6f,\n  \"actions_per_second\": %.1f,\n  \"ranks\": [\n", r->wall_seconds,
          r->wall_seconds > 0 ? (double)r->actions / r->wall_seconds : 0.0);
  for (int i = 0; i < r->np; i++) {
    const replay_rank *k = &r->ranks[i];
    fprintf(f, "    {\"rank\": %d, \"host\": ", i);
    json_str(f, plat_host_at(o->plat, k->host)->name);
    fprintf(f, ", \"end\": %.17g, \"compute\": %.17g, \"comm\": %.17g, \"wait\": %.17g, \"actions\": %llu}%s\n",
            k->finish, k->compute, k->comm, k->wait, (unsigned long long)k->actions, i + 1 < r->np ? "," : "");
  }
  fprintf(f, "  ]");
  if (en) {
    fprintf(f, ",\n  \"energy\": ");
    energy_report_json(en, f);
  }
  fprintf(f, "\n}\n");
}

static void write_csv(FILE *f, const replay_opts *o, const replay_result *r) {
  fprintf(f, "rank,host,end,compute,comm,wait,actions\n");
  for (int i = 0; i < r->np; i++) {
    const replay_rank *k = &r->ranks[i];
    fprintf(f, "%d,%s,%.17g,%.17g,%.17g,%.17g,%llu\n", i, plat_host_at(o->plat, k->host)->name, k->finish,
            k->compute, k->comm, k->wait, (unsigned long long)k->actions);
  }
  fprintf(f, "all,,%.17g,,,,%llu\n", r->simulated_time, (unsigned long long)r->actions);
}

int output_report(const char *path, const replay_opts *o, const replay_result *res, const energy *en,
                  char *err, size_t errlen) {
  int json = ends_with(path, ".json");
  if (!json && !ends_with(path, ".csv"))
    return x_err(err, errlen, "%s: report name must end in .json or .csv", path);
  char *tmp;
  FILE *f = output_open(path, &tmp, err, errlen);
  if (!f)
    return -1;
  if (json)
    write_json(f, o, res, en);
  else
    write_csv(f, o, res);
  return output_commit(f, tmp, path, 0, err, errlen);
}
