/* timeline_paje.c - the Paje timeline (PajeNG's pj_dump, ViTE, Paje).
 *
 * Containers: one per host (type HOST), holding one per rank (type RANK). Each rank has
 * two state types: STATE (the action it is in: compute, send, bcast, ...) and REGION (the
 * code regions it is in, nested). Messages are links (type LINK) between rank
 * containers, their value the byte count. Paje wants events in time order, so every
 * event goes through tl_emit (timeline_sort.c) and is written sorted at the end; ties
 * keep the replay's order, except that nested regions pushed (or popped) at the same
 * date are ordered outer first (inner first). Zero-length regions are left out (their
 * pop would sort before their push). Containers live from 0 (or the window's start) to
 * the end of the replay (or of the window). Host power is not written. */
#include "timeline_impl.h"

#include "xalloc.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* Event ids of the header below. */
enum { DEF_CTYPE, DEF_STYPE, DEF_LTYPE, DEF_VALUE, CREATE, DESTROY, PUSH, POP, START_LINK, END_LINK };

static const char header_text[] =
    "%EventDef PajeDefineContainerType 0\n%  Alias string\n%  Type string\n%  Name string\n%EndEventDef\n"
    "%EventDef PajeDefineStateType 1\n%  Alias string\n%  Type string\n%  Name string\n%EndEventDef\n"
    "%EventDef PajeDefineLinkType 2\n%  Alias string\n%  Type string\n%  StartContainerType string\n"
    "%  EndContainerType string\n%  Name string\n%EndEventDef\n"
    "%EventDef PajeDefineEntityValue 3\n%  Alias string\n%  Type string\n%  Name string\n"
    "%  Color color\n%EndEventDef\n"
    "%EventDef PajeCreateContainer 4\n%  Time date\n%  Alias string\n%  Type string\n%  Container string\n"
    "%  Name string\n%EndEventDef\n"
    "%EventDef PajeDestroyContainer 5\n%  Time date\n%  Type string\n%  Name string\n%EndEventDef\n"
    "%EventDef PajePushState 6\n%  Time date\n%  Container string\n%  Type string\n%  Value string\n"
    "%EndEventDef\n"
    "%EventDef PajePopState 7\n%  Time date\n%  Container string\n%  Type string\n%EndEventDef\n"
    "%EventDef PajeStartLink 8\n%  Time date\n%  Container string\n%  Type string\n"
    "%  StartContainer string\n%  Value string\n%  Key string\n%EndEventDef\n"
    "%EventDef PajeEndLink 9\n%  Time date\n%  Container string\n%  Type string\n"
    "%  EndContainer string\n%  Value string\n%  Key string\n%EndEventDef\n";

typedef struct paje {
  uint64_t nlinks; /* links so far (their keys) */
} paje;

static void start(timeline *t) { t->priv = x_calloc(1, sizeof(paje)); }

static double t_begin(const timeline *t) { return t->win_end > t->win_start ? t->win_start : 0; }

static double t_end(const timeline *t) {
  double e = t->end_time;
  if (t->win_end > t->win_start && t->win_end < e)
    e = t->win_end;
  return e > t_begin(t) ? e : t_begin(t);
}

/* Writes s quoted, double quotes turned into single ones (Paje has no escapes). */
static void quoted(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++)
    fputc(*s == '"' ? '\'' : *s, f);
  fputc('"', f);
}

/* "#rrggbb" -> "r g b" in [0, 1]. */
static void color(FILE *f, const char *hex) {
  unsigned v = (unsigned)strtoul(hex + 1, NULL, 16);
  fprintf(f, "\"%.3f %.3f %.3f\"", (v >> 16 & 255) / 255.0, (v >> 8 & 255) / 255.0, (v & 255) / 255.0);
}

