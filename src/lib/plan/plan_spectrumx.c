/*
 * plan_spectrumx.c - Spectrum-X as the back-end fabric: RoCE v2 on
 * Spectrum-4 800G switches (SN5600, SN5610) with per-packet adaptive
 * routing, which spreads one flow's packets over every path and needs a
 * SuperNIC on every host (BlueField-3 SuperNIC or ConnectX-8) to put them
 * back in order at the RoCE transport. NVIDIA's Enterprise RAs build it
 * so: the HGX H100/H200/B200 compute fabric "through their respective
 * BlueField-3 B3140H SuperNICs", the GB300 NVL72 one through ConnectX-8,
 * and the DGX SuperPOD B300 on Spectrum-X in two planes, 2 x 400GbE a GPU
 * (https://docs.nvidia.com/enterprise-reference-architectures/hgx-ai-factory-h100-h200-b200/latest/networking-physical-topologies.html,
 * https://docs.nvidia.com/dgx-superpod/reference-architecture/scalable-infrastructure-b300/latest/network-fabrics.html).
 * With a plain ConnectX-7 the same switches carry RoCE v2 routed by ECMP,
 * and the plan says so rather than promise adaptive routing.
 *
 * --fabric spectrum-x asks for it (R5 then chooses among SuperNICs); a
 * Spectrum-4 800G --switch with SuperNICs implies it.
 */
#include <string.h>

#include "plan/plan_int.h"

/* A card R5 may choose: any that runs the fabric, and only SuperNICs for Spectrum-X. */
int nicfit__plan_spectrum_x_ok(const struct nicfit_plan *p, const struct nicfit_nic *n)
{
	return !p->in.spectrum_x || n->supernic;
}

/* A Spectrum-4 800G switch: the leaf and spine of Spectrum-X. */
static int spectrum4_800g(const struct nicfit_switch *s)
{
	return s && s->fabric && !strcmp(s->fabric, "ethernet") && s->e.name &&
	       strstr(s->e.name, "Spectrum-4") && s->port_gbps >= 800;
}

/*
 * R7, Spectrum-X (spectrum-x-needs-supernic, spectrum-x-switch): asked
 * with a NIC that is no SuperNIC (a DGX H100's built-in ConnectX-7, or a
 * card asked for), the fabric is ECMP RoCE, a warning; asked with a
 * switch that is no Spectrum-4 800G, a warning; and when it is Spectrum-X
 * (asked or implied) R7 lists what it takes.
 */
void nicfit__plan_rule_spectrum_x(struct nicfit_plan *p)
{
	const struct nicfit_plan_input *in = &p->in;
	const struct nicfit_nic *n = p->be_nic;
	struct nicfit_finding *f;
	int sx4 = spectrum4_800g(in->sw), fixed;

	if (!p->backend_needed || !n || p->fabric != NICFIT_FABRIC_ROCE)
		return;
	/* a card built into the server (plan_builtin.c), or one asked for: not R5's to change */
	fixed = in->backend_nic || (p->be_slots[0] >= 0 && in->server->slots[p->be_slots[0]].included);
	if (in->spectrum_x && !n->supernic) {
		f = nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_SPECTRUM_X_NEEDS_SUPERNIC,
				      NULL, "Spectrum-X asked, but %s (%s) is no SuperNIC: per-packet "
				      "adaptive routing needs one on every host to put packets back in "
				      "order, so this fabric runs RoCE v2 with ECMP.", n->part, n->family);
		if (f && nicfit__finding_fix(&p->findings, f, "%s", fixed ?
					     "a server or card with SuperNICs (BlueField-3 SuperNIC, "
					     "ConnectX-8), or --fabric roce" :
					     "add a SuperNIC that fits this server to the catalog "
					     "(--catalog), or --fabric roce"))
			return;
	}
	if (in->spectrum_x && in->sw && !sx4)
		nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_SPECTRUM_X_SWITCH,
				  "--switch sn5600 or sn5610",
				  "Spectrum-X asked, but %s is no Spectrum-4 800G switch: its leaves and "
				  "spines are SN5600 or SN5610.", in->sw->e.name);
	p->spectrum_x = n->supernic && (in->spectrum_x || sx4);
	if (p->spectrum_x)
		plan_decide(&p->decisions, "R7", 1,
			    "Spectrum-X%s: RoCE v2 with per-packet adaptive routing on Spectrum-4 "
			    "800G leaves and spines (SN5600, SN5610), %s on every host to reorder, "
			    "lossless settings as for RoCE (PFC, ECN), and two planes where NVIDIA's "
			    "RAs split a GPU's 800G into 2 x 400GbE (DGX SuperPOD B300).",
			    in->spectrum_x ? "" : " (a Spectrum-4 800G switch with SuperNICs)", n->part);
	else if (sx4)
		plan_decide(&p->decisions, "R7", 1,
			    "RoCE v2 on %s with %s, no SuperNIC: routed by ECMP; Spectrum-X's "
			    "per-packet adaptive routing needs a SuperNIC on every host.",
			    in->sw->e.id, n->part);
}
