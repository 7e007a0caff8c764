/* check_coll.c - unit tests of the collective library: programs and selectors.
 *
 * Programs are checked by counting what they move, summed over all ranks of one call
 * (messages, bytes, rounds), against formulas derived by hand in the comments; the
 * selectors' decision tables are checked on both sides of their thresholds. */
#include "coll.h"
#include "coll_algos.h"

#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tally {
  long sends;      /* messages sent by all ranks (isend + send) */
  int64_t sbytes;  /* bytes they carry */
  long recvs;      /* receives posted */
  long waits;      /* waitall operations */
  int64_t rbytes_root; /* bytes posted in receives by rank `root` */
  int64_t rbytes;  /* bytes posted in receives by all ranks */
  long xsends;     /* messages between ranks of different hosts (test_nodes set) */
  long rounds;     /* most messages sent by one rank (its sequential steps) */
} tally;

static const int *test_nodes; /* node_of of the next run() (SMP algorithms), or NULL */
static uint32_t test_smp_done = ~0u; /* SMP views built (run() counts the algorithm alone) */
static coll_prog scratch;     /* programs selectors write (SMP views) in decision tests */

/* Adds rank r's op o to t (mine: r's sends so far). */
static void tally_op(tally *t, const coll_op *o, int r, int n, int root, long *mine) {
  if (o->op == COLL_OP_ISEND || o->op == COLL_OP_SEND) {
    t->sends++, t->sbytes += o->bytes, (*mine)++;
    if (test_nodes && o->peer < n && test_nodes[o->peer] != test_nodes[r])
      t->xsends++;
  } else if (o->op == COLL_OP_IRECV || o->op == COLL_OP_RECV) {
    t->recvs++, t->rbytes += o->bytes;
    if (r == root)
      t->rbytes_root += o->bytes;
  } else if (o->op == COLL_OP_WAITALL)
    t->waits++;
  if (o->op != COLL_OP_WAIT && o->op != COLL_OP_WAITALL)
    ck_assert_int_lt(o->peer, n);
}

/* Runs algorithm name of kind on every rank of an n-rank call; sums the programs (a
 * series counted post by post). */
static tally run(coll_kind kind, const char *name, int n, int root, int64_t bytes, const int64_t *v) {
  tally t = {0};
  coll_prog p = {0};
  for (int r = 0; r < n; r++) {
    long mine = 0;
    coll_args a = {.kind = kind, .rank = r, .size = n, .root = root, .sbytes = bytes, .rbytes = bytes,
                   .count = bytes, .dtsize = 1, .scounts = v, .rcounts = v, .node_of = test_nodes,
                   .smp_done = test_smp_done, .smp_blocked = 1};
    if (kind == COLL_ALLGATHERV && v) /* a rank's own block is its entry of the counts */
      a.sbytes = v[r];
    const coll_algo *al = coll_generate(&a, 0, name, &p);
    ck_assert_str_eq(al->name, name);
    for (size_t i = 0, at = 0; i < p.n; at = i) {
      int j = 0;
      do {
        coll_op o = coll_prog_op(&p, at, j);
        tally_op(&t, &o, r, n, root, &mine);
        coll_prog_next(&p, &i, &j);
      } while (j > 0);
    }
    t.rounds = mine > t.rounds ? mine : t.rounds;
  }
  coll_prog_free(&p);
  return t;
}

START_TEST(alltoall_basic_linear_series) {
  /* Rank 2 of 5: irecvs from 3, 4, 0, 1 and isends to 1, 0, 4, 3 (Open MPI's order), held
   * as two series and a waitall (5 ops, not 9); read back post by post. */
  coll_prog p = {0};
  coll_args a = {.kind = COLL_ALLTOALL, .rank = 2, .size = 5, .sbytes = 10, .rbytes = 20, .dtsize = 1};
  coll_generate(&a, 0, "basic_linear", &p);
  ck_assert_uint_eq(p.n, 5);
  static const int peer[] = {3, 4, 0, 1, 1, 0, 4, 3};
  size_t i = 0;
  int j = 0, k = 0;
  for (; k < 8; k++) {
    coll_op o = coll_prog_op(&p, i, j);
    ck_assert_int_eq(o.op, k < 4 ? COLL_OP_IRECV : COLL_OP_ISEND);
    ck_assert_int_eq(o.peer, peer[k]);
    ck_assert_int_eq(o.bytes, k < 4 ? 20 : 10);
    ck_assert_int_eq(o.tag, COLL_TAG_ALLTOALL);
    coll_prog_next(&p, &i, &j);
  }
  ck_assert_int_eq(coll_prog_op(&p, i, j).op, COLL_OP_WAITALL);
  coll_prog_next(&p, &i, &j);
  ck_assert_uint_eq(i, p.n);
  /* Request indices: a series takes count of them; two posts are two plain ops. */
  coll_prog_reset(&p);
  ck_assert_int_eq(coll_isend_series(&p, 0, 4, -1, 5, 7, 1), 0); /* to 0, 4, 3, 2 */
  ck_assert_int_eq(coll_irecv_series(&p, 1, 2, -1, 5, 7, 1), 4); /* from 1, 0 */
  ck_assert_int_eq(coll_isend(&p, 3, 7, 1), 6);
  ck_assert_uint_eq(p.n, 5);
  ck_assert_int_eq(coll_prog_op(&p, 0, 3).peer, 2);
  ck_assert_int_eq(coll_prog_op(&p, 3, 0).peer, 0);
  ck_assert_int_eq(run(COLL_ALLTOALL, "basic_linear", 7, 0, 10, NULL).sends, 42);
  /* nbc_linear's allgather, rank 3 of 7: an isend then an irecv with 0, 1, 2, 4, 5, 6, as
   * two series of that pair (7 ops with the waitall, not 13). */
  coll_args g = {.kind = COLL_ALLGATHER, .rank = 3, .size = 7, .sbytes = 8, .rbytes = 8, .dtsize = 1};
  coll_generate(&g, 0, "nbc_linear", &p);
  ck_assert_uint_eq(p.n, 7);
  static const int gpeer[] = {0, 1, 2, 4, 5, 6};
  i = 0, j = 0;
  for (k = 0; k < 12; k++) {
    coll_op o = coll_prog_op(&p, i, j);
    ck_assert_int_eq(o.op, k % 2 ? COLL_OP_IRECV : COLL_OP_ISEND);
    ck_assert_int_eq(o.peer, gpeer[k / 2]);
    coll_prog_next(&p, &i, &j);
  }
  ck_assert_int_eq(coll_prog_op(&p, i, j).op, COLL_OP_WAITALL);
  /* The pair the other way round (non-blocking barrier's root): irecv then isend. */
  coll_prog_reset(&p);
  ck_assert_int_eq(coll_pair_series(&p, 1, 3, 1, 4, 7, 5, 6, 0), 0);
  ck_assert_int_eq(p.nreq, 6);
  i = 0, j = 0;
  for (k = 0; k < 6; k++) {
    coll_op o = coll_prog_op(&p, i, j);
    ck_assert_int_eq(o.op, k % 2 ? COLL_OP_ISEND : COLL_OP_IRECV);
    ck_assert_int_eq(o.bytes, k % 2 ? 5 : 6);
    ck_assert_int_eq(o.peer, 1 + k / 2);
    coll_prog_next(&p, &i, &j);
  }
  ck_assert_uint_eq(i, p.n);
  coll_prog_free(&p);
}
END_TEST

START_TEST(barrier_recursivedoubling_6) {
  /* n = 6: pof2 = 4, rem = 2. Ranks 4, 5 sendrecv with 0, 1 (2 sends); 0..3 exchange at
   * distances 1 and 2 (4 x 2 = 8 sends); 0, 1 release 4, 5 (2 sends): 12 empty sends. */
  tally t = run(COLL_BARRIER, "ompi_recursivedoubling", 6, 0, 0, NULL);
  ck_assert_int_eq(t.sends, 12);
  ck_assert_int_eq(t.recvs, 12);
  ck_assert_int_eq(t.sbytes, 0);
}
END_TEST

START_TEST(barrier_bruck_tree) {
  /* bruck, n = 5: ceil(log2 5) = 3 rounds, one send per rank per round: 15. */
  ck_assert_int_eq(run(COLL_BARRIER, "ompi_bruck", 5, 0, 0, NULL).sends, 15);
  /* tree, n = 5: up then down the same 4-edge binomial tree: 2 x 4 = 8. */
  ck_assert_int_eq(run(COLL_BARRIER, "ompi_tree", 5, 0, 0, NULL).sends, 8);
}
END_TEST

