/*
 * plan_frontend.c - R3 and R4: the front end (onboard ports or a card, the
 * model's load time, the serving traffic) and the out-of-band management
 * port, and R6's slot for a front-end card, which is placed after the
 * GPUs and back-end cards (plan_place.c). The back end is plan_backend.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nicfit/units.h"
#include "core/node_kind_int.h"
#include "core/num_int.h"
#include "plan/plan_int.h"

/* ---- R3: front end ------------------------------------------------------ */

/*
 * R3's 25GbE suggestion. Loading the model 1% of the day or more (864 of
 * 86,400 s) is time the GPUs stand idle that 25GbE cuts about 2.5-fold;
 * storage that can deliver half again what the link carries leaves the
 * link as the bottleneck of every load. Below those a faster front end
 * buys little.
 */
#define FRONTEND_25G_LOAD_S_PER_DAY 864.0
#define FRONTEND_25G_STORAGE_RATIO 1.5
#define FRONTEND_25G_GBPS 25.0

/*
 * R3, which front end: the card asked for (--frontend-nic); else the
 * server's fastest onboard port of PLAN_FRONTEND_MIN_GBPS or more, since
 * ports the server already has cost nothing; else, one card per server,
 * the cheapest sourced front-end card of the catalog.
 */
static void frontend_port(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_server *s = in->server;
	struct nicfit_error err;
	size_t k;
	int i, need_card;

	p->fe_onboard = 0;
	p->fe_ob = NULL;
	p->fe_nic = NULL;
	if (in->frontend_nic) {
		nicfit_error_clear(&err);
		p->fe_nic = nicfit__plan_whatif_card(cat, p, 1, in->frontend_nic, "--frontend-nic",
						     &err);
		if (!p->fe_nic)
			nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_FRONTEND_NIC_UNKNOWN,
					  "give a catalog NIC id (nicfit catalog list nics) or a part number "
					  "nicfit decode reads", "%s", err.msg);
	}
	/* R6 found the PCIe slots full and an OCP slot free: the card it chose there */
	if (!p->fe_nic && p->fe_ocp)
		p->fe_nic = p->fe_ocp;
	for (i = 0; !p->fe_nic && i < s->nonboard; i++) {
		const struct nicfit_onboard *ob = &s->onboard[i];

		if (ob->port_gbps >= PLAN_FRONTEND_MIN_GBPS &&
		    (!p->fe_ob || ob->port_gbps > p->fe_ob->port_gbps))
			p->fe_ob = ob;
	}
	need_card = !p->fe_ob && !p->fe_nic;
	if (p->fe_ob) {
		p->fe_onboard = 1;
		p->fe_port_gbps = p->fe_ob->port_gbps;
		if (p->fe_ob->nic)
			p->fe_nic = nicfit_catalog_find_nic(cat, p->fe_ob->nic, "onboard", NULL);
	}
	/* neither asked for nor onboard: the cheapest sourced front-end card */
	for (k = 0; need_card && k < nicfit_catalog_count(cat, NICFIT_KIND_NIC); k++) {
		const struct nicfit_nic *n = nicfit_catalog_nic(cat, k);

		if (!(n->roles & NICFIT_ROLE_FRONTEND) || n->port_gbps < PLAN_FRONTEND_MIN_GBPS)
			continue;
		if (!p->fe_nic || (n->e.priced && (!p->fe_nic->e.priced ||
						   n->e.price_usd < p->fe_nic->e.price_usd)))
			p->fe_nic = n;
	}
	if (!p->fe_onboard && p->fe_nic)
		p->fe_port_gbps = p->fe_nic->port_gbps;
	if (p->fe_port_gbps <= 0)
		p->fe_port_gbps = PLAN_FRONTEND_MIN_GBPS;
}

/*
 * What the front end carries: the serving streams, and the model's
 * weights at each (re)start, over TCP and no faster than the storage.
 * A model split across servers is loaded in shares, one per server.
 * Returns whether it was (the text says "per server").
 */
