/* config.h - model settings under SimGrid's key names (smpi/bw-factor, network/TCP-gamma, ...).
 *
 * One namespace: every knob has a SimGrid name, a type, a default and a help line in one
 * table (config.c). Precedence: built-in default < platform <config> < --cfg on the
 * command line. Unknown keys are errors that list the known ones. */
#ifndef TIR_CONFIG_H
#define TIR_CONFIG_H

#include <stddef.h>
#include <stdio.h>

/* A piecewise table "T0:v0[:w0];T1:v1[:w1];..." sorted by threshold. */
typedef struct cfg_piece {
  double thresh; /* entry applies above this size (see cfg_factor / cfg_affine) */
  double a, b;   /* factor (a) or affine cost a + b * size (seconds) */
} cfg_piece;

typedef struct cfg_table {
  cfg_piece *v;
  int n;
} cfg_table;

typedef struct config {
  /* network (hybrid model) */
  cfg_table bw_factor, lat_factor; /* smpi/bw-factor, smpi/lat-factor */
  cfg_table os, ois, orecv;        /* smpi/os, smpi/ois, smpi/or */
  double tcp_gamma;                /* network/TCP-gamma (bytes) */
  double weight_s;                 /* network/weight-S */
  int crosstraffic;                /* network/crosstraffic */
  double loopback_bw, loopback_lat;
  /* MPI protocol */
  long async_small_thresh;  /* smpi/async-small-thresh */
  long detached_thresh;     /* smpi/send-is-detached-thresh */
  double test_sleep;        /* smpi/test */
  double iprobe_sleep;      /* smpi/iprobe */
  double iprobe_cpu_usage;  /* smpi/iprobe-cpu-usage */
  int grow_injected;        /* smpi/grow-injected-times */
  int simulate_computation; /* smpi/simulate-computation */
  int finalization_barrier; /* smpi/finalization-barrier */
  double init_sleep;        /* smpi/init */
  /* solver */
  double surf_precision;   /* surf/precision */
  double maxmin_precision; /* maxmin/precision */
  int simgrid_marking;     /* tir/simgrid-marking: SimGrid's selective update (first constraint only) */
  int bundles;             /* tir/bundles: local mode's bundles (lmm_set_bundle_min) */
  int class_restarts;      /* tir/class-restarts: class solves keep the unchanged iterations */
  double rate_tol;         /* tir/rate-tolerance: class mode's (lmm_set_tolerance) */
  int lifo_ties;           /* tir/lifo-ties: equal dates complete last-created first */
  int twin_flows;          /* tir/twin-flows: flows alike share one solver variable (engine.c) */
  int riders;              /* tir/riders: so do flows alike started apart, in class mode (engine.c) */
  int simgrid_compat;      /* tir/simgrid-compat: every SimGrid 3.32 quirk (doc/model.md) */
  int local_solve;         /* tir/local-solve: 0 no, 1 yes, 2 auto, 3 class (lmm_set_local's modes) */
  int polling_simgrid;     /* tir/polling:simgrid: each failed poll replayed as SMPI (else wait) */
  /* collectives: selector and per-collective forced algorithms ("" = selector's choice) */
  char coll_selector[32];
  char coll_algo[16][48]; /* indexed by coll_kind (coll.h) */
  /* plugins */
  int host_energy; /* plugin:host_energy */
  long pstate;     /* host/pstate (-1: each host's own) */
} config;

/* Fills c with the defaults (SimGrid 3.32 smpirun defaults). */
void cfg_init(config *c);
void cfg_free(config *c);

/* Sets one setting from "KEY:VALUE" (or KEY and VALUE apart with cfg_set).
 * Returns 0, or -1 with a message in err (unknown key, listing the known ones; bad value). */
int cfg_set_kv(config *c, const char *kv, char *err, size_t errlen);
int cfg_set(config *c, const char *key, const char *value, char *err, size_t errlen);

/* Factor lookup (bw-factor/lat-factor rule): 1.0 up to the first threshold... entry k
 * applies to T_k < size <= T_{k+1}; above the last threshold the last value. */
double cfg_factor(const cfg_table *t, double size);
/* Affine cost lookup (os/or/ois rule): entry 0 also applies to size <= T_0. */
double cfg_affine(const cfg_table *t, double size);
/* 1 when cfg_affine(t, size) is 0 for every size. */
int cfg_affine_zero(const cfg_table *t);

/* Parses a table string into t (replacing it). Returns 0 or -1 with err. */
int cfg_parse_table(cfg_table *t, const char *s, int affine, char *err, size_t errlen);

/* A module that owns a family of keys (the collectives own smpi/coll-selector and
 * smpi/<collective>): the base layer stores nothing of it but the fields of config. */
typedef struct cfg_owner {
  /* Returns 1 when it took key (value stored in c), 0 when key is not its own, or -1 with a
   * message in err for a bad value. */
  int (*set)(config *c, const char *key, const char *value, char *err, size_t errlen);
  void (*help)(FILE *out); /* its lines of --help-cfg */
  const char *keys;        /* its keys, for the message about an unknown key */
} cfg_owner;

/* Adds o (static storage) to the owners asked, in order, about keys not in the table. */
void cfg_add_owner(const cfg_owner *o);

/* Prints every known key with its default and help (for --help-cfg). */
void cfg_print_keys(FILE *out);
/* Prints the settings that differ from the defaults as "key:value" lines. */
void cfg_print(const config *c, FILE *out);

#endif
