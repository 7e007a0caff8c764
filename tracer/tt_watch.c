/* tt_watch.c - the tracer's helper thread: periodic syncs of the rank's trace file, and the
 * end of the trace when a signal stops the rank.
 *
 * Syncs: the thread wakes every TIR_FLUSH_INTERVAL seconds and syncs the lines written
 * since (tt_out_sync), so the file is decompressible up to a recent point even if the rank
 * then computes for hours and is killed; it also notices a failed write (a full disk) and
 * reports it once (tt_write_failed).
 * Signals: a handler may only make async-signal-safe calls, and closing a zlib stream or
 * rewriting trace.meta is not one (it allocates, and the signal may have interrupted
 * malloc). So the handler only writes the signal number into a pipe; the thread, an
 * ordinary thread, does the work (tt_stopped_by: close the stream with its trailer, rank 0
 * rewrites trace.meta), then lets the signal take its course. Asynchronous signals (TERM,
 * INT, HUP, QUIT, XCPU: what mpirun, srun and batch systems send at a time limit) return
 * from the handler at once, so the interrupted thread can finish the line it was writing;
 * the thread then restores the previous disposition and sends the signal again (default:
 * the process dies of it). Synchronous ones (SEGV, BUS, FPE, ILL, ABRT) cannot return to
 * the faulting code: their handler waits (poll on a second pipe, at most 5 s) for the
 * thread, then restores the previous disposition and raises the signal again. A signal
 * the program ignores (nohup's SIGHUP) keeps being ignored; a forked child (system())
 * gets the previous dispositions straight away. The thread blocks every signal, so that
 * the program's threads receive them. */
#include "tt.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "tt_out.h"

/* Launchers (Open MPI's mpirun, MPICH's hydra) SIGKILL a whole job as soon as one of its
 * ranks dies: after a SIGTERM, a rank dies this much later than it could, so that the
 * other ranks, which got the SIGTERM at the same time, have closed their files (and rank 0
 * rewritten trace.meta) by then. */
#define GRACE_US 500000

static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT, SIGQUIT, SIGHUP, SIGXCPU};
#define NSIGS ((int)(sizeof sigs / sizeof *sigs))
static struct sigaction old[NSIGS];
static int handled[NSIGS];     /* our handler is installed for sigs[i] */
static int req[2] = {-1, -1};  /* handlers, tt_watch_stop -> thread: a signal number, 0 = stop */
static int ack[2] = {-1, -1};  /* thread -> the handler of a synchronous signal */
static pthread_t thread;
static int running;            /* the thread runs */
static int period_ms;          /* poll timeout of the thread */
static pid_t owner;            /* the process that started the tracer (not a fork of it) */

static int slot(int sig) {
  for (int i = 0; i < NSIGS; i++)
    if (sigs[i] == sig)
      return i;
  return 0;
}

static int synchronous(int sig) {
  return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT;
}

/* Only async-signal-safe calls: getpid, write, poll, sigaction, raise. */
static void on_signal(int sig) {
  int saved = errno, i = slot(sig);
  if (getpid() == owner && req[1] >= 0) {
    unsigned char b = (unsigned char)sig;
    if (write(req[1], &b, 1) == 1 && !synchronous(sig)) {
      errno = saved;
      return; /* the thread takes over */
    }
    struct pollfd p = {.fd = ack[0], .events = POLLIN};
    (void)poll(&p, 1, 5000);
  }
  sigaction(sig, &old[i], NULL);
  raise(sig); /* delivered when this handler returns: default death, or the program's handler */
  errno = saved;
}

/* In the thread: the trace ends, then the signal goes on. */
static void stopped(int sig) {
  tt_stopped_by(sig);
  if (synchronous(sig)) {
    unsigned char b = 1;
    (void)!write(ack[1], &b, 1);
    return;
  }
  usleep(GRACE_US); /* let the other ranks close before the launcher sees a rank die */
  int i = slot(sig);
  sigaction(sig, &old[i], NULL);
  handled[i] = 0;
  kill(getpid(), sig);
}

static void *watch(void *arg) {
  (void)arg;
  int reported = 0;
  for (;;) {
    struct pollfd p = {.fd = req[0], .events = POLLIN};
    int n = poll(&p, 1, period_ms);
    if (n < 0 && errno == EINTR)
      continue;
    unsigned char b = 0;
    if (n > 0 && read(req[0], &b, 1) == 1) {
      if (b == 0)
        break;
      stopped(b);
      continue;
    }
    int err = tt_out_sync();
    if (err && !reported)
      tt_write_failed(err);
    reported |= err != 0;
  }
  return NULL;
}

static int make_pipe(int fd[2]) {
  if (pipe(fd) != 0)
    return -1;
  for (int i = 0; i < 2; i++)
    fcntl(fd[i], F_SETFD, FD_CLOEXEC);
  fcntl(fd[1], F_SETFL, O_NONBLOCK); /* a handler never blocks on a full pipe */
  return 0;
}

static void install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < NSIGS; i++) {
    sigaction(sigs[i], NULL, &old[i]);
    if (old[i].sa_handler == SIG_IGN)
      continue; /* the program ignores it (nohup): so does the tracer */
    handled[i] = sigaction(sigs[i], &sa, NULL) == 0;
  }
}

int tt_watch_start(double interval, int signals) {
  owner = getpid();
  period_ms = interval > 0 ? (interval < 1e-3 ? 1 : interval > 3600 ? 3600000 : (int)(interval * 1000)) : 1000;
  if (make_pipe(req) != 0 || make_pipe(ack) != 0)
    return -1;
  sigset_t all, prev;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &prev); /* the thread inherits a full mask */
  running = pthread_create(&thread, NULL, watch, NULL) == 0;
  pthread_sigmask(SIG_SETMASK, &prev, NULL);
  if (!running)
    return -1;
  if (signals)
    install();
  return 0;
}

void tt_watch_stop(void) {
  for (int i = 0; i < NSIGS; i++)
    if (handled[i])
      sigaction(sigs[i], &old[i], NULL);
  memset(handled, 0, sizeof handled);
  if (running && pthread_self() != thread) {
    unsigned char b = 0;
    while (write(req[1], &b, 1) < 0 && errno == EAGAIN)
      usleep(1000);
    pthread_join(thread, NULL);
  }
  running = 0;
  for (int i = 0; i < 2; i++) {
    if (req[i] >= 0)
      close(req[i]);
    if (ack[i] >= 0)
      close(ack[i]);
    req[i] = ack[i] = -1;
  }
}
