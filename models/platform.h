/* platform.h - hosts, links and routes of a SimGrid v4 platform (the model's topology).
 *
 * A platform is built once (from XML by platform_xml.c, or the built-in default
 * cluster) and is then read-only. Links are *directional resources as the solver sees
 * them*: a SPLITDUPLEX link of the XML becomes two SHARED links "ID_UP" and "ID_DOWN";
 * SHARED and FATPIPE links are one resource used in both directions.
 * Routes of clusters and topologies (flat, torus, fat tree, dragonfly) are computed on
 * demand from the topology, never stored N x N; routes of Full zones are stored as the
 * XML gives them; Floyd/Dijkstra zones compute shortest paths.
 *
 * Ownership: the platform owns every string and array it hands out; pointers stay valid
 * until plat_free(). */
#ifndef TIR_PLATFORM_H
#define TIR_PLATFORM_H

#include <stddef.h>

typedef enum {
  PLAT_SHARED = 0, /* one capacity shared by all flows (both directions) */
  PLAT_FATPIPE = 1 /* each flow individually limited by the bandwidth: no contention */
} plat_sharing;

typedef struct plat_prop {
  char *key;
  char *value;
} plat_prop;

typedef struct plat_link {
  char *name;          /* "9", "cl_link_3_UP", "__loopback__", ... */
  double bandwidth;    /* bytes per second */
  double latency;      /* seconds */
  plat_sharing policy; /* SPLITDUPLEX is already expanded into _UP/_DOWN SHARED links */
  int model_loopback;  /* 1 for SimGrid's model loopback "__loopback__" (bw and latency come
                          from network/loopback-bw and network/loopback-lat: see
                          plat_set_model_loopback) */
} plat_link;

typedef struct plat_host {
  char *name;
  double *speeds; /* flop/s per core, one per pstate (pstate 0 first) */
  int npstates;   /* >= 1 */
  int cores;      /* >= 1 */
  int nprops;
  plat_prop *props; /* <prop> children (cluster props are copied to each host) */
  int pstate;       /* initial pstate: the "pstate" attribute of <host>, else 0 */
} plat_host;

/* A route: the ordered list of link ids from a source host to a destination host. */
typedef struct plat_route {
  int *links;     /* link ids (indices for plat_link_at) */
  size_t n, cap;  /* count, allocated; the buffer is reused by successive plat_get_route calls */
  double latency; /* sum of the links' latencies, in seconds */
} plat_route;

typedef struct platform platform; /* opaque */

/* Loads a SimGrid v4 (v4.1) XML platform with libxml2.
 * Returns NULL on error with a message in err of the form "FILE:LINE:COL: what was
 * expected" (libxml2 errors and semantic errors alike: unknown link in a route, bad unit,
 * duplicate id, unsupported routing, ...). */
platform *plat_load(const char *path, char *err, size_t errlen);

/* The built-in default platform: a flat cluster "tir-default" of n hosts
 * "node-0" ... "node-<n-1>", 1 core, 1 Gf each, private SPLITDUPLEX links of 125 MBps
 * and 50 us, a 2.25 GBps / 500 us backbone, loopback 10 GBps / 0 s (calibrated stencil
 * defaults). */
platform *plat_default_cluster(int n);

void plat_free(platform *p);

int plat_host_count(const platform *p);
const plat_host *plat_host_at(const platform *p, int i);
/* Index of the host named name, or -1. */
int plat_host_find(const platform *p, const char *name);
/* Value of property key of host i, or NULL. */
const char *plat_host_prop(const platform *p, int i, const char *key);

int plat_link_count(const platform *p);
const plat_link *plat_link_at(const platform *p, int i);
/* Sets the bandwidth and latency of the model loopback link(s) (model_loopback == 1). */
void plat_set_model_loopback(platform *p, double bandwidth, double latency);

/* Computes the route from host src to host dst into r (r->links reused and grown as
 * needed; r zero-initialised before first use). Returns 0, or -1 with a message in err
 * ("no route from host A to host B") when the platform has no path between them. */
/* (Named plat_get_route, not plat_route: C forbids a function and a typedef of one name.) */
int plat_get_route(const platform *p, int src, int dst, plat_route *r, char *err, size_t errlen);
void plat_route_free(plat_route *r);

/* Model settings from <config><prop id="KEY" value="VALUE"/></config>, in document
 * order (SimGrid key names; the caller validates them). */
int plat_config_count(const platform *p);
void plat_config_at(const platform *p, int i, const char **key, const char **value);

/* The file the platform came from ("<built-in>" for the default cluster). */
const char *plat_source(const platform *p);

#endif
