/*
 * jansson_int.h - jansson, opened on first use (dynlib_jansson.c).
 *
 * Include this instead of <jansson.h>. It renames every jansson function
 * the library calls to a forwarder (nicfit__jn_*) before jansson's header
 * declares it, so that the library's code and jansson's own inline
 * helpers (json_decref() and the rest) reach jansson through the
 * forwarders, and libjansson.so.4 is opened with dlopen() the first time
 * one runs. Why: most commands never parse JSON with jansson (the default
 * catalog is compiled, a flat request is read by jscan, the emitter writes
 * JSON itself), and loading and binding jansson cost every process about
 * 19,000 instructions (callgrind), a tenth of `nicfit --version`.
 *
 * A function the library starts to use must be added here and to the
 * table in dynlib_jansson.c; the link fails on one that is missing.
 * Without libjansson.so.4 the parsers return their error (naming the
 * library and its package) and the constructors NULL.
 */
#ifndef NICFIT_JANSSON_INT_H
#define NICFIT_JANSSON_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "jansson_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

/*
 * A test or a tool that included <jansson.h> first calls jansson itself
 * (and links it): then nothing is renamed in that file.
 */
#ifndef JANSSON_H
#define json_array nicfit__jn_array
#define json_array_append_new nicfit__jn_array_append_new
#define json_array_get nicfit__jn_array_get
#define json_array_size nicfit__jn_array_size
#define json_deep_copy nicfit__jn_deep_copy
#define json_delete nicfit__jn_delete
#define json_dumps nicfit__jn_dumps
#define json_false nicfit__jn_false
#define json_integer nicfit__jn_integer
#define json_integer_value nicfit__jn_integer_value
#define json_loadb nicfit__jn_loadb
#define json_loads nicfit__jn_loads
#define json_null nicfit__jn_null
#define json_number_value nicfit__jn_number_value
#define json_object nicfit__jn_object
#define json_object_del nicfit__jn_object_del
#define json_object_get nicfit__jn_object_get
#define json_object_iter nicfit__jn_object_iter
#define json_object_iter_key nicfit__jn_object_iter_key
#define json_object_iter_next nicfit__jn_object_iter_next
#define json_object_iter_value nicfit__jn_object_iter_value
#define json_object_key_to_iter nicfit__jn_object_key_to_iter
#define json_object_set_new nicfit__jn_object_set_new
#define json_object_size nicfit__jn_object_size
#define json_object_update nicfit__jn_object_update
#define json_pack nicfit__jn_pack
#define json_real nicfit__jn_real
#define json_real_value nicfit__jn_real_value
#define json_string nicfit__jn_string
#define json_string_length nicfit__jn_string_length
#define json_string_value nicfit__jn_string_value
#define json_true nicfit__jn_true
#endif

#include <jansson.h>

struct nicfit_emit;

/*
 * A parsed object written through the emitter as it is, but for its member
 * named skip (NULL: none): the catalog's entries without their "_origin",
 * straight from the catalog's tree (parts/catalog_render.c). Nothing
 * outside JSON. Defined by the JSON writer, out/emit_json.c.
 */
void nicfit__emit_json_object(struct nicfit_emit *e, const char *key, json_t *o,
			      const char *skip);

#endif
