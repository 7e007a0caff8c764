/* energy.h - host energy: SimGrid's host_energy plugin and tir's extensions (polling
 * power, per-region workloads, attribution of energy to code regions).
 *
 * The model watches the replay through an observer (observer.h): it knows, for every
 * host and at every moment, how many cores compute (and in which region), poll inside
 * MPI, or idle, and integrates the piecewise-constant power exactly. See doc/energy.md. */
#ifndef TIR_ENERGY_H
#define TIR_ENERGY_H

#include "config.h"
#include "observer.h"
#include "platform.h"

#include <stdio.h>

typedef struct energy energy;

/* Creates the model for platform p (borrowed, must outlive it) with settings c.
 * Returns NULL with "FILE: host H: ..." in err when a host's energy properties are
 * malformed (e.g. wattage_per_state with a count different from the pstates). */
energy *energy_new(const platform *p, const config *c, char *err, size_t errlen);
void energy_free(energy *en);

/* Fills *o with the observer to register in replay_opts.obs. */
void energy_observer(energy *en, replay_observer *o);

/* Summary lines (DESIGN.md's contract): "Energy of host <name>: <joules> J" per host,
 * then "Total energy: <joules> J", plus per-region lines when regions were seen. */
void energy_print(const energy *en, FILE *out);
/* The energy part of the JSON report: a JSON object (no trailing newline). */
void energy_report_json(const energy *en, FILE *out);
double energy_total(const energy *en);
/* Joules of host i (plat_host_at index) so far. */
double energy_host(const energy *en, int i);
/* Joules attributed to code region name (NULL: outside any region), over all hosts;
 * parts (if not NULL) gets {static, dynamic, polling}. 0 for a region never seen. */
double energy_region(const energy *en, const char *name, double parts[3]);

/* The power log behind energy_write_power_trace is kept by default (one record per
 * change of a host's power); call with keep = 0 before the replay to save that memory
 * when no power trace is wanted. */
void energy_keep_power_trace(energy *en, int keep);

/* SimGrid's first-update pstate quirk (doc/energy.md), on by default: until SimGrid's
 * plugin first updates a host, it charges pstate 0's wattages; a host that never
 * computes draws pstate 0's Idle throughout. Call with on = 0 before the replay to
 * charge every host at its own pstate from the start. */
void energy_simgrid_quirks(energy *en, int on);

/* Writes the power-over-time CSV (time, host, watts) to path, atomically. Returns 0 or -1.
 * One row per change of a host's power: "t,H,w" means host H draws w watts from t on;
 * rows at t = 0 give every host's initial power and rows at the end time close them. */
int energy_write_power_trace(const energy *en, const char *path, char *err, size_t errlen);

#endif
