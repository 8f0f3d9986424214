/*
 * plan_storage.c - R3's storage and in-band NICs: on a server whose slot
 * map marks slots for them (a DGX or HGX node), an RDMA card in each, its
 * links to two storage/in-band switches, and the model's weights loaded
 * over them. The back end is R5 (plan_backend.c), the front end's own
 * port R3 (plan_frontend.c), the cables R8 (plan_fabric.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/buf.h"
#include "nicfit/units.h"
#include "core/num_int.h"
#include "plan/plan_int.h"

/*
 * NVIDIA's DGX BasePOD bonds one port of each of the two storage/in-band
 * cards (slot 1 and slot 2, port 2) for in-band management and Ethernet
 * storage, each to its own switch (docs/nicfit-plan.1, data/servers.json
 * dgx-h100): so a storage card counts one port towards the node's rate,
 * and two cards are the default when the vendor marks two slots.
 */
#define STORAGE_PORTS_USED 1

/*
 * The north-south rate a storage/in-band port is chosen for: NVIDIA's HGX
 * enterprise reference architecture gives an HGX H100/H200/B200 node (PCIe
 * Gen5) two 200GbE north-south ports and a B300 node (Gen6) two 400GbE
 * (the figures R3's converged front end cites, docs/rules.md); a port's
 * goodput reaches it at NS_REACH of the rate (a 200G port moves about
 * 188 Gb/s of RoCE).
 */
#define NS_REACH 0.9

static double ns_target_gbps(const struct nicfit_plan *p)
{
	const struct nicfit_gpu *g = p->in.gpu;

	/* NVIDIA's figure for NVIDIA's nodes; another maker's node: no target */
	if (g && g->vendor && strcmp(g->vendor, "NVIDIA"))
		return 0;
	return p->in.server->pcie_gen >= 6 ? 400.0 : 200.0;
}

/*
 * Does a port moving e Gb/s suit the target better than one moving best?
 * One that reaches it beats one that does not; of two that reach it, the
 * smaller; of two that do not, the larger (by more than
 * PLAN_SAME_RATE_GBPS). Without a target (0), the larger.
 */
static int closer(double e, double best, double target)
{
	int e_ok = e >= target * NS_REACH, b_ok = best >= target * NS_REACH;

	if (target <= 0)
		return e > best + PLAN_SAME_RATE_GBPS;
	if (e_ok != b_ok)
		return e_ok;
	return e_ok ? e < best - PLAN_SAME_RATE_GBPS : e > best + PLAN_SAME_RATE_GBPS;
}

/*
 * Is PCIe generation a a better fit than b for slots of generation slot?
 * The card the slot was built for: no newer than the slot first (a Gen6
 * ConnectX-8 in a Gen5 slot is the next generation's card), then the
 * newer.
 */
static int newer_fit(int a, int b, int slot)
{
	if ((a <= slot) != (b <= slot))
		return a <= slot;
	return a > b;
}

/* A BlueField (DPU or SuperNIC), by its catalog family. */
static int bluefield(const struct nicfit_nic *n)
{
	return n->family && !strncmp(n->family, "BlueField", 9);
}

/* Is slot i free of GPUs and back-end cards? */
static int slot_free(const struct nicfit_plan *p, int i)
{
	int j;

	for (j = 0; j < NICFIT_PLAN_MAX_GPUS; j++)
		if (p->gpu_slots[j] == i)
			return 0;
	for (j = 0; j < NICFIT_PLAN_MAX_CARDS; j++)
		if (p->be_slots[j] == i || p->be_aux_slots[j] == i)
			return 0;
	return p->fe_slot != i;
}

/* An OCP NIC 3.0 (or 2.0) slot, which takes an OCP card and no PCIe card. */
static int ocp_slot(const struct nicfit_slot *s)
{
	return s->kind && s->kind[0] == 'o' && !strncmp(s->kind, "ocp", 3);
}

