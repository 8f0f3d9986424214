/*
 * audit_paste.c - judging what a paste shows without a PCI listing to tie
 * it to: an nvidia-smi topo -m matrix alone, RDMA devices that no lspci
 * function carries (ibv_devinfo, ibstat, ibdev2netdev alone), ACSCtl lines
 * grepped out of lspci -vvv. The rest of the audit judges the PCI model
 * that dump/dump_build.c makes, and a device outside it would never be
 * judged at all; here each fact is judged as the paste printed it, with the
 * paste's own labels (GPU0, mlx5_1) as the devices.
 *
 * It also decides the paste's verdict when nothing was judged: a paste
 * that was read but held nothing these checks apply to is "nothing to
 * judge" (exit 3), never "clean".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "core/finding_int.h"
#include "audit/audit_int.h"
#include "core/dump_facts.h"
#include "nicfit/emit.h"

#define S_SMI_ALONE "nvidia-smi topo -m's legend and NCCL's default GPUDirect RDMA level " \
	"(NCCL_NET_GDR_LEVEL, PXB: src/graph/paths.cc)"
#define S_ACS_GREP "lspci -vvv's ACSCtl line (pciutils ls-ecaps.c) or setpci -v on ECAP_ACS+0x6 " \
	"(pciutils setpci.c); docs/reference/topology.md"
#define S_SMI_NVLINK "nvidia-smi topo -m's legend: NV# is a connection over a bonded set of # NVLinks"
#define S_GID_ENV "show_gids (MLNX_OFED) and NCCL's NCCL_IB_GID_INDEX (NCCL environment " \
	"variables: docs.nvidia.com/deeplearning/nccl/user-guide/docs/env.html)"
#define S_FW_MIXED "ibv_devinfo fw_ver and board_id, ibstat Firmware version and CA type, " \
	"ethtool -i firmware-version (PSID in parentheses), mlxfwmanager --query and flint q " \
	"(FW version and PSID per card)"
#define S_RDMA_ALONE "ibv_devinfo or ibstat port state (rdma-core libibverbs/examples/devinfo.c)"

/* Put (check, why) in not_checked unless already there. */
static int note(struct nicfit_audit *a, const char *check, const char *why)
{
	size_t i;

	for (i = 0; i < a->nnot_checked; i++)
		if (!strcmp(a->not_checked[i].check, check))
			return 0;
	if (NICFIT_ALLOC_GROW(a->not_checked, a->nnot_checked + 1, a->not_checked_alloc))
		return NICFIT_E_NOMEM;
	a->not_checked[a->nnot_checked].check = check;
	a->not_checked[a->nnot_checked].why = why;
	a->nnot_checked++;
	return 0;
}

/*
 * A topo -m cell's distance, nearest first, as the legend defines them:
 * PIX one PCIe bridge, PXB several, PHB a host bridge, NODE across host
 * bridges of one NUMA node, SYS (SOC before driver 384) across the SMP
 * interconnect between NUMA nodes. 0 for anything else (X, NV#, a damaged
 * cell): no PCIe distance the rule can use.
 */
static int cell_rank(const char *c)
{
	static const char *const name[] = { "PIX", "PXB", "PHB", "NODE", "SYS", "SOC" };
	int i;

	for (i = 0; i < 6; i++)
		if (!strcmp(c, name[i]))
			return i < 5 ? i + 1 : 5;
	return 0;
}

/*
 * A GPU's nearest NIC in the matrix. NCCL uses GPUDirect RDMA between an
 * NVIDIA GPU and an RDMA NIC by default when their path is PXB or nearer
 * (NCCL_NET_GDR_LEVEL's default); nvidia-smi lists RDMA devices as its
 * NICs. PHB or NODE: a note (the traffic goes through host memory); SYS:
 * the NIC is on another NUMA node, a warning, as for a PCI tree
 * (gpu-nic-cross-socket). Returns how many GPUs were judged.
 */
static int judge_smi(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	const struct dump_smi *m = &d->smi;
	int g, k, judged = 0;

	for (g = 0; g < m->ngpus; g++) {
		int best = 0, at = -1;
		struct nicfit_finding *f = NULL;
		char gpu[16];

		for (k = 0; k < m->nnics; k++) {
			int r = cell_rank(m->cell[g][k]);

			if (r && (!best || r < best)) {
				best = r;
				at = k;
			}
		}
		if (!best)
			continue;
		judged++;
		snprintf(gpu, sizeof(gpu), "GPU%d", g);
		if (best == 5)
			f = nicfit__find(&a->findings, NICFIT_SEV_WARNING, NICFIT_CODE_GPU_NIC_CROSS_SOCKET,
					 gpu, "%s's nearest NIC in nvidia-smi topo -m is %s at %s "
					 "(%s:%d): every path crosses the interconnect between NUMA "
					 "nodes, so its network traffic goes through the other "
					 "socket's memory and GPUDirect RDMA is off by default.", gpu,
					 m->nic[at], m->cell[g][at], d->texts[m->at.text].name,
					 m->row_line[g]);
		else if (best > 2)
			f = nicfit__find(&a->findings, NICFIT_SEV_INFO, NICFIT_CODE_GPU_NIC_NO_GDR_PATH,
					 gpu, "%s's nearest NIC in nvidia-smi topo -m is %s at %s "
					 "(%s:%d): NCCL does not use GPUDirect RDMA beyond PXB by "
					 "default, so its traffic is staged in host memory.", gpu,
					 m->nic[at], m->cell[g][at], d->texts[m->at.text].name,
					 m->row_line[g]);
		else
			continue;
		if (!f || nicfit__finding_fix(&a->findings, f, "Give each GPU a NIC behind its own "
					      "PCIe switch (PIX or PXB in `nvidia-smi topo -m`) "
					      "for GPUDirect RDMA; otherwise pin each rank to the "
					      "NUMA node of the NIC it uses."))
			return -1;
		f->source = S_SMI_ALONE;
	}
	return judged;
}

/* Whether a topo -m cell is an NVLink one: "NV18", "NV4" (NVLink links between the pair). */
static int cell_nv(const char *c)
{
	return c[0] == 'N' && c[1] == 'V' && c[2] >= '0' && c[2] <= '9';
}

