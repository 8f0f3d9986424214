/*
 * jsonpos.h - find where a value sits in JSON text (internal).
 *
 * jansson reports positions only for syntax errors. To report a schema
 * error as file:line:col, we scan the (already valid) text once more and
 * locate the value at a path such as "/nics/3/port_gbps".
 */
#ifndef NICFIT_JSONPOS_H
#define NICFIT_JSONPOS_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "jsonpos.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>

/*
 * Line and column (1-based) of the value at path ("" = the root; object
 * members by key, array elements by index, each after a '/'). Returns 0,
 * or -1 when the path is not in the text (then *line = *col = 0).
 */
int nicfit_json_locate(const char *text, size_t len, const char *path,
		       long *line, long *col);

#endif
