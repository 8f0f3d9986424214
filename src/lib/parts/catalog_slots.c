/*
 * catalog_slots.c - the checks of a server entry's slot map, for catalog
 * check: the PCIe switches its slots and cascaded switches name, the
 * sockets and generations of slots and switches, riser configurations
 * and shared cages. Each problem goes to report with its JSON path.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/jansson_int.h"

#include "parts/catalog_int.h"

struct checker {
	nicfit__catalog_report report;
	void *ctx;
};

static void problem(struct checker *c, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void problem(struct checker *c, const char *path, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->report(c->ctx, path, msg);
}

/*
 * A server's slots name the PCIe switch they hang from by its id in the
 * entry's "pcie_switches"; a name that is not there would silently put the
 * slot on a root port, so it is a problem (a partial override that gives
 * slots but no switches is checked against nothing: the base has them).
 */
static void check_server_switches(struct checker *c, json_t *e, const char *epath, int partial)
{
	json_t *slots = json_object_get(e, "slots"), *sw = json_object_get(e, "pcie_switches");
	char sub[400];
	size_t i, j;

	if (!json_is_array(slots) || (partial && !sw))
		return;
	for (i = 0; i < json_array_size(slots); i++) {
		json_t *name = json_object_get(json_array_get(slots, i), "switch");
		int found = 0;

		if (!json_is_string(name))
			continue;
		for (j = 0; j < json_array_size(sw) && !found; j++) {
			json_t *id = json_object_get(json_array_get(sw, j), "id");

			found = json_is_string(id) && !strcmp(json_string_value(id),
							      json_string_value(name));
		}
		if (!found) {
			snprintf(sub, sizeof(sub), "%s/slots/%zu/switch", epath, i);
			problem(c, sub, "'switch': '%.32s' is not an id in this server's 'pcie_switches'",
				json_string_value(name));
		}
	}
}

/* The index in sw of the switch with id name, -1 when none has it. */
static long pcie_switch_at(json_t *sw, const char *name)
{
	size_t j;

	for (j = 0; name && j < json_array_size(sw); j++) {
		json_t *id = json_object_get(json_array_get(sw, j), "id");

		if (json_is_string(id) && !strcmp(json_string_value(id), name))
			return (long)j;
	}
	return -1;
}

/*
 * A cascaded switch names in "upstream" the switch whose downstream port
 * its upstream port hangs off: a switch of this server, another one, on
 * the same socket (a switch's ports are all on its upstream port's
 * socket), and no loop (following "upstream" from any switch reaches a
 * switch on a CPU root port). Each problem is said once, at the switch
 * whose "upstream" is wrong; a loop at its first switch in the list.
 */
static void check_switch_cascade(struct checker *c, json_t *e, const char *epath)
{
	json_t *sw = json_object_get(e, "pcie_switches");
	size_t n = json_array_size(sw), j;
	char sub[400];

	for (j = 0; j < n; j++) {
		json_t *w = json_array_get(sw, j), *u = json_object_get(w, "upstream");
		json_t *ws = json_object_get(w, "socket"), *us;
		const char *name = json_string_value(u);
		const char *me = json_is_string(json_object_get(w, "id")) ?
				 json_string_value(json_object_get(w, "id")) : "?";
		long at = pcie_switch_at(sw, name), k = (long)j, steps;

		if (!name)
			continue;
		snprintf(sub, sizeof(sub), "%s/pcie_switches/%zu/upstream", epath, j);
		if (at < 0) {
			problem(c, sub, "switch '%.32s': 'upstream': '%.32s' is not an id in this "
				"server's 'pcie_switches'", me, name);
			continue;
		}
		if ((size_t)at == j) {
			problem(c, sub, "switch '%.32s': 'upstream' names the switch itself", me);
			continue;
		}
		us = json_object_get(json_array_get(sw, (size_t)at), "socket");
		if (json_is_integer(ws) && json_is_integer(us) &&
		    json_integer_value(ws) != json_integer_value(us))
			problem(c, sub, "switch '%.32s' on socket %ld hangs off PCIe switch '%.32s' on "
				"socket %ld", me, (long)json_integer_value(ws), name,
				(long)json_integer_value(us));
		/* a loop: following "upstream" from here comes back here */
		for (steps = 0; steps <= (long)n && k >= 0; steps++) {
			k = pcie_switch_at(sw, json_string_value(json_object_get(json_array_get(sw,
					   (size_t)k), "upstream")));
			if (k == (long)j)
				break;
		}
		if (k == (long)j) {
			long first = (long)j;

			/* say it once, at the loop's first switch in the list */
			for (k = pcie_switch_at(sw, name), steps = 0; k != (long)j && steps <= (long)n;
			     steps++) {
				first = k < first ? k : first;
				k = pcie_switch_at(sw, json_string_value(json_object_get(
					json_array_get(sw, (size_t)k), "upstream")));
			}
			if (first == (long)j)
				problem(c, sub, "switch '%.32s': 'upstream': '%.32s' leads back to it: a "
					"cascade ends at a switch on a CPU root port", me, name);
		}
	}
}

