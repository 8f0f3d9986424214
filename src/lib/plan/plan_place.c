/*
 * plan_place.c - R6: where the GPUs and the back-end cards go, once the
 * search (plan_search.c) has found it: the slots recorded in the plan, the
 * decisions that say where and why, and the rules on the placement
 * (cards across sockets, GPUDirect RDMA reach, Socket Direct's two slots,
 * slots that hold a host's card). Which card to place is R5
 * (plan_backend.c).
 */
#include <string.h>
#include <strings.h>

#include "nicfit/buf.h"
#include "plan/plan_int.h"

const char *nicfit__plan_sock_name(const struct nicfit_server *s, int socket, char *b, size_t n)
{
	struct plan_str t;
	const char *in = NULL;
	int c = s->vendor ? s->vendor[0] | 0x20 : 0;

	/* the first letter first: a plan names a socket a dozen times, most often not a Dell's or an HP's */
	if (c == 'd' && !strcasecmp(s->vendor, "Dell"))
		in = " (CPU";
	else if (c == 'h' && (!strcasecmp(s->vendor, "HPE") || !strcasecmp(s->vendor, "HP")))
		in = " (processor ";
	/* "socket %d", then " (CPU%d)" or " (processor %d)" with socket + 1 */
	nicfit__plan_str_init(&t, b, n);
	nicfit__plan_str_add(&t, "socket ");
	nicfit__plan_str_int(&t, socket);
	if (in) {
		nicfit__plan_str_add(&t, in);
		nicfit__plan_str_int(&t, (long)socket + 1);
		nicfit__plan_str_add(&t, ")");
	}
	return b;
}

/*
 * "GPU 0 in slot 1 (socket 0), GPU 1 in slot 3 (socket 1)": written into
 * d (n bytes) piece by piece, without a format to read or a buffer to
 * grow, and d returned; a list longer than that (slot names are the
 * catalog's) is written into b instead (initialised by the caller), and
 * b's text returned.
 */
static const char *gpu_list(const struct nicfit_server *sv, const struct plan_choice *c,
			    char *d, size_t n, struct nicfit_buf *b)
{
	struct plan_str t;
	char sock[40];
	int i;

	nicfit__plan_str_init(&t, d, n);
	for (i = 0; i < c->ngpu_placed; i++) {
		const struct nicfit_slot *s = &sv->slots[c->gpu_slots[i]];

		if (i)
			nicfit__plan_str_add(&t, ", ");
		nicfit__plan_str_add(&t, "GPU ");
		nicfit__plan_str_int(&t, i);
		nicfit__plan_str_add(&t, " in slot ");
		nicfit__plan_str_add(&t, s->name);
		nicfit__plan_str_add(&t, " (");
		nicfit__plan_str_add(&t, nicfit__plan_sock_name(sv, s->socket, sock, sizeof(sock)));
		nicfit__plan_str_add(&t, ")");
	}
	if (t.len + 1 < n)
		return d;
	for (i = 0; i < c->ngpu_placed; i++) {
		const struct nicfit_slot *s = &sv->slots[c->gpu_slots[i]];

		nicfit_buf_addf(b, "%sGPU %d in slot %s (%s)", i ? ", " : "", i, s->name,
				nicfit__plan_sock_name(sv, s->socket, sock, sizeof(sock)));
	}
	return b->data;
}

static const char *gpu_slot_kind(const struct nicfit_gpu *g)
{
	return g->baseboard ? "baseboard positions" : g->double_width ? "double-width GPU slots" :
	       "single-width GPU slots";
}

