/*
 * verify_causes.c - what an NCCL log says about why the network is not
 * the one meant: sockets where RDMA devices exist, libibverbs missing,
 * GPUDirect RDMA disabled per HCA, channels without /GDRDMA, WARN lines
 * with the meaning of their status codes, and the environment variables
 * that change what the log means. Each finding quotes its line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc_int.h"
#include "core/finding_int.h"
#include "nicfit/buf.h"
#include "verify/verify_int.h"

static int judge_gdr_gpus(struct nicfit_verify *v, struct nicfit_verify_doc *d, size_t *off);

/*
 * An AMD run: the log is RCCL's (its banner, librccl, the ROCm runtime
 * versions it prints) or a table beside it names an AMD GPU. Its advice
 * names ROCm's and RCCL's own tools and paths, never NVIDIA's.
 */
static int amd_run(const struct nicfit_verify *v, const struct nicfit_nccl_log *g)
{
	size_t i;

	if (g->rccl)
		return 1;
	for (i = 0; i < v->ndocs; i++)
		if (v->docs[i].kind == NICFIT_VERIFY_NCCL_TESTS &&
		    !strncmp(v->docs[i].u.t.gpu, "AMD ", 4))
			return 1;
	return 0;
}

/*
 * Where GPUDirect RDMA's peer memory comes from, by vendor. NCCL looks
 * for /sys/kernel/mm/memory_peers/nv_mem/version (nvidia-peermem;
 * src/transport/net_ib/gdr.cc). RCCL looks for the amdgpu driver's
 * /sys/kernel/mm/memory_peers/amdkfd/version (or /sys/kernel/memory_peers/
 * or /sys/memory_peers/, by kernel; ROCm/rccl src/transport/net_ib.cc),
 * else registers GPU memory through DMA-BUF, which RCCL enables for Linux
 * 6.4 and later (RCCL 2.21.5 changelog, ROCm 6.3) and whose state its log
 * prints ("Dmabuf feature disabled without NCCL_DMABUF_ENABLE=1").
 */
#define NV_PEERMEM_FIX "Load the peer-memory module: modprobe nvidia-peermem (NCCL looks for " \
	"/sys/kernel/mm/memory_peers/nv_mem/version)."
#define AMD_PEERMEM_FIX "RCCL found no GPU peer memory: it looks for " \
	"/sys/kernel/mm/memory_peers/amdkfd/version (the amdgpu driver's peer-memory interface, " \
	"from ROCm's amdgpu-dkms driver), else registers GPU memory through DMA-BUF on Linux 6.4 " \
	"and later, which its log says is off when it prints \"Dmabuf feature disabled without " \
	"NCCL_DMABUF_ENABLE=1\". Check ls /sys/kernel/mm/memory_peers/amdkfd/ and the GPU and NIC " \
	"placement with rocm-smi --showtopo."
#define AMD_PEERMEM "amdgpu's peer memory, /sys/kernel/mm/memory_peers/amdkfd"

/*
 * The advice when a GPU is further from its HCA than the GDR level lets
 * GPUDirect RDMA reach. NCCL documents NCCL_NET_GDR_LEVEL to widen it;
 * RCCL's environment-variable reference (ROCm/rccl
 * docs/api-reference/env-variables.rst) lists no such setting, so an AMD
 * run is told to move the cards, and how to see where they are, only.
 */
#define AMD_GDR_DISTANCE_FIX "put the GPU and the HCA under one PCIe switch or on one CPU " \
	"socket (rocm-smi --showtopo shows each GPU's NUMA node and link type, and nicfit audit shows the " \
	"PCIe path between them); RCCL's environment-variable reference lists no setting that " \
	"widens the GPUDirect RDMA reach, so nicfit names none."

/*
 * s, in an AMD run's words, into b: "nvidia-peermem" said as AMD's peer
 * memory, and NCCL_NET_GDR_LEVEL, which RCCL's environment-variable
 * reference does not list, left out with the clause that names it.
 */
static void vendor_words(struct nicfit_buf *b, const char *s, int amd)
{
	const char *p, *gdr = amd ? strstr(s, "; as a test, NCCL_NET_GDR_LEVEL") : NULL;
	const char *end = gdr ? gdr : s + strlen(s);

	while (amd && (p = strstr(s, "nvidia-peermem")) != NULL && p < end) {
		nicfit_buf_add(b, s, (size_t)(p - s));
		nicfit_buf_puts(b, AMD_PEERMEM);
		s = p + 14;
	}
	nicfit_buf_add(b, s, (size_t)(end - s));
}

/*
 * Where RDMA devices show although NCCL used sockets: the HCAs NET/IB
 * listed, an IPoIB interface (ib*) NCCL bootstrapped or listed sockets on,
 * an NCCL_IB_HCA the user set, or the expectation's RDMA protocol.
 * Returns the line to quote (0: the expectation), -1 none.
 */
static long rdma_evidence(const struct nicfit_verify *v, const struct nicfit_nccl_log *g,
			  char *what, size_t size)
{
	const struct nicfit_nccl_kv *hca = nicfit__venv(g, "NCCL_IB_HCA");

	if (g->nhcas && g->hcas[0].line) {
		snprintf(what, size, "NET/IB lists %s", g->hcas[0].name);
		return g->hcas[0].line;
	}
	if (!strncmp(g->bootstrap_if, "ib", 2)) {
		snprintf(what, size, "the bootstrap runs on the IPoIB interface %s", g->bootstrap_if);
		return g->bootstrap_line;
	}
	if (!strncmp(g->socket_ifs, "ib", 2) || strstr(g->socket_ifs, ", ib")) {
		snprintf(what, size, "NET/Socket lists an IPoIB interface (%s)", g->socket_ifs);
		return g->socket_line;
	}
	if (hca) {
		snprintf(what, size, "NCCL_IB_HCA is set to %s", hca->value);
		return hca->line;
	}
	if (v->expect.proto >= 1 && v->expect.source) {
		snprintf(what, size, "the expectation (%s) is an RDMA link", v->expect.source);
		return 0;
	}
	return -1;
}

