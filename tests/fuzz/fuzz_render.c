/*
 * fuzz_render.c - the printer every renderer writes through (emit): an
 * input is a little program of emit calls (objects, arrays, values,
 * fields, headings, tables) with strings taken from the input as they are,
 * bad bytes included, the shape of a result a renderer describes. The same
 * program is rendered in JSON, text, Markdown and CSV; whatever finishes
 * must be one valid JSON document (JSON), hold no raw control byte (text,
 * Markdown, CSV: a terminal or a spreadsheet must not receive ESC, BEL or
 * a C1 control from a part name or a host name), and quote CSV fields in
 * pairs.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/buf.h"
#include "nicfit/emit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
static int formats(const uint8_t *data, size_t size);

struct in {
	const uint8_t *p, *end;
};

static unsigned byte(struct in *in)
{
	return in->p < in->end ? *in->p++ : 0;
}

/* A string of up to 63 bytes from the input, as it is. */
static const char *str(struct in *in, char *buf)
{
	size_t n = byte(in) & 63, i;

	for (i = 0; i < n && in->p < in->end; i++)
		buf[i] = (char)(*in->p++ ? in->p[-1] : ' ');
	buf[i] = '\0';
	return buf;
}

static const char *key(struct in *in, char *buf)
{
	static const char *const keys[] = { "schema", "name", "gbps", "rows", "host", "x" };
	unsigned k = byte(in);

	if (k < 200)
		return keys[k % (sizeof(keys) / sizeof(keys[0]))];
	return str(in, buf);
}

static double number(struct in *in)
{
	uint64_t bits = 0;
	double d;
	int i;

	for (i = 0; i < 8; i++)
		bits = bits << 8 | byte(in);
	memcpy(&d, &bits, sizeof(d));
	return d;
}

static void table(struct nicfit_emit *e, struct in *in, char *b1, char *b2)
{
	static const struct nicfit_column cols[] = {
		{ "id", "id", 0 }, { "name", "name", 0 }, { "gbps", "Gb/s", 1 }, { "n", "count", 1 },
	};
	int ncols = (int)(byte(in) % 4) + 1, rows, r, c;
	const char *k;
	double v;

	rows = (int)(byte(in) % 6);
	k = key(in, b1);
	nicfit_emit_table_begin(e, k, cols, ncols);
	for (r = 0; r < rows; r++) {
		for (c = 0; c < ncols; c++) {
			switch (byte(in) % 4) {
			case 0:
				nicfit_emit_cell_string(e, str(in, b2));
				break;
			case 1:
				v = number(in);
				nicfit_emit_cell_int(e, v > -9e18 && v < 9e18 ? (long long)v : 0);
				break;
			case 2:
				v = number(in);
				nicfit_emit_cell_number(e, v, (int)(byte(in) % 6));
				break;
			default:
				nicfit_emit_cell_null(e, "-");
			}
		}
	}
	nicfit_emit_table_end(e);
}

static void run(struct nicfit_emit *e, const uint8_t *data, size_t size)
{
	struct in in = { data, data + size };
	char b1[64], b2[64];
	int steps = 0;

	nicfit_emit_begin_object(e, NULL);
	while (in.p < in.end && steps++ < 256) {
		/* Read in order: the arguments of one call are evaluated in any order. */
		unsigned op = byte(&in) % 14;
		const char *k = op == 10 || op == 11 || op == 1 || op == 3 || op == 12 ? NULL
											 : key(&in, b1);

		switch (op) {
		case 0:
			nicfit_emit_begin_object(e, k);
			break;
		case 1:
			nicfit_emit_end_object(e);
			break;
		case 2:
			nicfit_emit_begin_array(e, k);
			break;
		case 3:
			nicfit_emit_end_array(e);
			break;
		case 4:
			nicfit_emit_string(e, k, str(&in, b2));
			break;
		case 5:
			nicfit_emit_int(e, k, (long long)byte(&in) << 40);
			break;
		case 6:
			nicfit_emit_number(e, k, number(&in));
			break;
		case 7:
			nicfit_emit_bool(e, k, (int)(byte(&in) & 1));
			break;
		case 8:
			nicfit_emit_null(e, k);
			break;
		case 9:
			nicfit_emit_field_string(e, k, "  %s\n", str(&in, b2));
			break;
		case 10:
			k = str(&in, b1);
			nicfit_emit_printf(e, "%s: %s\n", k, str(&in, b2));
			break;
		case 11:
			nicfit_emit_heading(e, str(&in, b1));
			break;
		case 12:
			table(e, &in, b1, b2);
			break;
		default:
			nicfit_emit_field_double(e, k, "  %.2f\n", number(&in));
		}
	}
	nicfit_emit_end_object(e);
}

