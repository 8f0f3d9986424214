/*
 * test_cluster.c - cluster sizing against the textbook formulas (R^2/2 in
 * two tiers, R^3/4 in three), NVIDIA's SuperPOD rows, rail against
 * non-rail, oversubscription and breakouts; and the port map checked for
 * consistency on many designs: every node port cabled once, no switch
 * port used twice, the counts equal to the summary.
 */
#include "unit.h"

#include "nicfit/cluster.h"

#include "catalog_fixture.h"

/* A back end only: N nodes with k links of 400G on generic radix-R switches. */
static void backend_only(struct nicfit_cluster_input *in, long nodes, int links, int radix)
{
	nicfit_cluster_input_default(in);
	in->nodes = nodes;
	in->gpus_per_node = links;
	in->nics_per_node = links;
	in->net[NICFIT_NET_BACKEND].links_per_node = links;
	in->net[NICFIT_NET_BACKEND].link_gbps = 400;
	in->net[NICFIT_NET_BACKEND].radix = radix;
	in->net[NICFIT_NET_FRONTEND].links_per_node = 0;
	in->net[NICFIT_NET_OOB].links_per_node = 0;
}

static void size_ok(const struct nicfit_cluster_input *in, struct nicfit_cluster *c)
{
	struct nicfit_error err;
	int rc;

	nicfit_error_clear(&err);
	rc = nicfit_cluster_size(in, cat, c, &err);
	if (rc)
		fail_msg("sizing failed: %s", err.msg);
}

/*
 * Ports of one switch of tier t: a scheduled fabric's leaf has its fabric
 * ports too, and its spine tier is the cell switch (nicfit/cluster.h).
 */
static int tier_ports(const struct nicfit_cluster_net *nt, int t)
{
	if (nt->scheduled && t == NICFIT_TIER_LEAF)
		return nt->sw.ports + nt->sw.cat->uplink_ports;
	if (nt->scheduled && t == NICFIT_TIER_SPINE)
		return nt->fabric.ports;
	return nt->sw.ports;
}

/* ---- the port map checker ------------------------------------------------------ */

struct check {
	const struct nicfit_cluster *c;
	unsigned char *node_port;   /* [net][node][link] seen */
	unsigned char *sw_port;     /* [switch][port][lane + 1] seen */
	long nsw, maxport;
	long links[NICFIT_NET_COUNT][NICFIT_LINK_LEVELS];
	long cables[NICFIT_NET_COUNT];
	long used[NICFIT_NET_COUNT][NICFIT_TIER_COUNT];
	long errors;
	char first_error[200];
};

static void bad(struct check *k, const char *what, long id)
{
	if (!k->errors++)
		snprintf(k->first_error, sizeof(k->first_error), "%s (endpoint %ld)", what, id);
}

static long nswitches(const struct nicfit_cluster *c)
{
	long s = 0;
	int n, t;

	for (n = 0; n < NICFIT_NET_COUNT; n++)
		for (t = 0; t < NICFIT_TIER_COUNT; t++)
			s += c->net[n].tier[t].switches;
	return s;
}

/* Which network and tier switch id belongs to (by the name the library gives it). */
static void tier_of(const struct nicfit_cluster *c, long id, int *net, int *tier)
{
	char name[64];
	const char *t;

	nicfit_cluster_endpoint_name(c, id, name, sizeof(name));
	*net = !strncmp(name, "be", 2) ? 0 : !strncmp(name, "fe", 2) ? 1 : 2;
	t = strrchr(name, '-') + 1;
	*tier = !strncmp(t, "leaf", 4) ? 0 : !strncmp(t, "spine", 5) ? 1 : 2;
}

static int check_link(void *ctx, const struct nicfit_cluster_link *l)
{
	struct check *k = ctx;
	const struct nicfit_cluster *c = k->c;
	long N = c->in.nodes;
	long ends[2] = { l->a, l->b };
	int ports[2] = { l->port_a, l->port_b }, lanes[2] = { l->lane_a, l->lane_b }, i, q;

	k->links[l->net][l->level]++;
	k->cables[l->net] += l->cables;
	if (l->cables < l->new_cable)
		bad(k, "a new cable that adds no cable", l->a);
	if (!(l->length_m > 0) || !l->cable || !l->cable[0])
		bad(k, "link without a length or cable", l->a);
	for (i = 0; i < 2; i++) {
		long id = ends[i];

		if (id < 0 || id >= N + k->nsw) {
			bad(k, "endpoint out of range", id);
			continue;
		}
		if (id < N) {
			int links = c->net[l->net].links_per_node;
			long slot;

			if (l->net == NICFIT_NET_OOB)
				links = 1;
			if (ports[i] < 0 || ports[i] >= links) {
				bad(k, "node port out of range", id);
				continue;
			}
			slot = ((long)l->net * N + id) * NICFIT_CLUSTER_MAX_LINKS + ports[i];
			if (k->node_port[slot]++)
				bad(k, "node port cabled twice", id);
		} else {
			int net, tier;
			long s = id - N, slot;

			if (ports[i] == -1) {         /* a management port */
				if (l->level != NICFIT_LINK_MGMT || i != 0)
					bad(k, "mgmt port on a data link", id);
				slot = s * (k->maxport + 1) * 9 + k->maxport * 9;
			} else {
				tier_of(c, id, &net, &tier);
				if (ports[i] >= tier_ports(&c->net[net], tier))
					bad(k, "switch port beyond the radix", id);
				if (lanes[i] >= c->net[net].breakout)
					bad(k, "lane beyond the split", id);
				if (lanes[i] <= 0)
					k->used[net][tier] += lanes[i] == 0 ? c->net[net].split_stride : 1;
				slot = (s * (k->maxport + 1) + ports[i]) * 9 + lanes[i] + 1;
				/* a split that takes its neighbours' logical ports leaves them unused */
				if (lanes[i] >= 0 && ports[i] % c->net[net].split_stride)
					bad(k, "a split on a port another split takes", id);
				for (q = 1; lanes[i] == 0 && q < c->net[net].split_stride; q++)
					if (k->sw_port[slot - 1 + q * 9]++)
						bad(k, "a port a split takes is used", id);
			}
			if (k->sw_port[slot]++)
				bad(k, "switch port used twice", id);
		}
	}
	return 0;
}

/* Items of network n's cable lines that are cables or fibres, not optics. */
static long non_optic_items(const struct nicfit_cluster *c, int n)
{
	long qty = 0;
	size_t i;

	for (i = 0; i < c->ncables; i++)
		if ((int)c->cables[i].net == n && strcmp(c->cables[i].type, "optic"))
			qty += c->cables[i].qty;
	return qty;
}

/* Walk c and check everything the port map promises. */
static void check_port_map(const struct nicfit_cluster *c)
{
	struct check k;
	long N = c->in.nodes;
	int n, lv, t;

	memset(&k, 0, sizeof(k));
	k.c = c;
	k.nsw = nswitches(c);
	for (n = 0; n < NICFIT_NET_COUNT; n++)
		for (t = 0; t < NICFIT_TIER_COUNT; t++)
			if (tier_ports(&c->net[n], t) > k.maxport)
				k.maxport = tier_ports(&c->net[n], t);
	k.node_port = calloc((size_t)(NICFIT_NET_COUNT * N * NICFIT_CLUSTER_MAX_LINKS), 1);
	k.sw_port = calloc((size_t)(k.nsw * (k.maxport + 1) * 9), 1);
	assert_non_null(k.node_port);
	assert_non_null(k.sw_port);
	assert_int_equal(nicfit_cluster_walk(c, check_link, &k), 0);
	if (k.errors)
		fail_msg("%ld port map errors, first: %s", k.errors, k.first_error);
	for (n = 0; n < NICFIT_NET_COUNT; n++) {
		const struct nicfit_cluster_net *nt = &c->net[n];
		long ports = 0, i, want;

		if (!nt->enabled)
			continue;
		/* every node port exactly once */
		want = n == NICFIT_NET_OOB ? 1 : nt->links_per_node;
		for (i = 0; i < N * NICFIT_CLUSTER_MAX_LINKS; i++)
			ports += k.node_port[(long)n * N * NICFIT_CLUSTER_MAX_LINKS + i];
		assert_int_equal(ports, N * want);
		for (lv = 0; lv < NICFIT_LINK_LEVELS; lv++)
			assert_int_equal(k.links[n][lv], nt->links[lv]);
		assert_int_equal(k.cables[n], nt->cables);
		/* the count is the BOM's: every counted item but the optics */
		assert_int_equal(non_optic_items(c, n), nt->cables);
		for (t = 0; t < NICFIT_TIER_COUNT; t++) {
			long border = 0;

			/* the front end's border uplinks and MLAG peer links are counted, not walked */
			if (n == NICFIT_NET_FRONTEND && t == (int)c->border.top_tier)
				border += c->border.uplinks;
			if (n == NICFIT_NET_FRONTEND && t == NICFIT_TIER_LEAF)
				border += c->border.leaf_peer_ports;
			assert_int_equal(k.used[n][t] + border, nt->tier[t].ports_used);
			assert_int_equal(nt->tier[t].ports_used + nt->tier[t].ports_free,
					 nt->tier[t].switches * tier_ports(nt, t));
		}
	}
	free(k.node_port);
	free(k.sw_port);
}

/* ---- textbook formulas ------------------------------------------------------------ */

static void two_tier_limit(void **state)
{
	static const int radix[] = { 8, 16, 32, 64, 128 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(radix) / sizeof(radix[0]); i++) {
		struct nicfit_cluster_input in;
		struct nicfit_cluster c;
		long k = radix[i];

		/* k^2/2 hosts: k leaves of k/2 down + k/2 up, k/2 spines */
		backend_only(&in, k * k / 2, 1, (int)k);
		in.net[NICFIT_NET_BACKEND].min_tiers = 2;
		size_ok(&in, &c);
		assert_int_equal(c.net[0].tiers, 2);
		assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].switches, k);
		assert_int_equal(c.net[0].tier[NICFIT_TIER_SPINE].switches, k / 2);
		assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].down, k / 2);
		assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].up, k / 2);
		assert_int_equal(c.net[0].links[NICFIT_LINK_HOST], k * k / 2);
		assert_int_equal(c.net[0].links[NICFIT_LINK_LEAF_SPINE], k * k / 2);
		assert_int_equal(c.net[0].ports_free, 0);
		assert_int_equal(c.net[0].max_endpoints, k * k / 2);
		check_port_map(&c);
		nicfit_cluster_release(&c);
		/* one more host needs a third tier */
		backend_only(&in, k * k / 2 + 1, 1, (int)k);
		size_ok(&in, &c);
		assert_int_equal(c.net[0].tiers, 3);
		check_port_map(&c);
		nicfit_cluster_release(&c);
	}
}

static void three_tier_limit(void **state)
{
	static const int radix[] = { 4, 8, 16, 32, 64 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(radix) / sizeof(radix[0]); i++) {
		struct nicfit_cluster_input in;
		struct nicfit_cluster c;
		struct nicfit_error err;
		long k = radix[i], hosts = k * k * k / 4;

		/* the k-ary fat tree: k pods, k^2/2 leaves and spines, k^2/4 cores */
		backend_only(&in, hosts, 1, (int)k);
		size_ok(&in, &c);
		assert_int_equal(c.net[0].tiers, 3);
		assert_int_equal(c.net[0].pods, k);
		assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].switches, k * k / 2);
		assert_int_equal(c.net[0].tier[NICFIT_TIER_SPINE].switches, k * k / 2);
		assert_int_equal(c.net[0].tier[NICFIT_TIER_CORE].switches, k * k / 4);
		assert_int_equal(c.net[0].links[NICFIT_LINK_HOST], hosts);
		assert_int_equal(c.net[0].links[NICFIT_LINK_LEAF_SPINE], hosts);
		assert_int_equal(c.net[0].links[NICFIT_LINK_SPINE_CORE], hosts);
		assert_int_equal(c.net[0].ports_free, 0);
		if (k <= 32)
			check_port_map(&c);
		nicfit_cluster_release(&c);
		/* beyond k^3/4 there is no fourth tier: the error says what to do */
		backend_only(&in, hosts + 1, 1, (int)k);
		nicfit_error_clear(&err);
		assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_USAGE);
		assert_non_null(strstr(err.msg, "more than three tiers"));
		assert_non_null(strstr(err.msg, "planes"));
		nicfit_cluster_release(&c);
	}
}

/* ---- NVIDIA SuperPOD rows (docs/reference/anchors.md 3.2) ---------------------------------- */

static void superpod(void **state)
{
	/* nodes, planes, leaves, spines; node-leaf cables = leaf-spine cables = GPUs.
	 * The plane count of the 8 and 16 SU rows is not published (the B300
	 * designs are dual-plane): with 2 and 4 planes every plane stays in two
	 * tiers and the counts match the table. */
	static const long rows[][4] = {
		{ 64, 1, 16, 8 }, { 128, 1, 32, 16 }, { 256, 1, 64, 32 },
		{ 512, 2, 128, 64 }, { 1024, 4, 256, 128 },
	};
	size_t i;
	int rail;

	(void)state;
	for (rail = 0; rail <= 1; rail++)
		for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
			struct nicfit_cluster_input in;
			struct nicfit_cluster c;

			backend_only(&in, rows[i][0], 8, 64);
			in.net[NICFIT_NET_BACKEND].planes = (int)rows[i][1];
			in.net[NICFIT_NET_BACKEND].rail_optimized = rail;
			size_ok(&in, &c);
			assert_int_equal(c.net[0].tiers, 2);
			assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].switches, rows[i][2]);
			assert_int_equal(c.net[0].tier[NICFIT_TIER_SPINE].switches, rows[i][3]);
			assert_int_equal(c.net[0].links[NICFIT_LINK_HOST], rows[i][0] * 8);
			assert_int_equal(c.net[0].links[NICFIT_LINK_LEAF_SPINE], rows[i][0] * 8);
			check_port_map(&c);
			nicfit_cluster_release(&c);
		}
}

/* The rail generator critiqued in the reference builds 4 leaves + 32 spines per
 * rail (288 switches) for 1024 GPUs on radix 64; shared spines need 48. */
static void shared_spines(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;

	(void)state;
	backend_only(&in, 128, 8, 64);
	in.net[NICFIT_NET_BACKEND].rail_optimized = 1;
	size_ok(&in, &c);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].switches +
			 c.net[0].tier[NICFIT_TIER_SPINE].switches, 48);
	/* every leaf has the same number of links to every spine */
	assert_int_equal(c.net[0].uplinks_per_leaf % c.net[0].tier[NICFIT_TIER_SPINE].switches, 0);
	nicfit_cluster_release(&c);
}

/* ---- rail against non-rail ---------------------------------------------------------- */

struct railck {
	const struct nicfit_cluster *c;
	int *leaf_rail;   /* rail seen on each leaf, -1 none, -2 several */
	long *leaf_node;  /* node seen on each leaf, -1 none, -2 several */
	long n;
};