/*
 * Up to n free slots of one form (ocp: OCP slots, else the others), no
 * GPU slot: those the vendor meant for storage first, then those of no
 * stated role. Returns how many it found.
 */
static int free_slots(const struct nicfit_plan *p, int n, int ocp, int *out)
{
	const struct nicfit_server *sv = p->in.server;
	int i, k = 0, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < sv->nslots && k < n; i++) {
			enum nicfit_slot_role r = sv->slots[i].role;

			if (!slot_free(p, i) || ocp_slot(&sv->slots[i]) != ocp ||
			    (pass == 0 && r != NICFIT_SLOT_STORAGE) ||
			    (pass == 1 && r != NICFIT_SLOT_ANY) || sv->slots[i].gpu != NICFIT_GPU_NONE)
				continue;
			out[k++] = i;
		}
	return k;
}

/*
 * The slots for n storage cards, all of one form, since the cards are one
 * part and an OCP NIC 3.0 card fits no PCIe slot (nor a PCIe card an OCP
 * slot): the free PCIe slots (the vendor's storage slots first), or, when
 * the GPUs and back-end cards leave fewer of those than the server's free
 * OCP slots, the OCP slots, as R6 moves the front end there
 * (nicfit__plan_frontend_ocp(), plan_place.c): the OCP slot is the network
 * slot the GPUs do not take. Returns how many it found; *other is how many
 * free slots of the other form were left out.
 */
static int storage_slots(const struct nicfit_plan *p, int n, int *out, int *other)
{
	int ocp[NICFIT_PLAN_MAX_STORAGE];
	int k = free_slots(p, n, 0, out), m = free_slots(p, n, 1, ocp), i;

	*other = m;
	if (m <= k)
		return k;
	*other = k;
	for (i = 0; i < m; i++)
		out[i] = ocp[i];
	return m;
}

/*
 * The card every chosen slot ships with (a DGX's storage cards), or NULL
 * when the slots name none, differ, or name a card that is not an RoCE card
 * fitting all of them: a server that comes with its storage NICs is
 * planned with them, not with a faster card the catalog also has.
 */
static const struct nicfit_nic *storage_included(const struct nicfit_catalog *cat,
						 const struct nicfit_plan *p, const int *slots,
						 int n, double *eff)
{
	const char *id = n > 0 ? p->in.server->slots[slots[0]].included : NULL;
	const struct nicfit_nic *c;
	struct nicfit_card card;
	double e = 1e18;
	int k;

	for (k = 0; id && k < n; k++)
		if (!p->in.server->slots[slots[k]].included ||
		    strcmp(p->in.server->slots[slots[k]].included, id))
			return NULL;
	c = id ? nicfit_catalog_find_nic(cat, id, NULL, NULL) : NULL;
	if (!c || !(c->rdma & NICFIT_RDMA_ROCE) || c->socket_direct)
		return NULL;
	nicfit__plan_fill_card(&card, c);
	for (k = 0; k < n; k++) {
		const struct nicfit_slot *s = &p->in.server->slots[slots[k]];
		double v;

		if (!nicfit__plan_card_fits_slot(&card, c, s))
			return NULL;
		v = nicfit__plan_card_in_slot(p, &card, s, STORAGE_PORTS_USED, NULL);
		e = v < e ? v : e;
	}
	*eff = e;
	return c;
}

/*
 * The storage card: the card the chosen slots ship with, else an RoCE
 * card that fits every chosen slot, with two ports or more first (one to
 * each of two switches), then a card whose used port reaches the
 * north-south target (ns_target_gbps), the least above it first (below
 * it, the most), ties within PLAN_SAME_RATE_GBPS; then a plain card
 * before a BlueField (DPU or SuperNIC: Arm cores and their own OS to run,
 * as R5 ranks them), then the PCIe generation that fits the slots best
 * (newer_fit: the card the slot was built for, ConnectX-7 in a Gen5 DGX),
 * then a sourced price, the lower first, then the catalog's order.
 */
