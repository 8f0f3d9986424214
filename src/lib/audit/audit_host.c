/*
 * audit_host.c - the audited host as a server description for planning
 * (see nicfit/audit.h): slots with generation, width and socket, what sits
 * in them, onboard NICs, the GPUs and NICs present; and the same as a
 * catalog overlay, so `plan` can use this host like any catalog server.
 *
 * What sysfs cannot show (slot height and length, which slots take a
 * double-width GPU, the BMC's port) is filled with neutral values and named
 * in the entry's "unverified" list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jansson_int.h"

#include "core/fmt_int.h"
#include "nicfit/audit.h"

static int socket_of(const struct nicfit_topo *t, int pci)
{
	int numa = nicfit_topo_numa_of(t, pci);
	int s = numa >= 0 ? nicfit_topo_socket_of_node(t, numa) : -1;

	return s >= 0 ? s : (numa >= 0 ? numa : -1);
}

/* The port above the function's card: the slot it sits in. */
static int port_above(const struct nicfit_topo *t, int pci)
{
	int p = t->pci[pci].parent;

	while (p >= 0 && t->pci[p].port_type != NICFIT_PORT_ROOT &&
	       t->pci[p].port_type != NICFIT_PORT_DOWNSTREAM)
		p = t->pci[p].parent;
	return p;
}

/* The switch whose upstream port is function top: its index in h->server.switches, added when new; -1 when full. */
static int switch_at(struct nicfit_host_server *h, const struct nicfit_topo *t, int top)
{
	struct nicfit_server *s = &h->server;
	int i;

	for (i = 0; i < s->nswitches; i++)
		if (!strcmp(h->switch_names[i], t->pci[top].bdf))
			return i;
	if (s->nswitches >= NICFIT_MAX_PCIE_SWITCHES)
		return -1;
	nicfit__fmt(h->switch_names[i], sizeof(h->switch_names[i]), "%s", t->pci[top].bdf);
	s->switches[i].id = h->switch_names[i];
	s->switches[i].socket = socket_of(t, top) < 0 ? 0 : socket_of(t, top);
	s->switches[i].gen = nicfit_pcie_gen_from_gts(t->pci[top].max_gts);
	s->switches[i].width = t->pci[top].max_width;
	s->switches[i].upstream = 0;
	s->nswitches++;
	return i;
}

/*
 * The PCIe switch a slot's port belongs to: the innermost one above it,
 * named by its upstream port, an index into h->server.switches (-1 for a
 * root port). Every switch on the way to the root port is added, each
 * naming the one above it in "upstream" (a cascade: two devices under one
 * switch are PIX, under two switches of one cascade PXB, as audit says),
 * and a cascade's switches take the socket of its top one, the switch on
 * the root port. When the list is full the chain stops where it is.
 */
static int slot_switch(struct nicfit_host_server *h, const struct nicfit_topo *t, int bridge)
{
	struct nicfit_server *s = &h->server;
	int chain[NICFIT_MAX_PCIE_SWITCHES], n = 0, p = bridge, i, k;

	while (p >= 0 && t->pci[p].port_type != NICFIT_PORT_ROOT && n < NICFIT_MAX_PCIE_SWITCHES) {
		if (t->pci[p].port_type == NICFIT_PORT_UPSTREAM) {
			if ((i = switch_at(h, t, p)) < 0)
				break;
			chain[n++] = i;
		}
		p = t->pci[p].parent;
	}
	for (k = 0; k + 1 < n; k++) {
		s->switches[chain[k]].upstream = chain[k + 1] + 1;
		s->switches[chain[k]].socket = s->switches[chain[n - 1]].socket;
	}
	return n ? chain[0] : -1;
}

static void add_slot(struct nicfit_host_server *h, const struct nicfit_topo *t, const char *name,
		     int bridge, double gts, int occupant)
{
	struct nicfit_slot *s;
	int i = h->server.nslots;

	if (i >= NICFIT_MAX_SLOTS)
		return;
	s = &h->server.slots[i];
	memset(s, 0, sizeof(*s));
	nicfit__fmt(h->slot_names[i], sizeof(h->slot_names[i]), "%s", name);
	s->name = h->slot_names[i];
	s->kind = "pcie";
	/* sysfs does not say how big a slot is: every card is taken to fit it */
	s->full_height = s->full_length = 1;
	s->double_room = 1;
	s->socket = bridge >= 0 ? socket_of(t, bridge) : -1;
	if (s->socket < 0)
		s->socket = 0;
	s->gen = nicfit_pcie_gen_from_gts(bridge >= 0 && t->pci[bridge].max_gts > 0 ?
					  t->pci[bridge].max_gts : gts);
	s->width = bridge >= 0 ? t->pci[bridge].max_width : 0;
	s->gpu = NICFIT_GPU_NONE;
	s->pcie_switch = bridge >= 0 ? slot_switch(h, t, bridge) : -1;
	h->slot_occupant[i] = occupant;
	h->server.nslots++;
}

