/*
 * plan_builtin.c - the compute NICs a server is built with: a DGX's
 * ConnectX-7s in its network modules, an HGX/DGX B300's ConnectX-8s on
 * the GPU baseboard, the four ConnectX-7 or ConnectX-8 of a GB200 or
 * GB300 NVL72 compute tray. They are part of the machine, not cards in
 * slots: the back end is those NICs, a --backend-nic that names another
 * card is refused with the reason, and the fabric they ship for
 * (InfiniBand on NVIDIA's systems) is the default.
 *
 * It reads the slot map only (slots of role "compute" whose "included"
 * names one catalog NIC); it places nothing and prices nothing. A job
 * that needs no back end (one server, one NVLink domain) leaves those
 * NICs idle: they are still listed, in the slots table and the bill as
 * included with the server, so the plan shows every part the machine has.
 */
#include <string.h>

#include "core/node_kind_int.h"
#include "plan/plan_int.h"

/*
 * The NIC every compute slot of the server includes, or NULL: a server
 * with no compute slots, a compute slot left empty for the buyer, or
 * compute slots that include different cards has no fixed back end.
 */
const struct nicfit_nic *nicfit__plan_builtin_nic(const struct nicfit_catalog *cat,
						  const struct nicfit_server *sv)
{
	const char *id = NULL;
	int i;

	if (!sv)
		return NULL;
	for (i = 0; i < sv->nslots; i++) {
		const struct nicfit_slot *s = &sv->slots[i];

		if (s->role != NICFIT_SLOT_COMPUTE)
			continue;
		if (!s->included || (id && strcmp(id, s->included)))
			return NULL;
		id = s->included;
	}
	return id ? nicfit_catalog_find_nic(cat, id, NULL, NULL) : NULL;
}

/* Compute slots of the server (the built-in back-end NICs, one a slot). */
int nicfit__plan_builtin_count(const struct nicfit_server *sv)
{
	int i, n = 0;

	for (i = 0; i < sv->nslots; i++)
		n += sv->slots[i].role == NICFIT_SLOT_COMPUTE;
	return n;
}

/*
 * R5, built-in compute NICs are fixed (builtin-nic-fixed): a DGX's
 * compute ConnectX-7s sit in its network modules behind four twin-port
 * OSFP cages (DGX H100 User Guide, Network Modules), a DGX B300's
 * ConnectX-8s on its GPU baseboard, an NVL72 tray's on the tray's own
 * boards: there is no PCIe slot to put another card in. A plan that
 * bought PCIe cards for those positions would list parts no one can
 * install, so the card asked for is refused (critical: the plan as asked
 * cannot be built) and the back end is planned on the built-in NICs.
 * Returns 1 when it refused.
 */
int nicfit__plan_rule_builtin(struct nicfit_plan *p, const struct nicfit_nic *builtin,
			      const struct nicfit_nic *asked)
{
	struct nicfit_finding *f;

	if (!builtin || !asked || asked == builtin)
		return 0;
	f = nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_BUILTIN_NIC_FIXED,
			      "leave out --backend-nic: the plan uses the built-in NICs",
			      "%s is built with %d x %s (%s) as its compute NICs, not in PCIe slots: "
			      "%s cannot replace them. Refused; the back end is planned on the "
			      "built-in NICs.", p->in.server->e.name,
			      nicfit__plan_builtin_count(p->in.server), builtin->part,
			      builtin->family, asked->part);
	if (!f)
		return 1;
	plan_decide(&p->decisions, "R5", 1,
		    "%s refused: %s's compute NICs are built in (%s). Planned on those.",
		    asked->part, p->in.server->e.name, builtin->part);
	return 1;
}

/*
 * R7's default fabric for a server with built-in NVIDIA compute NICs
 * that speak InfiniBand (DGX H100/H200/B200/B300, GB200/GB300 NVL72):
 * InfiniBand, as the systems ship their compute ports (the DGX H100's
 * MCX75310AAS-NEAT "defaults to InfiniBand (NDR)" in its VPD) and as
 * every DGX SuperPOD reference architecture builds the compute fabric.
 * Ethernet (RoCE, Spectrum-X) is NVIDIA's Enterprise RA alternative: it
 * is chosen by --fabric or implied by an Ethernet --switch, never by
 * default. Returns 1 when it applies.
 */
int nicfit__plan_builtin_fabric_ib(const struct nicfit_nic *builtin)
{
	return nicfit_node_kind_builtin_ib(builtin);
}

/*
 * The built-in compute NICs a job leaves idle: the server's fixed back
 * end (nicfit__plan_builtin_nic) when the plan needs none (R2: one
 * server, or every collective inside one NVLink domain). Returns that NIC
 * and sets *per_server to its compute slots, or NULL with 0.
 */
const struct nicfit_nic *nicfit__plan_builtin_idle(const struct nicfit_catalog *cat,
						   const struct nicfit_plan *p, int *per_server)
{
	const struct nicfit_nic *n;

	*per_server = 0;
	if (p->backend_needed || !p->in.server)
		return NULL;
	n = nicfit__plan_builtin_nic(cat, p->in.server);
	if (n)
		*per_server = nicfit__plan_builtin_count(p->in.server);
	return *per_server > 0 ? n : NULL;
}

/*
 * The slots table's rows for idle built-in compute NICs, one a compute
 * slot, after the GPUs: "back-end NIC <part>, built in, unused by this
 * job", as a DGX's or an NVL72 tray's ConnectX are there whether a job
 * uses them or not. Nothing is placed in those slots.
 */
void nicfit__plan_builtin_idle_slots(const struct nicfit_catalog *cat, struct nicfit_plan *p)
{
	const struct nicfit_server *sv = p->in.server;
	const struct nicfit_nic *n;
	int i, k;

	if (!(n = nicfit__plan_builtin_idle(cat, p, &k)))
		return;
	for (i = 0; i < sv->nslots && p->nslots < NICFIT_PLAN_MAX_SLOTS; i++) {
		const struct nicfit_slot *s = &sv->slots[i];
		struct nicfit_plan_slotuse *u;

		if (s->role != NICFIT_SLOT_COMPUTE)
			continue;
		u = &p->slots[p->nslots++];
		nicfit__plan_copy(u->slot, sizeof(u->slot), s->name);
		u->socket = s->socket;
		u->gen = s->gen;
		u->width = s->width;
		plan_fmt(u->what, sizeof(u->what), "back-end NIC %s, built in, unused by this job",
			 n->part);
	}
}
