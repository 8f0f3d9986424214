/*
 * catgen.c - compile the default catalog (build tool).
 *
 *   catgen OUT.c data/FILE.json ...
 *
 * Loads the files, in the order given, through the library's own loader
 * (nicfit_catalog_check() for every problem of a file, reported as
 * file:line:col like `nicfit catalog check`, then nicfit_catalog_overlay()
 * as --catalog merges a file), and writes OUT.c: the typed views the loader
 * built, sorted by id, as C initializers (walking the layout tables that
 * sit beside catalog.c's fill_* functions), each kind's ids, and the JSON
 * text of every file with the kinds it holds (embedded_int.h). Exits 65
 * when a file has a problem, and writes nothing then.
 *
 * It links the library without the data it generates: the two tables the
 * library expects from OUT.c are defined here, empty.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "catalog_int.h"
#include "embedded_int.h"
#include "nicfit/catalog.h"
#include "nicfit/file.h"
#include "cstr.h"

const struct nicfit_blob nicfit_catalog_blobs[] = { { NULL, NULL, 0, 0 } };
const struct nicfit__compiled_kind nicfit__catalog_compiled[NICFIT_KIND_COUNT];

static const char *const view_type[NICFIT_KIND_COUNT] = {
	"nicfit_nic", "nicfit_cable", "nicfit_switch", "nicfit_server", "nicfit_gpu",
	"nicfit_model"
};

static int all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i])
			return 0;
	return 1;
}

static size_t elem_size(const struct nicfit__field *f)
{
	switch (f->type) {
	case NICFIT__F_STR: return sizeof(const char *);
	case NICFIT__F_INT: return sizeof(int);
	case NICFIT__F_UINT: return sizeof(unsigned);
	case NICFIT__F_LONG: return sizeof(long);
	case NICFIT__F_DBL: return sizeof(double);
	case NICFIT__F_STRUCT: return f->sub_size;
	}
	return 1;
}

static void put_struct(FILE *out, const char *base, const struct nicfit__field *rows);

/* One element of row f at p. */
static void put_scalar(FILE *out, const struct nicfit__field *f, const char *p)
{
	const char *s;
	int i;
	unsigned u;
	long l;
	double d;

	switch (f->type) {
	case NICFIT__F_STR: memcpy(&s, p, sizeof(s)); put_str(out, s); break;
	case NICFIT__F_INT: memcpy(&i, p, sizeof(i)); fprintf(out, "%d", i); break;
	case NICFIT__F_UINT: memcpy(&u, p, sizeof(u)); fprintf(out, "%#xu", u); break;
	case NICFIT__F_LONG: memcpy(&l, p, sizeof(l)); fprintf(out, "%ldL", l); break;
	case NICFIT__F_DBL: memcpy(&d, p, sizeof(d)); fprintf(out, "%a", d); break;
	case NICFIT__F_STRUCT: put_struct(out, p, f->sub); break;
	}
}

/* The elements [from, from + n) of row f's array at p, non-zero ones only. */
static void put_elems(FILE *out, const struct nicfit__field *f, const char *p, size_t n)
{
	size_t es = elem_size(f), i;

	fputs("{ ", out);
	for (i = 0; i < n; i++) {
		if (all_zero(p + i * es, es))
			continue;
		fprintf(out, "[%zu] = ", i);
		put_scalar(out, f, p + i * es);
		fputs(", ", out);
	}
	fputs("}", out);
}

static void put_value(FILE *out, const struct nicfit__field *f, const char *p)
{
	size_t es = elem_size(f), n = f->size / es, r;

	if (!f->array) {
		put_scalar(out, f, p);
		return;
	}
	if (f->cols <= 1) {
		put_elems(out, f, p, n);
		return;
	}
	fputs("{ ", out);
	for (r = 0; r < n / f->cols; r++) {
		if (all_zero(p + r * f->cols * es, f->cols * es))
			continue;
		fprintf(out, "[%zu] = ", r);
		put_elems(out, f, p + r * f->cols * es, f->cols);
		fputs(", ", out);
	}
	fputs("}", out);
}

/* The struct at base as a designated initializer of its non-zero members. */
static void put_struct(FILE *out, const char *base, const struct nicfit__field *rows)
{
	const struct nicfit__field *f;

	fputs("{ ", out);
	for (f = rows; f->member; f++) {
		if (all_zero(base + f->off, f->size))
			continue;
		fprintf(out, ".%s = ", f->member);
		put_value(out, f, base + f->off);
		fputs(", ", out);
	}
	fputs("}", out);
}