/* The slot's riser configurations as bits of "riser_configs" (0: every one; ~0u: a name not there). */
static unsigned slot_configs(json_t *configs, json_t *slot)
{
	json_t *names = json_object_get(slot, "configs");
	unsigned m = 0;
	size_t i, k;

	for (i = 0; i < json_array_size(names); i++) {
		const char *n = json_string_value(json_array_get(names, i));
		int found = 0;

		for (k = 0; n && k < json_array_size(configs) && k < 32; k++) {
			const char *id = json_string_value(json_object_get(json_array_get(configs, k), "id"));

			if (id && !strcmp(id, n)) {
				m |= 1u << k;
				found = 1;
			}
		}
		if (!found)
			return ~0u;
	}
	return m;
}

/*
 * Riser configurations: each slot's "configs" names configurations of
 * the server, no two share an id, no configuration has two slots of one
 * name, and a configuration's GPU maximum does not exceed the slots that
 * take such a GPU in it (a double-width one also fits where a single does).
 */
static void check_riser_configs(struct checker *c, json_t *e, const char *epath)
{
	json_t *slots = json_object_get(e, "slots"), *rc = json_object_get(e, "riser_configs");
	char sub[400];
	size_t i, j, k;

	for (i = 0; i < json_array_size(rc); i++)
		for (j = 0; j < i; j++) {
			const char *a = json_string_value(json_object_get(json_array_get(rc, i), "id"));
			const char *b = json_string_value(json_object_get(json_array_get(rc, j), "id"));

			if (a && b && !strcmp(a, b)) {
				snprintf(sub, sizeof(sub), "%s/riser_configs/%zu/id", epath, i);
				problem(c, sub, "riser configuration '%.32s' is given twice", a);
			}
		}
	for (i = 0; i < json_array_size(slots); i++) {
		json_t *a = json_array_get(slots, i);
		unsigned ma = slot_configs(rc, a);
		const char *na = json_string_value(json_object_get(a, "name"));

		if (ma == ~0u) {
			snprintf(sub, sizeof(sub), "%s/slots/%zu/configs", epath, i);
			problem(c, sub, "'configs' names a riser configuration that is not in this "
				"server's 'riser_configs'");
			continue;
		}
		for (j = 0; na && j < i; j++) {
			json_t *b = json_array_get(slots, j);
			unsigned mb = slot_configs(rc, b);
			const char *nb = json_string_value(json_object_get(b, "name"));

			if (mb == ~0u || !nb || strcmp(na, nb) || (ma && mb && !(ma & mb)))
				continue;
			snprintf(sub, sizeof(sub), "%s/slots/%zu/name", epath, i);
			problem(c, sub, "slot '%.32s' is there twice in one riser configuration "
				"(slot %zu too); give each its 'configs'", na, j);
		}
	}
	for (k = 0; k < json_array_size(rc) && k < 32; k++) {
		json_t *mg = json_object_get(json_array_get(rc, k), "max_gpus");
		json_int_t want_d = json_integer_value(json_object_get(mg, "double"));
		json_int_t want_s = json_integer_value(json_object_get(mg, "single"));
		json_int_t dbl = 0, any = 0;

		for (i = 0; i < json_array_size(slots); i++) {
			json_t *a = json_array_get(slots, i);
			unsigned m = slot_configs(rc, a);
			const char *g = json_string_value(json_object_get(a, "gpu"));

			if (m == ~0u || (m && !(m & (1u << k))) || !g)
				continue;
			dbl += !strcmp(g, "double");
			any += !strcmp(g, "double") || !strcmp(g, "single");
		}
		if (want_d > dbl || want_s > any) {
			snprintf(sub, sizeof(sub), "%s/riser_configs/%zu/max_gpus", epath, k);
			problem(c, sub, "'max_gpus' says %ld %s-width GPUs, but the configuration has "
				"%ld slots that take one", (long)(want_d > dbl ? want_d : want_s),
				want_d > dbl ? "double" : "single", (long)(want_d > dbl ? dbl : any));
		}
	}
}

