/* validate.h - static check of a trace set, without simulating (tir-replay --validate).
 *
 * One pass over every action of every rank (trace_next_any: memory does not grow with
 * the trace, only with the number of distinct (src, dst, tag) message keys). What is
 * checked, and whether a finding is an error or a warning, is listed in
 * doc/trace-format.md ("Validation"). In short, errors: a line that does not parse, a peer
 * or root out of range, a negative count, a non-finite or negative amount, sends and
 * receives whose numbers differ for some (src, dst, tag), receives smaller than their
 * sends, a wait with no request at all (SimGrid aborts), ranks whose collective calls
 * differ. Warnings: requests never waited (SimGrid waits for them at the end), a rank
 * without actions, ranks disagreeing on init's argument, the default datatype used
 * before init, a wait that matches no request. */
#ifndef TIR_VALIDATE_H
#define TIR_VALIDATE_H

#include <float.h>
#include <stdint.h>
#include <stdio.h>

#include "trace.h"

/* Validates the traces of t for np ranks (calls trace_set_np: t must be fresh). Writes
 * every finding ("error: ..." / "warning: ...", the first VALIDATE_MAX_SHOWN of them),
 * then one line per rank (actions, point-to-point bytes sent and received, counting
 * count x datatype size with init's default datatype), the totals, and a verdict line
 * ("valid: ..." or "invalid: ...") to out (NULL: nothing written).
 * Returns 0 when valid (warnings allowed), -1 otherwise with the first error in err. */
int validate_traces(trace_set *t, int np, FILE *out, char *err, size_t errlen);

#define VALIDATE_MAX_SHOWN 1000 /* findings written out; the others are only counted */

/* The checks of one action on its own, the same for --validate and for every action a
 * replay reads (one validation path): a peer or a root out of [0, np), a negative count
 * (a receive's is allowed: probe first), a count above VALIDATE_MAX_COUNT, a non-finite or
 * negative amount (compute, sleep, reduce-like collectives); one-sided lines: a TARGET or a
 * group member out of range, a negative size. Returns 0, or -1 with
 * "FILE:LINE: message: 'TEXT'" in err. */
static inline int validate_action(const trace_action *a, int np, char *err, size_t errlen);

/* The largest count of elements: 2^48, so that count x the largest datatype (32 bytes)
 * stays an exact double and far from int64 overflow. */
#define VALIDATE_MAX_COUNT (INT64_C(1) << 48)

/* validate_action for any action (the inline one settles the usual ones in a few
 * instructions: the replay calls it on every action it reads). */
int validate_action_all(const trace_action *a, int np, char *err, size_t errlen);

#define VALIDATE_BIT(op) (UINT64_C(1) << (op))
static inline int validate_action(const trace_action *a, int np, char *err, size_t errlen) {
  const uint64_t bit = (unsigned)a->op < 64 ? VALIDATE_BIT(a->op) : 0; /* (the ops past 63: one-sided) */
  if (bit & (VALIDATE_BIT(TRACE_SEND) | VALIDATE_BIT(TRACE_ISEND) | VALIDATE_BIT(TRACE_RECV) |
             VALIDATE_BIT(TRACE_IRECV))) {
    if ((unsigned)a->peer < (unsigned)np && (uint64_t)a->count <= (uint64_t)VALIDATE_MAX_COUNT)
      return 0;
  } else if (bit & (VALIDATE_BIT(TRACE_COMPUTE) | VALIDATE_BIT(TRACE_SLEEP))) {
    if (a->amount >= 0 && a->amount <= DBL_MAX) /* (false for NaN) */
      return 0;
  } else if (bit & (VALIDATE_BIT(TRACE_INIT) | VALIDATE_BIT(TRACE_FINALIZE) | VALIDATE_BIT(TRACE_WAIT) |
                    VALIDATE_BIT(TRACE_TEST) | VALIDATE_BIT(TRACE_WAITALL) | VALIDATE_BIT(TRACE_LOCATION) |
                    VALIDATE_BIT(TRACE_REGION) | VALIDATE_BIT(TRACE_REGION_END)))
    return 0;
  return validate_action_all(a, np, err, errlen);
}

#endif