/*
 * NET/Socket while RDMA devices exist. Why: NCCL falls back to sockets
 * when its IB transport finds no device (src/transport/net_ib/init.cc
 * prints "NET/IB : No device found."), when libibverbs cannot be opened,
 * or when the user turned IB off (NCCL_IB_DISABLE, NCCL_NET). Sockets
 * carry a fraction of an RDMA link and cost CPU, so the finding is
 * critical. The causes are ranked by how directly the log shows them: a
 * variable the user set, then the library missing, then no device.
 */
static int judge_socket(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_nccl_log *g = &d->u.log;
	const struct nicfit_nccl_kv *dis = nicfit__venv(g, "NCCL_IB_DISABLE");
	const struct nicfit_nccl_kv *net = nicfit__venv(g, "NCCL_NET");
	const struct nicfit_nccl_kv *hca = nicfit__venv(g, "NCCL_IB_HCA");
	struct nicfit_finding *f;
	struct nicfit_buf b;
	char what[160];
	long ev;
	int n = 0;

	if (strcmp(g->network, "Socket"))
		return 0;
	ev = rdma_evidence(v, g, what, sizeof(what));
	if (ev < 0)
		return 0;
	nicfit_buf_init(&b, 0);
	nicfit_buf_addf(&b, "%s: NCCL moves data over NET/Socket (TCP)", d->input);
	nicfit__vquote(&b, d, g->network_line);
	nicfit_buf_addf(&b, " although %s", what);
	nicfit__vquote(&b, d, ev);
	f = nicfit__find(&v->findings, NICFIT_SEV_CRITICAL, NICFIT_CODE_VERIFY_NCCL_NET_SOCKET, NULL,
			 "%s", b.data ? b.data : "");
	nicfit_buf_reset(&b);
	nicfit_buf_puts(&b, "Likely causes, most likely first:");
	if (dis && strcmp(dis->value, "0")) {
		nicfit_buf_addf(&b, " %d) NCCL_IB_DISABLE=%s turns InfiniBand/RoCE off", ++n, dis->value);
		nicfit__vquote(&b, d, dis->line);
		nicfit_buf_puts(&b, ": unset it.");
	}
	if (net && strstr(net->value, "Socket")) {
		nicfit_buf_addf(&b, " %d) NCCL_NET=%s asks for sockets", ++n, net->value);
		nicfit__vquote(&b, d, net->line);
		nicfit_buf_puts(&b, ": unset it or set NCCL_NET=IB.");
	}
	if (g->no_ibverbs) {
		nicfit_buf_addf(&b, " %d) libibverbs is not installed where NCCL runs", ++n);
		nicfit__vquote(&b, d, g->no_ibverbs_line);
		nicfit_buf_puts(&b, ": install rdma-core's libibverbs (in the container too); "
				"ibv_devinfo must list the HCAs.");
	}
	if (g->ib_no_device) {
		nicfit_buf_addf(&b, " %d) libibverbs sees no usable device", ++n);
		nicfit__vquote(&b, d, g->ib_no_device_line);
		if (hca) {
			nicfit_buf_addf(&b, ": NCCL_IB_HCA=%s may match none of them", hca->value);
			nicfit__vquote(&b, d, hca->line);
			nicfit_buf_puts(&b, " (check the names ibv_devinfo prints);");
		}
		nicfit_buf_puts(&b, " in a container, the RDMA devices (/dev/infiniband) must be "
				"passed in; on the host, the HCA's port must be Active "
				"(ibv_devinfo).");
	}
	if (!n)
		nicfit_buf_puts(&b, " the log does not say why NET/IB was not chosen: rerun with "
				"NCCL_DEBUG=INFO NCCL_DEBUG_SUBSYS=INIT,NET.");
	if (f && nicfit__finding_fix(&v->findings, f, "%s", b.data ? b.data : ""))
		f = NULL;
	nicfit_buf_release(&b);
	return f ? 0 : NICFIT_E_NOMEM;
}

/*
 * GPUDirect RDMA, per HCA. NCCL prints "GPU Direct RDMA Disabled for HCA
 * n 'name'" (src/graph/topo.cc) when the peer-memory path is missing, and
 * 2.4-2.6 printed "(distance d > l)" when the GPU is further from the HCA
 * than NCCL_NET_GDR_LEVEL allows. "(no module)" means none of
 * /sys/kernel/mm/memory_peers/nv_mem/version or .../nv_mem_nc/version
 * exists (src/transport/net_ib/gdr.cc): nvidia-peermem is not loaded. A
 * warning: NCCL works, through host memory, at a cost in bandwidth and CPU.
 */