static int slot_index(const struct nicfit_host_server *h, const struct nicfit_topo *t, int pci)
{
	int i, port = port_above(t, pci);

	for (i = 0; i < h->server.nslots; i++)
		if (h->slot_occupant[i] >= 0 && h->slot_occupant[i] == pci)
			return i;
	/* synthesized slots are named after their port */
	for (i = 0; port >= 0 && i < h->server.nslots; i++)
		if (!strcmp(h->slot_names[i], t->pci[port].bdf))
			return i;
	/* firmware slots: by device address */
	for (i = 0; i < t->nslots && i < h->server.nslots; i++)
		if (t->slots[i].domain == t->pci[pci].domain && t->slots[i].bus == t->pci[pci].bus &&
		    t->slots[i].dev == t->pci[pci].dev)
			return i;
	return -1;
}

static unsigned rdma_kinds(const struct nicfit_audit *a, const struct nicfit_audit_dev *d)
{
	const struct nicfit_topo *t = a->topo;
	unsigned r = d->cat_nic ? d->cat_nic->rdma : 0;
	int i, k;

	for (i = 0; i < t->nrdma; i++) {
		const struct nicfit_pcidev *p = &t->pci[d->pci], *q;

		if (t->rdma[i].pci < 0)
			continue;
		q = &t->pci[t->rdma[i].pci];
		if (p->domain != q->domain || p->bus != q->bus || p->dev != q->dev)
			continue;
		for (k = 0; k < t->rdma[i].nports; k++)
			r |= !strcmp(t->rdma[i].ports[k].link_layer, "InfiniBand") ? NICFIT_RDMA_IB
										   : NICFIT_RDMA_ROCE;
	}
	return r;
}

/* Slots: the firmware's list when there is one, else the ports that hold a card. */
static void host_slots(const struct nicfit_audit *a, struct nicfit_host_server *h)
{
	const struct nicfit_topo *t = a->topo;
	struct nicfit_server *s = &h->server;
	int i, gen = 0;

	if (t->nslots) {
		for (i = 0; i < t->nslots; i++)
			add_slot(h, t, t->slots[i].name, t->slots[i].bridge, t->slots[i].max_gts,
				 t->slots[i].pci);
	} else {
		for (i = 0; i < a->ndevs; i++) {
			const struct nicfit_audit_dev *d = &a->devs[i];
			int port, k, seen = 0;

			if (d->kind != NICFIT_DEV_GPU && d->kind != NICFIT_DEV_ACCEL &&
			    d->kind != NICFIT_DEV_NIC)
				continue;
			if (t->pci[d->pci].physfn >= 0 || d->link.nominal)
				continue;
			port = port_above(t, d->pci);
			if (port < 0)
				continue;
			for (k = 0; k < s->nslots; k++)
				seen |= !strcmp(h->slot_names[k], t->pci[port].bdf);
			if (!seen)
				add_slot(h, t, t->pci[port].bdf, port, 0, d->pci);
		}
	}
	for (i = 0; i < s->nslots; i++)
		if (s->slots[i].gen > gen)
			gen = s->slots[i].gen;
	s->pcie_gen = gen ? gen : 3;
}

