/* timeline_csv.c - the CSV timeline: one row per state and per message, streamed.
 *
 * One table with a first column saying what the row is (doc/outputs.md):
 *   type,rank,host,start,end,state,region,peer,bytes,tag,posted,comm
 *   state: rank's action `state` (compute, send, bcast, ...) from start to end, in region
 *          (empty: none), with its peer/bytes/tag when the action has them, and for a
 *          collective on a sub-communicator that communicator's id in `comm`;
 *   message: rank = source, peer = destination, start/end = the transfer, posted = when
 *          the sender posted it.
 * Rows are written as intervals end (so they are in order of end time), nothing is
 * kept in memory. Times are seconds printed with 17 significant digits (exact). */
#include "output.h"
#include "timeline_impl.h"

#include <inttypes.h>
#include <string.h>


static void opt_int(FILE *f, int64_t v) {
  fputc(',', f);
  if (v >= 0)
    fprintf(f, "%" PRId64, v);
}

static void start(timeline *t) {
  fputs("type,rank,host,start,end,state,region,peer,bytes,tag,posted,comm\n", t->out);
}

static void state(timeline *t, const tl_state *s) {
  FILE *f = t->out;
  fprintf(f, "state,%d,", s->rank);
  output_csv_field(f, tl_host_name(t, s->rank));
  fprintf(f, ",%.17g,%.17g,%s,", s->start, s->end, trace_op_name(s->op));
  output_csv_field(f, s->region);
  opt_int(f, s->peer);
  opt_int(f, s->bytes);
  opt_int(f, s->tag);
  fputc(',', f);
  opt_int(f, s->comm > 0 ? s->comm : -1);
  fputc('\n', f);
}

static void message(timeline *t, const tl_msg *m) {
  FILE *f = t->out;
  fprintf(f, "message,%d,", m->src);
  output_csv_field(f, tl_host_name(t, m->src));
  fprintf(f, ",%.17g,%.17g,,,%d,%" PRId64 ",%d,%.17g,\n", m->start, m->end, m->dst, m->bytes, m->tag, m->posted);
}

const tl_format tl_csv = {.name = "csv", .ext = ".csv", .start = start, .state = state, .message = message};
