/* output.h - files tir-replay writes: the report (JSON or CSV), always atomically
 * (written to a temporary file in the same folder, then renamed: a failed write leaves
 * no partial file and never clobbers the previous one). */
#ifndef TIR_OUTPUT_H
#define TIR_OUTPUT_H

#include "replay.h"

#include <stdio.h>

/* Opens a temporary file beside path for writing. Returns NULL with err on failure. */
FILE *output_open(const char *path, char **tmp_path, char *err, size_t errlen);
/* Closes f and renames it to path (or removes it if failed != 0). Returns 0 or -1 with
 * "PATH: reason" in err. Frees tmp_path. */
int output_commit(FILE *f, char *tmp_path, const char *path, int failed, char *err, size_t errlen);

/* Writes s as one CSV field (RFC 4180: quoted when it holds a comma, quote or newline);
 * NULL writes an empty field. */
void output_csv_field(FILE *f, const char *s);

/* Writes s as a JSON string (escaped), or null when s is NULL. */
void output_json_string(FILE *f, const char *s);

/* Writes the report of res to path: JSON if it ends in .json, CSV if .csv. */
struct energy;
/* en: the energy model when energy is on (NULL otherwise). */
int output_report(const char *path, const replay_opts *o, const replay_result *res, const struct energy *en,
                  char *err, size_t errlen);
/* Same, with the statistics observer's figures (per rank p2p/collective time, bytes and
 * messages received, per action kind, per region; st may be NULL). Returns 0, or -1 with
 * "PATH: reason" in err and no file left behind (an existing report is not touched). */
struct stats;
int output_report_stats(const char *path, const replay_opts *o, const replay_result *res, const struct energy *en,
                        const struct stats *st, char *err, size_t errlen);

/* 0 when path names a report (ends in .json or .csv), else -1 with the message in err. */
int output_report_check(const char *path, char *err, size_t errlen);

/* ====== energy (energy_report.c) ====== */
/* Summary lines (DESIGN.md's contract): "Energy of host <name>: <joules> J" per host,
 * then "Total energy: <joules> J", plus per-region lines when regions were seen. */
void output_energy_summary(const struct energy *en, FILE *out);
/* The energy part of the JSON report: a JSON object (no trailing newline). */
void output_energy_json(const struct energy *en, FILE *out);
/* Writes the power-over-time CSV (time, host, watts) to path, atomically. Returns 0 or -1.
 * One row per change of a host's power: "t,H,w" means host H draws w watts from t on;
 * rows at t = 0 give every host's initial power and rows at the end time close them. */
int output_power_trace(const struct energy *en, const char *path, char *err, size_t errlen);

/* ====== the summary (summary.c) ====== */
/* Prints `Simulated time: <s> s`, then unless quiet the run's counts, the trace's counter
 * source (trace.meta) and per-rank times on out; the warning when the hosts' speed scales a
 * CPU-time trace goes to warn (may be NULL). */
void output_summary(FILE *out, const replay_opts *o, const replay_result *r, int quiet, FILE *warn);

#endif