START_TEST(allgather_blocks) {
  /* Every rank ends with N blocks and starts with one; ring, bruck and rdb never send a
   * block twice to the same rank, so all ranks together receive N (N - 1) blocks:
   * N = 6, 7 bytes a block: 6 x 5 x 7 = 210 bytes. rdb at N = 6 takes its fix-up path
   * (the subtree {4, 5} of distance 4 is clipped). */
  const char *algs[] = {"ring", "bruck", "rdb", "NTSLR", "NTSLR_NB", "spreading_simple"};
  for (size_t i = 0; i < sizeof algs / sizeof *algs; i++)
    ck_assert_int_eq(run(COLL_ALLGATHER, algs[i], 6, 0, 7, NULL).sbytes, 210);
  /* neighbor exchange, N = 6: a 1-block exchange, then N/2 - 1 = 2 of 2 blocks: per rank
   * 5 blocks. */
  ck_assert_int_eq(run(COLL_ALLGATHER, "ompi_neighborexchange", 6, 0, 7, NULL).sbytes, 210);
  /* bruck, N = 7: rounds of 1, 2 blocks, then the remainder 7 - 4 = 3: 3 sends a rank. */
  ck_assert_int_eq(run(COLL_ALLGATHER, "bruck", 7, 0, 1, NULL).sends, 21);
}
END_TEST

START_TEST(gather_scatter_binomial) {
  /* Binomial tree on 7 ranks rooted at 3: 6 edges, one message each; the root receives
   * the 6 other blocks (b = 5: 30 bytes). Virtual rank v sends (gather) or receives
   * (scatter) its subtree, min(lowbit(v), N - v) blocks: v = 1..6 give 1, 2, 1, 3, 1, 1,
   * 9 blocks = 45 bytes in all. */
  tally g = run(COLL_GATHER, "ompi_binomial", 7, 3, 5, NULL);
  ck_assert_int_eq(g.sends, 6);
  ck_assert_int_eq(g.rbytes_root, 30);
  ck_assert_int_eq(g.sbytes, 45);
  tally s = run(COLL_SCATTER, "ompi_binomial", 7, 3, 5, NULL);
  ck_assert_int_eq(s.sends, 6);
  ck_assert_int_eq(s.sbytes, 45);
}
END_TEST

START_TEST(gather_linear_sync_segments) {
  /* Blocks of 100000 B > 92160: first segment 32768 B, rest 67232 B; 4 ranks, root 0:
   * 3 empty go-aheads + 3 x 2 data sends = 9 sends, 3 x 100000 data bytes. */
  tally t = run(COLL_GATHER, "ompi_linear_sync", 4, 0, 100000, NULL);
  ck_assert_int_eq(t.sends, 9);
  ck_assert_int_eq(t.sbytes, 300000);
  /* Blocks of 92160 B: first segment 1024 B. Same totals, count is what matters here. */
  ck_assert_int_eq(coll_segcount(1024, 8, 11520), 128);
  ck_assert_int_eq(coll_segcount(1024, 8, 100), 100); /* 800 B < 1024: no split */
  ck_assert_int_eq(coll_segcount(1024, 3, 1000), 341); /* 1024 = 341 x 3 + 1, 1 <= 3/2 */
  ck_assert_int_eq(coll_segcount(1024, 5, 1000), 205); /* 1024 = 204 x 5 + 4, 4 > 2 */
}
END_TEST

START_TEST(allreduce_rdb_6) {
  /* n = 6: pof2 = 4, rem = 2: ranks 0, 2 send to 1, 3 (2 sends), 4 ranks x 2 rounds of
   * sendrecv (8), 1, 3 send back (2): 12 sends of the whole vector. */
  tally t = run(COLL_ALLREDUCE, "rdb", 6, 0, 10, NULL);
  ck_assert_int_eq(t.sends, 12);
  ck_assert_int_eq(t.sbytes, 120);
}
END_TEST

START_TEST(alltoallv_ring_counts) {
  /* alltoallv ring, N = 3 (not a power of two): every rank sends scounts[dst] to the two
   * others: 3 x (v[1] + v[2] + v[0] - v[self])... with v = {1, 10, 100} for all ranks:
   * rank 0 sends 10 + 100, rank 1 sends 1 + 100, rank 2 sends 1 + 10: 222 bytes. */
  int64_t v[3] = {1, 10, 100};
  ck_assert_int_eq(run(COLL_ALLTOALLV, "ring", 3, 0, 0, v).sbytes, 222);
}
END_TEST

START_TEST(reduce_scatter_algos) {
  /* n = 4, per-rank counts v = {1, 2, 3, 4} bytes, total 10.
   * mpich_rdb: step 1 sends all but the own block: 9 + 8 + 7 + 6 = 30; step 2 all but the
   * own pair's blocks: 2 x (10 - 3) + 2 x (10 - 7) = 20; 8 sends, 50 bytes. */
  int64_t v[4] = {1, 2, 3, 4};
  tally t = run(COLL_REDUCE_SCATTER, "mpich_rdb", 4, 0, 0, v);
  ck_assert_int_eq(t.sends, 8);
  ck_assert_int_eq(t.sbytes, 50);
  /* ompi_ring: every rank forwards the N - 1 blocks that are not its own: 4 x 10 - 10 = 30
   * bytes in 12 sends. */
  t = run(COLL_REDUCE_SCATTER, "ompi_ring", 4, 0, 0, v);
  ck_assert_int_eq(t.sends, 12);
  ck_assert_int_eq(t.sbytes, 30);
  /* recursive halving: distance 2, ranks 0, 1 send blocks 2..3 (7), ranks 2, 3 blocks 0..1
   * (3): 20; distance 1: 0 sends block 1 (2), 1 block 0 (1), 2 block 3 (4), 3 block 2 (3):
   * 10; 8 sends, 30 bytes. */
  t = run(COLL_REDUCE_SCATTER, "ompi_basic_recursivehalving", 4, 0, 0, v);
  ck_assert_int_eq(t.sends, 8);
  ck_assert_int_eq(t.sbytes, 30);
  /* butterfly: distance 1 as above reversed (7, 3, 7, 3 = 20), distance 2: 0 sends block 1
   * (2), 1 block 3 (4), 2 block 0 (1), 3 block 2 (3) = 10; then bit reversal swaps ranks 1
   * and 2, which hold blocks 2 and 1: 3 + 2 = 5. 10 sends, 35 bytes. */
  t = run(COLL_REDUCE_SCATTER, "ompi_butterfly", 4, 0, 0, v);
  ck_assert_int_eq(t.sends, 10);
  ck_assert_int_eq(t.sbytes, 35);
  /* mpich_noncomm, n = 4, 4 bytes each (16): halves of 8 then 4 bytes: 4 x (8 + 4) = 48. */
  int64_t w[4] = {4, 4, 4, 4};
  ck_assert_int_eq(run(COLL_REDUCE_SCATTER, "mpich_noncomm", 4, 0, 0, w).sbytes, 48);
}
END_TEST

START_TEST(reduce_ompi_algos) {
  /* basic_linear, 5 ranks, 10 B: 4 sends of 10 B. */
  tally t = run(COLL_REDUCE, "ompi_basic_linear", 5, 2, 10, NULL);
  ck_assert_int_eq(t.sends, 4);
  ck_assert_int_eq(t.rbytes_root, 40);
  /* binary, n = 3, 100000 B in 32768 B segments: 4 segments (3 x 32768 + 1696); ranks 1
   * and 2 each send 4 segments to the root: 8 sends, 200000 B. */
  t = run(COLL_REDUCE, "ompi_binary", 3, 0, 100000, NULL);
  ck_assert_int_eq(t.sends, 8);
  ck_assert_int_eq(t.sbytes, 200000);
  /* chain (fanout 3) at n = 6, 100 B: one segment, every non-root sends once: 5, 500 B. */
  t = run(COLL_REDUCE, "ompi_chain", 6, 1, 100, NULL);
  ck_assert_int_eq(t.sends, 5);
  ck_assert_int_eq(t.sbytes, 500);
  /* in_order_binary, n = 5, root 0: the tree is rooted at 4 (4 sends), then 4 sends the
   * result to 0: 5 sends, 50 B. */
  t = run(COLL_REDUCE, "ompi_in_order_binary", 5, 0, 10, NULL);
  ck_assert_int_eq(t.sends, 5);
  ck_assert_int_eq(t.sbytes, 50);
}
END_TEST