static int rail_link(void *ctx, const struct nicfit_cluster_link *l)
{
	struct railck *r = ctx;
	long leaf = l->b - r->c->in.nodes;

	if (l->level != NICFIT_LINK_HOST || l->net != NICFIT_NET_BACKEND)
		return 0;
	assert_true(leaf >= 0 && leaf < r->n);
	if (r->leaf_rail[leaf] == -1)
		r->leaf_rail[leaf] = l->port_a;
	else if (r->leaf_rail[leaf] != l->port_a)
		r->leaf_rail[leaf] = -2;
	if (r->leaf_node[leaf] == -1)
		r->leaf_node[leaf] = l->a;
	else if (r->leaf_node[leaf] != l->a)
		r->leaf_node[leaf] = -2;
	return 0;
}

static void rail_vs_nonrail(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct railck r;
	long i;
	int rail;

	(void)state;
	for (rail = 0; rail <= 1; rail++) {
		backend_only(&in, 64, 8, 64);
		in.net[NICFIT_NET_BACKEND].rail_optimized = rail;
		size_ok(&in, &c);
		r.c = &c;
		r.n = c.net[0].tier[0].switches + c.net[0].tier[1].switches;
		r.leaf_rail = malloc((size_t)r.n * sizeof(int));
		r.leaf_node = malloc((size_t)r.n * sizeof(long));
		for (i = 0; i < r.n; i++) {
			r.leaf_rail[i] = -1;
			r.leaf_node[i] = -1;
		}
		nicfit_cluster_walk(&c, rail_link, &r);
		for (i = 0; i < c.net[0].tier[0].switches; i++) {
			/* rail: one NIC index per leaf, many nodes; non-rail: several NICs */
			if (rail)
				assert_true(r.leaf_rail[i] >= 0);
			else
				assert_int_equal(r.leaf_rail[i], -2);
			assert_int_equal(r.leaf_node[i], -2);
		}
		assert_int_equal(c.net[0].rails, rail ? 8 : 1);
		free(r.leaf_rail);
		free(r.leaf_node);
		nicfit_cluster_release(&c);
	}
	/* 16 nodes: rails share leaves two by two; rail-only needs no spines */
	backend_only(&in, 16, 8, 64);
	in.net[NICFIT_NET_BACKEND].rail_optimized = 1;
	size_ok(&in, &c);
	assert_int_equal(c.net[0].tiers, 2);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].switches, 4);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_SPINE].switches, 2);
	check_port_map(&c);
	nicfit_cluster_release(&c);
	in.net[NICFIT_NET_BACKEND].rail_only = 1;
	size_ok(&in, &c);
	assert_int_equal(c.net[0].tiers, 1);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].switches, 2);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_SPINE].switches, 0);
	check_port_map(&c);
	nicfit_cluster_release(&c);
	/* everything on one switch: one tier whatever the layout */
	backend_only(&in, 8, 8, 64);
	in.net[NICFIT_NET_BACKEND].rail_optimized = 1;
	size_ok(&in, &c);
	assert_int_equal(c.net[0].tiers, 1);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].switches, 1);
	nicfit_cluster_release(&c);
}

/* ---- oversubscription ------------------------------------------------------------------ */

static void oversubscription(void **state)
{
	static const struct { double x; int down, up; } t[] = {
		{ 1, 32, 32 }, { 2, 42, 21 }, { 3, 48, 16 }, { 7, 56, 8 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct nicfit_cluster_input in;
		struct nicfit_cluster c;

		/* one link per node, enough nodes for full leaves */
		backend_only(&in, 1000, 1, 64);
		in.net[NICFIT_NET_BACKEND].oversubscription = t[i].x;
		size_ok(&in, &c);
		assert_int_equal(c.net[0].endpoints_per_leaf, t[i].down);
		assert_true(c.net[0].uplinks_per_leaf >= t[i].up);
		assert_true(c.net[0].leaf_ratio <= t[i].x + 1e-9);
		assert_true(c.net[0].endpoints_per_leaf + c.net[0].uplinks_per_leaf <= 64);
		check_port_map(&c);
		nicfit_cluster_release(&c);
	}
}

/* Narval (reference 3.1): 40-port HDR leaves, 33 ports split to 66 HDR100
 * nodes and 7 uplinks, 33:7 = 4.7:1. */
static void narval(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;

	(void)state;
	backend_only(&in, 132, 1, 40);
	in.net[NICFIT_NET_BACKEND].link_gbps = 100;
	in.net[NICFIT_NET_BACKEND].switch_gbps = 200;
	in.net[NICFIT_NET_BACKEND].oversubscription = 4.72;
	size_ok(&in, &c);
	assert_int_equal(c.net[0].breakout, 2);
	assert_int_equal(c.net[0].endpoints_per_leaf, 66);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].down, 33);
	assert_int_equal(c.net[0].uplinks_per_leaf, 7);
	assert_near(c.net[0].leaf_ratio, 33.0 / 7.0, 1e-9);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].switches, 2);
	check_port_map(&c);
	nicfit_cluster_release(&c);
}

/* ---- breakouts -------------------------------------------------------------------------- */

static const struct nicfit_cluster_cable *find_cable(const struct nicfit_cluster *c,
						     const char *part)
{
	size_t i;

	for (i = 0; i < c->ncables; i++)
		if (!strcmp(c->cables[i].part, part))
			return &c->cables[i];
	return NULL;
}

static void breakout(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	const struct nicfit_cluster_cable *x;
	size_t i;
	int priced = 0;

	(void)state;
	/* the seed article: one 100G port to four 25G servers, MCP7F00-A002R30N */
	backend_only(&in, 4, 1, 0);
	in.net[NICFIT_NET_BACKEND].switch_id = "sn2100";
	in.net[NICFIT_NET_BACKEND].link_gbps = 25;
	in.layout.slack_m = 0;
	size_ok(&in, &c);
	assert_int_equal(c.net[0].breakout, 4);
	assert_int_equal(c.net[0].tiers, 1);
	assert_int_equal(c.net[0].links[NICFIT_LINK_HOST], 4);
	assert_int_equal(c.net[0].cables, 1);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].ports_used, 1);
	x = find_cable(&c, "mcp7f00-a002r30n");
	assert_non_null(x);
	assert_int_equal(x->qty, 1);
	assert_int_equal(x->links, 4);
	for (i = 0; i < c.nbom; i++)
		if (!strcmp(c.bom[i].part, "mcp7f00-a002r30n")) {
			assert_true(c.bom[i].priced);
			assert_near(c.bom[i].unit_usd, 149.95, 1e-9);
			priced = 1;
		}
	assert_true(priced);
	assert_near(c.total_usd, 149.95, 1e-9);
	assert_string_equal(c.prices_as_of, "2026-10-30");
	check_port_map(&c);
	nicfit_cluster_release(&c);
	/* without splitting each 100G port carries one 25G node */
	in.net[NICFIT_NET_BACKEND].breakout = 0;
	size_ok(&in, &c);
	assert_int_equal(c.net[0].breakout, 1);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].ports_used, 4);
	nicfit_cluster_release(&c);
	/* SN2700: 32 ports but 64 logical, so only 10 ports split 4x25 */
	backend_only(&in, 40, 2, 0);
	in.net[NICFIT_NET_BACKEND].switch_id = "sn2700";
	in.net[NICFIT_NET_BACKEND].link_gbps = 25;
	size_ok(&in, &c);
	assert_int_equal(c.net[0].breakout, 4);
	assert_int_equal(c.net[0].endpoints_per_leaf, 40);
	assert_int_equal(c.net[0].tiers, 2);
	check_port_map(&c);
	nicfit_cluster_release(&c);
	/* SN5600: 800G ports split 2x400 for 400G NICs */
	backend_only(&in, 64, 8, 0);
	in.net[NICFIT_NET_BACKEND].switch_id = "sn5600";
	size_ok(&in, &c);
	assert_int_equal(c.net[0].breakout, 2);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].switches, 8);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_SPINE].switches, 4);
	check_port_map(&c);
	nicfit_cluster_release(&c);
}

/* Twin-port OSFP cages (QM9700: 64 logical NDR ports in 32 cages): one
 * splitter DAC or twin-port transceiver per cage, not per port. */
/*
 * Ports as lanes (issue 12): HDR NICs (4 x 50G PAM4) on a QM9700 take two
 * ports per twin-port cage, 64 per switch, so 128 need more than one
 * switch; EDR NICs (4 x 25G NRZ) on a QM8700 take a whole port each (the
 * HDR100 split needs 2 x 50G legs), 80 nodes 80 ports. NVIDIA MCP7Y60 and
 * MCP7Y70 specifications.
 */
static void lanes_decide_ports(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	const struct nicfit_cluster_net *be = &c.net[NICFIT_NET_BACKEND];
	size_t i;
	int splitter = 0;

	(void)state;
	backend_only(&in, 32, 4, 64);
	in.net[NICFIT_NET_BACKEND].link_gbps = 200;
	in.net[NICFIT_NET_BACKEND].switch_id = "qm9700";
	in.nic_id = "mcx653105a-hdat";
	size_ok(&in, &c);
	assert_int_equal(be->fit.kind, NICFIT_MATCH_DIRECT);
	assert_int_equal(be->fit.per_port, 1);
	assert_int_equal(be->fit.per_cage, 2);
	assert_int_equal(be->breakout, 1);
	assert_int_equal(be->tiers, 2);
	assert_true(be->tier[NICFIT_TIER_LEAF].switches >= 2);
	assert_true(be->tier[NICFIT_TIER_LEAF].down <= 64);
	for (i = 0; i < c.ncables; i++)
		if (c.cables[i].net == NICFIT_NET_BACKEND && c.cables[i].cat &&
		    !strncmp(c.cables[i].part, "mcp7y60", 7))
			splitter = 1;
	assert_true(splitter);
	nicfit_cluster_release(&c);

	backend_only(&in, 80, 1, 40);
	in.gpus_per_node = 1;
	in.net[NICFIT_NET_BACKEND].link_gbps = 100;
	in.net[NICFIT_NET_BACKEND].switch_id = "qm8700";
	in.nic_id = "mcx556a-ecat";
	size_ok(&in, &c);
	assert_int_equal(be->fit.per_port, 1);
	assert_int_equal(be->breakout, 1);
	assert_int_equal(be->tier[NICFIT_TIER_LEAF].down * be->tier[NICFIT_TIER_LEAF].switches, 80);
	nicfit_cluster_release(&c);

	/* a 400GbE ConnectX-7 on a Spectrum-3: optics at both ends, no copper */
	backend_only(&in, 8, 1, 32);
	in.net[NICFIT_NET_BACKEND].switch_id = "sn4700";
	in.nic_id = "mcx75310aas-neat";
	size_ok(&in, &c);
	assert_int_equal(be->fit.kind, NICFIT_MATCH_OPTICS);
	for (i = 0; i < c.ncables; i++) {
		const struct nicfit_cluster_cable *x = &c.cables[i];

		if (x->net != NICFIT_NET_BACKEND)
			continue;
		assert_true(!strcmp(x->type, "optic") || !strcmp(x->type, "fiber"));
		if (x->cat)
			assert_true(strcmp(x->cat->end_a, "QSFP112") != 0);
	}
	nicfit_cluster_release(&c);
}

/*
 * An InfiniBand rate named for the node port is that port type: HDR on a
 * QM9700 is 4 x 50G PAM4, one to a switch port and two to a cage, as an
 * HDR card is, where a bare 200 on that switch is NDR200 (2 x 100G), two
 * to a port; the two designs differ in leaves (2 tiers against 1).
 */
static void ib_rate_names_port(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	const struct nicfit_cluster_net *be = &c.net[NICFIT_NET_BACKEND];
	long card_leaves;

	(void)state;
	backend_only(&in, 16, 8, 64);
	in.net[NICFIT_NET_BACKEND].link_gbps = 200;
	in.net[NICFIT_NET_BACKEND].switch_id = "qm9700";
	in.nic_id = "mcx653105a-hdat";
	size_ok(&in, &c);
	card_leaves = be->tier[NICFIT_TIER_LEAF].switches;
	assert_int_equal(be->tiers, 2);
	nicfit_cluster_release(&c);

	in.nic_id = NULL;
	snprintf(in.net[NICFIT_NET_BACKEND].link_ib, sizeof(in.net[0].link_ib), "HDR");
	in.net[NICFIT_NET_BACKEND].link_ib_lanes = 4;
	in.net[NICFIT_NET_BACKEND].link_ib_lane_gbps = 50;
	size_ok(&in, &c);
	assert_int_equal(be->fit.kind, NICFIT_MATCH_DIRECT);
	assert_int_equal(be->fit.per_port, 1);
	assert_int_equal(be->fit.per_cage, 2);
	assert_string_equal(be->node_cage, "QSFP56");
	assert_int_equal(be->tiers, 2);
	assert_int_equal(be->tier[NICFIT_TIER_LEAF].switches, card_leaves);
	nicfit_cluster_release(&c);

	in.net[NICFIT_NET_BACKEND].link_ib[0] = 0;
	in.net[NICFIT_NET_BACKEND].link_ib_lanes = 0;
	in.net[NICFIT_NET_BACKEND].link_ib_lane_gbps = 0;
	size_ok(&in, &c);
	assert_int_equal(be->fit.per_port, 2);
	assert_int_equal(be->tiers, 1);
	nicfit_cluster_release(&c);
}

static void twin_port_cages(void **state)
{
	static const char overlay[] = "{ \"schema\": \"nicfit.catalog.v1\", \"switches\": "
				      "[ { \"id\": \"qm9700\", \"ports_per_cage\": 2 } ] }";
	struct nicfit_catalog *twin;
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;
	const struct nicfit_cluster_cable *x;
	long splitters = 0;
	size_t i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&twin, &err), 0);
	assert_int_equal(nicfit_catalog_overlay(twin, "twin", overlay, sizeof(overlay) - 1, &err), 0);
	backend_only(&in, 64, 8, 0);
	in.net[0].switch_id = "qm9700";
	in.nic_id = "mcx75310aas-neat";
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, twin, &c, &err), 0);
	assert_int_equal(c.net[0].sw.per_cage, 2);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].switches, 16);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_SPINE].switches, 8);
	/* 16 leaves x 16 uplink cages + 8 spines x 32 cages */
	x = find_cable(&c, "mma4z00-ns");
	assert_non_null(x);
	assert_int_equal(x->qty, 16 * 16 + 8 * 32);
	assert_int_equal(x->links, 512);
	/* in the rack, one splitter DAC per cage feeds two NIC ports */
	for (i = 0; i < c.ncables; i++)
		if (c.cables[i].level == NICFIT_LINK_HOST) {
			assert_string_equal(c.cables[i].type, "breakout-dac");
			splitters += c.cables[i].qty;
		}
	assert_int_equal(splitters, 256);
	check_port_map(&c);
	nicfit_cluster_release(&c);
	nicfit_catalog_free(twin);
}

/*
 * SN2700: 32 ports, 64 logical ports; a 4-way split takes its neighbour's
 * logical ports (Linux mlxsw, mlxsw_sp_port_split()), so one switch takes
 * 16 split ports x 4 = 64 node ports, on every port. 48 (12 nodes x 4 at
 * 25G) and 64 (16 x 4 at 10G) fit one switch; 68 need two tiers.
 */
