/*
 * audit_dump.c - what the audit of a dump adds to the audit of a host (see
 * nicfit_dump_judge in nicfit/dump.h): nvidia-smi's path classes against
 * the ones derived from the lspci tree, where each finding's facts came
 * from, findings that rest on facts a dump does not carry taken back, the
 * kernel log lines' findings, and the checks a dump could not support,
 * with why, in not_checked.
 *
 * The dump reader (dump/) records what the texts say and where
 * (dump/dump_facts.h) and judges nothing; the judging is here, with the
 * rest of the audit's.
 *
 * It works on the finished audit (it raises nothing during judgement), so
 * the audit engine stays the same for a live host, a snapshot and a dump.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "audit/audit_int.h"
#include "core/dump_facts.h"

#define S_PCIE_LIMITED "the kernel's PCIe bandwidth report (pcie_print_link_status, drivers/pci/pci.c)"
#define S_MODULE "the NIC driver's module error (ixgbe, i40e, mlx5_core)"
#define S_SMI_TOPO "nvidia-smi topo -m against the PCI tree (docs/reference/topology.md 2)"

/* Put (check, why) in not_checked, replacing the why of a check already there. */
static int note(struct nicfit_audit *a, const char *check, const char *why)
{
	size_t i;

	for (i = 0; i < a->nnot_checked; i++)
		if (!strcmp(a->not_checked[i].check, check)) {
			a->not_checked[i].why = why;
			return 0;
		}
	if (NICFIT_ALLOC_GROW(a->not_checked, a->nnot_checked + 1, a->not_checked_alloc))
		return NICFIT_E_NOMEM;
	a->not_checked[a->nnot_checked].check = check;
	a->not_checked[a->nnot_checked].why = why;
	a->nnot_checked++;
	return 0;
}

/*
 * A finding take_back drops (its strings are the list's, freed with it);
 * the loop closes the gap in one pass.
 */
static void drop_finding(struct nicfit_audit *a, size_t i)
{
	struct nicfit_finding *f = &a->findings.v[i];

	f->device = f->message = f->fix = NULL;
	f->code = NULL;
}

/* The topo functions sorted by address, built once for the findings' look-ups. */
struct pci_key {
	const char *bdf;
	int pci;
};

struct pci_index {
	struct pci_key *keys; /* NULL: no memory, nicfit_topo_find scans */
	int n;
};

static int cmp_pci_key(const void *x, const void *y)
{
	const struct pci_key *a = x, *b = y;
	int c = strcmp(a->bdf, b->bdf);

	return c ? c : a->pci - b->pci;
}

static void index_pci(const struct nicfit_topo *t, struct pci_index *x)
{
	int i;

	x->n = t->npci;
	x->keys = malloc((size_t)(t->npci ? t->npci : 1) * sizeof(*x->keys));
	if (!x->keys)
		return;
	for (i = 0; i < t->npci; i++) {
		x->keys[i].bdf = t->pci[i].bdf;
		x->keys[i].pci = i;
	}
	qsort(x->keys, (size_t)t->npci, sizeof(*x->keys), cmp_pci_key);
}

