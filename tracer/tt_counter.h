/* tt_counter.h - the CPU volume of a burst: hardware instructions, or thread CPU time.
 *
 * One source per trace. Instructions (perf_event_open, user space only) are preferred where
 * the kernel and the machine allow them; many virtual machines have no hardware counters,
 * and then the thread's CPU time (CLOCK_THREAD_CPUTIME_ID) is used, converted to compute
 * units at `rate` units per second (TIR_RATE, default 1e9: one unit per nanosecond). */
#ifndef TT_COUNTER_H
#define TT_COUNTER_H

/* Try to open the hardware instruction counter of the calling thread. Returns 1 if it
 * counts, 0 if not (then *why says why, a static string). */
int tt_counter_try_hw(const char **why);
/* Choose the source: hw != 0 uses the counter opened by tt_counter_try_hw (and keeps it),
 * otherwise closes it and uses CPU time at rate units per second. */
void tt_counter_use(int hw, double rate);
/* The counter, in compute units since an arbitrary origin. */
double tt_counter_read(void);
/* The volume two back-to-back reads see (the cost of one read, which every burst contains
 * once): the smallest of 64 differences, to be subtracted from each burst. */
double tt_counter_bias(void);
void tt_counter_close(void);

#endif