void nicfit__plan_record_slots(struct nicfit_plan *p, const struct plan_choice *c)
{
	const struct nicfit_server *sv = p->in.server;
	struct plan_str w;
	int i;

	p->nslots = 0;
	for (i = 0; i < NICFIT_PLAN_MAX_GPUS; i++)
		p->gpu_slots[i] = -1;
	for (i = 0; i < NICFIT_PLAN_MAX_CARDS; i++)
		p->be_slots[i] = p->be_aux_slots[i] = -1;
	p->be_sd_links = 1;
	for (i = 0; i < c->ngpu_placed && p->nslots < NICFIT_PLAN_MAX_SLOTS; i++) {
		const struct nicfit_slot *s = &sv->slots[c->gpu_slots[i]];
		struct nicfit_plan_slotuse *u = &p->slots[p->nslots++];

		p->gpu_slots[i] = c->gpu_slots[i];
		nicfit__plan_copy(u->slot, sizeof(u->slot), s->name);
		u->socket = s->socket;
		u->gen = s->gen;
		u->width = s->width;
		nicfit__plan_str_init(&w, u->what, sizeof(u->what));
		nicfit__plan_str_add(&w, "GPU ");
		nicfit__plan_str_int(&w, i);
		nicfit__plan_str_add(&w, " (");
		nicfit__plan_str_add(&w, p->in.gpu->e.name);
		nicfit__plan_str_add(&w, ")");
	}
	for (i = 0; i < NICFIT_PLAN_MAX_GPUS; i++) {
		p->pair_card[i] = p->pair_slot[i] = -1;
		p->pair_path[i] = NICFIT_PATH_SYS;
	}
	if (!p->backend_needed)
		return;
	p->gpus_near = c->near;
	for (i = 0; i < c->ngpu_placed; i++) {
		p->pair_card[i] = c->pair_card[i];
		p->pair_slot[i] = c->pair_slot[i];
		p->pair_path[i] = c->pair_path[i];
	}
	if (c->sd_links > 1)
		p->be_sd_links = c->sd_links;
	for (i = 0; i < p->be_cards && p->nslots < NICFIT_PLAN_MAX_SLOTS; i++) {
		const struct nicfit_slot *s = &sv->slots[c->nic_slots[i]];
		struct nicfit_plan_slotuse *u = &p->slots[p->nslots++];

		p->be_slots[i] = c->nic_slots[i];
		nicfit__plan_copy(u->slot, sizeof(u->slot), s->name);
		u->socket = s->socket;
		u->gen = s->gen;
		u->width = s->width;
		nicfit__plan_str_init(&w, u->what, sizeof(u->what));
		nicfit__plan_str_add(&w, "back-end NIC ");
		nicfit__plan_str_add(&w, p->be_part);
	}
	for (i = 0; c->sd_links > 1 && i < p->be_cards && p->nslots < NICFIT_PLAN_MAX_SLOTS; i++) {
		const struct nicfit_slot *s;
		struct nicfit_plan_slotuse *u;

		if (c->aux_slots[i] < 0)
			continue;
		s = &sv->slots[c->aux_slots[i]];
		u = &p->slots[p->nslots++];
		p->be_aux_slots[i] = c->aux_slots[i];
		nicfit__plan_copy(u->slot, sizeof(u->slot), s->name);
		u->socket = s->socket;
		u->gen = s->gen;
		u->width = s->width;
		plan_fmt(u->what, sizeof(u->what), "back-end NIC %s, Socket Direct auxiliary card",
			 p->be_part);
	}
}

/* Does the server carry GPUs on a baseboard (positions no PCIe GPU can take)? */
static int baseboard_positions(const struct nicfit_server *sv)
{
	int i, n = 0;

	for (i = 0; i < sv->nslots; i++)
		n += sv->slots[i].gpu == NICFIT_GPU_BASEBOARD;
	return n;
}

/*
 * R6, too-many-gpus: the server holds only room of the GPUs asked for,
 * whatever else goes in it. A PCIe GPU in a baseboard server (a DGX has
 * no slot for one) and a baseboard GPU in a PCIe server are said as such,
 * not as a count of slots.
 */
void nicfit__plan_find_gpu_room(struct nicfit_plan *p, int room)
{
	const struct nicfit_server *sv = p->in.server;
	const struct nicfit_gpu *g = p->in.gpu;
	int bb = baseboard_positions(sv);

	if (!room && bb && !g->baseboard) {
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_TOO_MANY_GPUS,
				  "leave out --gpu (the baseboard's GPUs are the default), or a server "
				  "with PCIe GPU slots",
				  "%s carries its GPUs on a baseboard (%d positions%s%s): it has no slot "
				  "for a PCIe GPU such as the %s.", sv->e.name, bb,
				  sv->baseboard_gpu ? ", --gpu " : "", sv->baseboard_gpu ? sv->baseboard_gpu : "",
				  g->e.name);
		return;
	}
	if (!room && g->baseboard) {
		nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_TOO_MANY_GPUS,
				  "a PCIe GPU, or a server with a GPU baseboard (nicfit catalog list "
				  "servers)",
				  "%s has no GPU baseboard: the %s is a baseboard module, not a PCIe card.",
				  sv->e.name, g->e.name);
		return;
	}
	nicfit__plan_find(p, NICFIT_SEV_CRITICAL, NICFIT_CODE_TOO_MANY_GPUS,
			  g->baseboard ? "fewer GPUs per server (--gpus-per-server), or another server" :
			  g->double_width ? "fewer GPUs per server (--gpus-per-server), single-width "
			  "GPUs, or another server" :
			  "fewer GPUs per server (--gpus-per-server), or another server",
			  "%s has room for %d %s GPU%s (%d asked), whatever else it holds.", sv->e.name,
			  room, g->baseboard ? "baseboard" : g->double_width ? "double-width" :
			  "single-width", room == 1 ? "" : "s", p->in.gpus_per_server);
}

