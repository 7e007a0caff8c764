/* comm.h - communicators of a replay (tir's extension of the TI format, written by
 * tir-trace: `comm_split|comm_dup|comm_create ID SIZE w0 .. w(SIZE-1)` lines and
 * collectives prefixed `comm ID`; doc/communicators.md).
 *
 * Communicator 0 is MPI_COMM_WORLD. The tracer gives every other communicator an id its
 * members agreed on: unique for each member (two disjoint communicators may share one),
 * so (id, world rank) names a communicator. Each member writes the creation line with the
 * members' world ranks in communicator rank order: the first member to reach the line
 * registers the communicator, the others check they wrote the same members. */
#ifndef TIR_COMM_H
#define TIR_COMM_H

#include <stddef.h>
#include <stdint.h>

typedef struct comm_t {
  int id;       /* the trace's id, 0 = world */
  int size;
  int *members; /* world rank of each communicator rank */
  int *rank_of; /* communicator rank of each world rank, -1 if not a member */
} comm_t;

typedef struct comm_reg comm_reg;

comm_reg *comm_reg_new(int np);
void comm_reg_free(comm_reg *r);
/* The communicator id of world rank `rank`, or NULL when none was registered. */
const comm_t *comm_get(const comm_reg *r, int id, int rank);
/* Registers id with members w[0..size) (world ranks), or checks them against the
 * registered ones. Returns 0, or -1 with a message in err (other members, a rank out of
 * range or listed twice). */
int comm_register(comm_reg *r, int id, const int64_t *w, int size, char *err, size_t errlen);

#endif