static int judge_gdr(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_nccl_log *g = &d->u.log;
	char q[NICFIT__VQUOTE_MAX + 1];
	struct nicfit_finding *f;
	size_t i, off = 0;
	int rc = judge_gdr_gpus(v, d, &off);

	for (i = 0; i < g->nhcas && !rc; i++) {
		const struct nicfit_nccl_hca *h = &g->hcas[i];

		if (h->gdr != 0)
			continue;
		off++;
		nicfit__vline_at(d, h->gdr_line, q, sizeof(q));
		f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_VERIFY_NCCL_GDR_DISABLED,
				 h->name[0] ? h->name : NULL, "%s: GPUDirect RDMA disabled for HCA %zu '%s'%s%s%s; line "
				 "%ld: \"%s\"", d->input, i, h->name, h->gdr_reason[0] ? " (" : "",
				 h->gdr_reason, h->gdr_reason[0] ? ")" : "", h->gdr_line, q);
		if (!f)
			return NICFIT_E_NOMEM;
		if (!strcmp(h->gdr_reason, "no module"))
			rc = nicfit__finding_fix(&v->findings, f, "%s", amd_run(v, g) ?
						 AMD_PEERMEM_FIX : NV_PEERMEM_FIX);
		else if (!strncmp(h->gdr_reason, "distance", 8) && amd_run(v, g))
			rc = nicfit__finding_fix(&v->findings, f, "The GPU is too far from %s on "
				"PCIe for RCCL's GDR level: %s", h->name[0] ? h->name : "the HCA",
				AMD_GDR_DISTANCE_FIX);
		else if (!strncmp(h->gdr_reason, "distance", 8))
			rc = nicfit__finding_fix(&v->findings, f, "The GPU is too far from %s on "
				"PCIe for NCCL's GDR level: put them under one switch or CPU, or "
				"raise NCCL_NET_GDR_LEVEL (e.g. PHB).", h->name[0] ? h->name : "the HCA");
		else
			rc = nicfit__finding_fix(&v->findings, f, "Likely causes, most likely first: "
				"1) %s; 2) the GPU and %s further apart than %s allows; 3) ACS or the "
				"IOMMU redirecting peer-to-peer traffic (nicfit audit shows both).",
				amd_run(v, g) ? "no GPU peer memory (RCCL "
				"looks for /sys/kernel/mm/memory_peers/amdkfd/version, else DMA-BUF)" :
				"nvidia-peermem not loaded (modprobe nvidia-peermem; NCCL looks for "
				"/sys/kernel/mm/memory_peers/nv_mem/version)",
				h->name[0] ? h->name : "the HCA",
				amd_run(v, g) ? "RCCL's GDR level" : "NCCL_NET_GDR_LEVEL");
	}
	if (rc)
		return rc;
	/* channels over the network without /GDRDMA, when no HCA line already said so */
	if (!off && g->chan_net && !g->chan_gdr && strcmp(g->network, "Socket")) {
		nicfit__vline_at(d, g->chan_nogdr_line, q, sizeof(q));
		f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_VERIFY_NCCL_CHANNEL_NO_GDR,
				 NULL, "%s: none of %zu network channel connections use GPUDirect "
				 "RDMA (no /GDRDMA); line %ld: \"%s\"", d->input, g->chan_net,
				 g->chan_nogdr_line, q);
		if (!f || nicfit__finding_fix(&v->findings, f, "%s", amd_run(v, g) ?
					      "Rerun with NCCL_DEBUG_SUBSYS=INIT,NET to see RCCL's GPU "
					      "Direct RDMA line for each HCA; if it says \"no module\", "
					      "check /sys/kernel/mm/memory_peers/amdkfd/version (RCCL's "
					      "peer memory) or DMA-BUF (its log says when it is off)." :
					      "Rerun with NCCL_DEBUG_SUBSYS=INIT,NET to see NCCL's GPU "
					      "Direct RDMA line for each HCA; load nvidia-peermem if it "
					      "says \"no module\"."))
			return NICFIT_E_NOMEM;
	}
	return 0;
}

/*
 * NCCL's per-GPU lines (2.3-2.26), kept per GPU: "GPU Direct RDMA
 * Disabled for GPU 1b000 / HCA 0 (distance 4 > 2)" says this GPU is
 * further from that HCA than NCCL_NET_GDR_LEVEL allows, in NCCL's own
 * path-type numbers (which moved between eras, so the fix names the
 * documented words, not the numbers); "(no module)" and 2.4's "(no module
 * or not supported by GPU)" say the peer-memory path is missing.
 */
static int judge_gdr_gpus(struct nicfit_verify *v, struct nicfit_verify_doc *d, size_t *off)
{
	const struct nicfit_nccl_log *g = &d->u.log;
	const struct nicfit_nccl_kv *lvl = nicfit__venv(g, "NCCL_NET_GDR_LEVEL");
	char q[NICFIT__VQUOTE_MAX + 1], hca[40];
	struct nicfit_finding *f;
	struct nicfit_buf b;
	size_t i;
	int rc = 0;

	for (i = 0; i < g->ngdr_gpus && !rc; i++) {
		const struct nicfit_nccl_gdr_gpu *x = &g->gdr_gpus[i];

		if (x->on)
			continue;
		(*off)++;
		if (x->hca_name[0])
			snprintf(hca, sizeof(hca), "%s", x->hca_name);
		else
			snprintf(hca, sizeof(hca), "%d", x->hca);
		nicfit__vline_at(d, x->line, q, sizeof(q));
		f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_VERIFY_NCCL_GDR_DISABLED,
				 NULL, "%s: GPUDirect RDMA disabled for GPU %s / HCA %s%s%s%s; line %ld: "
				 "\"%s\"", d->input, x->gpu, hca, x->reason[0] ? " (" : "", x->reason,
				 x->reason[0] ? ")" : "", x->line, q);
		if (!f)
			return NICFIT_E_NOMEM;
		nicfit_buf_init(&b, 0);
		if (x->distance >= 0) {
			int amd = amd_run(v, &d->u.log);

			nicfit_buf_addf(&b, "GPU %s is further from HCA %s on PCIe (distance %d) than "
					"the GDR level allows (%d, %s path-type numbers)", x->gpu,
					hca, x->distance, x->level, amd ? "RCCL's" : "NCCL's");
			if (lvl) {
				nicfit_buf_addf(&b, "; the log sets NCCL_NET_GDR_LEVEL=%s", lvl->value);
				nicfit__vquote(&b, d, lvl->line);
			}
			if (amd)
				nicfit_buf_addf(&b, ": %s", AMD_GDR_DISTANCE_FIX);
			else
				nicfit_buf_puts(&b, ": put the GPU and the HCA under one PCIe switch or "
						"CPU, or allow the path NCCL measured with a wider level "
						"(PXB, PHB or SYS, in NCCL_NET_GDR_LEVEL's documented "
						"words) where peer-to-peer DMA through that path performs.");
		} else {
			nicfit_buf_puts(&b, amd_run(v, &d->u.log) ? AMD_PEERMEM_FIX :
					"Load the peer-memory module (modprobe nvidia-peermem); "
					"GPUs without GPUDirect RDMA support (GeForce) cannot use it.");
		}
		rc = nicfit__finding_fix(&v->findings, f, "%s", b.data ? b.data : "");
		nicfit_buf_release(&b);
	}
	return rc;
}