static const struct nicfit_nic *storage_card(const struct nicfit_catalog *cat,
					     const struct nicfit_plan *p, const int *slots, int n,
					     double *eff)
{
	const struct nicfit_nic *best = NULL;
	size_t i, count = nicfit_catalog_count(cat, NICFIT_KIND_NIC);
	double target = ns_target_gbps(p);
	int k, gen = 0;

	*eff = 0;
	best = storage_included(cat, p, slots, n, eff);
	if (best)
		return best;
	for (k = 0; k < n; k++)
		if (!k || p->in.server->slots[slots[k]].gen < gen)
			gen = p->in.server->slots[slots[k]].gen;
	for (i = 0; i < count; i++) {
		const struct nicfit_nic *c = nicfit_catalog_nic(cat, i);
		struct nicfit_card card;
		double e = 1e18;
		int fits = 1;

		if (!(c->rdma & NICFIT_RDMA_ROCE) || c->socket_direct)
			continue;
		nicfit__plan_fill_card(&card, c);
		for (k = 0; k < n && fits; k++) {
			fits = nicfit__plan_card_fits_slot(&card, c,
							   &p->in.server->slots[slots[k]]);
			if (fits) {
				double v = nicfit__plan_card_in_slot(p, &card,
								     &p->in.server->slots[slots[k]],
								     STORAGE_PORTS_USED, NULL);
				e = v < e ? v : e;
			}
		}
		if (!fits)
			continue;
		if (!best || (c->ports >= 2) > (best->ports >= 2) ||
		    ((c->ports >= 2) == (best->ports >= 2) &&
		     (closer(e, *eff, target) ||
		      (fabs(e - *eff) <= PLAN_SAME_RATE_GBPS &&
		       (bluefield(c) < bluefield(best) ||
			(bluefield(c) == bluefield(best) &&
			 (newer_fit(c->pcie_gen, best->pcie_gen, gen) ||
			  (c->pcie_gen == best->pcie_gen && c->e.priced &&
			   (!best->e.priced || c->e.price_usd < best->e.price_usd))))))))) {
			best = c;
			*eff = e;
		}
	}
	return best;
}

/* The weights over the storage cards' used ports, no faster than the storage. */
static void storage_load(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	struct nicfit_link_result lr;
	struct nicfit_speed sp;
	double gbps;

	memset(&sp, 0, sizeof(sp));
	sp.gbps = p->st_port_gbps;
	sp.kind = NICFIT_SPEED_ETH;
	if (nicfit_link_calc(&sp, NICFIT_PROTO_TCP, &in->link, &lr, NULL))
		return;
	gbps = lr.goodput_gbps * STORAGE_PORTS_USED * p->st_cards;
	if (gbps > p->st_effective_gbps * p->st_cards)
		gbps = p->st_effective_gbps * p->st_cards;
	if (in->storage_gbps > 0 && in->storage_gbps < gbps)
		gbps = in->storage_gbps;
	p->st_node_gbps = gbps;
	if (p->load_bytes > 0 && gbps > 0 && gbps > p->fe_goodput_gbps) {
		p->load_s = p->load_bytes * 8 / (gbps * 1e9);
		p->load_over_storage = 1;
	}
}

/*
 * R3, storage and in-band NICs (docs/rules.md): a server whose slot map
 * marks storage/in-band slots gets an RDMA card in each (--storage-nics
 * N for another count, 0 for none), as NVIDIA's DGX H100/H200 carries two
 * dual-port ConnectX-7 in slots 1 and 2 for storage and in-band
 * management; each card's used port goes to one of two switches, bonded,
 * and the model's weights load over them (at TCP goodput, no faster than
 * --storage-gbps), not over the 10GbE onboard port.
 */
