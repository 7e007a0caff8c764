/* cli_smpi.c - smpirun's spellings on tir-replay's command line (cli_smpi.h).
 *
 * SimGrid users write `smpirun -np 16 -platform P -hostfile H -replay I`: single-dash
 * words that getopt would read as clusters of short options (`-np` = `-n p`). Before
 * getopt runs, every argument is looked at once, left to right:
 *  - an smpirun word (table below) becomes tir-replay's long option, or is dropped with a
 *    note when it has no effect on a replay (-keep-temps, -wrapper CMD, ...), or is
 *    refused when tir cannot honour it (-trace-ti, -bandwidth);
 *  - `--log=...` (SimGrid's logging) is dropped with a note;
 *  - any other single-dash argument longer than two characters must be a valid cluster
 *    of tir-replay's short options (`-vq`, `-n16`, `-pplat.xml`), else it is an unknown
 *    option named as typed (`-report` hints at `--report`);
 *  - the argument of an option that takes one is skipped, and `--` ends the options.
 * The new argv keeps the original strings where nothing changed; rewritten ones are
 * copies, so that cli_smpi_orig can name what the user typed even after getopt permuted
 * the array. */
#include "cli_smpi.h"

#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

/* An smpirun option: its tir-replay long option (NULL: dropped), whether it takes an
 * argument, and for a dropped one what it does in smpirun; refused: an error. */
typedef struct smpi_word {
  const char *word, *to;
  int arg, refused;
  const char *why;
} smpi_word;

static const smpi_word words[] = {
    {"-np", "--np", 1, 0, NULL},
    {"-platform", "--platform", 1, 0, NULL},
    {"-hostfile", "--hostfile", 1, 0, NULL},
    {"-machinefile", "--hostfile", 1, 0, NULL},
    {"-replay", "--replay", 1, 0, NULL},
    {"-map", "--map", 0, 0, NULL},
    {"-trace", "--trace", 0, 0, NULL},
    {"-trace-file", "--trace-file", 1, 0, NULL},
    {"-help", "--help", 0, 0, NULL},
    {"-version", "--version", 0, 0, NULL},
    {"-keep-temps", NULL, 0, 0, "keeps smpirun's temporary files"},
    {"-no-privatize", NULL, 0, 0, "privatizes the globals of a compiled program"},
    {"-foreground", NULL, 0, 0, "is kept for compatibility"},
    {"-quiet", NULL, 0, 0, "silences smpirun's own messages"},
    {"-analyze", NULL, 0, 0, "shows the allocations of a compiled program"},
    {"-gdb", NULL, 0, 0, "runs a compiled program in gdb"},
    {"-lldb", NULL, 0, 0, "runs a compiled program in lldb"},
    {"-vgdb", NULL, 0, 0, "runs a compiled program in valgrind's gdb server"},
    {"-trace-grouped", NULL, 0, 0, "groups the ranks of a Paje trace by host"},
    {"-trace-resource", NULL, 0, 0, "traces resource use"},
    {"-wrapper", NULL, 1, 0, "runs a compiled program under a command"},
    {"-tmpdir", NULL, 1, 0, "sets smpirun's temporary folder"},
    {"-trace-comment", NULL, 1, 0, "comments the Paje trace"},
    {"-trace-comment-file", NULL, 1, 0, "comments the Paje trace"},
    {"-trace-ti", NULL, 0, 1, "tir-replay writes no time-independent trace (take one with tir-trace)"},
    {"-bandwidth", NULL, 1, 1, "smpirun's platform-less form is not supported: give -platform (or none: a "
                               "built-in cluster)"},
    {"-latency", NULL, 1, 1, "smpirun's platform-less form is not supported: give -platform (or none: a "
                             "built-in cluster)"},
};
#define NWORDS (sizeof words / sizeof words[0])

static const smpi_word *find_word(const char *a) {
  for (size_t i = 0; i < NWORDS; i++)
    if (!strcmp(a, words[i].word))
      return &words[i];
  return NULL;
}

static void add(cli_words *w, char *arg, char *orig) {
  w->argv[w->argc] = w->built[w->argc] = arg;
  w->orig[w->argc++] = orig;
  w->argv[w->argc] = NULL;
}

/* 1 when the long option a ("--name" or "--name=value") needs the next argument. */
static int long_takes_next(const char *a, const struct option *lo) {
  if (strchr(a, '='))
    return 0;
  size_t n = strlen(a + 2);
  for (; lo->name; lo++)
    if (n > 0 && !strncmp(lo->name, a + 2, n))
      return lo->has_arg == required_argument;
  return 0;
}