static void split_takes_neighbour(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	const struct nicfit_cluster_net *be = &c.net[NICFIT_NET_BACKEND];

	(void)state;
	backend_only(&in, 12, 4, 0);
	in.net[NICFIT_NET_BACKEND].switch_id = "sn2700";
	in.net[NICFIT_NET_BACKEND].link_gbps = 25;
	size_ok(&in, &c);
	assert_int_equal(be->split_stride, 2);
	assert_int_equal(be->breakout, 4);
	assert_int_equal(be->tiers, 1);
	assert_int_equal(be->tier[NICFIT_TIER_LEAF].down, 24);
	assert_int_equal(be->tier[NICFIT_TIER_LEAF].ports_used, 24);
	check_port_map(&c);
	nicfit_cluster_release(&c);

	backend_only(&in, 16, 4, 0);
	in.net[NICFIT_NET_BACKEND].switch_id = "sn2700";
	in.net[NICFIT_NET_BACKEND].link_gbps = 10;
	in.nic_id = "x710-da2";
	size_ok(&in, &c);
	assert_int_equal(be->tiers, 1);
	assert_int_equal(be->tier[NICFIT_TIER_LEAF].ports_free, 0);
	check_port_map(&c);
	nicfit_cluster_release(&c);

	backend_only(&in, 17, 4, 0);
	in.net[NICFIT_NET_BACKEND].switch_id = "sn2700";
	in.net[NICFIT_NET_BACKEND].link_gbps = 25;
	size_ok(&in, &c);
	assert_int_equal(be->tiers, 2);
	check_port_map(&c);
	nicfit_cluster_release(&c);

	/* a 2-way split fits every port's share: no neighbour taken */
	backend_only(&in, 16, 4, 0);
	in.net[NICFIT_NET_BACKEND].switch_id = "sn2700";
	in.net[NICFIT_NET_BACKEND].link_gbps = 50;
	size_ok(&in, &c);
	assert_int_equal(be->breakout, 2);
	assert_int_equal(be->split_stride, 1);
	assert_int_equal(be->tiers, 1);
	check_port_map(&c);
	nicfit_cluster_release(&c);
}

/*
 * A twin-port optic on a QM9700 cage serves two node ports, each with its
 * own MPO-12 fibre to a single-port optic at the NIC: two cables per cage,
 * one per link, as the BOM's fibre lines count them (docs/json-cluster.md).
 * 32 nodes x 8 rail-optimized: 256 host links and 256 leaf-spine links,
 * 512 fibres; rail-only: 256.
 */
static void twin_optic_fibres(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	const struct nicfit_cluster_net *be = &c.net[NICFIT_NET_BACKEND];

	(void)state;
	backend_only(&in, 32, 8, 0);
	in.net[NICFIT_NET_BACKEND].switch_id = "qm9700";
	in.net[NICFIT_NET_BACKEND].rail_optimized = 1;
	size_ok(&in, &c);
	assert_int_equal(be->links[NICFIT_LINK_HOST], 256);
	assert_int_equal(be->links[NICFIT_LINK_LEAF_SPINE], 256);
	assert_int_equal(be->cables, 512);
	check_port_map(&c);
	nicfit_cluster_release(&c);

	in.net[NICFIT_NET_BACKEND].rail_only = 1;
	size_ok(&in, &c);
	assert_int_equal(be->links[NICFIT_LINK_HOST], 256);
	assert_int_equal(be->cables, 256);
	check_port_map(&c);
	nicfit_cluster_release(&c);
}

/*
 * 800G switch-to-switch on single-port OSFP cages (Spectrum-4 SN5600): a
 * twin-port optic at each end and two fibres per link, as NVIDIA
 * documents "switch-to-switch at 800Gb/s" (MMA4Z00-NS400 connectivity
 * scenarios); multimode MMA4Z00-NS up to its 50 m, single-mode MMS4X00-NS
 * beyond; never a generic link while the catalog has them.
 */
struct fibre_labels {
	long twin, other;
};

static int count_labels(void *ctx, const struct nicfit_cluster_link *l)
{
	struct fibre_labels *f = ctx;

	if (l->level == NICFIT_LINK_LEAF_SPINE)
		*(strstr(l->cable, " + 2x fiber-") ? &f->twin : &f->other) += 1;
	return 0;
}

static void leaf_spine_800g(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	const struct nicfit_cluster_cable *x;
	struct fibre_labels f;
	long optics = 0, fibres = 0, flinks = 0;
	size_t i;
	int pass;

	(void)state;
	for (pass = 0; pass < 2; pass++) {
		const char *optic = pass ? "mms4x00-ns" : "mma4z00-ns";

		backend_only(&in, 32, 8, 0);
		in.net[NICFIT_NET_BACKEND].switch_id = "sn5600";
		in.nic_id = "mcx75310aas-neat";
		if (pass) {
			/* leaf-spine runs past 50 m: single-mode */
			in.layout.row_pitch_m = 30;
			in.layout.slack_m = 10;
			in.layout.slack_frac = 1;
		}
		size_ok(&in, &c);
		assert_int_equal(c.net[0].links[NICFIT_LINK_LEAF_SPINE], 128);
		optics = fibres = flinks = 0;
		for (i = 0; i < c.ncables; i++) {
			x = &c.cables[i];
			if (x->level != NICFIT_LINK_LEAF_SPINE)
				continue;
			assert_string_not_equal(x->type, "generic");
			if (!strcmp(x->type, "optic")) {
				assert_string_equal(x->part, optic);
				assert_int_equal(x->links, 128);
				optics += x->qty;
			} else {
				assert_string_equal(x->type, "fiber");
				assert_non_null(strstr(x->part, pass ? "-smf-" : "-mmf-"));
				assert_near(x->gbps, 400, 1e-9);
				fibres += x->qty;
				flinks += x->links;
			}
		}
		assert_int_equal(optics, 2 * 128);
		assert_int_equal(fibres, 2 * 128);
		assert_int_equal(flinks, 128);
		memset(&f, 0, sizeof(f));
		assert_int_equal(nicfit_cluster_walk(&c, count_labels, &f), 0);
		assert_int_equal(f.twin, 128);
		assert_int_equal(f.other, 0);
		check_port_map(&c);
		nicfit_cluster_release(&c);
	}
	/* the same design on twin-port QM9700 cages keeps one fibre per 400G link */
	backend_only(&in, 32, 8, 0);
	in.net[NICFIT_NET_BACKEND].switch_id = "qm9700";
	in.nic_id = "mcx75310aas-neat";
	size_ok(&in, &c);
	fibres = 0;
	for (i = 0; i < c.ncables; i++)
		if (c.cables[i].level == NICFIT_LINK_LEAF_SPINE && !strcmp(c.cables[i].type, "fiber"))
			fibres += c.cables[i].qty;
	assert_int_equal(fibres, c.net[0].links[NICFIT_LINK_LEAF_SPINE]);
	x = find_cable(&c, "mma4z00-ns");
	assert_non_null(x);
	nicfit_cluster_release(&c);
}

/* The leaf-spine links of a walk: how many, and whether each twin cable joins two whole cages. */
struct twin_walk {
	long links, cables, bad;
	int copper;             /* every run of 3-5 m must be on MCA4J80 */
	long short_optics;      /* runs of 3-5 m on anything else */
	struct nicfit_cluster_link prev;
};

static int twin_link(void *ctx, const struct nicfit_cluster_link *l)
{
	struct twin_walk *w = ctx;

	if (l->level != NICFIT_LINK_LEAF_SPINE)
		return 0;
	w->links++;
	w->cables += l->cables;
	if (strncmp(l->cable, "980-9i60", 8)) {
		w->short_optics += l->length_m <= 5;
		return 0;
	}
	/* the second port of a cage rides the first's cable to the same far cage */
	if (l->port_a % 2 == 0 ? !l->new_cable || l->port_b % 2 :
	    l->new_cable || l->a != w->prev.a || l->b != w->prev.b ||
	    l->port_a != w->prev.port_a + 1 || l->port_b != w->prev.port_b + 1)
		w->bad++;
	w->prev = *l;
	return 0;
}

/*
 * A leaf-spine run of 3-5 m between twin-port QM9700 cages takes NVIDIA's
 * MCA4J80 active copper, one cable for both ports of a leaf cage to both
 * of a spine cage (the walk pairs them), before a pair of twin-port
 * optics: NVIDIA's linear ACC "extend[s] the low-cost, low-power, and low
 * latency of copper cables from 3- to 5-meters", "twin-port OSFP for
 * 800G-to-800G switch-to-switch links" (LinkX Copper DAC and LACC Cables
 * Overview). Past 5 m the optics stay; an Ethernet SN5600 never takes
 * the InfiniBand-only cable; a fabric whose leaves reach each spine once
 * cannot pair its cages and keeps optics too.
 */
static void twin_copper_leaf_spine(void **state)
{
	static const struct {
		const char *sw;
		long nodes;
		double row_pitch_m;
		int copper;             /* 2: every leaf-spine link on MCA4J80, 1: every one of 3-5 m */
	} t[] = {
		{ "qm9700", 16, 1.8, 2 },
		{ "qm9700", 32, 1.2, 1 },
		{ "qm9700", 128, 1.2, 1 },      /* 4-5 m on copper, 7 m on optics */
		{ "qm9700", 16, 4.2, 0 },       /* 7-10 m: optics */
		{ "sn5600", 32, 1.2, 0 },       /* Ethernet */
		{ "qm9700", 256, 1.2, 0 },      /* 32 uplinks to 32 spines: one link each */
	};
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct twin_walk w;
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		long links, acc = 0, acc_links = 0;

		backend_only(&in, t[i].nodes, 8, 0);
		in.net[NICFIT_NET_BACKEND].switch_id = t[i].sw;
		in.nic_id = "mcx75310aas-neat";
		in.layout.row_pitch_m = t[i].row_pitch_m;
		size_ok(&in, &c);
		links = c.net[0].links[NICFIT_LINK_LEAF_SPINE];
		assert_true(links > 0);
		for (j = 0; j < c.ncables; j++) {
			const struct nicfit_cluster_cable *x = &c.cables[j];

			if (x->level != NICFIT_LINK_LEAF_SPINE || strncmp(x->part, "980-9i60", 8))
				continue;
			assert_string_equal(x->type, "dac");
			assert_true(x->length_m >= 3 && x->length_m <= 5);
			acc += x->qty;
			acc_links += x->links;
		}
		if (!t[i].copper) {
			if (acc)
				fail_msg("case %zu: %ld MCA4J80 where none fits", i, acc);
			assert_non_null(find_cable(&c, "mma4z00-ns"));
		} else {
			if (t[i].copper == 2 && acc_links != links)
				fail_msg("case %zu: %ld of %ld leaf-spine links on MCA4J80", i, acc_links,
					 links);
			assert_true(acc_links > 0);
			assert_int_equal(acc * 2, acc_links);
			if (t[i].copper == 2)
				assert_null(find_cable(&c, "mma4z00-ns"));
		}
		memset(&w, 0, sizeof(w));
		assert_int_equal(nicfit_cluster_walk(&c, twin_link, &w), 0);
		assert_int_equal(w.links, links);
		assert_int_equal(w.bad, 0);
		if (t[i].copper && w.short_optics)
			fail_msg("case %zu: %ld runs of 5 m or less on optics", i, w.short_optics);
		if (!t[i].copper && t[i].row_pitch_m < 2 && !w.short_optics)
			fail_msg("case %zu: no short run to test", i);
		check_port_map(&c);
		nicfit_cluster_release(&c);
	}
}

/*
 * Flat-top single-port OSFP modules stay on the NIC side: on generic 400G
 * switches (cage top unknown) the leaf and spine cages get a 400G optic
 * not marked NIC-only, and each node link has one MMA4Z00-NS400, at the
 * NIC. Why: NVIDIA, MMA4Z00-NS400 connectivity scenarios, "Single port
 * OSFP are not for use in switches".
 */
static void flat_top_nic_side(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	const struct nicfit_cluster_cable *x;
	long switch_end = 0;
	size_t i;

	(void)state;
	backend_only(&in, 64, 8, 64);
	size_ok(&in, &c);
	assert_int_equal(c.net[0].links[NICFIT_LINK_HOST], 512);
	assert_int_equal(c.net[0].links[NICFIT_LINK_LEAF_SPINE], 512);
	for (i = 0; i < c.ncables; i++) {
		x = &c.cables[i];
		if (x->net != NICFIT_NET_BACKEND || strcmp(x->type, "optic"))
			continue;
		assert_non_null(x->cat);
		if (x->level == NICFIT_LINK_LEAF_SPINE)
			assert_false(x->cat->top_a && !strcmp(x->cat->top_a, "flat"));
		if (x->level == NICFIT_LINK_HOST && !strcmp(x->part, "mma4z00-ns400"))
			assert_int_equal(x->qty, x->links);
		if (x->level == NICFIT_LINK_HOST && strcmp(x->part, "mma4z00-ns400"))
			switch_end += x->qty;
	}
	x = find_cable(&c, "mma4z00-ns400");
	assert_non_null(x);
	assert_int_equal(x->level, NICFIT_LINK_HOST);
	assert_int_equal(switch_end, x->links);
	x = find_cable(&c, "optic-osfp-400g-sr4");
	assert_non_null(x);
	check_port_map(&c);
	nicfit_cluster_release(&c);
}

/* ---- cables, networks, errors ------------------------------------------------------------ */

static void cables_by_distance(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	size_t i;
	int dac = 0, far = 0;

	(void)state;
	/* non-rail 100G: one leaf per rack on top of it, spines in the spine row */
	backend_only(&in, 32, 8, 64);
	in.net[NICFIT_NET_BACKEND].link_gbps = 100;
	size_ok(&in, &c);
	for (i = 0; i < c.ncables; i++) {
		const struct nicfit_cluster_cable *x = &c.cables[i];

		if (x->level == NICFIT_LINK_HOST && !strcmp(x->type, "dac"))
			dac += (int)x->links;
		if (x->level == NICFIT_LINK_LEAF_SPINE)
			far += strcmp(x->type, "dac") != 0;
	}
	assert_int_equal(dac, 32 * 8);
	assert_true(far > 0);
	assert_true(c.max_length_m > 3);
	nicfit_cluster_release(&c);
	/* a 400G DAC reaches 2 m: the lower servers of a rack get optics */
	backend_only(&in, 32, 8, 64);
	size_ok(&in, &c);
	assert_non_null(find_cable(&c, "dac-osfp-400g-2m"));
	nicfit_cluster_release(&c);
	/* no catalog: every link generic and unpriced, never invented */
	backend_only(&in, 32, 8, 64);
	{
		struct nicfit_error err;

		nicfit_error_clear(&err);
		assert_int_equal(nicfit_cluster_size(&in, NULL, &c, &err), 0);
	}
	for (i = 0; i < c.nbom; i++)
		assert_false(c.bom[i].priced);
	assert_near(c.total_usd, 0, 0);
	nicfit_cluster_release(&c);
}

