/*
 * fuzz_dump_xml.c - hwloc and NCCL topology XML in a dump (dump_xml.c):
 * any bytes are read or refused, and a model built from them is judged
 * and rendered with the dump's notes, without a crash, a leak or a read
 * past the text. The first byte picks a lead-in so that most inputs reach
 * the XML reader: 'h' an hwloc <topology>, 'n' an NCCL <system>, 'x' an
 * XML declaration; anything else is taken as it is (a paste in which the
 * document starts on some line).
 */
#include "fuzz_dump_common.h"

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
	size_t nl = strlen(lead), skip = nl ? 1 : 0;

	fuzz_dump_text(lead, nl, data + skip, size - skip);
	return 0;
}