/*
 * A slot map whose switch or socket facts contradict each other is
 * refused: a slot or PCIe switch on a socket the server does not have, a
 * slot on another socket than the switch it hangs from (every port of a
 * switch is on its upstream port's socket), and a slot on a CPU root port,
 * or a switch's uplink, of a newer PCIe generation than the server's CPUs
 * give (the link trains at the CPU's). A partial override is checked
 * against what it gives.
 */
static void check_slot_map(struct checker *c, json_t *e, const char *epath)
{
	json_t *slots = json_object_get(e, "slots"), *sw = json_object_get(e, "pcie_switches");
	json_t *jsock = json_object_get(e, "sockets"), *jgen = json_object_get(e, "pcie_gen");
	json_int_t sockets = json_is_integer(jsock) ? json_integer_value(jsock) : 0;
	json_int_t gen = json_is_integer(jgen) ? json_integer_value(jgen) : 0;
	char sub[400];
	size_t i, j;

	for (j = 0; j < json_array_size(sw); j++) {
		json_t *w = json_array_get(sw, j);
		json_t *ws = json_object_get(w, "socket"), *wg = json_object_get(w, "gen");

		if (sockets && json_is_integer(ws) && json_integer_value(ws) >= sockets) {
			snprintf(sub, sizeof(sub), "%s/pcie_switches/%zu/socket", epath, j);
			problem(c, sub, "PCIe switch on socket %ld, but the server has %ld socket%s",
				(long)json_integer_value(ws), (long)sockets, sockets == 1 ? "" : "s");
		}
		if (gen && json_is_integer(wg) && json_integer_value(wg) > gen) {
			snprintf(sub, sizeof(sub), "%s/pcie_switches/%zu/gen", epath, j);
			problem(c, sub, "PCIe switch uplink Gen%ld on a Gen%ld server: it trains at "
				"the CPU's generation", (long)json_integer_value(wg), (long)gen);
		}
	}
	for (i = 0; i < json_array_size(slots); i++) {
		json_t *a = json_array_get(slots, i), *w = NULL;
		json_t *as = json_object_get(a, "socket"), *ag = json_object_get(a, "gen");
		const char *name = json_string_value(json_object_get(a, "switch"));

		for (j = 0; name && j < json_array_size(sw) && !w; j++)
			if (json_is_string(json_object_get(json_array_get(sw, j), "id")) &&
			    !strcmp(json_string_value(json_object_get(json_array_get(sw, j), "id")), name))
				w = json_array_get(sw, j);
		if (sockets && json_is_integer(as) && json_integer_value(as) >= sockets) {
			snprintf(sub, sizeof(sub), "%s/slots/%zu/socket", epath, i);
			problem(c, sub, "slot on socket %ld, but the server has %ld socket%s",
				(long)json_integer_value(as), (long)sockets, sockets == 1 ? "" : "s");
		}
		if (w && json_is_integer(as) && json_is_integer(json_object_get(w, "socket")) &&
		    json_integer_value(as) != json_integer_value(json_object_get(w, "socket"))) {
			snprintf(sub, sizeof(sub), "%s/slots/%zu/socket", epath, i);
			problem(c, sub, "slot on socket %ld hangs from PCIe switch '%.32s' on socket %ld",
				(long)json_integer_value(as), name,
				(long)json_integer_value(json_object_get(w, "socket")));
		}
		if (!name && gen && json_is_integer(ag) && json_integer_value(ag) > gen) {
			snprintf(sub, sizeof(sub), "%s/slots/%zu/gen", epath, i);
			problem(c, sub, "Gen%ld slot on a CPU root port of a Gen%ld server: the link "
				"trains at Gen%ld (a slot behind a PCIe switch names it in 'switch')",
				(long)json_integer_value(ag), (long)gen, (long)gen);
		}
	}
	check_riser_configs(c, e, epath);
}

