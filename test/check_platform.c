/* check_platform.c - unit tests of the platform loader and of every routing.
 *
 * Each expected route below is derived by hand in the comment above it, from the XML
 * file in test/data/platforms/ and the routing rules of SimGrid 3.32 (the same routes
 * were also checked against SimGrid itself, see doc/platforms.md). Routes are compared
 * as the space-separated list of their link names. Errors are checked on small XML
 * snippets written to a temporary directory, with the line:column they must name. */
#include "check_main.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "platform.h"

static char path_buf[4096];

static const char *data_file(const char *dir, const char *name) {
  const char *top = getenv("top_srcdir");
  snprintf(path_buf, sizeof path_buf, "%s/%s/%s", top ? top : ".", dir, name);
  return path_buf;
}

static platform *load_in(const char *dir, const char *name) {
  char err[1024] = "";
  platform *p = plat_load(data_file(dir, name), err, sizeof err);
  ck_assert_msg(p != NULL, "cannot load %s: %s", name, err);
  return p;
}

static platform *load(const char *name) { return load_in("test/data/platforms", name); }

static int host(const platform *p, const char *name) {
  int h = plat_host_find(p, name);
  ck_assert_msg(h >= 0, "no host %s", name);
  return h;
}

/* The route a -> b as "link link ...", or "ERROR <message>"; latency in *lat. */
static const char *route(const platform *p, const char *a, const char *b, double *lat) {
  static char out[4096];
  char err[1024];
  plat_route r = {0};
  if (plat_get_route(p, host(p, a), host(p, b), &r, err, sizeof err) != 0) {
    snprintf(out, sizeof out, "ERROR %s", err);
    plat_route_free(&r);
    return out;
  }
  out[0] = '\0';
  for (size_t i = 0; i < r.n; i++) {
    strcat(out, i ? " " : "");
    strcat(out, plat_link_at(p, r.links[i])->name);
  }
  if (lat)
    *lat = r.latency;
  plat_route_free(&r);
  return out;
}

static const plat_link *link_named(const platform *p, const char *name) {
  for (int i = 0; i < plat_link_count(p); i++)
    if (strcmp(plat_link_at(p, i)->name, name) == 0)
      return plat_link_at(p, i);
  ck_abort_msg("no link %s", name);
  return NULL;
}

#define ROUTE(p, a, b, expected) ck_assert_str_eq(route(p, a, b, NULL), expected)
#define TOL(a, b) ck_assert_double_eq_tol((a), (b), 1e-15 + fabs(b) * 1e-12)

/* ==================================================================== Full */
/* small_platform.xml (SimGrid's): link 9 = 7.20975MBps, 1.461517ms; Tremblay -> Fafard
 * is declared 4 3 2 0 1 8, so Fafard -> Tremblay is the reverse; Tremblay has an explicit
 * self-route on "loopback"; Jacquelin has none and gets the model loopback. */
START_TEST(full_small_platform) {
  platform *p = load_in("platforms", "small_platform.xml");
  double lat;
  ck_assert_int_eq(plat_host_count(p), 7);
  ck_assert_str_eq(route(p, "Tremblay", "Jupiter", &lat), "9");
  TOL(lat, 1.461517e-3);
  TOL(link_named(p, "9")->bandwidth, 7.20975e6);
  ROUTE(p, "Jupiter", "Tremblay", "9");
  ROUTE(p, "Tremblay", "Fafard", "4 3 2 0 1 8");
  ROUTE(p, "Fafard", "Tremblay", "8 1 0 2 3 4");
  ROUTE(p, "Tremblay", "Tremblay", "loopback");
  ck_assert_int_eq(link_named(p, "loopback")->policy, PLAT_FATPIPE);
  ck_assert_str_eq(route(p, "Jacquelin", "Jacquelin", &lat), "__loopback__");
  const plat_link *lb = link_named(p, "__loopback__");
  ck_assert_int_eq(lb->model_loopback, 1);
  ck_assert(lb->bandwidth == 10e9 && lb->latency == 0.0 && lb->policy == PLAT_FATPIPE);
  plat_set_model_loopback(p, 5e9, 2e-6);
  ck_assert_str_eq(route(p, "Boivin", "Boivin", &lat), "__loopback__");
  ck_assert(lat == 2e-6 && lb->bandwidth == 5e9);
  plat_free(p);
}
END_TEST

/* full.xml: A -> B declared sd(UP) fp sh, symmetrical, so B -> A = sh fp sd(DOWN);
 * A -> C and C -> A declared separately (not symmetrical); B -> C names the model
 * loopback; A -> A is explicit (selfA); B -> B falls back to the model loopback.
 * Latency A -> B: 10us + 1us + 2ms. */
START_TEST(full_routes) {
  platform *p = load("full.xml");
  double lat;
  ck_assert_str_eq(route(p, "A", "B", &lat), "sd_UP fp sh");
  TOL(lat, 10e-6 + 1e-6 + 2e-3);
  ROUTE(p, "B", "A", "sh fp sd_DOWN");
  ROUTE(p, "A", "C", "sd_DOWN nolat");
  ROUTE(p, "C", "A", "nolat");
  ROUTE(p, "B", "C", "__loopback__ sh");
  ROUTE(p, "C", "B", "sh __loopback__");
  ROUTE(p, "A", "A", "selfA");
  ROUTE(p, "B", "B", "__loopback__");
  plat_free(p);
}
END_TEST

/* full.xml: hosts, links and config as declared. A: speeds 100Mf,50Mf,20Mf (one with
 * spaces around), 4 cores, pstate 1, props (the second wattage_off is ignored: SimGrid
 * keeps the first); sd is SPLITDUPLEX 1Gbps = 125e6 B/s; sh is 1MiBps = 1048576 B/s;
 * the config keeps the first network/crosstraffic. */
