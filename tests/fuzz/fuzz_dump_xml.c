/*
 * fuzz_dump_xml.c - hwloc and NCCL topology XML in a dump (dump_xml.c):
 * any bytes are read or refused, and a model built from them is judged
 * and rendered with the dump's notes, without a crash, a leak or a read
 * past the text. The first byte picks a lead-in so that most inputs reach
 * the XML reader: 'h' an hwloc <topology>, 'n' an NCCL <system>, 'x' an
 * XML declaration; anything else is taken as it is (a paste in which the
 * document starts on some line).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/audit.h"
#include "nicfit/dump.h"
#include "nicfit/emit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *lead_in(uint8_t c)
{
	switch (c) {
	case 'h': return "<topology version=\"2.0\">\n";
	case 'n': return "<system version=\"1\">\n";
	case 'x': return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
	default: return "";
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *lead = size ? lead_in(data[0]) : "";
	size_t nl = strlen(lead), skip = nl ? 1 : 0, n = nl + size - skip;
	struct nicfit_dump *d;
	struct nicfit_topo *t = NULL;
	struct nicfit_audit *a = NULL;
	struct nicfit_error err;
	struct nicfit_emit *e;
	char *copy = malloc(n ? n : 1); /* exact size: ASan sees a read past the end */

	if (!copy)
		return 0;
	memcpy(copy, lead, nl);
	if (size > skip)
		memcpy(copy + nl, data + skip, size - skip);
	nicfit_error_clear(&err);
	if (nicfit_dump_new(&d)) {
		free(copy);
		return 0;
	}
	if (!nicfit_dump_add_text(d, "fuzz", copy, n, &err) && !nicfit_dump_topo(d, &t, &err) &&
	    !nicfit_audit_judge(t, NULL, NULL, &a, &err) && !nicfit_dump_judge(d, a, &err)) {
		e = nicfit_emit_new(NICFIT_FMT_JSON, 0, 0);
		if (e) {
			nicfit_audit_render(a, e);
			nicfit_emit_free(e);
		}
	}
	nicfit_audit_free(a);
	nicfit_topo_free(t);
	nicfit_dump_free(d);
	free(copy);
	return 0;
}
