/* tt_comm.h - the communicators a rank knows: id, size and world rank of each member.
 *
 * The trace names peers by MPI_COMM_WORLD rank, so every communicator carries the world
 * rank of each of its members. Communicators created by the wrapped calls (comm_split,
 * comm_dup, ...) get an id agreed by their members (tt_comm_agree_id: max over members of a
 * per-rank counter, then every member's counter passes it), so two communicators that share
 * a member never share an id, and (rank, id) names one communicator in the whole trace.
 * MPI_COMM_WORLD is id 0. Others (MPI_COMM_SELF, communicators from unwrapped calls) are
 * learnt on first use with id -1: point-to-point on them is translated, collectives are not
 * expressible. Entries are never freed before tt_comm_clear, so requests may point at them
 * after MPI_Comm_free. */
#ifndef TT_COMM_H
#define TT_COMM_H

#include <mpi.h>

struct tt_comm {
  MPI_Comm handle; /* the C handle (MPI_COMM_NULL once freed) */
  int id;          /* 0 = world, >0 agreed id, -1 unknown to the other ranks */
  int size;        /* number of members */
  int *world;      /* world rank of member i; NULL for the world itself */
  int inter;       /* an intercommunicator: nothing on it is expressible */
  int is_world;    /* same members in the same order as MPI_COMM_WORLD */
  int me;          /* this rank's rank in it */
};

/* The entry of comm, learnt now if new (never NULL for a valid communicator). */
struct tt_comm *tt_comm_get(MPI_Comm comm);
/* World rank of rank r of k (MPI_PROC_NULL, MPI_ANY_SOURCE and out-of-range ranks pass
 * through unchanged). */
int tt_comm_world(const struct tt_comm *k, int r);
/* Collective over comm's members: agree on a new id and register comm under it. */
struct tt_comm *tt_comm_register(MPI_Comm comm);
/* Collective over newcomm's members (or MPI_COMM_NULL): register it under a new id and
 * write its creation line `action ID SIZE w0 ..` (ev_comm.c; in --simgrid-compatible mode a
 * comment unless simgrid_knows, then the argument-less action). */
struct tt_call;
void tt_comm_line(struct tt_call *c, const char *action, int simgrid_knows, MPI_Comm newcomm);
/* The world ranks of g's members, in group order (*n of them; caller frees). */
int *tt_group_world(MPI_Group g, int *n);
/* Forget the handle (after MPI_Comm_free); the entry stays readable. */
void tt_comm_forget(MPI_Comm comm);
void tt_comm_clear(void);

#endif
