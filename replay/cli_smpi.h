/* cli_smpi.h - smpirun's single-dash options (-np, -platform, -hostfile, -replay, -map,
 * -trace, ...) turned into tir-replay's long options before getopt reads them, and every
 * other single-dash argument checked, so that a bad one is named as the user typed it. */
#ifndef TIR_CLI_SMPI_H
#define TIR_CLI_SMPI_H

#include <getopt.h>
#include <stdio.h>

typedef struct cli_words {
  char **argv;  /* the rewritten command line, NULL-terminated (getopt may permute it) */
  int argc;
  char **built; /* argv as built (never permuted) */
  char **orig;  /* orig[i]: what the user typed for built[i] */
  char **own;   /* the strings made here */
  int nown;
} cli_words;

/* Rewrites argv (optstring and lo: tir-replay's getopt_long options) into w. Options without
 * effect on a replay are dropped with a note on `note` (may be NULL). Returns w->argc, or -1
 * with "message naming the argument" in err (w must still be freed). */
int cli_smpi_rewrite(int argc, char **argv, const char *optstring, const struct option *lo, cli_words *w,
                     FILE *note, char *err, size_t errlen);
/* What the user typed for arg, an element of w->argv (rewritten options: the smpirun word). */
const char *cli_smpi_orig(const cli_words *w, const char *arg);
void cli_words_free(cli_words *w);

#endif
