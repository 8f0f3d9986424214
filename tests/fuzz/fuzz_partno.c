/*
 * fuzz_partno.c - libFuzzer harness for the part-number decoder: any bytes
 * (NUL-terminated) go through nicfit_decode() with and without the
 * embedded catalog; what decodes is rendered as JSON and as text, and
 * nicfit_part_card() runs on it. A crash, a leak, undefined behaviour or a
 * result that breaks the contract (an error without a message, a decoded
 * part without a part number or source) aborts.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/catalog.h"
#include "nicfit/emit.h"
#include "nicfit/partno.h"

static struct nicfit_catalog *cat;

static void render(const struct nicfit_part *p, enum nicfit_format fmt)
{
	struct nicfit_emit *e = nicfit_emit_new(fmt, 0, 0);
	struct nicfit_buf out;

	if (!e)
		return;
	nicfit_buf_init(&out, 0);
	nicfit_decode_render(e, p);
	if (nicfit_emit_finish(e, &out))
		abort();
	nicfit_emit_free(e);
	nicfit_buf_release(&out);
}

static void one(const struct nicfit_catalog *c, const char *text)
{
	struct nicfit_part p;
	struct nicfit_error err;
	struct nicfit_card card;

	nicfit_error_clear(&err);
	if (nicfit_decode(c, text, &p, &err)) {
		if (err.code != NICFIT_E_DATA || !err.msg[0])
			abort();
		return;
	}
	if (!p.part[0] || !p.source[0] || !p.summary[0])
		abort();
	if (nicfit_part_card(&p, &card) == 0 && (card.ports < 1 || card.pcie_width < 1))
		abort();
	render(&p, NICFIT_FMT_JSON);
	render(&p, NICFIT_FMT_TEXT);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text;

	if (!cat) {
		struct nicfit_error err;

		nicfit_error_clear(&err);
		if (nicfit_catalog_new(&cat, &err))
			abort();
	}
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	one(NULL, text);
	one(cat, text);
	free(text);
	return 0;
}
