/* ev_comm.c - hooks of the communicator constructors and MPI_Comm_free.
 *
 * Each new communicator gets an id agreed by its members (tt_comm.h) and one line:
 *   tir mode:      `comm_split ID SIZE w0 .. w(SIZE-1)` (or comm_dup / comm_create for the
 *                  other constructors), the world ranks of the members in their new rank
 *                  order; a rank left out (MPI_COMM_NULL) writes `comm_split -1 0`.
 *   SimGrid mode:  `comm_split` / `comm_dup` (no-ops in SimGrid's replay); the other
 *                  constructors are tir-only lines, written as comments.
 * MPI_Comm_free writes nothing: ids are never reused, so a freed id is simply not named
 * again. */
#include "tt.h"
#include "tt_comm.h"
#include "tt_out.h"

void tt_comm_line(struct tt_call *c, const char *action, int simgrid_knows, MPI_Comm newcomm) {
  struct tt_comm *k = newcomm == MPI_COMM_NULL ? NULL : tt_comm_register(newcomm);
  if (tt.simgrid && simgrid_knows) {
    tt_ln(c, action);
  } else {
    tt_ln_ext(c, action);
    tt_out_int(k ? k->id : -1);
    tt_out_int(k ? k->size : 0);
    for (int i = 0; k && i < k->size; i++)
      tt_out_int(k->world[i]);
  }
  tt_out_end();
}

void tt_post_Comm_split(struct tt_call *c, MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
  (void)comm, (void)color, (void)key;
  tt_comm_line(c, TT_KW(COMM_SPLIT), 1, *newcomm);
}

void tt_post_Comm_dup(struct tt_call *c, MPI_Comm comm, MPI_Comm *newcomm) {
  (void)comm;
  tt_comm_line(c, TT_KW(COMM_DUP), 1, *newcomm);
}

void tt_post_Comm_create(struct tt_call *c, MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm) {
  (void)comm, (void)group;
  tt_comm_line(c, TT_KW(COMM_CREATE), 0, *newcomm);
}

void tt_post_Comm_split_type(struct tt_call *c, MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm) {
  (void)comm, (void)split_type, (void)key, (void)info;
  tt_comm_line(c, TT_KW(COMM_SPLIT), 1, *newcomm);
}

void tt_post_Comm_create_group(struct tt_call *c, MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm) {
  (void)comm, (void)group, (void)tag;
  tt_comm_line(c, TT_KW(COMM_CREATE), 0, *newcomm);
}

void tt_post_Cart_create(struct tt_call *c, MPI_Comm old_comm, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm *comm_cart) {
  (void)old_comm, (void)ndims, (void)dims, (void)periods, (void)reorder;
  tt_comm_line(c, TT_KW(COMM_CREATE), 0, *comm_cart);
}

void tt_post_Cart_sub(struct tt_call *c, MPI_Comm comm, const int remain_dims[], MPI_Comm *new_comm) {
  (void)comm, (void)remain_dims;
  tt_comm_line(c, TT_KW(COMM_SPLIT), 1, *new_comm);
}

void tt_pre_Comm_free(struct tt_call *c, MPI_Comm *comm) {
  (void)c;
  tt_comm_forget(*comm);
}
void tt_post_Comm_free(struct tt_call *c, MPI_Comm *comm) { (void)c, (void)comm; }
