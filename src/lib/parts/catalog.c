/*
 * catalog.c - the catalog itself: the store of entries, its JSON, and
 * loading and overlaying documents (see nicfit/catalog.h and
 * docs/catalog.md). The kinds and the typed views are read through
 * catalog_view.c, the schema and its checks are in catalog_check.c,
 * look-ups in catalog_find.c, rendering in catalog_render.c.
 *
 * The default catalog is compiled (tools/catgen.c, embedded_int.h): a new
 * catalog's views are the static tables, and nothing is parsed. Entries
 * are kept as jansson objects only once something needs them: an entry
 * asked for as JSON, or an overlay, which merges field by field into the
 * kinds it names (those kinds' embedded JSON is parsed then, and only
 * theirs). After an overlay the typed views of the kinds it touched are
 * rebuilt from the objects, sorted by id; their strings point into the
 * jansson objects, which the catalog owns.
 *
 * Each fill_* function, which turns a merged object into a view, has the
 * view's layout table next to it: the generator writes the compiled views
 * by walking those tables, and test_compiled fails when a member the
 * fill_* sets is missing from its table (docs/HACKING.md, "add a catalog
 * field").
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/jansson_int.h"

#include "parts/catalog_int.h"
#include "parts/embedded_int.h"
#include "nicfit/catalog.h"
#include "nicfit/file.h"

/* ---- the catalog ------------------------------------------------------- */

#define view_size nicfit__catalog_view_size

static struct nicfit_catalog *catalog_alloc(void)
{
	struct nicfit_catalog *cat = calloc(1, sizeof(*cat));

	if (cat && pthread_mutex_init(&cat->lazy, NULL)) {
		free(cat);
		return NULL;
	}
	return cat;
}

int nicfit_catalog_new_empty(struct nicfit_catalog **out, struct nicfit_error *err)
{
	struct nicfit_catalog *cat = catalog_alloc();
	int k;

	*out = NULL;
	if (!cat)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		cat->k[k].byid = json_object();
		cat->k[k].own_ids = calloc(1, sizeof(*cat->k[k].own_ids));
		cat->k[k].ids = cat->k[k].own_ids;
		if (!cat->k[k].byid || !cat->k[k].own_ids) {
			nicfit_catalog_free(cat);
			return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
		}
	}
	*out = cat;
	return 0;
}

void nicfit_catalog_free(struct nicfit_catalog *cat)
{
	int k;

	if (!cat)
		return;
	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		json_decref(cat->k[k].byid);
		free(cat->k[k].own_views);
		free(cat->k[k].own_ids);
	}
	nicfit__catalog_cable_ends_drop(cat);
	pthread_mutex_destroy(&cat->lazy);
	free(cat);
}

/*
 * Layout rows (catalog_int.h): L_STR(S, m) for a const char * member of
 * struct S, L_STRS for an array of them, L_INT, L_UINT, L_LONG, L_DBL and
 * L_DBLS alike, L_UINT2(S, m, cols) for a 2-D array, L_SUB(S, m, T, rows)
 * for a member of struct T laid out by rows, L_SUBS for an array of them.
 */