/* A GPU present; its slot takes a double-width card (one is in there). */
static void host_gpu(const struct nicfit_audit *a, struct nicfit_host_server *h,
		     const struct nicfit_audit_dev *d, int slot)
{
	const struct nicfit_pcidev *p = &a->topo->pci[d->pci];
	struct nicfit_host_gpu *g = &h->gpus[h->ngpus++];
	int baseboard = 0;

	nicfit__fmt(g->bdf, sizeof(g->bdf), "%s", p->bdf);
	nicfit__fmt(g->name, sizeof(g->name), "%s", d->name);
	if (a->cat) {
		size_t k, n = nicfit_catalog_count(a->cat, NICFIT_KIND_GPU);

		for (k = 0; k < n; k++) {
			const struct nicfit_gpu *cg = nicfit_catalog_gpu(a->cat, k);

			if (cg->pci_vendor == p->vendor && cg->pci_device == p->device) {
				g->catalog_id = cg->e.id;
				baseboard = cg->baseboard;
			}
		}
	}
	g->slot = slot;
	g->socket = d->socket;
	if (slot >= 0)
		h->server.slots[slot].gpu = baseboard ? NICFIT_GPU_BASEBOARD : NICFIT_GPU_DOUBLE;
}

/* A network card present; one in no slot is an onboard NIC of the server. */
static void host_nic(const struct nicfit_audit *a, struct nicfit_host_server *h,
		     const struct nicfit_audit_dev *d, int slot)
{
	struct nicfit_server *s = &h->server;
	struct nicfit_host_nic *n = &h->nics[h->nnics++];
	struct nicfit_onboard *o;

	nicfit__fmt(n->bdf, sizeof(n->bdf), "%s", a->topo->pci[d->pci].bdf);
	nicfit__fmt(n->part, sizeof(n->part), "%s", d->part);
	nicfit__fmt(n->name, sizeof(n->name), "%s", d->name);
	n->cat_nic = d->cat_nic;
	n->ports = d->card_ports;
	n->port_gbps = d->port_gbps;
	n->rdma = rdma_kinds(a, d);
	n->slot = slot;
	n->socket = d->socket;
	if (slot >= 0 || s->nonboard >= 8)
		return;
	o = &s->onboard[s->nonboard++];
	nicfit__fmt(h->onboard_names[s->nonboard - 1], sizeof(h->onboard_names[0]),
		 "%.20s (%.40s)", d->label, d->name);
	o->name = h->onboard_names[s->nonboard - 1];
	o->kind = "lom";
	o->nic = d->cat_nic ? d->cat_nic->e.id : NULL;
	o->ports = d->card_ports > 0 ? d->card_ports : 1;
	o->port_gbps = d->port_gbps > 0 ? d->port_gbps : 1;
	o->cage = d->cat_nic && d->cat_nic->cage ? d->cat_nic->cage :
		  strstr(d->name, "QSFP28") ? "QSFP28" :
		  strstr(d->name, "QSFP+") ? "QSFP+" :
		  strstr(d->name, "SFP28") ? "SFP28" :
		  strstr(d->name, "SFP+") ? "SFP+" : "RJ45";
	o->description = n->name;
	o->socket = d->socket;
	o->rdma = n->rdma;
}

void nicfit_audit_host_server(const struct nicfit_audit *a, struct nicfit_host_server *h)
{
	const struct nicfit_topo *t = a->topo;
	struct nicfit_server *s = &h->server;
	int i;

	memset(h, 0, sizeof(*h));
	nicfit__fmt(h->id, sizeof(h->id), "this-host");
	nicfit__fmt(h->name, sizeof(h->name), "%s%s%s%s%s", t->hostname[0] ? t->hostname : "this host",
		 t->product[0] ? " (" : "", t->sys_vendor, t->product[0] ? " " : "", t->product);
	if (t->product[0])
		nicfit__fmt(h->name + strlen(h->name), sizeof(h->name) - strlen(h->name), ")");
	s->e.id = h->id;
	s->e.name = h->name;
	s->e.source = "nicfit audit (sysfs)";
	s->vendor = t->sys_vendor[0] ? t->sys_vendor : "unknown";
	s->form = "unknown";
	s->sockets = a->nsockets > 0 ? a->nsockets : (t->nnuma > 0 ? t->nnuma : 1);
	for (i = 0; i < NICFIT_MAX_SLOTS; i++)
		h->slot_occupant[i] = -1;
	host_slots(a, h);
	for (i = 0; i < a->ndevs; i++) {
		const struct nicfit_audit_dev *d = &a->devs[i];

		if (t->pci[d->pci].physfn >= 0)
			continue;
		if ((d->kind == NICFIT_DEV_GPU || d->kind == NICFIT_DEV_ACCEL) &&
		    h->ngpus < NICFIT_HOST_MAX)
			host_gpu(a, h, d, slot_index(h, t, d->pci));
		else if (d->kind == NICFIT_DEV_NIC && d->card_lead && h->nnics < NICFIT_HOST_MAX)
			host_nic(a, h, d, slot_index(h, t, d->pci));
	}
	/*
	 * A slot or switch on socket k means k + 1 sockets, whatever the CPU
	 * listing said (dumps from several sources can disagree): the server
	 * entry must not contradict itself (catalog check refuses it).
	 */
	for (i = 0; i < s->nslots; i++)
		if (s->slots[i].socket >= s->sockets && s->slots[i].socket < 8)
			s->sockets = s->slots[i].socket + 1;
	for (i = 0; i < s->nswitches; i++)
		if (s->switches[i].socket >= s->sockets && s->switches[i].socket < 8)
			s->sockets = s->switches[i].socket + 1;
}

