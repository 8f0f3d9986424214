/*
 * nicfit/error.h - the one error model of libnicfit.
 *
 * Every library function that can fail returns 0 (NICFIT_OK) or a negative
 * code from enum nicfit_status, and takes an optional caller-owned
 * struct nicfit_error into which it writes a one-line message and, for
 * errors in an input, the input's name and the 1-based line and column.
 * The library never prints and never exits; the CLI maps codes to exit
 * statuses (nicfit_exit_code) and prints nicfit_error_line().
 *
 *	struct nicfit_error err;
 *	char line[1024];
 *
 *	nicfit_error_clear(&err);
 *	if (nicfit_catalog_overlay_file(cat, path, &err)) {
 *		nicfit_error_line(&err, line, sizeof(line));
 *		fprintf(stderr, "nicfit: %s\n", line);   ("x.json:3:7: ...")
 *		return nicfit_exit_code(err.code);
 *	}
 *
 * Shape: struct nicfit_error is the caller's, fixed-size (nothing to
 * free); the first error recorded wins, so a caller clears it once and
 * passes it down. Messages longer than its fields are cut, never lost
 * as a whole.
 */
#ifndef NICFIT_ERROR_H
#define NICFIT_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum nicfit_status {
	NICFIT_OK = 0,
	NICFIT_E_USAGE = -1,    /* bad arguments or options (exit 64) */
	NICFIT_E_DATA = -2,     /* malformed or absurd input data (exit 65) */
	NICFIT_E_NOTFOUND = -3, /* input file, id or device not found (exit 66) */
	NICFIT_E_NOMEM = -4,    /* out of memory (exit 70) */
	NICFIT_E_INTERNAL = -5, /* a bug or an impossible state (exit 70) */
	NICFIT_E_IO = -6,       /* an input exists but cannot be read (exit 66) */
	NICFIT_E_LIMIT = -7,    /* an input exceeds a hard limit (exit 65) */
	NICFIT_E_OUTPUT = -8    /* an output cannot be made or written (exit 74, sysexits'
				 * EX_IOERR): --output's file, standard output */
};

/* Where and why the first error happened; owned by the caller. */
struct nicfit_error {
	int code;          /* enum nicfit_status, NICFIT_OK when clear */
	char input[256];   /* name of the input (file, option, "spec"); "" if none */
	long line;         /* 1-based line in the input; 0 when not applicable */
	long col;          /* 1-based column; 0 when not applicable */
	char msg[512];     /* one line, no trailing newline */
};

/* Reset err to "no error". err may be NULL. */
void nicfit_error_clear(struct nicfit_error *err);

/*
 * Record an error (printf-style message) and return code, so that callers
 * can write "return nicfit_error_set(err, NICFIT_E_DATA, ...)". The first
 * error wins: if err already holds one, it is kept. err may be NULL.
 */
int nicfit_error_set(struct nicfit_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* As nicfit_error_set, naming the input and position (line/col may be 0). */
int nicfit_error_at(struct nicfit_error *err, int code, const char *input,
		    long line, long col, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/*
 * Write the error as one line into out (size n, always NUL-terminated):
 * "input:line:col: message", "input: message" or "message".
 * Returns the length that the whole line has (snprintf semantics).
 */
int nicfit_error_line(const struct nicfit_error *err, char *out, size_t n);

/* A short English name for a status code ("bad input data", ...). */
const char *nicfit_strerror(int code);

/* The process exit status for a status code: 0, 64, 65, 66 or 70. */
int nicfit_exit_code(int code);

#ifdef __cplusplus
}
#endif

#endif