#define L_(S, m, t, arr, c, sub, ssz) \
	{ #m, offsetof(struct S, m), sizeof(((struct S *)0)->m), t, arr, c, sub, ssz }
#define L_STR(S, m) L_(S, m, NICFIT__F_STR, 0, 1, NULL, 0)
#define L_STRS(S, m) L_(S, m, NICFIT__F_STR, 1, 1, NULL, 0)
#define L_INT(S, m) L_(S, m, NICFIT__F_INT, 0, 1, NULL, 0)
#define L_UINT(S, m) L_(S, m, NICFIT__F_UINT, 0, 1, NULL, 0)
#define L_UINT2(S, m, c) L_(S, m, NICFIT__F_UINT, 1, c, NULL, 0)
#define L_LONG(S, m) L_(S, m, NICFIT__F_LONG, 0, 1, NULL, 0)
#define L_DBL(S, m) L_(S, m, NICFIT__F_DBL, 0, 1, NULL, 0)
#define L_DBLS(S, m) L_(S, m, NICFIT__F_DBL, 1, 1, NULL, 0)
#define L_SUB(S, m, T, rows) L_(S, m, NICFIT__F_STRUCT, 0, 1, rows, sizeof(struct T))
#define L_SUBS(S, m, T, rows) L_(S, m, NICFIT__F_STRUCT, 1, 1, rows, sizeof(struct T))
#define L_END { NULL, 0, 0, NICFIT__F_STR, 0, 0, NULL, 0 }

/* Typed getters over a merged entry. */
static const char *gs(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	return json_is_string(v) ? json_string_value(v) : NULL;
}

static double gn(json_t *o, const char *key, double def)
{
	json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : def;
}

static int gi(json_t *o, const char *key, int def)
{
	json_t *v = json_object_get(o, key);

	return json_is_integer(v) ? (int)json_integer_value(v) : def;
}

static int gb(json_t *o, const char *key)
{
	return json_is_true(json_object_get(o, key));
}

static int gstrs(json_t *o, const char *key, const char **out, int max)
{
	json_t *a = json_object_get(o, key);
	size_t i;
	int n = 0;

	for (i = 0; i < json_array_size(a) && n < max; i++)
		if (json_is_string(json_array_get(a, i)))
			out[n++] = json_string_value(json_array_get(a, i));
	return n;
}

static unsigned gbits(json_t *o, const char *key, const char *const *names)
{
	const char *v[NICFIT_MAX_LIST];
	unsigned bits = 0;
	int n = gstrs(o, key, v, NICFIT_MAX_LIST), i, j;

	for (i = 0; i < n; i++)
		for (j = 0; names[j]; j++)
			if (!strcmp(v[i], names[j]))
				bits |= 1u << j;
	return bits;
}

static unsigned hex(const char *s)
{
	unsigned long v;
	char *end;

	if (!s)
		return 0;
	errno = 0;
	v = strtoul(s, &end, 16);
	return errno || *end || v > 0xffff ? 0 : (unsigned)v;
}

static const struct nicfit__field entry_layout[] = {
	L_STR(nicfit_entry, id), L_STR(nicfit_entry, name), L_STR(nicfit_entry, source),
	L_STRS(nicfit_entry, unverified), L_INT(nicfit_entry, nunverified),
	L_STRS(nicfit_entry, notes), L_INT(nicfit_entry, nnotes),
	L_INT(nicfit_entry, priced), L_DBL(nicfit_entry, price_usd),
	L_STR(nicfit_entry, prices_as_of), L_STR(nicfit_entry, price_source),
	L_STR(nicfit_entry, origin),
	L_END
};

static void fill_entry(struct nicfit_entry *e, json_t *o)
{
	e->id = gs(o, "id");
	e->name = gs(o, "name");
	e->source = gs(o, "source");
	e->nunverified = gstrs(o, "unverified", e->unverified, NICFIT_MAX_LIST);
	e->nnotes = gstrs(o, "notes", e->notes, NICFIT_MAX_LIST);
	e->priced = json_is_number(json_object_get(o, "price_usd"));
	e->price_usd = gn(o, "price_usd", 0);
	e->prices_as_of = gs(o, "prices_as_of");
	e->price_source = gs(o, "price_source");
	e->origin = gs(o, "_origin");
}

static const struct nicfit__field nic_layout[] = {
	L_SUB(nicfit_nic, e, nicfit_entry, entry_layout),
	L_STR(nicfit_nic, part), L_STR(nicfit_nic, vendor), L_STR(nicfit_nic, family),
	L_STR(nicfit_nic, protocol), L_STR(nicfit_nic, cage), L_STR(nicfit_nic, ib_rate),
	L_STR(nicfit_nic, form_factor), L_STR(nicfit_nic, bracket), L_STR(nicfit_nic, driver),
	L_STR(nicfit_nic, module_coding),
	L_INT(nicfit_nic, ports), L_DBL(nicfit_nic, port_gbps),
	L_DBLS(nicfit_nic, speeds_gbps), L_INT(nicfit_nic, nspeeds),
	L_INT(nicfit_nic, pcie_gen), L_INT(nicfit_nic, pcie_width), L_INT(nicfit_nic, pcie_gen_min),
	L_DBL(nicfit_nic, card_gbps), L_INT(nicfit_nic, socket_direct), L_INT(nicfit_nic, vpi),
	L_UINT(nicfit_nic, rdma), L_UINT(nicfit_nic, roles),
	L_UINT(nicfit_nic, pci_vendor), L_UINT(nicfit_nic, pci_device),
	L_UINT2(nicfit_nic, subsys, 2), L_INT(nicfit_nic, nsubsys),
	L_STRS(nicfit_nic, psids), L_INT(nicfit_nic, npsids),
	L_INT(nicfit_nic, lanes), L_DBL(nicfit_nic, lane_gbps),
	L_INT(nicfit_nic, sd_links), L_INT(nicfit_nic, sd_width), L_INT(nicfit_nic, sd_option),
	L_INT(nicfit_nic, supernic),
	L_UINT(nicfit_nic, gpudirect), L_STR(nicfit_nic, gpudirect_source),
	L_INT(nicfit_nic, double_width),
	L_UINT2(nicfit_nic, port_modes, 2), L_INT(nicfit_nic, nport_modes),
	L_END
};

/* "port_modes": [{"ports": 2, "gbps": 200}, {"ports": 1, "gbps": 400}] (catalog_check.c checked it) */
static void fill_port_modes(struct nicfit_nic *n, json_t *a)
{
	size_t i;

	for (i = 0; i < json_array_size(a) && n->nport_modes < NICFIT_MAX_PORT_MODES; i++) {
		json_t *m = json_array_get(a, i);
		int ports = gi(m, "ports", 0);
		double gbps = gn(m, "gbps", 0);

		if (ports < 1 || !(gbps > 0))
			continue;
		n->port_modes[n->nport_modes][0] = (unsigned)ports;
		n->port_modes[n->nport_modes][1] = (unsigned)(gbps + 0.5);
		n->nport_modes++;
	}
}

static void fill_nic(struct nicfit_nic *n, json_t *o)
{
	static const char *const rdma_bits[] = { "roce", "infiniband", "iwarp", NULL };
	static const char *const role_bits[] = { "frontend", "backend", "storage", NULL };
	static const char *const gdr_bits[] = { "dmabuf", "peermem", NULL };
	json_t *a = json_object_get(o, "speeds_gbps"), *pci = json_object_get(o, "pci");
	const char *subs[NICFIT_MAX_LIST], *w = gs(o, "slot_width");
	size_t i;
	int k, ns;

	fill_entry(&n->e, o);
	n->part = gs(o, "part");
	n->vendor = gs(o, "vendor");
	n->family = gs(o, "family");
	n->protocol = gs(o, "protocol");
	n->cage = gs(o, "cage");
	n->ib_rate = gs(o, "ib_rate");
	n->form_factor = gs(o, "form_factor");
	n->bracket = gs(o, "bracket");
	n->driver = gs(o, "driver");
	n->module_coding = gs(o, "module_coding");
	n->double_width = w && !strcmp(w, "double");
	n->ports = gi(o, "ports", 0);
	n->port_gbps = gn(o, "port_gbps", 0);
	for (i = 0; i < json_array_size(a) && n->nspeeds < NICFIT_MAX_LIST; i++)
		n->speeds_gbps[n->nspeeds++] = json_number_value(json_array_get(a, i));
	n->pcie_gen = gi(o, "pcie_gen", 0);
	n->pcie_width = gi(o, "pcie_width", 0);
	n->pcie_gen_min = gi(o, "pcie_gen_min", 0);
	n->card_gbps = gn(o, "card_gbps", 0);
	n->socket_direct = gb(o, "socket_direct");
	n->vpi = gb(o, "vpi");
	n->rdma = gbits(o, "rdma", rdma_bits);
	n->roles = gbits(o, "role", role_bits);
	n->pci_vendor = hex(gs(pci, "vendor"));
	n->pci_device = hex(gs(pci, "device"));
	n->npsids = gstrs(o, "psids", n->psids, NICFIT_MAX_LIST);
	ns = gstrs(pci, "subsystems", subs, NICFIT_MAX_LIST);
	for (k = 0; k < ns; k++) {
		char v[5] = { 0 }, d[5] = { 0 };

		if (strlen(subs[k]) != 9 || subs[k][4] != ':')
			continue;
		memcpy(v, subs[k], 4);
		memcpy(d, subs[k] + 5, 4);
		n->subsys[n->nsubsys][0] = hex(v);
		n->subsys[n->nsubsys][1] = hex(d);
		n->nsubsys++;
	}
	fill_port_modes(n, json_object_get(o, "port_modes"));
	n->lanes = gi(o, "lanes", 0);
	n->lane_gbps = gn(o, "lane_gbps", 0);
	n->sd_option = gb(o, "socket_direct_option");
	n->supernic = gb(o, "supernic");
	if (n->socket_direct || n->sd_option) {
		n->sd_links = gi(o, "socket_direct_links", 2);
		n->sd_width = gi(o, "socket_direct_width", n->pcie_width);
	}
	n->gpudirect = gbits(o, "gpudirect", gdr_bits);
	n->gpudirect_source = gs(o, "gpudirect_source");
}

static const struct nicfit__field cable_layout[] = {
	L_SUB(nicfit_cable, e, nicfit_entry, entry_layout),
	L_STR(nicfit_cable, part), L_INT(nicfit_cable, type), L_DBL(nicfit_cable, gbps),
	L_STR(nicfit_cable, end_a), L_STR(nicfit_cable, end_b), L_INT(nicfit_cable, split),
	L_DBL(nicfit_cable, lane_gbps), L_DBL(nicfit_cable, length_m),
	L_DBL(nicfit_cable, max_length_m),
	L_STR(nicfit_cable, medium), L_STR(nicfit_cable, fiber), L_STR(nicfit_cable, standard),
	L_STR(nicfit_cable, coding), L_INT(nicfit_cable, lanes_a), L_INT(nicfit_cable, lanes_b),
	L_DBL(nicfit_cable, serdes_gbps_a), L_DBL(nicfit_cable, serdes_gbps_b),
	L_STR(nicfit_cable, top_a), L_STR(nicfit_cable, top_b), L_STR(nicfit_cable, fabric),
	L_END
};

static void fill_cable(struct nicfit_cable *c, json_t *o)
{
	static const char *const types[] = { "dac", "aoc", "optic", "breakout-dac",
		"breakout-aoc", "rj45", NULL };
	const char *t = gs(o, "type");
	int i;

	fill_entry(&c->e, o);
	c->part = gs(o, "part");
	for (i = 0; types[i]; i++)
		if (t && !strcmp(t, types[i]))
			c->type = (enum nicfit_cable_type)i;
	c->gbps = gn(o, "gbps", 0);
	c->end_a = gs(o, "end_a");
	c->end_b = gs(o, "end_b");
	c->split = gi(o, "split", 1);
	c->lane_gbps = gn(o, "lane_gbps", c->gbps);
	c->length_m = gn(o, "length_m", -1);
	c->max_length_m = gn(o, "max_length_m", 0);
	c->medium = gs(o, "medium");
	c->fiber = gs(o, "fiber");
	c->standard = gs(o, "standard");
	c->coding = gs(o, "coding");
	c->lanes_a = gi(o, "lanes_a", 0);
	c->lanes_b = gi(o, "lanes_b", 0);
	c->serdes_gbps_a = gn(o, "serdes_gbps_a", 0);
	c->serdes_gbps_b = gn(o, "serdes_gbps_b", 0);
	c->top_a = gs(o, "top_a");
	c->fabric = gs(o, "fabric");
	c->top_b = gs(o, "top_b");
}

static const struct nicfit__field switch_layout[] = {
	L_SUB(nicfit_switch, e, nicfit_entry, entry_layout),
	L_STR(nicfit_switch, vendor), L_STR(nicfit_switch, fabric), L_STR(nicfit_switch, cage),
	L_STR(nicfit_switch, form), L_INT(nicfit_switch, ports), L_DBL(nicfit_switch, port_gbps),
	L_STRS(nicfit_switch, breakout), L_INT(nicfit_switch, nbreakout),
	L_INT(nicfit_switch, max_logical_ports), L_INT(nicfit_switch, lossless),
	L_INT(nicfit_switch, subnet_manager), L_INT(nicfit_switch, ports_per_cage),
	L_INT(nicfit_switch, uplink_ports), L_DBL(nicfit_switch, uplink_gbps),
	L_STR(nicfit_switch, uplink_cage), L_STRS(nicfit_switch, uplink_breakout),
	L_INT(nicfit_switch, nuplink_breakout), L_INT(nicfit_switch, lanes_per_port),
	L_DBL(nicfit_switch, lane_gbps), L_DBLS(nicfit_switch, lane_rates),
	L_INT(nicfit_switch, nlane_rates), L_STR(nicfit_switch, scheduled),
	L_STR(nicfit_switch, fabric_switch), L_INT(nicfit_switch, chassis),
	L_END
};

static void fill_switch(struct nicfit_switch *s, json_t *o)
{
	json_t *a;
	size_t i;

	fill_entry(&s->e, o);
	s->vendor = gs(o, "vendor");
	s->fabric = gs(o, "fabric");
	s->cage = gs(o, "cage");
	s->form = gs(o, "form");
	s->ports = gi(o, "ports", 0);
	s->port_gbps = gn(o, "port_gbps", 0);
	s->nbreakout = gstrs(o, "breakout", s->breakout, NICFIT_MAX_LIST);
	s->max_logical_ports = gi(o, "max_logical_ports", 0);
	s->ports_per_cage = gi(o, "ports_per_cage", 1);
	s->uplink_ports = gi(o, "uplink_ports", 0);
	s->uplink_gbps = gn(o, "uplink_gbps", 0);
	s->uplink_cage = gs(o, "uplink_cage");
	s->nuplink_breakout = gstrs(o, "uplink_breakout", s->uplink_breakout, NICFIT_MAX_LIST);
	s->lossless = gb(o, "lossless");
	s->subnet_manager = gb(o, "subnet_manager");
	s->lanes_per_port = gi(o, "lanes_per_port", 0);
	s->lane_gbps = gn(o, "lane_gbps", 0);
	s->scheduled = gs(o, "scheduled");
	s->fabric_switch = gs(o, "fabric_switch");
	s->chassis = gb(o, "chassis");
	a = json_object_get(o, "lane_rates");
	for (i = 0; i < json_array_size(a) && s->nlane_rates < NICFIT_MAX_LIST; i++)
		s->lane_rates[s->nlane_rates++] = json_number_value(json_array_get(a, i));
}

static enum nicfit_slot_role slot_role(const char *r)
{
	if (!r)
		return NICFIT_SLOT_ANY;
	return !strcmp(r, "compute") ? NICFIT_SLOT_COMPUTE :
	       !strcmp(r, "storage") ? NICFIT_SLOT_STORAGE :
	       !strcmp(r, "frontend") ? NICFIT_SLOT_FRONTEND :
	       !strcmp(r, "gpu") ? NICFIT_SLOT_GPU : NICFIT_SLOT_ANY;
}

/*
 * The riser configurations a slot is there in, as bits of s->risers (0:
 * every one); names that are not there are refused by catalog_check.c.
 */
static unsigned riser_mask(const struct nicfit_server *s, json_t *names)
{
	unsigned m = 0;
	size_t i;
	int k;

	for (i = 0; i < json_array_size(names); i++)
		for (k = 0; k < s->nrisers; k++)
			if (json_is_string(json_array_get(names, i)) &&
			    !strcmp(json_string_value(json_array_get(names, i)), s->risers[k].id))
				m |= 1u << k;
	return m;
}

/* The index of switch id among s's switches, -1 for none (checked by catalog_check.c). */
static int switch_index(const struct nicfit_server *s, const char *id)
{
	int i;

	for (i = 0; id && i < s->nswitches; i++)
		if (s->switches[i].id && !strcmp(s->switches[i].id, id))
			return i;
	return -1;
}

static const struct nicfit__field slot_layout[] = {
	L_STR(nicfit_slot, name), L_STR(nicfit_slot, riser), L_STR(nicfit_slot, kind),
	L_INT(nicfit_slot, gen), L_INT(nicfit_slot, width), L_INT(nicfit_slot, connector_width),
	L_INT(nicfit_slot, full_height), L_INT(nicfit_slot, full_length),
	L_INT(nicfit_slot, socket), L_INT(nicfit_slot, gpu), L_INT(nicfit_slot, role),
	L_INT(nicfit_slot, pcie_switch), L_STR(nicfit_slot, included),
	L_STR(nicfit_slot, shared_cage), L_STR(nicfit_slot, cage_top),
	L_STR(nicfit_slot, holds), L_INT(nicfit_slot, double_room),
	L_UINT(nicfit_slot, configs),
	L_END
};

static const struct nicfit__field onboard_layout[] = {
	L_STR(nicfit_onboard, name), L_STR(nicfit_onboard, kind), L_STR(nicfit_onboard, nic),
	L_STR(nicfit_onboard, cage), L_STR(nicfit_onboard, description),
	L_INT(nicfit_onboard, ports), L_DBL(nicfit_onboard, port_gbps),
	L_INT(nicfit_onboard, socket), L_UINT(nicfit_onboard, rdma),
	L_END
};

static const struct nicfit__field pcie_switch_layout[] = {
	L_STR(nicfit_pcie_switch, id), L_INT(nicfit_pcie_switch, socket),
	L_INT(nicfit_pcie_switch, gen), L_INT(nicfit_pcie_switch, width),
	L_INT(nicfit_pcie_switch, upstream),
	L_END
};

static const struct nicfit__field riser_config_layout[] = {
	L_STR(nicfit_riser_config, id), L_STR(nicfit_riser_config, name),
	L_INT(nicfit_riser_config, max_gpus_double), L_INT(nicfit_riser_config, max_gpus_single),
	L_END
};

static const struct nicfit__field server_layout[] = {
	L_SUB(nicfit_server, e, nicfit_entry, entry_layout),
	L_STR(nicfit_server, vendor), L_STR(nicfit_server, form), L_STR(nicfit_server, cpu),
	L_INT(nicfit_server, sockets), L_INT(nicfit_server, pcie_gen), L_INT(nicfit_server, generic),
	L_SUBS(nicfit_server, slots, nicfit_slot, slot_layout), L_INT(nicfit_server, nslots),
	L_SUBS(nicfit_server, onboard, nicfit_onboard, onboard_layout),
	L_INT(nicfit_server, nonboard),
	L_STR(nicfit_server, oob_name), L_STR(nicfit_server, oob_cage),
	L_DBL(nicfit_server, oob_gbps),
	L_INT(nicfit_server, max_gpus_double), L_INT(nicfit_server, max_gpus_single),
	L_SUBS(nicfit_server, switches, nicfit_pcie_switch, pcie_switch_layout),
	L_INT(nicfit_server, nswitches), L_STR(nicfit_server, baseboard_gpu),
	L_INT(nicfit_server, rack_trays), L_INT(nicfit_server, rack_switch_trays),
	L_INT(nicfit_server, rack_mgmt_switches), L_DBL(nicfit_server, rack_kw),
	L_STR(nicfit_server, rack_cooling), L_INT(nicfit_server, rack_racks),
	L_STR(nicfit_server, rack_fabric_switch), L_INT(nicfit_server, rack_su_racks),
	L_INT(nicfit_server, rack_switch_tray_u), L_INT(nicfit_server, rack_mgmt_switch_u),
	L_INT(nicfit_server, rack_power_shelves), L_INT(nicfit_server, rack_power_shelf_u),
	L_SUBS(nicfit_server, risers, nicfit_riser_config, riser_config_layout),
	L_INT(nicfit_server, nrisers),
	L_END
};

static void fill_server(struct nicfit_server *s, json_t *o)
{
	static const char *const rdma_bits[] = { "roce", "infiniband", "iwarp", NULL };
	json_t *slots = json_object_get(o, "slots"), *ob = json_object_get(o, "onboard");
	json_t *oob = json_object_get(o, "oob"), *mg = json_object_get(o, "max_gpus");
	json_t *sw = json_object_get(o, "pcie_switches"), *rk = json_object_get(o, "rack");
	json_t *rc = json_object_get(o, "riser_configs");
	size_t i;

	fill_entry(&s->e, o);
	s->rack_trays = gi(rk, "trays", 0);
	s->rack_switch_trays = gi(rk, "switch_trays", 0);
	s->rack_mgmt_switches = gi(rk, "mgmt_switches", 0);
	s->rack_kw = gn(rk, "kw", 0);
	s->rack_cooling = gs(rk, "cooling");
	s->rack_racks = gi(rk, "racks", 1);
	s->rack_fabric_switch = gs(rk, "fabric_switch");
	s->rack_su_racks = gi(rk, "su_racks", 0);
	s->rack_switch_tray_u = gi(rk, "switch_tray_u", 0);
	s->rack_mgmt_switch_u = gi(rk, "mgmt_switch_u", 0);
	s->rack_power_shelves = gi(rk, "power_shelves", 0);
	s->rack_power_shelf_u = gi(rk, "power_shelf_u", 0);
	for (i = 0; i < json_array_size(sw) && s->nswitches < NICFIT_MAX_PCIE_SWITCHES; i++) {
		json_t *x = json_array_get(sw, i);
		struct nicfit_pcie_switch *w = &s->switches[s->nswitches++];

		w->id = gs(x, "id");
		w->socket = gi(x, "socket", 0);
		w->gen = gi(x, "gen", gi(o, "pcie_gen", 3));
		w->width = gi(x, "width", 16);
	}
	/* a cascade: the switch whose downstream port the upstream port hangs off */
	for (i = 0; i < (size_t)s->nswitches; i++)
		s->switches[i].upstream = switch_index(s, gs(json_array_get(sw, i), "upstream")) + 1;
	s->vendor = gs(o, "vendor");
	s->form = gs(o, "form");
	s->cpu = gs(o, "cpu");
	s->sockets = gi(o, "sockets", 1);
	s->pcie_gen = gi(o, "pcie_gen", 3);
	s->generic = gb(o, "generic");
	s->baseboard_gpu = gs(o, "baseboard_gpu");
	for (i = 0; i < json_array_size(rc) && s->nrisers < NICFIT_MAX_RISER_CONFIGS; i++) {
		json_t *x = json_array_get(rc, i), *m = json_object_get(x, "max_gpus");
		struct nicfit_riser_config *r = &s->risers[s->nrisers++];

		r->id = gs(x, "id");
		r->name = gs(x, "name");
		r->max_gpus_double = gi(m, "double", 0);
		r->max_gpus_single = gi(m, "single", 0);
	}
	for (i = 0; i < json_array_size(slots) && s->nslots < NICFIT_MAX_SLOTS; i++) {
		json_t *x = json_array_get(slots, i);
		struct nicfit_slot *sl = &s->slots[s->nslots++];
		const char *gpu = gs(x, "gpu"), *h = gs(x, "height"), *l = gs(x, "length");
		const char *cw = gs(x, "card_width");

		sl->name = gs(x, "name");
		sl->riser = gs(x, "riser");
		sl->kind = gs(x, "kind") ? gs(x, "kind") : "pcie";
		sl->gen = gi(x, "gen", s->pcie_gen);
		sl->width = gi(x, "width", 8);
		sl->connector_width = gi(x, "connector_width", sl->width);
		sl->full_height = h && !strcmp(h, "full");
		sl->full_length = l && !strcmp(l, "full");
		sl->socket = gi(x, "socket", 0);
		sl->gpu = gpu && !strcmp(gpu, "double") ? NICFIT_GPU_DOUBLE :
			  gpu && !strcmp(gpu, "single") ? NICFIT_GPU_SINGLE :
			  gpu && !strcmp(gpu, "baseboard") ? NICFIT_GPU_BASEBOARD : NICFIT_GPU_NONE;
		sl->role = slot_role(gs(x, "role"));
		sl->pcie_switch = switch_index(s, gs(x, "switch"));
		sl->included = gs(x, "included");
		sl->shared_cage = gs(x, "shared_cage");
		sl->cage_top = gs(x, "cage_top");
		sl->holds = gs(x, "holds");
		/* room for a dual-slot card: as said, else where a double-width GPU goes */
		sl->double_room = cw ? !strcmp(cw, "double") : sl->gpu == NICFIT_GPU_DOUBLE;
		sl->configs = riser_mask(s, json_object_get(x, "configs"));
	}
	for (i = 0; i < json_array_size(ob) && s->nonboard < 8; i++) {
		json_t *x = json_array_get(ob, i);
		struct nicfit_onboard *b = &s->onboard[s->nonboard++];

		b->name = gs(x, "name");
		b->kind = gs(x, "kind");
		b->nic = gs(x, "nic");
		b->cage = gs(x, "cage");
		b->description = gs(x, "description");
		b->ports = gi(x, "ports", 0);
		b->port_gbps = gn(x, "port_gbps", 0);
		b->socket = gi(x, "socket", -1);
		b->rdma = gbits(x, "rdma", rdma_bits);
	}
	s->oob_name = gs(oob, "name");
	s->oob_cage = gs(oob, "cage");
	s->oob_gbps = gn(oob, "gbps", 1);
	s->max_gpus_double = gi(mg, "double", 0);
	s->max_gpus_single = gi(mg, "single", 0);
}

static const struct nicfit__field gpu_layout[] = {
	L_SUB(nicfit_gpu, e, nicfit_entry, entry_layout),
	L_STR(nicfit_gpu, vendor), L_STR(nicfit_gpu, memory_type),
	L_DBL(nicfit_gpu, memory_gib), L_DBL(nicfit_gpu, mem_bw_gbs), L_DBL(nicfit_gpu, tdp_w),
	L_INT(nicfit_gpu, pcie_gen), L_INT(nicfit_gpu, pcie_width),
	L_INT(nicfit_gpu, double_width), L_INT(nicfit_gpu, baseboard),
	L_INT(nicfit_gpu, nvlink_domain), L_DBL(nicfit_gpu, nvlink_gbs),
	L_DBL(nicfit_gpu, fp16_tflops), L_INT(nicfit_gpu, no_bf16), L_DBL(nicfit_gpu, fp8_tflops),
	L_UINT(nicfit_gpu, pci_vendor), L_UINT(nicfit_gpu, pci_device),
	L_INT(nicfit_gpu, scaleout_ports), L_DBL(nicfit_gpu, scaleout_gbps),
	L_STR(nicfit_gpu, scaleout_cage), L_INT(nicfit_gpu, scaleout_per_cage),
	L_END
};

static void fill_gpu(struct nicfit_gpu *g, json_t *o)
{
	json_t *pci = json_object_get(o, "pci");
	const char *w = gs(o, "slot_width");

	fill_entry(&g->e, o);
	g->vendor = gs(o, "vendor");
	g->memory_type = gs(o, "memory_type");
	g->memory_gib = gn(o, "memory_gib", 0);
	g->mem_bw_gbs = gn(o, "mem_bw_gbs", 0);
	g->tdp_w = gn(o, "tdp_w", 0);
	g->pcie_gen = gi(o, "pcie_gen", 0);
	g->pcie_width = gi(o, "pcie_width", 16);
	g->double_width = !w || strcmp(w, "single");
	g->baseboard = w && !strcmp(w, "baseboard");
	g->nvlink_domain = gi(o, "nvlink_domain", 0);
	g->nvlink_gbs = gn(o, "nvlink_gbs", 0);
	g->fp16_tflops = gn(o, "fp16_tflops", 0);
	g->no_bf16 = json_is_false(json_object_get(o, "bf16"));
	g->fp8_tflops = gn(o, "fp8_tflops", 0);
	g->pci_vendor = hex(gs(pci, "vendor"));
	g->pci_device = hex(gs(pci, "device"));
	g->scaleout_ports = gi(o, "scaleout_ports", 0);
	g->scaleout_gbps = gn(o, "scaleout_gbps", 0);
	g->scaleout_cage = gs(o, "scaleout_cage");
	g->scaleout_per_cage = gi(o, "scaleout_per_cage", 1);
}

static const struct nicfit__field arch_layout[] = {
	L_DBL(nicfit_arch, params), L_DBL(nicfit_arch, active_params),
	L_INT(nicfit_arch, layers), L_INT(nicfit_arch, hidden), L_INT(nicfit_arch, heads),
	L_INT(nicfit_arch, kv_heads), L_INT(nicfit_arch, head_dim), L_INT(nicfit_arch, vocab),
	L_INT(nicfit_arch, kv_lora_rank), L_INT(nicfit_arch, rope_dim),
	L_INT(nicfit_arch, tied_embeddings),
	L_END
};

static const struct nicfit__field model_layout[] = {
	L_SUB(nicfit_model, e, nicfit_entry, entry_layout),
	L_STR(nicfit_model, family), L_STR(nicfit_model, native_precision),
	L_SUB(nicfit_model, arch, nicfit_arch, arch_layout),
	L_LONG(nicfit_model, context_max),
	L_INT(nicfit_model, experts), L_INT(nicfit_model, experts_active),
	L_INT(nicfit_model, moe_layers),
	L_END
};

static void fill_model(struct nicfit_model *m, json_t *o)
{
	fill_entry(&m->e, o);
	m->family = gs(o, "family");
	m->native_precision = gs(o, "native_precision");
	m->arch.params = gn(o, "params", 0);
	m->arch.active_params = gn(o, "active_params", 0);
	m->arch.layers = gi(o, "layers", 0);
	m->arch.hidden = gi(o, "hidden", 0);
	m->arch.heads = gi(o, "heads", 0);
	m->arch.kv_heads = gi(o, "kv_heads", 0);
	m->arch.head_dim = gi(o, "head_dim", 0);
	m->arch.vocab = gi(o, "vocab", 0);
	m->arch.kv_lora_rank = gi(o, "kv_lora_rank", 0);
	m->arch.rope_dim = gi(o, "rope_dim", 0);
	m->arch.tied_embeddings = gb(o, "tied_embeddings");
	m->context_max = gi(o, "context_max", 0);
	m->experts = gi(o, "experts", 0);
	m->experts_active = gi(o, "experts_active", 0);
	m->moe_layers = gi(o, "moe_layers", 0);
}

const struct nicfit__field *const nicfit__catalog_layout[NICFIT_KIND_COUNT] = {
	nic_layout, cable_layout, switch_layout, server_layout, gpu_layout, model_layout
};

static int cmp_ids(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Rebuild the typed views of kind k from its merged objects. */
static int rebuild_kind(struct kindstore *ks, int k, struct nicfit_error *err)
{
	size_t n = json_object_size(ks->byid), i = 0;
	const char **ids = calloc(n + 1, sizeof(*ids));
	char *views = calloc(n ? n : 1, view_size[k]);
	const char *key;
	json_t *v;

	if (!ids || !views) {
		free(ids);
		free(views);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	json_object_foreach(ks->byid, key, v)
		ids[i++] = key;
	qsort(ids, n, sizeof(*ids), cmp_ids);
	for (i = 0; i < n; i++) {
		json_t *o = json_object_get(ks->byid, ids[i]);
		void *slot = views + i * view_size[k];

		switch (k) {
		case NICFIT_KIND_NIC: fill_nic(slot, o); break;
		case NICFIT_KIND_CABLE: fill_cable(slot, o); break;
		case NICFIT_KIND_SWITCH: fill_switch(slot, o); break;
		case NICFIT_KIND_SERVER: fill_server(slot, o); break;
		case NICFIT_KIND_GPU: fill_gpu(slot, o); break;
		case NICFIT_KIND_MODEL: fill_model(slot, o); break;
		}
		/* the id key string lives in the object */
		ids[i] = ((struct nicfit_entry *)slot)->id;
	}
	free(ks->own_views);
	free(ks->own_ids);
	ks->views = ks->own_views = views;
	ks->ids = ks->own_ids = ids;
	ks->compiled = 0;
	ks->n = n;
	return 0;
}

/*
 * Merge the entries of one array (kind k of document input) into the
 * objects byid: an id byid has is updated field by field, a new id is
 * added. Every merged entry records the document it (last) came from.
 */
static int merge_array(json_t *byid, json_t *arr, const char *input, const char *plural,
		       struct nicfit_error *err)
{
	size_t i;

	for (i = 0; i < json_array_size(arr); i++) {
		json_t *e = json_array_get(arr, i);
		const char *id = json_string_value(json_object_get(e, "id"));
		json_t *have = json_object_get(byid, id);

		if (have) {
			json_object_update(have, e);
		} else {
			json_object_set(byid, id, e);
			have = e;
		}
		json_object_set_new(have, "_origin", json_string(input));
		if (json_object_size(byid) > CATALOG_MAX_ENTRIES)
			return nicfit_error_at(err, NICFIT_E_LIMIT, input, 0, 0,
					       "more than %d %s", CATALOG_MAX_ENTRIES, plural);
	}
	return 0;
}

/*
 * Kind k's objects made from the embedded JSON, as the compiled views were
 * made from it at build time: the files that hold the kind, in name
 * order, merged. The data was checked when the library was built.
 */
static json_t *embedded_json(enum nicfit_kind k)
{
	const struct nicfit_blob *b;
	json_t *byid = json_object();
	char name[128];

	for (b = nicfit__catalog_blobs; byid && b->name; b++) {
		json_t *root;
		int rc;

		if (!(b->kinds & (1u << k)))
			continue;
		root = json_loadb(b->data, b->len, JSON_REJECT_DUPLICATES, NULL);
		snprintf(name, sizeof(name), "data/%s", b->name);
		rc = !root || merge_array(byid, json_object_get(root, nicfit__catalog_kind_plurals[k]),
					  name, nicfit__catalog_kind_plurals[k], NULL);
		json_decref(root);
		if (rc) {
			json_decref(byid);
			byid = NULL;
		}
	}
	return byid;
}

json_t *nicfit__catalog_json(const struct nicfit_catalog *ccat, enum nicfit_kind k)
{
	/* the catalog is allocated writable: filling its cache is not a change */
	struct nicfit_catalog *cat = (struct nicfit_catalog *)ccat;
	json_t *byid;

	pthread_mutex_lock(&cat->lazy);
	if (!cat->k[k].byid)
		cat->k[k].byid = embedded_json(k);
	byid = cat->k[k].byid;
	pthread_mutex_unlock(&cat->lazy);
	return byid;
}

char *nicfit_catalog_entry_json(const struct nicfit_catalog *cat, enum nicfit_kind k,
				const char *id, int pretty)
{
	const struct nicfit_entry *e = nicfit__catalog_find(cat, k, id);
	json_t *o, *copy;
	char *s;

	if (!e)
		return NULL;
	o = json_object_get(nicfit__catalog_json(cat, k), e->id);
	copy = json_deep_copy(o);
	if (!copy)
		return NULL;
	json_object_del(copy, "_origin");
	s = json_dumps(copy, (pretty ? JSON_INDENT(2) : JSON_COMPACT) | JSON_REAL_PRECISION(15));
	json_decref(copy);
	return s;
}

/*
 * Merge a user's document into cat. Only the kinds the document names are
 * copied first, so that a failure leaves the catalog as it was; those
 * kinds' views are rebuilt, the others keep theirs.
 */
static int overlay(struct nicfit_catalog *cat, const char *input, const char *text,
		   size_t len, struct nicfit_error *err)
{
	struct nicfit_error first;
	json_error_t jerr;
	json_t *root, *copy[NICFIT_KIND_COUNT] = { NULL };
	const char *key;
	json_t *v;
	int k, rc = 0;

	if (len > CATALOG_MAX_BYTES)
		return nicfit_error_at(err, NICFIT_E_LIMIT, input, 0, 0,
				       "catalog larger than %u bytes", CATALOG_MAX_BYTES);
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root)
		return nicfit_error_at(err, NICFIT_E_DATA, input, jerr.line, jerr.column,
				       "%s", jerr.text);
	nicfit_error_clear(&first);
	if (nicfit__catalog_validate(cat, input, text, len, root, &first)) {
		json_decref(root);
		if (err && !err->code)
			*err = first;
		return first.code;
	}
	json_object_foreach(root, key, v) {
		json_t *have;

		for (k = 0; k < NICFIT_KIND_COUNT; k++)
			if (!strcmp(key, nicfit__catalog_kind_plurals[k]))
				break;
		if (k == NICFIT_KIND_COUNT || !json_is_array(v))
			continue;
		if (!copy[k]) {
			have = nicfit__catalog_json(cat, (enum nicfit_kind)k);
			copy[k] = !have ? NULL : json_object_size(have) ?
				  json_deep_copy(have) : json_object();
			if (!copy[k]) {
				rc = nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
				goto out_free_copies;
			}
		}
		rc = merge_array(copy[k], v, input, key, err);
		if (rc)
			goto out_free_copies;
	}
	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		if (!copy[k])
			continue;
		json_decref(cat->k[k].byid);
		cat->k[k].byid = copy[k];
		copy[k] = NULL;
		if (k == NICFIT_KIND_CABLE) /* its index points into the views rebuilt */
			nicfit__catalog_cable_ends_drop(cat);
		rc = rebuild_kind(&cat->k[k], k, err);
		if (rc)
			break;
	}
out_free_copies:
	for (k = 0; k < NICFIT_KIND_COUNT; k++)
		json_decref(copy[k]);
	json_decref(root);
	return rc;
}

int nicfit_catalog_overlay(struct nicfit_catalog *cat, const char *input,
			   const char *text, size_t len, struct nicfit_error *err)
{
	return overlay(cat, input, text, len, err);
}

/* The compiled default catalog: no parse, no copy; JSON comes when needed. */
int nicfit_catalog_new(struct nicfit_catalog **out, struct nicfit_error *err)
{
	struct nicfit_catalog *cat = catalog_alloc();
	int k;

	*out = NULL;
	if (!cat)
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		cat->k[k].views = nicfit__catalog_compiled[k].views;
		cat->k[k].n = nicfit__catalog_compiled[k].n;
		cat->k[k].ids = nicfit__catalog_compiled[k].ids;
		cat->k[k].compiled = 1;
	}
	*out = cat;
	return 0;
}

