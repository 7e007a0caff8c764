/* net.h - network model backends: how a message becomes a flow (latency, bound,
 * sharing penalty, rate factor), one file per backend.
 *
 *  hybrid (net_hybrid.c, the default): SimGrid's SMPI model, CM02 + piecewise SMPI
 *          factors, equal to smpirun's;
 *  fluid  (net_fluid.c): latency L, rate max-min shared, no factors, no gamma bound;
 *  loggps (net_loggps.c): LogGPS of the hybrid-model paper, no contention.
 * The engine asks a backend for the parameters of each flow given the route's
 * aggregates (route.h's net_path), then runs the flow. */
#ifndef TIR_NET_H
#define TIR_NET_H

#include "config.h"

/* What a backend needs to know about a route (computed once per host pair). */
typedef struct net_path {
  double latency;     /* sum of the links' latencies (s) */
  double min_bw;      /* smallest link bandwidth (B/s); < 0 for an empty route */
  double lat_ws;      /* latency + weight-S / bandwidth of each link, added one at a time in
                         route order as SimGrid does (its rounding decides ties in the solver) */
  int nlinks;
} net_path;

typedef struct net_flow {
  double latency;     /* duration of the latency phase (s) */
  double bound;       /* bound of the flow's solver variable (B/s, < 0: none) */
  double penalty;     /* sharing penalty once the latency is paid */
  double factor;      /* effective rate = factor x the solver's share */
  double back_coeff;  /* coefficient on the reverse route's links (0: none) */
  int shared;         /* 0: contention-free, rate = bound (no solver variable) */
} net_flow;

typedef struct net_model {
  const char *name;
  const char *desc;
  /* Parameters of a flow of `payload` bytes (message bytes + 16) on path p. */
  void (*flow)(const config *c, double payload, const net_path *p, net_flow *out);
} net_model;

/* The backend called name ("hybrid", "fluid", "loggps"), or NULL. */
const net_model *net_model_find(const char *name);
const char *net_model_names(void);

extern const net_model net_hybrid, net_fluid, net_loggps;

#endif