START_TEST(bcast_algos) {
  /* NTSL, n = 4, 20000 B: 2 segments of 8192 over 3 links (6 sends), then the remainder
   * 3616 B by NTSL again (forced: whole, 3 sends): 9 sends, 3 x 20000 B. */
  tally t = run(COLL_BCAST, "NTSL", 4, 0, 20000, NULL);
  ck_assert_int_eq(t.sends, 9);
  ck_assert_int_eq(t.sbytes, 60000);
  /* NTSB, n = 7, root 3: 3 -> 0 first, then the 6 edges of the binary tree: 7 x 100 B. */
  ck_assert_int_eq(run(COLL_BCAST, "NTSB", 7, 3, 100, NULL).sbytes, 700);
  /* ompi_pipeline, n = 3, 300000 B: segments of 16384 B (3 < 3.2118e-6 x 300000 + 8.79),
   * 19 of them, down the chain 0 -> 1 -> 2: 38 sends, 600000 B. */
  t = run(COLL_BCAST, "ompi_pipeline", 3, 0, 300000, NULL);
  ck_assert_int_eq(t.sends, 38);
  ck_assert_int_eq(t.sbytes, 600000);
  /* scatter + allgather, n = 4, B = 10: pieces of 3 (3, 3, 3, 1). Scatter: 0 -> 2 (4 B),
   * 0 -> 1 (3 B), 2 -> 3 (1 B). LR ring: each rank sends all pieces but one, 3 x 10 = 30
   * (12 sends); rdb: 3 + 3 + 3 + 1 then 6 + 6 + 4 + 4 = 30 (8 sends). */
  t = run(COLL_BCAST, "scatter_LR_allgather", 4, 0, 10, NULL);
  ck_assert_int_eq(t.sends, 15);
  ck_assert_int_eq(t.sbytes, 38);
  t = run(COLL_BCAST, "scatter_rdb_allgather", 4, 0, 10, NULL);
  ck_assert_int_eq(t.sends, 11);
  ck_assert_int_eq(t.sbytes, 38);
  /* split_bintree, n = 5, 10000 B: halves of 5000 in 5 segments of 1024 down the binary
   * tree 0 -> {1, 2}, 1 -> 3, 2 -> 4 (4 edges x 5 = 20 sends, 20000 B), then twins (1, 2)
   * and (3, 4) swap halves: 4 x 5000. */
  t = run(COLL_BCAST, "ompi_split_bintree", 5, 0, 10000, NULL);
  ck_assert_int_eq(t.sends, 24);
  ck_assert_int_eq(t.sbytes, 40000);
}
END_TEST

START_TEST(bcast_smp_linear) {
  /* 6 ranks, 2 per host, 100 B (one segment): 0 -> 2 (next leader), 0 -> 1; 2 -> 4, 2 -> 3;
   * 4 (last leader) -> 5: 5 sends, 500 B. Unequal hosts: the mpich bcast (binomial). */
  static const int nodes[6] = {0, 0, 1, 1, 2, 2}, uneven[6] = {0, 0, 0, 1, 1, 2};
  test_nodes = nodes;
  tally t = run(COLL_BCAST, "SMP_linear", 6, 0, 100, NULL);
  ck_assert_int_eq(t.sends, 5);
  ck_assert_int_eq(t.sbytes, 500);
  test_nodes = uneven;
  ck_assert_int_eq(run(COLL_BCAST, "SMP_linear", 6, 0, 100, NULL).sends, 5);
  test_nodes = NULL;
}
END_TEST

START_TEST(bcast_smp_binomial) {
  /* 6 ranks, 2 per host, root 0, 10 B: leaders 0, 2, 4 (indices 0, 1, 2): 0 -> 4 (mask
   * 2), 0 -> 2 (mask 1); then each leader -> its second rank: 5 sends, 50 B. Root 3: it
   * first sends to 0: 6 sends. */
  static const int nodes[6] = {0, 0, 1, 1, 2, 2};
  test_nodes = nodes;
  tally t = run(COLL_BCAST, "SMP_binomial", 6, 0, 10, NULL);
  ck_assert_int_eq(t.sends, 5);
  ck_assert_int_eq(t.sbytes, 50);
  ck_assert_int_eq(run(COLL_BCAST, "SMP_binomial", 6, 3, 10, NULL).sends, 6);
  /* 6 ranks, 3 per host: leaders 0 -> 3 (1 send). Inside host 0: 0 -> 2, 0 -> 1, and
   * under tir/simgrid-compat local 2 (bit 2 set) sends at mask 1 to 0 + 2 + 1 = rank 3,
   * checked against N only (SimGrid's bug); host 1: 3 -> 5, 3 -> 4, and 5 + 1 = N: none.
   * 1 + 3 + 2 = 6, and 5 by default (children kept inside the host). */
  static const int three[6] = {0, 0, 0, 1, 1, 1};
  test_nodes = three;
  ck_assert_int_eq(run(COLL_BCAST, "SMP_binomial", 6, 0, 10, NULL).sends, 5);
  coll_run_begin(1);
  ck_assert_int_eq(run(COLL_BCAST, "SMP_binomial", 6, 0, 10, NULL).sends, 6);
  coll_run_begin(0);
  test_nodes = NULL;
}
END_TEST

START_TEST(allgatherv_algos) {
  /* v = {1, 2, 3, 4, 5} (total 15): every rank ends up with every other block once, so all
   * ranks together receive 5 x 15 - 15 = 60 bytes.
   * ompi_bruck, n = 5: distance 1 sends the own block (15 in all), distance 2 the own and
   * the next (2 x 15 = 30), distance 4 (5 - 4 = 1 block) the own again (15): 60 B, 15 sends. */
  int64_t v5[5] = {1, 2, 3, 4, 5};
  tally t = run(COLL_ALLGATHERV, "ompi_bruck", 5, 0, 0, v5);
  ck_assert_int_eq(t.sends, 15);
  ck_assert_int_eq(t.sbytes, 60);
  /* ring and pair, n = 4, v = {1, 2, 3, 4}: each rank sends its block to 3 others: 3 x 10
   * = 30 B in 12 sends; neighbor exchange: 1 + (4/2 - 1) = 2 sendrecvs a rank, 8 sends,
   * and again 4 x 10 - 10 = 30 B received. */
  int64_t v4[4] = {1, 2, 3, 4};
  ck_assert_int_eq(run(COLL_ALLGATHERV, "ring", 4, 0, 0, v4).sbytes, 30);
  ck_assert_int_eq(run(COLL_ALLGATHERV, "pair", 4, 0, 0, v4).sends, 12);
  t = run(COLL_ALLGATHERV, "ompi_neighborexchange", 4, 0, 0, v4);
  ck_assert_int_eq(t.sends, 8);
  ck_assert_int_eq(t.sbytes, 30);
  /* GB, n = 4: linear gatherv to 0 (2 + 3 + 4 = 9 B, 3 sends), then a binomial bcast (the
   * default selector's) of the largest block, 4 B (displacements 0): 3 x 4 = 12 B. */
  t = run(COLL_ALLGATHERV, "GB", 4, 0, 0, v4);
  ck_assert_int_eq(t.sends, 6);
  ck_assert_int_eq(t.sbytes, 21);
  /* mpich_rdb, n = 6, v = {1..6} (total 21): mask 1: own blocks (21, 6 sends); mask 2:
   * ranks 0..3 send pairs {0,1} {0,1} {2,3} {2,3} = 3 + 3 + 7 + 7 = 20 (4 and 5 have no
   * partner); mask 4: 0, 1 send {0..3} = 10 each, 4, 5 send {4, 5} = 11 each (42); the
   * fix-up: 0 -> 2 and 1 -> 3 forward {4, 5} (22). 16 sends, 105 = 6 x 21 - 21 B. */
  int64_t v6[6] = {1, 2, 3, 4, 5, 6};
  t = run(COLL_ALLGATHERV, "mpich_rdb", 6, 0, 0, v6);
  ck_assert_int_eq(t.sends, 16);
  ck_assert_int_eq(t.sbytes, 105);
  /* mpich_ring, v = {300000, 1, 1}: pieces of 262144 B. Rank 0 sends block 0 (2 pieces)
   * then block 2; rank 1 block 1 then block 0 (2 pieces); rank 2 blocks 2 and 1: 8 sends,
   * 2 x 300002 = 600004 B (each rank sends all but its right neighbour's block). */
  int64_t big[3] = {300000, 1, 1};
  t = run(COLL_ALLGATHERV, "mpich_ring", 3, 0, 0, big);
  ck_assert_int_eq(t.sends, 8);
  ck_assert_int_eq(t.sbytes, 600004);
  ck_assert_int_eq(run(COLL_ALLGATHERV, "none", 4, 0, 0, v4).sends, 0);
}
END_TEST