static json_t *rdma_array(unsigned r)
{
	json_t *a = json_array();

	if (r & NICFIT_RDMA_ROCE)
		json_array_append_new(a, json_string("roce"));
	if (r & NICFIT_RDMA_IB)
		json_array_append_new(a, json_string("infiniband"));
	if (r & NICFIT_RDMA_IWARP)
		json_array_append_new(a, json_string("iwarp"));
	return a;
}

/* The slots a plan can use: each with link figures, and the network card in it now. */
static json_t *slots_json(const struct nicfit_host_server *h)
{
	json_t *slots = json_array();
	int i, k;

	for (i = 0; i < h->server.nslots; i++) {
		const struct nicfit_slot *s = &h->server.slots[i];
		json_t *o;

		if (s->gen < 1 || s->width < 1)
			continue; /* a slot without link figures cannot be planned with */
		o = json_object();
		json_object_set_new(o, "name", json_string(s->name));
		json_object_set_new(o, "gen", json_integer(s->gen));
		json_object_set_new(o, "width", json_integer(s->width));
		json_object_set_new(o, "height", json_string("full"));
		json_object_set_new(o, "length", json_string("full"));
		json_object_set_new(o, "card_width", json_string("double"));
		json_object_set_new(o, "socket", json_integer(s->socket));
		json_object_set_new(o, "gpu", json_string(s->gpu == NICFIT_GPU_DOUBLE ? "double" :
							  s->gpu == NICFIT_GPU_BASEBOARD ? "baseboard" :
							  "none"));
		if (s->gpu == NICFIT_GPU_BASEBOARD)
			json_object_set_new(o, "kind", json_string("baseboard"));
		if (s->pcie_switch >= 0)
			json_object_set_new(o, "switch",
					    json_string(h->server.switches[s->pcie_switch].id));
		/* the network card in it now, so a plan that puts another there says so */
		for (k = 0; k < h->nnics; k++)
			if (h->nics[k].slot == i) {
				char what[200];

				nicfit__fmt(what, sizeof(what), "%.150s (%s)", h->nics[k].name,
					    h->nics[k].bdf);
				json_object_set_new(o, "holds", json_string(what));
				break;
			}
		json_array_append_new(slots, o);
	}
	return slots;
}

/* The PCIe switches, each with its socket, uplink (Gen1 x16 when unknown) and the switch above it. */
static json_t *switches_json(const struct nicfit_host_server *h)
{
	json_t *sw = json_array();
	int i;

	for (i = 0; i < h->server.nswitches; i++) {
		const struct nicfit_pcie_switch *w = &h->server.switches[i];

		json_t *o = json_pack("{s:s,s:i,s:i,s:i}", "id", w->id, "socket", w->socket, "gen",
				      w->gen > 0 ? w->gen : 1, "width", w->width > 0 ? w->width : 16);

		/* a switch below another: the one its upstream port hangs off */
		if (o && w->upstream > 0 && w->upstream <= h->server.nswitches)
			json_object_set_new(o, "upstream",
					    json_string(h->server.switches[w->upstream - 1].id));
		json_array_append_new(sw, o);
	}
	return sw;
}

