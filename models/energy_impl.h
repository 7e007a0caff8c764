/* energy_impl.h - the energy model's internals, shared by energy.c (state and
 * integration), energy_props.c (host power profiles) and energy_report.c (outputs).
 *
 * Ownership: an energy object owns its hosts, ranks, region names and power log; it
 * borrows the platform. Every host has a power profile for its active pstate (fixed for
 * the whole replay) and a list of "slots", one per code region seen on that host. Slot 0
 * is always "outside any region". A slot counts the host's ranks currently in that
 * region (all of them, those computing, those polling) and accumulates the joules
 * attributed to the region. Invariant: the counts of a host's slots add up to the
 * host's own counts (nranks, ncomp, npoll). */
#ifndef TIR_ENERGY_IMPL_H
#define TIR_ENERGY_IMPL_H

#include "energy.h"

#include <stddef.h>

#define EN_OUTSIDE 0 /* region id of "outside any region" */

/* A host's power figures at its active pstate (watts). */
typedef struct en_profile {
  int has;          /* 1 if wattage_per_state was given (else the host draws 0 W, as in SimGrid) */
  double idle;      /* all cores idle */
  double eps;       /* static power when anything runs (SimGrid's Epsilon) */
  double max;       /* all cores computing (AllCores) */
  double off;       /* wattage_off (parsed and reported; hosts are never switched off) */
  double poll;      /* all cores polling (wattage_polling), or -1 when the extension is off */
  int nreg;         /* per-region all-cores wattages (wattage_region:NAME) */
  char **reg_name;  /* region names, owned */
  double *reg_watt; /* all-cores wattage of each region at the active pstate */
} en_profile;

/* One code region on one host. */
typedef struct en_slot {
  int region;      /* region id (EN_OUTSIDE or an index in energy.regions) */
  int nranks;      /* ranks of the host whose innermost region this is */
  int ncomp;       /* ...of which computing (OBS_COMPUTE) */
  int npoll;       /* ...of which polling inside MPI (OBS_MPI) */
  double dyn_w;    /* all-cores dynamic power of computing in this region: AllCores_r - Epsilon */
  double e_static; /* joules of static/idle power attributed to this region */
  double e_dyn;    /* joules of dynamic (computing) power */
  double e_poll;   /* joules of polling power */
} en_slot;

typedef struct en_host {
  const char *name;  /* borrowed from the platform */
  int pstate;        /* active pstate */
  int cores;         /* core count (>= 1) */
  en_profile prof;   /* power figures at pstate */
  en_profile prof0;  /* ...at pstate 0, charged until SimGrid's plugin first updates the host */
  int synced;        /* 1 once that happened (always 1 at pstate 0): prof applies */
  int nranks;        /* ranks placed on this host */
  int ncomp, npoll;  /* ranks computing / polling now */
  en_slot *slots;    /* slot 0: outside any region */
  size_t nslots, cap;
  double last;       /* energy is integrated up to this time */
  double power;      /* power drawn since `last` (W) */
  double energy;     /* joules so far (power x time, summed) */
  int used;          /* 1 once a core computed during a positive time (SimGrid's "used host") */
  long last_rec;     /* index of this host's latest power-log record, or -1 */
} en_host;

typedef struct en_rank {
  int host;          /* host index */
  obs_activity act;  /* current activity */
  int *stack;        /* open regions, innermost last (region ids) */
  size_t depth, cap;
  size_t slot;       /* index of the innermost region's slot in the host's slots */
  int op;            /* trace op of the current action, -1 before the first one */
  int probe;         /* 1 inside a recv with a negative count (MPI_Probe: iprobe executions) */
  int nmpi;          /* OBS_MPI periods begun in the current action */
} en_rank;

/* A change of a host's power: from time t on, host draws w watts. */
typedef struct en_rec {
  double t, w;
  int host; /* -1: cancelled (superseded at the same time) */
  long prev; /* the host's previous record, or -1 */
} en_rec;

struct energy {
  const platform *plat; /* borrowed */
  int nhosts;
  en_host *hosts;
  int np;
  en_rank *ranks;
  char **regions;      /* region names by id (regions[0] = NULL: outside) */
  size_t nregions, rcap;
  int keep_log;        /* record the power log (for --power-trace) */
  int quirks;          /* reproduce SimGrid's first-update pstate (see energy.c) */
  int mpi_sleeps;      /* smpi/os or smpi/or non-zero: an OBS_MPI period may be a sleep */
  en_rec *log;
  size_t nlog, logcap;
  double end;          /* the time the replay finished (or the last event seen) */
  int finished;
};

/* energy_props.c: reads host h's power profile at pstate ps into *pr.
 * Returns 0, 1 when wattage_per_state is missing (pr->has = 0), or -1 with
 * "FILE: host H: ..." in err when a property is malformed. */
int en_profile_read(const platform *p, int h, int ps, en_profile *pr, char *err, size_t errlen);
void en_profile_free(en_profile *pr);
/* All-cores wattage of region name in pr, or pr->max when the region has none. */
double en_profile_region(const en_profile *pr, const char *name);

/* energy.c: the power a host draws with its current counts (W). */
double en_host_power(const en_host *h);

#endif