START_TEST(allreduce_ring_algos) {
  /* lr, n = 4, 10 B: blocks of 10 / 4 = 2 B, 3 + 3 sendrecvs a rank (24 sends, 48 B); the
   * 2 B left go to allreduce again (lr, forced), which is shorter than N: redbcast, i.e.
   * a linear reduce to 0 (3 x 2 B) and a binomial bcast (3 x 2 B): 30 sends, 60 B. */
  tally t = run(COLL_ALLREDUCE, "lr", 4, 0, 10, NULL);
  ck_assert_int_eq(t.sends, 30);
  ck_assert_int_eq(t.sbytes, 60);
  /* ring_segmented, n = 3, 8 MiB of 1 B elements: segments of 1 MiB, 8 MiB / 3 MiB = 2
   * phases, plus one as the 2 MiB left exceed 1.5 MiB: 3. In each phase a rank sends 2
   * segments (18 sends); the allgather 2 whole blocks a rank (6 sends). Both halves move
   * every block but one per rank: 2 x 2 x 8 MiB = 33554432 B. */
  t = run(COLL_ALLREDUCE, "ompi_ring_segmented", 3, 0, 8 << 20, NULL);
  ck_assert_int_eq(t.sends, 24);
  ck_assert_int_eq(t.sbytes, 33554432);
  /* 5 B on 3 ranks: below 3 segments: lr (12 sends of 1 B), whose 2 B left are shorter
   * than N: redbcast (2 + 2 sends of 2 B): 16 sends, 20 B. */
  t = run(COLL_ALLREDUCE, "ompi_ring_segmented", 3, 0, 5, NULL);
  ck_assert_int_eq(t.sends, 16);
  ck_assert_int_eq(t.sbytes, 20);
}
END_TEST

START_TEST(rabenseifner_algos) {
  /* rab_rdb, n = 6, 12 B: pof2 = 4, rem = 2; ranks 0, 2 hand 12 B to 1, 3 (2 sends); the 4
   * others halve: 6 B then 3 B a rank (36 B, 8 sends), double back (36 B, 8 sends); 1, 3
   * return 12 B (2 sends): 20 sends, 120 B. */
  tally t = run(COLL_ALLREDUCE, "rab_rdb", 6, 0, 12, NULL);
  ck_assert_int_eq(t.sends, 20);
  ck_assert_int_eq(t.sbytes, 120);
  /* scatter_gather, same shape, root 0: 1, 3 hand over 12 B (2 sends), halving 36 B (8
   * sends), gather of 3 B pieces: new ranks 2, 3 send 3 B to 0, 1; new rank 1 sends 6 B to
   * 0: 13 sends, 24 + 36 + 12 = 72 B. */
  t = run(COLL_REDUCE, "scatter_gather", 6, 0, 12, NULL);
  ck_assert_int_eq(t.sends, 13);
  ck_assert_int_eq(t.sbytes, 72);
  /* root 1 (odd, sat out): rank 0 first sends it piece 0 (3 B), then the gather ends at 1
   * instead of 0: one more send, 75 B. */
  t = run(COLL_REDUCE, "scatter_gather", 6, 1, 12, NULL);
  ck_assert_int_eq(t.sends, 14);
  ck_assert_int_eq(t.sbytes, 75);
  /* binomial, n = 7, root 3: one send per non-root, 6 x 10 B. */
  t = run(COLL_REDUCE, "binomial", 7, 3, 10, NULL);
  ck_assert_int_eq(t.sends, 6);
  ck_assert_int_eq(t.rbytes_root, 30); /* children of the root: relative 1, 2, 4 */
}
END_TEST

START_TEST(throttled_algos) {
  /* mvapich2_scatter_dest, n = 5, 10 B: every rank sends to all 5 (itself included): 25
   * sends, 250 B, in blocks of 4 then 1 peers: 2 waitalls a rank. */
  tally t = run(COLL_ALLTOALL, "mvapich2_scatter_dest", 5, 0, 10, NULL);
  ck_assert_int_eq(t.sends, 25);
  ck_assert_int_eq(t.sbytes, 250);
  ck_assert_int_eq(t.waits, 10);
  /* alltoallv bruck, n = 3, v = {1, 10, 100}: as the ring, 222 B (self skipped), one block
   * of 3 peers: one waitall a rank. */
  int64_t v[3] = {1, 10, 100};
  t = run(COLL_ALLTOALLV, "bruck", 3, 0, 0, v);
  ck_assert_int_eq(t.sbytes, 222);
  ck_assert_int_eq(t.waits, 3);
  /* knomial bcast, n = 20, root 0: 19 sends; the root serves 16, then 4 8 12, then 1 2 3
   * (7 sends); rank 4 receives from 0 and serves 5 6 7: 3 waitalls at the root. */
  t = run(COLL_BCAST, "mvapich2_knomial_intra_node", 20, 0, 10, NULL);
  ck_assert_int_eq(t.sends, 19);
  ck_assert_int_eq(t.sbytes, 190);
}
END_TEST

START_TEST(alltoall_shapes) {
  /* 2dmesh, n = 6 = 2 x 3, 10 B a block: rows of 3, each rank sends its whole buffer
   * (6 x 10 B) to 2 row peers (12 sends, 720 B), then 3 blocks (30 B) to its column peer
   * (6 sends, 180 B). A prime size has no grid: nothing is sent. */
  tally t = run(COLL_ALLTOALL, "2dmesh", 6, 0, 10, NULL);
  ck_assert_int_eq(t.sends, 18);
  ck_assert_int_eq(t.sbytes, 900);
  ck_assert_int_eq(run(COLL_ALLTOALL, "2dmesh", 7, 0, 10, NULL).sends, 0);
  /* 3dmesh, n = 12 = 2 x 2 x 3: one row peer (whole buffers, 120 B: 12 sends, 1440 B),
   * one column peer (2 x 120 B: 2880 B), 2 plane peers (4 blocks, 40 B: 24 sends, 960 B). */
  t = run(COLL_ALLTOALL, "3dmesh", 12, 0, 10, NULL);
  ck_assert_int_eq(t.sends, 48);
  ck_assert_int_eq(t.sbytes, 5280);
  /* rdb, n = 4: blocks are whole buffers (40 B): 40 then 80 B a rank, 8 sends, 480 B. */
  t = run(COLL_ALLTOALL, "rdb", 4, 0, 10, NULL);
  ck_assert_int_eq(t.sends, 8);
  ck_assert_int_eq(t.sbytes, 480);
}
END_TEST

START_TEST(alltoall_barriers) {
  /* ring_light_barrier, n = 4: 3 exchanges a rank (12 sends, 120 B) and a 1 B sync after
   * each but the last (8 sends, 8 B). */
  tally t = run(COLL_ALLTOALL, "ring_light_barrier", 4, 0, 10, NULL);
  ck_assert_int_eq(t.sends, 20);
  ck_assert_int_eq(t.sbytes, 128);
  /* pair_one_barrier, n = 4: the default barrier (3 empty sends to 0, 3 back) then 12
   * exchanges of 10 B. */
  t = run(COLL_ALLTOALL, "pair_one_barrier", 4, 0, 10, NULL);
  ck_assert_int_eq(t.sends, 18);
  ck_assert_int_eq(t.sbytes, 120);
  /* ring_mpi_barrier, n = 3: a barrier (4 empty sends) before each of the 3 steps, the
   * first of which is the local copy: 12 + 6 sends, 60 B. */
  t = run(COLL_ALLTOALL, "ring_mpi_barrier", 3, 0, 10, NULL);
  ck_assert_int_eq(t.sends, 18);
  ck_assert_int_eq(t.sbytes, 60);
  /* alltoallv ring_one_barrier, v = {1, 10, 100}: 4 barrier sends, then 222 B as the ring. */
  int64_t v[3] = {1, 10, 100};
  t = run(COLL_ALLTOALLV, "ring_one_barrier", 3, 0, 0, v);
  ck_assert_int_eq(t.sends, 10);
  ck_assert_int_eq(t.sbytes, 222);
}
END_TEST

