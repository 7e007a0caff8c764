/* comm.h - communicators of a replay (tir's extension of the TI format: comm_split and
 * comm_dup with their arguments, actions tagged `comm=ID:SIZE`; doc/communicators.md).
 *
 * Communicator 0 is MPI_COMM_WORLD. A creation (split or dup) is collective over its
 * parent: the k-th creation call of every member of a parent belongs to the same
 * creation, which completes when all members have called it; new communicators are then
 * numbered globally in a deterministic order (parent, creation, color). */
#ifndef TIR_COMM_H
#define TIR_COMM_H

typedef struct comm_t {
  int id;        /* global id, 0 = world */
  int size;
  int *members;  /* world rank of each communicator rank */
  int *rank_of;  /* communicator rank of each world rank, -1 if not a member */
  int *next_seq; /* per communicator rank: creations called so far on this parent */
} comm_t;

typedef struct comm_reg comm_reg;

comm_reg *comm_reg_new(int np);
void comm_reg_free(comm_reg *r);
const comm_t *comm_get(const comm_reg *r, int id);

/* Member crank of parent calls its next creation with color (< 0: MPI_UNDEFINED) and key.
 * Returns 0 while members are missing; 1 when this call completed the creation: then
 * out[i] is the global id of parent rank i's new communicator (-1 for none), for every i
 * (out has parent->size entries). */
int comm_create_arrive(comm_reg *r, int parent, int crank, int color, int key, int *out);

#endif