static void all_networks(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	long sw;

	(void)state;
	nicfit_cluster_input_default(&in);
	in.nodes = 256;
	in.net[NICFIT_NET_BACKEND].rail_optimized = 1;
	in.net[NICFIT_NET_FRONTEND].links_per_node = 2;
	size_ok(&in, &c);
	assert_true(c.net[NICFIT_NET_FRONTEND].enabled);
	assert_int_equal(c.net[NICFIT_NET_FRONTEND].links[NICFIT_LINK_HOST], 512);
	/* every back-end and front-end switch has its management port on the OOB */
	sw = c.net[0].tier[0].switches + c.net[0].tier[1].switches + c.net[0].tier[2].switches +
	     c.net[1].tier[0].switches + c.net[1].tier[1].switches + c.net[1].tier[2].switches;
	assert_int_equal(c.net[NICFIT_NET_OOB].links[NICFIT_LINK_MGMT], sw);
	assert_int_equal(c.net[NICFIT_NET_OOB].links[NICFIT_LINK_HOST], 256);
	check_port_map(&c);
	nicfit_cluster_release(&c);
	/* no back end (an inference cluster), no OOB */
	in.nics_per_node = 0;
	in.net[NICFIT_NET_OOB].links_per_node = 0;
	size_ok(&in, &c);
	assert_false(c.net[NICFIT_NET_BACKEND].enabled);
	assert_false(c.net[NICFIT_NET_OOB].enabled);
	check_port_map(&c);
	nicfit_cluster_release(&c);
}

/* Many shapes through the consistency checker. */
static void port_map_consistency(void **state)
{
	static const struct { long nodes; int links, radix, planes, rail, ports; double x, gbps, sw;
			      int fe, m; } t[] = {
		{ 1, 8, 64, 1, 0, 1, 1, 400, 0, 1, 4 },
		{ 2, 8, 64, 1, 1, 1, 1, 400, 0, 2, 4 },
		{ 37, 8, 64, 1, 0, 1, 1, 400, 0, 1, 3 },
		{ 37, 8, 64, 1, 1, 1, 3, 400, 0, 2, 5 },
		{ 100, 4, 32, 2, 1, 2, 1, 200, 0, 1, 8 },
		{ 100, 8, 16, 1, 0, 1, 2, 100, 0, 2, 4 },
		{ 50, 2, 24, 1, 0, 1, 1, 25, 100, 1, 16 },
		{ 77, 3, 12, 1, 1, 1, 1, 25, 100, 1, 2 },
		{ 20, 40, 16, 1, 0, 1, 1, 100, 0, 1, 4 },
		{ 700, 1, 16, 1, 0, 1, 1, 100, 0, 2, 1 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct nicfit_cluster_input in;
		struct nicfit_cluster c;

		nicfit_cluster_input_default(&in);
		in.nodes = t[i].nodes;
		in.nodes_per_rack = t[i].m;
		in.nics_per_node = t[i].links / t[i].ports;
		in.nic_ports = t[i].ports;
		in.net[0].links_per_node = t[i].links;
		in.net[0].radix = t[i].radix;
		in.net[0].planes = t[i].planes;
		in.net[0].rail_optimized = t[i].rail;
		in.net[0].oversubscription = t[i].x;
		in.net[0].link_gbps = t[i].gbps;
		in.net[0].switch_gbps = t[i].sw;
		in.net[NICFIT_NET_FRONTEND].links_per_node = t[i].fe;
		in.layout.racks_per_row = 5;
		size_ok(&in, &c);
		check_port_map(&c);
		nicfit_cluster_release(&c);
	}
}

/* 100,000 GPUs with every link walked: the benchmark's design, checked for counts. */
static void hundred_thousand_gpus(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;

	(void)state;
	nicfit_cluster_input_default(&in);
	in.nodes = 12500;
	in.net[NICFIT_NET_BACKEND].planes = 2;
	in.net[NICFIT_NET_BACKEND].rail_optimized = 1;
	size_ok(&in, &c);
	assert_int_equal(c.gpus, 100000);
	assert_int_equal(c.net[0].tiers, 3);
	assert_int_equal(c.net[0].links[NICFIT_LINK_HOST], 100000);
	check_port_map(&c);
	nicfit_cluster_release(&c);
}

struct sink {
	long bytes, lines, fail_after, crs;
};

static int sink_write(void *ctx, const char *p, size_t n)
{
	struct sink *s = ctx;
	size_t i;

	if (s->fail_after >= 0 && s->bytes + (long)n > s->fail_after)
		return 1;
	for (i = 0; i < n; i++) {
		s->lines += p[i] == '\n';
		s->crs += p[i] == '\r';
	}
	s->bytes += (long)n;
	return 0;
}

static void csv_writer(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;
	struct sink s = { 0, 0, -1, 0 };
	long rows = 0, total = 0;
	int n, l;

	(void)state;
	nicfit_cluster_input_default(&in);
	in.nodes = 3000;
	size_ok(&in, &c);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_write_port_map(&c, sink_write, &s, &rows, &err), 0);
	for (n = 0; n < NICFIT_NET_COUNT; n++)
		for (l = 0; l < NICFIT_LINK_LEVELS; l++)
			total += c.net[n].links[l];
	assert_int_equal(rows, total);
	assert_int_equal(s.lines, total + 1);
	/* LF line ends, as every CSV nicfit writes (docs/formats.md) */
	assert_int_equal(s.crs, 0);
	/* a sink that fails mid-way is an I/O error */
	s = (struct sink){ 0, 0, 100000, 0 };
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_write_port_map(&c, sink_write, &s, &rows, &err), NICFIT_E_IO);
	nicfit_cluster_release(&c);
}

static void names(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	char b[64];

	(void)state;
	backend_only(&in, 128, 8, 64);
	in.net[0].planes = 2;
	size_ok(&in, &c);
	nicfit_cluster_endpoint_name(&c, 0, b, sizeof(b));
	assert_string_equal(b, "node0001");
	nicfit_cluster_endpoint_name(&c, 127, b, sizeof(b));
	assert_string_equal(b, "node0128");
	nicfit_cluster_endpoint_name(&c, 128, b, sizeof(b));
	assert_string_equal(b, "be-p0-leaf01");
	assert_int_equal(nicfit_cluster_endpoint_name(&c, 1000000, b, sizeof(b)), 0);
	assert_string_equal(b, "");
	nicfit_cluster_release(&c);
}

static void bad_input(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;

	(void)state;
	backend_only(&in, 0, 8, 64);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_USAGE);
	backend_only(&in, 64, 8, 64);
	in.net[0].planes = 3;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_USAGE);
	backend_only(&in, 64, 8, 64);
	in.net[0].switch_id = "qm97";
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_NOTFOUND);
	assert_non_null(strstr(err.msg, "qm9700"));
	backend_only(&in, 64, 8, 64);
	in.net[0].switch_id = "sn2100"; /* 100G switch, 400G NICs */
	in.net[0].link_gbps = 400;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_USAGE);
	assert_non_null(strstr(err.msg, "faster"));
	backend_only(&in, 100, 8, 64);
	in.net[0].rail_only = 1;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_USAGE);
	assert_non_null(strstr(err.msg, "--planes 8"));
	nicfit_cluster_release(&c);
}

/* A request read as `nicfit cluster` reads it: the spec, then the node kind's defaults. */
static void read_request(const char *body, struct nicfit_spec *spec, struct nicfit_cluster_input *in)
{
	struct nicfit_error err;

	nicfit_spec_init(spec, "request");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_spec_parse_json(spec, body, strlen(body), &err), 0);
	assert_int_equal(nicfit_cluster_input_from_spec(spec, in, NULL, &err), 0);
	assert_int_equal(nicfit_cluster_input_server(spec, cat, in, &err), 0);
	nicfit_cluster_input_node_defaults(spec, cat, in);
}

/* The error a request stops with, after its server is read. */
static int request_error(const char *body, struct nicfit_error *err)
{
	struct nicfit_spec spec;
	struct nicfit_cluster_input in;
	int rc;

	nicfit_spec_init(&spec, "request");
	nicfit_error_clear(err);
	assert_int_equal(nicfit_spec_parse_json(&spec, body, strlen(body), err), 0);
	rc = nicfit_cluster_input_from_spec(&spec, &in, NULL, err);
	if (!rc)
		rc = nicfit_cluster_input_server(&spec, cat, &in, err);
	nicfit_spec_release(&spec);
	return rc;
}

/* Has the sized cluster a decision with this rule id? */
static const char *decision(const struct nicfit_cluster *c, const char *code)
{
	size_t j;

	for (j = 0; j < c->decisions.n; j++)
		if (!strcmp(c->decisions.v[j].code, code))
			return c->decisions.v[j].message;
	return NULL;
}

/*
 * Undersubscribed leaves (AMD's MI3XX cluster design: "1:1.16 = 16%
 * undersubscribed", downstream demand : upstream capacity): uplinks =
 * ceil(down / ratio), so a radix-64 leaf at 1:1.16 takes 29 node ports and
 * at least 34 uplinks (29 x 1.16 = 33.6), at 1:2 21 and 42; the decision
 * says so, and 1:1 says nothing. The ratio is read as A:B from a request,
 * bounded at 1:2; and a scheduled leaf, whose fabric ports are fixed,
 * takes fewer node ports instead (at most 34 x 400G under 20 x 800G at
 * 1:1.16).
 */
static void undersubscription(void **state)
{
	static const struct { double x; int down, up; } t[] = {
		{ 1 / 1.16, 29, 34 }, { 0.5, 21, 42 }, { 1, 32, 32 },
	};
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;
	struct nicfit_spec spec;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		backend_only(&in, 1000, 1, 64);
		in.net[NICFIT_NET_BACKEND].oversubscription = t[i].x;
		size_ok(&in, &c);
		assert_int_equal(c.net[0].endpoints_per_leaf, t[i].down);
		assert_true(c.net[0].uplinks_per_leaf >= t[i].up);
		assert_true(c.net[0].uplinks_per_leaf * 400.0 * t[i].x >=
			    c.net[0].endpoints_per_leaf * 400.0 - 1e-9);
		assert_true(c.net[0].leaf_ratio <= t[i].x + 1e-9);
		if (t[i].x < 1)
			assert_non_null(strstr(decision(&c, "cluster.subscription"), "undersubscribed"));
		else
			assert_null(decision(&c, "cluster.subscription"));
		check_port_map(&c);
		nicfit_cluster_release(&c);
	}
	/* "1:1.16" as AMD writes it, "3:1" as before; 1:3 and 0.4 refused */
	read_request("{\"nodes\": 64, \"oversubscription\": \"1:1.16\"}", &spec, &in);
	assert_near(in.net[NICFIT_NET_BACKEND].oversubscription, 1 / 1.16, 1e-12);
	nicfit_spec_release(&spec);
	read_request("{\"nodes\": 64, \"oversubscription\": \"3:1\"}", &spec, &in);
	assert_near(in.net[NICFIT_NET_BACKEND].oversubscription, 3, 1e-12);
	nicfit_spec_release(&spec);
	assert_int_not_equal(request_error("{\"oversubscription\": \"1:3\"}", &err), 0);
	assert_non_null(strstr(err.msg, "1:2"));
	assert_int_not_equal(request_error("{\"storage_oversubscription\": 0.4}", &err), 0);
	assert_non_null(strstr(err.msg, "out of range"));
	backend_only(&in, 16, 1, 64);
	in.net[NICFIT_NET_BACKEND].oversubscription = 0.49;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_USAGE);
	/*
	 * a scheduled rail leaf at 1:1.16: 36 nodes' rail of 400G ports (36 x 400G
	 * over 20 x 800G is 0.9:1) no longer fits one leaf at most 34 ports: two
	 * leaves of 18 a rail, 16 leaves instead of 8
	 */
	backend_only(&in, 36, 8, 64);
	in.net[NICFIT_NET_BACKEND].switch_id = "arista-7700r4c-38pe";
	in.net[NICFIT_NET_BACKEND].rail_optimized = 1;
	in.net[NICFIT_NET_BACKEND].oversubscription = 1 / 1.16;
	size_ok(&in, &c);
	assert_true(c.net[0].scheduled);
	assert_int_equal(c.net[0].endpoints_per_leaf, 18);
	assert_int_equal(c.net[0].tier[NICFIT_TIER_LEAF].switches, 16);
	assert_true(c.net[0].leaf_ratio <= 1 / 1.16 + 1e-9);
	assert_non_null(strstr(decision(&c, "cluster.subscription"), "fabric link"));
	check_port_map(&c);
	nicfit_cluster_release(&c);
}

/*
 * A GB200 NVL72 rack as the unit: 18 trays of 4 GPUs and 4 built-in
 * ConnectX-7 a rack, 72 scale-out ports a rack (576 for 8 racks, the
 * DGX SuperPOD GB200 scalable unit), rail-optimized, the rack's two
 * BlueField-3 ports a tray as the front end; the built-in NICs listed as
 * included, never priced; a swap, --racks of a plain server and
 * --racks without a server refused.
 */
static void gb200_racks(void **state)
{
	struct nicfit_spec spec;
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;
	size_t i;
	int seen = 0;

	(void)state;
	read_request("{\"server\": \"gb200-nvl72\", \"racks\": 8, \"switch\": \"qm9700\"}",
		     &spec, &in);
	assert_int_equal(in.nodes, 144);
	assert_int_equal(in.nodes_per_rack, 18);
	assert_int_equal(in.gpus_per_node, 4);
	assert_int_equal(in.nics_per_node, 4);
	assert_string_equal(in.nic_id, "mcx75310aas-neat");
	assert_true(in.net[NICFIT_NET_BACKEND].rail_optimized);
	assert_int_equal(in.net[NICFIT_NET_FRONTEND].links_per_node, 2);
	assert_true(in.net[NICFIT_NET_FRONTEND].link_gbps == 400);
	assert_true(in.layout.node_u == 1);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), 0);
	assert_int_equal(c.racks, 8);
	assert_int_equal(c.gpus, 576);
	assert_int_equal(c.net[NICFIT_NET_BACKEND].links[NICFIT_LINK_HOST], 576);
	assert_int_equal(c.net[NICFIT_NET_BACKEND].rails, 4);
	assert_string_equal(c.net[NICFIT_NET_FRONTEND].node_cage, "QSFP112");
	for (i = 0; i < c.nbom; i++)
		if (!strcmp(c.bom[i].part, "mcx75310aas-neat")) {
			seen = 1;
			assert_int_equal(c.bom[i].qty, 576);
			assert_false(c.bom[i].priced);
			assert_non_null(strstr(c.bom[i].description, "included"));
		}
	assert_true(seen);
	nicfit_cluster_release(&c);
	nicfit_spec_release(&spec);
	assert_int_equal(request_error("{\"server\": \"dgx-h100\", \"nodes\": 4, \"nic\": "
				       "\"mcx653105a-hdat\"}", &err), NICFIT_E_USAGE);
	assert_non_null(strstr(err.msg, "built in"));
	assert_int_equal(request_error("{\"server\": \"dgx-h100\", \"racks\": 2}", &err),
			 NICFIT_E_USAGE);
	assert_non_null(strstr(err.msg, "not a rack-scale"));
	assert_int_equal(request_error("{\"racks\": 2}", &err), NICFIT_E_USAGE);
	assert_non_null(strstr(err.msg, "--server"));
	assert_int_equal(request_error("{\"server\": \"gb200-nvl72\", \"racks\": 1, "
				       "\"gpus_per_node\": 8}", &err), NICFIT_E_USAGE);
	/* a Gaudi 3 server: its accelerators' own cages, as --gpu gaudi3-oam cables them */
	read_request("{\"server\": \"generic-gaudi3-8oam\", \"nodes\": 8}", &spec, &in);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), 0);
	assert_true(c.integrated);
	assert_int_equal(c.net[NICFIT_NET_BACKEND].links_per_node, 6);
	nicfit_cluster_release(&c);
	nicfit_spec_release(&spec);
}

