/* net_hybrid.c - the hybrid network model: SimGrid 3.32's SMPI model (CM02 + factors).
 *
 * For a payload S (message bytes + 16) on a route of raw latency L (SMPI_MODEL.md 2.2):
 *   latency phase   L x lat-factor(S)
 *   bound           min(smallest link bandwidth, TCP-gamma / (2 L))  (gamma term only if L > 0)
 *   penalty         L + sum_l weight-S / bw_l, added link by link in route order as
 *                   SimGrid does (weight 1.0 when the latency phase is 0, as SimGrid
 *                   creates such a variable with penalty 1 and never updates it)
 *   rate            bw-factor(S) x the solver's share
 *   coefficients    1.0 on each link of the route, 0.05 on the reverse route (crosstraffic). */
#include "net.h"

static void hybrid_flow(const config *c, double payload, const net_path *p, net_flow *f) {
  f->latency = p->latency * cfg_factor(&c->lat_factor, payload);
  f->bound = p->min_bw;
  if (p->latency > 0) {
    double g = c->tcp_gamma / (2.0 * p->latency);
    if (f->bound < 0 || g < f->bound)
      f->bound = g;
  }
  f->penalty = c->weight_s > 0 ? p->lat_ws : p->latency;
  if (!(f->latency > 0))
    f->penalty = 1.0;
  f->factor = cfg_factor(&c->bw_factor, payload);
  f->back_coeff = c->crosstraffic ? 0.05 : 0;
  f->shared = 1;
}

const net_model net_hybrid = {"hybrid", "SimGrid's SMPI model: CM02 + piecewise factors (default)",
                              hybrid_flow};
