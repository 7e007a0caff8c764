/* tt_comm.c - communicator table of libtirtrace (see tt_comm.h).
 *
 * A plain array searched linearly, newest first: applications hold a handful of
 * communicators and MPI_COMM_WORLD never reaches the table (fast path). Cost O(#comms)
 * per call on a sub-communicator; a hash on the handle would be the fix if it ever shows. */
#include "tt_comm.h"

#include <stdlib.h>
#include <string.h>

#include "tt.h"

static struct tt_comm world = {MPI_COMM_NULL, 0, 0, NULL, 0, 1, 0}; /* MPI_COMM_WORLD */
static struct tt_comm **all;  /* every entry ever made, freed ones included */
static size_t nall, capall;   /* count and capacity of all */
static MPI_Group world_group = MPI_GROUP_NULL; /* group of MPI_COMM_WORLD, for translation */

static struct tt_comm *find(MPI_Comm comm) {
  for (size_t i = nall; i-- > 0;)
    if (all[i]->handle == comm)
      return all[i];
  return NULL;
}

int *tt_group_world(MPI_Group g, int *n) {
  if (world_group == MPI_GROUP_NULL)
    PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
  PMPI_Group_size(g, n);
  int *ranks = x_malloc((size_t)(*n ? *n : 1) * sizeof *ranks);
  int *world = x_malloc((size_t)(*n ? *n : 1) * sizeof *world);
  for (int i = 0; i < *n; i++)
    ranks[i] = i;
  PMPI_Group_translate_ranks(g, *n, ranks, world_group, world);
  free(ranks);
  return world;
}

/* Fill k's size and member list from comm's group. */
static void learn(struct tt_comm *k, MPI_Comm comm) {
  PMPI_Comm_test_inter(comm, &k->inter);
  MPI_Group g;
  PMPI_Comm_group(comm, &g);
  k->world = tt_group_world(g, &k->size);
  PMPI_Group_free(&g);
  PMPI_Comm_rank(comm, &k->me);
  k->is_world = k->size == tt.np && !k->inter;
  for (int i = 0; k->is_world && i < k->size; i++)
    k->is_world = k->world[i] == i;
}

static struct tt_comm *add(MPI_Comm comm, int id) {
  struct tt_comm *k = x_calloc(1, sizeof *k);
  k->handle = comm;
  k->id = id;
  learn(k, comm);
  x_grow(&all, &capall, nall + 1, sizeof *all);
  all[nall++] = k;
  return k;
}

struct tt_comm *tt_comm_get(MPI_Comm comm) {
  if (comm == MPI_COMM_WORLD) {
    world.size = tt.np;
    world.me = tt.rank;
    return &world;
  }
  struct tt_comm *k = find(comm);
  return k ? k : add(comm, -1);
}

int tt_comm_world(const struct tt_comm *k, int r) {
  if (!k->world || r < 0 || r >= k->size)
    return r;
  return k->world[r];
}

struct tt_comm *tt_comm_register(MPI_Comm comm) {
  int mine = tt.next_comm_id, id = 0;
  PMPI_Allreduce(&mine, &id, 1, MPI_INT, MPI_MAX, comm);
  tt.next_comm_id = id + 1;
  struct tt_comm *k = find(comm);
  if (k)
    k->handle = MPI_COMM_NULL; /* a stale entry of a reused handle */
  return add(comm, id);
}

void tt_comm_forget(MPI_Comm comm) {
  struct tt_comm *k = find(comm);
  if (k)
    k->handle = MPI_COMM_NULL;
}

void tt_comm_clear(void) {
  for (size_t i = 0; i < nall; i++) {
    free(all[i]->world);
    free(all[i]);
  }
  free(all);
  all = NULL;
  nall = capall = 0;
  if (world_group != MPI_GROUP_NULL)
    PMPI_Group_free(&world_group);
}