START_TEST(flat_trees) {
  /* flattree, n = 5: the root sends 4 x 10 B. flattree_pipeline, n = 3, 20000 B: 2
   * segments of 8192 B to each of 2 ranks (the 3616 B left are not sent): 4 sends, 32768 B;
   * 100 B is under one segment: flattree, 2 sends. reduce flat_tree, n = 5: 4 x 10 B. */
  ck_assert_int_eq(run(COLL_BCAST, "flattree", 5, 1, 10, NULL).sbytes, 40);
  tally t = run(COLL_BCAST, "flattree_pipeline", 3, 0, 20000, NULL);
  ck_assert_int_eq(t.sends, 4);
  ck_assert_int_eq(t.sbytes, 32768);
  ck_assert_int_eq(run(COLL_BCAST, "flattree_pipeline", 3, 0, 100, NULL).sends, 2);
  t = run(COLL_REDUCE, "flat_tree", 5, 2, 10, NULL);
  ck_assert_int_eq(t.sends, 4);
  ck_assert_int_eq(t.rbytes_root, 40);
}
END_TEST

/* sel's pick for a call on an SMP sub-communicator (scope 1), where SimGrid's mpich
 * selector takes MPICH's flat rules (on a whole communicator it goes SMP: mpich_smp). */
static const char *pick(const char *sel, coll_kind k, int n, int64_t b) {
  coll_args a = {.kind = k, .size = n, .sbytes = b, .rbytes = b, .count = b, .dtsize = 1, .smp_scope = 1};
  coll_prog_reset(&scratch);
  return coll_selector_at(coll_selector_find(sel))->select(&a, &scratch);
}

START_TEST(ompi_thresholds) {
  /* allreduce, n < 4: < 8 B lr (4), < 4096 rdb (3); n < 8: < 8192 rdb, else rab_rdb (6). */
  ck_assert_str_eq(pick("ompi", COLL_ALLREDUCE, 3, 7), "lr");
  ck_assert_str_eq(pick("ompi", COLL_ALLREDUCE, 3, 8), "rdb");
  ck_assert_str_eq(pick("ompi", COLL_ALLREDUCE, 3, 4096), "lr");
  ck_assert_str_eq(pick("ompi", COLL_ALLREDUCE, 4, 4096), "rdb");
  ck_assert_str_eq(pick("ompi", COLL_ALLREDUCE, 4, 8192), "rab_rdb");
  /* alltoall, n == 2: < 2 pair, < 4 two_proc (basic_linear); n = 5, >= 524288: pair
   * (2), which SimGrid cannot run on 5 ranks: basic_linear; n = 4: pair. */
  ck_assert_str_eq(pick("ompi", COLL_ALLTOALL, 2, 1), "pair");
  ck_assert_str_eq(pick("ompi", COLL_ALLTOALL, 2, 2), "basic_linear");
  ck_assert_str_eq(pick("ompi", COLL_ALLTOALL, 5, 600000), "basic_linear");
  ck_assert_str_eq(pick("ompi", COLL_ALLTOALL, 4, 600000), "pair");
  /* barrier: < 4 recursive doubling, < 8 linear, < 64 recursive doubling, < 256 bruck. */
  ck_assert_str_eq(pick("ompi", COLL_BARRIER, 3, 0), "ompi_recursivedoubling");
  ck_assert_str_eq(pick("ompi", COLL_BARRIER, 4, 0), "ompi_basic_linear");
  ck_assert_str_eq(pick("ompi", COLL_BARRIER, 63, 0), "ompi_recursivedoubling");
  ck_assert_str_eq(pick("ompi", COLL_BARRIER, 64, 0), "ompi_bruck");
  /* allgather: n == 2 pair; n < 32 rdb; n < 64: < 1024 rdb, < 65536 neighborexchange, ring. */
  ck_assert_str_eq(pick("ompi", COLL_ALLGATHER, 2, 100), "pair");
  ck_assert_str_eq(pick("ompi", COLL_ALLGATHER, 31, 100000), "rdb");
  ck_assert_str_eq(pick("ompi", COLL_ALLGATHER, 32, 1023), "rdb");
  ck_assert_str_eq(pick("ompi", COLL_ALLGATHER, 32, 1024), "ompi_neighborexchange");
  ck_assert_str_eq(pick("ompi", COLL_ALLGATHER, 32, 65536), "ring");
  /* gather, n < 8: < 1024 binomial, < 8192 linear; n < 256: binomial. */
  ck_assert_str_eq(pick("ompi", COLL_GATHER, 5, 1023), "ompi_binomial");
  ck_assert_str_eq(pick("ompi", COLL_GATHER, 5, 1024), "ompi_basic_linear");
  ck_assert_str_eq(pick("ompi", COLL_GATHER, 8, 1024), "ompi_binomial");
}
END_TEST

static const char *pick_v(const char *sel, coll_kind k, int n, int64_t each) {
  static int64_t v[64];
  for (int i = 0; i < n; i++)
    v[i] = each;
  coll_args a = {.kind = k, .size = n, .dtsize = 1, .rcounts = v};
  coll_prog_reset(&scratch);
  return coll_selector_at(coll_selector_find(sel))->select(&a, &scratch);
}

START_TEST(reduce_scatter_thresholds) {
  /* ompi, n < 4: total < 65536 ring, < 131072 butterfly, else ring (3 x 21845 = 65535). */
  ck_assert_str_eq(pick_v("ompi", COLL_REDUCE_SCATTER, 3, 21845), "ompi_ring");
  ck_assert_str_eq(pick_v("ompi", COLL_REDUCE_SCATTER, 3, 21846), "ompi_butterfly");
  ck_assert_str_eq(pick_v("ompi", COLL_REDUCE_SCATTER, 2, 65535), "ompi_butterfly");
  ck_assert_str_eq(pick_v("ompi", COLL_REDUCE_SCATTER, 2, 65536), "ompi_ring");
  /* ompi, n < 8: < 8 default, < 262144 recursive halving (4 x 2 = 8). */
  ck_assert_str_eq(pick_v("ompi", COLL_REDUCE_SCATTER, 4, 1), "default");
  ck_assert_str_eq(pick_v("ompi", COLL_REDUCE_SCATTER, 4, 2), "ompi_basic_recursivehalving");
  /* mpich: total elements > 524288 pairwise, else rdb (2 x 262144 = 524288). */
  ck_assert_str_eq(pick_v("mpich", COLL_REDUCE_SCATTER, 2, 262144), "mpich_rdb");
  ck_assert_str_eq(pick_v("mpich", COLL_REDUCE_SCATTER, 2, 262145), "mpich_pair");
  /* ompi reduce, n < 4: < 8 B alg 7 (basic_linear), < 16 alg 4 (binary), < 32 alg 3
   * (pipeline); 8 <= n < 16: < 8192 binary, else alg 5 (binomial). */
  ck_assert_str_eq(pick("ompi", COLL_REDUCE, 3, 7), "ompi_basic_linear");
  ck_assert_str_eq(pick("ompi", COLL_REDUCE, 3, 8), "ompi_binary");
  ck_assert_str_eq(pick("ompi", COLL_REDUCE, 3, 16), "ompi_pipeline");
  ck_assert_str_eq(pick("ompi", COLL_REDUCE, 15, 8191), "ompi_binary");
  ck_assert_str_eq(pick("ompi", COLL_REDUCE, 15, 8192), "ompi_binomial");
}
END_TEST

START_TEST(mpich_thresholds) {
  /* bcast: < 12288 B or n <= 8 binomial; < 524288 and even n scatter_rdb_allgather. */
  ck_assert_str_eq(pick("mpich", COLL_BCAST, 10, 12287), "binomial_tree");
  ck_assert_str_eq(pick("mpich", COLL_BCAST, 10, 12288), "scatter_rdb_allgather");
  ck_assert_str_eq(pick("mpich", COLL_BCAST, 9, 12288), "scatter_LR_allgather");
  ck_assert_str_eq(pick("mpich", COLL_BCAST, 8, 1000000), "binomial_tree");
  ck_assert_str_eq(pick("mpich", COLL_BCAST, 10, 524288), "scatter_LR_allgather");
  /* allgather: total = 8 x 65535 = 524280 < 524288 on 2^3 ranks: rdb; 8 x 65536: ring;
   * n = 6: 6 x 13653 = 81918 <= 81920 bruck, 6 x 13654 = 81924 ring. */
  ck_assert_str_eq(pick("mpich", COLL_ALLGATHER, 8, 65535), "rdb");
  ck_assert_str_eq(pick("mpich", COLL_ALLGATHER, 8, 65536), "ring");
  ck_assert_str_eq(pick("mpich", COLL_ALLGATHER, 6, 13653), "bruck");
  ck_assert_str_eq(pick("mpich", COLL_ALLGATHER, 6, 13654), "ring");
  /* alltoall: < 256 B and n >= 8 bruck; < 32768 scatter_dest; else ring. */
  ck_assert_str_eq(pick("mpich", COLL_ALLTOALL, 8, 255), "bruck");
  ck_assert_str_eq(pick("mpich", COLL_ALLTOALL, 7, 255), "mvapich2_scatter_dest");
  ck_assert_str_eq(pick("mpich", COLL_ALLTOALL, 8, 256), "mvapich2_scatter_dest");
  ck_assert_str_eq(pick("mpich", COLL_ALLTOALL, 8, 32768), "ring");
  /* allreduce: > 2048 B and count >= pof2 rab_rdb, else rdb (count = bytes here). */
  ck_assert_str_eq(pick("mpich", COLL_ALLREDUCE, 8, 2048), "rdb");
  ck_assert_str_eq(pick("mpich", COLL_ALLREDUCE, 8, 2049), "rab_rdb");
  /* reduce: count < pof2 or < 2048 B binomial, else scatter_gather. */
  ck_assert_str_eq(pick("mpich", COLL_REDUCE, 8, 2047), "binomial");
  ck_assert_str_eq(pick("mpich", COLL_REDUCE, 8, 2048), "scatter_gather");
}
END_TEST