/*
 * GB200 NVL72 racks with no --switch: the DGX SuperPOD GB200 design's
 * QM9700 (catalog rack.fabric_switch), one leaf per rail per rack (18
 * trays down, 18 up), and past one scalable unit of 8 racks three tiers of
 * rail pods: the RA's table for 2, 4, 8 and 16 SUs (64/48/18,
 * 128/96/36, 256/192/72, 512/384/144 leaf/spine/core), node-leaf,
 * leaf-spine and spine-core cables one per GPU. One SU: 32 leaves and 9
 * spines of 64 ports down (nicfit's sizing: the RA's row is not known).
 */
struct rail_spines {
	long nodes;
	signed char rail[8192];  /* per switch (id - nodes): its rail + 1, 0 unknown */
	int mixed;               /* a leaf or spine serving two rails */
};

/* Rails down the back end: a leaf takes its nodes' rail, a spine its leaves'. */
static int spine_rails(void *ctx, const struct nicfit_cluster_link *l)
{
	struct rail_spines *r = ctx;
	long a = l->a - r->nodes, b = l->b - r->nodes;
	int rail;

	if (l->net != NICFIT_NET_BACKEND || b < 0 || b >= 8192)
		return 0;
	if (l->level == NICFIT_LINK_HOST)
		rail = l->rail + 1;
	else if (l->level == NICFIT_LINK_LEAF_SPINE && a >= 0 && a < 8192)
		rail = r->rail[a];
	else
		return 0;
	if (r->rail[b] && r->rail[b] != rail)
		r->mixed = 1;
	r->rail[b] = (signed char)rail;
	return 0;
}

/*
 * One GB300 NVL72 rack on its Q3400: a host-leaf run of 2 m or less is an
 * MCA7K10 active copper splitter (one twin-port switch cage to two
 * ConnectX-8, finned to flat tops), a longer one an MMS4A00 at the switch
 * and an MMS4A20 at the NIC over single-mode fibre; every one of the 72
 * links on a catalog part, none generic.
 */
static void xdr_copper_splitter(void **state)
{
	struct nicfit_spec spec;
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;
	long split_links = 0, optic_links = 0, generic = 0;
	size_t k;

	(void)state;
	read_request("{\"server\": \"gb300-nvl72\", \"racks\": 1}", &spec, &in);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), 0);
	for (k = 0; k < c.ncables; k++) {
		const struct nicfit_cluster_cable *x = &c.cables[k];

		if (x->net != NICFIT_NET_BACKEND)
			continue;
		if (!strncmp(x->part, "980-9iao5-", 10)) {
			assert_non_null(x->cat);
			assert_int_equal(x->cat->split, 2);
			assert_true(x->length_m <= 2);
			assert_int_equal(x->links, 2 * x->qty);
			split_links += x->links;
		} else if (!strcmp(x->part, "mms4a20-xm800")) {
			optic_links += x->links;
		} else if (!x->cat && strcmp(x->type, "fiber")) {
			generic++;
		}
	}
	assert_true(split_links > 0);
	assert_true(optic_links > 0);
	assert_int_equal(split_links + optic_links, 72);
	assert_int_equal(generic, 0);
	nicfit_cluster_release(&c);
	nicfit_spec_release(&spec);
}

static void gb200_superpod_table(void **state)
{
	static const struct { int racks; long leaf, spine, core; } t[] = {
		{ 8, 32, 24, 0 }, { 16, 64, 48, 18 }, { 32, 128, 96, 36 }, { 64, 256, 192, 72 },
		{ 128, 512, 384, 144 },
	};
	char body[96];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct nicfit_spec spec;
		struct nicfit_cluster_input in;
		struct nicfit_cluster c;
		struct nicfit_error err;
		const struct nicfit_cluster_net *be;
		struct rail_spines rs;

		snprintf(body, sizeof(body), "{\"server\": \"gb200-nvl72\", \"racks\": %d}", t[i].racks);
		read_request(body, &spec, &in);
		assert_string_equal(in.net[NICFIT_NET_BACKEND].switch_id, "qm9700");
		assert_non_null(in.switch_from);
		assert_true(in.rack_leaves);
		assert_int_equal(in.su_nodes, 144);
		nicfit_error_clear(&err);
		assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), 0);
		be = &c.net[NICFIT_NET_BACKEND];
		assert_int_equal(be->tier[NICFIT_TIER_LEAF].switches, t[i].leaf);
		assert_int_equal(be->tier[NICFIT_TIER_LEAF].down, 18);
		assert_int_equal(be->tier[NICFIT_TIER_LEAF].up, 18);
		assert_int_equal(be->tier[NICFIT_TIER_SPINE].switches, t[i].spine);
		assert_int_equal(be->tier[NICFIT_TIER_CORE].switches, t[i].core);
		assert_int_equal(be->tiers, t[i].core ? 3 : 2);
		assert_int_equal(be->links[NICFIT_LINK_HOST], 72L * t[i].racks);
		assert_int_equal(be->links[NICFIT_LINK_LEAF_SPINE], 72L * t[i].racks);
		assert_int_equal(be->links[NICFIT_LINK_SPINE_CORE], t[i].core ? 72L * t[i].racks : 0);
		/* every unit's rail group of 8 leaves under 6 spines of 24 ports down */
		assert_int_equal(be->tier[NICFIT_TIER_SPINE].down, 24);
		assert_int_equal(be->spines_per_pod, 6);
		/* rail-optimized to the spines: no leaf or spine sees two rails */
		memset(&rs, 0, sizeof(rs));
		rs.nodes = c.in.nodes;
		assert_int_equal(nicfit_cluster_walk(&c, spine_rails, &rs), 0);
		assert_int_equal(rs.mixed, 0);
		nicfit_cluster_release(&c);
		nicfit_spec_release(&spec);
	}
}

/*
 * The OOB network of NVL72 racks cables every NVLink switch tray's BMC as
 * it does a compute tray's: 18 + 9 BMC ports a rack, the switch trays
 * named nvswNN with a "bmc" port, in their rack's OOB leaf; an explicit
 * --switch is kept (no default over it), and 8 racks of GB300 take the
 * Quantum-X800 that plan takes (no design switch in its catalog rack).
 */
static void gb200_rail_pods_and_bmcs(void **state)
{
	struct nicfit_spec spec;
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;
	char name[64];
	long id, nvsw = 0;

	(void)state;
	read_request("{\"server\": \"gb200-nvl72\", \"racks\": 2, \"switch\": \"q3400\"}", &spec, &in);
	assert_string_equal(in.net[NICFIT_NET_BACKEND].switch_id, "q3400");
	assert_null(in.switch_from);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), 0);
	assert_int_equal(c.net[NICFIT_NET_OOB].links[NICFIT_LINK_HOST], 2 * (18 + 9));
	for (id = 0; id < c.in.nodes + 4096; id++)
		if (nicfit_cluster_endpoint_name(&c, id, name, sizeof(name)) && !strncmp(name, "nvsw", 4))
			nvsw++;
	assert_int_equal(nvsw, 18);
	nicfit_cluster_release(&c);
	nicfit_spec_release(&spec);
	read_request("{\"server\": \"gb200-nvl72\", \"racks\": 1, \"no_oob\": true}", &spec, &in);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), 0);
	assert_false(c.net[NICFIT_NET_OOB].enabled);
	nicfit_cluster_release(&c);
	nicfit_spec_release(&spec);
	read_request("{\"server\": \"gb300-nvl72\", \"racks\": 8}", &spec, &in);
	assert_string_equal(in.net[NICFIT_NET_BACKEND].switch_id, "q3400");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), 0);
	assert_int_equal(c.net[NICFIT_NET_BACKEND].tier[NICFIT_TIER_LEAF].switches, 8);
	assert_int_equal(c.net[NICFIT_NET_BACKEND].tier[NICFIT_TIER_SPINE].switches, 4);
	/* XDR on catalog optics, no generic link: a twin-port MMS4A00 per switch cage, an
	 * MMS4A20 per ConnectX-8, MMS4A00 at both ends of every leaf-spine link */
	{
		size_t k;
		long nic_optics = 0, switch_optics = 0, generic = 0;

		for (k = 0; k < c.ncables; k++) {
			const struct nicfit_cluster_cable *x = &c.cables[k];

			if (x->net != NICFIT_NET_BACKEND)
				continue;
			if (!strcmp(x->part, "mms4a20-xm800"))
				nic_optics += x->qty;
			else if (!strcmp(x->part, "mms4a00-xm"))
				switch_optics += x->qty;
			else if (!x->cat && strcmp(x->type, "fiber"))
				generic++;
		}
		assert_int_equal(nic_optics, 576);
		assert_int_equal(switch_optics, 288 + 2 * 576 / 2);
		assert_int_equal(generic, 0);
	}
	nicfit_cluster_release(&c);
	nicfit_spec_release(&spec);
}

/* The storage ports of the port map: the leaf of each node's port 0 and port 1. */
struct st_leaves {
	int leaf[2][64];
	int rows;
};

static int st_row(void *ctx, const char *p, size_t n)
{
	struct st_leaves *s = ctx;
	const char *end = p + n, *line = p;

	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		int node, port, leaf;

		if (!nl)
			nl = end;
		if (sscanf(line, "storage-host,node%d,st%d,st-leaf%d,", &node, &port, &leaf) == 3 &&
		    node >= 1 && node <= 64 && port >= 0 && port < 2) {
			s->leaf[port][node - 1] = leaf;
			s->rows++;
		}
		line = nl + 1;
	}
	return 0;
}

/*
 * An 8-GPU baseboard node takes the defaults NVIDIA's HGX designs build
 * it with: rail-optimized, 2 x 200GbE to two leaves (2 x 400GbE behind an
 * 800G NIC), storage dual-homed: no leaf holds both storage ports of a
 * node. A PCIe-card node and an option given keep today's values.
 */
static void node_kind_defaults(void **state)
{
	struct nicfit_spec spec;
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;
	struct st_leaves sl;
	long rows;
	int i;

	(void)state;
	read_request("{\"nodes\": 16, \"storage_gbps\": 200, \"storage_nodes\": 4}", &spec, &in);
	assert_true(in.net[NICFIT_NET_BACKEND].rail_optimized);
	assert_int_equal(in.net[NICFIT_NET_FRONTEND].links_per_node, 2);
	assert_true(in.net[NICFIT_NET_FRONTEND].link_gbps == 200);
	assert_true(in.storage.dual_homed);
	assert_non_null(in.node_kind);
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), 0);
	assert_int_equal(c.storage.node_links, 2);
	assert_int_equal(c.storage.tiers, 2);
	assert_true(c.storage.endpoints_per_leaf <= 16);
	memset(&sl, 0, sizeof(sl));
	assert_int_equal(nicfit_cluster_write_port_map(&c, st_row, &sl, &rows, &err), 0);
	assert_int_equal(sl.rows, 32);
	for (i = 0; i < 16; i++) {
		assert_true(sl.leaf[0][i] > 0 && sl.leaf[1][i] > 0);
		assert_int_not_equal(sl.leaf[0][i], sl.leaf[1][i]);
	}
	nicfit_cluster_release(&c);
	nicfit_spec_release(&spec);
	/* behind 800G compute NICs (B300 class): 2 x 400GbE */
	read_request("{\"nodes\": 8, \"nic_gbps\": 800}", &spec, &in);
	assert_true(in.net[NICFIT_NET_FRONTEND].link_gbps == 400);
	nicfit_spec_release(&spec);
	/* PCIe cards, four GPUs, or an option given: as before */
	read_request("{\"nodes\": 8, \"gpu\": \"l40s\"}", &spec, &in);
	assert_false(in.net[NICFIT_NET_BACKEND].rail_optimized);
	assert_int_equal(in.net[NICFIT_NET_FRONTEND].links_per_node, 1);
	assert_null(in.node_kind);
	nicfit_spec_release(&spec);
	read_request("{\"nodes\": 8, \"gpus_per_node\": 4}", &spec, &in);
	assert_false(in.net[NICFIT_NET_BACKEND].rail_optimized);
	assert_false(in.storage.dual_homed);
	nicfit_spec_release(&spec);
	read_request("{\"nodes\": 8, \"rail_optimized\": false, \"frontend_links\": 1}", &spec,
		     &in);
	assert_false(in.net[NICFIT_NET_BACKEND].rail_optimized);
	assert_int_equal(in.net[NICFIT_NET_FRONTEND].links_per_node, 1);
	assert_true(in.net[NICFIT_NET_FRONTEND].link_gbps == 200);
	nicfit_spec_release(&spec);
}

static void spec_and_render(void **state)
{
	struct nicfit_spec spec;
	struct nicfit_error err;
	struct nicfit_emit *e;
	struct nicfit_buf out;
	static const char body[] = "{\"gpus\": 512, \"rail_optimized\": true, \"nic_gbps\": \"400G\","
				   "\"frontend\": false, \"oob\": \"off\", \"port_map\": true}";

	(void)state;
	nicfit_spec_init(&spec, "request");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_spec_parse_json(&spec, body, sizeof(body) - 1, &err), 0);
	e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	nicfit_buf_init(&out, 0);
	assert_int_equal(nicfit_cluster_run(cat, &spec, e, &err), 0);
	assert_int_equal(nicfit_emit_finish(e, &out), 0);
	assert_non_null(strstr(out.data, "\"schema\":\"nicfit.cluster.v1\""));
	assert_non_null(strstr(out.data, "\"leaf_switches\":16"));
	assert_non_null(strstr(out.data, "\"spine_switches\":8"));
	assert_non_null(strstr(out.data, "\"frontend\":null"));
	assert_non_null(strstr(out.data, "\"endpoint_a\":\"node0001\""));
	nicfit_emit_free(e);
	nicfit_buf_release(&out);
	nicfit_spec_release(&spec);
	/* a typo in a request is bad data, with a suggestion */
	nicfit_spec_init(&spec, "request");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_spec_parse_json(&spec, "{\"nodes\": 4, \"rail_optimised\": true}",
						 36, &err), 0);
	e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	assert_int_equal(nicfit_cluster_run(cat, &spec, e, &err), NICFIT_E_DATA);
	assert_int_equal(err.code, NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "rail_optimized"));
	nicfit_emit_free(e);
	nicfit_spec_release(&spec);
	/* an inline port map is bounded */
	nicfit_spec_init(&spec, "request");
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_spec_parse_json(&spec, "{\"nodes\": 5000, \"port_map\": true}",
						 33, &err), 0);
	e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
	assert_int_equal(nicfit_cluster_run(cat, &spec, e, &err), NICFIT_E_LIMIT);
	nicfit_emit_free(e);
	nicfit_spec_release(&spec);
}

/* Findings carry registered cluster codes and a severity on the one scale;
 * decisions are rule ids with no severity. */
