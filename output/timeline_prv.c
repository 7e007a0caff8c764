/* timeline_prv.c - the Paraver timeline: FILE.prv, plus FILE.pcf (names, colours) and
 * FILE.row (resource names) beside it (BSC's Paraver / wxparaver).
 *
 * Resources: one Paraver node per host used, one CPU per rank on it; one application,
 * one task per rank (task = rank + 1), one thread per task. Times are integer
 * nanoseconds. Records, sorted by time (timeline_sort.c):
 *   1:cpu:1:task:1:begin:end:state         the action, Paraver's standard state ids
 *                                          (STATES section of the .pcf);
 *   2:cpu:1:task:1:time:50000000:value     MPI call: op + 1 when the action starts, 0 at
 *                                          its end (the .pcf names every value);
 *   2:cpu:1:task:1:time:80000001:value     code region: its id on entry, the enclosing
 *                                          region's id (0: none) on exit;
 *   3:cpu:1:task:1:lsend:psend:cpu:1:task:1:lrecv:precv:bytes:tag   a message: logical
 *      send = posted by the sender, physical send = transfer start; the replay does not
 *      tell when the receive was posted, so both receive times are the transfer's end.
 * The header's date is fixed (01/01/70 at 00:00) so that the output is reproducible. */
#include "timeline_impl.h"

#include "output.h"
#include "xalloc.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { EV_CALL = 50000000, EV_REGION = 80000001, ST_SLEEP = 19 };

typedef struct prv {
  int *cpu;  /* Paraver CPU (1-based) of each rank */
  int *node; /* Paraver node (1-based) of each rank */
  int *node_host; /* host index of each node */
  int nnodes;
  int *ncpus; /* ranks on each node */
} prv;

static long long ns(double t) { return llround(t * 1e9); }

/* Numbers the hosts used in order of first rank, and the ranks within their host;
 * global CPU ids follow the nodes (node 1's CPUs first). */
static void start(timeline *t) {
  prv *p = x_calloc(1, sizeof *p);
  size_t n = (size_t)(t->np > 0 ? t->np : 1);
  p->cpu = x_calloc(n, sizeof *p->cpu);
  p->node = x_calloc(n, sizeof *p->node);
  p->node_host = x_calloc(n, sizeof *p->node_host);
  p->ncpus = x_calloc(n, sizeof *p->ncpus);
  for (int r = 0; r < t->np; r++) {
    int k = 0;
    while (k < p->nnodes && p->node_host[k] != t->host_of[r])
      k++;
    if (k == p->nnodes)
      p->node_host[p->nnodes++] = t->host_of[r];
    p->node[r] = k + 1;
    p->cpu[r] = ++p->ncpus[k]; /* index within the node, for now */
  }
  int *first = x_calloc(n, sizeof *first);
  for (int k = 1; k < p->nnodes; k++)
    first[k] = first[k - 1] + p->ncpus[k - 1];
  for (int r = 0; r < t->np; r++)
    p->cpu[r] += first[p->node[r] - 1];
  free(first);
  t->priv = p;
}

/* ====== records ====== */

/* Paraver's standard state of an action (tir adds 19, Sleep). */
static int state_of(trace_op op) {
  switch (op) {
  case TRACE_COMPUTE: return 1;
  case TRACE_SLEEP: return ST_SLEEP;
  case TRACE_RECV: return 3;
  case TRACE_SEND: return 4;
  case TRACE_BARRIER: return 5;
  case TRACE_TEST: return 6;
  case TRACE_WAIT: case TRACE_WAITALL: return 8;
  case TRACE_ISEND: return 10;
  case TRACE_IRECV: return 11;
  case TRACE_SENDRECV: return 16;
  default: return 13; /* group communication */
  }
}

static void state(timeline *t, const tl_state *s) {
  const prv *p = t->priv;
  int c = p->cpu[s->rank], k = s->rank + 1;
  long long b = ns(s->start), e = ns(s->end);
  tl_emit(t, s->start, 0, "1:%d:1:%d:1:%lld:%lld:%d\n", c, k, b, e, state_of(s->op));
  tl_emit(t, s->start, 1, "2:%d:1:%d:1:%lld:%d:%d\n", c, k, b, EV_CALL, (int)s->op + 1);
  tl_emit(t, s->end, 1, "2:%d:1:%d:1:%lld:%d:0\n", c, k, e, EV_CALL);
}

static void region(timeline *t, const tl_region *g) {
  const prv *p = t->priv;
  int c = p->cpu[g->rank], k = g->rank + 1;
  tl_emit(t, g->start, 1 + g->depth, "2:%d:1:%d:1:%lld:%d:%d\n", c, k, ns(g->start), EV_REGION, g->id);
  tl_emit(t, g->end, 1 - g->depth, "2:%d:1:%d:1:%lld:%d:%d\n", c, k, ns(g->end), EV_REGION, g->parent);
}

static void message(timeline *t, const tl_msg *m) {
  const prv *p = t->priv;
  long long e = ns(m->end);
  tl_emit(t, m->posted, 2, "3:%d:1:%d:1:%lld:%lld:%d:1:%d:1:%lld:%lld:%" PRId64 ":%d\n", p->cpu[m->src],
          m->src + 1, ns(m->posted), ns(m->start), p->cpu[m->dst], m->dst + 1, e, e, m->bytes, m->tag);
}

