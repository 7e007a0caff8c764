/* trace_meta.c - reads trace.meta, the `key = value` file tir-trace writes beside a trace's
 * index (doc/tracer.md): the keys the replay and its report use, how the run ended (status:
 * complete, killed, disk-full, running; "incomplete (...)" from older tracers; and how many
 * ranks reached MPI_Finalize) and how the compute volumes were measured (counter_source,
 * counter_rate). Lines starting with '#' and lines without '=' are skipped; any key may be
 * missing (older traces, other tools): its field then says "unknown", and a trace without
 * trace.meta counts as complete. */
#include "trace.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *trim(char *s) {
  s += strspn(s, " \t");
  size_t n = strlen(s);
  while (n > 0 && strchr(" \t\r\n", s[n - 1]))
    s[--n] = 0;
  return s;
}

/* An integer value, or -1 when it is not one. */
static int int_value(const char *v) {
  char *end;
  long x = strtol(v, &end, 10);
  return end != v && x >= 0 && x < 1L << 30 ? (int)x : -1;
}

static void set(char *field, size_t size, const char *v, size_t n) { snprintf(field, size, "%.*s", (int)n, v); }

static void read_key(trace_meta *m, const char *k, const char *v) {
  if (!strcmp(k, "status")) {
    set(m->status, sizeof m->status, v, strcspn(v, " \t"));
    m->complete = !strcmp(m->status, "complete");
  } else if (!strcmp(k, "ranks_finished")) {
    m->ranks_finished = int_value(v);
  } else if (!strcmp(k, "np")) {
    m->np = int_value(v);
  } else if (!strcmp(k, "counter_source")) {
    set(m->counter_source, sizeof m->counter_source, v, strlen(v));
  } else if (!strcmp(k, "counter_rate") || (!strcmp(k, "rate") && !*m->counter_rate)) {
    set(m->counter_rate, sizeof m->counter_rate, v, strlen(v));
  }
}

void trace_meta_read(const char *path, trace_meta *m) {
  *m = (trace_meta){.complete = 1, .ranks_finished = -1, .np = -1};
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    snprintf(m->path, sizeof m->path, "%s/trace.meta", path);
  } else {
    const char *slash = strrchr(path, '/');
    snprintf(m->path, sizeof m->path, "%.*strace.meta", slash ? (int)(slash - path + 1) : 0, path);
  }
  FILE *f = fopen(m->path, "r");
  if (!f)
    return;
  m->found = 1;
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, f) > 0) {
    char *eq = strchr(line, '=');
    if (*trim(line) == '#' || !eq)
      continue;
    *eq = 0;
    read_key(m, trim(line), trim(eq + 1));
  }
  free(line);
  fclose(f);
}