static int frontend_traffic(struct nicfit_plan *p, struct nicfit_stream *st)
{
	const struct nicfit_plan_input *in = &p->in;
	struct nicfit_stream_params sp;
	struct nicfit_speed speed;
	struct nicfit_error err;
	struct nicfit_load ld;
	int shared = 0;

	memset(&speed, 0, sizeof(speed));
	speed.gbps = p->fe_port_gbps;
	speed.kind = NICFIT_SPEED_ETH;
	nicfit_stream_params_default(&sp);
	nicfit_calc_stream(in->tokens_per_s, in->concurrency > 0 ? in->concurrency : 1,
			   p->fe_port_gbps, &sp, st, NULL);
	p->serving_mbps = st->total_mbps;
	nicfit_error_clear(&err);
	if (p->fit_known || in->weights_gb > 0 || p->weights_only_gb > 0) {
		double bytes = (p->fit_known ? p->fit.weights_gb :
				in->weights_gb > 0 ? in->weights_gb : p->weights_only_gb) * 1e9;

		if (p->backend_needed && !nicfit__plan_is_training(in->workload) &&
		    in->workload != NICFIT_WL_RDMA_STORAGE && in->servers > 1) {
			bytes /= in->servers;
			shared = 1;
		}
		p->load_bytes = bytes;
		if (!nicfit_calc_load(bytes, &speed, NICFIT_PROTO_TCP, in->storage_gbps, &in->link,
				      &ld, &err)) {
			p->load_s = ld.seconds;
			p->fe_goodput_gbps = ld.network_gbps;
		}
	} else {
		struct nicfit_link_result lr;

		if (!nicfit_link_calc(&speed, NICFIT_PROTO_TCP, &in->link, &lr, &err))
			p->fe_goodput_gbps = lr.goodput_gbps;
	}
	return shared;
}

/* Will R3's storage rule (plan_storage.c) give the server storage/in-band NICs? */
static int storage_planned(const struct nicfit_plan *p)
{
	return p->in.storage_nics > 0 ||
	       (p->in.storage_nics < 0 &&
		nicfit__plan_role_slots(p->in.server, NICFIT_SLOT_STORAGE) > 0);
}

/*
 * Will the front end converge onto the storage/in-band NICs (R3,
 * nicfit__plan_rule_converged)? When they are planned and no front-end
 * card was asked for; the front end is then described once they have
 * their slots.
 */
static int converge_expected(const struct nicfit_plan *p)
{
	return storage_planned(p) && !p->in.frontend_nic;
}

static void frontend_describe(struct nicfit_plan *p, const struct nicfit_stream *st, int shared)
{
	const struct nicfit_plan_input *in = &p->in;
	int storage_limits = in->storage_gbps > 0 && in->storage_gbps < p->fe_goodput_gbps;
	char b1[32], b2[32];

	if (p->fe_onboard)
		plan_decide(&p->decisions, "R3", 1,
			    "Front end: the server's onboard %s%s%s%s (%d x %g GbE %s) carries "
			    "%s: no front-end card needed.",
			    p->fe_ob->name, p->fe_nic ? " (" : "", p->fe_nic ? p->fe_nic->family : "",
			    p->fe_nic ? ")" : "", p->fe_ob->ports, p->fe_ob->port_gbps, p->fe_ob->cage,
			    "requests, model downloads, storage and management");
	else if (p->fe_nic)
		plan_decide(&p->decisions, "R3", 1,
			    "Front end: %s %s (%d x %g GbE %s)%s.", p->fe_nic->part,
			    p->fe_nic->e.name, p->fe_nic->ports, p->fe_nic->port_gbps, p->fe_nic->cage,
			    in->frontend_nic && in->installed_fe_slot ? ": the card the host already "
			    "has (nicfit plan --from-host), in place of a new one" :
			    in->frontend_nic ? " as asked" : p->fe_ocp ? ": the server has no onboard "
			    "10GbE or faster port and the plan's GPUs and cards leave no PCIe slot a "
			    "front-end card fits, so one OCP NIC 3.0 card per server in its OCP slot, the "
			    "cheapest sourced front-end OCP card" : ": the server has no onboard 10GbE or "
			    "faster port, so one card per server, the cheapest sourced front-end card");
	plan_decide(&p->decisions, "R3", 1,
		    "Serving traffic: %ld concurrent stream%s x %g tokens/s x %.0f B per "
		    "token = %.2f Mb/s, %.4f%% of %g GbE (generated text is a few kB/s per request).",
		    in->concurrency, in->concurrency == 1 ? "" : "s", in->tokens_per_s,
		    st->bytes_per_token, st->total_mbps, st->link_share * 100, p->fe_port_gbps);
	if (p->load_s > 0)
		plan_decide(&p->decisions, "R3", 1,
			    "Model load: %s of weights%s from a NAS at %.2f GB/s (%g GbE TCP "
			    "goodput%s) = %s per (re)start.",
			    nicfit_fmt_bytes(p->load_bytes, b1, sizeof(b1)),
			    shared ? " per server (its share of the split model)" : "",
			    (storage_limits ? in->storage_gbps : p->fe_goodput_gbps) / 8,
			    p->fe_port_gbps, storage_limits ? ", limited by the storage" : "",
			    nicfit_fmt_seconds(p->load_s, b2, sizeof(b2)));
}

