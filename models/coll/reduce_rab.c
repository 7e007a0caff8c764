/* reduce_rab.c - SimGrid 3.32's reduce rab (reduce-rab.cpp, Rabenseifner's
 * MPI_I_anyReduce with is_all false).
 *
 * With 2^n the largest power of two <= N and r = N - 2^n: (2) the first 2r ranks pair up;
 * the even one sends the upper half (count - count/2) and receives the lower half
 * (count/2) of its odd partner's vector (sendrecv, tags 1220/1221), the odd one returns
 * its reduced upper half (tag 1223) and sits out. (5) The 2^n others (new ranks: k < r is
 * real rank 2k, else k + r) halve recursively at distances 1, 2, 4...: the rank whose bit
 * is 0 keeps the lower half (x/2 elements, x the part it holds), sends the upper one (x -
 * x/2; tags 1231/1232). (6) An odd root < 2r first gets rank 0's final piece (tag 1241)
 * and takes new rank 0. Then from the finest level down, at each level every new rank
 * whose bit differs from the root's sends its piece of that level to its partner, and the
 * partner receives it (tag 1244; the root's new rank stands for the root). SimGrid's
 * limits (REDUCE_NEW_ALWAYS) make every count >= 1 take this protocol for the datatypes it
 * knows, and MPI_OP_NULL counts as MPI_MAX; otherwise (N = 1, count 0, MPI_BYTE) it calls
 * colls::reduce, i.e. itself again when rab is forced, and crashes: tir then sends
 * nothing (doc/collectives.md). The tags are SimGrid's, positive as in its code. */
#include "coll_algos.h"

typedef struct rab {
  int n, r;               /* levels (2^n ranks halve); ranks paired at the start */
  int root, newroot;      /* the call's root; its new rank */
  int64_t ce[31], co[31]; /* elements of the even (lower) and odd (upper) halves per level */
  int64_t x;              /* elements of the piece held after the halving */
} rab;

static int oldrank(const rab *s, int nr) { return nr == s->newroot ? s->root : nr < s->r ? nr * 2 : nr + s->r; }

/* MPI_I_Sendrecv: isend and irecv with different tags, then waitall. */
static void sendrecv2(coll_prog *p, int peer, int64_t sb, int stag, int64_t rb, int rtag) {
  coll_isend(p, peer, stag, sb);
  coll_irecv(p, peer, rtag, rb);
  coll_waitall(p);
}

/* Step 5 of new rank nr (talks when talk: the root's "always even" replay does not). */
static void halving(rab *s, int nr, int64_t count, int d, coll_prog *p, int talk) {
  s->x = count;
  for (int i = 0, base = 1; i < s->n; i++, base *= 2) {
    s->ce[i] = s->x / 2, s->co[i] = s->x - s->ce[i];
    int even = nr / base % 2 == 0;
    s->x = even ? s->ce[i] : s->co[i];
    int peer = oldrank(s, even ? nr + base : nr - base); /* newroot is -1 here */
    if (talk && even)
      sendrecv2(p, peer, s->co[i] * d, 1231, s->ce[i] * d, 1232);
    else if (talk)
      sendrecv2(p, peer, s->ce[i] * d, 1232, s->co[i] * d, 1231);
  }
}

/* Step 6.1..6.n: the pieces gathered level by level towards the root. */
static void gathering(const rab *s, int nr, int d, coll_prog *p) {
  for (int i = s->n - 1, base = 1 << (s->n - 1); i >= 0; i--, base /= 2) {
    int even = nr / base % 2 == 0, partner = oldrank(s, even ? nr + base : nr - base);
    if ((nr & base) != (s->newroot & base))
      coll_send(p, partner, 1244, (even ? s->ce[i] : s->co[i]) * d);
    else
      coll_recv(p, partner, 1244, (even ? s->co[i] : s->ce[i]) * d);
  }
}

void coll_reduce_rab(const coll_args *a, coll_prog *p) {
  int me = a->rank, N = a->size, d = a->dtsize, nr;
  int64_t c = a->count;
  if (N <= 1 || c < 1)
    return;
  rab s = {.n = 0, .root = a->root};
  while (2 << s.n <= N)
    s.n++;
  s.r = N - (1 << s.n);
  if (me < 2 * s.r && me % 2 == 0) {
    sendrecv2(p, me + 1, (c - c / 2) * d, 1220, c / 2 * d, 1221);
    coll_recv(p, me + 1, 1223, (c - c / 2) * d);
  } else if (me < 2 * s.r) {
    sendrecv2(p, me - 1, c / 2 * d, 1221, (c - c / 2) * d, 1220);
    coll_send(p, me - 1, 1223, (c - c / 2) * d);
  }
  nr = me >= 2 * s.r ? me - s.r : me % 2 == 0 ? me / 2 : -1;
  s.newroot = -1; /* step 5 uses plain new ranks */
  if (nr >= 0)
    halving(&s, nr, c, d, p, 1);
  if (s.root < 2 * s.r && s.root % 2 == 1) {
    if (me == 0)
      coll_send(p, s.root, 1241, s.x * d), nr = -1;
    if (me == s.root) {
      nr = 0;
      halving(&s, 0, c, d, p, 0);
      coll_recv(p, 0, 1241, s.x * d);
    }
    s.newroot = 0;
  } else
    s.newroot = s.root < 2 * s.r ? s.root / 2 : s.root - s.r;
  if (nr >= 0)
    gathering(&s, nr, d, p);
}

/* allreduce rab (MPI_I_anyReduce with is_all): steps 2 and 5 as above, every rank its
 * own root; then from the finest level down each new rank swaps pieces with its partner
 * (sendrecv, tags 1241/1242), and the odd ranks below 2r get the whole vector from their
 * even partner (tag 1253). */
void coll_allreduce_rab(const coll_args *a, coll_prog *p) {
  int me = a->rank, N = a->size, d = a->dtsize, nr;
  int64_t c = a->count;
  if (N <= 1 || c < 1)
    return;
  rab s = {.n = 0, .root = me, .newroot = -1};
  while (2 << s.n <= N)
    s.n++;
  s.r = N - (1 << s.n);
  if (me < 2 * s.r && me % 2 == 0) {
    sendrecv2(p, me + 1, (c - c / 2) * d, 1220, c / 2 * d, 1221);
    coll_recv(p, me + 1, 1223, (c - c / 2) * d);
  } else if (me < 2 * s.r) {
    sendrecv2(p, me - 1, c / 2 * d, 1221, (c - c / 2) * d, 1220);
    coll_send(p, me - 1, 1223, (c - c / 2) * d);
  }
  nr = me >= 2 * s.r ? me - s.r : me % 2 == 0 ? me / 2 : -1;
  if (nr >= 0) {
    halving(&s, nr, c, d, p, 1);
    for (int i = s.n - 1, base = 1 << (s.n - 1); i >= 0; i--, base /= 2) {
      int even = nr / base % 2 == 0, partner = oldrank(&s, even ? nr + base : nr - base);
      if (even)
        sendrecv2(p, partner, s.ce[i] * d, 1241, s.co[i] * d, 1242);
      else
        sendrecv2(p, partner, s.co[i] * d, 1242, s.ce[i] * d, 1241);
    }
  }
  if (me < 2 * s.r && me % 2 == 0)
    coll_send(p, me + 1, 1253, c * d);
  else if (me < 2 * s.r)
    coll_recv(p, me - 1, 1253, c * d);
}
