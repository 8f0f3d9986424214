/*
 * plan_slot.c - a card and a slot, as R5 and R6 weigh them: whether a card
 * fits a slot (its bracket, length, width and connector), what it moves
 * there, and the PCIe path between two slots of the server's map. It
 * places nothing: the search (plan_search.c) and the placement
 * (plan_place.c) ask it.
 */
#include <string.h>

#include "plan/plan_int.h"

/* 2 for a full-height, full-length card ("pcie-fhfl"), 1 full height only ("pcie-fhhl"), else 0 */
static int card_size(const struct nicfit_nic *n)
{
	const char *form = n ? n->form_factor : NULL;

	if (!form || form[0] != 'p' || strncmp(form, "pcie-fh", 7))
		return 0;
	return form[7] == 'f' ? 2 : 1;
}

int nicfit__plan_card_fits_slot(const struct nicfit_card *c, const struct nicfit_nic *n,
				const struct nicfit_slot *s)
{
	const char *form = n ? n->form_factor : NULL;
	int ocp = form && form[0] == 'o' && !strncmp(form, "ocp", 3), size;
	const char *k = s->kind;

	/* the first letter first: this runs for every slot of every search */
	if (ocp != (k && k[0] == 'o' && !strncmp(k, "ocp", 3)))
		return 0;
	if (k && ((k[0] == 'n' && !strcmp(k, "ndc")) || (k[0] == 'f' && !strcmp(k, "flexlom")) ||
		  (k[0] == 'b' && !strcmp(k, "baseboard"))))
		return 0;
	/* a full-height card ("pcie-fhhl", "pcie-fhfl") has no low-profile bracket */
	size = card_size(n);
	if ((size >= 1 && !s->full_height) || (size == 2 && !s->full_length))
		return 0;
	/*
	 * A dual-slot card needs the room of a double-width card (a slot that
	 * takes a double-width GPU, or one the catalog says has room), or the
	 * slot its vendor ships it in.
	 */
	if (n && n->double_width && !s->double_room &&
	    !(s->included && n->e.id && !strcmp(s->included, n->e.id)))
		return 0;
	return c->pcie_width <= (s->connector_width ? s->connector_width : s->width);
}

const char *nicfit__plan_form_words(const struct nicfit_nic *n)
{
	static const char *const words[2][3] = {
		{ "", ", full height", ", full height, full length" },
		{ ", double width", ", full height, double width",
		  ", full height, full length, double width" },
	};

	return words[n && n->double_width][card_size(n)];
}

/* What card c moves in slot s alone, with ports of its ports cabled (out: the whole fit, or NULL). */
double nicfit__plan_one_slot(const struct nicfit_plan *p, const struct nicfit_card *c,
			     const struct nicfit_slot *s, int ports, struct nicfit_nic_fit *out)
{
	struct nicfit_nic_fit f;
	enum nicfit_proto proto = p->fabric == NICFIT_FABRIC_IB && c->ib_rate ?
				  NICFIT_PROTO_IB : NICFIT_PROTO_ROCE;

	if (nicfit_calc_nic(c, s->gen, s->width, ports, proto, &p->in.pcie, &p->in.link, &f, NULL))
		return 0;
	if (out)
		*out = f;
	return f.effective_gbps;
}

/* The switch switch w's upstream port hangs off, -1 for a CPU root port. */
static int switch_up(const struct nicfit_server *sv, int w)
{
	int u = w >= 0 && w < sv->nswitches ? sv->switches[w].upstream - 1 : -1;

	return u < sv->nswitches ? u : -1;
}

/*
 * The switch at the top of switch w's cascade, the one on a CPU root
 * port (w itself when not cascaded). The walk is bounded by the switch
 * count: a loop, which catalog check refuses, ends where it began.
 */
static int switch_top(const struct nicfit_server *sv, int w)
{
	int k, u;

	for (k = 0; k < sv->nswitches && (u = switch_up(sv, w)) >= 0; k++)
		w = u;
	return w;
}

/*
 * The path class between two slots, as NCCL and nvidia-smi topo -m name
 * it: SYS across sockets; PIX through one switch (both on it); PXB
 * through several switches joined below the CPU (one cascaded below the
 * other, or both below a third: the top switch of their cascades is the
 * same); else PHB, through the CPU's host bridge.
 */
enum nicfit_path nicfit__plan_switch_path(const struct nicfit_server *sv, int sock_a, int sw_a,
					  int sock_b, int sw_b)
{
	if (sock_a != sock_b)
		return NICFIT_PATH_SYS;
	if (sw_a < 0 || sw_b < 0)
		return NICFIT_PATH_PHB;
	if (sw_a == sw_b)
		return NICFIT_PATH_PIX;
	return switch_top(sv, sw_a) == switch_top(sv, sw_b) ? NICFIT_PATH_PXB : NICFIT_PATH_PHB;
}

enum nicfit_path nicfit__plan_path(const struct nicfit_server *sv, int a, int b)
{
	const struct nicfit_slot *x = &sv->slots[a], *y = &sv->slots[b];

	return nicfit__plan_switch_path(sv, x->socket, x->pcie_switch, y->socket, y->pcie_switch);
}

/*
 * The narrowest link from switch w up to the CPU: its upstream link and,
 * in a cascade, those of the switches above it (what every switch on the
 * way shares to the CPU); by bandwidth, lanes times the generation's
 * rate (GT/s). 0 when w is no switch.
 */
int nicfit__plan_switch_uplink(const struct nicfit_server *sv, int w, int *gen, int *width)
{
	int k, best = -1;
	double bw = 0;

	for (k = 0; w >= 0 && w < sv->nswitches && k <= sv->nswitches; k++) {
		const struct nicfit_pcie_switch *s = &sv->switches[w];
		double b = s->width * nicfit_pcie_gts(s->gen);

		if (best < 0 || b < bw) {
			best = w;
			bw = b;
		}
		w = switch_up(sv, w);
	}
	if (best < 0)
		return 0;
	*gen = sv->switches[best].gen;
	*width = sv->switches[best].width;
	return 1;
}

int nicfit__plan_role_slots(const struct nicfit_server *sv, enum nicfit_slot_role r)
{
	int i, n = 0;

	for (i = 0; i < sv->nslots; i++)
		n += sv->slots[i].role == r;
	return n;
}

int nicfit__plan_slot_listed(const char *list, const char *name)
{
	size_t n = name ? strlen(name) : 0;
	const char *s = list;

	while (s && n) {
		const char *e = strchr(s, ',');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (len == n && !memcmp(s, name, n))
			return 1;
		s = e ? e + 1 : NULL;
	}
	return 0;
}