static void findings_and_decisions(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	const struct nicfit_code_info *ci;
	int blocking = 0;
	size_t i;

	(void)state;
	backend_only(&in, 256, 8, 64);
	in.net[NICFIT_NET_BACKEND].oversubscription = 3;
	in.nodes_per_rack = 12;
	in.net[NICFIT_NET_FRONTEND].links_per_node = 1;
	size_ok(&in, &c);
	assert_true(c.findings.n >= 3);
	assert_false(c.findings.oom);
	for (i = 0; i < c.findings.n; i++) {
		const struct nicfit_finding *f = &c.findings.v[i];

		ci = nicfit_code_lookup(f->code);
		assert_non_null(ci);
		assert_true(ci->engines & NICFIT_ENGINE_CLUSTER);
		assert_int_equal(f->severity, ci->severity);
		assert_non_null(f->message);
		if (!strcmp(f->code, "cluster-blocking")) {
			blocking = 1;
			assert_int_equal(f->severity, NICFIT_SEV_WARNING);
			assert_non_null(strstr(f->message, "3.00:1 oversubscribed"));
		}
	}
	assert_true(blocking);
	assert_true(c.decisions.n > 3);
	for (i = 0; i < c.decisions.n; i++) {
		assert_int_equal(c.decisions.v[i].severity, NICFIT_SEV_NONE);
		assert_int_equal(strncmp(c.decisions.v[i].code, "cluster.", 8), 0);
	}
	nicfit_cluster_release(&c);
	nicfit_cluster_release(&c); /* released twice: still safe */
}

/*
 * Storage leaves count ports as the other networks do. 64 nodes reading
 * 25 Gb/s from 16 servers on SN2700 leaves (32 x 100G, 64 logical
 * ports): 128 storage ports of 25G, four to a split port, and each 4-way
 * split takes its neighbour's port too, so a leaf holds 10 split ports
 * (20 switch ports, 40 storage ports) and the 12 left up, not 16 split
 * ports "down" with 48 storage ports and 16 up (which is 40 ports on a
 * 32-port switch); 4 leaves and 2 spines, 32 ports free. On one SN2700,
 * 64 storage ports take all 32 ports, none free (16 before).
 */
static void storage_split_takes_neighbour(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	const struct nicfit_cluster_storage *st = &c.storage;

	(void)state;
	backend_only(&in, 64, 8, 64);
	in.nics_per_node = 0;
	in.net[NICFIT_NET_BACKEND].links_per_node = 0;
	in.storage.node_gbps = 25;
	in.storage.servers = 16;
	in.storage.link_gbps = 25;
	in.storage.switch_id = "sn2700";
	size_ok(&in, &c);
	assert_int_equal(st->endpoints, 128);
	assert_int_equal(st->breakout, 4);
	assert_int_equal(st->split_stride, 2);
	assert_int_equal(st->tiers, 2);
	assert_int_equal(st->endpoints_per_leaf, 40);
	assert_int_equal(st->down, 20);
	assert_int_equal(st->up, 12);
	assert_true(st->down + st->up <= st->sw.ports);
	assert_int_equal(st->leaves, 4);
	assert_int_equal(st->spines, 2);
	assert_true(st->leaf_ratio <= 1 + 1e-9);
	assert_int_equal(st->ports_total, 6 * 32);
	assert_int_equal(st->ports_free, 32);
	nicfit_cluster_release(&c);

	in.nodes = 32;
	in.storage.servers = 8;
	size_ok(&in, &c);
	assert_int_equal(st->endpoints, 64);
	assert_int_equal(st->tiers, 1);
	assert_int_equal(st->down, 32);
	assert_int_equal(st->ports_free, 0);
	nicfit_cluster_release(&c);
}

/*
 * The storage network by hand: 32 nodes reading 400 Gb/s each from 8
 * servers need 2 ports of 200G per node and 1,600 Gb/s = 8 ports per
 * server, 128 ports: four 64-port leaves of 32 down and 32 up at 1:1 and
 * two spines. At 2:1, 128 nodes and 16 servers: a leaf gives
 * floor(2 x 64 x 200 / (200 + 2 x 200)) = 42 ports down and 22 up, 512
 * ports need 13 leaves, 13 x 22 uplinks need 5 spines. One switch that
 * takes every port is one tier; a fabric past two tiers is refused.
 */
static void storage_fabric(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;
	size_t i;
	long bom = 0, leaves;

	(void)state;
	backend_only(&in, 32, 8, 64);
	in.storage.node_gbps = 400;
	in.storage.servers = 8;
	size_ok(&in, &c);
	assert_true(c.storage.enabled);
	assert_int_equal(c.storage.node_links, 2);
	assert_int_equal(c.storage.server_links, 8);
	assert_int_equal(c.storage.endpoints, 128);
	assert_int_equal(c.storage.tiers, 2);
	assert_int_equal(c.storage.leaves, 4);
	assert_int_equal(c.storage.down, 32);
	assert_int_equal(c.storage.spines, 2);
	assert_int_equal(c.storage.leaf_spine_links, 128);
	assert_int_equal(c.storage.ports_free, 0);
	for (i = 0; i < c.nbom; i++)
		if (!strcmp(c.bom[i].part, "generic-64x200g"))
			bom = c.bom[i].qty;
	assert_int_equal(bom, 6);
	leaves = c.net[NICFIT_NET_BACKEND].tier[NICFIT_TIER_LEAF].switches;
	nicfit_cluster_release(&c);
	/* the back end is sized as without storage: storage is a fabric of its own */
	in.storage.node_gbps = 0;
	in.storage.servers = 0;
	size_ok(&in, &c);
	assert_false(c.storage.enabled);
	assert_int_equal(c.net[NICFIT_NET_BACKEND].tier[NICFIT_TIER_LEAF].switches, leaves);
	nicfit_cluster_release(&c);

	backend_only(&in, 128, 8, 64);
	in.storage.node_gbps = 400;
	in.storage.servers = 16;
	in.storage.oversubscription = 2;
	size_ok(&in, &c);
	assert_int_equal(c.storage.down, 42);
	assert_int_equal(c.storage.up, 22);
	assert_int_equal(c.storage.leaves, 13);
	assert_int_equal(c.storage.spines, 5);
	assert_true(c.storage.leaf_ratio <= 2 + 1e-9);
	nicfit_cluster_release(&c);

	backend_only(&in, 8, 8, 64);
	in.storage.node_gbps = 100;
	in.storage.servers = 2;
	size_ok(&in, &c);
	assert_int_equal(c.storage.tiers, 1);
	assert_int_equal(c.storage.leaves, 1);
	assert_int_equal(c.storage.endpoints, 8 + 2 * 2);
	assert_int_equal(c.storage.leaf_spine_links, 0);
	nicfit_cluster_release(&c);

	backend_only(&in, 4000, 8, 64);
	in.storage.node_gbps = 400;
	in.storage.servers = 1000;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_USAGE);
	assert_non_null(strstr(err.msg, "more than two tiers"));
	backend_only(&in, 4, 8, 64);
	in.storage.node_gbps = 100;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_USAGE);
	assert_string_equal(err.input, "--storage-nodes");
	nicfit_cluster_release(&c);
}

/*
 * The front end's border and MLAG pairs by hand: 16 dual-homed nodes at
 * 100G on 48-port leaves are two leaves of 16 (one pair, 2 peer links);
 * 4 uplinks from each leaf are 8 uplinks, which two border switches of
 * 48 ports (46 after their own 2 peer links) take: one border pair, 4 peer
 * links in all; the leaves count the 4 uplinks and 2 peer ports each as
 * used. Uplinks that do not fit the leaves' free ports are refused.
 */
static void frontend_border(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;

	(void)state;
	backend_only(&in, 16, 8, 64);
	in.nics_per_node = 0;
	in.net[NICFIT_NET_FRONTEND].links_per_node = 2;
	in.net[NICFIT_NET_FRONTEND].link_gbps = 100;
	in.frontend_uplinks = 4;
	size_ok(&in, &c);
	assert_int_equal(c.net[NICFIT_NET_FRONTEND].tier[NICFIT_TIER_LEAF].switches, 2);
	assert_int_equal(c.border.leaf_pairs, 1);
	assert_int_equal(c.border.uplinks, 8);
	assert_int_equal(c.border.switches, 2);
	assert_int_equal(c.border.border_pairs, 1);
	assert_int_equal(c.border.peer_links, 4);
	/* the leaves count what they give the border and their peer: 16 + 4 up + 2 peer each */
	{
		const struct nicfit_cluster_net *fe = &c.net[NICFIT_NET_FRONTEND];
		const struct nicfit_cluster_tier *lf = &fe->tier[NICFIT_TIER_LEAF];

		assert_int_equal(lf->up, 4);
		assert_int_equal(lf->ports_used, 32 + 8 + 4);
		assert_int_equal(lf->ports_free, 2 * 48 - 44);
		assert_int_equal(fe->ports_free, 2 * 48 - 44);
		assert_int_equal(c.border.leaf_peer_ports, 4);
	}
	nicfit_cluster_release(&c);
	/* single-homed: no MLAG pair, uplinks only */
	in.net[NICFIT_NET_FRONTEND].links_per_node = 1;
	size_ok(&in, &c);
	assert_int_equal(c.border.leaf_pairs, 0);
	assert_int_equal(c.border.peer_links, 2);
	nicfit_cluster_release(&c);
	/* 48 nodes fill one 48-port leaf: no port for an uplink */
	backend_only(&in, 48, 8, 64);
	in.nics_per_node = 0;
	in.frontend_uplinks = 8;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_USAGE);
	assert_string_equal(err.input, "--frontend-uplinks");
	nicfit_cluster_release(&c);
}

/* A port map kept in memory. */
struct keep {
	char buf[65536];
	size_t len;
};

static int keep_write(void *ctx, const char *p, size_t n)
{
	struct keep *k = ctx;

	if (k->len + n >= sizeof(k->buf))
		return -1;
	memcpy(k->buf + k->len, p, n);
	k->len += n;
	k->buf[k->len] = '\0';
	return 0;
}

/* The length field of the port map's row that starts with `start`, or -1. */
static double row_length(const char *map, const char *start)
{
	const char *r = strstr(map, start);
	int commas = 0;

	if (!r)
		return -1;
	for (; *r && *r != '\n'; r++)
		if (*r == ',' && ++commas == 6)
			return strtod(r + 1, NULL);
	return -1;
}

/* Whether m is a run of `longest` metres (as the port map gives it, to 0.1 m) rounded up. */
static int rounded_up(long m, double longest)
{
	return (double)m >= longest - 0.05 && (double)m < longest + 1.05;
}

/* The longest length of the port map's rows whose link type starts with `type`. */
static double longest_row(const char *map, const char *type)
{
	const char *r;
	double max = 0;

	for (r = map; *r; r = strchr(r, '\n') ? strchr(r, '\n') + 1 : r + strlen(r))
		if (!strncmp(r, type, strlen(type))) {
			double len = row_length(r, type);

			if (len > max)
				max = len;
		}
	return max;
}

/*
 * Storage and border cable lengths come from where their ends stand, by
 * hand with the default layout (42U racks of 0.04445 m per U, 0.6 m rack
 * pitch, 4.2 m row pitch, 0.5 m up to the tray each end, 10 % + 0.5 m
 * slack). 16 nodes in 4 racks of one row, 4 storage servers of 2U:
 * one storage rack (x 0) in the storage row with its network rack beside
 * it (x 1), the single 64-port storage switch (1U) in it at 41.5U.
 * Server 1 at 1U: (41 + 0.5) x 0.04445 + 1 + 0.6 = 3.4447 m, x 1.1 + 0.5
 * = 4.29 m. Node 1 (row 0, x 0, 2U) is a row away: (40 + 0.5) x 0.04445
 * + 1 + 0.6 + 4.2 = 7.6002 m, 8.86 m. Node 16 (x 3, 14U) three racks
 * along: 28.5 x 0.04445 + 1 + 1.2 + 4.2 = 7.6668 m, 8.93 m.
 * The front end's border switches stand in the spine row with its leaves'
 * network rack: a border pair is one rack (0.5 m DAC for its peer links).
 */
static void storage_border_lengths(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;
	static struct keep k;

	(void)state;
	backend_only(&in, 16, 8, 64);
	in.nics_per_node = 0;
	in.storage.node_gbps = 200;
	in.storage.servers = 4;
	size_ok(&in, &c);
	assert_int_equal(c.storage.tiers, 1);
	k.len = 0;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_write_port_map(&c, keep_write, &k, NULL, &err), 0);
	assert_near(row_length(k.buf, "storage-host,stor01,st0,"), 4.3, 1e-9);
	assert_near(row_length(k.buf, "storage-host,node0001,st0,"), 8.9, 1e-9);
	assert_near(row_length(k.buf, "storage-host,node0016,st0,"), 8.9, 1e-9);
	assert_int_equal(c.rows, 2);
	/* the longest run is the storage network's, and said to be */
	assert_true(rounded_up(c.storage.max_length_m, longest_row(k.buf, "storage-")));
	assert_int_equal(c.max_length_m, c.storage.max_length_m);
	nicfit_cluster_release(&c);

	/* two racks of storage servers at 21 to a rack; the farther rack is further away */
	in.storage.servers = 30;
	in.storage.node_gbps = 400;
	size_ok(&in, &c);
	k.len = 0;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_write_port_map(&c, keep_write, &k, NULL, &err), 0);
	assert_true(row_length(k.buf, "storage-host,stor01,") > 0);
	nicfit_cluster_release(&c);

	/* the border: uplinks from the front-end leaves to the spine row, peer links in one rack */
	backend_only(&in, 16, 8, 64);
	in.nics_per_node = 0;
	in.net[NICFIT_NET_FRONTEND].links_per_node = 2;
	in.net[NICFIT_NET_FRONTEND].link_gbps = 100;
	in.frontend_uplinks = 4;
	size_ok(&in, &c);
	k.len = 0;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_write_port_map(&c, keep_write, &k, NULL, &err), 0);
	assert_near(row_length(k.buf, "mlag-peer,fe-border01,swp47,fe-border02,swp47,"), 0.5, 1e-9);
	assert_true(row_length(k.buf, "border-uplink,fe-leaf01,swp45,fe-border01,swp1,") > 4);
	assert_int_equal(c.border.map_rows, 8 + 2 + 2);
	/* each network's longest run, the longest of them all the summary's */
	assert_true(rounded_up(c.border.max_length_m, longest_row(k.buf, "border-uplink")));
	assert_true(c.net[NICFIT_NET_FRONTEND].max_length_m > 0);
	assert_int_equal(c.max_length_m, c.border.max_length_m > c.net[NICFIT_NET_FRONTEND].max_length_m ?
			 c.border.max_length_m : c.net[NICFIT_NET_FRONTEND].max_length_m);
	nicfit_cluster_release(&c);
}

/*
 * The OOB network reaches every storage server's BMC and the management
 * port of every storage and border switch, where they stand: 16 nodes with
 * two 100G front-end links and 4 uplinks per leaf (2 leaves, 2 border
 * switches), 4 storage servers on one storage switch: 16 + 4 BMCs and
 * 2 + 2 + 1 management ports, 25 OOB links on one 48-port OOB leaf.
 */