/* Whether the matrix shows GPUs g and h joined by NVLink (either row says so). */
static int nv_pair(const struct dump_smi *m, int g, int h)
{
	return (m->row_line[g] > 0 && cell_nv(m->gcell[g][h])) ||
	       (m->row_line[h] > 0 && cell_nv(m->gcell[h][g]));
}

static int nv_peers(const struct dump_smi *m, int g, int skip)
{
	int h, n = 0;

	for (h = 0; h < m->ngpus; h++)
		n += h != g && h != skip && nv_pair(m, g, h);
	return n;
}

/* Row g's GPU cells grouped by class: "NODE to GPU0, GPU1; SYS to GPU4". */
static void row_paths(const struct dump_smi *m, int g, char *out, size_t n)
{
	size_t l = 0;
	int h, k;

	out[0] = '\0';
	for (h = 0; h < m->ngpus && l < n; h++) {
		const char *c = m->gcell[g][h];

		if (h == g)
			continue;
		for (k = 0; k < h && (k == g || strcmp(m->gcell[g][k], c)); k++)
			;
		if (k < h)
			continue; /* this class was listed with an earlier GPU */
		l += (size_t)snprintf(out + l, n - l, "%s%s to GPU%d", l ? "; " : "", c, h);
		for (k = h + 1; k < m->ngpus && l < n; k++)
			if (k != g && !strcmp(m->gcell[g][k], c))
				l += (size_t)snprintf(out + l, n - l, ", GPU%d", k);
	}
}

/*
 * gpu-nvlink-missing: a GPU whose row shows no NVLink to any other GPU,
 * every cell to them read (PCIe classes only), while each other GPU with
 * a row reaches at least two others over NVLink. An NVSwitch board (HGX)
 * or an NVLink mesh joins every GPU; a GPU left out there has its links
 * down or untrained, and its traffic to the others crosses PCIe and the
 * CPUs. Bridged pairs (each GPU one NVLink peer) are not judged: a GPU
 * without a bridge may be by design. Returns GPUs judged, -1 out of memory.
 */
static int judge_nvlink(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	const struct dump_smi *m = &d->smi;
	int g, h, judged = 0;

	for (g = 0; g < m->ngpus && m->ngpus >= 3; g++) {
		int others = 0, meshed = 1, nv = 0, known = 1;
		struct nicfit_finding *f;
		char paths[256], gpu[16];

		if (m->row_line[g] <= 0 || m->row_cut == g + 1)
			continue;
		for (h = 0; h < m->ngpus; h++) {
			if (h == g)
				continue;
			known &= m->gcell[g][h][0] != '\0';
			nv |= nv_pair(m, g, h);
			if (m->row_line[h] > 0) {
				others++;
				meshed &= nv_peers(m, h, g) >= 2;
			}
		}
		if (nv || !known || others < 2 || !meshed)
			continue;
		judged++;
		row_paths(m, g, paths, sizeof(paths));
		snprintf(gpu, sizeof(gpu), "GPU%d", g);
		f = nicfit__find(&a->findings, NICFIT_SEV_WARNING, NICFIT_CODE_GPU_NVLINK_MISSING,
				 gpu, "%s has no NVLink to any other GPU in nvidia-smi topo -m (its "
				 "row at %s:%d: %s), while each of the other %d GPUs shown reaches at "
				 "least two over NVLink: %s's NVLinks are down or did not train, so "
				 "its traffic to the others crosses PCIe and the CPUs.", gpu,
				 d->texts[m->at.text].name, m->row_line[g], paths, others, gpu);
		if (!f || nicfit__finding_fix(&a->findings, f, "`nvidia-smi nvlink -s -i %d` shows "
					      "the state of each of the GPU's links; on an NVSwitch "
					      "system check that the fabric manager service runs, then "
					      "reset the GPU or reboot. Links that stay down are a "
					      "hardware case for the vendor.", g))
			return -1;
		f->source = S_SMI_NVLINK;
	}
	return judged;
}

/*
 * acs-redirect from a grep or from setpci: ReqRedir+ or CmpltRedir+ (bits
 * 2 and 3 of the ACS control word) on a port sends peer-to-peer requests
 * or completions up to the root complex, which breaks or slows GPUDirect
 * RDMA and GPU peer-to-peer. The grep has no addresses, so which ports sit
 * above the GPUs and NICs cannot be told, and the finding says so; setpci
 * names its functions. Where no line redirects, acs-redirect-off says what
 * was read, so that the reading is not taken for a paste not understood.
 */
static int judge_acs(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	const struct dump_acs *x = &d->acs;
	struct nicfit_finding *f;
	char cut[96] = "";

	if (x->cut)
		snprintf(cut, sizeof(cut), "; %d setpci line%s cut before %s value %s not judged",
			 x->cut, x->cut == 1 ? "" : "s", x->cut == 1 ? "its" : "their",
			 x->cut == 1 ? "is" : "are");
	if (!x->n && !x->setpci)
		return 0; /* nothing, or setpci lines all cut before their values */
	if (!x->redirect) {
		char what[128];

		if (x->n && x->setpci)
			snprintf(what, sizeof(what), "%d ACSCtl line%s and %d setpci value%s", x->n,
				 x->n == 1 ? "" : "s", x->setpci, x->setpci == 1 ? "" : "s");
		else if (x->n)
			snprintf(what, sizeof(what), "%d ACSCtl line%s", x->n, x->n == 1 ? "" : "s");
		else
			snprintf(what, sizeof(what), "%d function%s' control word%s as setpci %s "
				 "%s", x->setpci, x->setpci == 1 ? "" : "s", x->setpci == 1 ? "" : "s",
				 x->written ? "wrote" : "read", x->setpci == 1 ? "it" : "them");
		f = nicfit__find(&a->findings, NICFIT_SEV_INFO, NICFIT_CODE_ACS_REDIRECT_OFF, "host",
				 "No ACS control word in the paste redirects peer-to-peer traffic: "
				 "%s, none with ReqRedir or CmpltRedir set (first at %s:%d)%s.", what,
				 d->texts[(x->n ? x->first : x->first_setpci).text].name,
				 (x->n ? x->first : x->first_setpci).line, cut);
	} else if (x->redirect_bdf[0]) {
		f = nicfit__find(&a->findings, NICFIT_SEV_WARNING, NICFIT_CODE_ACS_REDIRECT,
				 x->redirect_bdf, "%d of %d ACS control words have ReqRedir or "
				 "CmpltRedir set (first %s at %s:%d): those functions send peer-to-peer "
				 "traffic through the root complex%s.", x->redirect, x->n + x->setpci,
				 x->redirect_bdf, d->texts[x->first_redirect.text].name,
				 x->first_redirect.line, cut);
	} else {
		f = nicfit__find(&a->findings, NICFIT_SEV_WARNING, NICFIT_CODE_ACS_REDIRECT, "host",
				 "%d of %d ACSCtl lines have ReqRedir+ or CmpltRedir+ (first at %s:%d): "
				 "those ports send peer-to-peer traffic through the root complex. The "
				 "lines carry no PCI addresses, so whether the ports sit between GPUs and "
				 "NICs is not known.", x->redirect, x->n + x->setpci,
				 d->texts[x->first_redirect.text].name, x->first_redirect.line);
	}
	if (!f)
		return NICFIT_E_NOMEM;
	f->source = S_ACS_GREP;
	if (f->severity == NICFIT_SEV_INFO)
		return 0;
	if (nicfit__finding_fix(&a->findings, f, "Disable ACS redirection on the PCIe "
				"switch ports between GPUs and NICs (the BIOS's ACS "
				"setting, or `setpci -s BDF ECAP_ACS+0x6.w=0000` at "
				"boot); `sudo lspci -vvv` shows which ports have it."))
		return NICFIT_E_NOMEM;
	return 0;
}