/* nicfit_topo_find through the index: the first function with this address. */
static int find_pci(const struct nicfit_topo *t, const struct pci_index *x, const char *bdf)
{
	int lo = 0, hi = x->n;

	if (!x->keys)
		return nicfit_topo_find(t, bdf);
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (strcmp(x->keys[mid].bdf, bdf) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < x->n && !strcmp(x->keys[lo].bdf, bdf) ? x->keys[lo].pci : -1;
}

/* The topo function a finding's device names: a BDF, an RDMA device, an interface. */
static int device_pci(const struct nicfit_topo *t, const struct pci_index *x, const char *dev)
{
	int i;

	if (!dev)
		return -1;
	i = find_pci(t, x, dev);
	if (i >= 0)
		return i;
	for (i = 0; i < t->nrdma; i++)
		if (!strcmp(t->rdma[i].name, dev))
			return t->rdma[i].pci;
	for (i = 0; i < t->nnet; i++)
		if (!strcmp(t->net[i].name, dev))
			return t->net[i].pci;
	return -1;
}

/* Append " (from FILE:LINE)" to a finding's message. */
static int cite(const struct nicfit_dump *d, struct nicfit_audit *a, struct nicfit_finding *f,
		struct dump_at at)
{
	return nicfit__finding_append(&a->findings, f, " (from %s:%d)", d->texts[at.text].name,
				      at.line);
}

/* Whether every GPU and NIC had a -v block, where lspci prints "NUMA node" when it is known. */
static int numa_listed(const struct nicfit_dump *d)
{
	size_t i;

	for (i = 0; i < d->nfns; i++) {
		unsigned base = d->fns[i].class_code >> 16;

		if (!d->fns[i].from_block && (base == 0x02 || base == 0x03 || base == 0x12))
			return 0;
	}
	return 1;
}

/*
 * Where the PCI tree came from, as findings and notes name it: lspci's
 * listings (-vvv bus ranges, -t), hwloc's XML, NCCL's topology XML, or
 * several (bit 0, 1, 2).
 */
static unsigned tree_sources(const struct nicfit_dump *d)
{
	return ((d->formats & (NICFIT_DUMP_LSPCI_V | NICFIT_DUMP_LSPCI | NICFIT_DUMP_LSPCI_TREE))
		? 1u : 0u) | (d->formats & NICFIT_DUMP_HWLOC ? 2u : 0u) |
	       (d->formats & NICFIT_DUMP_NCCL ? 4u : 0u);
}

/* By tree_sources(): the source findings name in "the PCI tree of %s". */
static const char *const tree_name[8] = {
	"the dumps", "the lspci listing", "hwloc's XML", "the lspci listing and hwloc's XML",
	"NCCL's topology", "the lspci listing and NCCL's topology",
	"hwloc's XML and NCCL's topology", "the lspci listing, hwloc's XML and NCCL's topology"
};

#define SMI_ALONE(s) "No nvidia-smi topo -m in the dumps: the GPU-NIC path classes are " \
	"nicfit's reading of " s " alone."
static const char *const smi_alone[8] = {
	SMI_ALONE("the PCI tree"), SMI_ALONE("the lspci tree"), SMI_ALONE("hwloc's PCI tree"),
	SMI_ALONE("the lspci and hwloc trees"), SMI_ALONE("NCCL's topology tree"),
	SMI_ALONE("the lspci tree and NCCL's topology"),
	SMI_ALONE("hwloc's PCI tree and NCCL's topology"),
	SMI_ALONE("the lspci and hwloc trees and NCCL's topology")
};

static const char *tree_source(const struct nicfit_dump *d)
{
	return tree_name[tree_sources(d)];
}

/* Whether some function's driver is known: then a missing one is a gap, not the listing's. */
static int any_driver_known(const struct nicfit_dump *d)
{
	size_t i;

	for (i = 0; i < d->nfns; i++)
		if (d->fns[i].driver_known)
			return 1;
	return 0;
}

/*
 * Findings the dump cannot support. gpu-no-driver and nic-no-driver say
 * no driver is bound:
 * an lspci listing without "Kernel driver in use" lines (no -k, or lspci
 * without kernel support) does not say that. gdr-no-peermem without the
 * module list rests on sysfs files a dump does not have; nic-rdma-not-loaded
 * and no-rdma-nic on RDMA devices that only nvidia-smi's NIC list names;
 * sysfs-unreadable on vendor and device IDs that lspci prints only with -nn;
 * numa-locality-unknown on a NUMA node of -1, which a function listed
 * without a -v block (plain lspci, lspci -t) does not say.
 */
static int take_back(const struct nicfit_dump *d, struct nicfit_audit *a,
		     const struct pci_index *x)
{
	const struct nicfit_topo *t = a->topo;
	size_t i, w = 0;
	int rc = 0, drivers = -1;

	for (i = 0; i < a->findings.n; i++) {
		struct nicfit_finding *f = &a->findings.v[i];
		int pci = device_pci(t, x, f->device);
		const struct dump_fn *fn = pci >= 0 ? nicfit__dump_find(d, t->pci[pci].bdf) : NULL;

		if (f->code && (!strcmp(f->code, "gpu-no-driver") ||
				!strcmp(f->code, "nic-no-driver")) && fn && !fn->driver_known) {
			drop_finding(a, i);
			if (drivers < 0) /* once, not once per finding */
				drivers = any_driver_known(d);
			rc |= note(a, "drivers", drivers ?
				   "Some GPUs and NICs are in the dumps without an lspci -k or -v "
				   "block that lists drivers (a partial paste, an `lspci -s` selection, "
				   "or only the tree): whether those have a driver bound is unknown; "
				   "the others' drivers were checked." :
				   "The lspci listing names no kernel drivers (lspci "
				   "prints \"Kernel driver in use\" with -k or -v): whether GPUs and "
				   "NICs have a driver bound is unknown.");
			continue;
		}
		if (f->code && (!strcmp(f->code, "nic-rdma-not-loaded") ||
				!strcmp(f->code, "no-rdma-nic")) && !d->smi.nnics && !d->nrdma) {
			drop_finding(a, i);
			rc |= note(a, "rdma", "The dumps list no RDMA devices (nvidia-smi topo -m's "
				   "NICs, ibv_devinfo, ibdev2netdev): whether the NICs have RDMA is unknown, so GPUDirect RDMA "
				   "was not judged.");
			continue;
		}
		if (f->code && !strcmp(f->code, "sysfs-unreadable") && !d->nfns) {
			drop_finding(a, i); /* no listing at all: audit_paste.c's "pci" note */
			continue;
		}
		if (f->code && !strcmp(f->code, "sysfs-unreadable")) {
			/* the reader refuses a dump with no function; this is lspci without -nn */
			drop_finding(a, i);
			rc |= note(a, "ids", "lspci ran without -nn: no vendor and device IDs, so "
				   "devices were recognised by class and vendor name only, and cards "
				   "not looked up in the catalog (`lspci -vvv -nn` gives the IDs).");
			continue;
		}
		if (f->code && !strcmp(f->code, "numa-locality-unknown") && !numa_listed(d)) {
			drop_finding(a, i);
			rc |= note(a, "numa", "Some GPUs or NICs have no lspci -v block (plain lspci "
				   "or lspci -t list them): their NUMA nodes are unknown, not -1 "
				   "(`lspci -vvv` prints \"NUMA node\").");
			continue;
		}
		if (f->code && !strcmp(f->code, "gdr-no-peermem") && !t->modules_listed) {
			drop_finding(a, i);
			rc |= note(a, "gdr_kernel", "The dumps do not say whether nvidia_peermem or "
				   "nv_peer_mem is loaded: on the host, `lsmod | grep -e "
				   "nvidia_peermem -e nv_peer_mem`.");
			continue;
		}
		if (w != i)
			a->findings.v[w] = *f;
		w++;
	}
	a->findings.n = w;
	return rc;
}

/* Every finding about a device says which file and line described that device. */
static int cite_all(const struct nicfit_dump *d, struct nicfit_audit *a,
		    const struct pci_index *x)
{
	const struct nicfit_topo *t = a->topo;
	size_t i;

	for (i = 0; i < a->findings.n; i++) {
		struct nicfit_finding *f = &a->findings.v[i];
		int pci = device_pci(t, x, f->device);
		const struct dump_fn *fn = pci >= 0 ? nicfit__dump_find(d, t->pci[pci].bdf) : NULL;

		struct dump_at at;

		if (f->code && !strncmp(f->code, "dump-", 5))
			continue; /* they cite their own lines */
		/* an RDMA device or interface: the ibstat, ibv_devinfo or ip link lines of it */
		if (nicfit__dump_net_at(d, f->device, &at)) {
			if (cite(d, a, f, at))
				return NICFIT_E_NOMEM;
		} else if (fn && fn->at.line && cite(d, a, f, fn->at)) {
			return NICFIT_E_NOMEM;
		}
	}
	return 0;
}

/* Whether ibdev2netdev -v placed every RDMA device nvidia-smi names. */
static int ibdev_v(const struct nicfit_dump *d)
{
	size_t i;
	int k;

	for (k = 0; k < d->smi.nnics; k++) {
		for (i = 0; i < d->nrdma; i++)
			if (!strcmp(d->rdma[i].name, d->smi.nic[k]) && d->rdma[i].bdf[0])
				break;
		if (i == d->nrdma)
			return 0;
	}
	return 1;
}

/* The pair of two topo functions in the audit, or NULL. */
static const struct nicfit_audit_pair *pair_of(const struct nicfit_audit *a, int gpu, int nic)
{
	int i;

	for (i = 0; i < a->npairs; i++)
		if (a->devs[a->pairs[i].gpu].pci == gpu && a->devs[a->pairs[i].nic].pci == nic)
			return &a->pairs[i];
	return NULL;
}

/*
 * Whether nvidia-smi's cell says the class derived. Drivers before NODE
 * existed printed SOC for today's SYS and PHB for anything on one CPU
 * (today's PHB and NODE): such a matrix agrees with either.
 */
static int same_class(const char *cell, enum nicfit_path p, int old)
{
	const char *mine = nicfit_path_name(p);

	if (!strcmp(cell, mine))
		return 1;
	if (!strcmp(cell, "SOC"))
		return p == NICFIT_PATH_SYS;
	return old && !strcmp(cell, "PHB") && p == NICFIT_PATH_NODE;
}

static int old_legend(const struct dump_smi *m)
{
	int g, k;

	for (g = 0; g < m->ngpus; g++)
		for (k = 0; k < m->nnics; k++)
			if (!strcmp(m->cell[g][k], "SOC"))
				return 1;
	return 0;
}

static int mismatch_fix(const struct nicfit_dump *d, struct nicfit_audit *a,
			struct nicfit_finding *f)
{
	if (!f || nicfit__finding_fix(&a->findings, f, tree_sources(d) & 1u ?
				      "Check that both dumps come from the same host and boot and "
				      "that the lspci listing is whole (no -s): take `lspci -vvv`, "
				      "`lspci -tv` and `nvidia-smi topo -m` again together." :
				      "Check that both dumps come from the same host and boot, and "
				      "compare with the whole PCI tree: take `lspci -vvv`, `lspci -tv` "
				      "and `nvidia-smi topo -m` together."))
		return NICFIT_E_NOMEM;
	f->source = S_SMI_TOPO;
	return 0;
}

/*
 * Whether the RDMA device name was tied to its function by name order alone
 * (dump_facts.h, enum dump_join): no tool placed it (ibdev2netdev -v,
 * ethtool -i) and no sibling of its card did.
 */
static int join_guessed(const struct nicfit_dump *d, const char *name)
{
	size_t i;

	int k;

	for (i = 0; i < d->nrdma; i++)
		if (!strcmp(d->rdma[i].name, name))
			return d->rdma[i].join == DUMP_JOIN_ORDER;
	for (k = 0; k < d->smi.nnics; k++) /* a name only the matrix gives */
		if (!strcmp(d->smi.nic[k], name))
			return d->smi.nic_join[k] == DUMP_JOIN_ORDER;
	return 1;
}

/* Whether the matrix's own cells placed the device of column k: comparing them is circular. */
static int join_by_matrix(const struct nicfit_dump *d, int k)
{
	return d->smi.nic_join[k] == DUMP_JOIN_MATRIX;
}

/* Whether some NIC of the matrix was placed by name order. */
static int any_guessed(const struct nicfit_dump *d)
{
	int k;

	for (k = 0; k < d->smi.nnics; k++)
		if (join_guessed(d, d->smi.nic[k]))
			return 1;
	return 0;
}

/*
 * dump-join-guess: a GPU-NIC cell that differs from the tree where the NIC
 * was placed by name order. The difference says the guess is likely wrong,
 * not that the dumps come from different hosts: one note per NIC.
 */
static int join_note(const struct nicfit_dump *d, struct nicfit_audit *a, int g, int k, int np,
		     enum nicfit_path path)
{
	const struct dump_smi *m = &d->smi;
	struct nicfit_finding *f;
	size_t i;

	for (i = 0; i < a->findings.n; i++)
		if (!strcmp(a->findings.v[i].code, "dump-join-guess") &&
		    a->findings.v[i].device && !strcmp(a->findings.v[i].device, m->nic[k]))
			return 0;
	f = nicfit__find(&a->findings, NICFIT_SEV_INFO, NICFIT_CODE_DUMP_JOIN_GUESS, m->nic[k],
			 "%s was taken to be %s by the order of RDMA device names (mlx5_N as the "
			 "N-th Mellanox function), for want of ibdev2netdev -v or ethtool -i; "
			 "nvidia-smi topo -m (%s:%d) puts GPU%d and %s at %s where the tree puts "
			 "that function at %s, so the guess is likely wrong: the NIC's paths are "
			 "not compared.", m->nic[k], a->topo->pci[np].bdf, d->texts[m->at.text].name,
			 m->row_line[g], g, m->nic[k], m->cell[g][k],
			 nicfit_path_name(path));
	if (!f || nicfit__finding_fix(&a->findings, f, "Paste `ibdev2netdev -v` (or `ethtool -i "
				      "IF` for the device's interface) with the other dumps: it "
				      "names each RDMA device's PCI function."))
		return NICFIT_E_NOMEM;
	f->source = S_SMI_TOPO;
	return 0;
}

/* GPU-GPU cells: agreeing, differing, unplaced, NVLink, told only as PIX or PXB. */
struct gg_tally {
	int same, differ, unmapped, nvlink, unsure;
};

/*
 * PIX against PXB where the tree is NCCL's. NCCL writes a <pci> for each
 * device and for each switch's upstream port only: its
 * ncclTopoGetXmlFromSys (src/graph/xml.cc) climbs a function's sysfs path
 * two directories at a time, so the downstream port above every device
 * and the root port above every top switch are never written, and the
 * host bridge becomes the <cpu numaid>. nicfit classes a pair by the
 * functions below their common parent (PIX_MAX_BELOW, host/topo_path.c), so a
 * device behind a second switch level sits no deeper in NCCL's tree than
 * one behind a single switch does in the kernel's: PIX where lspci and
 * nvidia-smi have PXB. NCCL itself, reading the file back
 * (ncclTopoGetSystemFromXml, src/graph/topo.cc), fuses the second level of
 * Broadcom PEX Gen4 and Gen5 switches into the first
 * (ncclTopoFlattenBcmSwitches), so even its own reading of a nesting is
 * not nvidia-smi's. Which of the two a pair is cannot be read from the
 * file: a cell is compared as "PIX or PXB" when a parent link below the
 * pair's common parent came from NCCL's nesting, counted apart, and the
 * class shown stays the XML's. PHB, NODE or SYS against PIX or PXB still
 * differ. hwloc's XML keeps the bridges on the way to every device it
 * lists, downstream ports included: its tree is compared as lspci's is.
 */
static int nccl_below(const struct nicfit_dump *d, const struct nicfit_topo *t, int x, int lca)
{
	int i, hops;

	for (i = x, hops = 0; i >= 0 && i != lca && hops < 2 * NICFIT_TOPO_MAX_DEPTH;
	     i = t->pci[i].parent, hops++) {
		const struct dump_fn *f = nicfit__dump_find(d, t->pci[i].bdf);

		if (f && nicfit__dump_nccl_placed(d, f))
			return 1;
	}
	return 0;
}

static int pix_or_pxb(const char *cell, enum nicfit_path p)
{
	return (p == NICFIT_PATH_PIX || p == NICFIT_PATH_PXB) &&
	       (!strcmp(cell, "PIX") || !strcmp(cell, "PXB"));
}

/* Whether cell and p differ only as NCCL's tree cannot tell (above). */
static int unsure_class(const struct nicfit_dump *d, const struct nicfit_topo *t,
			const char *cell, enum nicfit_path p, int x, int y, int lca)
{
	return pix_or_pxb(cell, p) && lca >= 0 &&
	       (nccl_below(d, t, x, lca) || nccl_below(d, t, y, lca));
}

/*
 * The matrix's GPU-GPU cells against the class of the two GPUs' PCI path,
 * each pair once (the upper triangle). NV# cells are NVLink, which the
 * PCI tree does not show: counted apart, neither agreeing nor differing.
 * A pair whose class would rest on unknown NUMA nodes is not compared.
 */
static int compare_gpus(const struct nicfit_dump *d, struct nicfit_audit *a, struct gg_tally *n)
{
	const struct dump_smi *m = &d->smi;
	const struct nicfit_topo *t = a->topo;
	const char *tname = d->texts[m->at.text].name;
	int g, h, as, old = old_legend(m);

	memset(n, 0, sizeof(*n));
	for (g = 0; g < m->ngpus; g++) {
		int gp = nicfit__dump_gpu_pci(d, t, g, &as);

		for (h = g + 1; h < m->ngpus && m->row_line[g]; h++) {
			const char *cell = m->gcell[g][h];
			int hp = nicfit__dump_gpu_pci(d, t, h, &as), known, lca;
			enum nicfit_path p;
			struct nicfit_finding *f;

			if (!strncmp(cell, "NV", 2)) {
				n->nvlink++;
				continue;
			}
			if (!cell[0] || !strcmp(cell, "X"))
				continue;
			if (gp < 0 || hp < 0) {
				n->unmapped++;
				continue;
			}
			p = nicfit_topo_path(t, gp, hp, &known, &lca);
			if (!known) {
				n->unmapped++;
				continue;
			}
			if (same_class(cell, p, old)) {
				n->same++;
				continue;
			}
			if (unsure_class(d, t, cell, p, gp, hp, lca)) {
				n->unsure++;
				continue;
			}
			n->differ++;
			f = nicfit__find(&a->findings, NICFIT_SEV_WARNING,
					 NICFIT_CODE_DUMP_TOPO_MISMATCH, t->pci[gp].bdf,
					 "nvidia-smi topo -m (%s:%d) puts GPU%d and GPU%d at %s; the PCI "
					 "tree of %s puts %s and %s at %s.", tname, m->row_line[g], g, h,
					 cell, tree_source(d), t->pci[gp].bdf, t->pci[hp].bdf,
					 nicfit_path_name(p));
			if (mismatch_fix(d, a, f))
				return NICFIT_E_NOMEM;
		}
	}
	return 0;
}

/* dump-topo-agrees: how many pairs, and how many of them only as "PIX or PXB". */
static int agrees(const struct nicfit_dump *d, struct nicfit_audit *a, int nic, int gpu,
		  int unsure)
{
	const struct dump_smi *m = &d->smi;
	const char *tname = d->texts[m->at.text].name;
	char pairs[96], also[160] = "";
	struct nicfit_finding *f;

	if (gpu && !nic)
		snprintf(pairs, sizeof(pairs), "%d GPU-GPU pairs", gpu);
	else if (gpu)
		snprintf(pairs, sizeof(pairs), "%d GPU-NIC pairs and %d GPU-GPU pairs", nic, gpu);
	else
		snprintf(pairs, sizeof(pairs), "%d GPU-NIC pairs", nic);
	if (unsure)
		snprintf(also, sizeof(also), " (%d of them only as PIX or PXB, which NCCL's "
			 "topology cannot tell apart)", unsure);
	f = nicfit__find(&a->findings, NICFIT_SEV_INFO, NICFIT_CODE_DUMP_TOPO_AGREES, "host",
			 "nvidia-smi topo -m (%s:%d) and the PCI tree of %s agree on all %s%s.",
			 tname, m->at.line, tree_source(d), pairs, also);
	if (!f || nicfit__finding_fix(&a->findings, f, "Nothing to fix."))
		return NICFIT_E_NOMEM;
	f->source = S_SMI_TOPO;
	return 0;
}

#define SMI_UNMAPPED "Some GPUs or NICs of nvidia-smi topo -m match no function of the " \
	"lspci listing (a NIC that neither its cells nor its name place on one function, or " \
	"a partial listing): their cells " \
	"were not compared."

/*
 * The smi_topo note: cells not compared, and cells compared only as "PIX
 * or PXB" (see nccl_below), counted, so that no cell passes unsaid. The
 * text with counts lives in the dump's XML record, which the audit's
 * notes may point into as they do for the XML's other reasons.
 */
static int smi_note(const struct nicfit_dump *d, struct nicfit_audit *a, int unmapped,
		    int nic, int gpu)
{
	char *why;
	size_t n;

	if ((!nic && !gpu) || !d->xml)
		return unmapped ? note(a, "smi_topo", SMI_UNMAPPED) : 0;
	why = d->xml->smi_why;
	n = sizeof(d->xml->smi_why);
	snprintf(why, n, "%d GPU-NIC and %d GPU-GPU cells of nvidia-smi topo -m were compared "
		 "as PIX or PXB, not as the one class: NCCL's topology leaves out switches' "
		 "downstream ports, so its tree cannot tell the two apart (`lspci -tv` gives "
		 "the whole tree).%s%s", nic, gpu, unmapped ? " " : "",
		 unmapped ? SMI_UNMAPPED : "");
	return note(a, "smi_topo", why);
}

/*
 * dump-topo-mismatch, dump-topo-agrees: nvidia-smi topo -m is the driver's
 * own reading of the same PCI tree (docs/reference/topology.md 2), so each
 * of its GPU-NIC cells and of its GPU-GPU cells over PCIe must equal the
 * class the audit derives from the lspci listing. A difference means the dumps are not of one host and one
 * boot, or the listing is partial (a bridge left out moves a pair from
 * PXB to PIX): a warning per pair, since every locality finding rests on
 * the tree. When all agree, a note says how many cells were compared.
 * Where NCCL's XML gave the tree, PIX and PXB are one answer (nccl_below):
 * such cells neither agree nor differ outright, and are counted in the
 * agreeing note and in not_checked's smi_topo.
 */
static int compare_smi(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	const struct dump_smi *m = &d->smi;
	const struct nicfit_topo *t = a->topo;
	const char *tname = d->texts[m->at.text].name;
	int g, k, same = 0, differ = 0, unmapped = 0, unsure = 0, assumed_gpu = 0, guessed = 0;
	int old = old_legend(m);
	struct gg_tally gg;

	for (g = 0; g < m->ngpus; g++) {
		int as, gp = nicfit__dump_gpu_pci(d, t, g, &as), rl = m->row_line[g];

		if (!rl)
			continue;
		assumed_gpu |= as;
		for (k = 0; k < m->nnics; k++) {
			int r, np = -1;
			const struct nicfit_audit_pair *pr;
			struct nicfit_finding *f;

			for (r = 0; r < t->nrdma; r++)
				if (!strcmp(t->rdma[r].name, m->nic[k]))
					np = t->rdma[r].pci;
			if (np >= 0 && join_by_matrix(d, k))
				continue; /* said in rdma_join, not compared with itself */
			pr = gp >= 0 && np >= 0 ? pair_of(a, gp, np) : NULL;
			if (!pr) {
				unmapped++;
				continue;
			}
			if (same_class(m->cell[g][k], pr->path, old)) {
				same++;
				continue;
			}
			if (unsure_class(d, t, m->cell[g][k], pr->path, gp, np, pr->lca_pci)) {
				unsure++;
				continue;
			}
			if (join_guessed(d, m->nic[k])) {
				if (join_note(d, a, g, k, np, pr->path))
					return NICFIT_E_NOMEM;
				guessed++;
				continue;
			}
			differ++;
			f = nicfit__find(&a->findings, NICFIT_SEV_WARNING,
					 NICFIT_CODE_DUMP_TOPO_MISMATCH, t->pci[gp].bdf,
					 "nvidia-smi topo -m (%s:%d) puts GPU%d and %s at %s; the PCI "
					 "tree of %s puts %s and %s at %s.", tname, rl, g,
					 m->nic[k], m->cell[g][k], tree_source(d), t->pci[gp].bdf,
					 t->pci[np].bdf,
					 nicfit_path_name(pr->path));
			if (mismatch_fix(d, a, f))
				return NICFIT_E_NOMEM;
		}
	}
	if (compare_gpus(d, a, &gg))
		return NICFIT_E_NOMEM;
	if ((same || gg.same || unsure || gg.unsure) && !differ && !gg.differ && !guessed &&
	    agrees(d, a, same + unsure, gg.same + gg.unsure, unsure + gg.unsure))
		return NICFIT_E_NOMEM;
	if (smi_note(d, a, unmapped || gg.unmapped, unsure, gg.unsure))
		return NICFIT_E_NOMEM;
	if (assumed_gpu && note(a, "gpu_index", "No nvidia-smi listing gave the GPUs' bus ids: "
				"GPU indices were taken in PCI bus order, as NVML numbers them by "
				"default (`nvidia-smi --query-gpu=index,pci.bus_id --format=csv` "
				"says for sure)."))
		return NICFIT_E_NOMEM;
	if (m->nnics && !ibdev_v(d) && any_guessed(d) && note(a, "nic_names", "nvidia-smi names NICs by RDMA device: mlx5_N was "
			     "taken as the N-th Mellanox function in PCI order, the order mlx5_ib "
			     "probes them (`ibdev2netdev -v` says for sure)."))
		return NICFIT_E_NOMEM;
	return 0;
}

static int has_ibv(const struct nicfit_dump *d)
{
	size_t i;

	for (i = 0; i < d->nrdma; i++)
		if (d->rdma[i].from_ibv)
			return 1;
	return 0;
}

/*
 * tree_names: lspci -tv prints names, not IDs or classes. Functions it
 * alone drew were recognised through the built-in table by the bracketed
 * part of their name; those whose name it does not hold (or holds for
 * several IDs) and no listed function of their slot explains are devices
 * of unknown kind, not judged.
 */
static int note_tree_names(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	size_t i, n, l;
	int named = 0, unknown = 0, alike = 0, differ = 0;
	char *why;

	for (i = 0; i < d->nfns; i++) {
		const struct dump_fn *f = &d->fns[i];
		int unk = !f->from_block && f->name[0] &&
			  !(f->have & (NICFIT_HAVE_CLASS | NICFIT_HAVE_IDS));

		named += f->ids_by_name;
		alike += f->ids_by_name && f->ids_alike;
		unknown += unk;
		differ += unk && f->ids_alike;
	}
	if (!named && !unknown)
		return 0;
	why = nicfit__audit_paste_text_buf(a, &n);
	if (!why)
		return 0;
	l = (size_t)snprintf(why, n, "lspci -tv prints names, "
		 "not IDs or classes: %d function%s drawn only there %s recognised by name "
		 "through nicfit's built-in table, %d %s not (other devices, or names the table "
		 "does not hold) and %s not judged (`lspci -nn` or `lspci -vvv -nn` gives "
		 "every function's IDs and class).", named, named == 1 ? "" : "s",
		 named == 1 ? "was" : "were", unknown, unknown == 1 ? "was" : "were",
		 unknown == 1 ? "was" : "were");
	if (alike && l < n)
		l += (size_t)snprintf(why + l, n - l, " %d of those recognised %s a name the table "
				      "holds for several IDs whose rows give the same maker, kind, "
				      "port rate and RDMA: judged on those facts, under the first "
				      "ID.", alike, alike == 1 ? "bears" : "bear");
	if (differ && l < n)
		snprintf(why + l, n - l, " %d of those not judged %s a name the table holds for "
			 "several IDs that differ in what the audit judges (kind, port rate "
			 "or RDMA).", differ, differ == 1 ? "bears" : "bear");
	return note(a, "tree_names", why);
}

/* What the dump lacks, each with why. */
/*
 * Sockets: the audit lays devices out by socket and counts traffic that
 * crosses between them, so a node whose socket the dumps do not give is
 * said, and so is a numbering read from lscpu's counts alone (which node
 * is which socket's is then the kernel's usual order, not a listed fact).
 */
static int note_sockets(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	const struct nicfit_topo *t = a->topo;
	int i, k, unknown = 0, counted = 0, by_count;

	for (i = 0; i < t->nnuma; i++)
		unknown += t->numa[i].package < 0;
	for (k = 0; k < d->cpu.nnodes; k++)
		if (nicfit__dump_node_socket(d, &d->cpu.node[k], &by_count) >= 0 && by_count)
			counted = 1;
	if (t->nnuma > 1 && unknown && !d->cpu.nnodes && !d->cpu.sockets)
		return note(a, "sockets", "lspci gives NUMA nodes, not sockets: which nodes share "
			    "a socket is unknown (`lscpu` or `lscpu -e` say).");
	if (t->nnuma > 1 && unknown)
		return note(a, "sockets", "The dumps do not give the socket of every NUMA node "
			    "(`lscpu -e` lists each CPU's node and socket).");
	if (counted)
		return note(a, "sockets", "lscpu gave as many sockets as NUMA nodes with CPUs, "
			    "not each CPU's socket: nodes are taken as one socket each, numbered "
			    "in node order (`lscpu -e` lists each CPU's socket).");
	return 0;
}

/* ---- the interfaces and RDMA ports --------------------------------------- */

/*
 * What the RDMA ports and interfaces the dumps describe lack: an active
 * RoCE port's GIDs (roce-no-routable-gid reads them) and its interface's
 * MTU (roce-mtu), an InfiniBand rate without width (ibstat), and
 * interfaces that nothing ties to a PCI function (their card's checks
 * cannot see them).
 */
static int net_notes(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	const struct nicfit_topo *t = a->topo;
	int i, k, no_gids = 0, no_mtu = 0, ib_rate = 0, unplaced = 0, rc = 0;

	for (i = 0; i < t->nrdma; i++) {
		const struct nicfit_rdmadev *r = &t->rdma[i];

		for (k = 0; k < r->nports && r->pci >= 0; k++) {
			const struct nicfit_rdma_port *pt = &r->ports[k];
			int nd = -1, j;

			if (pt->state != 4 || strcmp(pt->link_layer, "Ethernet"))
				continue;
			for (j = 0; j < t->nnet && nd < 0; j++)
				if (t->net[j].pci == r->pci)
					nd = j;
			no_gids |= !pt->gid_types_known;
			no_mtu |= nd < 0 || t->net[nd].mtu <= 0;
		}
	}
	for (i = 0; i < (int)d->nrdma; i++)
		for (k = 0; k < d->rdma[i].nports; k++)
			ib_rate |= d->rdma[i].ports[k].ibstat_rate && !d->rdma[i].ports[k].width &&
				   strcmp(d->rdma[i].ports[k].link_layer, "Ethernet");
	for (i = 0; i < t->nnet; i++)
		unplaced |= t->net[i].pci < 0 && !t->net[i].is_virtual;
	if (no_gids)
		rc |= note(a, "roce_gids", "The dumps hold no GID table for an active "
					"RoCE port (`show_gids`, or /sys/class/infiniband/*/ports/*/"
					"gid_attrs/types in a sosreport): whether it has a routable "
					"RoCE v2 GID was not judged.");
	if (no_mtu)
		rc |= note(a, "roce_mtu", "The dumps give no MTU for an active RoCE "
					"port's interface (`ip link` prints it; `ibdev2netdev` or "
					"`ethtool -i IF` tie the interface to its card): the RoCE path "
					"MTU was not judged.");
	if (ib_rate)
		rc |= note(a, "ib_rate", "ibstat gives an InfiniBand port's rate "
					"without its width and lane speed, so its data rate after line "
					"coding is unknown (`ibv_devinfo -v` prints active_width and "
					"active_speed).");
	if (unplaced)
		rc |= note(a, "interfaces", "Some interfaces of ip link are tied to "
					"no PCI function of the lspci listing (`ethtool -i IF` prints "
					"its bus-info; `ibdev2netdev -v` ties RDMA interfaces): their "
					"link state is not judged with their card.");
	return rc ? NICFIT_E_NOMEM : 0;
}

static int note_lacks(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	const char *check, *why;
	int rc = 0, i;

	if (!(d->formats & NICFIT_DUMP_LSPCI_V))
		rc |= note(a, "pcie_links", "The dumps hold no lspci -vvv listing (only lspci or "
			   "lspci -t): link speeds and widths, NUMA nodes and drivers are unknown.");
	else if (d->any_denied && !d->any_root)
		rc |= note(a, "pcie_links", "No LnkCap or LnkSta in an lspci run as non-root "
			   "(\"Capabilities: <access denied>\"): link speeds and widths are "
			   "unknown; `sudo lspci -vvv` shows them.");
	else if (!d->saw_lnk)
		rc |= note(a, "pcie_links", "The lspci listing has no LnkCap or LnkSta lines (lspci "
			   "-v prints capabilities without them; -vvv as root prints them).");
	if (!a->topo->privileged) {
		rc |= note(a, "acs", "ACS control bits are in PCIe extended config space, which "
			   "lspci shows only when run as root: `sudo lspci -vvv`.");
		rc |= note(a, "mps_mrrs", "MaxPayload and MaxReadReq are in the PCIe capability, "
			   "which lspci shows only when run as root: `sudo lspci -vvv`.");
	}
	if (d->any_denied && !d->any_root) {
		rc |= note(a, "vpd", "VPD (part number, serial) is readable only by root: cards "
			   "were named from PCI IDs.");
	}
	if (d->smi.present)
		rc |= note(a, "nvlink", "nvidia-smi topo -m's NV# cells are NVLink and NVSwitch "
			   "connections, which the PCI tree does not show: nicfit compares its "
			   "GPU-NIC cells and its PCIe GPU-GPU cells, not the NV# ones "
			   "(`nvidia-smi nvlink -s` lists the links).");
	if (!d->smi.present && a->ngpus)
		rc |= note(a, "smi_topo", smi_alone[tree_sources(d)]);
	if (a->nnics && !has_ibv(d))
		rc |= note(a, "rdma_ports", "The dumps hold no RDMA port state (ibv_devinfo or "
			   "ibstat): port state, rate and link layer are unknown.");
	rc |= note_sockets(d, a);
	for (i = 0; nicfit__dump_xml_lack(d, i, &check, &why); i++)
		rc |= note(a, check, why); /* after the lspci ones: its reasons replace theirs */
	rc |= net_notes(d, a);
	return rc ? NICFIT_E_NOMEM : 0;
}

/* Device names from lspci's own text where, without -nn, the audit had only a class name. */
static void lspci_names(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	int i;

	for (i = 0; i < a->ndevs; i++) {
		struct nicfit_audit_dev *v = &a->devs[i];
		const struct dump_fn *fn = nicfit__dump_find(d, a->topo->pci[v->pci].bdf);

		if (fn && fn->name[0] && !(fn->have & NICFIT_HAVE_IDS) && v->name_source &&
		    !strcmp(v->name_source, "class")) {
			snprintf(v->name, sizeof(v->name), "%s", fn->name);
			v->name_source = "lspci";
		}
	}
}

/* ---- the kernel log ----------------------------------------------------- */

/* The device a message names, as the audit labels it ("GPU1"), or its address. */
static const char *label_of(const struct nicfit_audit *a, const char *bdf, int *kind)
{
	int i;

	*kind = -1;
	for (i = 0; i < a->ndevs; i++)
		if (!strcmp(a->topo->pci[a->devs[i].pci].bdf, bdf)) {
			*kind = a->topo->pci[a->devs[i].pci].kind;
			return a->devs[i].label;
		}
	return bdf;
}

/*
 * dump-pcie-limited: the kernel says the device gets less bandwidth than
 * it and its port can carry, and names the narrowest link on the way. A
 * width short of the card's is a slot, riser or bifurcation fault: a
 * warning. Speed alone short on a GPU may be its power saving at the
 * moment the driver probed (GPUs lower the link speed when idle, as the
 * live audit's gpu-link-idle says): a note.
 */
static int judge_limited(const struct nicfit_dump *d, struct nicfit_audit *a,
			 const struct dump_kmsg *m)
{
	int kind;
	const char *lab = label_of(a, m->bdf, &kind);
	int speed_only = m->width > 0 && m->width == m->cap_width;
	int idle = speed_only && kind == NICFIT_DEV_GPU;
	char cap[96] = "", by[96] = "a link the line does not name";
	struct nicfit_finding *f;

	if (m->cap_gbps > 0 && m->cap_speed[0])
		snprintf(cap, sizeof(cap), " (capable of %.3f Gb/s with %s x%d)", m->cap_gbps,
			 m->cap_speed, m->cap_width);
	if (m->width > 0)
		snprintf(by, sizeof(by), "a %s x%d link at %s", m->speed, m->width,
			 m->limit_bdf[0] ? m->limit_bdf : "an unnamed port");
	f = nicfit__find(&a->findings, idle ? NICFIT_SEV_INFO : NICFIT_SEV_WARNING,
			 NICFIT_CODE_DUMP_PCIE_LIMITED, m->bdf[0] ? m->bdf : "host",
			 "The kernel log (%s:%d) says %s has %.3f Gb/s of PCIe bandwidth, limited "
			 "by %s%s.%s", d->texts[m->at.text].name, m->at.line, lab,
			 m->avail_gbps, by, cap,
			 idle ? " GPUs lower the link speed when idle, so this is not a fault by "
				"itself." : "");
	if (!f || nicfit__finding_fix(&a->findings, f, idle ?
				      "Re-check under load (`nvidia-smi --query-gpu="
				      "pcie.link.gen.current,pcie.link.width.current "
				      "--format=csv` while a job runs)." :
				      "Move the card to a slot wired for its full width and speed, "
				      "or check the riser and the BIOS link and bifurcation settings "
				      "of the port named; `sudo lspci -vvv` shows each link's LnkCap "
				      "and LnkSta."))
		return NICFIT_E_NOMEM;
	f->source = S_PCIE_LIMITED;
	return 0;
}

/*
 * dump-module-error: the driver refused or reported the port's optical
 * module or cable, so the port carries nothing (ixgbe does not even load)
 * until it is replaced, whatever else the audit finds about the card.
 */
static int judge_module(const struct nicfit_dump *d, struct nicfit_audit *a,
			const struct dump_kmsg *m)
{
	int kind;
	const char *lab = label_of(a, m->bdf, &kind);
	struct nicfit_finding *f;

	f = nicfit__find(&a->findings, NICFIT_SEV_WARNING, NICFIT_CODE_DUMP_MODULE_ERROR,
			 m->bdf[0] ? m->bdf : "host", "The kernel log (%s:%d) reports a module "
			 "or cable fault on %s: \"%s\"", d->texts[m->at.text].name, m->at.line,
			 m->bdf[0] ? lab : "a NIC the line does not name", m->text);
	if (!f || nicfit__finding_fix(&a->findings, f, "Use a module and cable the NIC's "
				      "vendor supports for the port's speed, and reseat them; "
				      "`ethtool -m IF` reads the module's identity."))
		return NICFIT_E_NOMEM;
	f->source = S_MODULE;
	return 0;
}

/* The kernel log lines' findings: dump-pcie-limited, dump-module-error. Errors: NICFIT_E_NOMEM. */
static int kmsg_judge(const struct nicfit_dump *d, struct nicfit_audit *a)
{
	size_t i;
	int rc = 0;

	for (i = 0; i < d->nkmsg && !rc; i++)
		rc = d->kmsg[i].kind == DUMP_KMSG_PCIE_LIMITED ? judge_limited(d, a, &d->kmsg[i])
							       : judge_module(d, a, &d->kmsg[i]);
	return rc;
}

int nicfit_dump_judge(const struct nicfit_dump *d, struct nicfit_audit *a,
		      struct nicfit_error *err)
{
	struct pci_index x;
	int rc;

	index_pci(a->topo, &x);
	rc = take_back(d, a, &x);
	if (!rc && d->smi.present && d->nfns)
		rc = compare_smi(d, a);
	if (!rc)
		rc = cite_all(d, a, &x);
	free(x.keys);
	if (!rc)
		rc = kmsg_judge(d, a);
	if (!rc && d->nfns)
		rc = note_lacks(d, a);
	if (!rc)
		rc = nicfit__audit_paste(d, a);
	if (!rc)
		rc = note_tree_names(d, a);
	if (!rc) {
		lspci_names(d, a);
		rc = nicfit__audit_settle(a);
	}
	return rc ? nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory") : 0;
}