/*
 * Several jobs in one paste (verify_nccllog.c: rank-0 inits on different
 * hosts, none spanning nodes): what was measured never crossed the
 * network between them, whatever the paste was meant to show.
 */
static int judge_jobs(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_nccl_log *g = &d->u.log;
	struct nicfit_finding *f;
	struct nicfit_buf b;

	if (g->jobs < 2)
		return 0;
	nicfit_buf_init(&b, 0);
	nicfit_buf_addf(&b, "%s: %d communicators each start their own rank 0 on a different "
			"host and none spans nodes", d->input, g->jobs);
	if (g->nnodes == 1)
		nicfit_buf_addf(&b, " (NCCL: nNodes 1)");
	nicfit__vquote(&b, d, g->jobs_line);
	nicfit_buf_puts(&b, ": separate single-node jobs, not one multi-node run");
	f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_VERIFY_NCCL_SEPARATE_JOBS,
			 NULL, "%s", b.data ? b.data : "");
	nicfit_buf_release(&b);
	if (!f || nicfit__finding_fix(&v->findings, f, "Launch every rank under one launcher "
				      "(mpirun or srun over all the hosts, with nccl-tests built "
				      "MPI=1; torchrun with --nnodes and one rendezvous endpoint); "
				      "the init line of one job then says nNodes N."))
		return NICFIT_E_NOMEM;
	return 0;
}

/* NET/IB's list mixes InfiniBand and RoCE ports: they are different fabrics. */
static int judge_mixed_links(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_nccl_log *g = &d->u.log;
	char ib[160] = "", roce[160] = "";
	struct nicfit_finding *f;
	size_t i;

	if (!g->ib_mixed_links)
		return 0;
	for (i = 0; i < g->nhcas; i++) {
		char *t = !strcmp(g->hcas[i].link, "IB") ? ib : !strcmp(g->hcas[i].link, "RoCE") ?
			  roce : NULL;

		if (t && strlen(t) + strlen(g->hcas[i].name) + 3 < sizeof(ib))
			snprintf(t + strlen(t), sizeof(ib) - strlen(t), "%s%s", t[0] ? "," : "",
				 g->hcas[i].name);
	}
	f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_VERIFY_NCCL_MIXED_LINK_LAYERS,
			 NULL, "%s: NCCL uses InfiniBand ports (%s) and RoCE ports (%s) together; "
			 "line %ld", d->input, ib, roce, g->hcas[0].line);
	if (!f || nicfit__finding_fix(&v->findings, f, "An InfiniBand port reaches only InfiniBand "
				      "peers and a RoCE port only Ethernet ones: list the ports of "
				      "the fabric the job runs on in NCCL_IB_HCA (e.g. "
				      "NCCL_IB_HCA=%s), on every node.", ib[0] ? ib : roce))
		return NICFIT_E_NOMEM;
	return 0;
}

/* ncclResult_t (nccl.h) */
static const char *nccl_result(long c)
{
	static const char *const t[] = {
		"ncclSuccess", "ncclUnhandledCudaError: a CUDA call failed",
		"ncclSystemError: a system call failed (often the network: a socket, verbs or "
		"a peer process that died)",
		"ncclInternalError: NCCL's own check failed", "ncclInvalidArgument",
		"ncclInvalidUsage: the application called NCCL wrongly",
		"ncclRemoteError: a remote rank failed or the network between them broke",
		"ncclInProgress",
	};

	return c >= 0 && c < (long)(sizeof(t) / sizeof(t[0])) ? t[c] : NULL;
}

/*
 * enum ibv_wc_status (rdma-core libibverbs/verbs.h; NCCL's ibvcore.h), with
 * ibv_wc_status_str's words (libibverbs/enum_strs.c), what the status
 * means in practice under NCCL, and what to check. Each its own.
 */
struct wc_meaning {
	const char *name, *what, *check;
};

