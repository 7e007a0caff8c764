/* coll_topo.c - Open MPI's communication trees (coll_tuned_topo.cpp in SimGrid 3.32).
 *
 * A tree gives one rank its parent (prev, -1 at the root) and its children (next, in
 * the order the algorithms serve them). Builders: k-ary tree by levels (build_tree),
 * chains of fanout heads (build_chain), binomial (bmtree), in-order binomial and the
 * in-order binary tree rooted at N - 1. Quirks of the originals are kept on purpose
 * (e.g. the chain heads after the `mark` column are offset by one). */
#include "coll_algos.h"

static void tree_init(coll_tree *t, int root) {
  t->prev = -1;
  t->nnext = 0;
  t->root = root;
  for (int i = 0; i < COLL_TREE_MAX; i++)
    t->next[i] = -1;
}

static int ipow(int b, int e) {
  int p = 1;
  for (int j = 0; j < e; j++)
    p *= b;
  return p;
}

void coll_tree_kary(coll_tree *t, int fanout, int rank, int n, int root) {
  tree_init(t, root);
  if (n < 2)
    return;
  int sr = (rank - root + n) % n, level = 0, num = 0;
  for (; num <= sr; level++)
    num += ipow(fanout, level);
  level--;
  int delta = ipow(fanout, level);
  for (int i = 0; i < fanout && sr + delta * (i + 1) < n; i++)
    t->next[t->nnext++] = (sr + delta * (i + 1) + root) % n;
  int slimit = fanout > 1 ? (ipow(fanout, level) - 1) / (fanout - 1) : 0, sp = sr;
  if (sp < fanout)
    sp = 0;
  else
    while (sp >= slimit)
      sp -= delta / fanout;
  t->prev = (sp + root) % n;
}

void coll_tree_in_order_bintree(coll_tree *t, int rank, int n) {
  tree_init(t, n - 1);
  int me = rank, size = n, parent = n - 1, delta = 0;
  for (;;) {
    int right = size >> 1, lchild = -1, rchild = -1;
    if (size - 1 > 0) {
      lchild = parent - 1;
      if (lchild > 0)
        rchild = right - 1;
    }
    if (me == parent) {
      if (lchild >= 0)
        t->next[t->nnext++] = lchild + delta;
      if (rchild >= 0)
        t->next[t->nnext++] = rchild + delta;
      return;
    }
    if (me > rchild) {
      if (me == lchild)
        t->prev = parent + delta;
      size = size - right - 1, delta += right, me -= right, parent = size - 1;
    } else {
      if (me == rchild)
        t->prev = parent + delta;
      size = right, parent = rchild;
    }
  }
}

void coll_tree_in_order_bmtree(coll_tree *t, int rank, int n, int root) {
  tree_init(t, root);
  int v = (rank - root + n) % n;
  if (rank == root)
    t->prev = root;
  for (int mask = 1; mask < n; mask <<= 1) {
    int remote = v ^ mask;
    if (remote < v) {
      t->prev = (remote + root) % n;
      break;
    }
    if (remote < n && t->nnext < COLL_TREE_MAX)
      t->next[t->nnext++] = (remote + root) % n;
  }
}

/* Chain builder, non-root ranks: parent and single child in shifted ranks. */
static void chain_member(coll_tree *t, int sr, int n, int maxlen, int mark) {
  int head, len;
  if (sr - 1 < mark * maxlen)
    head = 1 + (sr - 1) / maxlen * maxlen, len = maxlen;
  else
    head = mark * maxlen + 1 + ((sr - 1 - mark * maxlen) / (maxlen - 1)) * (maxlen - 1), len = maxlen - 1;
  t->prev = sr == head ? 0 : sr - 1;
  if (sr != head + len - 1 && sr + 1 < n)
    t->next[t->nnext++] = sr + 1;
}

void coll_tree_chain(coll_tree *t, int fanout, int rank, int n, int root) {
  tree_init(t, root);
  fanout = fanout < 1 ? 1 : fanout > COLL_TREE_MAX ? COLL_TREE_MAX : fanout;
  fanout = n - 1 < fanout ? n - 1 : fanout;
  int sr = (rank - root + n) % n;
  if (fanout <= 1 || n == 1) {
    if (n > 1 && sr > 0)
      t->prev = (sr - 1 + root) % n;
    if (n > 1 && sr + 1 < n)
      t->next[t->nnext++] = (sr + 1 + root) % n;
    return;
  }
  int maxlen = (n - 1) / fanout, mark = fanout + 1;
  if ((n - 1) % fanout)
    maxlen++, mark = (n - 1) % fanout;
  if (sr == 0) {
    t->next[0] = (root + 1) % n;
    for (int i = 1; i < fanout; i++)
      t->next[i] = (t->next[i - 1] + maxlen - (i > mark)) % n;
    t->nnext = fanout;
    return;
  }
  chain_member(t, sr, n, maxlen, mark);
  t->prev = (t->prev + root) % n;
  if (t->nnext)
    t->next[0] = (t->next[0] + root) % n;
}