static json_t *onboard_json(const struct nicfit_host_server *h)
{
	json_t *onboard = json_array();
	int i;

	for (i = 0; i < h->server.nonboard; i++) {
		const struct nicfit_onboard *ob = &h->server.onboard[i];
		json_t *o = json_object();

		json_object_set_new(o, "name", json_string(ob->name));
		json_object_set_new(o, "kind", json_string(ob->kind));
		if (ob->nic)
			json_object_set_new(o, "nic", json_string(ob->nic));
		json_object_set_new(o, "ports", json_integer(ob->ports));
		json_object_set_new(o, "port_gbps", json_real(ob->port_gbps));
		json_object_set_new(o, "cage", json_string(ob->cage));
		json_object_set_new(o, "description", json_string(ob->description));
		if (ob->socket >= 0)
			json_object_set_new(o, "socket", json_integer(ob->socket));
		json_object_set_new(o, "rdma", rdma_array(ob->rdma));
		json_array_append_new(onboard, o);
	}
	return onboard;
}

/*
 * A catalog id for the host: "host-" and its name in the id alphabet
 * (lowercase letters, digits, '-', '.', '_', '+'; anything else '-'), at
 * most 63 characters; "this-host" when it has no name.
 */
static void host_entry_id(const struct nicfit_audit *a, char *out, size_t n)
{
	const char *h = a->topo->hostname;
	size_t k, i;

	if (!h[0] || n < 64) {
		nicfit__fmt(out, n, "this-host");
		return;
	}
	k = (size_t)nicfit__fmt(out, n, "host-");
	for (i = 0; h[i] && k < 63; i++) {
		unsigned char ch = (unsigned char)h[i];

		out[k++] = (char)((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
				   ch == '-' || ch == '.' || ch == '_' || ch == '+' ? ch :
				   ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : '-');
	}
	out[k] = '\0';
}

char *nicfit_audit_host_catalog_json(const struct nicfit_audit *a, const char *id)
{
	char own_id[64];
	int i;
	struct nicfit_host_server *h = malloc(sizeof(*h));
	json_t *doc, *srv, *unv, *notes, *arr;
	char source[600];
	char *out;

	if (!h)
		return NULL;
	nicfit_audit_host_server(a, h);
	nicfit__fmt(source, sizeof(source), "nicfit audit of %s (sysfs read from %s)",
		 a->topo->hostname[0] ? a->topo->hostname : "this host", a->topo->root);
	srv = json_object();
	if (!id || !*id) {
		host_entry_id(a, own_id, sizeof(own_id));
		id = own_id;
	}
	json_object_set_new(srv, "id", json_string(id));
	json_object_set_new(srv, "name", json_string(h->name));
	json_object_set_new(srv, "vendor", json_string(h->server.vendor));
	json_object_set_new(srv, "form", json_string(h->server.form));
	json_object_set_new(srv, "sockets", json_integer(h->server.sockets));
	json_object_set_new(srv, "pcie_gen", json_integer(h->server.pcie_gen));
	json_object_set_new(srv, "slots", slots_json(h));
	if (h->server.nswitches)
		json_object_set_new(srv, "pcie_switches", switches_json(h));
	/* the catalog GPU on its baseboard: a plan of the file defaults to it, as for a DGX */
	for (i = 0; i < h->ngpus; i++)
		if (h->gpus[i].catalog_id && h->gpus[i].slot >= 0 &&
		    h->server.slots[h->gpus[i].slot].gpu == NICFIT_GPU_BASEBOARD) {
			json_object_set_new(srv, "baseboard_gpu", json_string(h->gpus[i].catalog_id));
			break;
		}
	json_object_set_new(srv, "onboard", onboard_json(h));
	json_object_set_new(srv, "oob", json_pack("{s:s,s:f,s:s}", "name", "BMC (not visible in sysfs)",
						  "gbps", 1.0, "cage", "RJ45"));
	json_object_set_new(srv, "source", json_string(source));
	unv = json_array();
	json_array_append_new(unv, json_string("form"));
	json_array_append_new(unv, json_string("slots"));
	json_array_append_new(unv, json_string("oob"));
	json_array_append_new(unv, json_string("onboard"));
	json_object_set_new(srv, "unverified", unv);
	notes = json_array();
	json_array_append_new(notes, json_string("Slot generation, width, socket and occupants come from "
						 "sysfs; heights, lengths and which empty slots take a "
						 "GPU do not, so empty slots are listed as taking none."));
	json_object_set_new(srv, "notes", notes);
	arr = json_array();
	json_array_append_new(arr, srv);
	doc = json_pack("{s:s,s:o}", "schema", "nicfit.catalog.v1", "servers", arr);
	out = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) : NULL;
	json_decref(doc);
	free(h);
	return out;
}