START_TEST(full_elements) {
  platform *p = load("full.xml");
  const plat_host *a = plat_host_at(p, host(p, "A"));
  ck_assert_int_eq(a->npstates, 3);
  ck_assert(a->speeds[0] == 1e8 && a->speeds[1] == 5e7 && a->speeds[2] == 2e7);
  ck_assert_int_eq(a->cores, 4);
  ck_assert_int_eq(a->pstate, 1);
  ck_assert_str_eq(plat_host_prop(p, host(p, "A"), "wattage_off"), "10");
  ck_assert_str_eq(plat_host_prop(p, host(p, "A"), "wattage_per_state"),
                   "100:120:200, 93:110:170, 90:105:150");
  ck_assert_ptr_null(plat_host_prop(p, host(p, "B"), "wattage_off"));
  ck_assert(plat_host_at(p, host(p, "C"))->speeds[0] == 2.5e9);
  ck_assert(link_named(p, "sd_UP")->bandwidth == 125e6);
  ck_assert_int_eq(link_named(p, "sd_DOWN")->policy, PLAT_SHARED);
  ck_assert(link_named(p, "sh")->bandwidth == 1048576.0 && link_named(p, "sh")->latency == 2e-3);
  ck_assert_int_eq(link_named(p, "fp")->policy, PLAT_FATPIPE);
  ck_assert_int_eq(plat_config_count(p), 2);
  const char *k, *v;
  plat_config_at(p, 0, &k, &v);
  ck_assert_str_eq(k, "network/crosstraffic");
  ck_assert_str_eq(v, "1");
  plat_config_at(p, 1, &k, &v);
  ck_assert_str_eq(k, "network/TCP-gamma");
  ck_assert_int_eq(plat_host_find(p, "R"), -1); /* a router is not a host */
  ck_assert_int_eq(plat_host_find(p, "nobody"), -1);
  ck_assert_str_eq(plat_source(p), data_file("test/data/platforms", "full.xml"));
  plat_free(p);
}
END_TEST

/* ==================================================================== Floyd, Dijkstra */
/* floyd.xml, vertices in order h0 r1 r2 h3 h4; edges h0-r1 [a], h0-r2 [b], r1-h3
 * [c UP], r2-h3 [d], h3-h4 [e f] (symmetrical), h4 -> h0 [g], h3 -> h3 [e e].
 * h0 -> h3: two 2-link paths; Floyd-Warshall meets the one via r1 first (k = r1 before
 * r2) and keeps it (strict <): a c_UP. Back: c_DOWN a. h0 -> h4 = h0 -> h3 + [e f].
 * h4 -> h0 = g (one link). h3 -> h3 = the declared e e (no 1-link cycle exists). */
START_TEST(floyd_routes) {
  platform *p = load("floyd.xml");
  ROUTE(p, "h0", "h3", "a c_UP");
  ROUTE(p, "h3", "h0", "c_DOWN a");
  ROUTE(p, "h0", "h4", "a c_UP e f");
  ROUTE(p, "h4", "h0", "g");
  ROUTE(p, "h4", "h3", "f e");
  ROUTE(p, "h3", "h3", "e e");
  ROUTE(p, "h0", "h0", "__loopback__");
  plat_free(p);
}
END_TEST

/* dijkstra.xml: edges (cost = links) A-R [l1 l2], R-B [l3 UP, l4], R -> C [l4],
 * C -> A [l1], A-S [l5], S-B [l5 l2], B -> B [l4 l5]. A -> B: via S costs 1 + 2 = 3,
 * via R 2 + 2 = 4, so A S B; SimGrid prepends each edge's links reversed:
 * rev([l5]) + rev([l5 l2]) = l5 l2 l5. B -> A: edges B->S = rev(back([l5 l2])) = [l2 l5]
 * and S->A = [l5]: rev([l2 l5]) + rev([l5]) = l5 l2 l5. A -> C = A R C (3 links):
 * rev([l1 l2]) + rev([l4]) = l2 l1 l4. B -> B: the declared self-edge reversed: l5 l4. */
START_TEST(dijkstra_routes) {
  platform *p = load("dijkstra.xml");
  ROUTE(p, "A", "B", "l5 l2 l5");
  ROUTE(p, "B", "A", "l5 l2 l5");
  ROUTE(p, "A", "C", "l2 l1 l4");
  ROUTE(p, "C", "A", "l1");
  ROUTE(p, "B", "B", "l5 l4");
  ROUTE(p, "C", "C", "__loopback__");
  ROUTE(p, "B", "C", "l3_DOWN l4 l4"); /* B R [rev(l4 l3_DOWN)] then R C [l4] */
  plat_free(p);
}
END_TEST

/* ==================================================================== flat clusters */
/* cluster_flat.xml, cluster bob (radicals 0-2,5,7-8, limiter, loopback, FATPIPE
 * backbone): bob-i -> bob-j = limiter_i, link_i_UP, backbone, link_j_DOWN, limiter_j;
 * bob-i -> bob-i = its loopback. Latency 50us + 500us + 50us (limiters have none). */
START_TEST(flat_cluster_routes) {
  platform *p = load("cluster_flat.xml");
  double lat;
  ck_assert_str_eq(route(p, "bob-0.me", "bob-5.me", &lat),
                   "bob_link_0_limiter bob_link_0_UP bob_backbone bob_link_5_DOWN "
                   "bob_link_5_limiter");
  TOL(lat, 600e-6);
  ck_assert_str_eq(route(p, "bob-1.me", "bob-1.me", &lat), "bob_link_1_loopback");
  TOL(lat, 1e-6);
  ck_assert_int_eq(link_named(p, "bob_backbone")->policy, PLAT_FATPIPE);
  ck_assert_int_eq(link_named(p, "bob_link_1_loopback")->policy, PLAT_FATPIPE);
  ck_assert(link_named(p, "bob_link_7_limiter")->bandwidth == 187.5e6);
  /* alice: SHARED private links (one link both ways), no backbone; a self-route is
   * up + down with the duplicate removed: just alice_link_1 */
  ROUTE(p, "alice1", "alice2", "alice_link_1 alice_link_2");
  ROUTE(p, "alice1", "alice1", "alice_link_1");
  ck_assert(link_named(p, "alice_link_1")->bandwidth == 125e6); /* 1Gbps */
  plat_free(p);
}
END_TEST