/* Whether the PCI model already holds an RDMA device of that name (then the audit judged it). */
static int in_model(const struct nicfit_topo *t, const char *name)
{
	int i;

	for (i = 0; i < t->nrdma; i++)
		if (!strcmp(t->rdma[i].name, name))
			return 1;
	return 0;
}

/* How findings and tables name a device: its name, or what stands for one the paste does not give. */
static const char *dev_label(const struct dump_rdma *x)
{
	return x->name[0] ? x->name : "(unnamed RDMA device)";
}

static int any_active(const struct dump_rdma *x)
{
	int k;

	for (k = 0; k < x->nports; k++)
		if (x->ports[k].state == 4)
			return 1;
	return 0;
}

/* One port of a device outside the model: DOWN and INIT, as audit_rdma.c words them. */
static int judge_port(struct nicfit_audit *a, const struct dump_rdma *x,
		      const struct dump_rport *p)
{
	int other = any_active(x);
	struct nicfit_finding *f;

	if (p->state == IB_PORT_DOWN)
		f = nicfit__find(&a->findings, other ? NICFIT_SEV_INFO : NICFIT_SEV_WARNING,
				 NICFIT_CODE_RDMA_PORT_DOWN, dev_label(x), "%s port %d is DOWN (%s)%s.",
				 dev_label(x), p->num, p->phys == 2 ? "no link partner: the cable is "
				 "unplugged or faulty, or the switch port is down"
				 : p->phys == 3 ? "the port is disabled" : "no link",
				 other ? "; another port of the device is active" : "");
	else if (p->state == IB_PORT_INIT && !strcmp(p->link_layer, "InfiniBand"))
		f = nicfit__find(&a->findings, NICFIT_SEV_WARNING, NICFIT_CODE_IB_NO_SUBNET_MANAGER,
				 dev_label(x), "%s port %d is INIT: the link is up but no subnet "
				 "manager has configured it, so it passes no traffic.", dev_label(x),
				 p->num);
	else
		return 0;
	if (!f || nicfit__finding_fix(&a->findings, f, p->state == IB_PORT_DOWN ?
				      "If the port should be in use: check the cable and the "
				      "switch port (`ibstat`, `ip link`); if not, nothing to do." :
				      "Run a subnet manager on the fabric: enable the switch's "
				      "SM, or `systemctl start opensm` on one host."))
		return NICFIT_E_NOMEM;
	f->source = S_RDMA_ALONE;
	return 0;
}

static int bit(const unsigned char *set, int i)
{
	return (set[i / 8] >> (i % 8)) & 1;
}

/*
 * nccl-gid-index-wrong: NCCL_IB_GID_INDEX, as the paste sets it, names on
 * a port that show_gids lists a RoCE v1 GID or a link-local one, while the
 * port has a RoCE v2 GID with a routable address at another index. NCCL
 * then connects over RoCE v1 (no IP header: it stays in one Ethernet
 * broadcast domain) or over an address no router forwards. A port whose
 * table does not show that index is not judged. Returns ports judged.
 */
static int judge_gid(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	const struct dump_gid_env *env = &d->gid_env;
	int judged = 0, k, idx = env->index;
	size_t i;

	if (!env->n || env->conflict)
		return 0;
	for (i = 0; i < d->nrdma; i++)
		for (k = 0; k < d->rdma[i].nports; k++) {
			const struct dump_rdma *x = &d->rdma[i];
			const struct dump_rport *pt = &x->ports[k];
			int v1 = bit(pt->gid_v1, idx), ll = bit(pt->gid_ll, idx);
			struct nicfit_finding *f;

			if (!pt->gids || !bit(pt->gid_seen, idx))
				continue;
			judged++;
			if ((!v1 && !ll) || pt->gid_v2_index < 0)
				continue;
			f = nicfit__find(&a->findings, NICFIT_SEV_WARNING,
					 NICFIT_CODE_GID_INDEX_WRONG, dev_label(x),
					 "NCCL_IB_GID_INDEX=%d (%s:%d) selects %s port %d's GID %d, "
					 "which show_gids lists as %s; the port's RoCE v2 GID with a "
					 "routable address is index %d. NCCL connects with the GID "
					 "it is given, so %s.", idx, d->texts[env->at.text].name,
					 env->at.line, dev_label(x), pt->num, idx,
					 v1 && ll ? "a link-local RoCE v1 GID" : v1 ? "a RoCE v1 GID"
					 : "a link-local RoCE v2 GID", pt->gid_v2_index,
					 v1 ? "its traffic has no IP header and never leaves the "
					 "Ethernet broadcast domain" : "no router forwards its traffic");
			if (!f || nicfit__finding_fix(&a->findings, f, "Set NCCL_IB_GID_INDEX=%d on "
						      "every node (show_gids: VER v2 with an IPv4 "
						      "or global address), or leave it unset on NCCL "
						      "2.21 and later, which pick the RoCE v2 GID "
						      "themselves.", pt->gid_v2_index))
				return -1;
			f->source = S_GID_ENV;
		}
	return judged;
}

