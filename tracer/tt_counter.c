/* tt_counter.c - CPU volume counters: perf_event_open instructions or thread CPU time.
 *
 * The instruction counter is read with read(2) on the perf file descriptor (one system
 * call, like clock_gettime of a thread CPU clock, which has no vDSO fast path); both cost
 * a few hundred nanoseconds, paid twice per traced call (see bench/overhead). The faster
 * user-space rdpmc path is not used: it needs the mmap page and fails on most VMs anyway. */
#include "tt_counter.h"

#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int fd = -1;      /* perf event of this thread's instructions, or -1 */
static double cpu_scale; /* units per nanosecond of CPU time when fd < 0 (rate / 1e9) */

int tt_counter_try_hw(const char **why) {
  struct perf_event_attr a;
  memset(&a, 0, sizeof a);
  a.size = sizeof a;
  a.type = PERF_TYPE_HARDWARE;
  a.config = PERF_COUNT_HW_INSTRUCTIONS;
  a.exclude_kernel = 1;
  a.exclude_hv = 1;
  fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
  if (fd < 0) {
    *why = "perf_event_open(instructions) refused (no hardware counters, or perf_event_paranoid)";
    return 0;
  }
  long long v = 0;
  if (read(fd, &v, sizeof v) != (ssize_t)sizeof v) {
    *why = "the instruction counter cannot be read";
    tt_counter_close();
    return 0;
  }
  return 1;
}

void tt_counter_use(int hw, double rate) {
  if (!hw)
    tt_counter_close();
  cpu_scale = rate / 1e9;
}

double tt_counter_read(void) {
  if (fd >= 0) {
    long long v = 0;
    if (read(fd, &v, sizeof v) == (ssize_t)sizeof v)
      return (double)v;
    return 0;
  }
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ((double)ts.tv_sec * 1e9 + (double)ts.tv_nsec) * cpu_scale;
}

double tt_counter_bias(void) {
  double best = -1;
  for (int i = 0; i < 64; i++) {
    double a = tt_counter_read(), b = tt_counter_read();
    if (best < 0 || b - a < best)
      best = b - a;
  }
  return best > 0 ? best : 0;
}

void tt_counter_close(void) {
  if (fd >= 0)
    close(fd);
  fd = -1;
}
