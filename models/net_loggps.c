/* net_loggps.c - LogGPS (Ino et al.), as the hybrid-model paper uses it for comparison.
 *
 * No contention: a message of k bytes takes L + (k - 1) G on the wire, with L the
 * route's latency and G = 1 / (smallest link bandwidth); sender and receiver overheads
 * o are the smpi/os, smpi/ois and smpi/or costs the MPI layer already injects, and the
 * rendez-vous protocol (k >= smpi/send-is-detached-thresh) adds the handshake round
 * trip 2 L before the data moves. Flows never share bandwidth. */
#include "net.h"

static void loggps_flow(const config *c, double payload, const net_path *p, net_flow *f) {
  double k = payload - 16; /* LogGPS counts message bytes, not the envelope */
  f->latency = p->latency + (k >= (double)c->detached_thresh ? 2 * p->latency : 0);
  f->bound = p->min_bw > 0 ? p->min_bw : -1;
  f->penalty = 1.0;
  f->factor = 1.0;
  f->back_coeff = 0;
  f->shared = 0;
}

const net_model net_loggps = {"loggps", "LogGPS: L + (k-1)G, rendez-vous round trip, no contention",
                              loggps_flow};
