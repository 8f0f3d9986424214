/*
 * cluster_server.c - `nicfit cluster --server ID [--racks N]`: a catalog
 * server as the node. What the server is built with fixes what the
 * request leaves out (its GPUs, its built-in compute NICs, its
 * north-south cards, its height); a rack-scale system (GB200 and GB300
 * NVL72, whose catalog server is one compute tray, docs/catalog.md
 * "rack") is counted in whole racks of its trays around one NVLink
 * domain, with the rack as the compute rack. The same server in `nicfit
 * plan --racks N` reads the same catalog facts (plan_rack.c), so the two
 * commands agree on what a rack is.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster_int.h"
#include "core/finding_int.h"
#include "core/node_kind_int.h"

struct srv_parts {
	int gpus;                /* baseboard GPU positions */
	int compute;             /* slots with a built-in compute NIC */
	const char *compute_id;  /* its catalog id (the first one's) */
	int ns;                  /* slots with a built-in storage/front-end card */
	const char *ns_id;
};

static void count_parts(const struct nicfit_server *sv, struct srv_parts *sp)
{
	int i;

	memset(sp, 0, sizeof(*sp));
	for (i = 0; i < sv->nslots; i++) {
		const struct nicfit_slot *s = &sv->slots[i];

		if (s->role == NICFIT_SLOT_GPU && s->gpu == NICFIT_GPU_BASEBOARD)
			sp->gpus++;
		if (!s->included)
			continue;
		if (s->role == NICFIT_SLOT_COMPUTE) {
			if (!sp->compute_id)
				sp->compute_id = s->included;
			sp->compute++;
		} else if (s->role == NICFIT_SLOT_STORAGE || s->role == NICFIT_SLOT_FRONTEND) {
			if (!sp->ns_id)
				sp->ns_id = s->included;
			sp->ns++;
		}
	}
}

