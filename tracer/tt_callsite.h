/* tt_callsite.h - names of call sites (return addresses) for TIR_CALLSITE_REGIONS.
 *
 * A call site is named file:line when the module has debug information (asked once per
 * address of addr2line(1), then cached), else module+0xOFFSET (module-relative, so the
 * name is the same in every rank despite address randomisation). */
#ifndef TT_CALLSITE_H
#define TT_CALLSITE_H

#define TT_CALLSITE_MAX 120 /* longest name, in characters */

/* The name of the call site whose return address is addr ("start" for NULL). The string
 * lives until tt_callsite_clear. */
const char *tt_callsite_name(void *addr);
void tt_callsite_clear(void);

#endif