int nicfit_catalog_overlay_file(struct nicfit_catalog *cat, const char *path,
				struct nicfit_error *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc = nicfit_read_file(path, CATALOG_MAX_BYTES, &text, &len, err);

	if (rc)
		return rc;
	rc = nicfit_catalog_overlay(cat, path, text, len, err);
	free(text);
	return rc;
}

/*
 * A file that holds one server (`plan --server FILE.json`, as `audit
 * --format catalog` writes one): overlaid like --catalog, and its server's
 * id into id. The file must hold exactly one server entry; other kinds may
 * come with it (its onboard NIC, its GPUs).
 */
int nicfit_catalog_overlay_server_file(struct nicfit_catalog *cat, const char *path,
				       char *id, size_t n, struct nicfit_error *err)
{
	char *text = NULL;
	size_t len = 0;
	json_t *root, *servers;
	const char *sid = NULL;
	int rc = nicfit_read_file(path, CATALOG_MAX_BYTES, &text, &len, err);

	if (rc)
		return rc;
	rc = nicfit_catalog_overlay(cat, path, text, len, err);
	if (!rc) {
		/* the overlay parsed and checked it: it is a catalog document */
		root = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
		servers = json_object_get(root, "servers");
		if (json_array_size(servers) == 1)
			sid = json_string_value(json_object_get(json_array_get(servers, 0), "id"));
		if (sid && strlen(sid) < n)
			snprintf(id, n, "%s", sid);
		else
			rc = nicfit_error_at(err, NICFIT_E_DATA, path, 0, 0,
					     "a server file holds exactly one entry in \"servers\" "
					     "(this one holds %zu)", json_array_size(servers));
		json_decref(root);
	}
	free(text);
	return rc;
}