/* One firmware reading: a device or interface, its card model's key, its version. */
struct fw_seen {
	const char *name;
	char label[96];           /* an adapter's name ("card 0000:d2:00.0"), name points here */
	char key[64];             /* the PSID, else "part N" */
	char ver[64];
};

/* Whether an adapter with a firmware version has Base GUID g (the card of that GUID is listed). */
static int fw_card(const struct nicfit_dump *d, const char *g, size_t before)
{
	size_t i;

	for (i = 0; g[0] && i < d->nfwdevs && i < before; i++)
		if (d->fwdevs[i].fw[0] && d->fwdevs[i].psid[0] && !strcmp(d->fwdevs[i].base_guid, g))
			return 1;
	return 0;
}

/*
 * The readings that name a model and a version: mlxfwmanager's and
 * flint's adapters first (one a card: the running version where the flash
 * holds a newer one, the card named by its function or mst device; a card
 * both tools list, by its Base GUID, once), then ibv_devinfo, ibstat
 * (but not a device on a card an adapter already gave) and ethtool -i.
 */
static size_t fw_readings(const struct nicfit_dump *d, struct fw_seen *out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < d->nfwdevs && n < max; i++) {
		const struct dump_fwdev *x = &d->fwdevs[i];

		if (!x->fw[0] || !x->psid[0] || fw_card(d, x->base_guid, i))
			continue;
		snprintf(out[n].label, sizeof(out[n].label), "card %s",
			 x->bdf[0] ? x->bdf : x->pci[0] ? x->pci : x->base_guid[0] ? x->base_guid
			 : "(unnamed)");
		out[n].name = out[n].label;
		snprintf(out[n].key, sizeof(out[n].key), "%s", x->psid);
		snprintf(out[n++].ver, sizeof(out[0].ver), "%s",
			 x->fw_running[0] ? x->fw_running : x->fw);
	}
	for (i = 0; i < d->nrdma && n < max; i++) {
		const struct dump_rdma *x = &d->rdma[i];

		if (!x->fw[0] || !strcmp(x->board, "N/A") || (!x->board[0] && !x->part_id))
			continue;
		if (fw_card(d, x->node_guid, d->nfwdevs) || fw_card(d, x->sys_guid, d->nfwdevs))
			continue;
		out[n].name = dev_label(x);
		if (x->board[0])
			snprintf(out[n].key, sizeof(out[n].key), "%s", x->board);
		else
			snprintf(out[n].key, sizeof(out[n].key), "part %d", x->part_id);
		snprintf(out[n++].ver, sizeof(out[0].ver), "%s", x->fw);
	}
	for (i = 0; i < d->nnet && n < max; i++) {
		const struct dump_net *x = &d->net[i];
		const char *open = strchr(x->fw, '('), *close = open ? strchr(open, ')') : NULL;
		size_t vl = strcspn(x->fw, " (");

		if (!x->ethtool || !open || !close || close - open < 2 || !vl)
			continue; /* no PSID: Intel's and Broadcom's versions name no card */
		out[n].name = x->name;
		snprintf(out[n].key, sizeof(out[n].key), "%.*s", (int)(close - open - 1), open + 1);
		snprintf(out[n++].ver, sizeof(out[0].ver), "%.*s", (int)vl, x->fw);
	}
	return n;
}

/*
 * nic-fw-mixed: cards of one model (one PSID; one part number where no
 * PSID is printed) running different firmware versions. Every function of
 * a card runs the card's one image, so two versions are two cards, one of
 * which was not updated: their behaviour and fixes differ. One finding per
 * model, each version with the devices that report it.
 */
static int judge_fw(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	struct fw_seen seen[2 * NICFIT_TOPO_MAX_RDMA];
	size_t n = fw_readings(d, seen, sizeof(seen) / sizeof(seen[0])), i, k, j;

	for (i = 0; i < n; i++) {
		char list[512] = "";
		size_t l = 0;
		int versions = 0, first = 1;
		struct nicfit_finding *f;

		for (k = 0; k < i && strcmp(seen[k].key, seen[i].key); k++)
			;
		if (k < i)
			continue; /* this model was judged with an earlier reading */
		for (k = i; k < n && l < sizeof(list); k++) {
			if (strcmp(seen[k].key, seen[i].key))
				continue;
			for (j = i; j < k && (strcmp(seen[j].key, seen[k].key) ||
					      strcmp(seen[j].ver, seen[k].ver)); j++)
				;
			if (j < k)
				continue; /* this version is listed */
			versions++;
			l += (size_t)snprintf(list + l, sizeof(list) - l, "%s%s on ", first ? "" : "; ",
					      seen[k].ver);
			first = 0;
			for (j = k; j < n && l < sizeof(list); j++)
				if (!strcmp(seen[j].key, seen[k].key) && !strcmp(seen[j].ver, seen[k].ver))
					l += (size_t)snprintf(list + l, sizeof(list) - l, "%s%s",
							      j == k ? "" : ", ", seen[j].name);
		}
		if (versions < 2)
			continue;
		f = nicfit__find(&a->findings, NICFIT_SEV_WARNING, NICFIT_CODE_NIC_FW_MIXED, "host",
				 "Cards of one model (%s) run %d firmware versions: %s. A card runs "
				 "one image on all its functions, so these are different cards, some "
				 "not updated.", seen[i].key, versions, list);
		if (!f || nicfit__finding_fix(&a->findings, f, "Flash every card of the model to "
					      "one version (`mlxfwmanager --query` lists each "
					      "card's firmware and PSID; `mlxfwmanager -u -i IMAGE` "
					      "flashes an image), then reboot or reset the cards."))
			return NICFIT_E_NOMEM;
		f->source = S_FW_MIXED;
	}
	return 0;
}