/* The short option c in optstring: 0 unknown, 1 a flag, 2 takes an argument. */
static int short_kind(char c, const char *optstring) {
  const char *p = c != ':' ? strchr(optstring, c) : NULL;
  return !p ? 0 : p[1] == ':' ? 2 : 1;
}

/* A single-dash argument that is no smpirun word: a cluster of short options, of which
 * the first that takes an argument takes the rest (or the next argument). Returns 1 when
 * the next argument is that option's, 0 when not, -1 with err when a letter is unknown. */
static int check_cluster(const char *a, const char *optstring, const struct option *lo, char *err,
                         size_t errlen) {
  for (const char *c = a + 1; *c; c++) {
    int k = short_kind(*c, optstring);
    if (k == 2)
      return c[1] == 0;
    if (k == 1)
      continue;
    for (; lo->name; lo++)
      if (!strcmp(lo->name, a + 1))
        return x_err(err, errlen, "unknown option '%s' (long options take two dashes: '-%s')", a, a);
    return x_err(err, errlen, "unknown option '%s'", a);
  }
  return 0;
}

/* One smpirun word at argv[*i]. Returns 0 or -1 with err. */
static int take_word(cli_words *w, const smpi_word *s, int argc, char **argv, int *i, FILE *note, char *err,
                     size_t errlen) {
  if (s->arg && *i + 1 >= argc)
    return x_err(err, errlen, "option '%s' needs an argument", s->word);
  if (s->refused)
    return x_err(err, errlen, "%s: %s", s->word, s->why);
  if (!s->to) {
    if (note)
      fprintf(note, "tir-replay: note: %s ignored (smpirun's option %s; no effect on a replay)\n", s->word, s->why);
    *i += s->arg;
    return 0;
  }
  char *to = x_strdup(s->to);
  w->own[w->nown++] = to;
  add(w, to, argv[*i]);
  if (s->arg)
    ++*i, add(w, argv[*i], argv[*i]);
  return 0;
}

/* How argv[i] (not an smpirun word) is kept: 1 when the next argument is its value, 0 when
 * not, -1 with err for an unknown option; *rest becomes 1 at "--" (operands only after). */
static int kind_of(const char *a, int *rest, const char *optstring, const struct option *lo, char *err,
                   size_t errlen) {
  if (*rest || a[0] != '-' || a[1] == 0)
    return 0;
  if (!strcmp(a, "--"))
    return *rest = 1, 0;
  if (a[1] == '-')
    return long_takes_next(a, lo);
  return check_cluster(a, optstring, lo, err, errlen);
}

int cli_smpi_rewrite(int argc, char **argv, const char *optstring, const struct option *lo, cli_words *w,
                     FILE *note, char *err, size_t errlen) {
  memset(w, 0, sizeof *w);
  w->argv = x_malloc(((size_t)argc + 1) * sizeof *w->argv);
  w->built = x_malloc(((size_t)argc + 1) * sizeof *w->built);
  w->orig = x_malloc(((size_t)argc + 1) * sizeof *w->orig);
  w->own = x_malloc(((size_t)argc + 1) * sizeof *w->own);
  add(w, argv[0], argv[0]);
  int rest = 0;
  for (int i = 1; i < argc; i++) {
    char *a = argv[i];
    const smpi_word *s = rest || a[0] != '-' ? NULL : find_word(a);
    if (s && take_word(w, s, argc, argv, &i, note, err, errlen) < 0)
      return -1;
    if (s)
      continue;
    if (!rest && !strncmp(a, "--log=", 6)) {
      if (note)
        fprintf(note, "tir-replay: note: %s ignored (SimGrid's logging; -v logs every action)\n", a);
      continue;
    }
    int next = kind_of(a, &rest, optstring, lo, err, errlen);
    if (next < 0)
      return -1;
    add(w, a, a);
    if (next && i + 1 < argc)
      ++i, add(w, argv[i], argv[i]);
  }
  return w->argc;
}

const char *cli_smpi_orig(const cli_words *w, const char *arg) {
  for (int i = 0; i < w->argc; i++)
    if (w->built[i] == arg)
      return w->orig[i];
  return arg;
}

void cli_words_free(cli_words *w) {
  for (int i = 0; i < w->nown; i++)
    free(w->own[i]);
  free(w->own);
  free(w->argv);
  free(w->built);
  free(w->orig);
  memset(w, 0, sizeof *w);
}