/*
 * R6, baseboard-partly-filled: an HGX or DGX baseboard (or a rack-scale
 * tray) is built, sold and cooled with every position filled; a plan for
 * fewer of its GPUs sizes the network for a machine that does not exist.
 */
void nicfit__plan_find_baseboard_count(struct nicfit_plan *p)
{
	const struct nicfit_server *sv = p->in.server;
	const struct nicfit_gpu *g = p->in.gpu;
	int bb = baseboard_positions(sv);

	if (!g || !g->baseboard || !bb || p->in.gpus_per_server < 1 || p->in.gpus_per_server >= bb)
		return;
	nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_BASEBOARD_PARTLY_FILLED,
			  "plan the baseboard's GPUs (leave out --gpus-per-server)",
			  "%s carries %d %s on its baseboard and comes with all of them; the plan "
			  "has %d per server, so its network is sized for %d, not %d.", sv->e.name, bb,
			  g->e.name, p->in.gpus_per_server, p->in.gpus_per_server, bb);
}

/*
 * R6 without a back end: the GPUs still take GPU-capable slots (double-
 * width GPUs double-width slots), preferably on one socket; a server with
 * fewer such slots than GPUs cannot hold the request (critical).
 */
void nicfit__plan_place_gpus_only(struct nicfit_plan *p)
{
	struct plan_choice c;
	struct nicfit_buf gp;
	char gl[2048];

	if (!p->in.gpu || p->in.gpus_per_server < 1)
		return;
	if (nicfit__plan_search_gpus(p, &c) < 0) {
		p->findings.oom = 1;
		return;
	}
	nicfit__plan_record_slots(p, &c);
	if (c.ngpu_placed) {
		nicfit_buf_init(&gp, 0);
		plan_decide(&p->decisions, "R6", 1, "GPUs in %s: %s%s.",
			    gpu_slot_kind(p->in.gpu),
			    gpu_list(p->in.server, &c, gl, sizeof(gl), &gp),
			    c.ngpu_placed > 1 && c.gpu_sockets == 1 ?
			    " - all on one socket, so GPU-to-GPU traffic stays under one CPU" : "");
		if (nicfit_buf_error(&gp))
			p->decisions.oom = 1;
		nicfit_buf_release(&gp);
	}
	if (c.ngpu_placed < p->in.gpus_per_server)
		nicfit__plan_find_gpu_room(p, c.ngpu_placed);
}

/* Does slot i hold a GPU or a card of placement c? */
static int slot_taken(const struct nicfit_plan *p, const struct plan_choice *c, int i)
{
	int j;

	for (j = 0; j < c->ngpu_placed; j++)
		if (c->gpu_slots[j] == i)
			return 1;
	for (j = 0; j < p->be_cards; j++)
		if (c->nic_slots[j] == i || (c->sd_links > 1 && c->aux_slots[j] == i))
			return 1;
	return 0;
}

/* Has socket s a back-end card of placement c? */
static int socket_has_card(const struct nicfit_plan *p, const struct plan_choice *c, int s)
{
	int j;

	for (j = 0; j < p->be_cards; j++)
		if (p->in.server->slots[c->nic_slots[j]].socket == s ||
		    (c->sd_links > 1 && c->aux_slots[j] >= 0 &&
		     p->in.server->slots[c->aux_slots[j]].socket == s))
			return 1;
	return 0;
}

/*
 * A free slot where one more card would sit on a socket whose GPUs have
 * none, and move PLAN_FULL_SPEED_SHARE of what the plan's card does; -1
 * if there is none.
 */