/* cluster_flat.xml across the zoneRoute bob -> alice (gateways: the routers):
 * bob-0 -> router = limiter_0 link_0_UP backbone (the router has no link), then
 * bob_alice, then router -> alice3 = alice_link_3; the reverse is symmetrical. */
START_TEST(flat_cluster_between) {
  platform *p = load("cluster_flat.xml");
  ROUTE(p, "bob-0.me", "alice3",
        "bob_link_0_limiter bob_link_0_UP bob_backbone bob_alice alice_link_3");
  ROUTE(p, "alice3", "bob-0.me",
        "alice_link_3 bob_alice bob_backbone bob_link_0_DOWN bob_link_0_limiter");
  /* hosts: prefix radical suffix, 2 pstates, 2 cores, the cluster's props */
  ck_assert_int_eq(plat_host_count(p), 9);
  const plat_host *h = plat_host_at(p, host(p, "bob-8.me"));
  ck_assert(h->npstates == 2 && h->speeds[0] == 1e9 && h->speeds[1] == 5e8 && h->cores == 2);
  ck_assert_str_eq(plat_host_prop(p, host(p, "bob-8.me"), "color"), "blue");
  ck_assert_int_eq(plat_host_find(p, "bob-3.me"), -1); /* not in the radical */
  plat_free(p);
}
END_TEST

/* The built-in cluster: node-i -> node-j = link_i_UP backbone link_j_DOWN
 * (50us + 500us + 50us), node-i -> node-i = its loopback (10 GBps, 0 s). */
START_TEST(default_cluster) {
  platform *p = plat_default_cluster(4);
  double lat;
  ck_assert_int_eq(plat_host_count(p), 4);
  ck_assert_str_eq(plat_host_at(p, 3)->name, "node-3");
  ck_assert_str_eq(route(p, "node-0", "node-1", &lat),
                   "tir-default_link_0_UP tir-default_backbone tir-default_link_1_DOWN");
  TOL(lat, 600e-6);
  ROUTE(p, "node-2", "node-2", "tir-default_link_2_loopback");
  ck_assert(link_named(p, "tir-default_link_2_loopback")->bandwidth == 10e9);
  ck_assert(link_named(p, "tir-default_backbone")->bandwidth == 2.25e9);
  ck_assert(link_named(p, "tir-default_link_0_UP")->bandwidth == 125e6);
  ck_assert_str_eq(plat_source(p), "<built-in>");
  ck_assert_ptr_null(plat_default_cluster(0));
  plat_free(p);
}
END_TEST

/* cluster_zone.xml (routing="Cluster"): host_link gives UP = [up, backbone] and
 * DOWN = [backbone, down]; cabinet hosts get link_<name>_UP/_DOWN the same way; n1 has
 * an explicit loopback; "lonely" has no link at all: lonely -> lonely is empty. */
START_TEST(cluster_zone_routes) {
  platform *p = load("cluster_zone.xml");
  ROUTE(p, "n1", "n2", "n1_up star_bb n2_down");
  ROUTE(p, "n2", "n2", "n2_up star_bb n2_down");
  ROUTE(p, "n1", "n1", "n1_self");
  ROUTE(p, "cab-1", "n1", "link_cab-1_UP star_bb n1_down");
  ROUTE(p, "lonely", "n1", "star_bb n1_down");
  ck_assert(strstr(route(p, "lonely", "lonely", NULL), "ERROR no route from host lonely"));
  ck_assert(plat_host_at(p, host(p, "cab-2"))->speeds[0] == 2e9);
  plat_free(p);
}
END_TEST

/* ==================================================================== topologies */
/* torus.xml: 3x2x2, node i = (i mod 3, i/3 mod 2, i/6); node i owns the cable to its +1
 * neighbour per dimension. t0 -> t1: dim 0, target right of 0 within 3/2: t0's cable,
 * UP. t0 -> t2: 2 is not within 0+1, so left: t2's cable to t0, DOWN. t0 -> t11 = (2,1,1):
 * left to t2, then dim 1 right via t2's cable to t5, then dim 2 right via t5's to t11.
 * Each hop is preceded by the limiter of the node it leaves; the target's limiter ends. */
START_TEST(torus_routes) {
  platform *p = load("torus.xml");
  ROUTE(p, "t0", "t1", "tor_link_0_limiter tor_link_from_0_to_1_UP tor_link_1_limiter");
  ROUTE(p, "t0", "t2", "tor_link_0_limiter tor_link_from_2_to_0_DOWN tor_link_2_limiter");
  ROUTE(p, "t0", "t11",
        "tor_link_0_limiter tor_link_from_2_to_0_DOWN tor_link_2_limiter "
        "tor_link_from_2_to_5_UP tor_link_5_limiter tor_link_from_5_to_11_UP "
        "tor_link_11_limiter");
  ROUTE(p, "t4", "t4", "tor_link_4_loopback");
  plat_free(p);
  /* torus_shared.xml: 5x4, SHARED cables, names from the node's position (r10 is
   * node 0): r10 -> r13 = (3,0): 3 > 0 + 5/2, left twice: r10 <- r14 <- r13, using the
   * cables of r14 (node 4 to 0) and r13 (node 3 to 4); no loopback nor limiter, so
   * a node cannot reach itself */
  p = load("torus_shared.xml");
  ROUTE(p, "r10.t", "r13.t", "ring_link_from_4_to_0 ring_link_from_3_to_4");
  /* from m = 3 > 5/2 to 2: (3 + 2) mod 5 = 0 < 2, so left, one hop on r12's cable;
   * from m = 4 to 1: (4 + 2) mod 5 = 1 >= 1, so right through the wrap: 4 -> 0 -> 1 */
  ROUTE(p, "r13.t", "r12.t", "ring_link_from_2_to_3");
  ROUTE(p, "r14.t", "r11.t", "ring_link_from_4_to_0 ring_link_from_0_to_1");
  ck_assert(strstr(route(p, "r12.t", "r12.t", NULL), "ERROR no route"));
  plat_free(p);
}
END_TEST