static const struct wc_meaning wc_table[] = {
	{ "IBV_WC_SUCCESS", "success", "" },
	{ "IBV_WC_LOC_LEN_ERR", "local length error: a message larger than the receive buffer",
	  "a mismatch between the two sides' NCCL or plugin versions (run the same NCCL on every node)" },
	{ "IBV_WC_LOC_QP_OP_ERR", "local QP operation error: a work request the queue pair cannot run",
	  "the HCA's firmware and driver (ibv_devinfo fw_ver; the same MLNX_OFED or rdma-core on every node)" },
	{ "IBV_WC_LOC_EEC_OP_ERR", "local EE context operation error", "the HCA's driver and firmware" },
	{ "IBV_WC_LOC_PROT_ERR", "local protection error: the HCA could not reach a registered buffer; "
	  "in NCCL or RCCL traffic almost always GPU memory that peer-to-peer DMA cannot reach (ACS redirecting "
	  "the PCIe traffic up to the root complex, or the IOMMU translating it)",
	  "that ACS is off on the PCIe switches between the GPUs and the HCAs (lspci -vvv: ACSCtl "
	  "SrcValid- ReqRedir- CmpltRedir-; nicfit audit shows it) and that the IOMMU is off or in "
	  "passthrough (iommu=pt); as a test, NCCL_NET_GDR_LEVEL=LOC turns GPUDirect RDMA off: if the "
	  "error goes away, the GPU-to-HCA DMA path is the cause" },
	{ "IBV_WC_WR_FLUSH_ERR", "work request flushed: the queue pair was already in error",
	  "the first completion error of the log, not this one (a flush follows another failure)" },
	{ "IBV_WC_MW_BIND_ERR", "memory window bind error", "the HCA's driver and firmware" },
	{ "IBV_WC_BAD_RESP_ERR", "bad response: the peer answered with an unexpected transport response",
	  "the fabric between the hosts (a switch or a NIC mangling packets) and the peer's HCA firmware" },
	{ "IBV_WC_LOC_ACCESS_ERR", "local access error: a buffer registered without the access asked for",
	  "the peer-memory module (nvidia-peermem) and the NCCL and plugin versions" },
	{ "IBV_WC_REM_INV_REQ_ERR", "remote invalid request: the peer refused the request as malformed",
	  "that every node runs the same NCCL and net plugin" },
	{ "IBV_WC_REM_ACCESS_ERR", "remote access error: the peer refused access to its memory",
	  "the peer's memory registration (its nvidia-peermem, ACS and IOMMU), and that the peer's "
	  "process did not free or lose its buffers first" },
	{ "IBV_WC_REM_OP_ERR", "remote operation error: the peer could not complete the operation",
	  "the peer's own log: its HCA or process failed first" },
	{ "IBV_WC_RETRY_EXC_ERR", "transport retry counter exceeded: the peer did not acknowledge in "
	  "time (link down or flapping, a wrong GID or route, or the remote process gone)",
	  "the ports and cables on both sides (ibv_devinfo: PORT_ACTIVE; error counters), on RoCE the "
	  "GID index (NCCL_IB_GID_INDEX) and lossless configuration (PFC/ECN), and whether the peer "
	  "process died first (its own log)" },
	{ "IBV_WC_RNR_RETRY_EXC_ERR", "RNR retry counter exceeded: the receiver had no buffer posted",
	  "whether the peer process stalled or died (its own log)" },
	{ "IBV_WC_LOC_RDD_VIOL_ERR", "local RDD violation error", "the HCA's driver and firmware" },
	{ "IBV_WC_REM_INV_RD_REQ_ERR", "remote invalid RD request", "the HCA's driver and firmware" },
	{ "IBV_WC_REM_ABORT_ERR", "remote aborted: the peer aborted the operation",
	  "the peer's own log" },
	{ "IBV_WC_INV_EECN_ERR", "invalid EE context number", "the HCA's driver and firmware" },
	{ "IBV_WC_INV_EEC_STATE_ERR", "invalid EE context state", "the HCA's driver and firmware" },
	{ "IBV_WC_FATAL_ERR", "fatal error: the HCA itself failed",
	  "the kernel log (dmesg: mlx5_core errors, a firmware reset) and the HCA's health" },
	{ "IBV_WC_RESP_TIMEOUT_ERR", "response timeout: the peer did not respond",
	  "the link and the peer, as for a retry counter exceeded" },
	{ "IBV_WC_GENERAL_ERR", "general error: the HCA reported an error it does not classify",
	  "the kernel log (dmesg) and the vendor error code" },
	{ "IBV_WC_TM_ERR", "tag matching error", "the HCA's driver and firmware" },
	{ "IBV_WC_TM_RNDV_INCOMPLETE", "tag matching rendezvous incomplete",
	  "the HCA's driver and firmware" },
};

/*
 * RCCL's own start-up warnings (ROCm/rccl src/init.cpp, as its WARN lines
 * name it): 'Missing "HSA_FORCE_FINE_GRAIN_PCIE=1" from environment',
 * 'Missing "iommu=pt"' and 'Missing "amd_iommu=on" from kernel command
 * line'. The fix is what the warning asks, with when it applies: the
 * variable only for PCIe peer-to-peer before ROCm 5.7 (RCCL's maintainers
 * in ROCm/rccl#92, 2019, and #842, 2023). Returns 0 or -1.
 */
static int rccl_warn_fix(struct nicfit_verify *v, struct nicfit_finding *f, const char *t)
{
	if (strstr(t, "Missing \"HSA_FORCE_FINE_GRAIN_PCIE=1\""))
		return nicfit__finding_fix(&v->findings, f, "Before ROCm 5.7, set "
					   "HSA_FORCE_FINE_GRAIN_PCIE=1 in every rank's environment "
					   "where GPUs meet over PCIe, as RCCL's warning asks; GPUs "
					   "joined by xGMI do not need it, nor does ROCm 5.7 or later "
					   "(RCCL's maintainers, ROCm/rccl#92 and #842).");
	if (strstr(t, "Missing \"iommu=pt\"") || strstr(t, "Missing \"amd_iommu=on\""))
		return nicfit__finding_fix(&v->findings, f, "Add iommu=pt (and amd_iommu=on on AMD "
					   "CPUs) to the kernel command line and reboot, as RCCL's "
					   "warning asks; check with cat /proc/cmdline.");
	return 0;
}

/* "Check CHECK; ..." for a completion status, in the run's vendor's words. Returns 0 or -1. */
static int wc_fix(struct nicfit_verify *v, struct nicfit_finding *f, const char *check, int amd)
{
	struct nicfit_buf b;
	int rc;

	nicfit_buf_init(&b, 0);
	nicfit_buf_puts(&b, "Check ");
	vendor_words(&b, check, amd);
	nicfit_buf_puts(&b, "; the vendor error is the NIC's own code.");
	rc = nicfit_buf_error(&b) ? -1 : nicfit__finding_fix(&v->findings, f, "%s", b.data);
	nicfit_buf_release(&b);
	return rc;
}