static int slot_for_second_card(const struct nicfit_plan *p, const struct plan_choice *c)
{
	const struct nicfit_server *sv = p->in.server;
	int i, j, other = -1;

	for (i = 0; i < sv->nslots && other < 0; i++) {
		if (slot_taken(p, c, i) ||
		    !nicfit__plan_card_fits_slot(&p->be_card, p->be_nic,
				    &sv->slots[i]))
			continue;
		for (j = 0; j < c->ngpu_placed; j++) {
			int gs = sv->slots[c->gpu_slots[j]].socket;

			if (!socket_has_card(p, c, gs) && sv->slots[i].socket == gs &&
			    nicfit__plan_card_in_slot(p, &p->be_card, &sv->slots[i], 1, NULL) >=
			    p->be_effective_gbps * PLAN_FULL_SPEED_SHARE)
				other = i;
		}
	}
	return other;
}

/*
 * R6, GPUs on another socket than any back-end card (docs/rules.md,
 * gpu-nic-cross-socket): their GPUDirect RDMA traffic crosses the CPUs'
 * interconnect (path SYS), where NCCL does not use GPUDirect RDMA and the
 * bandwidth drops, so it is a warning. The fix is a second card on that
 * socket when a free slot there can feed it at full speed, otherwise a
 * server (or a job layout) that keeps GPUs and card together.
 */
static void rule_cross_socket(struct nicfit_plan *p, const struct plan_choice *c)
{
	const struct nicfit_server *sv = p->in.server;
	struct nicfit_finding *f;
	char sock[40];
	int i, nonlocal = 0, other;

	for (i = 0; i < c->ngpu_placed; i++)
		nonlocal += !socket_has_card(p, c, sv->slots[c->gpu_slots[i]].socket);
	if (!nonlocal || !c->ngpu_placed)
		return;
	other = slot_for_second_card(p, c);
	f = nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_GPU_NIC_CROSS_SOCKET,
			      other >= 0 ? NULL : "choose a server with a free x16 slot on each GPU "
			      "socket, or keep the GPUs of one job on one socket",
			      "%d of %d GPUs sit on another socket than the back-end card: their GPUDirect "
			      "RDMA traffic crosses the inter-socket link (path SYS), where %s does not use "
			      "GPUDirect RDMA and bandwidth drops.%s",
			      nonlocal, c->ngpu_placed, nicfit__plan_stack(p)->ccl,
			      other >= 0 ? "" : " No free slot on that socket can feed the card at full speed.");
	if (f && other >= 0)
		nicfit__finding_fix(&p->findings, f,
				    "add a second %s in slot %s (%s): one back-end card per GPU "
				    "socket (--backend-cards %d) keeps every GPU local and doubles "
				    "the node's back-end bandwidth",
				    p->be_part, sv->slots[other].name,
				    nicfit__plan_sock_name(sv, sv->slots[other].socket, sock, sizeof(sock)),
				    p->be_cards + 1);
}

/*
 * R6, GPU and card on one socket but separate root ports (gdr-level): the
 * PCIe path between them is PHB (or NODE on AMD EPYC), and NCCL uses
 * GPUDirect RDMA by default only up to PXB, a shared PCIe switch
 * (ncclTopoCheckGdr, src/graph/paths.cc); RCCL, NCCL's fork for AMD GPUs,
 * keeps that default. The level must be allowed explicitly for those
 * pairs: NCCL documents NCCL_NET_GDR_LEVEL for it, RCCL's documentation
 * names no such variable, so an AMD plan is told to move the card instead.
 * Only where some planned pair is PHB or NODE: a GPU under the same switch
 * as its card (PIX/PXB) needs nothing, and a SYS pair is
 * gpu-nic-cross-socket's. Advice, an info.
 */