/* fattree.xml "2;4,4;1,2;1,2": 16 nodes, labels (k mod 4, k/4); 4 leaf switches (ids
 * 31..28, labels (0,j)) each with 4 nodes; 2 top switches (27, 26); 2 cables from each
 * leaf to each top switch. n0 -> n5: up from n0 to leaf 31 (one parent); n5 is not
 * under 31 (label digit 1: 0 != 1), parent d = 5 mod (2 x 2) = 1, i.e. the first cable
 * to switch 26 (uid 18); 26 covers everything; down: scan children i = 0.. for
 * i mod 4 == 1: cable 22 to leaf 30, whose child 1 is n5 (cable 5). Limiters: n0, 31
 * (leaving up), 26 and 30 (after each cable down), n5. */
START_TEST(fattree_routes) {
  platform *p = load("fattree.xml");
  ROUTE(p, "n0", "n5",
        "ft_link_0_limiter link_from_0_31_0_UP ft_link_31_limiter link_from_31_26_18_UP "
        "link_from_30_26_22_DOWN ft_link_26_limiter link_from_5_30_5_DOWN ft_link_30_limiter "
        "ft_link_5_limiter");
  ROUTE(p, "n3", "n3", "ft_link_3_loopback");
  plat_free(p);
  /* fattree_shared.xml "3;2,2,2;1,2,2;1,1,1", no limiter: m0 -> m1 share their leaf
   * switch (id 15): up one cable, down the other */
  p = load("fattree_shared.xml");
  ROUTE(p, "m0", "m1", "link_from_0_15_0 link_from_1_15_1");
  plat_free(p);
  /* fattree3.xml "3;2,2,2;1,2,2;1,2,2", p4 has label (0,0,1). Down from top switch 7,
   * the scan finds port 1 (1 mod 2 = p4's last digit), steps to switch 9 and goes on
   * there at port 2: 2 mod 2 = 0 = p4's middle digit, so it takes the *second* parallel
   * cable to switch 13 (uid 17), where a fresh scan would take port 0 (uid 16). */
  p = load("fattree3.xml");
  ROUTE(p, "p0", "p4",
        "link_from_0_15_0_UP link_from_15_11_8_UP link_from_11_7_25_UP link_from_9_7_32_DOWN "
        "link_from_13_9_17_DOWN link_from_4_13_4_DOWN");
  plat_free(p);
}
END_TEST

/* dragonfly.xml "3,1;2,2;3,2;2": node i = (group, chassis, blade, node), 2 nodes per
 * router; routers r = g*6 + c*3 + b have limiters 71 - r. d0 -> d1: same router 0:
 * node limiter, local cable of node 0 UP, router limiter, local cable of node 1 DOWN,
 * node limiter. d14 = (1,0,1,0) -> d27 = (2,0,1,1): other group, router 7's blade 1 is
 * not 2, so green to blade 2 (router 8, green uid 44), blue to group 2 (uid 65, the
 * router's limiter after it), arriving at router 13 = (2,0,1): same blade and chassis
 * as the target; then its limiter and local cable 27 DOWN. */
START_TEST(dragonfly_routes) {
  platform *p = load("dragonfly.xml");
  ROUTE(p, "d0", "d1",
        "df_link_0_limiter local_link_from_router_0_to_node_0_0_UP df_link_71_limiter "
        "local_link_from_router_0_to_node_1_1_DOWN df_link_1_limiter");
  ROUTE(p, "d14", "d27",
        "df_link_14_limiter local_link_from_router_7_to_node_0_14_UP df_link_64_limiter "
        "green_link_in_chassis_0_between_routers_1_and_2_44_UP "
        "blue_link_between_group_1_and_2_routers_8_and_13_65_UP df_link_63_limiter "
        "df_link_58_limiter local_link_from_router_13_to_node_1_27_DOWN df_link_27_limiter");
  /* SimGrid's quirk: d6 = (0,1,0,0) -> d8 = (0,1,1,0), same chassis 1, other blade:
   * green from router 3 to blade 1 (uid 39), but the current router then becomes router 1
   * (chassis 0!), so a black hop 0 -> 1 on blade 1 (uid 55) follows before router 4. */
  ROUTE(p, "d6", "d8",
        "df_link_6_limiter local_link_from_router_3_to_node_0_6_UP df_link_68_limiter "
        "green_link_in_chassis_1_between_routers_0_and_1_39_UP df_link_70_limiter "
        "black_link_in_group_0_between_chassis_0_and_1_blade_1_55_UP df_link_67_limiter "
        "local_link_from_router_4_to_node_0_8_DOWN df_link_8_limiter");
  plat_free(p);
  /* dragonfly_shared.xml "2,2;3,1;2,3;1": green cables (uids 12..17, after the 12 node
   * cables) of 3 x 1GBps; 12 black cables (18..29), then the blue one (30) of 2 x 1GBps */
  p = load("dragonfly_shared.xml");
  ck_assert(link_named(p, "blue_link_between_group_0_and_1_routers_1_and_6_30")->bandwidth == 2e9);
  ck_assert(link_named(p, "green_link_in_chassis_0_between_routers_0_and_1_12")->bandwidth == 3e9);
  ROUTE(p, "e5", "e5", "dfs_link_5_loopback");
  plat_free(p);
}
END_TEST

/* ==================================================================== nested zones */
/* nested.xml: root Full with zA (Full), zB (Floyd), cC (flat cluster, router gwC).
 * a1 -> c2: zoneRoute zA -> cC [ac] from gateway a1 (the source itself) to c1, then
 * c1 -> c2 in the cluster. a2 -> b1: a2 -> gwA [la2], zA -> zB [ab UP], gwB -> b1 in
 * the Floyd zone: gwB rB [lb2] then rB b1 [lb1]. b1 -> a2: the reverse, ab DOWN.
 * c0 -> a2: c0 -> gwC = [link_0_UP, backbone], cC -> zA [ca], gwA -> a2 [la2]. */
