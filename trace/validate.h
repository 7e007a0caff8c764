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

#endif