/*
 * Slots that name one "shared_cage" share a twin-port cage: two at most
 * (a twin-port OSFP cage carries two ports, NVIDIA LinkX "Connectors and
 * Cages", https://docs.nvidia.com/networking/display/cableovpub/connectors+and+cages),
 * and the cage has one top, given on every slot that names it, so that
 * nothing assumes a top the vendor did not state. A "cage_top" without a
 * shared cage describes nothing.
 */
static void check_shared_cages(struct checker *c, json_t *e, const char *epath)
{
	json_t *slots = json_object_get(e, "slots");
	char sub[400];
	size_t i, j;

	for (i = 0; i < json_array_size(slots); i++) {
		json_t *a = json_array_get(slots, i);
		const char *cage = json_string_value(json_object_get(a, "shared_cage"));
		const char *top = json_string_value(json_object_get(a, "cage_top"));
		int sharing = 1;

		if (!cage) {
			if (top) {
				snprintf(sub, sizeof(sub), "%s/slots/%zu/cage_top", epath, i);
				problem(c, sub, "'cage_top' needs a 'shared_cage'");
			}
			continue;
		}
		if (!top) {
			snprintf(sub, sizeof(sub), "%s/slots/%zu/shared_cage", epath, i);
			problem(c, sub, "'shared_cage': '%.32s' needs its 'cage_top' (flat or finned)",
				cage);
		}
		for (j = 0; j < json_array_size(slots); j++) {
			json_t *b = json_array_get(slots, j);
			const char *cb = json_string_value(json_object_get(b, "shared_cage"));
			const char *tb = json_string_value(json_object_get(b, "cage_top"));

			if (j == i || !cb || strcmp(cb, cage))
				continue;
			sharing++;
			if (j < i && top && tb && strcmp(top, tb)) {
				snprintf(sub, sizeof(sub), "%s/slots/%zu/cage_top", epath, i);
				problem(c, sub, "'cage_top': '%s' differs from slot %zu's '%s' for cage '%.32s'",
					top, j, tb, cage);
			}
		}
		if (sharing > 2) {
			snprintf(sub, sizeof(sub), "%s/slots/%zu/shared_cage", epath, i);
			problem(c, sub, "'shared_cage': %d slots name '%.32s'; a twin-port cage takes two",
				sharing, cage);
		}
	}
}

void nicfit__catalog_check_slots(json_t *e, const char *epath, int partial,
				 nicfit__catalog_report report, void *ctx)
{
	struct checker c = { report, ctx };

	check_server_switches(&c, e, epath, partial);
	check_switch_cascade(&c, e, epath);
	check_shared_cages(&c, e, epath);
	check_slot_map(&c, e, epath);
}