static void oob_reaches_storage_and_border(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;
	static struct keep k;
	const char *want[] = { "oob-bmc,stor01,bmc,oob-leaf01,", "oob-bmc,stor04,bmc,oob-leaf01,",
			       "oob-mgmt,st-leaf01,mgmt,oob-leaf01,",
			       "oob-mgmt,fe-border01,mgmt,oob-leaf01,",
			       "oob-mgmt,fe-border02,mgmt,oob-leaf01," };
	size_t i;

	(void)state;
	backend_only(&in, 16, 8, 64);
	in.nics_per_node = 0;
	in.net[NICFIT_NET_FRONTEND].links_per_node = 2;
	in.net[NICFIT_NET_FRONTEND].link_gbps = 100;
	in.frontend_uplinks = 4;
	in.storage.node_gbps = 200;
	in.storage.servers = 4;
	in.net[NICFIT_NET_OOB].links_per_node = 1;
	size_ok(&in, &c);
	assert_int_equal(c.border.switches, 2);
	assert_int_equal(c.storage.leaves, 1);
	assert_int_equal(c.net[NICFIT_NET_OOB].endpoints, 16 + 4 + 2 + 2 + 1);
	assert_int_equal(c.net[NICFIT_NET_OOB].links[NICFIT_LINK_HOST], 16 + 4);
	assert_int_equal(c.net[NICFIT_NET_OOB].links[NICFIT_LINK_MGMT], 2 + 2 + 1);
	assert_int_equal(c.net[NICFIT_NET_OOB].cables, 25);
	assert_int_equal(c.net[NICFIT_NET_OOB].tier[NICFIT_TIER_LEAF].ports_used, 25);
	k.len = 0;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_write_port_map(&c, keep_write, &k, NULL, &err), 0);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_true(row_length(k.buf, want[i]) > 0);
	/* a storage server's BMC run reaches the storage row; the OOB's longest run is its own */
	assert_true(row_length(k.buf, "oob-bmc,stor01,") > row_length(k.buf, "oob-bmc,node0001,"));
	assert_true(rounded_up(c.net[NICFIT_NET_OOB].max_length_m, longest_row(k.buf, "oob-")));
	assert_true(longest_row(k.buf, "oob-") > 0);
	nicfit_cluster_release(&c);
}

/*
 * The GPUDirect RDMA path comes from the catalog's vendor source: a
 * ConnectX-7 registers GPU memory through DMA-BUF or nvidia-peermem (the
 * finding carries NVIDIA's document), a ConnectX-3 through peer memory
 * only; a Broadcom BCM57508 (Thor) and an Intel E810 through DMA-BUF only,
 * as their vendors' Linux drivers (bnxt_re, irdma) register DMA-BUF memory
 * regions (the finding carries the commit); a BCM57414, for which the
 * catalog holds no such source, is said to have none rather than guessed.
 */
static const struct nicfit_finding *gdr_finding(const char *nic, struct nicfit_cluster *c)
{
	struct nicfit_cluster_input in;
	size_t i;

	backend_only(&in, 4, 2, 64);
	in.nic_id = nic;
	in.net[NICFIT_NET_BACKEND].link_gbps = 0;
	size_ok(&in, c);
	for (i = 0; i < c->findings.n; i++)
		if (!strcmp(c->findings.v[i].code, "cluster-gpudirect"))
			return &c->findings.v[i];
	return NULL;
}

static void gpudirect_path(void **state)
{
	const struct nicfit_finding *f;
	struct nicfit_cluster c;

	(void)state;
	f = gdr_finding("mcx75310aas-neat", &c);
	assert_non_null(f);
	assert_int_equal(f->severity, NICFIT_SEV_INFO);
	assert_non_null(strstr(f->message, "DMA-BUF (recommended) or nvidia-peermem"));
	assert_non_null(f->source);
	assert_non_null(strstr(f->source, "gpu-operator"));
	nicfit_cluster_release(&c);
	f = gdr_finding("mcx354a-fcbt", &c);
	assert_non_null(f);
	assert_non_null(strstr(f->message, "through nvidia-peermem,"));
	nicfit_cluster_release(&c);
	f = gdr_finding("bcm957508-p2100g", &c);
	assert_non_null(f);
	assert_non_null(strstr(f->message, "through DMA-BUF (recommended),"));
	assert_non_null(f->source);
	assert_non_null(strstr(f->source, "bnxt_re"));
	nicfit_cluster_release(&c);
	f = gdr_finding("e810-cqda2", &c);
	assert_non_null(f);
	assert_non_null(strstr(f->message, "through DMA-BUF (recommended),"));
	assert_non_null(strstr(f->source, "irdma"));
	nicfit_cluster_release(&c);
	f = gdr_finding("bcm957414a4142cc", &c);
	assert_non_null(f);
	assert_non_null(strstr(f->message, "no vendor document"));
	assert_null(f->source);
	nicfit_cluster_release(&c);
}

/*
 * The GPUDirect advice names the GPU maker's path: for AMD Instinct GPUs
 * the amdgpu driver's peer memory where NVIDIA's would be nvidia-peermem,
 * and RCCL's log, never an NVIDIA tool.
 */
static void gpudirect_by_gpu_maker(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	size_t i;
	int seen = 0;

	(void)state;
	backend_only(&in, 4, 2, 64);
	in.nic_id = "mcx75310aas-neat";
	in.gpu_id = "mi325x";
	in.net[NICFIT_NET_BACKEND].link_gbps = 0;
	size_ok(&in, &c);
	for (i = 0; i < c.findings.n; i++) {
		if (strcmp(c.findings.v[i].code, "cluster-gpudirect"))
			continue;
		seen = 1;
		assert_non_null(strstr(c.findings.v[i].message,
				       "DMA-BUF (recommended) or the amdgpu driver's peer memory"));
		assert_null(strstr(c.findings.v[i].message, "nvidia"));
		assert_non_null(c.findings.v[i].fix);
		assert_non_null(strstr(c.findings.v[i].fix, "rccl-tests"));
	}
	assert_true(seen);
	nicfit_cluster_release(&c);
}

/*
 * Words an AMD cluster must never tell its reader: NVIDIA's tools and
 * drivers, and the NCCL variables RCCL does not read (NVLink SHARP,
 * multi-node NVLink, CUDA's cuMem, CollNet). NCCL_DEBUG is RCCL's too.
 */
static void no_nvidia_word(const char *what, const char *s)
{
	static const char *const words[] = { "nvidia", "cuda", "nvlink", "peermem", "nv_peer",
		"nccl-tests", "NCCL_NVLS", "NCCL_MNNVL", "NCCL_CUMEM", "NCCL_COLLNET", "NCCL_NVB",
		"NCCL_P2P_NVL" };
	size_t i, n;
	const char *c;

	if (!s)
		return;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		for (c = s, n = strlen(words[i]); *c; c++)
			if (!strncasecmp(c, words[i], n))
				fail_msg("%s names %s: %s", what, words[i], s);
}

/*
 * 16 nodes of 8 x MI325X with 8 x Pollara 400 (1 x 400G QSFP112 each) on
 * Dell Z9864F-ON (Tomahawk 5, 64 x 800G OSFP, 8 x 100G PAM4 lanes a
 * port; a Pollara port is 4 x 100G PAM4, so each switch port splits
 * 2 x 400G), rail-optimized:
 *   rails     8 NICs a node: 8 rails (link i of every node on rail i)
 *   ports     16 x 8 = 128 node ports of 400G
 *   radix     64 ports x 2 = 128 node ports a switch: one leaf, no spine,
 *             64 switch ports used, 0 free; 128 host-leaf links
 *   2 tiers   a non-blocking leaf gives 32 ports down (64 node ports) and
 *             32 up; 32 nodes = 256 ports: 256 / 64 = 4 leaves, 4 x 32 =
 *             128 uplinks / 64 = 2 spines; 64 nodes: 8 leaves, 256 / 64
 *             = 4 spines
 *   advice    the GPUDirect finding names DMA-BUF, amdkfd and RCCL's log;
 *             nothing names an NVIDIA tool or an NCCL-only variable.
 */
static void amd_mi325x_pollara_tomahawk5(void **state)
{
	static const struct { long nodes, leaves, spines; int tiers; } t[] = {
		{ 16, 1, 0, 1 }, { 32, 4, 2, 2 }, { 64, 8, 4, 2 },
	};
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	const struct nicfit_cluster_net *be;
	size_t i, k;
	int seen;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		backend_only(&in, t[i].nodes, 8, 0);
		in.nic_id = "pollara-400";
		in.gpu_id = "mi325x";
		in.net[NICFIT_NET_BACKEND].link_gbps = 0;
		in.net[NICFIT_NET_BACKEND].switch_id = "z9864f-on";
		in.net[NICFIT_NET_BACKEND].rail_optimized = 1;
		size_ok(&in, &c);
		be = &c.net[NICFIT_NET_BACKEND];
		assert_int_equal(be->sw.ports, 64);
		assert_true(be->link_gbps == 400);
		assert_int_equal(be->breakout, 2);
		assert_int_equal(be->rails, 8);
		assert_int_equal(be->planes, 1);
		assert_int_equal(be->endpoints, t[i].nodes * 8);
		assert_int_equal(be->tiers, t[i].tiers);
		assert_int_equal(be->tier[NICFIT_TIER_LEAF].switches, t[i].leaves);
		assert_int_equal(be->tier[NICFIT_TIER_SPINE].switches, t[i].spines);
		assert_int_equal(be->endpoints_per_leaf, t[i].tiers == 1 ? 128 : 64);
		assert_int_equal(be->ports_free, 0);
		assert_int_equal(be->links[NICFIT_LINK_HOST], t[i].nodes * 8);
		seen = 0;
		for (k = 0; k < c.findings.n; k++) {
			if (!strcmp(c.findings.v[k].code, "cluster-gpudirect")) {
				seen = 1;
				assert_non_null(strstr(c.findings.v[k].message, "DMA-BUF"));
				assert_non_null(strstr(c.findings.v[k].message, "amdkfd"));
				assert_non_null(strstr(c.findings.v[k].message, "RCCL"));
			}
			no_nvidia_word(c.findings.v[k].code, c.findings.v[k].message);
			no_nvidia_word(c.findings.v[k].code, c.findings.v[k].fix);
		}
		assert_true(seen);
		for (k = 0; k < c.decisions.n; k++)
			no_nvidia_word(c.decisions.v[k].code, c.decisions.v[k].message);
		check_port_map(&c);
		nicfit_cluster_release(&c);
	}
}

/*
 * The module at a switch end is coded for that switch's vendor, as plan's
 * cable choice weighs the NIC end: a Dell or Arista Tomahawk 5 switch
 * takes the generic-coded twin-port 2 x 400GBASE-SR4 optic, never NVIDIA's
 * MMA4Z00-NS; an NVIDIA SN5600 keeps the MMA4Z00-NS. A NIC end keeps its
 * own module (the ConnectX-7's MMA4Z00-NS400).
 */
static void switch_end_coding(void **state)
{
	static const struct { const char *sw, *nic; long nodes; int nvidia; } t[] = {
		{ "z9864f-on", "pollara-400", 16, 0 },
		{ "z9864f-on", "pollara-400", 64, 0 },
		{ "dcs-7060x6-64pe", "mcx75310aas-neat", 32, 0 },
		{ "sn5600", "mcx75310aas-neat", 64, 1 },
	};
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	const struct nicfit_cluster_cable *x;
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		backend_only(&in, t[i].nodes, 8, 0);
		in.nic_id = t[i].nic;
		in.net[NICFIT_NET_BACKEND].link_gbps = 0;
		in.net[NICFIT_NET_BACKEND].switch_id = t[i].sw;
		in.net[NICFIT_NET_BACKEND].rail_optimized = 1;
		size_ok(&in, &c);
		x = find_cable(&c, t[i].nvidia ? "mma4z00-ns" : "optic-osfp-800g-2x400g-sr4");
		assert_non_null(x);
		assert_non_null(x->cat);
		assert_string_equal(x->cat->coding, t[i].nvidia ? "nvidia" : "generic");
		assert_null(find_cable(&c, t[i].nvidia ? "optic-osfp-800g-2x400g-sr4" : "mma4z00-ns"));
		for (k = 0; k < c.ncables; k++) {
			const struct nicfit_cable *m = c.cables[k].cat;

			/* at a non-NVIDIA switch only the NIC's own module is NVIDIA-coded */
			if (!t[i].nvidia && m && m->coding && strstr(m->coding, "nvidia"))
				assert_string_equal(c.cables[k].part, "mma4z00-ns400");
		}
		if (t[i].nodes > 16)
			assert_true(c.net[NICFIT_NET_BACKEND].links[NICFIT_LINK_LEAF_SPINE] > 0);
		check_port_map(&c);
		nicfit_cluster_release(&c);
	}
}

/*
 * Intel Gaudi 3 scales out over its own ports: eight accelerators x 3 x
 * 200 GbE, four to an 800G OSFP, give six 800G node links and no NIC; a
 * NIC given on top of them turns that off.
 */
static void gaudi_own_ports(void **state)
{
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	size_t i;
	int seen = 0;

	(void)state;
	backend_only(&in, 8, 8, 64);
	in.gpu_id = "gaudi3-oam";
	in.backend_from_gpu = 1;
	size_ok(&in, &c);
	assert_true(c.integrated);
	assert_int_equal(c.net[NICFIT_NET_BACKEND].links_per_node, 6);
	assert_true(c.net[NICFIT_NET_BACKEND].link_gbps > 799.9 &&
		    c.net[NICFIT_NET_BACKEND].link_gbps < 800.1);
	assert_int_equal(c.net[NICFIT_NET_BACKEND].endpoints, 48);
	for (i = 0; i < c.decisions.n; i++)
		if (!strcmp(c.decisions.v[i].code, "cluster.integrated")) {
			seen = 1;
			assert_non_null(strstr(c.decisions.v[i].message, "HCCL"));
		}
	assert_true(seen);
	nicfit_cluster_release(&c);
	/* the HL-338 PCIe card: 4 scale-out ports of 200G each, two to a QSFP112 cage */
	backend_only(&in, 8, 8, 64);
	in.gpu_id = "gaudi3-hl338";
	in.backend_from_gpu = 1;
	size_ok(&in, &c);
	assert_true(c.integrated);
	assert_int_equal(c.net[NICFIT_NET_BACKEND].links_per_node, 16);
	assert_true(c.net[NICFIT_NET_BACKEND].link_gbps > 399.9 &&
		    c.net[NICFIT_NET_BACKEND].link_gbps < 400.1);
	assert_string_equal(c.net[NICFIT_NET_BACKEND].node_cage, "QSFP112");
	nicfit_cluster_release(&c);
	backend_only(&in, 8, 8, 64);
	in.gpu_id = "gaudi3-oam";
	in.backend_from_gpu = 0;
	size_ok(&in, &c);
	assert_false(c.integrated);
	assert_int_equal(c.net[NICFIT_NET_BACKEND].links_per_node, 8);
	nicfit_cluster_release(&c);
}

/*
 * A scheduled fabric (Arista 7700R4C-38PE leaves on Jericho3-AI over
 * 7720R4-128PE cell switches on Ramon3): a leaf gives all 18 Ethernet
 * ports to nodes and its 20 fabric ports to the cell switches, never the
 * other way. 576 nodes x 8 x 400G, rail-optimized: 4,608 GPUs on 128
 * leaves and 20 cell switches, the largest of AMD's scheduled-fabric rail
 * designs (4096-4608 GPUs, 512-576 nodes); 36 nodes: 8 leaves and 2.
 * No PFC or ECN on the fabric links; a cell switch is never a leaf, and
 * the leaf serves the back end only.
 */