static void rule_gdr_level(struct nicfit_plan *p, const struct plan_choice *c)
{
	const struct nicfit__gpu_stack *st = nicfit__plan_stack(p);
	struct nicfit_finding *f;
	int i, mid = 0;

	for (i = 0; i < c->ngpu_placed; i++)
		mid += c->pair_card[i] >= 0 && (c->pair_path[i] == NICFIT_PATH_PHB ||
						c->pair_path[i] == NICFIT_PATH_NODE);
	if (!mid)
		return;
	if (st->gdr_level)
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_GDR_LEVEL,
				  "export NCCL_NET_GDR_LEVEL=PHB when GPU and NIC share a socket (NCCL has no "
				  "NODE level: two host bridges of one NUMA node are PHB to it, on AMD EPYC too); "
				  "check with NCCL_DEBUG=INFO that the log says 'GPU Direct RDMA Enabled'",
				  "GPU and back-end card sit on separate root ports of the same socket (path PHB or "
				  "NODE, no PCIe switch between them). NCCL uses GPUDirect RDMA by default only up to "
				  "PXB (a shared PCIe switch), so on this server it must be allowed explicitly.");
	else if ((f = nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_GDR_LEVEL, NULL,
					"GPU and back-end card sit on separate root ports of the same "
					"socket (path PHB or NODE, no PCIe switch between them). %s uses "
					"GPUDirect RDMA by default only up to PXB (a shared PCIe switch), "
					"and its documentation names no setting to widen that.", st->ccl)))
		nicfit__finding_fix(&p->findings, f, "put each back-end card under its GPU's PCIe "
				    "switch where the server has one; check that %s", st->gdr_log ?
				    st->gdr_log : "the library's log shows GPUDirect RDMA in use");
}

/*
 * R6, a Socket Direct card (docs/rules.md): its main card and its
 * auxiliary card (the harness between them carries the second PCIe link)
 * go in two slots on two CPU sockets, so each socket reaches the network
 * over its own x16 link and the card moves what both links carry: NVIDIA
 * sells MCX654106A-HCAT as the way to HDR 200Gb/s in Gen3 servers, whose
 * one x16 link carries about 103 Gb/s. With no free slot on another
 * socket only the main card's link is counted: a warning, since the plan
 * then buys a card for a speed it cannot reach.
 */
static void rule_socket_direct(struct nicfit_plan *p, const struct plan_choice *c)
{
	const struct nicfit_server *sv = p->in.server;
	char s1[40], s2[40];
	int j;

	if (c->sd_links < 2)
		return;
	for (j = 0; j < p->be_cards; j++) {
		const struct nicfit_slot *m = &sv->slots[c->nic_slots[j]];
		const struct nicfit_slot *a = c->aux_slots[j] >= 0 ? &sv->slots[c->aux_slots[j]] : NULL;
		struct nicfit_nic_fit fm, fa;
		struct nicfit_card half;

		memset(&fm, 0, sizeof(fm));
		memset(&fa, 0, sizeof(fa));
		nicfit__plan_sd_half(&p->be_card, nicfit__plan_sd_nic(p, &p->be_card), &half);
		nicfit__plan_one_slot(p, &half, m, 1, &fm);
		if (!a) {
			nicfit__plan_find(p, NICFIT_SEV_WARNING, NICFIT_CODE_SOCKET_DIRECT_ONE_SLOT,
					  "a server with a free x16 slot on each CPU socket, or a single-slot "
					  "card for this server's PCIe generation",
					  "%s is a Socket Direct card (two PCIe x%d links, one per CPU socket) but "
					  "%s has no free slot on another socket for its auxiliary card: with the "
					  "main card alone in slot %s (%s) only its PCIe Gen%d x%d link is counted, "
					  "%.1f Gb/s.", p->be_part, half.pcie_width, sv->e.name, m->name,
					  nicfit__plan_sock_name(sv, m->socket, s1, sizeof(s1)), fm.link_gen, fm.link_width,
					  fm.pcie_gbps);
			continue;
		}
		nicfit__plan_one_slot(p, &half, a, 1, &fa);
		plan_decide(&p->decisions, "R6", 1,
			    "Socket Direct: %s's main card in slot %s (%s) and its auxiliary card in "
			    "slot %s (%s), joined by the harness: PCIe Gen%d x%d + Gen%d x%d = "
			    "%.1f + %.1f = %.1f Gb/s usable, each socket on its own link.", p->be_part,
			    m->name, nicfit__plan_sock_name(sv, m->socket, s1, sizeof(s1)), a->name,
			    nicfit__plan_sock_name(sv, a->socket, s2, sizeof(s2)), fm.link_gen, fm.link_width,
			    fa.link_gen, fa.link_width, fm.pcie_gbps, fa.pcie_gbps,
			    fm.pcie_gbps + fa.pcie_gbps);
	}
}

