/* net_fluid.c - the plain fluid model: time L + S / B with max-min sharing.
 *
 * Latency = the route's raw latency, the flow's share of every link is max-min fair with
 * equal weights, no size-dependent factor, no TCP window bound, no cross-traffic: the
 * textbook model the hybrid-model paper compares against. */
#include "net.h"

static void fluid_flow(const config *c, double payload, const net_path *p, net_flow *f) {
  (void)c;
  (void)payload;
  f->latency = p->latency;
  f->bound = -1;
  f->penalty = 1.0;
  f->factor = 1.0;
  f->back_coeff = 0;
  f->shared = 1;
}

const net_model net_fluid = {"fluid", "L + S/B, max-min sharing, no factors", fluid_flow};
