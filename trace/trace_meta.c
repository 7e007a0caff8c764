/* trace_meta.c - reading trace.meta (trace_meta.h).
 *
 * The file is `key = value` lines; '#' lines and lines without '=' are skipped, a key given
 * twice keeps its last value. It lies in the trace folder when TRACE is a folder, else in
 * the folder of the index or trace file. `rate` is accepted for `counter_rate` (older
 * tracers); `status` keeps its first word (older tracers wrote "incomplete (MPI_Finalize not
 * reached yet)"). Nothing here fails: an unreadable file is the same as no file, and so is one
 * that is not a regular file (inputs_fopen: a FIFO would block). */
#include "trace_meta.h"

#include "inputs.h"
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *meta_path(const char *trace) {
  struct stat st;
  if (stat(trace, &st) == 0 && S_ISDIR(st.st_mode))
    return x_asprintf("%s/trace.meta", trace);
  const char *slash = strrchr(trace, '/');
  return slash ? x_asprintf("%.*s/trace.meta", (int)(slash - trace), trace) : x_strdup("trace.meta");
}

static char *trim(char *s) {
  s += strspn(s, " \t");
  size_t n = strlen(s);
  while (n > 0 && strchr(" \t\r\n", s[n - 1]))
    s[--n] = 0;
  return s;
}

static void set(char **field, const char *v) {
  free(*field);
  *field = x_strdup(v);
}

static void take(trace_meta *m, const char *k, const char *v) {
  if (!strcmp(k, "counter_source"))
    set(&m->counter_source, v);
  else if (!strcmp(k, "counter_rate") || (!strcmp(k, "rate") && !m->counter_rate))
    set(&m->counter_rate, v);
  else if (!strcmp(k, "compute_unit"))
    set(&m->compute_unit, v);
  else if (!strcmp(k, "status")) {
    free(m->status);
    m->status = x_asprintf("%.*s", (int)strcspn(v, " \t"), v);
    m->complete = !strcmp(m->status, "complete");
  } else if (!strcmp(k, "ranks_finished")) {
    char *end;
    long n = strtol(v, &end, 10);
    m->ranks_finished = *v && !*end && n >= 0 && n <= 1 << 30 ? (int)n : -1;
  } else if (!strcmp(k, "np")) {
    char *end;
    long n = strtol(v, &end, 10);
    m->np = *v && !*end && n > 0 && n <= 1 << 30 ? (int)n : 0;
  }
}

int trace_meta_read(const char *trace, trace_meta *m) {
  memset(m, 0, sizeof *m);
  m->complete = 1;
  m->ranks_finished = -1;
  char *path = meta_path(trace), *line = NULL;
  size_t cap = 0;
  const char *why;
  FILE *f = inputs_fopen(path, &why); /* (a FIFO there would block: refused, as every input) */
  if (!f) {
    free(path);
    return 0;
  }
  m->file = path;
  while (getline(&line, &cap, f) > 0) {
    char *eq = strchr(line, '=');
    if (*trim(line) == '#' || !eq)
      continue;
    *eq = 0;
    take(m, trim(line), trim(eq + 1));
  }
  free(line);
  fclose(f);
  return 1;
}

double trace_meta_rate(const trace_meta *m) {
  if (!m->counter_rate)
    return 0;
  char *end;
  double r = strtod(m->counter_rate, &end);
  return *m->counter_rate && !*end && r > 0 && r < 1e300 ? r : 0;
}

void trace_meta_free(trace_meta *m) {
  free(m->file);
  free(m->counter_source);
  free(m->counter_rate);
  free(m->compute_unit);
  free(m->status);
  memset(m, 0, sizeof *m);
}
