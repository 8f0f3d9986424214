/*
 * test_compiled.c - the compiled default catalog (tools/catgen.c) is the
 * catalog the JSON loader builds from the same files, member by member;
 * looking an entry up as JSON or overlaying it parses what it needs.
 *
 * The comparison walks the layout tables only to find the string
 * pointers (compared as strings); every other byte of a view is compared
 * as it is, so a member that fill_* sets and the layout table lacks (the
 * generator would write it as zero) makes the views differ.
 */
#include "unit.h"

#include <jansson.h>

#include "parts/catalog_int.h"
#include "parts/embedded_int.h"
#include "nicfit/catalog.h"

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

/* Mark (1) the bytes of every string pointer of a view laid out by rows at base. */
static void mark_strings(unsigned char *mask, size_t base, const struct nicfit__field *rows)
{
	const struct nicfit__field *f;
	size_t j;

	for (f = rows; f->member; f++) {
		size_t es = elem_size(f);

		for (j = 0; j < f->size / es; j++) {
			size_t at = base + f->off + j * es;

			if (f->type == NICFIT__F_STR)
				memset(mask + at, 1, es);
			else if (f->type == NICFIT__F_STRUCT)
				mark_strings(mask, at, f->sub);
		}
	}
}

/*
 * 0 when views a and b of kind k agree; else the byte offset + 1 of the
 * first difference.
 */
static size_t view_diff(int k, const void *a, const void *b)
{
	size_t size = nicfit__catalog_view_size[k], i;
	unsigned char *mask = calloc(1, size);
	const unsigned char *x = a, *y = b;
	size_t bad = 0;

	assert_non_null(mask);
	mark_strings(mask, 0, nicfit__catalog_layout[k]);
	for (i = 0; i < size && !bad; i++) {
		const char *s, *t;

		if (!mask[i]) {
			if (x[i] != y[i])
				bad = i + 1;
			continue;
		}
		memcpy(&s, x + i, sizeof(s));
		memcpy(&t, y + i, sizeof(t));
		if ((!s) != (!t) || (s && strcmp(s, t)))
			bad = i + 1;
		i += sizeof(s) - 1;
	}
	free(mask);
	return bad;
}

/* The member of rows (at base) that holds byte at, for the failure message. */
static const char *member_at(const struct nicfit__field *rows, size_t base, size_t at)
{
	const struct nicfit__field *f;

	for (f = rows; f->member; f++)
		if (at >= base + f->off && at < base + f->off + f->size) {
			if (f->type == NICFIT__F_STRUCT) {
				size_t es = f->sub_size, j = (at - base - f->off) / es;
				const char *m = member_at(f->sub, base + f->off + j * es, at);

				return m ? m : f->member;
			}
			return f->member;
		}
	return NULL;
}

/* The embedded files loaded as --catalog loads a file: JSON parsed. */
static struct nicfit_catalog *parsed_catalog(void)
{
	struct nicfit_catalog *cat;
	struct nicfit_error err;
	const struct nicfit_blob *b;
	char name[128];

	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new_empty(&cat, &err), 0);
	for (b = nicfit__catalog_blobs; b->name; b++) {
		snprintf(name, sizeof(name), "data/%s", b->name);
		assert_int_equal(nicfit_catalog_overlay(cat, name, b->data, b->len, &err), 0);
	}
	return cat;
}

static void compiled_equals_parsed(void **state)
{
	struct nicfit_catalog *cc, *pc;
	struct nicfit_error err;
	int k;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cc, &err), 0);
	pc = parsed_catalog();
	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		size_t n = nicfit_catalog_count(pc, (enum nicfit_kind)k), i;

		assert_true(n > 0);
		assert_int_equal(nicfit_catalog_count(cc, (enum nicfit_kind)k), n);
		for (i = 0; i < n; i++) {
			const struct nicfit_entry *a = nicfit_catalog_entry(cc, (enum nicfit_kind)k, i);
			const struct nicfit_entry *b = nicfit_catalog_entry(pc, (enum nicfit_kind)k, i);
			size_t d = view_diff(k, a, b);

			if (d) {
				const char *m = member_at(nicfit__catalog_layout[k], 0, d - 1);

				fail_msg("%s '%s': compiled and parsed views differ at byte %zu (%s)",
					 nicfit_kind_name((enum nicfit_kind)k), b->id, d - 1,
					 m ? m : "a member missing from the layout table next to fill_*");
			}
		}
	}
	nicfit_catalog_free(cc);
	nicfit_catalog_free(pc);
}

