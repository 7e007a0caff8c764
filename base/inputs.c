/* inputs.c - opening the run's input files safely, and the list of their identities.
 *
 * inputs_open opens with O_NONBLOCK (a FIFO opens at once even without a writer), checks
 * the type with fstat on the open descriptor (no race between a stat and the open), then
 * clears O_NONBLOCK. The identities noted are kept in one growing array, searched
 * linearly: it is read only when an output is opened or committed, a handful of times per
 * run, and holds one entry per input file (up to one per rank). A match is confirmed by a
 * stat of the path noted, so that an input deleted since (its inode reused by a new file,
 * as in the unit tests' temporary files) is no longer one. */
#include "inputs.h"

#include "xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

typedef struct ident {
  dev_t dev;
  ino_t ino;
  char *path; /* as opened: a match is confirmed by stat (the inode of a file deleted since
                 may belong to a new one) */
} ident;

static ident *noted;       /* the inputs' identities, in the order first noted */
static size_t nnoted, cap; /* entries used, allocated */

const char *inputs_kind(mode_t mode) {
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  if (S_ISDIR(mode))
    return "a directory";
  return S_ISREG(mode) ? "a regular file" : "not a regular file";
}

static void note(const char *path, const struct stat *st) {
  if (inputs_contains(st))
    return;
  x_grow(&noted, &cap, nnoted + 1, sizeof *noted);
  noted[nnoted++] = (ident){st->st_dev, st->st_ino, x_strdup(path)};
}

int inputs_contains(const struct stat *st) {
  struct stat now;
  for (size_t i = 0; i < nnoted; i++)
    if (noted[i].dev == st->st_dev && noted[i].ino == st->st_ino && stat(noted[i].path, &now) == 0 &&
        now.st_dev == st->st_dev && now.st_ino == st->st_ino)
      return 1;
  return 0;
}

void inputs_note(const char *path) {
  struct stat st;
  if (path && stat(path, &st) == 0 && S_ISREG(st.st_mode))
    note(path, &st);
}

/* The reasons of a refusal, one per file type (static: *why points to them). */
static const char *refusal(mode_t mode) {
  if (S_ISFIFO(mode))
    return "not a regular file (a FIFO: tir reads its inputs from regular files only)";
  if (S_ISCHR(mode))
    return "not a regular file (a character device: tir reads its inputs from regular files only)";
  if (S_ISDIR(mode))
    return "Is a directory";
  return "not a regular file (tir reads its inputs from regular files only)";
}

int inputs_open(const char *path, struct stat *st, const char **why) {
  struct stat own;
  if (!st)
    st = &own;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    *why = strerror(errno);
    return -1;
  }
  int bad = fstat(fd, st) < 0 ? errno : 0;
  if (bad || !S_ISREG(st->st_mode)) {
    *why = bad ? strerror(bad) : refusal(st->st_mode);
    close(fd);
    return -1;
  }
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0)
    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  note(path, st);
  return fd;
}

FILE *inputs_fopen(const char *path, const char **why) {
  int fd = inputs_open(path, NULL, why);
  FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
  if (fd >= 0 && !f) {
    if (errno == ENOMEM) /* (its buffer) */
      x_oom();
    *why = strerror(errno);
    close(fd);
  }
  return f;
}