static void put_kind(FILE *out, const struct nicfit_catalog *cat, int k)
{
	const char *plural = nicfit_kind_plural((enum nicfit_kind)k);
	size_t n = nicfit_catalog_count(cat, (enum nicfit_kind)k), i;

	if (n) {
		fprintf(out, "static const struct %s %s[] = {\n", view_type[k], plural);
		for (i = 0; i < n; i++) {
			fputs("\t", out);
			put_struct(out, (const char *)nicfit_catalog_entry(cat, (enum nicfit_kind)k, i),
				   nicfit__catalog_layout[k]);
			fputs(",\n", out);
		}
		fputs("};\n", out);
	}
	fprintf(out, "static const char *const %s_ids[] = {\n", plural);
	for (i = 0; i < n; i++) {
		fputs("\t", out);
		put_str(out, nicfit_catalog_entry(cat, (enum nicfit_kind)k, i)->id);
		fputs(",\n", out);
	}
	fputs("\tNULL\n};\n\n", out);
}

/* Bit k set when the document has an array of kind k. */
static unsigned kinds_of(const char *text, size_t len)
{
	json_t *root = json_loadb(text, len, 0, NULL);
	unsigned bits = 0;
	int k;

	for (k = 0; k < NICFIT_KIND_COUNT; k++)
		if (json_is_array(json_object_get(root, nicfit_kind_plural((enum nicfit_kind)k))))
			bits |= 1u << k;
	json_decref(root);
	return bits;
}

static void put_blob(FILE *out, int i, const char *text, size_t len)
{
	size_t j;

	fprintf(out, "static const unsigned char blob_%d[] = {", i);
	for (j = 0; j < len; j++)
		fprintf(out, "%s%d,", j % 24 ? "" : "\n", (unsigned char)text[j]);
	fprintf(out, "0\n};\n");
}

/* Check and load one file into cat; 0, or 65 after printing its problems. */
static int load(struct nicfit_catalog *cat, const char *path, const char *name,
		char **text, size_t *len)
{
	struct nicfit_error errs[32], err;
	size_t n, total, i;

	nicfit_error_clear(&err);
	if (nicfit_read_file(path, CATALOG_MAX_BYTES, text, len, &err)) {
		fprintf(stderr, "catgen: %s: %s\n", path, err.msg);
		return 66;
	}
	n = nicfit_catalog_check(cat, path, *text, *len, errs, 32, &total);
	for (i = 0; i < n && i < 32; i++)
		fprintf(stderr, "%s:%ld:%ld: %s\n", errs[i].input, errs[i].line, errs[i].col,
			errs[i].msg);
	if (n)
		return 65;
	if (nicfit_catalog_overlay(cat, name, *text, *len, &err)) {
		fprintf(stderr, "%s:%ld:%ld: %s\n", path, err.line, err.col, err.msg);
		return 65;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	char **texts, name[256];
	size_t *lens;
	FILE *out;
	int i, k, rc;

	if (argc < 3) {
		fprintf(stderr, "usage: catgen OUT.c FILE.json...\n");
		return 64;
	}
	nicfit_error_clear(&err);
	texts = calloc((size_t)argc, sizeof(*texts));
	lens = calloc((size_t)argc, sizeof(*lens));
	if (!texts || !lens || nicfit_catalog_new_empty(&cat, &err))
		return 70;
	for (i = 2; i < argc; i++) {
		const char *base = strrchr(argv[i], '/');

		/* entries name the file they came from as the library always has */
		snprintf(name, sizeof(name), "data/%s", base ? base + 1 : argv[i]);
		rc = load(cat, argv[i], name, &texts[i], &lens[i]);
		if (rc)
			return rc;
	}
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 73;
	}
	fprintf(out, "/* generated by tools/catgen.c from the files of data/: do not edit */\n"
		     "#include <stddef.h>\n#include \"embedded_int.h\"\n\n");
	for (k = 0; k < NICFIT_KIND_COUNT; k++)
		put_kind(out, cat, k);
	fprintf(out, "const struct nicfit__compiled_kind nicfit__catalog_compiled[NICFIT_KIND_COUNT] = {\n");
	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		const char *plural = nicfit_kind_plural((enum nicfit_kind)k);

		if (nicfit_catalog_count(cat, (enum nicfit_kind)k))
			fprintf(out, "\t{ %s, %zu, %s_ids },\n", plural,
				nicfit_catalog_count(cat, (enum nicfit_kind)k), plural);
		else
			fprintf(out, "\t{ NULL, 0, %s_ids },\n", plural);
	}
	fprintf(out, "};\n\n");
	for (i = 2; i < argc; i++)
		put_blob(out, i, texts[i], lens[i]);
	fprintf(out, "\nconst struct nicfit_blob nicfit_catalog_blobs[] = {\n");
	for (i = 2; i < argc; i++) {
		const char *base = strrchr(argv[i], '/');

		fprintf(out, "\t{ \"%s\", (const char *)blob_%d, sizeof(blob_%d) - 1, %#xu },\n",
			base ? base + 1 : argv[i], i, i, kinds_of(texts[i], lens[i]));
		free(texts[i]);
	}
	fprintf(out, "\t{ NULL, NULL, 0, 0 }\n};\n");
	nicfit_catalog_free(cat);
	free(texts);
	free(lens);
	if (fclose(out)) {
		perror(argv[1]);
		remove(argv[1]);
		return 74;
	}
	return 0;
}