static void define_values(timeline *t) {
  FILE *f = t->out;
  for (int op = TRACE_COMPUTE; op <= TRACE_EXSCAN; op++) {
    fprintf(f, "%d v%d STATE \"%s\" ", DEF_VALUE, op, trace_op_name((trace_op)op));
    color(f, tl_color((trace_op)op));
    fputc('\n', f);
  }
  for (size_t i = 0; i < t->nregion_names; i++) {
    fprintf(f, "%d g%zu REGION ", DEF_VALUE, i + 1);
    quoted(f, t->region_names[i]);
    fputc(' ', f);
    color(f, tl_region_color((int)i + 1));
    fputc('\n', f);
  }
}

/* Types, values and containers (before the sorted events). */
static void header(timeline *t) {
  FILE *f = t->out;
  fputs(header_text, f);
  fprintf(f, "%d HOST 0 \"Host\"\n%d RANK HOST \"Rank\"\n", DEF_CTYPE, DEF_CTYPE);
  fprintf(f, "%d STATE RANK \"MPI state\"\n%d REGION RANK \"Region\"\n", DEF_STYPE, DEF_STYPE);
  fprintf(f, "%d LINK 0 RANK RANK \"Message\"\n", DEF_LTYPE);
  define_values(t);
  double t0 = t_begin(t);
  int nh = t->plat ? plat_host_count(t->plat) : 0;
  char *used = x_calloc((size_t)nh + 1, 1);
  for (int r = 0; r < t->np; r++) {
    int h = t->host_of[r];
    if (h >= 0 && h < nh && !used[h]) {
      used[h] = 1;
      fprintf(f, "%d %.17g h%d HOST 0 ", CREATE, t0, h);
      quoted(f, plat_host_at(t->plat, h)->name);
      fputc('\n', f);
    }
    fprintf(f, "%d %.17g r%d RANK h%d \"rank %d\"\n", CREATE, t0, r, h, r);
  }
  free(used);
}

static void state(timeline *t, const tl_state *s) {
  tl_emit(t, s->start, 0, "%d %.17g r%d STATE v%d\n", PUSH, s->start, s->rank, (int)s->op);
  tl_emit(t, s->end, 0, "%d %.17g r%d STATE\n", POP, s->end, s->rank);
}

static void region(timeline *t, const tl_region *g) {
  if (!(g->end > g->start))
    return;
  tl_emit(t, g->start, g->depth, "%d %.17g r%d REGION g%d\n", PUSH, g->start, g->rank, g->id);
  tl_emit(t, g->end, -g->depth, "%d %.17g r%d REGION\n", POP, g->end, g->rank);
}

static void message(timeline *t, const tl_msg *m) {
  paje *p = t->priv;
  uint64_t k = p->nlinks++;
  double s = m->start, e = m->end; /* a windowed link is drawn within the window */
  if (t->win_end > t->win_start) {
    s = s < t->win_start ? t->win_start : s > t->win_end ? t->win_end : s;
    e = e > t->win_end ? t->win_end : e < s ? s : e;
  }
  tl_emit(t, s, 0, "%d %.17g 0 LINK r%d \"%" PRId64 "\" m%" PRIu64 "\n", START_LINK, s, m->src, m->bytes, k);
  tl_emit(t, e, 0, "%d %.17g 0 LINK r%d \"%" PRId64 "\" m%" PRIu64 "\n", END_LINK, e, m->dst, m->bytes, k);
}

/* Destroys the containers, ranks first. */
static int finish(timeline *t, char *err, size_t errlen) {
  (void)err, (void)errlen;
  double t1 = t_end(t);
  for (int r = 0; r < t->np; r++)
    fprintf(t->out, "%d %.17g RANK r%d\n", DESTROY, t1, r);
  int nh = t->plat ? plat_host_count(t->plat) : 0;
  char *used = x_calloc((size_t)nh + 1, 1);
  for (int r = 0; r < t->np; r++) {
    int h = t->host_of[r];
    if (h >= 0 && h < nh && !used[h]++)
      fprintf(t->out, "%d %.17g HOST h%d\n", DESTROY, t1, h);
  }
  free(used);
  return 0;
}

static void pfree(timeline *t) { free(t->priv); }

const tl_format tl_paje = {.name = "paje", .ext = ".paje", .sorted = 1, .start = start, .state = state,
                           .region = region, .message = message, .header = header, .finish = finish,
                           .free = pfree};
