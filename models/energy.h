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

/* ====== results (energy_query.c), read by the writers of output/energy_report.c ====== */
double energy_total(const energy *en);
/* Joules of host i (plat_host_at index) so far. */
double energy_host(const energy *en, int i);
/* Joules attributed to code region name (NULL: outside any region), over all hosts;
 * parts (if not NULL) gets {static, dynamic, polling}. 0 for a region never seen. */
double energy_region(const energy *en, const char *name, double parts[3]);

typedef struct energy_host_info {
  const char *name; /* borrowed from the platform */
  double energy;    /* joules */
  int pstate, cores;
  int used;         /* a core computed during a positive time (SimGrid's "used host") */
  int has_profile;  /* wattage_per_state given */
  size_t nslots;    /* region slots of the host (slot 0: outside any region) */
} energy_host_info;
int energy_host_count(const energy *en);
void energy_host_view(const energy *en, int i, energy_host_info *out);
/* Slot k of host i: returns its region id, parts gets {static, dynamic, polling} joules. */
size_t energy_host_slot(const energy *en, int i, size_t k, double parts[3]);
/* Regions by id, id 0 being "outside any region" (name NULL). */
size_t energy_region_count(const energy *en);
const char *energy_region_name(const energy *en, size_t id);
/* Joules of region id over all hosts (returned), parts gets {static, dynamic, polling}. */
double energy_region_parts(const energy *en, size_t id, double parts[3]);
double energy_end(const energy *en); /* the date up to which energy was integrated */
/* The power log: record i says host draws watts from t on; 0 for a cancelled record. */
int energy_power_log_kept(const energy *en);
size_t energy_power_log_count(const energy *en);
int energy_power_log_at(const energy *en, size_t i, double *t, const char **host, double *watts);

/* The power log behind output_power_trace writes is kept by default (one record per
 * change of a host's power); call with keep = 0 before the replay to save that memory
 * when no power trace is wanted. */
void energy_keep_power_trace(energy *en, int keep);

/* SimGrid's first-update pstate quirk (doc/energy.md), on by default: until SimGrid's
 * plugin first updates a host, it charges pstate 0's wattages; a host that never
 * computes draws pstate 0's Idle throughout. Call with on = 0 before the replay to
 * charge every host at its own pstate from the start. */
void energy_simgrid_quirks(energy *en, int on);


#endif