/*
 * R3, when a 25GbE front end pays off (docs/rules.md): when loading the
 * model takes FRONTEND_25G_LOAD_S_PER_DAY or more of the day, or the
 * storage outruns a link slower than 25GbE by FRONTEND_25G_STORAGE_RATIO.
 * Training always hears that its datasets come over the front end too.
 */
static void rule_frontend_25g(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	int storage_outruns = in->storage_gbps > p->fe_goodput_gbps * FRONTEND_25G_STORAGE_RATIO;
	char b[32];

	if (p->load_s > 0 && !storage_planned(p) &&
	    (in->reloads_per_day * p->load_s >= FRONTEND_25G_LOAD_S_PER_DAY ||
	     (storage_outruns && p->fe_port_gbps < FRONTEND_25G_GBPS))) {
		p->fe_suggest_25g = 1;
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_FRONTEND_25G,
				  "a 25GbE front end (e.g. a ConnectX-4 Lx MCX4121A-ACAT or an Intel "
				  "XXV710-DA2) and a 25GbE top-of-rack port",
				  "Loading takes %s and happens %g time%s a day (%.1f min a day)%s: 25GbE "
				  "would cut each load about 2.5-fold.",
				  nicfit_fmt_seconds(p->load_s, b, sizeof(b)), in->reloads_per_day,
				  in->reloads_per_day == 1 ? "" : "s", in->reloads_per_day * p->load_s / 60,
				  storage_outruns ? ", and the storage can deliver more than the link" : "");
	}
	if (nicfit__plan_is_training(in->workload) && !storage_planned(p))
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_FRONTEND_DATASETS, NULL,
				  "Training reads its dataset over the front end: move it to 25GbE if the job "
				  "pulls large datasets from shared storage.");
}

/*
 * R4, out-of-band management: the server's BMC port (iDRAC, iLO, XCC) on
 * its own management-network link. It carries consoles and firmware
 * updates, never the workload, so its 1GbE is never the limit.
 */
static void rule_oob(struct nicfit_plan *p)
{
	const struct nicfit_server *s = p->in.server;

	p->oob_gbps = s->oob_gbps;
	plan_decide(&p->decisions, "R4", 1,
		    "Out-of-band management: the %s port (%g GbE %s) on its own "
		    "management-network link; 1GbE is plenty there.",
		    s->oob_name ? s->oob_name : "BMC", s->oob_gbps, s->oob_cage ? s->oob_cage : "RJ45");
}

/*
 * R3, front end (docs/rules.md): the port that carries requests, model
 * downloads, storage and management, what it carries and how long the
 * model takes to load through it; then R4.
 */
void nicfit__plan_rule_frontend(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	struct nicfit_stream st;
	int shared;

	frontend_port(cat, p);
	shared = frontend_traffic(p, &st);
	if (!converge_expected(p)) {
		frontend_describe(p, &st, shared);
		rule_frontend_25g(p);
	}
	rule_oob(p);
}

/* ---- R3: a converged front end ------------------------------------------ */

/*
 * R3, a converged front end (docs/rules.md): on a server whose storage
 * and in-band NICs are planned, requests and model downloads take the
 * same bonded ports as storage and in-band management, to the same two
 * switches. NVIDIA builds its DGX and HGX designs so: the DGX BasePOD
 * bonds port 2 of the two dual-port ConnectX-7 in slots 1 and 2 for
 * in-band management and storage, and the HGX enterprise reference
 * architecture gives each node two 200GbE north-south ports (400GbE on
 * B300) to two switches, for storage, management and users alike. The
 * onboard 10GbE port is then not needed (NVIDIA's SuperPOD leaves it
 * unused), and there is no separate front-end link or card. A front-end
 * card asked for (--frontend-nic) keeps its own link; storage NICs that
 * found no slot leave the front end R3 chose.
 */
/*
 * The bond against what the node's kind is built with (core/node_kind_int.h,
 * the defaults `nicfit cluster` sizes the same node with): an 8-GPU
 * HGX/DGX node's north-south is two ports to two switches at 200GbE, or
 * 400GbE behind 800G compute NICs. Said, not enforced: the cards are the
 * server's or the catalog's best fit, and a bond below the reference
 * design is the buyer's call.
 */