START_TEST(nested_routes) {
  platform *p = load("nested.xml");
  double lat;
  ck_assert_str_eq(route(p, "a1", "c2", &lat), "ac cC_link_1_UP cC_backbone cC_link_2_DOWN");
  TOL(lat, 300e-6 + 50e-6 + 1e-6 + 50e-6);
  ROUTE(p, "a2", "b1", "la2 ab_UP lb2 lb1");
  ROUTE(p, "b1", "a2", "lb1 lb2 ab_DOWN la2");
  ROUTE(p, "c0", "a2", "cC_link_0_UP cC_backbone ca la2");
  ROUTE(p, "a1", "a2", "la1 la2");
  plat_free(p);
}
END_TEST

/* nested_floyd.xml: Floyd root, z1 -> z3 only through z2 (in by g2a, out by g2b), so the
 * zone-level route is x12, the global route g2a -> g2b, x23. z2 is a Dijkstra zone,
 * which inserts its links at the *front* of the list being built (SimGrid's
 * insert_link_latency): [x12] becomes [l2a l2b x12], then x23. h1 -> h3 =
 * [l1] + [l2a l2b x12 x23] + [l3]. h1 -> h2: [l1 x12] then the Dijkstra part g2a -> h2
 * goes in front: l2a l1 x12. */
START_TEST(nested_floyd_routes) {
  platform *p = load("nested_floyd.xml");
  double lat;
  ck_assert_str_eq(route(p, "h1", "h3", &lat), "l1 l2a l2b x12 x23 l3");
  TOL(lat, 1e-6 + 2e-6 + 3e-6 + 10e-6 + 20e-6 + 4e-6);
  ROUTE(p, "h1", "h2", "l2a l1 x12");
  plat_free(p);
  /* nested_dijkstra.xml: a Dijkstra root, z1 -> z2 -> z3 through the same gateway g2;
   * zone-level path edges [x12 y12] and [x23] each reversed: y12 x12 x23 */
  p = load("nested_dijkstra.xml");
  ROUTE(p, "h1", "h3", "l1 y12 x12 x23 l3");
  plat_free(p);
}
END_TEST

/* multi.xml: two fat trees and two dragonflies in one platform: SimGrid's cable
 * counters go on from one cluster to the next: ftB's first cable is uid 8, after ftA's
 * 4 node cables and 4 switch cables (2 leaves x 2 tops); dB's first is uid 7, after
 * dA's 4 node cables, 2 green and 1 blue. Unconnected zones: no route. */
START_TEST(multi_counters) {
  platform *p = load("multi.xml");
  link_named(p, "link_from_0_7_8_UP");
  link_named(p, "local_link_from_router_0_to_node_0_7_UP");
  ck_assert(strstr(route(p, "fa0", "ta1", NULL), "ERROR no route from 'ftA' to 'tA'"));
  ROUTE(p, "ta0", "ta1", "tA_link_from_0_to_1"); /* FATPIPE requested, SHARED made */
  ck_assert_int_eq(link_named(p, "tA_link_from_0_to_1")->policy, PLAT_SHARED);
  plat_free(p);
}
END_TEST

/* ==================================================================== errors */
static char tmpdir[256];

/* Writes the XML text to <tmpdir>/bad.xml and loads it; returns the error message. */
static const char *load_text(const char *xml, platform **out) {
  static char err[1024];
  static char path[512];
  snprintf(path, sizeof path, "%s/bad.xml", tmpdir);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(xml, f);
  fclose(f);
  err[0] = '\0';
  *out = plat_load(path, err, sizeof err);
  return err;
}

#define HEAD "<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
#define ZONE "<zone id=\"z\" routing=\"Full\">"
#define AB "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>"
#define LINK "<link id=\"l\" bandwidth=\"1GBps\" latency=\"0\"/>"

/* Each case: the platform's body (from line 3) and the error it must give, after
 * "bad.xml:". Columns count from 1 at the '<' of the faulty element. */
