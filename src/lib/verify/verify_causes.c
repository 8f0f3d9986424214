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
	int rc = 0;

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
			rc = nicfit__finding_fix(&v->findings, f, "Load the peer-memory module: "
				"modprobe nvidia-peermem (NCCL looks for "
				"/sys/kernel/mm/memory_peers/nv_mem/version).");
		else if (!strncmp(h->gdr_reason, "distance", 8))
			rc = nicfit__finding_fix(&v->findings, f, "The GPU is too far from %s on "
				"PCIe for NCCL's GDR level: put them under one switch or CPU, or "
				"raise NCCL_NET_GDR_LEVEL (e.g. PHB).", h->name[0] ? h->name : "the HCA");
		else
			rc = nicfit__finding_fix(&v->findings, f, "Likely causes, most likely first: "
				"1) nvidia-peermem not loaded (modprobe nvidia-peermem; NCCL looks "
				"for /sys/kernel/mm/memory_peers/nv_mem/version); 2) the GPU and %s "
				"further apart than NCCL_NET_GDR_LEVEL allows; 3) ACS or the IOMMU "
				"redirecting peer-to-peer traffic (nicfit audit shows both).",
				h->name[0] ? h->name : "the HCA");
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
		if (!f || nicfit__finding_fix(&v->findings, f, "Rerun with NCCL_DEBUG_SUBSYS=INIT,NET "
					      "to see NCCL's GPU Direct RDMA line for each HCA; load "
					      "nvidia-peermem if it says \"no module\"."))
			return NICFIT_E_NOMEM;
	}
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

/* enum ibv_wc_status (libibverbs verbs.h; NCCL's ibvcore.h) */
static const char *wc_status(long c)
{
	static const char *const t[] = {
		"IBV_WC_SUCCESS", "IBV_WC_LOC_LEN_ERR", "IBV_WC_LOC_QP_OP_ERR",
		"IBV_WC_LOC_EEC_OP_ERR", "IBV_WC_LOC_PROT_ERR: a local memory region is not "
		"registered for the access (GPUDirect registration)",
		"IBV_WC_WR_FLUSH_ERR: the queue pair was already in error (a consequence of an "
		"earlier error)", "IBV_WC_MW_BIND_ERR", "IBV_WC_BAD_RESP_ERR",
		"IBV_WC_LOC_ACCESS_ERR", "IBV_WC_REM_INV_REQ_ERR",
		"IBV_WC_REM_ACCESS_ERR: the remote side refused the access",
		"IBV_WC_REM_OP_ERR", "IBV_WC_RETRY_EXC_ERR: transport retries exhausted, the "
		"peer did not answer (link down, wrong GID/route, remote process gone)",
		"IBV_WC_RNR_RETRY_EXC_ERR: the receiver was not ready",
	};

	return c >= 0 && c < (long)(sizeof(t) / sizeof(t[0])) ? t[c] : NULL;
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
		const char *t = g->warns[i].text, *arrow = strstr(t, " -> ");
		long st;

		if (strstr(t, "Got completion") && (st = completion_status(t)) >= 0) {
			f = nicfit__find(&v->findings, NICFIT_SEV_CRITICAL,
					 NICFIT_CODE_VERIFY_NCCL_IB_COMPLETION_ERROR, NULL,
					 "%s: line %ld: \"%.*s\": status %ld is %s", d->input,
					 g->warns[i].line, NICFIT__VQUOTE_MAX, t, st,
					 wc_status(st) ? wc_status(st) : "a verbs error");
			if (f && nicfit__finding_fix(&v->findings, f, "Check the port and cable "
						     "(ibv_devinfo: state PORT_ACTIVE), the GID index "
						     "on RoCE (NCCL_IB_GID_INDEX), and whether the peer "
						     "process died first; the vendor error is the NIC's "
						     "own code."))
				f = NULL;
		} else if (arrow && !strstr(t, "NCCL WARN") && (st = nicfit__vint(arrow + 4, NULL)) > 0) {
			/* a trace: NCCL may recover (a plugin that fails to load falls back) */
			f = nicfit__find(&v->findings, NICFIT_SEV_WARNING, NICFIT_CODE_VERIFY_NCCL_ERROR, NULL,
					 "%s: line %ld: \"%.*s\": result %ld is %s", d->input,
					 g->warns[i].line, NICFIT__VQUOTE_MAX, t, st,
					 nccl_result(st) ? nccl_result(st) : "an NCCL error");
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
		rc = judge_env(v, d);
	return rc;
}