void nicfit__plan_describe_placement(struct nicfit_plan *p, const struct plan_choice *c)
{
	const struct nicfit_server *sv = p->in.server;
	struct nicfit_buf gp;
	char sock[40], gl[2048];
	int i, j;

	if (c->ngpu_placed) {
		nicfit_buf_init(&gp, 0);
		plan_decide(&p->decisions, "R6", 1,
			    "GPUs take their slots first (%s): %s.", gpu_slot_kind(p->in.gpu),
			    gpu_list(sv, c, gl, sizeof(gl), &gp));
		if (nicfit_buf_error(&gp))
			p->decisions.oom = 1;
		nicfit_buf_release(&gp);
	}
	for (j = 0; j < p->be_cards; j++) {
		const struct nicfit_slot *s = &sv->slots[c->nic_slots[j]];
		int local = 0, near = -1;

		for (i = 0; i < c->ngpu_placed; i++) {
			int gs = sv->slots[c->gpu_slots[i]].socket;

			local += gs == s->socket || (c->sd_links > 1 && c->aux_slots[j] >= 0 &&
						     gs == sv->slots[c->aux_slots[j]].socket);
			/* the nearest GPU on it: PIX before PXB (a cascade) */
			if (c->pair_card[i] == j && c->pair_path[i] <= NICFIT_PATH_PXB &&
			    (near < 0 || c->pair_path[i] < c->pair_path[near]))
				near = i;
		}
		if (near >= 0) {
			plan_decide(&p->decisions, "R6", 1,
				    "Back-end card %d in slot %s: PCIe Gen%d x%d, %s, under the %s "
				    "of GPU %d (slot %s, path %s), so its GPUDirect RDMA "
				    "traffic never reaches the CPU.", j, s->name, s->gen, s->width,
				    nicfit__plan_sock_name(sv, s->socket, sock, sizeof(sock)),
				    c->pair_path[near] == NICFIT_PATH_PIX ? "PCIe switch" :
				    "cascade of PCIe switches", near,
				    sv->slots[c->gpu_slots[near]].name,
				    nicfit_path_name(c->pair_path[near]));
			continue;
		}
		plan_decide(&p->decisions, "R6", 1,
			    "Back-end card%s in slot %s: PCIe Gen%d x%d, %s, %s%s.",
			    p->be_cards > 1 ? " (one of several)" : "", s->name, s->gen, s->width,
			    s->full_height ? "full height" : "low profile",
			    nicfit__plan_sock_name(sv, s->socket, sock, sizeof(sock)),
			    c->ngpu_placed == 0 ? "" : local == c->ngpu_placed ?
			    (c->sd_links > 1 && c->aux_slots[j] >= 0 ?
				" - with its auxiliary card, a half on every GPU's socket, so GPUDirect "
				"RDMA traffic stays off the inter-socket link" :
				" - the same socket as every GPU, so GPUDirect RDMA traffic stays off the "
				"inter-socket link") : local ? " - the same socket as some of the GPUs" :
			    " - no GPU on this socket");
	}
	rule_socket_direct(p, c);
	rule_cross_socket(p, c);
	rule_gdr_level(p, c);
}

/*
 * 1 when slot use u is the card the host already has in that slot, or a
 * built-in NIC the job leaves idle (plan_builtin.c: nothing is put there).
 */
static int installed_use(const struct nicfit_plan *p, const struct nicfit_plan_slotuse *u)
{
	const struct nicfit_plan_input *in = &p->in;

	if (strstr(u->what, ", built in, unused"))
		return 1;

	if (!strncmp(u->what, "front-end", 9))
		return p->fe_installed && p->fe_slot >= 0 &&
		       !strcmp(in->server->slots[p->fe_slot].name, u->slot);
	if (!strncmp(u->what, "back-end", 8))
		return in->installed_cards > 0 && nicfit__plan_slot_listed(in->installed_slot, u->slot);
	return 0;
}

/*
 * R6, slot-holds-card: a server read from a host (plan --from-host) says
 * what each slot holds now; a GPU or card the plan puts in a slot that
 * holds another card means taking that card out, which the plan says
 * rather than leave to the bill of materials (a note: the card may be
 * spare, or the one the plan should have used had its part been known).
 */