/* A refusal pointed at the option key names (in a JSON request, its key and position). */
static int refuse(struct nicfit_spec *spec, struct nicfit_error *err, const char *key,
		  const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int refuse(struct nicfit_spec *spec, struct nicfit_error *err, const char *key,
		  const char *fmt, ...)
{
	struct nicfit_reader rd;
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	nicfit_reader_init(&rd, spec, err);
	return nicfit_reader_fail(&rd, nicfit_error_at(err, NICFIT_E_USAGE,
						       nicfit_reader_opt(&rd, key), 0, 0, "%s", msg));
}

/*
 * The built-in compute NICs: the card and its count, and the chassis cage
 * each port leaves at where two share one twin-port cage (a DGX H100's
 * network modules). A different --nic or NIC count is refused, as plan
 * refuses it: they are part of the server.
 */
static int set_compute(struct nicfit_spec *spec, const struct nicfit_server *sv,
		       const struct srv_parts *sp, struct nicfit_cluster_input *in,
		       struct nicfit_error *err)
{
	int i, j, k = 0, shared = 0;

	if (!sp->compute)
		return 0;
	if (in->nic_id && strcmp(in->nic_id, sp->compute_id))
		return refuse(spec, err, "nic", "%s's compute NICs are built in (%s): they cannot "
			      "be swapped for PCIe cards", sv->e.id, sp->compute_id);
	if (nicfit_spec_get(spec, "nics_per_node") && in->nics_per_node != sp->compute)
		return refuse(spec, err, "nics_per_node", "%s has %d built-in compute NICs",
			      sv->e.id, sp->compute);
	in->nic_id = sp->compute_id;
	in->nics_per_node = sp->compute;
	in->backend_from_gpu = 0;
	if (in->nic_ports != 1)
		return 0;
	for (i = 0; i < sv->nslots && k < NICFIT_CLUSTER_MAX_LINKS; i++) {
		const struct nicfit_slot *s = &sv->slots[i];

		if (s->role != NICFIT_SLOT_COMPUTE || !s->included)
			continue;
		in->nic_cage[k] = (signed char)k;
		if (s->shared_cage) {
			in->nic_cage_finned = s->cage_top ? !strcmp(s->cage_top, "finned") : -1;
			for (j = 0; j < i; j++)
				if (sv->slots[j].role == NICFIT_SLOT_COMPUTE && sv->slots[j].included &&
				    sv->slots[j].shared_cage &&
				    !strcmp(sv->slots[j].shared_cage, s->shared_cage)) {
					int m, n = 0;

					for (m = 0; m < j; m++)
						n += sv->slots[m].role == NICFIT_SLOT_COMPUTE &&
						     sv->slots[m].included;
					in->nic_cage[k] = in->nic_cage[n];
					shared = 1;
					break;
				}
		}
		k++;
	}
	in->nic_ports_per_cage = shared ? 2 : 1;
	return 0;
}

/* The server's GPU and GPUs a node: a different --gpu or count is refused. */
static int set_gpus(struct nicfit_spec *spec, const struct nicfit_server *sv,
		    const struct srv_parts *sp, struct nicfit_cluster_input *in,
		    struct nicfit_error *err)
{
	if (!sv->baseboard_gpu)
		return 0;
	if (in->gpu_id && strcmp(in->gpu_id, sv->baseboard_gpu))
		return refuse(spec, err, "gpu", "%s carries %s on its baseboard", sv->e.id,
			      sv->baseboard_gpu);
	if (nicfit_spec_get(spec, "gpus_per_node") && in->gpus_per_node != sp->gpus)
		return refuse(spec, err, "gpus_per_node", "%s has %d GPUs", sv->e.id, sp->gpus);
	in->gpu_id = sv->baseboard_gpu;
	if (sp->gpus > 0)
		in->gpus_per_node = sp->gpus;
	/* an accelerator with its own scale-out ports (Gaudi 3) is cabled from them, as --gpu is */
	in->backend_from_gpu = !in->nic_id && !nicfit_spec_get(spec, "nics_per_node") &&
			       !nicfit_spec_get(spec, "nic_ports") && !nicfit_spec_get(spec, "nic_gbps");
	return 0;
}

/* Whether an --assume sets the layout parameter name. */
static int assumed(struct nicfit_spec *spec, const char *name)
{
	size_t i, n = nicfit_spec_count(spec, "assume"), len = strlen(name);

	for (i = 0; i < n; i++) {
		const char *v = nicfit_spec_get_nth(spec, "assume", i);

		if (v && !strncmp(v, name, len) && v[len] == '=')
			return 1;
	}
	return 0;
}

/* Compute trays in one physical rack: a unit's over the racks it spans (NVL36x2: 18 / 2). */
static int trays_a_rack(const struct nicfit_server *sv)
{
	int r = sv->rack_racks > 1 ? sv->rack_racks : 1;

	return sv->rack_trays / r > 0 ? sv->rack_trays / r : 1;
}

/*
 * A rack-scale server: whole racks of its trays, the rack as the compute
 * rack, and the back end rail-optimized (tray NIC i of every tray on rail
 * i), as the DGX SuperPOD GB200 and the NVL72 Enterprise RA build it.
 */
static int set_rack(struct nicfit_spec *spec, const struct nicfit_server *sv,
		    struct nicfit_cluster_input *in, struct nicfit_error *err)
{
	struct nicfit_cluster_net_input *be = &in->net[NICFIT_NET_BACKEND];

	if (!sv->rack_trays) {
		if (in->racks)
			return refuse(spec, err, "racks", "%s is not a rack-scale system (its catalog "
				      "entry has no 'rack'): give --nodes", sv->e.id);
		return 0;
	}
	if (nicfit_spec_get(spec, "nodes_per_rack") && in->nodes_per_rack != trays_a_rack(sv))
		return refuse(spec, err, "nodes_per_rack", "a %s rack holds %d compute trays",
			      sv->e.id, trays_a_rack(sv));
	nicfit_cluster_input_rack(in, sv);
	if (in->racks)
		in->nodes = (long)in->racks * sv->rack_trays;
	if (in->nics_per_node > 1 && !nicfit_spec_get(spec, "rail_optimized") &&
	    !nicfit_spec_get(spec, "no_rail_optimized") && !nicfit_spec_get(spec, "rail_only"))
		be->rail_optimized = 1;
	return 0;
}

void nicfit_cluster_input_rack(struct nicfit_cluster_input *in, const struct nicfit_server *sv)
{
	if (!in || !sv || !sv->rack_trays)
		return;
	in->nodes_per_rack = trays_a_rack(sv);
	in->rack_leaves = 1;
	in->su_nodes = sv->rack_su_racks > 0 ? (long)sv->rack_su_racks * trays_a_rack(sv) : 0;
}

/*
 * The back end's fabric when the request names no switch, as nicfit plan
 * chooses it (plan_backend.c, R7): InfiniBand where the server's built-in
 * compute NICs ship in that mode (a DGX's or an NVL72 tray's ConnectX),
 * else Ethernet (RoCE v2), unless the card given speaks InfiniBand only.
 */
static const char *default_fabric(const struct nicfit_nic *nic, int builtin)
{
	if (builtin && nicfit_node_kind_builtin_ib(nic))
		return "infiniband";
	if (nic && (nic->rdma & NICFIT_RDMA_IB) && !(nic->rdma & NICFIT_RDMA_ROCE))
		return "infiniband";
	return "ethernet";
}

/*
 * A server's back-end switch when the request names none (no --switch,
 * --radix or --switch-gbps): the one `nicfit plan` takes for the same
 * servers (core/node_kind_int.h), for every --server whose back-end card
 * is known (built in, or --nic: plan picks its switch for a card, so a
 * rate alone keeps the generic one): a rack-scale system's
 * reference-design switch where its catalog rack names it (the DGX
 * SuperPOD GB200's QM9700), else the catalog's smallest switch of the
 * fabric that takes every back-end link (the most ports, for leaves and
 * spines, when none does): a DGX B300's Quantum-X800, a DGX H100's
 * QM9700. Left generic when no catalog switch meets the card.
 */
static void server_switch(struct nicfit_spec *spec, const struct nicfit_catalog *cat,
			  const struct nicfit_server *sv, int builtin,
			  struct nicfit_cluster_input *in)
{
	struct nicfit_cluster_net_input *be = &in->net[NICFIT_NET_BACKEND];
	const struct nicfit_nic *nic = in->nic_id ? nicfit_catalog_find_nic(cat, in->nic_id, NULL, NULL) : NULL;
	const struct nicfit_switch *sw;
	const char *fabric = default_fabric(nic, builtin);
	double gbps = be->link_gbps > 0 ? be->link_gbps : nic ? nic->port_gbps : 0;
	long links = in->nodes * in->nics_per_node * (in->nic_ports > 0 ? in->nic_ports : 1);
	int split;

	if (be->switch_id || nicfit_spec_get(spec, "radix") || nicfit_spec_get(spec, "switch_gbps") ||
	    !nic || in->nics_per_node < 1 || !(gbps > 0))
		return;
	sw = nicfit_node_kind_switch(cat, sv, fabric, nic, gbps, links, &split);
	if (!sw)
		return;
	be->switch_id = sw->e.id;
	if (sv->rack_fabric_switch && !strcmp(sv->rack_fabric_switch, sw->e.id))
		in->switch_from = "the rack's reference design builds its compute fabric of it";
	else if (sv->rack_trays)
		in->switch_from = "the catalog's switch that nicfit plan takes for these racks";
	else if (!strcmp(fabric, "infiniband"))
		in->switch_from = "the switch nicfit plan takes for these servers: the catalog's "
				  "smallest InfiniBand switch that takes every back-end link, else its "
				  "largest";
	else
		in->switch_from = "the switch nicfit plan takes for these servers: the catalog's "
				  "smallest Ethernet switch that takes every back-end link, else its "
				  "largest";
}

int nicfit_cluster_input_server(struct nicfit_spec *spec, const struct nicfit_catalog *cat,
				struct nicfit_cluster_input *in, struct nicfit_error *err)
{
	struct nicfit_cluster_net_input *fe = &in->net[NICFIT_NET_FRONTEND];
	const struct nicfit_server *sv;
	const struct nicfit_nic *ns;
	struct srv_parts sp;
	int rc, u;

	if (!in->server_id)
		return 0;
	sv = cat ? nicfit_catalog_find_server(cat, in->server_id, "--server", err) : NULL;
	if (!sv) {
		if (err && !err->code)
			nicfit_error_at(err, NICFIT_E_NOTFOUND, "--server", 0, 0,
					"unknown server '%.64s'", in->server_id);
		if (err && spec->from_data)
			err->code = NICFIT_E_DATA;
		return err ? err->code : NICFIT_E_NOTFOUND;
	}
	count_parts(sv, &sp);
	if ((rc = set_gpus(spec, sv, &sp, in, err)) || (rc = set_compute(spec, sv, &sp, in, err)))
		return rc;
	if (!sp.compute && !nicfit_spec_get(spec, "nics_per_node") && in->gpus_per_node > 0)
		in->nics_per_node = in->gpus_per_node;
	if ((rc = set_rack(spec, sv, in, err)))
		return rc;
	server_switch(spec, cat, sv, sp.compute > 0, in);
	/* its north-south cards: one port of each to its own switch */
	ns = nicfit__cluster_server_ns_nic(cat, sv);
	if (ns && fe->links_per_node > 0 && !nicfit_spec_get(spec, "frontend_links"))
		fe->links_per_node = sp.ns > 4 ? 4 : sp.ns;
	if (ns && fe->links_per_node > 0 && !nicfit_spec_get(spec, "frontend_gbps") &&
	    !nicfit_spec_get(spec, "frontend_switch"))
		fe->link_gbps = ns->port_gbps;
	if (sv->form && sscanf(sv->form, "%dU", &u) == 1 && u > 0 && !assumed(spec, "node_u"))
		in->layout.node_u = u;
	return 0;
}

/* The server's built-in north-south card (storage or front end), or NULL. */
const struct nicfit_nic *nicfit__cluster_server_ns_nic(const struct nicfit_catalog *cat,
							const struct nicfit_server *sv)
{
	struct srv_parts sp;

	if (!cat || !sv)
		return NULL;
	count_parts(sv, &sp);
	return sp.ns_id ? nicfit_catalog_find_nic(cat, sp.ns_id, NULL, NULL) : NULL;
}

/* ---- what a rack is made of ------------------------------------------------ */

/*
 * The NVLink domains of the cluster's trays, as nicfit plan counts them
 * (nicfit_rack_domains): whole racks first, the trays past them one
 * partial domain in one more rack, joined by that rack's switch trays.
 */
static void domains(const struct nicfit_cluster *c, struct nicfit_rack_domains *d)
{
	nicfit_rack_domains(c->server, c->gpu, c->in.gpus_per_node, c->in.nodes, d);
}

/* Trays of one full rack's NVLink domain, 0 when it is no more than one tray. */
static long dom_trays(const struct nicfit_cluster *c)
{
	struct nicfit_rack_domains d;

	domains(c, &d);
	return d.rack_trays;
}

/* GPUs of one full rack's NVLink domain, 0 when it is no more than one tray. */
static int domain_gpus(const struct nicfit_cluster *c)
{
	struct nicfit_rack_domains d;

	domains(c, &d);
	return d.rack_trays * c->in.gpus_per_node;
}

/*
 * What the domains hold, for the NVLink line and its decision: "up to 72
 * GPUs stays in the rack" for whole racks, the partial rack's own domain
 * when the trays fill no rack (9 trays: 36 GPUs), both when they spill
 * past whole racks (27 trays: 72 in a whole one, 36 in the partial one).
 */
static void domain_text(const struct nicfit_cluster *c, char *out, size_t n)
{
	struct nicfit_rack_domains d;
	const char *u = c->server->rack_racks > 1 ? "unit" : "rack";

	domains(c, &d);
	if (!d.whole)
		snprintf(out, n, "the %ld trays are one NVLink domain of %d GPUs (a %s's switch trays "
			 "join every tray in it); tensor and expert parallel traffic of up to %d "
			 "GPUs stays in it", c->in.nodes, d.largest_gpus, u, d.largest_gpus);
	else if (d.partial && d.largest_gpus)
		snprintf(out, n, "one domain a %s, assuming whole %ss first: %d GPUs in %s%ld whole "
			 "%s%s and %d in the partial one; tensor and expert parallel traffic of up to "
			 "%d GPUs stays in its %s (groups of %d trays fit every domain)", u, u,
			 d.largest_gpus, d.whole > 1 ? "each of " : "", d.whole, u,
			 d.whole > 1 ? "s" : "", d.partial_gpus, d.largest_gpus, u, d.group_trays);
	else
		snprintf(out, n, "tensor and expert parallel traffic of up to %d GPUs stays in the %s",
			 d.rack_trays * c->in.gpus_per_node, u);
}

/* Units of a rack-scale server (a rack, or NVL36x2's pair of racks) the nodes fill. */
static long units(const struct nicfit_cluster *c)
{
	long t = c->server->rack_trays;

	return t > 0 ? (c->in.nodes + t - 1) / t : 0;
}

/* The decisions a rack-scale server adds: its NVLink domain, its ports and its power. */
void nicfit__cluster_explain_rack(struct nicfit_cluster *c)
{
	const struct nicfit_server *sv = c->server;
	const struct nicfit_cluster_net *be = &c->net[NICFIT_NET_BACKEND];
	int dom = domain_gpus(c);

	if (!sv)
		return;
	if (!sv->rack_trays) {
		nicfit__decide(&c->decisions, "cluster.server", 1,
			       "nodes: %s, %d GPUs%s%s%s", sv->e.id, c->in.gpus_per_node,
			       c->nic ? " and the compute NICs it is built with (" : "",
			       c->nic ? c->nic->e.id : "", c->nic ? ")" : "");
		return;
	}
	if (sv->rack_racks > 1)
		nicfit__decide(&c->decisions, "cluster.rack", 1,
			       "racks: %ld %s units of %d racks (%ld racks), %d compute trays and %d "
			       "NVLink switch trays a unit, %d trays a rack; %d GPUs a unit%s%s",
			       units(c), sv->e.id, sv->rack_racks, c->racks, sv->rack_trays,
			       sv->rack_switch_trays, trays_a_rack(sv),
			       sv->rack_trays * c->in.gpus_per_node,
			       dom ? " in one NVLink domain across its racks" : "",
			       c->in.nodes % sv->rack_trays ? " (the last unit is not full)" : "");
	else
		nicfit__decide(&c->decisions, "cluster.rack", 1,
			       "racks: %ld x %d %s compute trays, %d GPUs a rack%s, %d NVLink switch "
			       "trays and %d management switches a rack%s", c->racks, sv->rack_trays,
			       sv->e.id, sv->rack_trays * c->in.gpus_per_node,
			       dom ? " in one NVLink domain" : "", sv->rack_switch_trays,
			       sv->rack_mgmt_switches,
			       c->in.nodes % sv->rack_trays ? " (the last rack is not full)" : "");
	if (dom && c->in.nodes > 1 && c->in.nodes % dom_trays(c) == 0) {
		nicfit__decide(&c->decisions, "cluster.nvlink", 1,
			       "NVLink domain: %d GPUs at %g GB/s a GPU: tensor and expert parallel "
			       "traffic stays inside the rack; the back end carries what leaves it "
			       "(data and pipeline parallel)", dom, c->gpu->nvlink_gbs);
	} else if (dom && c->in.nodes > 1) {
		char what[320];

		domain_text(c, what, sizeof(what));
		nicfit__decide(&c->decisions, "cluster.nvlink", 1,
			       "NVLink domain: %g GB/s a GPU; %s; the back end carries what leaves a "
			       "domain (data and pipeline parallel)", c->gpu->nvlink_gbs, what);
	}
	if (be->enabled)
		nicfit__decide(&c->decisions, "cluster.rack", 1,
			       "scale-out: %d rails a tray, %d x %g Gb/s ports a rack", be->links_per_node,
			       be->links_per_node * sv->rack_trays, be->link_gbps);
	if (c->net[NICFIT_NET_OOB].enabled)
		nicfit__decide(&c->decisions, "cluster.rack", 1,
			       "management: the OOB network cables the %d compute-tray BMCs and the "
			       "%d NVLink switch-tray BMCs of each %s, one port each (the multi-node "
			       "NVLink tuning guide's IPMI network; Base Command Manager lists each "
			       "NVLink switch tray on the BMC network)", sv->rack_trays,
			       sv->rack_switch_trays, sv->rack_racks > 1 ? "unit" : "rack");
	if (sv->rack_kw > 0)
		nicfit__decide(&c->decisions, "cluster.power", 1,
			       "power: %g kW a rack (%s cooling), %g kW for %ld rack%s, networks "
			       "outside the racks not included", sv->rack_kw,
			       sv->rack_cooling ? sv->rack_cooling : "unstated", sv->rack_kw * (double)c->racks,
			       c->racks, c->racks == 1 ? "" : "s");
}

/* The Racks paragraph of the text and the "rack" object of the JSON (null without a rack). */
void nicfit__cluster_rack_emit(struct nicfit_emit *e, const struct nicfit_cluster *c)
{
	const struct nicfit_server *sv = c->server;
	const struct nicfit_cluster_net *be = &c->net[NICFIT_NET_BACKEND];
	const struct nicfit_cluster_net *fe = &c->net[NICFIT_NET_FRONTEND];
	int dom = domain_gpus(c), ports = be->enabled ? be->links_per_node * (sv ? sv->rack_trays : 0) : 0;
	const char *per = sv && sv->rack_racks > 1 ? "a unit" : "a rack";
	struct nicfit_rack_domains d;
	char what[320];

	if (!sv || !sv->rack_trays) {
		nicfit_emit_null(e, "rack");
		return;
	}
	nicfit_emit_begin_object(e, "rack");
	nicfit_emit_string(e, "server", sv->e.id);
	nicfit_emit_int(e, "racks", c->racks);
	nicfit_emit_int(e, "units", units(c));
	nicfit_emit_int(e, "racks_per_unit", sv->rack_racks > 1 ? sv->rack_racks : 1);
	nicfit_emit_int(e, "trays_per_rack", trays_a_rack(sv));
	nicfit_emit_int(e, "trays_per_unit", sv->rack_trays);
	nicfit_emit_int(e, "gpus_per_rack", sv->rack_trays * c->in.gpus_per_node);
	nicfit_emit_int(e, "switch_trays_per_rack", sv->rack_switch_trays);
	nicfit_emit_int(e, "mgmt_switches_per_rack", sv->rack_mgmt_switches);
	nicfit_emit_int(e, "bmcs_per_rack", sv->rack_trays + sv->rack_switch_trays);
	nicfit_emit_int(e, "scaleout_ports_per_rack", ports);
	nicfit_emit_int(e, "northsouth_ports_per_rack",
			fe->enabled ? fe->links_per_node * sv->rack_trays : 0);
	if (sv->rack_kw > 0)
		nicfit_emit_number(e, "kw_per_rack", sv->rack_kw);
	else
		nicfit_emit_null(e, "kw_per_rack");
	nicfit_emit_string(e, "cooling", sv->rack_cooling);
	domains(c, &d);
	nicfit_emit_begin_object(e, "nvlink_domain");
	/* the largest domain the trays make: a whole rack's, or the partial rack's */
	nicfit_emit_int(e, "gpus", d.largest_gpus ? d.largest_gpus : c->in.gpus_per_node);
	nicfit_emit_number(e, "gbs_per_gpu", c->gpu ? c->gpu->nvlink_gbs : 0);
	nicfit_emit_int(e, "trays", d.largest_gpus ? d.largest_gpus / c->in.gpus_per_node : 1);
	/* trays past the whole racks: one more, partial domain (27 trays of 18: 9) */
	nicfit_emit_int(e, "partial_trays", d.whole ? d.partial : 0);
	/* the trays of the groups a job lays out alike in every domain */
	nicfit_emit_int(e, "group_trays", d.group_trays);
	nicfit_emit_begin_array(e, "inside");
	nicfit_emit_string(e, NULL, "tensor parallel");
	nicfit_emit_string(e, NULL, "expert parallel");
	nicfit_emit_end_array(e);
	nicfit_emit_begin_array(e, "scale_out");
	nicfit_emit_string(e, NULL, "data parallel");
	nicfit_emit_string(e, NULL, "pipeline parallel");
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
	nicfit_emit_end_object(e);
	if (sv->rack_racks > 1)
		nicfit_emit_printf(e, "Racks: %ld %s units of %d racks x %d compute trays, %d GPUs a "
				      "unit%s", units(c), sv->e.id, sv->rack_racks, trays_a_rack(sv),
				   sv->rack_trays * c->in.gpus_per_node,
				   dom ? " in one NVLink domain across its racks" : "");
	else
		nicfit_emit_printf(e, "Racks: %ld x %d %s compute trays, %d GPUs a rack%s", c->racks,
				   sv->rack_trays, sv->e.id, sv->rack_trays * c->in.gpus_per_node,
				   dom ? " in one NVLink domain" : "");
	if (c->in.nodes % sv->rack_trays)
		nicfit_emit_printf(e, " (%ld tray%s: the last rack holds %ld)", c->in.nodes,
				   c->in.nodes == 1 ? "" : "s", c->in.nodes % sv->rack_trays);
	nicfit_emit_printf(e, "\n");
	if (dom && c->in.nodes > 1) {
		domain_text(c, what, sizeof(what));
		nicfit_emit_printf(e, "  NVLink      %g GB/s a GPU through %d NVLink switch trays; %s\n",
				   c->gpu->nvlink_gbs, sv->rack_switch_trays, what);
	}
	if (ports)
		nicfit_emit_printf(e, "  scale-out   %d rails a tray (%s), %d x %g Gb/s ports %s, "
				      "%ld in all\n", be->links_per_node, c->nic ? c->nic->e.id : "NIC",
				   ports, be->link_gbps, per, be->links[NICFIT_LINK_HOST]);
	if (fe->enabled)
		nicfit_emit_printf(e, "  north-south %d x %g Gb/s a tray, %d %s, to %s\n",
				   fe->links_per_node, fe->link_gbps, fe->links_per_node * sv->rack_trays, per,
				   fe->links_per_node > 1 ? "different leaves" : "one leaf");
	nicfit_emit_printf(e, "  management  %d tray BMCs and %d switch-tray BMCs %s, %s",
			   sv->rack_trays, sv->rack_switch_trays, per,
			   c->net[NICFIT_NET_OOB].enabled ? "on the OOB network" : "not cabled (--no-oob)");
	if (sv->rack_mgmt_switches > 0)
		nicfit_emit_printf(e, "; the %s also holds %d management switches\n",
				   sv->rack_racks > 1 ? "unit" : "rack", sv->rack_mgmt_switches);
	else
		nicfit_emit_printf(e, "\n");
	if (sv->rack_kw > 0)
		nicfit_emit_printf(e, "  power       %g kW %s, %g kW in all%s%s\n", sv->rack_kw, per,
				   sv->rack_kw * (double)units(c), sv->rack_cooling ? ", cooling: " : "",
				   sv->rack_cooling ? sv->rack_cooling : "");
}