void nicfit__plan_rule_storage(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_server *sv = in->server;
	int want = in->storage_nics >= 0 ? in->storage_nics :
		   nicfit__plan_role_slots(sv, NICFIT_SLOT_STORAGE);
	int slots[NICFIT_PLAN_MAX_STORAGE], n, i, other = 0, meant = 1, ocp;
	struct nicfit_buf names;
	char b[32], where[160];

	p->st_nic = NULL;
	p->st_cards = 0;
	if (want <= 0)
		return;
	if (want > NICFIT_PLAN_MAX_STORAGE)
		want = NICFIT_PLAN_MAX_STORAGE;
	n = storage_slots(p, want, slots, &other);
	ocp = n > 0 && ocp_slot(&sv->slots[slots[0]]);
	if (n > 0)
		p->st_nic = storage_card(cat, p, slots, n, &p->st_effective_gbps);
	if (n < want || !p->st_nic) {
		char more[128] = "";

		if (n < want && other > 0)
			plan_fmt(more, sizeof(more), " (and %d free %s slot%s, which take%s a card of "
				 "the other form: the storage cards are one part)", other,
				 ocp ? "PCIe" : "OCP", other == 1 ? "" : "s", other == 1 ? "s" : "");
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_STORAGE_NO_SLOT,
				  "fewer storage NICs (--storage-nics), or a server with free slots for them",
				  "%d storage/in-band NIC%s asked; %s has free slots for %d%s%s.", want,
				  want == 1 ? "" : "s", sv->e.name, n, more,
				  n && !p->st_nic ? ", and no RoCE card of the catalog fits them" : "");
		if (!p->st_nic)
			return;
	}
	p->st_cards = n;
	p->st_port_gbps = p->st_nic->port_gbps;
	nicfit_buf_init(&names, 0);
	for (i = 0; i < n; i++) {
		struct nicfit_plan_slotuse *u;

		p->st_slots[i] = slots[i];
		meant = meant && sv->slots[slots[i]].role == NICFIT_SLOT_STORAGE;
		nicfit_buf_addf(&names, "%s%s", i ? ", " : "", sv->slots[slots[i]].name);
		if (p->nslots >= NICFIT_PLAN_MAX_SLOTS)
			continue;
		u = &p->slots[p->nslots++];
		nicfit__plan_copy(u->slot, sizeof(u->slot), sv->slots[slots[i]].name);
		u->socket = sv->slots[slots[i]].socket;
		u->gen = sv->slots[slots[i]].gen;
		u->width = sv->slots[slots[i]].width;
		plan_fmt(u->what, sizeof(u->what), "storage/in-band NIC %s", p->st_nic->part);
	}
	storage_load(p);
	if (meant)
		plan_fmt(where, sizeof(where), "the slots %s meant for them",
			 sv->vendor ? sv->vendor : "the vendor");
	else if (ocp)
		plan_fmt(where, sizeof(where), "an OCP NIC 3.0 card in the OCP slot%s, as the GPUs "
			 "and back-end cards leave %s", n == 1 ? "" : "s",
			 other ? "fewer PCIe slots free" : "no PCIe slot free");
	else
		plan_fmt(where, sizeof(where), "free slot%s the GPUs and back-end cards leave",
			 n == 1 ? "" : "s");
	plan_decide(&p->decisions, "R3", 1,
		    "Storage and in-band: %d x %s (%d x %g GbE %s) in slot%s %s, %s; one port of "
		    "each to one of two storage/in-band switches, bonded: %.1f Gb/s per "
		    "server%s%s.", n, p->st_nic->part, p->st_nic->ports,
		    p->st_port_gbps, p->st_nic->cage, n == 1 ? "" : "s",
		    names.data ? names.data : "", where, p->st_node_gbps, p->load_over_storage ? "; the weights load over them in " : "",
		    p->load_over_storage ? nicfit_fmt_seconds(p->load_s, b, sizeof(b)) : "");
	if (nicfit_buf_error(&names))
		p->decisions.oom = 1;
	nicfit_buf_release(&names);
}