static void converged_against_kind(struct nicfit_plan *p)
{
	struct nicfit_node_kind k;
	int meets;

	nicfit_node_kind(p->in.gpu, p->in.gpus_per_server,
			 p->backend_needed ? p->be_port_gbps : 0, &k);
	if (!k.baseboard)
		return;
	meets = p->st_cards >= k.ns_links && p->st_port_gbps + NICFIT_EPS >= k.ns_gbps;
	plan_decide(&p->decisions, "R3", 1,
		    "North-south of an HGX/DGX node, as %s builds it (and nicfit cluster sizes "
		    "it): %d x %g GbE to %d switches; this plan's %d x %g GbE %s.", k.source,
		    k.ns_links, k.ns_gbps, k.ns_switches, p->st_cards, p->st_port_gbps,
		    meets ? "meets it" : "falls short of it");
}

void nicfit__plan_rule_converged(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	struct nicfit_stream_params sp;
	struct nicfit_stream st;
	const char *unused;
	int shared;

	if (!converge_expected(p))
		return;
	if (!p->st_nic || p->st_cards < 1) {
		shared = frontend_traffic(p, &st);
		frontend_describe(p, &st, shared);
		rule_frontend_25g(p);
		return;
	}
	unused = p->fe_onboard && p->fe_ob ? p->fe_ob->name : NULL;
	p->fe_converged = 1;
	p->fe_onboard = 0;
	p->fe_nic = NULL;
	p->fe_port_gbps = p->st_port_gbps;
	p->fe_node_gbps = p->st_port_gbps * p->st_cards;
	p->fe_goodput_gbps = p->st_node_gbps;
	nicfit_stream_params_default(&sp);
	nicfit_calc_stream(in->tokens_per_s, in->concurrency > 0 ? in->concurrency : 1,
			   p->fe_node_gbps, &sp, &st, NULL);
	p->serving_mbps = st.total_mbps;
	plan_decide(&p->decisions, "R3", 1,
		    "Front end: converged onto the storage and in-band NICs, as NVIDIA's DGX "
		    "BasePOD and HGX reference architectures build it: requests, model downloads, "
		    "storage and in-band management share one port of each of the %d x %s, bonded "
		    "to two switches (%d x %g GbE, %.1f Gb/s of TCP goodput)%s%s%s.",
		    p->st_cards, p->st_nic->part, p->st_cards, p->st_port_gbps, p->st_node_gbps,
		    unused ? "; the onboard " : "", unused ? unused : "",
		    unused ? " port is not needed" : "");
	plan_decide(&p->decisions, "R3", 1,
		    "Serving traffic: %ld concurrent stream%s x %g tokens/s x %.0f B per "
		    "token = %.2f Mb/s, %.6f%% of the %d x %g GbE bond.",
		    in->concurrency, in->concurrency == 1 ? "" : "s", in->tokens_per_s,
		    st.bytes_per_token, st.total_mbps, st.link_share * 100, p->st_cards,
		    p->st_port_gbps);
	converged_against_kind(p);
}

/* ---- R6: the front-end card's slot ------------------------------------------ */

/* How well slot s suits a front-end card: its role first, then spare lanes. */
static int frontend_slot_cost(const struct nicfit_slot *s, int width)
{
	int role = s->role == NICFIT_SLOT_FRONTEND ? 0 : s->role == NICFIT_SLOT_ANY ? 1 : 2;

	return role * 100 + (s->width > width ? s->width - width : 0);
}

/* What the plan has put in slot i already ("it holds a GPU"), or NULL when it is free. */
static const char *slot_holder(const struct nicfit_plan *p, int i)
{
	int j;

	for (j = 0; j < NICFIT_PLAN_MAX_GPUS; j++)
		if (p->gpu_slots[j] == i)
			return "it holds a GPU";
	for (j = 0; j < NICFIT_PLAN_MAX_CARDS; j++)
		if (p->be_slots[j] == i || p->be_aux_slots[j] == i)
			return "it holds a back-end card";
	for (j = 0; j < p->st_cards && j < NICFIT_PLAN_MAX_STORAGE; j++)
		if (p->st_slots[j] == i)
			return "it holds a storage card";
	return NULL;
}

