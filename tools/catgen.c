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
 * sit beside catalog.c's fill_* functions), room for each kind's ids, and the JSON
 * text of every file with the kinds it holds (embedded_int.h). Exits 65
 * when a file has a problem, and writes nothing then.
 *
 * The views are written so that loading the program relocates none of
 * them: each kind's views without their strings (read-only, no address
 * in them), one pool of the strings, and rows of { byte offset in the
 * kind's array, offset in the pool } that put each string pointer back.
 * The library copies a kind into its place and applies its rows the first
 * time something looks at that kind (catalog.c), so a process pays, in
 * page faults and stores, only for the kinds it uses.
 *
 * It links the library without the data it generates: the three tables
 * the library expects from OUT.c are defined here, empty.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "parts/catalog_int.h"
#include "parts/embedded_int.h"
#include "nicfit/catalog.h"
#include "nicfit/file.h"
#include "cstr.h"

const struct nicfit_blob nicfit__catalog_blobs[] = { { NULL, NULL, 0, 0 } };
const struct nicfit__compiled_kind nicfit__catalog_compiled[NICFIT_KIND_COUNT];
const char nicfit__catalog_pool[] = "";

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

/*
 * The string pool: every distinct string of the compiled views once, each
 * ended by its NUL; pool_map gives a string's offset in it.
 */
static json_t *pool_map;
static size_t pool_len;
static FILE *pool_out;

static unsigned long pool_offset(const char *s)
{
	json_t *at = json_object_get(pool_map, s);
	size_t off;

	if (at)
		return (unsigned long)json_integer_value(at);
	off = pool_len;
	if (off + strlen(s) >= UINT32_MAX) {
		fprintf(stderr, "catgen: the strings pass 4 GiB\n");
		exit(65);
	}
	if (json_object_set_new(pool_map, s, json_integer((json_int_t)off))) {
		fprintf(stderr, "catgen: out of memory\n");
		exit(70);
	}
	fputs("\t", pool_out);
	put_str(pool_out, s);
	fputs(" \"\\0\"\n", pool_out);
	pool_len += strlen(s) + 1;
	return (unsigned long)off;
}

/*
 * Walk the struct at base (at bytes into its kind's array) by its layout:
 * write a { at, pool offset } row to out for every string it points to,
 * and clear each of those pointers, so that what is left has no address
 * in it (its initializer then needs no relocation at load time).
 */
static void strip_strings(FILE *out, char *base, size_t at, const struct nicfit__field *rows)
{
	const struct nicfit__field *f;

	for (f = rows; f->member; f++) {
		size_t es = elem_size(f), n = f->size / es, i;

		for (i = 0; i < n; i++) {
			char *p = base + f->off + i * es;
			const char *s;

			if (f->type == NICFIT__F_STRUCT) {
				strip_strings(out, p, at + f->off + i * es, f->sub);
				continue;
			}
			if (f->type != NICFIT__F_STR)
				continue;
			memcpy(&s, p, sizeof(s));
			if (!s)
				continue;
			fprintf(out, "\t{ %zu, %lu },\n", at + f->off + i * es, pool_offset(s));
			memset(p, 0, sizeof(s));
		}
	}
}

/*
 * Kind k as the library makes it on first use (catalog.c): the views
 * without their strings (read-only data with no address in it), the rows
 * that put each string back, and the room the views and ids are made in.
 * Returns the number of string rows.
 */
static size_t put_kind(FILE *out, const struct nicfit_catalog *cat, int k)
{
	const char *plural = nicfit_kind_plural((enum nicfit_kind)k);
	size_t n = nicfit_catalog_count(cat, (enum nicfit_kind)k), i, size = nicfit__catalog_view_size[k];
	size_t rows = 0;
	char *copy;
	FILE *strs = tmpfile();

	if (!strs || !(copy = malloc(size))) {
		fprintf(stderr, "catgen: out of memory\n");
		exit(70);
	}
	if (n) {
		if (n * size >= UINT32_MAX) {
			fprintf(stderr, "catgen: the %s pass 4 GiB\n", plural);
			exit(65);
		}
		fprintf(out, "static struct %s %s[%zu];\n", view_type[k], plural, n);
		fprintf(out, "static const struct %s %s_init[] = {\n", view_type[k], plural);
		for (i = 0; i < n; i++) {
			memcpy(copy, nicfit_catalog_entry(cat, (enum nicfit_kind)k, i), size);
			strip_strings(strs, copy, i * size, nicfit__catalog_layout[k]);
			fputs("\t", out);
			put_struct(out, copy, nicfit__catalog_layout[k]);
			fputs(",\n", out);
		}
		fputs("};\n", out);
	}
	fprintf(out, "static const struct nicfit__strref %s_strs[] = {\n", plural);
	rewind(strs);
	for (int c; (c = getc(strs)) != EOF; putc(c, out))
		rows += c == '\n';
	if (!rows)
		fputs("\t{ 0, 0 }\n", out);
	fputs("};\n", out);
	fprintf(out, "static const char *%s_ids[%zu];\n\n", plural, n + 1);
	fclose(strs);
	free(copy);
	return rows;
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
	size_t *lens, nstrs[NICFIT_KIND_COUNT];
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
	pool_map = json_object();
	pool_out = tmpfile();
	if (!pool_map || !pool_out) {
		fprintf(stderr, "catgen: out of memory\n");
		return 70;
	}
	fprintf(out, "/* generated by tools/catgen.c from the files of data/: do not edit */\n"
		     "#include <stddef.h>\n#include \"parts/embedded_int.h\"\n\n");
	for (k = 0; k < NICFIT_KIND_COUNT; k++)
		nstrs[k] = put_kind(out, cat, k);
	fprintf(out, "const struct nicfit__compiled_kind nicfit__catalog_compiled[NICFIT_KIND_COUNT] = {\n");
	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		const char *plural = nicfit_kind_plural((enum nicfit_kind)k);

		if (nicfit_catalog_count(cat, (enum nicfit_kind)k))
			fprintf(out, "\t{ %s, %s_init, %zu, %s_ids, %s_strs, %zu },\n", plural, plural,
				nicfit_catalog_count(cat, (enum nicfit_kind)k), plural, plural, nstrs[k]);
		else
			fprintf(out, "\t{ NULL, NULL, 0, %s_ids, %s_strs, 0 },\n", plural, plural);
	}
	fprintf(out, "};\n\nconst char nicfit__catalog_pool[] =\n");
	rewind(pool_out);
	for (int c; (c = getc(pool_out)) != EOF;)
		putc(c, out);
	fprintf(out, "\t\"\";\n\n");
	fclose(pool_out);
	json_decref(pool_map);
	for (i = 2; i < argc; i++)
		put_blob(out, i, texts[i], lens[i]);
	fprintf(out, "\nconst struct nicfit_blob nicfit__catalog_blobs[] = {\n");
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