/* RDMA devices no PCI function carries: their ports, judged by name. Returns devices judged. */
static int judge_rdma(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	size_t i;
	int k, judged = 0;

	for (i = 0; i < d->nrdma; i++) {
		const struct dump_rdma *x = &d->rdma[i];
		int ports = 0;

		if (x->name[0] && in_model(a->topo, x->name))
			continue;
		for (k = 0; k < x->nports; k++) {
			if (x->ports[k].state < 1)
				continue;
			ports++;
			if (judge_port(a, x, &x->ports[k]))
				return -1;
		}
		judged += ports > 0;
	}
	return judged;
}

/*
 * What the paste could not support, in place of the PCI tree's own notes
 * (which speak of an lspci listing the paste does not have).
 */
static int notes(const struct nicfit_dump *d, struct nicfit_audit *a, int rdma_judged)
{
	int rc = 0;

	if (!d->nfns)
		rc |= note(a, "pci", "The paste holds no lspci listing: PCIe links, NUMA nodes, "
			   "drivers, ACS and MaxPayload of the devices are not known "
			   "(`sudo lspci -vvv` shows them).");
	if (rdma_judged)
		rc |= note(a, "rdma_pci", "Some RDMA devices are tied to no PCI function of the "
			   "paste: their cards, PCIe links and distance to the GPUs are not "
			   "checked (`ibdev2netdev -v` or `ethtool -i IF` ties them).");
	if (d->smi.present && d->smi.nnics && !a->topo->modules_listed)
		rc |= note(a, "gdr_kernel", "The dumps do not say whether nvidia_peermem or "
			   "nv_peer_mem is loaded: on the host, `lsmod | grep -e "
			   "nvidia_peermem -e nv_peer_mem`.");
	if (d->smi.headerless)
		rc |= note(a, "smi_topo", "The matrix was pasted without its header row: its "
			   "columns were inferred from the rows (GPU columns as far as NV# and X "
			   "cells and the NIC rows place them, then NIC0..), and the NICs' names "
			   "are not known.");
	if (d->smi.legend_only)
		rc |= note(a, "smi_topo", "The paste holds nvidia-smi topo -m's NIC Legend without "
			   "the matrix: the NICs' names are known, their paths to the GPUs are not.");
	if (d->smi.present && !d->smi.nnics && d->smi.ngpus)
		rc |= note(a, "gpu_nic", "nvidia-smi topo -m lists no NIC: GPU-NIC paths and "
			   "GPUDirect RDMA are not checked.");
	return rc ? NICFIT_E_NOMEM : 0;
}

/* ---- the facts, as printed ------------------------------------------------- */

/*
 * What the paste showed that the PCI model does not hold: the matrix as
 * nvidia-smi printed it (its labels, cells and affinities), and the RDMA
 * devices no PCI function carries, with the tools that listed them.
 */
struct nicfit_audit_paste {
	int smi;                  /* a matrix was read */
	char smi_at[160];         /* "FILE:LINE" of its header */
	struct dump_smi m;
	struct dump_rdma *rdma;
	size_t nrdma;
	struct paste_join {
		char name[64];
		int how;          /* enum dump_join */
	} *joins;                 /* each RDMA device of the model a tool listed */
	size_t njoins;
	struct nicfit_audit_ibdiag *ib; /* iblinkinfo's links, NULL none */
	struct nicfit_audit_mft *mft; /* the firmware tools' adapters and mlxlink's ports, NULL none */
	char join_why[1024];       /* not_checked's rdma_join */
	char text_why[512];       /* a not_checked reason audit_dump.c words */
};

char *nicfit__audit_paste_text_buf(struct nicfit_audit *a, size_t *n)
{
	if (!a->paste)
		return NULL;
	*n = sizeof(a->paste->text_why);
	return a->paste->text_why;
}

void nicfit__audit_paste_free(struct nicfit_audit_paste *p)
{
	if (!p)
		return;
	free(p->rdma);
	free(p->joins);
	nicfit__audit_mft_free(p->mft);
	nicfit__audit_ibdiag_free(p->ib);
	free(p);
}

const char *nicfit__audit_paste_join(const struct nicfit_audit *a, const char *name)
{
	static const char *const how[] = { NULL, "ibdev2netdev", "ethtool", "sys_image_guid",
					   "topo_matrix", "name_order", "base_guid" };
	size_t i;
	int k;

	if (!a->from_dump)
		return "sysfs";
	for (i = 0; a->paste && i < a->paste->njoins; i++)
		if (!strcmp(a->paste->joins[i].name, name))
			return how[a->paste->joins[i].how];
	for (k = 0; a->paste && a->paste->smi && k < a->paste->m.nnics; k++)
		if (!strcmp(a->paste->m.nic[k], name) && a->paste->m.nic_join[k] == DUMP_JOIN_MATRIX)
			return how[DUMP_JOIN_MATRIX];
	return "name_order"; /* a name only nvidia-smi's matrix gave */
}

/* Append name to the list when its tie is how; the count of such names. */
static int list_join(char *list, size_t n, size_t *l, const char *name, int tie, int how)
{
	if (tie != how)
		return 0;
	if (*l < n - 1)
		*l += (size_t)snprintf(list + *l, n - *l, "%s%s", *l ? ", " : "", name);
	return 1;
}

/*
 * rdma_join: the devices tied to their PCI function by name order, or by
 * a sibling on their card, or by the matrix's cells: what rests on the tie
 * (the card, its link, the paths to the GPUs) rests on that. 0 or
 * NICFIT_E_NOMEM.
 */