/* Host layouts of the SMP tests: 2 ranks a host (8 and 12 ranks), 4 a host (8 ranks), and
 * unequal hosts (6 ranks: 4 + 2), where SimGrid's num_core is 1. */
static const int two8[8] = {0, 0, 1, 1, 2, 2, 3, 3}, four8[8] = {0, 0, 0, 0, 1, 1, 1, 1};
static const int two12[12] = {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}, uneven6[6] = {0, 0, 0, 0, 1, 1};

/* Asserts sends, bytes, inter-host sends and rounds of t, and that receives match. */
static void expect(tally t, long sends, int64_t bytes, long xsends, long rounds) {
  ck_assert_int_eq(t.sends, sends);
  ck_assert_int_eq(t.sbytes, bytes);
  ck_assert_int_eq(t.xsends, xsends);
  if (rounds >= 0)
    ck_assert_int_eq(t.rounds, rounds);
  ck_assert_int_eq(t.recvs, t.sends);
  ck_assert_int_eq(t.rbytes, t.sbytes);
}

START_TEST(allreduce_smp_trees) {
  /* smp_binomial, 10 B: binomial reduce inside hosts (c - 1 edges each), between the P
   * leaders (P - 1), the same edges back down: 2 (N - 1) = 14 sends for N = 8, of which
   * 2 (P - 1) cross hosts: 6 with 2 a host (P = 4), 2 with 4 a host (P = 2). Rounds: leader
   * 0 with c = 2 sends to leaders 2 and 1 (indices), then to rank 1: 3; with c = 4, to
   * leader 1, then ranks 2 and 1: 3. */
  test_nodes = two8;
  expect(run(COLL_ALLREDUCE, "smp_binomial", 8, 0, 10, NULL), 14, 140, 6, 3);
  test_nodes = four8;
  expect(run(COLL_ALLREDUCE, "smp_binomial", 8, 0, 10, NULL), 14, 140, 2, 3);
  /* Unequal hosts: num_core = 1, a flat binomial reduce to 0 then bcast over 6 ranks: 10
   * sends; edges 4 -> 0 and 0 -> 4 cross from host 1 ({4, 5}): 2. */
  test_nodes = uneven6;
  expect(run(COLL_ALLREDUCE, "smp_binomial", 6, 0, 10, NULL), 10, 100, 2, 3);
  /* 3 a host (c not a power of two), under tir/simgrid-compat (SimGrid's bug): in the
   * intra-host reduce, local rank 2 receives at mask 1 from base + 3, the next host's
   * leader, which never sends to it; in the bcast it sends at mask 1 to base + 3 when < N.
   * N = 6: reduce 4 sends (1, 2 -> 0; 4, 5 -> 3), 5 receives; leaders 3 -> 0 -> 3; bcast 0
   * -> 2, 0 -> 1, 2 -> 3, 3 -> 5, 3 -> 4 (5 sends, 4 receives): 11 sends and 11 receives, 3
   * across hosts (3 -> 0, 0 -> 3, 2 -> 3). By default the children stay in the host: 2 (N -
   * 1) = 10 sends, 2 across. */
  static const int three6[6] = {0, 0, 0, 1, 1, 1};
  test_nodes = three6;
  expect(run(COLL_ALLREDUCE, "smp_binomial", 6, 0, 10, NULL), 10, 100, 2, 3);
  coll_run_begin(1);
  expect(run(COLL_ALLREDUCE, "smp_binomial", 6, 0, 10, NULL), 11, 110, 3, 3);
  coll_run_begin(0);
  /* smp_rdb, 2 a host, N = 8: 4 intra-host reduce sends, 4 leaders x 2 rdb rounds = 8, 4
   * bcast sends: 16, 8 across hosts; leader 0 sends 2 (rdb) + 1 (its local rank) = 3. */
  test_nodes = two8;
  expect(run(COLL_ALLREDUCE, "smp_rdb", 8, 0, 10, NULL), 16, 160, 8, 3);
  /* N = 12, P = 6 leaders: pof2 = 4, rem = 2: leaders 0, 2 hand their vector to 1, 3 (2),
   * 4 x 2 rounds (8), 1, 3 give it back (2): 12 across hosts, plus 6 + 6 inside: 24. Leader
   * index 1 (rank 2) sends 2 + 1 + 1 = 4. */
  test_nodes = two12;
  expect(run(COLL_ALLREDUCE, "smp_rdb", 12, 0, 10, NULL), 24, 240, 12, 4);
  test_nodes = NULL;
}
END_TEST

START_TEST(allreduce_smp_pipeline) {
  /* 10000 elements of 1 B: segments of 4096, 10000 / 4096 = 2 of them (the 1808 left are
   * never sent, as in SimGrid); each segment moves as smp_binomial's 14 messages: 28 sends
   * of 4096 B = 114688 B, 2 x 6 across hosts, leader 0 sends 3 a segment: 6. */
  test_nodes = two8;
  expect(run(COLL_ALLREDUCE, "smp_binomial_pipeline", 8, 0, 10000, NULL), 28, 114688, 12, 6);
  /* 100 elements: one segment of 100: 14 sends of 100 B. No element: nothing. */
  expect(run(COLL_ALLREDUCE, "smp_binomial_pipeline", 8, 0, 100, NULL), 14, 1400, 6, 3);
  expect(run(COLL_ALLREDUCE, "smp_binomial_pipeline", 8, 0, 0, NULL), 0, 0, 0, 0);
  test_nodes = NULL;
}
END_TEST

START_TEST(allreduce_smp_rsag) {
  /* 2 a host, N = 8, P = 4 leaders, 10 elements of 1 B. Inside hosts: 4 + 4 sends of 10 B.
   * smp_rsag: segments of 10 / 4 = 2; 2 rings of P - 1 = 3 sendrecvs a leader: 24 sends of
   * 2 B, all across hosts; a leader sends 6 + 1 (to its local rank) = 7. */
  test_nodes = two8;
  expect(run(COLL_ALLREDUCE, "smp_rsag", 8, 0, 10, NULL), 32, 80 + 48, 24, 7);
  /* smp_rsag_lr: segment 3 carries 2 + 10 % 4 = 4. In each ring a leader sends every
   * segment but one, and each segment is left out by exactly one leader: 3 x 10 = 30 B a
   * ring, 60 in all. */
  expect(run(COLL_ALLREDUCE, "smp_rsag_lr", 8, 0, 10, NULL), 32, 80 + 60, 24, 7);
  /* 3 elements < P: count / P = 0, so every segment offset equals the last one's and each
   * carries 0 + 3 (SimGrid's quirk): 4 leaders x 6 x 3 B = 72, inside 8 x 3 = 24. */
  expect(run(COLL_ALLREDUCE, "smp_rsag_lr", 8, 0, 3, NULL), 32, 24 + 72, 24, 7);
  /* smp_rsag_rab: halving 10 / 2 = 5 then 5 / 2 = 2; back from 2 / 2 x 2 = 2, then 4: a
   * leader sends 5 + 2 + 2 + 4 = 13 B in 4 sendrecvs: 16 sends, 52 B across hosts. */
  expect(run(COLL_ALLREDUCE, "smp_rsag_rab", 8, 0, 10, NULL), 24, 80 + 52, 16, 5);
  /* 4 a host, P = 2: halving 5, back from 2 x 2 = 4: 2 leaders x (5 + 4) = 18 B in 4
   * sends; inside 6 + 6 sends of 10 B. */
  test_nodes = four8;
  expect(run(COLL_ALLREDUCE, "smp_rsag_rab", 8, 0, 10, NULL), 16, 120 + 18, 4, -1);
  /* Unequal hosts, num_core = 1: smp_rsag over 6 ranks, segments of 10 / 6 = 1: 6 x 10
   * sends of 1 B, crossing at 3 -> 4 and 5 -> 0: 2 a step, 20 in all. smp_rsag_lr: the
   * last segment carries 1 + 4 = 5; each segment left out once a ring: 2 x 5 x 10 B. */
  test_nodes = uneven6;
  expect(run(COLL_ALLREDUCE, "smp_rsag", 6, 0, 10, NULL), 60, 60, 20, 10);
  expect(run(COLL_ALLREDUCE, "smp_rsag_lr", 6, 0, 10, NULL), 60, 100, 20, 10);
  test_nodes = NULL;
}
END_TEST