/* The comparison sees a member the layout does not name: it cannot pass vacuously. */
static void comparison_sees_unlisted_bytes(void **state)
{
	struct nicfit_catalog *pc = parsed_catalog();
	const struct nicfit_nic *n = nicfit_catalog_nic(pc, 0);
	struct nicfit_nic copy = *n;
	struct nicfit_gpu g = *nicfit_catalog_gpu(pc, 0);

	(void)state;
	assert_int_equal(view_diff(NICFIT_KIND_NIC, n, &copy), 0);
	copy.ports++;
	assert_int_not_equal(view_diff(NICFIT_KIND_NIC, n, &copy), 0);
	copy = *n;
	copy.e.source = "another source";
	assert_int_not_equal(view_diff(NICFIT_KIND_NIC, n, &copy), 0);
	g.pci_device ^= 1;
	assert_int_not_equal(view_diff(NICFIT_KIND_GPU, nicfit_catalog_gpu(pc, 0), &g), 0);
	nicfit_catalog_free(pc);
}

/* Layout rows stay inside their view and do not overlap. */
static void layouts_are_sound(void **state)
{
	int k;

	(void)state;
	for (k = 0; k < NICFIT_KIND_COUNT; k++) {
		const struct nicfit__field *f, *g;

		for (f = nicfit__catalog_layout[k]; f->member; f++) {
			assert_true(f->off + f->size <= nicfit__catalog_view_size[k]);
			assert_int_equal(f->size % elem_size(f), 0);
			for (g = f + 1; g->member; g++)
				assert_true(g->off >= f->off + f->size || f->off >= g->off + g->size);
		}
	}
}

/* An entry as JSON, and an overlay on a compiled kind, agree with the parsed catalog. */
static void json_and_overlays_on_compiled(void **state)
{
	static const char doc[] = "{\"schema\": \"nicfit.catalog.v1\", \"nics\": ["
		"{\"id\": \"mcx556a-ecat\", \"port_gbps\": 50}]}";
	struct nicfit_catalog *cc, *pc;
	struct nicfit_error err;
	const struct nicfit_nic *n;
	char *a, *b;
	size_t i;

	(void)state;
	nicfit_error_clear(&err);
	assert_int_equal(nicfit_catalog_new(&cc, &err), 0);
	pc = parsed_catalog();
	for (i = 0; i < nicfit_catalog_count(pc, NICFIT_KIND_SERVER); i++) {
		const char *id = nicfit_catalog_server(pc, i)->e.id;

		a = nicfit_catalog_entry_json(cc, NICFIT_KIND_SERVER, id, 0);
		b = nicfit_catalog_entry_json(pc, NICFIT_KIND_SERVER, id, 0);
		assert_non_null(a);
		assert_string_equal(a, b);
		free(a);
		free(b);
	}
	assert_int_equal(nicfit_catalog_overlay(cc, "mine.json", doc, strlen(doc), &err), 0);
	assert_int_equal(nicfit_catalog_overlay(pc, "mine.json", doc, strlen(doc), &err), 0);
	n = nicfit_catalog_find_nic(cc, "MCX556A-ECAT", "--nic", &err);
	assert_non_null(n);
	assert_near(n->port_gbps, 50, 0);
	assert_string_equal(n->e.origin, "mine.json");
	assert_string_equal(n->vendor, nicfit_catalog_find_nic(pc, "mcx556a-ecat", "", &err)->vendor);
	for (i = 0; i < nicfit_catalog_count(pc, NICFIT_KIND_NIC); i++)
		assert_int_equal(view_diff(NICFIT_KIND_NIC, nicfit_catalog_nic(cc, i),
					   nicfit_catalog_nic(pc, i)), 0);
	nicfit_catalog_free(cc);
	nicfit_catalog_free(pc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(compiled_equals_parsed),
		cmocka_unit_test(comparison_sees_unlisted_bytes),
		cmocka_unit_test(layouts_are_sound),
		cmocka_unit_test(json_and_overlays_on_compiled),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