static int note_joins(struct nicfit_audit *a)
{
	struct nicfit_audit_paste *p = a->paste;
	char list[256] = "", mlist[256] = "", mwhy[400] = "";
	size_t i, l = 0, ml = 0;
	int order = 0, sib = 0, mat = 0, k;

	for (i = 0; p && i < p->njoins; i++) {
		order += list_join(list, sizeof(list), &l, p->joins[i].name, p->joins[i].how,
				   DUMP_JOIN_ORDER);
		sib += list_join(list, sizeof(list), &l, p->joins[i].name, p->joins[i].how,
				 DUMP_JOIN_SIBLING);
	}
	for (k = 0; p && p->smi && k < p->m.nnics; k++)
		mat += list_join(mlist, sizeof(mlist), &ml, p->m.nic[k], p->m.nic_join[k],
				 DUMP_JOIN_MATRIX);
	if (!order && !sib && !mat)
		return 0;
	if (mat)
		snprintf(mwhy, sizeof(mwhy), "%s%s %s placed by nvidia-smi topo -m's cells from the "
			 "GPUs: the lspci tree has one NIC function at those path classes (or one "
			 "card's functions, taken in name order), so %s cells were not compared "
			 "with the tree.", order || sib ? " " : "", mlist,
			 mat == 1 ? "was" : "were", mat == 1 ? "its" : "their");
	if (!order && !sib) {
		snprintf(p->join_why, sizeof(p->join_why), "%s", mwhy);
		return note(a, "rdma_join", p->join_why);
	}
	snprintf(p->join_why, sizeof(p->join_why), "%s %s tied to %s PCI function%s %s%s%s: "
		 "their cards, links and paths to the GPUs rest on that (`ibdev2netdev -v`, or "
		 "`ethtool -i IF` for each device's interface, names each function).%s", list,
		 order + sib == 1 ? "was" : "were", order + sib == 1 ? "its" : "their",
		 order + sib == 1 ? "" : "s", order ? "by the order of their names (mlx5_N as "
		 "the N-th Mellanox function), a guess" : "", order && sib ? "; or " : "",
		 sib ? "by their card's sys_image_guid and node GUID order" : "", mwhy);
	return note(a, "rdma_join", p->join_why);
}

/* Keep the facts for the renderers. 0 or NICFIT_E_NOMEM. */
static int keep(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	struct nicfit_audit_paste *p;
	size_t i;

	p = calloc(1, sizeof(*p));
	if (!p || (d->nrdma && !(p->rdma = calloc(d->nrdma, sizeof(*p->rdma))))) {
		free(p);
		return NICFIT_E_NOMEM;
	}
	if (d->smi.present) {
		p->smi = 1;
		p->m = d->smi;
		snprintf(p->smi_at, sizeof(p->smi_at), "%.140s:%d", d->texts[d->smi.at.text].name,
			 d->smi.at.line);
	}
	if (d->nrdma && !(p->joins = calloc(d->nrdma, sizeof(*p->joins)))) {
		nicfit__audit_paste_free(p);
		return NICFIT_E_NOMEM;
	}
	for (i = 0; i < d->nrdma; i++) {
		if (!d->rdma[i].name[0] || !in_model(a->topo, d->rdma[i].name)) {
			p->rdma[p->nrdma++] = d->rdma[i];
			continue;
		}
		snprintf(p->joins[p->njoins].name, sizeof(p->joins[0].name), "%s", d->rdma[i].name);
		p->joins[p->njoins++].how = d->rdma[i].join;
	}
	a->paste = p;
	return 0;
}

/* NCCL's default GPUDirect RDMA level is PXB: 1 PIX or PXB, 0 farther, -1 no PCIe class. */
static int gdr_by_distance(const char *cell)
{
	int r = cell_rank(cell);

	return r ? r <= 2 : -1;
}

/* The legend's name of NIC column k, or NULL when the paste does not name it. */
static const char *nic_name(const struct dump_smi *m, int k)
{
	char col[16];

	snprintf(col, sizeof(col), "NIC%d", k);
	return strcmp(m->nic[k], col) ? m->nic[k] : NULL;
}