static const struct {
  const char *body, *error;
} bad_cases[] = {
    /* XML syntax (libxml2's message, its line:column) */
    {ZONE "<host id=\"a\" speed=\"1Gf\"></zone>",
     "3:61: XML error: Opening and ending tag mismatch"},
    {ZONE "\n<host id='a' speed=\"1Gf\"/ >", "4:25: XML error: "},
    /* unknown link in a route; SPLITDUPLEX without direction; direction on a plain link */
    {ZONE AB "\n<route src=\"a\" dst=\"b\"><link_ctn id=\"nope\"/></route></zone>",
     "4:24: no such link: 'nope'"},
    {ZONE AB "<link id=\"l\" bandwidth=\"1GBps\" latency=\"0\" sharing_policy=\"SPLITDUPLEX\"/>\n"
             "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route></zone>",
     "4:24: link 'l' is SPLITDUPLEX: give direction=\"UP\" or \"DOWN\""},
    {ZONE AB LINK
     "\n<route src=\"a\" dst=\"b\"><link_ctn id=\"l\" direction=\"UP\"/></route></zone>",
     "4:24: no such SPLITDUPLEX link: 'l' (upward); a direction is only for SPLITDUPLEX links"},
    {ZONE AB LINK "\n<route src=\"a\" dst=\"x\"><link_ctn id=\"l\"/></route></zone>",
     "4:1: dst 'x' does not name a host, router or zone"},
    /* bad units and values */
    {ZONE "<host id=\"a\" speed=\"1GHz\"/></zone>",
     "3:29: bad speed of host a: unknown unit 'GHz' in speed '1GHz'"},
    {ZONE "<link id=\"l\" bandwidth=\"1Gb/s\" latency=\"0\"/></zone>",
     "3:29: bad bandwidth of link l: unknown unit 'Gb/s'"},
    {ZONE "<link id=\"l\" bandwidth=\"1GBps\" latency=\"5 ms\"/></zone>",
     "3:29: bad latency of link l: unknown unit ' ms'"},
    {ZONE "<host id=\"a\" speed=\"1Gf,2Gf\" pstate=\"2\"/></zone>",
     "3:29: bad pstate '2' (expected an integer from 0 to 1"},
    {ZONE "<host id=\"a\" speed=\"1Gf\" core=\"4x\"/></zone>", "3:29: bad core count '4x'"},
    /* unknown attribute values, unknown attributes, missing attributes, elements */
    {ZONE "<link id=\"l\" bandwidth=\"1GBps\" latency=\"0\" sharing_policy=\"FOO\"/></zone>",
     "3:29: invalid sharing_policy 'FOO' (expected SHARED, SPLITDUPLEX or FATPIPE)"},
    {ZONE AB LINK "<route src=\"a\" dst=\"b\" symmetrical=\"MAYBE\"/></zone>",
     "3:125: invalid symmetrical 'MAYBE' (expected YES or NO)"},
    {"<zone id=\"z\" routing=\"Fool\"/>", "3:1: unknown routing \"Fool\" (expected Full, Floyd"},
    {"<zone id=\"z\" routing=\"Vivaldi\"/>", "3:1: routing \"Vivaldi\" is not supported by tir"},
    {"<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" "
     "lat=\"0\" topology=\"RING\"/>",
     "3:1: invalid topology 'RING' (expected FLAT, TORUS, FAT_TREE or DRAGONFLY)"},
    {ZONE "<host id=\"a\" speed=\"1Gf\" cores=\"2\"/></zone>",
     "3:29: unknown attribute 'cores' in <host> (expected id, speed, core"},
    {ZONE "<host id=\"a\"/></zone>", "3:29: <host> needs the attribute 'speed'"},
    {ZONE "<hots id=\"a\" speed=\"1Gf\"/></zone>", "3:29: unknown element <hots> in a zone"},
    {ZONE "<host id=\"a\" speed=\"1Gf\"><core n=\"1\"/></host></zone>",
     "3:54: unexpected <core> in <host> (expected prop or disk)"},
    {"<zone id=\"z\"/>", "3:1: <zone> needs the attribute 'routing'"},
    /* duplicate ids */
    {ZONE "<host id=\"a\" speed=\"1Gf\"/>\n  <host id=\"a\" speed=\"1Gf\"/></zone>",
     "4:3: duplicate name 'a': a host of that name already exists"},
    {ZONE "<router id=\"z\"/></zone>", "3:29: duplicate name 'z': a zone of that name"},
    {ZONE LINK "\n" LINK "</zone>", "4:1: duplicate link id 'l'"},
    {ZONE AB LINK "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"
                  "<route src=\"b\" dst=\"a\"><link_ctn id=\"l\"/></route></zone>",
     "4:1: the route between b and a already exists (routes are symmetrical by default)"},
    {"<zone id=\"z\" routing=\"Floyd\"><host id=\"a\" speed=\"1Gf\"/>" LINK
     "\n<route src=\"a\" dst=\"a\"><link_ctn id=\"l\"/></route></zone>",
     "4:1: the route between a and a already exists (you should not declare the reverse"},
    /* structure (SimGrid's DTD) */
    {ZONE AB LINK "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"
                  "<host id=\"c\" speed=\"1Gf\"/></zone>",
     "4:1: <host> after a route in zone 'z'"},
    {ZONE "<host id=\"a\" speed=\"1Gf\"/>\n<zone id=\"y\" routing=\"Full\"/></zone>",
     "4:1: <zone> in zone 'z', which already has hosts or routers"},
    {ZONE "<host id=\"a\" speed=\"1Gf\"/><prop id=\"k\" value=\"v\"/></zone>",
     "3:55: <prop> must come first in zone 'z'"},
    {ZONE "</zone>\n<zone id=\"y\" routing=\"Full\"/>", "4:1: a second top-level zone 'y'"},
    {ZONE "<backbone id=\"b\" bandwidth=\"1GBps\" latency=\"0\"/></zone>",
     "3:29: <backbone> is only allowed in a zone with routing=\"Cluster\""},
    {ZONE "<peer id=\"p\" speed=\"1Gf\" bw_in=\"1GBps\" bw_out=\"1GBps\"/></zone>",
     "3:29: <peer> needs Vivaldi routing"},
    {ZONE AB "<bypassRoute src=\"a\" dst=\"b\"/></zone>", "3:81: <bypassRoute> is not supported"},
    {ZONE "<host id=\"a\" speed=\"1Gf\" speed_file=\"s.txt\"/></zone>",
     "3:29: attribute speed_file: tir does not model availability profiles"},
    {"<config><prop id=\"k\" value=\"v\"/></config>",
     "2:1: the platform has no zone (expected a <zone> or a <cluster>)"},
    /* routes a zone refuses */
    {"<zone id=\"r\" routing=\"Full\"><zone id=\"z1\" routing=\"Full\"><host id=\"a\" "
     "speed=\"1Gf\"/></zone><zone id=\"z2\" routing=\"Full\"><host id=\"b\" speed=\"1Gf\"/>"
     "</zone>" LINK "\n<zoneRoute src=\"z1\" dst=\"z2\" gw_src=\"b\" gw_dst=\"a\">"
     "<link_ctn id=\"l\"/></zoneRoute></zone>",
     "4:1: gw_src 'b' is not inside zone 'z1'"},
    {ZONE AB "\n<route src=\"a\" dst=\"b\"/></zone>",
     "4:1: empty route (between a and b) forbidden"},
    {"<zone id=\"z\" routing=\"Cluster\">" AB LINK "\n<route src=\"a\" dst=\"b\">"
     "<link_ctn id=\"l\"/></route></zone>",
     "4:1: cannot add a route from a to b in zone 'z': in a star zone"},
    /* clusters */
    {"<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3-4\" speed=\"1Gf\" bw=\"1GBps\" "
     "lat=\"0\"/>",
     "3:1: malformed radical '0-3-4'"},
    {"<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-2\" speed=\"1Gf\" bw=\"1GBps\" "
     "lat=\"0\" topology=\"TORUS\" topo_parameters=\"2,2\"/>",
     "3:1: cluster 'c': cannot create host number 3, the radical gives only 3"},
    {"<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" "
     "lat=\"0\" topology=\"TORUS\" topo_parameters=\"2,x\"/>",
     "3:1: invalid torus topo_parameters (expected d1,d2,...) '2,x'"},
    {"<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" "
     "lat=\"0\" topology=\"FAT_TREE\" topo_parameters=\"2;2,2;1,2\"/>",
     "3:1: invalid fat tree topo_parameters '2;2,2;1,2'"},
    {"<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" "
     "lat=\"0\" topology=\"FAT_TREE\" topo_parameters=\"2;2,2;1,2;1\"/>",
     "3:1: fat tree: 2 levels but the cable count vector has 1 values"},
    {"<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-99\" speed=\"1Gf\" bw=\"1GBps\" "
     "lat=\"0\" topology=\"DRAGONFLY\" topo_parameters=\"3,1;1,1;2,1;1\"/>",
     "3:1: dragonfly 'c': 3 groups but 2 routers per chassis"},
};

