/* tt_state.c - the tracer's state and the entry/exit path of every wrapped call.
 *
 * CPU accounting: `last` is the counter when the previous traced call returned; entering a
 * call adds (now - last) to `pending`, and the first line a hook writes is preceded by a
 * compute line for `pending` (if it reaches TIR_MIN_BURST: smaller bursts stay pending and
 * merge into the next one, so no volume is lost). The integer part is written and the
 * fraction carried, so the sum of the compute lines equals the measured volume. Local
 * calls (MPI_Comm_rank) do not read the counter: they stay inside the burst. Reading the
 * counter costs one system call, half of which lands before the sample of tt_leave and
 * half after the sample of tt_enter: every burst would contain one read's worth; that
 * `bias`, measured at start, is subtracted (bursts shorter than it count as 0). */
#include "tt.h"

#include <math.h>
#include <stdio.h>

#include "tt_callsite.h"
#include "tt_counter.h"
#include "tt_out.h"

struct tt_state tt;
#define TT_KW_NAME(op, kw, flags) [TT_KW_##op] = kw,
const char *const tt_kw_name[TT_KW_COUNT] = {TRACE_KEYWORDS(TT_KW_NAME)};
static _Thread_local int depth; /* > 0 inside a wrapper: nested MPI calls pass through */

int tt_enter(struct tt_call *c, int fn, int mode, void *site, int lang) {
  if (!tt.active || depth)
    return 0;
  double now = mode == TT_LOCAL ? 0 : tt_counter_read();
  depth = 1;
  c->fn = fn;
  c->mode = mode;
  c->site = site;
  c->fortran = lang != TT_C;
  c->base = lang == TT_C ? 0 : lang == TT_FORTRAN ? 1 : tt.f08_base;
  c->nsaved = 0;
  tt.calls[fn]++;
  if (mode == TT_LOCAL)
    return 1;
  if (now - tt.last > tt.bias)
    tt.pending += now - tt.last - tt.bias;
  if (mode == TT_UNSUP)
    tt.unexpressed[fn]++;
  return 1;
}

void tt_leave(struct tt_call *c) {
  if (c->mode != TT_LOCAL) {
    tt.last_site = c->site;
    tt.last = tt_counter_read();
  }
  depth = 0;
}

/* Regions named by call sites: "prev..cur" around the compute line of the burst. */
static void callsite_region(struct tt_call *c, int end) {
  if (!end) {
    char name[2 * TT_CALLSITE_MAX + 4];
    snprintf(name, sizeof name, "%s..%s", tt_callsite_name(tt.last_site),
             tt_callsite_name(c ? c->site : NULL));
    tt_out_begin(tt.rank, TT_KW(REGION), tt.simgrid);
    tt_out_str(name);
  } else {
    tt_out_begin(tt.rank, TT_KW(REGION_END), tt.simgrid);
  }
  tt_out_end();
}

void tt_burst_flush(struct tt_call *c, int force) {
  if (tt.pending < 0.5 || (!force && tt.pending < tt.min_burst))
    return;
  long long v = llround(tt.pending);
  if (tt.callsite_regions)
    callsite_region(c, 0);
  tt_out_begin(tt.rank, TT_KW(COMPUTE), 0);
  tt_out_int(v);
  tt_out_end();
  if (tt.callsite_regions)
    callsite_region(c, 1);
  tt.pending -= (double)v;
}

void tt_ln(struct tt_call *c, const char *action) {
  tt_burst_flush(c, 0);
  tt_out_begin(tt.rank, action, 0);
}

void tt_ln_ext(struct tt_call *c, const char *action) {
  tt_burst_flush(c, 0);
  tt_out_begin(tt.rank, action, tt.simgrid);
}

void tt_unexpressed(struct tt_call *c) { tt.unexpressed[c->fn]++; }
void tt_approximated(struct tt_call *c) { tt.approximated[c->fn]++; }

long long tt_bytes(int count, MPI_Datatype dt) {
  int sz = 0;
  if (dt == MPI_DATATYPE_NULL || count <= 0)
    return 0;
  PMPI_Type_size(dt, &sz);
  return (long long)count * sz;
}