static void json_matrix(const struct nicfit_audit_paste *p, struct nicfit_emit *e)
{
	const struct dump_smi *m = &p->m;
	int g, k;

	nicfit_emit_begin_object(e, "matrix");
	nicfit_emit_string(e, "at", p->smi_at);
	nicfit_emit_bool(e, "legend", m->legend);
	nicfit_emit_begin_array(e, "gpus");
	for (g = 0; g < m->ngpus; g++) {
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_stringf(e, "label", "GPU%d", g);
		nicfit_emit_bool(e, "row", m->row_line[g] > 0);
		nicfit_emit_bool(e, "cut", m->row_cut == g + 1);
		nicfit__audit_str_or_null(e, "cpu_affinity", m->cpu_aff[g]);
		nicfit__audit_str_or_null(e, "numa_affinity", m->numa_aff[g]);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_begin_array(e, "nics");
	for (k = 0; k < m->nnics; k++) {
		nicfit_emit_begin_object(e, NULL);
		nicfit_emit_string(e, "label", m->nic_col[k]);
		nicfit__audit_str_or_null(e, "name", nic_name(m, k));
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
	nicfit_emit_begin_array(e, "pairs");
	for (g = 0; g < m->ngpus; g++)
		for (k = 0; k < m->nnics && m->row_line[g] > 0; k++) {
			int gdr = gdr_by_distance(m->cell[g][k]);

			nicfit_emit_begin_object(e, NULL);
			nicfit_emit_stringf(e, "gpu_label", "GPU%d", g);
			nicfit_emit_string(e, "nic_label", m->nic_col[k]);
			nicfit__audit_str_or_null(e, "nic_name", nic_name(m, k));
			nicfit__audit_str_or_null(e, "path", m->cell[g][k]);
			if (gdr < 0)
				nicfit_emit_null(e, "gdr_by_distance");
			else
				nicfit_emit_bool(e, "gdr_by_distance", gdr);
			nicfit_emit_end_object(e);
		}
	nicfit_emit_end_array(e);
	nicfit_emit_end_object(e);
}

/*
 * A port's rate: active_width x active_speed, or ibstat's Rate; -1 unknown.
 * Only an ACTIVE port has one: ibstat and ibv_devinfo print a figure for a
 * port without link too (ibstat's "Rate: 40" on a disabled port), which is
 * no speed the port runs at.
 */
static double port_rate(const struct dump_rport *pt)
{
	if (pt->state != IB_PORT_ACTIVE)
		return -1;
	if (pt->width && pt->lane_gbps > 0)
		return pt->width * pt->lane_gbps;
	return pt->ibstat_rate > 0 ? pt->ibstat_rate : -1;
}

/* The ports of x: those ibv_devinfo or ibstat listed, else those ibdev2netdev or show_gids named. */
static int nports(const struct dump_rdma *x)
{
	int k, n = x->nports;

	for (k = n; k < NICFIT_TOPO_MAX_PORTS; k++)
		if (x->netdev[k][0])
			n = k + 1;
	return n;
}

static void json_rport(struct nicfit_emit *e, const struct dump_rdma *x, int k)
{
	static const struct dump_rport none = { .state = -1, .phys = -1 };
	const struct dump_rport *pt = k < x->nports ? &x->ports[k] : &none;
	double rate = port_rate(pt);

	nicfit_emit_begin_object(e, NULL);
	nicfit_emit_int(e, "port", k < x->nports ? pt->num : k + 1);
	nicfit__audit_str_or_null(e, "state", nicfit__dump_port_state_name(pt->state));
	nicfit__audit_str_or_null(e, "phys_state", nicfit__dump_phys_state_name(pt->phys));
	nicfit__audit_str_or_null(e, "link_layer", pt->link_layer);
	if (rate > 0)
		nicfit_emit_number(e, "rate_gbps", rate);
	else
		nicfit_emit_null(e, "rate_gbps");
	if (pt->width && rate > 0)
		nicfit_emit_int(e, "width", pt->width);
	else
		nicfit_emit_null(e, "width");
	nicfit__audit_str_or_null(e, "netdev", x->netdev[k]);
	nicfit__audit_str_or_null(e, "netdev_state", x->netdev_state[k]);
	nicfit_emit_end_object(e);
}

static void json_rdma_devices(const struct nicfit_audit_paste *p, struct nicfit_emit *e)
{
	size_t i;
	int k;

	nicfit_emit_begin_array(e, "rdma_devices");
	for (i = 0; p && i < p->nrdma; i++) {
		const struct dump_rdma *x = &p->rdma[i];

		nicfit_emit_begin_object(e, NULL);
		nicfit__audit_str_or_null(e, "name", x->name);
		nicfit_emit_string(e, "source", x->from_ibstat ? "ibstat"
				   : x->from_ibstatus ? "ibstatus" : x->from_rdmatool ? "rdma link"
				   : x->from_ibv ? "ibv_devinfo" : x->gids ? "show_gids"
				   : "ibdev2netdev");
		nicfit__audit_str_or_null(e, "bdf", x->bdf);
		nicfit__audit_str_or_null(e, "fw_ver", x->fw);
		nicfit__audit_str_or_null(e, "board_id", x->board);
		nicfit__audit_str_or_null(e, "hca_type", x->ca_type);
		nicfit_emit_begin_array(e, "ports");
		for (k = 0; k < nports(x); k++)
			json_rport(e, x, k);
		nicfit_emit_end_array(e);
		nicfit_emit_end_object(e);
	}
	nicfit_emit_end_array(e);
}

void nicfit__audit_paste_json(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	if (a->paste && a->paste->smi)
		json_matrix(a->paste, e);
	else
		nicfit_emit_null(e, "matrix");
	json_rdma_devices(a->paste, e);
	nicfit__audit_mft_json(a->paste ? a->paste->mft : NULL, e);
	nicfit__audit_ibdiag_json(a->paste ? a->paste->ib : NULL, e);
}

static const struct nicfit_column smi_cols[] = {
	{ "matrix_gpu", "GPU", 0 },
	{ "matrix_nic", "NIC", 0 },
	{ "matrix_name", "name", 0 },
	{ "matrix_path", "path", 0 },
	{ "matrix_gdr", "GPUDirect by default", 0 },
	{ "matrix_cpus", "GPU CPU affinity", 0 },
	{ "matrix_numa", "GPU NUMA", 0 },
};

static const struct nicfit_column legend_cols[] = {
	{ "legend_nic", "NIC", 0 },
	{ "legend_name", "RDMA device", 0 },
};

static const struct nicfit_column rdma_cols[] = {
	{ "rdma_name", "RDMA device", 0 },
	{ "rdma_port", "port", 1 },
	{ "rdma_state", "state", 0 },
	{ "rdma_phys", "physical", 0 },
	{ "rdma_link", "link layer", 0 },
	{ "rdma_rate", "Gb/s", 1 },
	{ "rdma_netdev", "interface", 0 },
	{ "rdma_fw", "firmware", 0 },
	{ "rdma_board", "board id", 0 },
};

static void text_matrix(const struct nicfit_audit_paste *p, struct nicfit_emit *e)
{
	const struct dump_smi *m = &p->m;
	int g, k;

	if (!m->ngpus) { /* a NIC legend alone */
		nicfit_emit_heading(e, "NICs of nvidia-smi topo -m's legend");
		nicfit_emit_table_begin(e, NULL, legend_cols,
					(int)(sizeof(legend_cols) / sizeof(legend_cols[0])));
		for (k = 0; k < m->nnics; k++) {
			nicfit__audit_cell(e, m->nic_col[k]);
			nicfit__audit_cell(e, nic_name(m, k));
		}
		nicfit_emit_table_end(e);
		return;
	}
	nicfit_emit_heading(e, "GPU-NIC paths as nvidia-smi topo -m printed them");
	if (!m->nnics) {
		nicfit_emit_printf(e, "  %d GPUs, no NIC in the matrix\n", m->ngpus);
		return;
	}
	nicfit_emit_table_begin(e, NULL, smi_cols, (int)(sizeof(smi_cols) / sizeof(smi_cols[0])));
	for (g = 0; g < m->ngpus; g++)
		for (k = 0; k < m->nnics && m->row_line[g] > 0; k++) {
			int gdr = gdr_by_distance(m->cell[g][k]);
			char gpu[16];

			snprintf(gpu, sizeof(gpu), "GPU%d", g);
			nicfit_emit_cell_string(e, gpu);
			nicfit__audit_cell(e, m->nic_col[k]);
			nicfit__audit_cell(e, nic_name(m, k));
			nicfit__audit_cell(e, m->cell[g][k]);
			nicfit__audit_cell(e, gdr < 0 ? NULL : gdr ? "yes" : "no");
			nicfit__audit_cell(e, m->cpu_aff[g]);
			nicfit__audit_cell(e, m->numa_aff[g]);
		}
	nicfit_emit_table_end(e);
}

static void text_rdma(const struct nicfit_audit_paste *p, struct nicfit_emit *e)
{
	static const struct dump_rport none = { .state = -1, .phys = -1 };
	size_t i;
	int k;

	nicfit_emit_heading(e, "RDMA devices tied to no PCI function");
	nicfit_emit_table_begin(e, NULL, rdma_cols, (int)(sizeof(rdma_cols) / sizeof(rdma_cols[0])));
	for (i = 0; i < p->nrdma; i++)
		for (k = 0; k < nports(&p->rdma[i]); k++) {
			const struct dump_rdma *x = &p->rdma[i];
			const struct dump_rport *pt = k < x->nports ? &x->ports[k] : &none;
			double rate = port_rate(pt);

			nicfit_emit_cell_string(e, dev_label(x));
			nicfit_emit_cell_int(e, k < x->nports ? pt->num : k + 1);
			nicfit__audit_cell(e, nicfit__dump_port_state_name(pt->state));
			nicfit__audit_cell(e, nicfit__dump_phys_state_name(pt->phys));
			nicfit__audit_cell(e, pt->link_layer);
			if (rate > 0)
				nicfit_emit_cell_number(e, rate, 0);
			else
				nicfit_emit_cell_null(e, "-");
			if (x->netdev_state[k][0]) {
				char nd[96];

				snprintf(nd, sizeof(nd), "%s (%s)", x->netdev[k], x->netdev_state[k]);
				nicfit_emit_cell_string(e, nd);
			} else {
				nicfit__audit_cell(e, x->netdev[k]);
			}
			nicfit__audit_cell(e, x->fw);
			nicfit__audit_cell(e, x->board);
		}
	nicfit_emit_table_end(e);
}

int nicfit__audit_paste_counts(const struct nicfit_audit *a, char *out, size_t n)
{
	const struct nicfit_audit_paste *p = a->paste;
	size_t l = 0;

	if (!p)
		return 0;
	if (a->ngpus || a->naccels || a->nnics) {
		char rdma[64];

		/* the listing's NICs and the matrix's GPUs: each count with where it comes from */
		if (!p->smi || !p->m.ngpus || a->ngpus || a->naccels)
			return 0;
		snprintf(out, n, "0 GPUs, %d NIC%s (%s) in the PCI listing; %d GPU%s, %d NIC%s in "
			 "nvidia-smi topo -m", a->nnics, a->nnics == 1 ? "" : "s",
			 nicfit__audit_rdma_count(a, rdma, sizeof(rdma)), p->m.ngpus,
			 p->m.ngpus == 1 ? "" : "s", p->m.nnics, p->m.nnics == 1 ? "" : "s");
		return 1;
	}
	if (p->smi)
		l += (size_t)snprintf(out, n, "%d GPU%s, %d NIC%s in nvidia-smi topo -m", p->m.ngpus,
				      p->m.ngpus == 1 ? "" : "s", p->m.nnics,
				      p->m.nnics == 1 ? "" : "s");
	if (p->nrdma && l < n)
		l += (size_t)snprintf(out + l, n - l, "%s%zu RDMA device%s", l ? ", " : "",
				      p->nrdma, p->nrdma == 1 ? "" : "s");
	if (l < n)
		l += nicfit__audit_mft_counts(p->mft, out + l, n - l, l > 0);
	if (nicfit__audit_ibdiag_count(p->ib) && l < n)
		l += (size_t)snprintf(out + l, n - l, "%s%zu iblinkinfo port line%s", l ? ", " : "",
				      nicfit__audit_ibdiag_count(p->ib),
				      nicfit__audit_ibdiag_count(p->ib) == 1 ? "" : "s");
	return l > 0;
}

void nicfit__audit_paste_columns(struct nicfit_emit *e)
{
	nicfit_emit_columns(e, smi_cols, (int)(sizeof(smi_cols) / sizeof(smi_cols[0])));
	nicfit_emit_columns(e, rdma_cols, (int)(sizeof(rdma_cols) / sizeof(rdma_cols[0])));
	nicfit_emit_columns(e, legend_cols, (int)(sizeof(legend_cols) / sizeof(legend_cols[0])));
	nicfit__audit_mft_columns(e);
	nicfit__audit_ibdiag_columns(e);
}

void nicfit__audit_paste_text(const struct nicfit_audit *a, struct nicfit_emit *e)
{
	const struct nicfit_audit_paste *p = a->paste;
	size_t i;
	int ports = 0;

	if (!p || nicfit_emit_format(e) == NICFIT_FMT_CSV)
		return;
	if (p->smi && !a->ngpus) /* with the GPUs in the model, the device table says it */
		text_matrix(p, e);
	for (i = 0; i < p->nrdma; i++)
		ports += nports(&p->rdma[i]);
	if (ports)
		text_rdma(p, e);
	nicfit__audit_mft_text(p->mft, e);
	nicfit__audit_ibdiag_text(p->ib, e);
}

int nicfit__audit_paste(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	int smi = 0, rdma, gid = 0, ib, links, rc;

	a->from_dump = 1;
	if (keep(d, a))
		return NICFIT_E_NOMEM;
	/* the matrix's GPUs are judged as printed when no listing put a GPU in the model */
	if (!a->ngpus && !a->naccels && d->smi.present && (smi = judge_smi(d, a)) < 0)
		return NICFIT_E_NOMEM;
	/* NVLink is in the matrix alone: judged whatever listings sit beside it */
	if (d->smi.present && judge_nvlink(d, a) < 0)
		return NICFIT_E_NOMEM;
	rdma = judge_rdma(d, a);
	if (rdma < 0 || (gid = judge_gid(d, a)) < 0)
		return NICFIT_E_NOMEM;
	if ((ib = nicfit__audit_ibdiag(d, a, &a->paste->ib)) < 0)
		return NICFIT_E_NOMEM;
	if ((links = nicfit__audit_mft(d, a, &a->paste->mft)) < 0)
		return NICFIT_E_NOMEM;
	rc = judge_acs(d, a);
	if (!rc)
		rc = judge_fw(d, a);
	if (!rc)
		rc = notes(d, a, rdma);
	if (!rc)
		rc = note_joins(a);
	/* nothing the checks apply to: no device of the model, no pair, port or ACS line judged */
	a->nothing_to_judge = !rc && !a->ngpus && !a->naccels && !a->nnics && !smi && !rdma && !gid && !ib && !links &&
			      !d->acs.n && !d->acs.setpci && !a->findings.n;
	return rc;
}