/*
 * What holds the slots the plan took so far, as the subject of "take(s)
 * every slot it fits": "the GPUs and the back-end cards take", "the
 * back-end card takes". 0 when the plan took none.
 */
static int slot_takers(const struct nicfit_plan *p, char *out, size_t n)
{
	static const char *const prefix[] = { "GPU", "back-end NIC", "storage/in-band NIC" };
	static const char *const one[] = { "the GPU", "the back-end card", "the storage card" };
	static const char *const many[] = { "the GPUs", "the back-end cards",
					    "the storage cards" };
	int count[3] = { 0, 0, 0 }, kinds = 0, total = 0, k, j;
	size_t len = 0;

	for (k = 0; k < p->nslots; k++)
		for (j = 0; j < 3; j++)
			if (!strncmp(p->slots[k].what, prefix[j], strlen(prefix[j]))) {
				count[j]++;
				break;
			}
	out[0] = '\0';
	for (j = 0; j < 3; j++) {
		if (!count[j])
			continue;
		total += count[j];
		len += (size_t)plan_fmt(out + len, n - len, "%s%s", kinds++ ? " and " : "",
					count[j] > 1 ? many[j] : one[j]);
		if (len >= n)
			len = n - 1;
	}
	if (total)
		plan_fmt(out + len, n - len, total > 1 ? " take" : " takes");
	return total;
}

/* The front-end card is the one installed in the host (frontend_nic with installed_fe_slot). */
static int installed_fe(const struct nicfit_plan *p, const struct nicfit_nic *n)
{
	return p->in.installed_fe_slot && p->in.frontend_nic && n && n == p->fe_nic &&
	       !p->fe_onboard;
}

/* The index of the slot the installed front-end card sits in, -1 when no slot has its name. */
static int installed_slot_index(const struct nicfit_plan *p)
{
	const struct nicfit_server *sv = p->in.server;
	int i;

	for (i = 0; p->in.installed_fe_slot && i < sv->nslots; i++)
		if (sv->slots[i].name && !strcmp(sv->slots[i].name, p->in.installed_fe_slot))
			return i;
	return -1;
}

/* 1 when slot i is where the installed front-end card n sits. */
static int installed_here(const struct nicfit_plan *p, const struct nicfit_nic *n, int i)
{
	return installed_fe(p, n) && i >= 0 && i == installed_slot_index(p);
}

/*
 * Why slot i, pinned with --frontend-slot, cannot take the front-end card
 * (catalog entry n), into b: what holds it, or what kind of slot it is
 * (the caller found it free slots only where the card does not fit).
 */
static const char *pinned_slot_why(const struct nicfit_plan *p, const struct nicfit_nic *n,
				   int i, char *b, size_t cap)
{
	const struct nicfit_slot *s = &p->in.server->slots[i];
	const char *k = s->kind ? s->kind : "pcie";

	if (slot_holder(p, i))
		return slot_holder(p, i);
	if (s->gpu == NICFIT_GPU_BASEBOARD || !strcmp(k, "baseboard"))
		return "it is a GPU baseboard position";
	nicfit__fmt(b, cap, "it is %s x%d slot, %s, %s length%s",
		    !strcmp(k, "pcie") ? "a PCIe" : !strcmp(k, "ocp3") ? "an OCP 3.0" :
		    !strcmp(k, "ocp2") ? "an OCP 2.0" : !strcmp(k, "ndc") ? "a network daughter card" :
		    !strcmp(k, "flexlom") ? "a FlexibleLOM" : !strcmp(k, "mezz") ? "a mezzanine" :
		    "a",
		    s->connector_width ? s->connector_width : s->width,
		    s->full_height ? "full height" : "low profile",
		    s->full_length ? "full" : "half",
		    n && n->double_width && !s->double_room ?
		    ", without room for a double-width card" : "");
	return b;
}

/*
 * R6, the front-end card (docs/rules.md): an add-in front-end card is in
 * the bill of materials, so it needs a slot like any other card: the free
 * slot the vendor meant for the front end, else the one with the fewest
 * lanes beyond the card's, after the GPUs and back-end cards have theirs.
 * None left is critical (frontend-no-slot): the plan lists a card the
 * server cannot hold.
 */