void nicfit__plan_rule_slot_holds(struct nicfit_plan *p)
{
	const struct nicfit_server *sv = p->in.server;
	int k, i;

	for (k = 0; k < p->nslots; k++) {
		const struct nicfit_plan_slotuse *u = &p->slots[k];

		for (i = 0; i < sv->nslots && (!sv->slots[i].name ||
					       strcmp(sv->slots[i].name, u->slot)); i++)
			;
		if (i == sv->nslots || !sv->slots[i].holds || installed_use(p, u))
			continue;
		plan_decide(&p->decisions, "R6", 1, "Slot %s holds %s now: the plan puts %s there "
			    "in its place.", u->slot, sv->slots[i].holds, u->what);
		nicfit__plan_find(p, NICFIT_SEV_INFO, NICFIT_CODE_SLOT_HOLDS_CARD,
				      "take it out for the plan's card, or, if it is the card the plan "
				      "needs, plan with it: --backend-nic PART (or --frontend-nic PART) "
				      "with its part number",
				      "Slot %s holds %s; the plan puts %s there.", u->slot,
				      sv->slots[i].holds, u->what);
	}
}

/* 1 when the plan put nothing in slot i (no GPU, back-end card or storage card). */
static int slot_free(const struct nicfit_plan *p, int i)
{
	int j;

	for (j = 0; j < NICFIT_PLAN_MAX_GPUS; j++)
		if (p->gpu_slots[j] == i)
			return 0;
	for (j = 0; j < NICFIT_PLAN_MAX_CARDS; j++)
		if (p->be_slots[j] == i || p->be_aux_slots[j] == i)
			return 0;
	for (j = 0; j < p->st_cards && j < NICFIT_PLAN_MAX_STORAGE; j++)
		if (p->st_slots[j] == i)
			return 0;
	return 1;
}

/* 1 when catalog card n fits a slot of the server that plan p left free. */
static int fits_free_slot(const struct nicfit_plan *p, const struct nicfit_nic *n)
{
	const struct nicfit_server *sv = p->in.server;
	struct nicfit_card c;
	int i;

	memset(&c, 0, sizeof(c));
	c.pcie_width = n->pcie_width;
	for (i = 0; i < sv->nslots; i++)
		if (slot_free(p, i) && sv->slots[i].gpu != NICFIT_GPU_BASEBOARD &&
		    nicfit__plan_card_fits_slot(&c, n, &sv->slots[i]))
			return 1;
	return 0;
}

/*
 * R6, the front end in the OCP slot (docs/rules.md): when R3 chose the
 * front-end card itself (no --frontend-nic, no --frontend-slot, no onboard
 * port fast enough) and the GPUs and back-end cards left it no PCIe slot
 * (frontend-no-slot), a server with a free OCP NIC 3.0 slot takes the
 * front end there, as Dell, HPE and Lenovo build their GPU servers: the
 * OCP slot is the network slot the PCIe slots do not give up. The card is
 * the cheapest sourced front-end OCP card of the catalog that fits the
 * free slot (the first listed when none is priced), at R3's 10GbE
 * minimum or faster. Returns it for the plan to be made again with it
 * (p->fe_ocp), or NULL: the plan stands.
 */
const struct nicfit_nic *nicfit__plan_frontend_ocp(const struct nicfit_catalog *cat,
						   const struct nicfit_plan *p)
{
	const struct nicfit_nic *best = NULL;
	const char *no_slot = nicfit__code_name(NICFIT_CODE_FRONTEND_NO_SLOT);
	size_t k;
	int stuck = 0;

	if (p->in.frontend_nic || p->in.frontend_slot_pin || p->fe_onboard || p->fe_ocp ||
	    !p->fe_nic || p->fe_slot >= 0 || !p->in.server->nslots)
		return NULL;
	for (k = 0; k < p->findings.n && !stuck; k++)
		stuck = p->findings.v[k].code && !strcmp(p->findings.v[k].code, no_slot);
	for (k = 0; stuck && k < nicfit_catalog_count(cat, NICFIT_KIND_NIC); k++) {
		const struct nicfit_nic *n = nicfit_catalog_nic(cat, k);

		if (!(n->roles & NICFIT_ROLE_FRONTEND) || n->port_gbps < PLAN_FRONTEND_MIN_GBPS ||
		    !n->form_factor || strncmp(n->form_factor, "ocp", 3) || !fits_free_slot(p, n))
			continue;
		if (!best || (n->e.priced && (!best->e.priced || n->e.price_usd < best->e.price_usd)))
			best = n;
	}
	return best;
}