static const struct wc_meaning *wc_status(long c)
{
	return c >= 0 && c < (long)(sizeof(wc_table) / sizeof(wc_table[0])) ? &wc_table[c] : NULL;
}

/* The status of "with error 12," (2.4-2.18) or "status=IBV_WC_..(12)" / "status=12". */
static long completion_status(const char *s)
{
	const char *p;

	if ((p = strstr(s, "with error ")) != NULL)
		return nicfit__vint(p + 11, NULL);
	if ((p = strstr(s, "status=")) != NULL) {
		const char *par = strchr(p, '(');

		if (par && par < p + 40 && nicfit__vint(par + 1, NULL) >= 0)
			return nicfit__vint(par + 1, NULL);
		return nicfit__vint(p + 7, NULL);
	}
	return -1;
}

/*
 * "Got async event : TEXT": libibverbs' ibv_event_type_str() names for the
 * HCA's asynchronous events (rdma-core, libibverbs/verbs.c). The first
 * eight leave a queue pair, a completion queue, a port or the HCA in error,
 * so the transfers on it fail (critical); the others report a change the
 * verbs consumer may ride out (a warning, as NCCL's WARN).
 */
static const struct async_meaning {
	const char *text, *name, *what, *check;
	int fatal;
} async_table[] = {
	{ "local access violation work queue error", "IBV_EVENT_QP_ACCESS_ERR",
	  "a request broke a queue pair's access rights (a memory region registered on another "
	  "HCA or with fewer rights, a wrong remote key): the HCA put the queue pair in error",
	  "that both ends agree on the interface MTU (ip link) and on the GID index and RoCE "
	  "version (show_gids on each node, NCCL_IB_GID_INDEX), and run the same HCA driver", 1 },
	{ "local work queue catastrophic error", "IBV_EVENT_QP_FATAL",
	  "the HCA failed a queue pair it could not report through a completion",
	  "the HCA's firmware and the kernel log (dmesg)", 1 },
	{ "invalid request local work queue error", "IBV_EVENT_QP_REQ_ERR",
	  "the peer rejected a request as invalid (an opcode or a length it does not accept)",
	  "that both nodes run the same NCCL and plugin versions", 1 },
	{ "CQ error", "IBV_EVENT_CQ_ERR", "a completion queue overflowed or failed",
	  "the kernel log (dmesg) for the HCA", 1 },
	{ "local catastrophic error", "IBV_EVENT_DEVICE_FATAL",
	  "the HCA itself failed and needs a reset (driver reload or reboot)",
	  "the kernel log (dmesg) and the HCA's firmware", 1 },
	{ "port error", "IBV_EVENT_PORT_ERR",
	  "the port left the ACTIVE state: its link went down or flapped",
	  "the port's state and the cable and switch port behind it (ibstat, rdma link, "
	  "the switch's log)", 1 },
	{ "path migration request error", "IBV_EVENT_PATH_MIG_ERR",
	  "a queue pair could not move to its alternate path", "the fabric's routes", 1 },
	{ "SRQ catastrophic error", "IBV_EVENT_SRQ_ERR", "a shared receive queue failed",
	  "the kernel log (dmesg)", 1 },
	{ "GID table change", "IBV_EVENT_GID_CHANGE",
	  "an address was added to or removed from the port's GID table (an IP address "
	  "change on a RoCE interface); a GID index in use may now name another address",
	  "", 0 },
	{ "port active", "IBV_EVENT_PORT_ACTIVE", "the port came (back) up", "", 0 },
	{ "LID change", "IBV_EVENT_LID_CHANGE", "the subnet manager gave the port a new LID", "", 0 },
	{ "P_Key change", "IBV_EVENT_PKEY_CHANGE", "the port's partition keys changed", "", 0 },
	{ "SM change", "IBV_EVENT_SM_CHANGE", "another subnet manager took over", "", 0 },
	{ "client reregistration", "IBV_EVENT_CLIENT_REREGISTER",
	  "the subnet manager asked clients to register again", "", 0 },
};

static const struct async_meaning *async_event(const char *t)
{
	const char *p = strstr(t, "Got async event");
	size_t i;

	if (!p || !(p = strchr(p, ':')))
		return NULL;
	p++;
	while (*p == ' ' || *p == '\t')
		p++;
	for (i = 0; i < sizeof(async_table) / sizeof(async_table[0]); i++)
		if (!strncmp(p, async_table[i].text, strlen(async_table[i].text)))
			return &async_table[i];
	return NULL;
}

static struct nicfit_finding *judge_async(struct nicfit_verify *v, struct nicfit_verify_doc *d,
					  size_t i, const struct async_meaning *am)
{
	const struct nicfit_nccl_log *g = &d->u.log;
	struct nicfit_finding *f;

	f = nicfit__find(&v->findings, am->fatal ? NICFIT_SEV_CRITICAL : NICFIT_SEV_WARNING,
			 NICFIT_CODE_VERIFY_NCCL_WARN, NULL, "%s: line %ld: \"%.*s\": %s, %s",
			 d->input, g->warns[i].line, NICFIT__VQUOTE_MAX, g->warns[i].text,
			 am->name, am->what);
	if (f && am->check[0] && nicfit__finding_fix(&v->findings, f, "Check %s.", am->check))
		return NULL;
	return f;
}

/* The result c of a trace "file.cc:N -> c" (not a WARN line), 0 none. */
static long trace_result(const char *t)
{
	const char *arrow = strstr(t, " -> ");

	if (!arrow || strstr(t, "NCCL WARN"))
		return 0;
	return nicfit__vint(arrow + 4, NULL) > 0 ? nicfit__vint(arrow + 4, NULL) : 0;
}