START_TEST(allreduce_rab12) {
  /* rab1, N = 4, 10 elements: 10 % 4 != 0, padded to (10 + 4) / 4 x 4 = 12; halving at
   * distance 2 sends 12 / 2 = 6, at distance 1 12 / 4 = 3: 4 x 2 sends, 36 B; then the
   * (forced ring) allgather of 3 B: 4 x 3 sends, 36 B. */
  coll_force(COLL_ALLGATHER, "ring");
  coll_force(COLL_ALLTOALL, "basic_linear");
  expect(run(COLL_ALLREDUCE, "rab1", 4, 0, 10, NULL), 20, 72, 0, 5);
  /* 8 elements: 4 then 2 a rank (24 B), allgather of 2 B (24 B). */
  expect(run(COLL_ALLREDUCE, "rab1", 4, 0, 8, NULL), 20, 48, 0, 5);
  /* rab2, 10 elements: (10 + 4) / 4 = 3 a peer: basic_linear alltoall 12 x 3 B, ring
   * allgather 12 x 3 B. 2 elements < N: N = 4 a peer: 12 x 4 + 12 x 4. */
  expect(run(COLL_ALLREDUCE, "rab2", 4, 0, 10, NULL), 24, 72, 0, 6);
  expect(run(COLL_ALLREDUCE, "rab2", 4, 0, 2, NULL), 24, 96, 0, 6);
  coll_force(COLL_ALLGATHER, NULL);
  coll_force(COLL_ALLTOALL, NULL);
}
END_TEST

START_TEST(reduce_rab) {
  /* N = 6: 2^n = 4, r = 2, count 10. Step 2: pairs (0, 1), (2, 3): the even one sends
   * 10 - 5 = 5, the odd one 5 then its reduced half 5: 6 sends, 30 B. New ranks 0, 1, 2, 3
   * = ranks 0, 2, 4, 5. Halving: distance 1, halves 5 + 5: 4 sends of 5 B; distance 2,
   * halves 2 + 3 of the 5 held: bit 0 sends the upper 3, bit 1 the lower 2: 10 B. Root 0:
   * new ranks 2, 3 send their level-1 piece (odd bit: 3 each), then 1, 3 their level-0
   * piece (5 each): 16 B. 18 sends, 76 B; the root receives 5 + 5 (step 2), 5 + 2, 3 + 5. */
  tally t = run(COLL_REDUCE, "rab", 6, 0, 10, NULL);
  expect(t, 18, 76, 0, -1);
  ck_assert_int_eq(t.rbytes_root, 25);
  /* Root 1 (odd, < 2r): rank 0 first hands it its final piece (2 elements, tag 1241) and
   * the root stands for new rank 0: 19 sends, 78 B; it receives 5 + 2 + 3 + 5. */
  t = run(COLL_REDUCE, "rab", 6, 1, 10, NULL);
  expect(t, 19, 78, 0, -1);
  ck_assert_int_eq(t.rbytes_root, 15);
  /* Root 4 (new rank 2 = binary 10): at level 1 new ranks 0, 1 (bit 1 clear) send their
   * even piece (2 each); at level 0, 1 and 3 send 5 each: 18 sends, 30 + 20 + 10 + 14 B. */
  expect(run(COLL_REDUCE, "rab", 6, 4, 10, NULL), 18, 74, 0, -1);
  /* One rank, or no element: SimGrid recurses into itself; tir sends nothing. */
  expect(run(COLL_REDUCE, "rab", 1, 0, 10, NULL), 0, 0, 0, 0);
}
END_TEST

START_TEST(allgather_smp_scan_rdb) {
  /* smp_simple, 10 B blocks. 2 a host, N = 8: 8 intra-host sendrecvs (80 B); 4 leaders
   * isend 2 blocks to 3 others (12 sends, 240 B, across hosts); each sends the 8 blocks to
   * its local rank (4 x 80 B): 24 sends, 640 B; a leader sends 1 + 3 + 1 = 5. */
  test_nodes = two8;
  expect(run(COLL_ALLGATHER, "smp_simple", 8, 0, 10, NULL), 24, 640, 12, 5);
  /* 4 a host: 8 x 3 sendrecvs (240 B), 2 leaders x 1 isend of 40 B, 2 x 3 sends of 80 B:
   * 32 sends, 800 B; a leader sends 3 + 1 + 3 = 7. */
  test_nodes = four8;
  expect(run(COLL_ALLGATHER, "smp_simple", 8, 0, 10, NULL), 32, 800, 2, 7);
  /* Unequal hosts (num_core 1): every rank a leader, isends to the 5 others: 30 x 10 B,
   * of which 4 x 2 + 2 x 4 = 16 cross hosts. */
  test_nodes = uneven6;
  expect(run(COLL_ALLGATHER, "smp_simple", 6, 0, 10, NULL), 30, 300, 16, 5);
  test_nodes = NULL;
  /* scan/exscan rdb, N = 6: distance 1: 3 pairs (6 sends); 2: 0-2, 1-3 (4); 4: 0-4, 1-5
   * (4): 14 sends of 10 B; ranks 0 and 1 send 3 times. */
  expect(run(COLL_SCAN, "rdb", 6, 0, 10, NULL), 14, 140, 0, 3);
  expect(run(COLL_EXSCAN, "rdb", 6, 0, 10, NULL), 14, 140, 0, 3);
}
END_TEST

START_TEST(new_algos) {
  /* allgather 2dmesh, N = 6: a 2 x 3 grid; rows of 3 (2 peers, one 7 B block each: 12
   * sends), then columns of 2 (1 peer, the row's 3 blocks: 6 sends): every rank receives
   * the 5 others' blocks once, 6 x 5 x 7 = 210 B. 3dmesh, N = 8: 2 x 2 x 2, one peer a
   * phase with 1, 2 then 4 blocks: 24 sends, 8 x 7 x 7 = 392 B. N = 7 forms no grid. */
  expect(run(COLL_ALLGATHER, "2dmesh", 6, 0, 7, NULL), 18, 210, 0, 3);
  expect(run(COLL_ALLGATHER, "3dmesh", 8, 0, 7, NULL), 24, 392, 0, 3);
  ck_assert_int_eq(run(COLL_ALLGATHER, "2dmesh", 7, 0, 7, NULL).sends, 0);
  /* barrier mvapich2_pair, N = 6: pof2 4, ranks 4, 5 sendrecv with 0, 1 (2 sends), 0..3
   * exchange at distances 1, 2 (8), 0 and 1 release 4 and 5 (2): 12 empty sends. */
  expect(run(COLL_BARRIER, "mvapich2_pair", 6, 0, 0, NULL), 12, 0, 0, 3);
  /* reduce NTSL, N = 4, root 0, 20000 B: 8192 B segments, 2 of them down the chain
   * 3 -> 2 -> 1 -> 0 (6 sends), the 3616 B rest by the default reduce (3 isends to the
   * root): 9 sends, 3 x 20000 B; the root receives 2 x 8192 + 3 x 3616. 100 B: the chain
   * alone, 3 sends. */
  tally t = run(COLL_REDUCE, "NTSL", 4, 0, 20000, NULL);
  expect(t, 9, 60000, 0, 3);
  ck_assert_int_eq(t.rbytes_root, 27232);
  expect(run(COLL_REDUCE, "NTSL", 4, 0, 100, NULL), 3, 300, 0, 1);
  /* reduce mvapich2_knomial, N = 20, root 0, k = 4: every rank but the root sends its
   * vector once to its parent; the root's children are 1, 2, 3, 4, 8, 12, 16: 7 blocks. */
  t = run(COLL_REDUCE, "mvapich2_knomial", 20, 0, 10, NULL);
  expect(t, 19, 190, 0, 1);
  ck_assert_int_eq(t.rbytes_root, 70);
  /* allreduce rab, N = 4, 8 elements of 1 B: halving 4 then 2, doubling 2 then 4: 4
   * sendrecvs a rank, 12 B: 16 sends, 48 B. */
  expect(run(COLL_ALLREDUCE, "rab", 4, 0, 8, NULL), 16, 48, 0, 4);
  /* barrier mpich_smp, 2 a host, N = 8: the mpich barrier (bruck) inside each host (1
   * send a rank: 8), among the 4 leaders (2 rounds: 8, across hosts), a 1 B binomial bcast
   * inside hosts (4): 20 sends, 4 B; a leader sends 1 + 2 + 1. 4 a host: 2 rounds inside
   * (16), 1 among 2 leaders (2), a bcast of 3 sends a host (6): 24 sends, 6 B; a leader
   * sends 2 + 1 + 2. */
  test_nodes = two8;
  expect(run(COLL_BARRIER, "mpich_smp", 8, 0, 0, NULL), 20, 4, 8, 4);
  test_nodes = four8;
  expect(run(COLL_BARRIER, "mpich_smp", 8, 0, 0, NULL), 24, 6, 2, 5);
  test_nodes = NULL;
}
END_TEST

