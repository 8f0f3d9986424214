/*
 * spec_int.h - the request reader's two ways of reading JSON (spec.c).
 *
 * nicfit_spec_parse_json() reads a flat request (strings without escapes,
 * numbers, booleans, nulls, arrays of strings and numbers, distinct keys)
 * from the tokenizer's tokens alone, and hands anything else to
 * nicfit__spec_parse_json_tree(), which reads it through a jansson tree
 * and words every error. Both fill a spec the same way, pair for pair and
 * position for position; the fuzz harness (tests/fuzz/fuzz_spec.c) holds
 * them to it.
 */
#ifndef NICFIT_SPEC_INT_H
#define NICFIT_SPEC_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "spec_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

#include "nicfit/error.h"
#include "nicfit/spec.h"

/* nicfit_spec_parse_json() through a jansson tree, whatever the request holds. */
int nicfit__spec_parse_json_tree(struct nicfit_spec *s, const char *text, size_t len,
				 struct nicfit_error *err);

#endif