/*
 * The process a line's prefix names, "host pid P [dev]" from NCCL's
 * "host:pid:tid [dev]" (the thread left out: one process's traces run on
 * its threads); the prefix as printed when it has another shape.
 */
static void trace_process(const char *t, char *out, size_t n)
{
	size_t len = strcspn(t, " "), h = strcspn(t, ":");
	const char *dev = t[len] == ' ' && t[len + 1] == '[' ? t + len + 1 : NULL;
	size_t dl = dev ? strcspn(dev, "]") + 1 : 0;
	const char *pid = h < len ? t + h + 1 : NULL;
	size_t pl = pid ? strcspn(pid, ": ") : 0;

	if (!pid || !pl || !dev || dev[dl - 1] != ']')
		snprintf(out, n, "%.*s", (int)(len < 64 ? len : 64), t);
	else
		snprintf(out, n, "%.*s pid %.*s %.*s", (int)(h < 64 ? h : 64), t, (int)pl, pid,
			 (int)(dl < 16 ? dl : 16), dev);
}

/*
 * A "file.cc:N -> c" line is NCCL returning result c up its call stack:
 * one failure prints a line per frame, in every process it reaches. All
 * the lines of one result are one finding (a warning: NCCL falls back from
 * some, a plugin that does not load for one), with how many lines there
 * are, the processes they come from and the first of them, where the
 * failure was met; the cause is the WARN line before it, its own finding.
 */
static int judge_traces(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_nccl_log *g = &d->u.log;
	size_t i, k;

	for (i = 0; i < g->nwarns; i++) {
		long st = trace_result(g->warns[i].text), last = g->warns[i].line;
		char procs[512] = "", one[128];
		size_t l = 0;
		int lines = 0, nproc = 0;
		struct nicfit_finding *f;

		for (k = 0; st && k < i && trace_result(g->warns[k].text) != st; k++)
			;
		if (!st || k < i)
			continue; /* no trace, or its result was judged with an earlier line */
		for (k = i; k < g->nwarns; k++) {
			size_t j;

			if (trace_result(g->warns[k].text) != st)
				continue;
			lines++;
			last = g->warns[k].line;
			trace_process(g->warns[k].text, one, sizeof(one));
			for (j = i; j < k; j++) {
				char seen[128];

				if (trace_result(g->warns[j].text) != st)
					continue;
				trace_process(g->warns[j].text, seen, sizeof(seen));
				if (!strcmp(seen, one))
					break;
			}
			if (j < k)
				continue;
			if (nproc++ < 8 && l < sizeof(procs))
				l += (size_t)snprintf(procs + l, sizeof(procs) - l, "%s%s",
						      l ? ", " : "", one);
		}
		if (lines == 1)
			f = nicfit__find(&v->findings, NICFIT_SEV_WARNING,
					 NICFIT_CODE_VERIFY_NCCL_ERROR, NULL, "%s: line %ld: \"%.*s\": "
					 "result %ld is %s (one trace line, in %s)", d->input,
					 g->warns[i].line, NICFIT__VQUOTE_MAX, g->warns[i].text, st,
					 nccl_result(st) ? nccl_result(st) : "an NCCL error", procs);
		else
			f = nicfit__find(&v->findings, NICFIT_SEV_WARNING,
					 NICFIT_CODE_VERIFY_NCCL_ERROR, NULL, "%s: result %ld is %s: %d "
					 "trace lines (lines %ld-%ld) carry it up NCCL's call stack in "
					 "%d process%s (%s%s); the first, line %ld: \"%.*s\"", d->input,
					 st, nccl_result(st) ? nccl_result(st) : "an NCCL error", lines,
					 g->warns[i].line, last, nproc, nproc == 1 ? "" : "es", procs,
					 nproc > 8 ? ", ..." : "", g->warns[i].line, NICFIT__VQUOTE_MAX,
					 g->warns[i].text);
		if (!f)
			return NICFIT_E_NOMEM;
	}
	return 0;
}

/*
 * WARN lines and result codes, with their meaning: a work completion in
 * error is the network failing under NCCL (critical), a "file.cc:N -> c"
 * trace is NCCL returning result c up the stack (a warning: NCCL falls
 * back from some, a plugin that does not load for one), an "NCCL error"
 * the application saw is critical, any other WARN a warning as NCCL
 * means it.
 */
static int judge_warns(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_nccl_log *g = &d->u.log;
	struct nicfit_finding *f;
	size_t i;

	for (i = 0; i < g->nwarns; i++) {
		const char *t = g->warns[i].text;
		const struct async_meaning *am;
		long st;

		if (strstr(t, "Got completion") && (st = completion_status(t)) >= 0) {
			const struct wc_meaning *wm = wc_status(st);

			f = nicfit__find(&v->findings, NICFIT_SEV_CRITICAL,
					 NICFIT_CODE_VERIFY_NCCL_IB_COMPLETION_ERROR, NULL,
					 "%s: line %ld: \"%.*s\": status %ld is %s%s%s", d->input,
					 g->warns[i].line, NICFIT__VQUOTE_MAX, t, st,
					 wm ? wm->name : "a verbs error", wm ? ", " : "",
					 wm ? wm->what : "");
			if (f && wc_fix(v, f, wm && wm->check[0] ? wm->check : "the HCA's driver and "
					"firmware, and the kernel log (dmesg)", amd_run(v, g)))
				f = NULL;
		} else if ((am = async_event(t)) != NULL) {
			f = judge_async(v, d, i, am);
		} else if (trace_result(t) > 0) {
			continue; /* judge_traces: one finding for all lines of a result */
		} else if (strstr(t, "NCCL error") || strstr(t, "ncclSystemError") ||
			   strstr(t, "ncclRemoteError") || strstr(t, "ncclInternalError") ||
			   strstr(t, "ncclUnhandledCudaError")) {
			f = nicfit__find(&v->findings, NICFIT_SEV_CRITICAL, NICFIT_CODE_VERIFY_NCCL_ERROR, NULL,
					 "%s: line %ld: \"%.*s\"", d->input, g->warns[i].line,
					 NICFIT__VQUOTE_MAX, t);
		} else {
			f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_VERIFY_NCCL_WARN, NULL,
					 "%s: line %ld: \"%.*s\"", d->input, g->warns[i].line,
					 NICFIT__VQUOTE_MAX, t);
			if (f && rccl_warn_fix(v, f, t))
				f = NULL;
		}
		if (!f)
			return NICFIT_E_NOMEM;
	}
	return 0;
}