START_TEST(load_errors) {
  char text[4096];
  platform *p;
  snprintf(text, sizeof text, HEAD "%s\n</platform>\n", bad_cases[_i].body);
  const char *err = load_text(text, &p);
  ck_assert_msg(p == NULL, "case %d loaded", _i);
  char expected[1024];
  snprintf(expected, sizeof expected, "bad.xml:%s", bad_cases[_i].error);
  ck_assert_msg(strstr(err, expected) != NULL, "case %d: '%s' does not contain '%s'", _i, err,
                expected);
}
END_TEST

START_TEST(load_file_errors) {
  char err[256];
  platform *p;
  ck_assert_ptr_null(plat_load("/nonexistent/p.xml", err, sizeof err));
  ck_assert_str_eq(err, "/nonexistent/p.xml: cannot open the platform file: No such file or directory");
  ck_assert_ptr_null(plat_load("/dev/zero", err, sizeof err)); /* a device: refused, not read forever */
  ck_assert_str_eq(err, "/dev/zero: cannot open the platform file: not a regular file (a character device: "
                        "tir reads its inputs from regular files only)");
  ck_assert(strstr(load_text("", &p), "bad.xml:1:1: XML error: Document is empty"));
  ck_assert(strstr(load_text("<?xml version='1.0'?>\n<plat/>\n", &p),
                   "bad.xml:2:1: the root element is <plat> (expected <platform"));
  ck_assert(
      strstr(load_text("<platform version=\"3\"><zone id=\"z\" routing=\"Full\"/></platform>", &p),
             "bad.xml:1:1: platform version 3 is too old"));
  ck_assert(strstr(load_text("<platform version=\"4.2\"/>", &p), "comes from the future"));
  ck_assert(strstr(load_text("<platform><zone id=\"z\" routing=\"Full\"/></platform>", &p),
                   "platform version 0.0 is too old"));
}
END_TEST

/* A Full zone where a -> b was not declared: the platform loads, the route fails; a -> a
 * uses the model loopback; host indices out of range fail too. */
START_TEST(missing_route) {
  platform *p;
  const char *err = load_text(HEAD ZONE AB "</zone>\n</platform>\n", &p);
  ck_assert_msg(p != NULL, "%s", err);
  ck_assert(
      strstr(route(p, "a", "b", NULL), "ERROR no route from 'a' to 'b' in zone 'z' (routing Full"));
  ROUTE(p, "a", "a", "__loopback__");
  char msg[256];
  plat_route r = {0};
  ck_assert_int_eq(plat_get_route(p, 0, 2, &r, msg, sizeof msg), -1);
  ck_assert_str_eq(msg, "no host #0 or #2 (the platform has 2 hosts)");
  plat_route_free(&r);
  plat_free(p);
  /* routing None: no route at all */
  load_text(HEAD "<zone id=\"z\" routing=\"None\">" AB "</zone></platform>", &p);
  ck_assert(strstr(route(p, "a", "b", NULL), "ERROR no route from 'a' to 'b': zone 'z' has "
                                             "routing None"));
  plat_free(p);
}
END_TEST

/* What tir skips or accepts with a warning: trace/trace_connect, actors, disks, random,
 * a unit-less value, a link without latency (0), version 4, AS/ASroute, FULLDUPLEX. */
START_TEST(tolerated) {
  platform *p;
  const char *err = load_text(
      "<?xml version='1.0'?>\n<platform version=\"4\">\n"
      "<random id=\"r\" min=\"0\" max=\"1\" mean=\"0\" std_deviation=\"0\"/>\n"
      "<AS id=\"r\" routing=\"Full\">\n"
      " <AS id=\"z1\" routing=\"Full\"><host id=\"a\" speed=\"1000000\"><disk id=\"d\" "
      "read_bw=\"1GBps\" write_bw=\"1GBps\"/></host></AS>\n"
      " <AS id=\"z2\" routing=\"Full\"><host id=\"b\" speed=\"1Gf\"/></AS>\n"
      " <link id=\"l\" bandwidth=\"1GBps\" sharing_policy=\"FULLDUPLEX\"/>\n"
      " <trace id=\"t\" periodicity=\"1\">0 1</trace>\n"
      " <ASroute src=\"z1\" dst=\"z2\" gw_src=\"a\" gw_dst=\"b\"><link_ctn id=\"l\" "
      "direction=\"DOWN\"/></ASroute>\n"
      " <trace_connect trace=\"t\" element=\"l\" kind=\"BANDWIDTH\"/>\n"
      "</AS>\n<actor host=\"a\" function=\"f\"><argument value=\"1\"/></actor>\n</platform>\n",
      &p);
  ck_assert_msg(p != NULL, "%s", err);
  double lat = -1;
  ck_assert_str_eq(route(p, "a", "b", &lat), "l_DOWN"); /* gateways are the hosts */
  ck_assert(lat == 0.0);
  ROUTE(p, "b", "a", "l_UP");
  ck_assert(plat_host_at(p, host(p, "a"))->speeds[0] == 1e6);
  plat_free(p);
}
END_TEST

/* ==================================================================== shipped platforms */
/* graphene.xml: 144 nodes, 4 cores; inside cabinet 1: limiter, link UP, cabinet
 * backbone, link DOWN, limiter; cabinet 1 -> 4: up to cabinet 1's router, the zoneRoute
 * (uplink 1 UP, main backbone, uplink 4 DOWN), down from cabinet 4's router.
 * Latency: 24us + 0 + 1us + 0 + 1us + 0 + 24us. */
