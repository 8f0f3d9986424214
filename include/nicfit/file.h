/*
 * nicfit/file.h - reading a whole input file, with a limit, and listing
 * a directory of them.
 *
 * Specs, catalogs, dumps and audit documents are read whole and then
 * parsed. nicfit_read_file() is the one reader for them: it refuses
 * directories, stops at max bytes (an input over its limit is an error,
 * never silently cut), retries interrupted reads, and names the input in
 * the error. "-" reads standard input.
 *
 *	char *text;
 *	size_t len;
 *
 *	if (nicfit_read_file(path, NICFIT_SPEC_MAX_BYTES, &text, &len, &err))
 *		return cli_fail(&err);
 *	...
 *	free(text);
 */
#ifndef NICFIT_FILE_H
#define NICFIT_FILE_H

#include <stddef.h>

#include "nicfit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Read the file at path ("-": standard input) into a new NUL-terminated
 * buffer; *out (free() it) and *len get it. Errors, with the path as the
 * input: NICFIT_E_NOTFOUND (no such file), NICFIT_E_IO (unreadable, or a
 * directory: "is a directory"), NICFIT_E_LIMIT ("larger than MAX bytes"),
 * NICFIT_E_NOMEM. On error *out is NULL.
 */
int nicfit_read_file(const char *path, size_t max, char **out, size_t *len,
		     struct nicfit_error *err);

/* The same from an open descriptor; name is the input named in errors. */
int nicfit_read_fd(int fd, const char *name, size_t max, char **out, size_t *len,
		   struct nicfit_error *err);

/*
 * The names in directory dir, in byte order (strcmp), "." and ".." never
 * and hidden ones (a leading '.') not when skip_hidden: the one lister of
 * the readers that walk a directory of inputs, so that every walk sees
 * one order whatever the locale. *names gets a new array of *n names
 * (nicfit_dir_names_free() frees it; NULL when empty). Returns 0,
 * NICFIT_E_IO when dir cannot be listed (errno says why), NICFIT_E_LIMIT
 * when it holds more than max names, or NICFIT_E_NOMEM; on error *names
 * is NULL. The caller words the error, naming the input as it knows it.
 */
int nicfit_dir_list(const char *dir, int skip_hidden, size_t max, char ***names, size_t *n);
void nicfit_dir_names_free(char **names, size_t n);

#ifdef __cplusplus
}
#endif

#endif
