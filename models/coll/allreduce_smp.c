/* allreduce_smp.c - SimGrid 3.32's SMP-aware allreduces smp_binomial,
 * smp_binomial_pipeline and smp_rdb (src/smpi/colls/allreduce/allreduce-smp-*.cpp).
 *
 * With c ranks per host (SimGrid's num_core: the size of the host's part of the
 * communicator when every host holds as many ranks, else 1) and ranks placed host by
 * host, rank r is local rank r % c of host r / c, whose leader is the local rank 0. Each
 * host first reduces up a binomial tree of local ranks to its leader; the leaders then
 * combine their vectors (smp_binomial: binomial reduce to leader 0 and binomial bcast
 * back; smp_rdb: MPICH's recursive doubling over leader indices) and every host bcasts
 * the result down a binomial tree from its leader. smp_binomial_pipeline cuts the vector
 * into segments of 4096 elements (the count % 4096 rest is never sent, as in SimGrid)
 * and runs the four stages as a pipeline: in phase k, segment k is reduced inside hosts,
 * k - 1 between leaders, k - 2 broadcast between leaders and k - 3 inside hosts. The
 * copy of the input into the output is a sendrecv to self: no message. SimGrid checks
 * the children of the host trees against N only (a host's last rank then waits for, or
 * sends to, the next host's leader when c is not a power of two): so does tir under
 * tir/simgrid-compat, else it keeps them in the host (coll_smp_host_end). All first
 * build SimGrid's SMP view (coll_smp.c). */
#include "coll_algos.h"

#define T COLL_TAG_ALLREDUCE

/* Binomial reduce of the c local ranks of r's host to its leader. */
void coll_smp_intra_reduce(coll_prog *p, int r, int c, int n, int tag, int64_t b) {
  int intra = r % c, base = r / c * c;
  for (int mask = 1; mask < c; mask <<= 1) {
    if ((mask & intra) == 0) {
      if (base + (intra | mask) < coll_smp_host_end(r, c, n))
        coll_recv(p, base + (intra | mask), tag, b);
    } else {
      coll_send(p, base + (intra & ~mask), tag, b);
      break;
    }
  }
}

/* Binomial bcast from the leader of r's host to its local ranks (the last host may hold
 * fewer). */
void coll_smp_intra_bcast(coll_prog *p, int r, int c, int n, int tag, int64_t b) {
  int intra = r % c, inter = r / c, base = inter * c, hosts = (n + c - 1) / c;
  int local = inter == hosts - 1 ? n - base : c, mask = 1;
  for (; mask < local; mask <<= 1)
    if (intra & mask) {
      coll_recv(p, base + intra - mask, tag, b);
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (base + intra + mask < coll_smp_host_end(r, c, n))
      coll_send(p, base + intra + mask, tag, b);
}

/* Binomial reduce of the host leaders to leader 0 (r a leader). */
static void inter_reduce(coll_prog *p, int r, int c, int n, int64_t b) {
  int inter = r / c, hosts = (n + c - 1) / c;
  for (int mask = 1; mask < hosts; mask <<= 1) {
    if ((mask & inter) == 0) {
      if ((inter | mask) * c < n)
        coll_recv(p, (inter | mask) * c, T, b);
    } else {
      coll_send(p, (inter & ~mask) * c, T, b);
      break;
    }
  }
}

/* Binomial bcast from leader 0 to the host leaders (r a leader). */
static void inter_bcast(coll_prog *p, int r, int c, int n, int64_t b) {
  int inter = r / c, hosts = (n + c - 1) / c, mask = 1;
  for (; mask < hosts; mask <<= 1)
    if (inter & mask) {
      coll_recv(p, (inter - mask) * c, T, b);
      break;
    }
  for (mask >>= 1; mask > 0; mask >>= 1)
    if ((inter + mask) * c < n)
      coll_send(p, (inter + mask) * c, T, b);
}

void coll_allreduce_smp_binomial(const coll_args *a, coll_prog *p) {
  int c = coll_smp_cores(a, p, NULL), r = a->rank, n = a->size;
  coll_smp_intra_reduce(p, r, c, n, T, a->sbytes);
  if (r % c == 0) {
    inter_reduce(p, r, c, n, a->sbytes);
    inter_bcast(p, r, c, n, a->sbytes);
  }
  coll_smp_intra_bcast(p, r, c, n, T, a->sbytes);
}

void coll_allreduce_smp_binomial_pipeline(const coll_args *a, coll_prog *p) {
  int c = coll_smp_cores(a, p, NULL), r = a->rank, n = a->size, lead = r % c == 0;
  int64_t pcount = a->count < 4096 ? a->count : 4096;
  int64_t phases = pcount > 0 ? a->count / pcount : 0, b = pcount * a->dtsize;
  for (int64_t ph = 0; ph < phases + 3; ph++) {
    if (ph < phases)
      coll_smp_intra_reduce(p, r, c, n, T, b);
    if (lead && ph > 0 && ph < phases + 1)
      inter_reduce(p, r, c, n, b);
    if (lead && ph > 1 && ph < phases + 2)
      inter_bcast(p, r, c, n, b);
    if (ph > 2)
      coll_smp_intra_bcast(p, r, c, n, T, b);
  }
}

/* MPICH's recursive doubling allreduce over the host leaders (r a leader). */
static void inter_rdb(coll_prog *p, int r, int c, int n, int64_t b) {
  int inter = r / c, hosts = (n + c - 1) / c, pof2 = coll_pof2_floor(hosts);
  int rem = hosts - pof2, nr = inter < 2 * rem ? (inter % 2 ? inter / 2 : -1) : inter - rem;
  if (inter < 2 * rem && inter % 2 == 0)
    coll_send(p, r + c, T, b);
  else if (inter < 2 * rem)
    coll_recv(p, r - c, T, b);
  if (nr != -1)
    for (int mask = 1; mask < pof2; mask <<= 1) {
      int nd = nr ^ mask, dst = (nd < rem ? nd * 2 + 1 : nd + rem) * c;
      coll_sendrecv(p, dst, b, dst, b, T);
    }
  if (inter < 2 * rem && inter % 2)
    coll_send(p, r - c, T, b);
  else if (inter < 2 * rem)
    coll_recv(p, r + c, T, b);
}

void coll_allreduce_smp_rdb(const coll_args *a, coll_prog *p) {
  int c = coll_smp_cores(a, p, NULL), r = a->rank, n = a->size;
  coll_smp_intra_reduce(p, r, c, n, T, a->sbytes);
  if (r % c == 0)
    inter_rdb(p, r, c, n, a->sbytes);
  coll_smp_intra_bcast(p, r, c, n, T, a->sbytes);
}