START_TEST(shipped_graphene) {
  platform *p = load_in("platforms", "graphene.xml");
  double lat;
  ck_assert_int_eq(plat_host_count(p), 144);
  ck_assert_int_eq(plat_host_at(p, 0)->cores, 4);
  ROUTE(p, "graphene-1.nancy.grid5000.fr", "graphene-2.nancy.grid5000.fr",
        "graphene-cab1_link_1_limiter graphene-cab1_link_1_UP graphene-cab1_backbone "
        "graphene-cab1_link_2_DOWN graphene-cab1_link_2_limiter");
  ck_assert_str_eq(route(p, "graphene-1.nancy.grid5000.fr", "graphene-144.nancy.grid5000.fr", &lat),
                   "graphene-cab1_link_1_limiter graphene-cab1_link_1_UP graphene-cab1_backbone "
                   "graphene-cab1-uplink_UP graphene-backbone graphene-cab4-uplink_DOWN "
                   "graphene-cab4_backbone graphene-cab4_link_144_DOWN "
                   "graphene-cab4_link_144_limiter");
  TOL(lat, 50e-6);
  ck_assert(link_named(p, "graphene-cab2_link_40_limiter")->bandwidth == 187.5e6);
  plat_free(p);
}
END_TEST

/* taurus.xml: 16 hosts of 12 cores with 5 pstates and the wattage props;
 * fattree-2048.xml: 2048 hosts; node-0 and node-2047 are under different leaves (32
 * nodes each): 2 cables up, 2 down; node-0 -> node-31 stay under leaf 0. A route is
 * computed (never stored): 2048 x 16 routes must be quick. */
START_TEST(shipped_taurus_fattree) {
  platform *p = load_in("platforms", "taurus.xml");
  ck_assert_int_eq(plat_host_count(p), 16);
  const plat_host *h = plat_host_at(p, 15);
  ck_assert(h->cores == 12 && h->npstates == 5 && h->speeds[0] == 2.3e9);
  ck_assert(strstr(plat_host_prop(p, 15, "wattage_per_state"), "110.0:92.0:214.0"));
  plat_free(p);
  p = load_in("platforms", "fattree-2048.xml");
  ck_assert_int_eq(plat_host_count(p), 2048);
  char err[256];
  plat_route r = {0};
  ck_assert_int_eq(plat_get_route(p, 0, 2047, &r, err, sizeof err), 0);
  ck_assert_int_eq(r.n, 4);
  ck_assert_int_eq(plat_get_route(p, 0, 31, &r, err, sizeof err), 0);
  ck_assert_int_eq(r.n, 2);
  for (int a = 0; a < 2048; a++)
    for (int b = 0; b < 2048; b += 128)
      ck_assert_int_eq(plat_get_route(p, a, b, &r, err, sizeof err), 0);
  plat_route_free(&r);
  plat_free(p);
}
END_TEST

/* Every shipped platform and test platform loads. */
START_TEST(all_load) {
  static const char *const shipped[] = {"small_platform.xml", "cluster-stencil.xml", "graphene.xml",
                                        "taurus.xml"};
  static const char *const tests[] = {"cluster_flat.xml",
                                      "cluster_zone.xml",
                                      "dijkstra.xml",
                                      "dragonfly.xml",
                                      "dragonfly_shared.xml",
                                      "fattree.xml",
                                      "fattree_shared.xml",
                                      "fattree3.xml",
                                      "floyd.xml",
                                      "full.xml",
                                      "multi.xml",
                                      "nested.xml",
                                      "nested_dijkstra.xml",
                                      "nested_floyd.xml",
                                      "torus.xml",
                                      "torus_shared.xml"};
  for (size_t i = 0; i < sizeof shipped / sizeof *shipped; i++)
    plat_free(load_in("platforms", shipped[i]));
  for (size_t i = 0; i < sizeof tests / sizeof *tests; i++)
    plat_free(load(tests[i]));
}
END_TEST

/* ==================================================================== the suite */
static void make_tmpdir(void) {
  const char *t = getenv("TMPDIR");
  snprintf(tmpdir, sizeof tmpdir, "%s/check_platform.XXXXXX", t && *t ? t : "/tmp");
  ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void remove_tmpdir(void) {
  char path[512];
  snprintf(path, sizeof path, "%s/bad.xml", tmpdir);
  unlink(path);
  rmdir(tmpdir);
}

static Suite *platform_suite(void) {
  Suite *s = suite_create("platform");
  TCase *tc = tcase_create("routes");
  tcase_add_test(tc, full_small_platform);
  tcase_add_test(tc, full_routes);
  tcase_add_test(tc, full_elements);
  tcase_add_test(tc, floyd_routes);
  tcase_add_test(tc, dijkstra_routes);
  tcase_add_test(tc, flat_cluster_routes);
  tcase_add_test(tc, flat_cluster_between);
  tcase_add_test(tc, default_cluster);
  tcase_add_test(tc, cluster_zone_routes);
  tcase_add_test(tc, torus_routes);
  tcase_add_test(tc, fattree_routes);
  tcase_add_test(tc, dragonfly_routes);
  tcase_add_test(tc, nested_routes);
  tcase_add_test(tc, nested_floyd_routes);
  tcase_add_test(tc, multi_counters);
  suite_add_tcase(s, tc);
  tc = tcase_create("errors");
  tcase_add_checked_fixture(tc, make_tmpdir, remove_tmpdir);
  tcase_add_loop_test(tc, load_errors, 0, (int)(sizeof bad_cases / sizeof bad_cases[0]));
  tcase_add_test(tc, load_file_errors);
  tcase_add_test(tc, missing_route);
  tcase_add_test(tc, tolerated);
  suite_add_tcase(s, tc);
  tc = tcase_create("shipped");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, shipped_graphene);
  tcase_add_test(tc, shipped_taurus_fattree);
  tcase_add_test(tc, all_load);
  suite_add_tcase(s, tc);
  return s;
}

Suite *check_suite(void) { return platform_suite(); }