START_TEST(mvapich2_impi_picks) {
  /* SimGrid's mvapich2 reduce table, first row (up to 16 ranks): up to 262144 B the
   * two-level reduce, up to 1048576 B binomial (not two-level), beyond scatter_gather when
   * count >= pof2. N = 8, 300000 B: binomial, 7 messages of the whole vector; 2 MiB: the
   * same program as scatter_gather. Barrier: mvapich2_pair (N = 6: 12 sends). */
  tally t = run(COLL_REDUCE, "mvapich2", 8, 0, 300000, NULL);
  expect(t, 7, 2100000, 0, 1);
  tally u = run(COLL_REDUCE, "mvapich2", 8, 0, 2097152, NULL);
  tally v = run(COLL_REDUCE, "scatter_gather", 8, 0, 2097152, NULL);
  ck_assert_int_eq(u.sends, v.sends);
  ck_assert_int_eq(u.sbytes, v.sbytes);
  ck_assert_int_eq(run(COLL_BARRIER, "mvapich2", 6, 0, 0, NULL).sends, 12);
  /* impi barrier, one rank a host (ppn 1 table): up to 2 ranks alg 2 (recursive doubling),
   * up to 4 alg 6 (gather + scatter: SimGrid's default barrier, ompi_basic_linear), up to
   * 8 alg 1 (dissemination, SimGrid's ompi_basic_linear), up to 64 alg 2. N = 16:
   * recursive doubling, 16 x 4 sends; N = 8 and 3: 2 (N - 1) sends to and from rank 0. */
  ck_assert_int_eq(run(COLL_BARRIER, "impi", 16, 0, 0, NULL).sends, 64);
  ck_assert_int_eq(run(COLL_BARRIER, "impi", 8, 0, 0, NULL).sends, 14);
  ck_assert_int_eq(run(COLL_BARRIER, "impi", 3, 0, 0, NULL).sends, 4);
}
END_TEST

START_TEST(init_smp_messages) {
  /* SimGrid's init_smp, N = 8 in 2 hosts of 4 (the program stops there, at its resume):
   * a 4 B ring allgather of leaders over all 8 (step i sends to rank + i: 56 sends, 224 B; each
   * rank reaches the other host's 4: 32 cross), a ring allgather of host sizes among the 2
   * leaders (2 sends, 8 B, across), a scatter_LR_allgather bcast of 4 B in each host
   * (scatter 0 -> 2 of 2 B, 0 -> 1 and 2 -> 3 of 1 B, then 4 x 3 ring sends of 1 B: 15
   * sends, 16 B a host) and the default allreduce of 4 B (7 isends to 0, of which 4 cross;
   * a binomial bcast, 0 -> 4 crosses): 102 sends, 320 B, 32 + 2 + 4 + 1 = 39 across hosts.
   * The scatter's receives ask for the rest of the vector (rank 1 posts 3 B for the 1 B it
   * gets): 2 B more posted a host. */
  test_smp_done = 0;
  test_nodes = four8;
  tally t = run(COLL_BARRIER, "mpich_smp", 8, 0, 0, NULL);
  ck_assert_int_eq(t.sends, 102);
  ck_assert_int_eq(t.recvs, 102);
  ck_assert_int_eq(t.sbytes, 320);
  ck_assert_int_eq(t.rbytes, 324);
  ck_assert_int_eq(t.xsends, 39);
  test_nodes = NULL;
  test_smp_done = ~0u;
}
END_TEST

/* Algorithms the selectors may name that tir does not have yet (doc/collectives.md), as
 * "kind:name", NULL-terminated. Empty since round 3: every pick is implemented. */
static const char *missing[] = {NULL};

static int known_missing(coll_kind k, const char *name) {
  char key[128];
  snprintf(key, sizeof key, "%s:%s", coll_kind_name(k), name);
  for (size_t i = 0; missing[i]; i++)
    if (!strcmp(missing[i], key))
      return 1;
  return 0;
}

START_TEST(selector_names_registered) {
  /* Every pick over sizes 1..70 and byte counts around every power of two is registered
   * (or on the known-missing list, which shrinks as algorithms are added). */
  int64_t v[70];
  for (int s = 0; s < coll_selector_count(); s++)
    for (int k = 0; k < COLL_NKINDS; k++)
      for (int n = 1; n <= 70; n++)
        for (int e = 0; e < 24; e++)
          for (int d = -1; d <= 1; d++) {
            int64_t b = ((int64_t)1 << e) + d;
            for (int i = 0; i < n; i++)
              v[i] = b;
            coll_args a = {.kind = k, .size = n, .sbytes = b, .rbytes = b, .count = b, .dtsize = 1,
                           .rcounts = v, .scounts = v};
            coll_prog_reset(&scratch);
            const char *name = coll_selector_at(s)->select(&a, &scratch);
            if (coll_algo_find(k, name) < 0 && !known_missing(k, name))
              ck_abort_msg("selector %s picks unregistered %s %s", coll_selector_at(s)->name,
                           coll_kind_name(k), name);
          }
}
END_TEST

Suite *check_suite(void) {
  Suite *s = suite_create("coll");
  TCase *tc = tcase_create("coll");
  tcase_add_test(tc, alltoall_basic_linear_series);
  tcase_add_test(tc, barrier_recursivedoubling_6);
  tcase_add_test(tc, barrier_bruck_tree);
  tcase_add_test(tc, allgather_blocks);
  tcase_add_test(tc, gather_scatter_binomial);
  tcase_add_test(tc, gather_linear_sync_segments);
  tcase_add_test(tc, allreduce_rdb_6);
  tcase_add_test(tc, alltoallv_ring_counts);
  tcase_add_test(tc, reduce_scatter_algos);
  tcase_add_test(tc, reduce_ompi_algos);
  tcase_add_test(tc, bcast_algos);
  tcase_add_test(tc, bcast_smp_linear);
  tcase_add_test(tc, bcast_smp_binomial);
  tcase_add_test(tc, reduce_scatter_thresholds);
  tcase_add_test(tc, ompi_thresholds);
  tcase_add_test(tc, mpich_thresholds);
  tcase_add_test(tc, selector_names_registered);
  tcase_add_test(tc, allgatherv_algos);
  tcase_add_test(tc, allreduce_ring_algos);
  tcase_add_test(tc, rabenseifner_algos);
  tcase_add_test(tc, throttled_algos);
  tcase_add_test(tc, alltoall_shapes);
  tcase_add_test(tc, alltoall_barriers);
  tcase_add_test(tc, flat_trees);
  tcase_add_test(tc, allreduce_smp_trees);
  tcase_add_test(tc, allreduce_smp_pipeline);
  tcase_add_test(tc, allreduce_smp_rsag);
  tcase_add_test(tc, allreduce_rab12);
  tcase_add_test(tc, allgather_smp_scan_rdb);
  tcase_add_test(tc, new_algos);
  tcase_add_test(tc, init_smp_messages);
  tcase_add_test(tc, mvapich2_impi_picks);
  tcase_add_test(tc, reduce_rab);
  suite_add_tcase(s, tc);
  return s;
}