/* No C0 control but tab, newline and CR; no DEL; no C1 control (U+0080-U+009F). */
static void no_controls(const unsigned char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if ((s[i] < 0x20 && s[i] != '\t' && s[i] != '\n' && s[i] != '\r') || s[i] == 0x7f)
			abort();
		if (s[i] == 0xc2 && i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x9f)
			abort();
	}
}

/*
 * The program's JSON, compact (pretty 0) or indented, checked to be JSON;
 * NULL when the emitter refused it. Compact JSON takes the emitter's quick
 * way for most members, indented JSON never does.
 */
static char *rendered(const uint8_t *data, size_t size, int pretty, size_t *len)
{
	struct nicfit_emit *e = nicfit_emit_new(NICFIT_FMT_JSON, pretty ? NICFIT_EMIT_PRETTY : 0,
						(size_t)1 << 20);
	struct nicfit_buf out;
	char *text = NULL;

	if (!e)
		return NULL;
	run(e, data, size);
	nicfit_buf_init(&out, (size_t)1 << 22);
	if (nicfit_emit_finish(e, &out) == 0) {
		json_error_t jerr;
		json_t *doc = json_loadb(out.data, out.len, 0, &jerr);

		if (!doc)
			abort(); /* the JSON writer wrote something that is not JSON */
		json_decref(doc);
		text = nicfit_buf_detach(&out, len);
	}
	nicfit_buf_release(&out);
	nicfit_emit_free(e);
	return text;
}

/* s without the blanks and newlines outside its strings (in place); its new length. */
static size_t squeeze(char *s, size_t n)
{
	size_t i, k = 0;
	int in_str = 0;

	for (i = 0; i < n; i++) {
		if (in_str) {
			if (s[i] == '\\' && i + 1 < n) {
				s[k++] = s[i++];
			} else if (s[i] == '"') {
				in_str = 0;
			}
		} else if (s[i] == ' ' || s[i] == '\n') {
			continue;
		} else if (s[i] == '"') {
			in_str = 1;
		}
		s[k++] = s[i];
	}
	return k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t nc = 0, ni = 0;
	char *compact = rendered(data, size, 0, &nc), *indented = rendered(data, size, 1, &ni);

	/* the quick way and the general way write the same bytes, but for the indentation */
	if (compact && indented) {
		nc = squeeze(compact, nc); /* finish()'s newline */
		if (squeeze(indented, ni) != nc || memcmp(indented, compact, nc))
			abort();
	}
	free(compact);
	free(indented);
	return formats(data, size);
}

/* Every format of the program: valid JSON, no raw controls, CSV quotes in pairs. */
static int formats(const uint8_t *data, size_t size)
{
	static const enum nicfit_format fmts[] = {
		NICFIT_FMT_JSON, NICFIT_FMT_TEXT, NICFIT_FMT_MD, NICFIT_FMT_CSV,
	};
	size_t f, i, quotes;

	for (f = 0; f < sizeof(fmts) / sizeof(fmts[0]); f++) {
		struct nicfit_emit *e = nicfit_emit_new(fmts[f], size & 1 ? NICFIT_EMIT_PRETTY : 0,
							(size_t)1 << 20);
		struct nicfit_buf out;

		if (!e)
			return 0;
		run(e, data, size);
		nicfit_buf_init(&out, (size_t)1 << 22);
		if (nicfit_emit_finish(e, &out) == 0) {
			if (fmts[f] == NICFIT_FMT_JSON) {
				json_error_t jerr;
				json_t *doc = json_loadb(out.data, out.len, 0, &jerr);

				if (!doc)
					abort(); /* the JSON writer wrote something that is not JSON */
				json_decref(doc);
			} else {
				no_controls((const unsigned char *)out.data, out.len);
			}
			if (fmts[f] == NICFIT_FMT_CSV) {
				for (i = 0, quotes = 0; i < out.len; i++)
					quotes += out.data[i] == '"';
				if (quotes % 2)
					abort(); /* a field opened and never closed */
			}
		}
		nicfit_buf_release(&out);
		nicfit_emit_free(e);
	}
	return 0;
}