void nicfit__plan_place_frontend(struct nicfit_plan *p)
{
	const struct nicfit_server *sv = p->in.server;
	const struct nicfit_nic *n = p->fe_nic;
	struct nicfit_plan_slotuse *u;
	struct nicfit_card c;
	int i, best = -1, cost = 0;
	char sock[40];

	/* a host read without link figures has an empty slot map: nothing to judge */
	if (p->in.frontend_slot_pin && p->fe_onboard)
		plan_decide(&p->decisions, "R6", 1, "--frontend-slot %s not used: the front end is "
			    "the server's onboard %s.", sv->slots[p->in.frontend_slot_pin - 1].name,
			    p->fe_ob->name);
	if (p->fe_onboard || !n || !sv->nslots)
		return;
	memset(&c, 0, sizeof(c));
	c.pcie_width = n->pcie_width;
	for (i = 0; i < sv->nslots; i++) {
		int here;

		if (slot_holder(p, i) || !nicfit__plan_card_fits_slot(&c, n, &sv->slots[i]) ||
		    sv->slots[i].gpu == NICFIT_GPU_BASEBOARD ||
		    (p->in.frontend_slot_pin && i != p->in.frontend_slot_pin - 1))
			continue;
		/* the card already sits in a free slot: it stays there */
		here = installed_here(p, n, i);
		if (here || best < 0 || (!installed_here(p, n, best) &&
					 frontend_slot_cost(&sv->slots[i], c.pcie_width) < cost)) {
			best = i;
			cost = frontend_slot_cost(&sv->slots[i], c.pcie_width);
		}
	}
	if (best < 0 && p->in.frontend_slot_pin) {
		char why[160];

		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_FRONTEND_NO_SLOT,
				  "another --frontend-slot, or none to let the plan choose",
				  "Slot %s (--frontend-slot) cannot take the front-end %s (PCIe x%d%s): %s.",
				  sv->slots[p->in.frontend_slot_pin - 1].name, n->part, n->pcie_width,
				  nicfit__plan_form_words(n),
				  pinned_slot_why(p, n, p->in.frontend_slot_pin - 1, why, sizeof(why)));
		return;
	}
	if (best < 0) {
		char took[96];

		if (!slot_takers(p, took, sizeof(took)))
			nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_FRONTEND_NO_SLOT,
					  "a front-end card that fits one of its slots (--frontend-nic), "
					  "or a server with onboard front-end ports",
					  "The front-end %s (PCIe x%d%s) fits no slot of %s.", n->part,
					  n->pcie_width, nicfit__plan_form_words(n), sv->e.name);
		else
			nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_FRONTEND_NO_SLOT,
					  strncmp(took, "the GPU", 7) ? "fewer back-end or storage cards "
					  "per server, or a server with onboard front-end ports" :
					  "fewer GPUs or back-end cards per server, or a server with "
					  "onboard front-end ports",
					  "The front-end %s (PCIe x%d%s) has no free slot in %s: %s "
					  "every slot it fits.", n->part, n->pcie_width,
					  nicfit__plan_form_words(n), sv->e.name, took);
		return;
	}
	p->fe_slot = best;
	p->fe_installed = installed_fe(p, n);
	if (p->fe_installed && !installed_here(p, n, best))
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_MOVE_INSTALLED_CARD,
				  "move the card; its link, cables and configuration stay the same",
				  "The installed front-end %s sits in slot %s; the plan puts it in "
				  "slot %s (slot %s: %s).", n->part, p->in.installed_fe_slot,
				  sv->slots[best].name, p->in.installed_fe_slot,
				  slot_holder(p, installed_slot_index(p)) ?
				  slot_holder(p, installed_slot_index(p)) :
				  "the server has no slot of that name, or the card no longer fits it");
	if (p->nslots >= NICFIT_PLAN_MAX_SLOTS)
		return;
	u = &p->slots[p->nslots++];
	nicfit__plan_copy(u->slot, sizeof(u->slot), sv->slots[best].name);
	u->socket = sv->slots[best].socket;
	u->gen = sv->slots[best].gen;
	u->width = sv->slots[best].width;
	plan_fmt(u->what, sizeof(u->what), "front-end NIC %s%s", n->part,
		 !p->fe_installed ? "" : installed_here(p, n, best) ? " (installed)" :
		 " (installed, moved)");
	plan_decide(&p->decisions, "R6", 1, "Front-end card %s in slot %s: PCIe Gen%d x%d, %s%s.",
		    n->part, sv->slots[best].name, sv->slots[best].gen, sv->slots[best].width,
		    nicfit__plan_sock_name(sv, sv->slots[best].socket, sock, sizeof(sock)),
		    !p->fe_installed ? "" : installed_here(p, n, best) ? " - where it is installed" :
		    " - moved from the slot it is installed in");
}