/* #Paraver (date):ftime_ns:nodes(cpus,...):1:tasks(threads:node,...) */
static void header(timeline *t) {
  const prv *p = t->priv;
  double end = t->end_time;
  if (t->win_end > t->win_start && t->win_end < end)
    end = t->win_end;
  fprintf(t->out, "#Paraver (01/01/70 at 00:00):%lld_ns:%d(", ns(end), p->nnodes);
  for (int k = 0; k < p->nnodes; k++)
    fprintf(t->out, "%s%d", k ? "," : "", p->ncpus[k]);
  fprintf(t->out, "):1:%d(", t->np);
  for (int r = 0; r < t->np; r++)
    fprintf(t->out, "%s1:%d", r ? "," : "", p->node[r]);
  fprintf(t->out, ")\n");
}

/* ====== side files ====== */

/* FILE.prv -> FILE.EXT (or FILE + EXT when FILE does not end in .prv). */
static char *side_path(const char *path, const char *ext) {
  size_t n = strlen(path);
  if (n > 4 && !strcmp(path + n - 4, ".prv"))
    return x_asprintf("%.*s%s", (int)(n - 4), path, ext);
  return x_asprintf("%s%s", path, ext);
}

static const struct { int id; const char *name, *rgb; } states[] = {
    {0, "Idle", "117,195,255"},           {1, "Running", "0,0,255"},
    {3, "Waiting a message", "255,0,0"},  {4, "Blocking Send", "255,0,174"},
    {5, "Synchronization", "179,0,0"},    {6, "Test/Probe", "0,255,0"},
    {8, "Wait/WaitAll", "235,0,0"},       {10, "Immediate Send", "255,144,26"},
    {11, "Immediate Receive", "2,255,177"}, {13, "Group Communication", "255,255,0"},
    {16, "Send Receive", "172,174,41"},   {ST_SLEEP, "Sleep", "192,192,192"}};
#define NSTATES (sizeof states / sizeof states[0])

static void write_pcf(const timeline *t, FILE *f) {
  fprintf(f, "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\n"
             "LOOK_BACK           100\nSPEED               1\nFLAG_ICONS          ENABLED\n"
             "NUM_OF_STATE_COLORS 1000\nYMAX_SCALE          37\n\n\nDEFAULT_SEMANTIC\n\n"
             "THREAD_FUNC          State As Is\n\n\nSTATES\n");
  for (size_t i = 0; i < NSTATES; i++)
    fprintf(f, "%-4d %s\n", states[i].id, states[i].name);
  fprintf(f, "\n\nSTATES_COLOR\n");
  for (size_t i = 0; i < NSTATES; i++)
    fprintf(f, "%-4d {%s}\n", states[i].id, states[i].rgb);
  fprintf(f, "\n\nEVENT_TYPE\n0    %d    MPI call\nVALUES\n0      End\n", EV_CALL);
  for (int op = TRACE_COMPUTE; op <= TRACE_EXSCAN; op++)
    fprintf(f, "%-6d %s\n", op + 1, trace_op_name((trace_op)op));
  fprintf(f, "\n\nEVENT_TYPE\n0    %d    Code region\nVALUES\n0      End\n", EV_REGION);
  for (size_t i = 0; i < t->nregion_names; i++)
    fprintf(f, "%-6zu %s\n", i + 1, t->region_names[i]);
  fputc('\n', f);
}

static void write_row(const timeline *t, FILE *f) {
  const prv *p = t->priv;
  fprintf(f, "LEVEL CPU SIZE %d\n", t->np);
  for (int k = 0; k < p->nnodes; k++)
    for (int r = 0; r < t->np; r++)
      if (p->node[r] == k + 1)
        fprintf(f, "%d.%s\n", p->cpu[r], tl_host_name(t, r));
  fprintf(f, "\nLEVEL NODE SIZE %d\n", p->nnodes);
  for (int k = 0; k < p->nnodes; k++)
    fprintf(f, "%s\n", t->plat ? plat_host_at(t->plat, p->node_host[k])->name : "");
  fprintf(f, "\nLEVEL THREAD SIZE %d\n", t->np);
  for (int r = 0; r < t->np; r++)
    fprintf(f, "rank %d (%s)\n", r, tl_host_name(t, r));
}

static int write_side(const timeline *t, const char *ext, void (*fn)(const timeline *, FILE *), char *err,
                      size_t errlen) {
  char *path = side_path(t->path, ext), *tmp;
  FILE *f = output_open(path, &tmp, err, errlen);
  int rc = -1;
  if (f) {
    fn(t, f);
    rc = output_commit(f, tmp, path, 0, err, errlen);
  }
  free(path);
  return rc;
}

static int finish(timeline *t, char *err, size_t errlen) {
  if (write_side(t, ".pcf", write_pcf, err, errlen) < 0)
    return -1;
  return write_side(t, ".row", write_row, err, errlen);
}

static void pfree(timeline *t) {
  prv *p = t->priv;
  if (!p)
    return;
  free(p->cpu);
  free(p->node);
  free(p->node_host);
  free(p->ncpus);
  free(p);
}

const tl_format tl_prv = {.name = "prv", .ext = ".prv", .sorted = 1, .start = start, .state = state,
                          .region = region, .message = message, .header = header, .finish = finish,
                          .free = pfree};
