/*
 * dynlib_jansson.c - jansson, opened on first use (see jansson_int.h and
 * nicfit/dynlib.h).
 *
 * Each nicfit__jn_* forwarder calls the jansson function of the same name
 * through a table that nicfit_dynlib_load() fills from libjansson.so.4 the
 * first time any of them runs. The table is read without the loader's
 * lock once it is filled (an acquire load of `ready`). Without jansson,
 * the parsers fill their error with why, and the rest return what jansson
 * returns for a failure (NULL, 0, -1).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/jansson_int.h"
#include "nicfit/dynlib.h"
#include "nicfit_sonames.h"

static struct {
	__typeof__(nicfit__jn_array) *array;
	__typeof__(nicfit__jn_array_append_new) *array_append_new;
	__typeof__(nicfit__jn_array_get) *array_get;
	__typeof__(nicfit__jn_array_size) *array_size;
	__typeof__(nicfit__jn_deep_copy) *deep_copy;
	__typeof__(nicfit__jn_delete) *delete_;
	__typeof__(nicfit__jn_dumps) *dumps;
	__typeof__(nicfit__jn_false) *false_;
	__typeof__(nicfit__jn_integer) *integer;
	__typeof__(nicfit__jn_integer_value) *integer_value;
	__typeof__(nicfit__jn_loadb) *loadb;
	__typeof__(nicfit__jn_loads) *loads;
	__typeof__(nicfit__jn_null) *null_;
	__typeof__(nicfit__jn_number_value) *number_value;
	__typeof__(nicfit__jn_object) *object;
	__typeof__(nicfit__jn_object_del) *object_del;
	__typeof__(nicfit__jn_object_get) *object_get;
	__typeof__(nicfit__jn_object_iter) *object_iter;
	__typeof__(nicfit__jn_object_iter_key) *object_iter_key;
	__typeof__(nicfit__jn_object_iter_next) *object_iter_next;
	__typeof__(nicfit__jn_object_iter_value) *object_iter_value;
	__typeof__(nicfit__jn_object_key_to_iter) *object_key_to_iter;
	__typeof__(nicfit__jn_object_set_new) *object_set_new;
	__typeof__(nicfit__jn_object_size) *object_size;
	__typeof__(nicfit__jn_object_update) *object_update;
	json_t *(*vpack_ex)(json_error_t *, size_t, const char *, va_list);
	__typeof__(nicfit__jn_real) *real;
	__typeof__(nicfit__jn_real_value) *real_value;
	__typeof__(nicfit__jn_string) *string;
	__typeof__(nicfit__jn_string_length) *string_length;
	__typeof__(nicfit__jn_string_value) *string_value;
	__typeof__(nicfit__jn_true) *true_;
} jn;

#define SYM(name, slot) { name, (void **)&jn.slot }
static const struct nicfit_dynsym jn_syms[] = {
	SYM("json_array", array), SYM("json_array_append_new", array_append_new),
	SYM("json_array_get", array_get), SYM("json_array_size", array_size),
	SYM("json_deep_copy", deep_copy), SYM("json_delete", delete_),
	SYM("json_dumps", dumps), SYM("json_false", false_), SYM("json_integer", integer),
	SYM("json_integer_value", integer_value), SYM("json_loadb", loadb),
	SYM("json_loads", loads), SYM("json_null", null_),
	SYM("json_number_value", number_value), SYM("json_object", object),
	SYM("json_object_del", object_del), SYM("json_object_get", object_get),
	SYM("json_object_iter", object_iter), SYM("json_object_iter_key", object_iter_key),
	SYM("json_object_iter_next", object_iter_next),
	SYM("json_object_iter_value", object_iter_value),
	SYM("json_object_key_to_iter", object_key_to_iter),
	SYM("json_object_set_new", object_set_new), SYM("json_object_size", object_size),
	SYM("json_object_update", object_update), SYM("json_vpack_ex", vpack_ex),
	SYM("json_real", real), SYM("json_real_value", real_value), SYM("json_string", string),
	SYM("json_string_length", string_length), SYM("json_string_value", string_value),
	SYM("json_true", true_),
};
#undef SYM

static const char *const jn_sonames[] = { NICFIT_SONAME_JANSSON, NULL };

static struct nicfit_dynlib jn_lib = {
	"libjansson", jn_sonames, NICFIT_PACKAGE_JANSSON, jn_syms, sizeof(jn_syms) / sizeof(jn_syms[0]),
	0, ""
};

static int ready;

/* Is jansson loaded (opening it the first time)? */
static int loaded(void)
{
	if (__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
		return 1;
	if (nicfit_dynlib_load(&jn_lib, NULL))
		return 0;
	__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	return 1;
}

/* A parser's error when jansson could not be opened: why, at no position. */
static void no_jansson(json_error_t *error)
{
	if (!error)
		return;
	error->line = error->column = -1;
	error->position = 0;
	snprintf(error->source, sizeof(error->source), "%s", "<jansson>");
	snprintf(error->text, sizeof(error->text), "%s", jn_lib.why);
}

/*
 * jansson's messages that name its own flags rather than the input's
 * fault, and what nicfit says instead; the rest of the message (" near
 * '...'") is kept. Every parser's errors reach users as file:line:col:
 * message, and "\\u0000 is not allowed without JSON_ALLOW_NUL" tells them
 * about a flag of a library they never chose.
 */
static const struct {
	const char *jansson, *ours;
} own_words[] = {
	{ "\\u0000 is not allowed without JSON_ALLOW_NUL", "a NUL character (\\u0000) in a string" },
	{ "NUL byte in object key not supported", "a NUL character (\\u0000) in a key" },
};

/* A parser's error in nicfit's words (own_words), where jansson's name its insides. */
static void in_own_words(json_error_t *error)
{
	char rest[JSON_ERROR_TEXT_LENGTH];
	size_t i, n;

	if (!error)
		return;
	for (i = 0; i < sizeof(own_words) / sizeof(own_words[0]); i++) {
		n = strlen(own_words[i].jansson);
		if (strncmp(error->text, own_words[i].jansson, n))
			continue;
		snprintf(rest, sizeof(rest), "%s", error->text + n);
		snprintf(error->text, sizeof(error->text), "%s%s", own_words[i].ours, rest);
		return;
	}
}

json_t *nicfit__jn_loadb(const char *buffer, size_t buflen, size_t flags, json_error_t *error)
{
	json_t *v;

	if (loaded()) {
		v = jn.loadb(buffer, buflen, flags, error);
		if (!v)
			in_own_words(error);
		return v;
	}
	no_jansson(error);
	return NULL;
}

json_t *nicfit__jn_loads(const char *input, size_t flags, json_error_t *error)
{
	json_t *v;

	if (loaded()) {
		v = jn.loads(input, flags, error);
		if (!v)
			in_own_words(error);
		return v;
	}
	no_jansson(error);
	return NULL;
}

json_t *nicfit__jn_pack(const char *fmt, ...)
{
	json_t *v = NULL;
	va_list ap;

	if (!loaded())
		return NULL;
	va_start(ap, fmt);
	v = jn.vpack_ex(NULL, 0, fmt, ap);
	va_end(ap);
	return v;
}

/* The rest forward as they are: NULL, 0 or -1 without jansson. */
json_t *nicfit__jn_array(void) { return loaded() ? jn.array() : NULL; }
int nicfit__jn_array_append_new(json_t *a, json_t *v) { return loaded() ? jn.array_append_new(a, v) : -1; }
json_t *nicfit__jn_array_get(const json_t *a, size_t i) { return loaded() ? jn.array_get(a, i) : NULL; }
size_t nicfit__jn_array_size(const json_t *a) { return loaded() ? jn.array_size(a) : 0; }
json_t *nicfit__jn_deep_copy(const json_t *v) { return loaded() ? jn.deep_copy(v) : NULL; }
void nicfit__jn_delete(json_t *v) { if (loaded()) jn.delete_(v); }
char *nicfit__jn_dumps(const json_t *v, size_t flags) { return loaded() ? jn.dumps(v, flags) : NULL; }
json_t *nicfit__jn_false(void) { return loaded() ? jn.false_() : NULL; }
json_t *nicfit__jn_integer(json_int_t v) { return loaded() ? jn.integer(v) : NULL; }
json_int_t nicfit__jn_integer_value(const json_t *v) { return loaded() ? jn.integer_value(v) : 0; }
json_t *nicfit__jn_null(void) { return loaded() ? jn.null_() : NULL; }
double nicfit__jn_number_value(const json_t *v) { return loaded() ? jn.number_value(v) : 0; }
json_t *nicfit__jn_object(void) { return loaded() ? jn.object() : NULL; }
int nicfit__jn_object_del(json_t *o, const char *k) { return loaded() ? jn.object_del(o, k) : -1; }
json_t *nicfit__jn_object_get(const json_t *o, const char *k) { return loaded() ? jn.object_get(o, k) : NULL; }
void *nicfit__jn_object_iter(json_t *o) { return loaded() ? jn.object_iter(o) : NULL; }
const char *nicfit__jn_object_iter_key(void *it) { return loaded() ? jn.object_iter_key(it) : NULL; }
void *nicfit__jn_object_iter_next(json_t *o, void *it) { return loaded() ? jn.object_iter_next(o, it) : NULL; }
json_t *nicfit__jn_object_iter_value(void *it) { return loaded() ? jn.object_iter_value(it) : NULL; }
void *nicfit__jn_object_key_to_iter(const char *k) { return loaded() ? jn.object_key_to_iter(k) : NULL; }
int nicfit__jn_object_set_new(json_t *o, const char *k, json_t *v) { return loaded() ? jn.object_set_new(o, k, v) : -1; }
size_t nicfit__jn_object_size(const json_t *o) { return loaded() ? jn.object_size(o) : 0; }
int nicfit__jn_object_update(json_t *o, json_t *other) { return loaded() ? jn.object_update(o, other) : -1; }
json_t *nicfit__jn_real(double v) { return loaded() ? jn.real(v) : NULL; }
double nicfit__jn_real_value(const json_t *v) { return loaded() ? jn.real_value(v) : 0; }
json_t *nicfit__jn_string(const char *v) { return loaded() ? jn.string(v) : NULL; }
size_t nicfit__jn_string_length(const json_t *v) { return loaded() ? jn.string_length(v) : 0; }
const char *nicfit__jn_string_value(const json_t *v) { return loaded() ? jn.string_value(v) : NULL; }
json_t *nicfit__jn_true(void) { return loaded() ? jn.true_() : NULL; }