static void scheduled_fabric(void **state)
{
	static const struct { long nodes, leaves, cells; } t[] = {
		{ 36, 8, 2 }, { 64, 16, 4 }, { 576, 128, 20 },
	};
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;
	size_t i, j;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int sched = 0, roce = 0;

		backend_only(&in, t[i].nodes, 8, 64);
		in.nic_id = "pollara-400";
		in.gpu_id = "mi325x";
		in.net[NICFIT_NET_BACKEND].switch_id = "arista-7700r4c-38pe";
		in.net[NICFIT_NET_BACKEND].rail_optimized = 1;
		size_ok(&in, &c);
		assert_true(c.net[NICFIT_NET_BACKEND].scheduled);
		assert_string_equal(c.net[NICFIT_NET_BACKEND].fabric.id, "arista-7720r4-128pe");
		assert_int_equal(c.net[NICFIT_NET_BACKEND].tier[NICFIT_TIER_LEAF].switches, t[i].leaves);
		assert_int_equal(c.net[NICFIT_NET_BACKEND].tier[NICFIT_TIER_SPINE].switches, t[i].cells);
		assert_int_equal(c.net[NICFIT_NET_BACKEND].uplinks_per_leaf, 20);
		for (j = 0; j < c.decisions.n; j++) {
			if (!strcmp(c.decisions.v[j].code, "cluster.scheduled"))
				sched = 1;
			if (!strcmp(c.decisions.v[j].code, "cluster.roce")) {
				roce = 1;
				assert_null(strstr(c.decisions.v[j].message, "needs a lossless fabric"));
			}
		}
		assert_true(sched && roce);
		for (j = 0; j < c.nbom; j++)
			if (!strcmp(c.bom[j].part, "arista-7720r4-128pe"))
				assert_int_equal(c.bom[j].qty, t[i].cells);
			else if (!strcmp(c.bom[j].part, "arista-7700r4c-38pe"))
				assert_int_equal(c.bom[j].qty, t[i].leaves);
		check_port_map(&c);
		nicfit_cluster_release(&c);
	}
	/* past one fabric tier: 600 nodes need 134 leaves */
	backend_only(&in, 600, 8, 64);
	in.net[NICFIT_NET_BACKEND].switch_id = "arista-7700r4c-38pe";
	in.net[NICFIT_NET_BACKEND].rail_optimized = 1;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_USAGE);
	assert_non_null(strstr(err.msg, "second tier of cell switches"));
	/* a third tier above the cell switches is refused, not ignored */
	backend_only(&in, 64, 8, 64);
	in.net[NICFIT_NET_BACKEND].switch_id = "arista-7700r4c-38pe";
	in.net[NICFIT_NET_BACKEND].min_tiers = 3;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_USAGE);
	assert_string_equal(err.input, "--tiers");
	/* a cell switch is no leaf; the leaf is for the back end only */
	backend_only(&in, 16, 8, 64);
	in.net[NICFIT_NET_BACKEND].switch_id = "arista-7720r4-128pe";
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_USAGE);
	assert_string_equal(err.input, "--switch");
	backend_only(&in, 16, 8, 64);
	in.net[NICFIT_NET_FRONTEND].links_per_node = 1;
	in.net[NICFIT_NET_FRONTEND].switch_id = "arista-7700r4c-38pe";
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_USAGE);
	assert_string_equal(err.input, "--frontend-switch");
}

/*
 * A network rack holds switches_per_rack switches, but no more of a tall
 * switch than its height has room for: the 4U Q3400-RA ten to a 42U rack
 * (floor(42 / 4)), fifteen to a 60U one, never more than the assumption.
 * Every leaf serves several one-node racks here, so leaves and spines all
 * stand in network racks (the leaves in the compute row's, the spines in
 * the spine row's).
 */
static void network_rack_height(void **state)
{
	static const struct {
		double rack_u, spr;
		long per;
	} cases[] = { { 42, 16, 10 }, { 60, 16, 15 }, { 42, 4, 4 }, { 20, 16, 5 } };
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long leaves, spines;

		backend_only(&in, 128, 8, 0);
		in.net[NICFIT_NET_BACKEND].link_gbps = 800;
		in.net[NICFIT_NET_BACKEND].switch_id = "q3400";
		in.nodes_per_rack = 1;
		in.layout.tor_span = 1;
		in.layout.racks_per_row = 500;
		in.layout.rack_u = cases[i].rack_u;
		in.layout.switches_per_rack = cases[i].spr;
		size_ok(&in, &c);
		leaves = c.net[NICFIT_NET_BACKEND].tier[NICFIT_TIER_LEAF].switches;
		spines = c.net[NICFIT_NET_BACKEND].tier[NICFIT_TIER_SPINE].switches;
		/* more leaves than ten, fewer than sixteen: the cap is what changes the count */
		assert_true(leaves > 10 && leaves <= 16);
		assert_int_equal(c.network_racks,
				 (leaves + cases[i].per - 1) / cases[i].per +
				 (spines + cases[i].per - 1) / cases[i].per);
		nicfit_cluster_release(&c);
	}
}

/* The cluster.place decision that says a leaf found no room on top of its rack, or NULL. */
static const char *tor_decision(const struct nicfit_cluster *c)
{
	size_t j;

	for (j = 0; j < c->decisions.n; j++)
		if (!strcmp(c->decisions.v[j].code, "cluster.place") &&
		    strstr(c->decisions.v[j].message, "top of rack"))
			return c->decisions.v[j].message;
	return NULL;
}

/*
 * A leaf goes on top of a compute rack only where the rack has room above
 * its nodes: one 1U leaf for one rack of four nodes fits above 4 x 10U in
 * 42U, not above 4 x 10.5U (the rack is full) nor as a 4U Q3400 above
 * 4 x 10U; then it stands in a network rack and a decision says why. A
 * leaf of two racks whose middle rack is full goes on top of the other.
 */
static void tor_rack_full(void **state)
{
	static const struct {
		long nodes;
		double node_u;
		const char *sw;         /* NULL: a generic 1U 64-port switch */
		long network_racks;
		const char *says;       /* in the decision, NULL: no decision */
	} t[] = {
		{ 4, 10, NULL, 0, NULL },
		{ 4, 10.5, NULL, 1, "compute rack 1 holds 4 nodes of 10.5U in 42U: 0U left, "
				    "no room for a 1U leaf; 1 leaf in its row's network racks" },
		{ 4, 10, "q3400", 1, "2U left, no room for a 4U leaf" },
		{ 6, 10.5, NULL, 0, "1 leaf on top of another rack of its span" },
	};
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		const char *d;

		backend_only(&in, t[i].nodes, 8, t[i].sw ? 0 : 64);
		in.nodes_per_rack = 4;
		in.layout.rack_u = 42;
		in.layout.node_u = t[i].node_u;
		if (t[i].sw) {
			in.net[NICFIT_NET_BACKEND].link_gbps = 800;
			in.net[NICFIT_NET_BACKEND].switch_id = t[i].sw;
		}
		size_ok(&in, &c);
		assert_int_equal(c.net[NICFIT_NET_BACKEND].tier[NICFIT_TIER_LEAF].switches, 1);
		assert_int_equal(c.network_racks, t[i].network_racks);
		d = tor_decision(&c);
		if (!t[i].says)
			assert_null(d);
		else if (!d || !strstr(d, t[i].says))
			fail_msg("case %zu: decision \"%s\" lacks \"%s\"", i, d ? d : "(none)",
				 t[i].says);
		check_port_map(&c);
		nicfit_cluster_release(&c);
	}
}

/*
 * An NVL72 rack's own equipment takes units a leaf cannot: 18 x 1U trays,
 * 9 x 1U NVLink switch trays, 2 x 1U management switches and 8 x 1U power
 * shelves are 37U (data/nv-rack.json), so the rack's four 1U rail leaves
 * fit on top in 41U and one of them not in 40.5U, where the trays alone
 * (18U) would have left room for all four; the decision names the rack's
 * equipment. An NVL36x2 rack: 9 x 2U trays and 9 x 1U switch trays, 27U
 * (its two racks share the four leaves: all four on top of one in 31U,
 * two a rack in 29U).
 */
static void nvl72_rack_room(void **state)
{
	static const struct {
		const char *server;
		const char *sw;         /* NULL: the rack's default */
		double rack_u;
		int leaves;
		const char *says;       /* in the decision, NULL: no decision */
	} t[] = {
		{ "gb200-nvl72", "qm9700", 41, 4, NULL },
		{ "gb200-nvl72", "qm9700", 40.5, 4, "compute rack 1 holds 18 nodes of 1U, 9 NVLink switch trays "
					  "of 1U, 2 management switches of 1U, 8 power shelves of 1U "
					  "in 40.5U and 3U of switches on top: 0.5U left, no room for a "
					  "1U leaf; 1 leaf in its row's network racks" },
		{ "gb300-nvl72", NULL, 41, 1, NULL },
		{ "gb300-nvl72", NULL, 40.5, 1, "8 power shelves of 1U in 40.5U: 3.5U left, no room for a 4U leaf" },
		{ "gb200-nvl36x2", "qm9700", 31, 4, NULL },
		{ "gb200-nvl36x2", "qm9700", 29, 4, "holds 9 nodes of 2U, 9 NVLink switch trays of 1U in "
					     "29U and 2U of switches on top: 0U left, no room for a 1U "
					     "leaf; 2 leaves on top of another rack of their span" },
		{ "gb200-nvl36x2", "qm9700", 28.5, 4, "holds 9 nodes of 2U, 9 NVLink switch trays of 1U in "
					    "28.5U and 1U of switches on top: 0.5U left" },
	};
	char body[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct nicfit_spec spec;
		struct nicfit_cluster_input in;
		struct nicfit_cluster c;
		const char *d;

		snprintf(body, sizeof(body), "{\"server\": \"%s\", \"racks\": 1%s%s%s}", t[i].server,
			 t[i].sw ? ", \"switch\": \"" : "", t[i].sw ? t[i].sw : "", t[i].sw ? "\"" : "");
		read_request(body, &spec, &in);
		in.net[NICFIT_NET_FRONTEND].links_per_node = 0;
		in.net[NICFIT_NET_OOB].links_per_node = 0;
		in.layout.rack_u = t[i].rack_u;
		size_ok(&in, &c);
		assert_int_equal(c.net[NICFIT_NET_BACKEND].tier[NICFIT_TIER_LEAF].switches, t[i].leaves);
		d = tor_decision(&c);
		if (!t[i].says && d)
			fail_msg("case %zu: decision \"%s\"", i, d);
		else if (t[i].says && (!d || !strstr(d, t[i].says)))
			fail_msg("case %zu: decision \"%s\" lacks \"%s\"", i, d ? d : "(none)",
				 t[i].says);
		check_port_map(&c);
		nicfit_cluster_release(&c);
		nicfit_spec_release(&spec);
	}
}

/*
 * A chassis is sized as one switch and placed by its height: the 10U
 * 7804R4 stands four to a 42U network rack. A chassis whose catalog entry
 * gives no height in whole units is refused rather than placed as 1U.
 */
static void chassis_height(void **state)
{
	static const char doc[] =
		"{\"schema\": \"nicfit.catalog.v1\", \"switches\": [{\"id\": \"my-chassis\", "
		"\"name\": \"test chassis\", \"vendor\": \"Test\", \"fabric\": \"ethernet\", "
		"\"ports\": 144, \"port_gbps\": 800, \"cage\": \"OSFP\", \"breakout\": [\"2x400\"], "
		"\"chassis\": true, \"form\": \"10RU\", \"source\": \"test\"}]}";
	struct nicfit_cluster_input in;
	struct nicfit_cluster c;
	struct nicfit_error err;
	long leaves, spines;

	(void)state;
	backend_only(&in, 128, 8, 0);
	in.net[NICFIT_NET_BACKEND].switch_id = "arista-7804r4";
	in.layout.racks_per_row = 500;
	size_ok(&in, &c);
	assert_int_equal(c.net[NICFIT_NET_BACKEND].sw.height_u, 10);
	leaves = c.net[NICFIT_NET_BACKEND].tier[NICFIT_TIER_LEAF].switches;
	spines = c.net[NICFIT_NET_BACKEND].tier[NICFIT_TIER_SPINE].switches;
	assert_true(leaves > 4);
	assert_int_equal(c.network_racks, (leaves + 3) / 4 + (spines + 3) / 4);
	nicfit_cluster_release(&c);
	nicfit_error_clear(&err);
	if (nicfit_catalog_overlay(cat, "test", doc, strlen(doc), &err))
		fail_msg("overlay: %s", err.msg);
	in.net[NICFIT_NET_BACKEND].switch_id = "my-chassis";
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_cluster_size(&in, cat, &c, &err), NICFIT_E_DATA);
	assert_non_null(strstr(err.msg, "gives no height"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_tier_limit),
		cmocka_unit_test(three_tier_limit),
		cmocka_unit_test(superpod),
		cmocka_unit_test(shared_spines),
		cmocka_unit_test(rail_vs_nonrail),
		cmocka_unit_test(oversubscription),
		cmocka_unit_test(undersubscription),
		cmocka_unit_test(narval),
		cmocka_unit_test(breakout),
		cmocka_unit_test(twin_port_cages),
		cmocka_unit_test(twin_optic_fibres),
		cmocka_unit_test(split_takes_neighbour),
		cmocka_unit_test(leaf_spine_800g),
		cmocka_unit_test(flat_top_nic_side),
		cmocka_unit_test(cables_by_distance),
		cmocka_unit_test(all_networks),
		cmocka_unit_test(port_map_consistency),
		cmocka_unit_test(hundred_thousand_gpus),
		cmocka_unit_test(csv_writer),
		cmocka_unit_test(names),
		cmocka_unit_test(lanes_decide_ports),
		cmocka_unit_test(ib_rate_names_port),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(node_kind_defaults),
		cmocka_unit_test(spec_and_render),
		cmocka_unit_test(findings_and_decisions),
		cmocka_unit_test(storage_fabric),
		cmocka_unit_test(storage_split_takes_neighbour),
		cmocka_unit_test(frontend_border),
		cmocka_unit_test(storage_border_lengths),
		cmocka_unit_test(oob_reaches_storage_and_border),
		cmocka_unit_test(gpudirect_path),
		cmocka_unit_test(gpudirect_by_gpu_maker),
		cmocka_unit_test(amd_mi325x_pollara_tomahawk5),
		cmocka_unit_test(switch_end_coding),
		cmocka_unit_test(gaudi_own_ports),
		cmocka_unit_test(gb200_racks),
		cmocka_unit_test(scheduled_fabric),
		cmocka_unit_test(gb200_superpod_table),
		cmocka_unit_test(gb200_rail_pods_and_bmcs),
		cmocka_unit_test(xdr_copper_splitter),
		cmocka_unit_test(network_rack_height),
		cmocka_unit_test(chassis_height),
		cmocka_unit_test(tor_rack_full),
		cmocka_unit_test(twin_copper_leaf_spine),
		cmocka_unit_test(nvl72_rack_room),
	};

	return cmocka_run_group_tests(tests, catalog_setup, catalog_teardown);
}