/*
 * The variables users set that change what the log measures: they turn
 * transports off or force an algorithm, so a number read without them is
 * misread. Each is an info finding quoting NCCL's echo.
 */
static int judge_env(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	static const char *const names[] = {
		"NCCL_IB_DISABLE", "NCCL_NET", "NCCL_P2P_DISABLE", "NCCL_SHM_DISABLE",
		"NCCL_NET_GDR_LEVEL", "NCCL_ALGO", "NCCL_PROTO", "NCCL_IB_HCA", "NCCL_IB_GID_INDEX",
		"NCCL_TOPO_FILE", "NCCL_IB_ROCE_VERSION_NUM", "NCCL_IB_ADDR_FAMILY", "NCCL_IB_ADDR_RANGE",
	};
	const struct nicfit_nccl_log *g = &d->u.log;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct nicfit_nccl_kv *kv = nicfit__venv(g, names[i]);

		if (kv && !nicfit__find(&v->findings, NICFIT_SEV_INFO, NICFIT_CODE_VERIFY_NCCL_ENV,
					kv->name, "%s: %s=%s set by the user (line %ld)", d->input,
					kv->name, kv->value, kv->line))
			return NICFIT_E_NOMEM;
	}
	return 0;
}

/* libfabric's providers that run over the kernel's IP stack (the first of "tcp;ofi_rxm"). */
static int ofi_provider_is_ip(const char *prov)
{
	static const char *const ip[] = { "tcp", "sockets", "udp" };
	size_t i, n = strcspn(prov, ";");

	for (i = 0; i < sizeof(ip) / sizeof(ip[0]); i++)
		if (strlen(ip[i]) == n && !strncmp(prov, ip[i], n))
			return 1;
	return 0;
}

/*
 * NET/OFI on the tcp or sockets provider: the socket case of the
 * libfabric plugin. Why: aws-ofi-nccl takes the provider libfabric
 * offers (src/nccl_ofi_net.c prints "Selected Provider is %s"); where
 * the fabric's own provider (efa, cxi, verbs) finds no device, libfabric
 * offers tcp, and NCCL then moves data over TCP with no GPUDirect RDMA,
 * as NET/Socket does. Loading the plugin at all says a fabric was meant,
 * so the finding is critical without further evidence.
 */
static int judge_ofi_tcp(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	const struct nicfit_nccl_log *g = &d->u.log;
	struct nicfit_finding *f;
	struct nicfit_buf b;
	int n = 0;

	if (!g->ofi_provider[0] || !ofi_provider_is_ip(g->ofi_provider))
		return 0;
	nicfit_buf_init(&b, 0);
	nicfit_buf_addf(&b, "%s: NCCL's libfabric plugin (NET/OFI) runs on the %s provider: data "
			"moves over TCP, without RDMA or GPUDirect", d->input, g->ofi_provider);
	nicfit__vquote(&b, d, g->ofi_provider_line);
	f = nicfit__find(&v->findings, NICFIT_SEV_CRITICAL, NICFIT_CODE_VERIFY_NCCL_OFI_TCP, NULL,
			 "%s", b.data ? b.data : "");
	nicfit_buf_reset(&b);
	nicfit_buf_puts(&b, "Likely causes, most likely first:");
	if (g->ofi_no_provider) {
		nicfit_buf_addf(&b, " %d) libfabric found no RDMA provider", ++n);
		nicfit__vquote(&b, d, g->ofi_no_provider_line);
		nicfit_buf_puts(&b, ", so it fell back to TCP;");
	}
	n++;
	nicfit_buf_addf(&b, " %d) the fabric's device is not visible where NCCL runs: in a "
			"container or pod, pass the devices in (EFA: /dev/infiniband/uverbs*, "
			"Slingshot: /dev/cxi*); 'fi_info -p efa' (or -p cxi) must list them there; "
			"%d) FI_PROVIDER set to tcp or sockets forces it: unset it.", n, n + 1);
	if (f && nicfit__finding_fix(&v->findings, f, "%s", b.data ? b.data : ""))
		f = NULL;
	nicfit_buf_release(&b);
	return f ? 0 : NICFIT_E_NOMEM;
}

int nicfit__verify_causes(struct nicfit_verify *v, struct nicfit_verify_doc *d)
{
	int rc = judge_socket(v, d);

	if (!rc)
		rc = judge_ofi_tcp(v, d);

	if (!rc)
		rc = nicfit__verify_gid_causes(v, d);
	if (!rc)
		rc = judge_gdr(v, d);
	if (!rc)
		rc = judge_warns(v, d);
	if (!rc)
		rc = judge_traces(v, d);
	if (!rc)
		rc = judge_env(v, d);
	if (!rc)
		rc = judge_jobs(v, d);
	if (!rc)
		rc = judge_mixed_links(v, d);
	return rc;
}
