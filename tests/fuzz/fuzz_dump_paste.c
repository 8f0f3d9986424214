/*
 * fuzz_dump_paste.c - pastes without an lspci listing (audit_paste.c: a
 * topo -m matrix alone with its NIC legend, RDMA tools alone, ACSCtl
 * lines): any bytes are read or refused, and what is read is judged and
 * rendered in every format the audit prints (text, JSON, Markdown, CSV,
 * SVG, Prometheus, NHC, NFD), none of which may hold a raw control or a
 * character that hides what a name is (fuzz_clean.h). The first byte
 * picks a lead-in so that most inputs reach a reader without lspci: 'm'
 * a topo -m header with two GPUs and two NICs, 'l' a NIC legend, 'c' an
 * ibstat CA, 'd' an ibv_devinfo device, 's' an iblinkinfo switch header
 * and the start of a port line, 'r' rdma link's start (a port read again
 * and again), 'w' an mlxfwmanager block up to its PCI Device Name, 'q' a
 * flint q block below its prompt line, 'k' an mlxlink report up to its
 * Speed value; anything else is taken as it is.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/audit.h"
#include "nicfit/dump.h"
#include "nicfit/emit.h"
#include "nicfit/ops.h"
#include "fuzz_clean.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *lead_in(uint8_t c)
{
	switch (c) {
	case 'm': return "\tGPU0\tGPU1\tNIC0\tNIC1\tCPU Affinity\tNUMA Affinity\n";
	case 'l': return "NIC Legend:\n\n  NIC0: ";
	case 'c': return "CA '";
	case 'd': return "hca_id:\t";
	case 's': return "Switch: 0x0002c902004b2678 sw:\n           2    1[  ] ==( 4X ";
	case 'r': return "link mlx5_0/1 state ACTIVE physical_state LINK_UP\nlink ";
	case 'w': return "Device #1:\n----------\n\n  Device Type:      ConnectX7\n"
			 "  PSID:             MT_0000001244\n  PCI Device Name:  ";
	case 'k': return "# mlxlink -d mlx5_0 -p 1 -c\nOperational Info\n----------------\n"
			 "State                              : Active\n"
			 "Speed                              : ";
	case 'q': return "# flint -d /dev/mst/mt4129_pciconf0 q\nImage type:            FS4\n"
			 "FW Version:            ";
	default: return "";
	}
}

static void render(const struct nicfit_audit *a)
{
	static const enum nicfit_format fmts[] = {
		NICFIT_FMT_TEXT, NICFIT_FMT_JSON, NICFIT_FMT_MD, NICFIT_FMT_CSV, NICFIT_FMT_SVG,
	};
	struct nicfit_ops_run run = { 0.5, 1700000000.0, 3600 };
	struct nicfit_buf b;
	size_t i, failures = 0;

	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		struct nicfit_emit *e = nicfit_emit_new(fmts[i], 0, 0);

		if (!e)
			continue;
		nicfit_buf_init(&b, 0);
		if (!nicfit_audit_render(a, e) && !nicfit_emit_finish(e, &b))
			fuzz_clean(b.data, b.len, fmts[i]);
		nicfit_emit_free(e);
		nicfit_buf_release(&b);
	}
	nicfit_buf_init(&b, 0);
	if (!nicfit_audit_render_prom(a, &run, &b))
		fuzz_clean(b.data, b.len, NICFIT_FMT_PROM);
	nicfit_buf_release(&b);
	nicfit_buf_init(&b, 0);
	if (!nicfit_audit_render_nhc(a, NICFIT_SEV_INFO, &b, &failures))
		fuzz_clean(b.data, b.len, NICFIT_FMT_NHC);
	nicfit_buf_release(&b);
	nicfit_buf_init(&b, 0);
	if (!nicfit_audit_render_nfd(a, &run, &b))
		fuzz_clean(b.data, b.len, NICFIT_FMT_NFD);
	nicfit_buf_release(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *lead = size ? lead_in(data[0]) : "";
	size_t hn = strlen(lead), skip = hn ? 1 : 0, n = hn + size - skip;
	struct nicfit_dump *d;
	struct nicfit_topo *t = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	char *copy = malloc(n ? n : 1);

	if (!copy)
		return 0;
	memcpy(copy, lead, hn);
	if (size > skip)
		memcpy(copy + hn, data + skip, size - skip);
	nicfit_error_clear(&err);
	if (nicfit_dump_new(&d)) {
		free(copy);
		return 0;
	}
	if (!nicfit_dump_add_text(d, "fuzz", copy, n, &err) && !nicfit_dump_topo(d, &t, &err) &&
	    !nicfit_audit_judge(t, NULL, NULL, &a, &err) && !nicfit_dump_judge(d, a, &err))
		render(a);
	nicfit_audit_free(a);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
	free(copy);
	return 0;
}
