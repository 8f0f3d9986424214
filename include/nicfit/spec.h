/*
 * nicfit/spec.h - a request as key/value pairs, from flags or from JSON.
 *
 * `--gpus-per-server 2` on the command line and {"gpus_per_server": 2} in
 * a --spec file or an HTTP body become the same pair ("gpus_per_server",
 * "2"), and every command parses values from text with the units parsers.
 * So the CLI and the web API accept exactly the same requests and give the
 * same errors. A JSON array of scalars becomes one pair per element (for
 * repeatable keys such as "assume"). Keys are stored with '_' for '-'.
 *
 * Building a spec
 * ---------------
 * nicfit_spec_init() names the input; nicfit_spec_add() adds flags,
 * nicfit_spec_parse_json() a document (remembering where each value
 * stood, for errors as file:line:col).
 *
 * Reading it
 * ----------
 * A command reads the settings it knows through a struct nicfit_reader
 * (typed, range-checked, errors named as the user wrote the setting),
 * then nicfit_spec_check_unused() turns any setting nobody read into an
 * error with a "did you mean".
 *
 *	struct nicfit_spec *s = calloc(1, sizeof(*s));   (it is large)
 *	struct nicfit_reader r;
 *	long gpus;
 *
 *	nicfit_spec_init(s, "req.json");
 *	if (nicfit_spec_parse_json(s, text, len, &err))
 *		goto out;
 *	nicfit_reader_init(&r, s, &err);
 *	if (nicfit_reader_long(&r, "gpus_per_server", 8, 1, 64, &gpus) ||
 *	    nicfit_spec_check_unused(s, known, &err))
 *		goto out;     (err: "req.json:3:22: gpus_per_server: ...")
 *	...
 *	out:
 *	nicfit_spec_release(s);
 *	free(s);
 *
 * Shape: struct nicfit_spec is the caller's (on the heap or the stack; it
 * holds NICFIT_SPEC_MAX_PAIRS pairs). nicfit_spec_init() prepares it,
 * nicfit_spec_release() frees the keys and values it copied and leaves it
 * empty for reuse. Strings returned by nicfit_spec_get() and friends
 * belong to the spec and live until its release; nicfit_suggest() returns
 * one of the caller's candidates. Nothing here prints.
 */
#ifndef NICFIT_SPEC_H
#define NICFIT_SPEC_H

#include <stddef.h>

#include "nicfit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NICFIT_SPEC_MAX_PAIRS 256
#define NICFIT_SPEC_MAX_VALUE 4096
#define NICFIT_SPEC_MAX_BYTES (1u << 20)

struct nicfit_spec_pair {
	char *key;    /* "gpus_per_server" */
	char *value;  /* "2" (JSON true/false become "true"/"false") */
	int used;     /* set by nicfit_spec_get(); unused pairs are errors */
	long line, col; /* where the value stood in the JSON text; 0 for flags */
};

struct nicfit_spec {
	char input[128];  /* where it came from: a file name, "flags", "request" */
	int from_data;    /* 1 when parsed from JSON: bad values are bad data (65) */
	size_t n;
	struct nicfit_spec_pair pairs[NICFIT_SPEC_MAX_PAIRS];
};

void nicfit_spec_init(struct nicfit_spec *s, const char *input);
void nicfit_spec_release(struct nicfit_spec *s);

/* Add key=value ('-' in key becomes '_'). Errors: NICFIT_E_LIMIT, NOMEM. */
int nicfit_spec_add(struct nicfit_spec *s, const char *key, const char *value,
		    struct nicfit_error *err);

/*
 * Parse a JSON object into s (added after what s holds). Values must be
 * strings, numbers, booleans, null (ignored) or arrays of those. Errors
 * (NICFIT_E_DATA) carry the input name and the line and column.
 */
int nicfit_spec_parse_json(struct nicfit_spec *s, const char *text, size_t len,
			   struct nicfit_error *err);

/*
 * Point an error about key at the spec's own input: when the spec came
 * from JSON, err gets the file name and the line and column of key's last
 * value, its message is prefixed with the key, and a usage error becomes
 * a data error (exit 65). Nothing changes for flags or a clear err.
 */
void nicfit_spec_locate_error(const struct nicfit_spec *s, const char *key,
			      struct nicfit_error *err);
/* As nicfit_spec_locate_error, at the nth value of key (0-based; -1: the last). */
void nicfit_spec_locate_error_nth(const struct nicfit_spec *s, const char *key, long nth,
				  struct nicfit_error *err);
/*
 * An error a command raised after reading its spec names the option
 * ("--backend-nic"): when the spec came from JSON and holds that key
 * ("backend_nic"), point err at the key's value as
 * nicfit_spec_locate_error() does. Nothing changes otherwise.
 */
void nicfit_spec_locate_option(const struct nicfit_spec *s, struct nicfit_error *err);

/* The last value of key, or NULL. Marks every pair with that key used. */
const char *nicfit_spec_get(struct nicfit_spec *s, const char *key);

/* How many values key has; get the i-th with nicfit_spec_get_nth. */
size_t nicfit_spec_count(struct nicfit_spec *s, const char *key);
const char *nicfit_spec_get_nth(struct nicfit_spec *s, const char *key, size_t i);

/*
 * After a command took what it knows: NICFIT_E_USAGE naming the first
 * key nobody asked for (a typo), with a suggestion from `known` (a
 * NULL-terminated list) when one is close.
 */
int nicfit_spec_check_unused(const struct nicfit_spec *s, const char *const *known,
			     struct nicfit_error *err);

/*
 * The closest of candidates (NULL-terminated) to word by edit distance,
 * or NULL when none is within a third of its length. Case-insensitive.
 */
const char *nicfit_suggest(const char *word, const char *const *candidates);

/*
 * Reading typed settings out of a spec, for the commands that take one
 * (calc, plan, cluster, ...). Messages name the setting as the user wrote
 * it ("--gpus-per-server" for flags, "gpus_per_server" plus the file's
 * line and column for JSON), and bad values in JSON are bad data (65).
 */
struct nicfit_reader {
	struct nicfit_spec *s;
	struct nicfit_error *err;
	const char *key;   /* the setting read last */
	char opt[72];      /* a name as shown: nicfit_reader_opt(), nicfit_reader_name() */
	long nth;          /* which of key's values was read; -1: the last */
};

void nicfit_reader_init(struct nicfit_reader *r, struct nicfit_spec *s, struct nicfit_error *err);
/* The setting's name as shown ("--gen" or "gen"); remembers it as the current key. */
const char *nicfit_reader_opt(struct nicfit_reader *r, const char *key);
/*
 * The current key's name as shown (r->opt, written now: the reads that
 * follow leave it as it was, as a request read without a mistake never
 * shows it).
 */
const char *nicfit_reader_name(struct nicfit_reader *r);
/*
 * The value of key (NULL when absent), which becomes the current key: an
 * error reported through nicfit_reader_fail() after it points at this
 * key's value, not at the one read before. Use it for every value a
 * command parses itself.
 */
const char *nicfit_reader_get(struct nicfit_reader *r, const char *key);
/* The i-th value of a repeatable key, made current the same way. */
const char *nicfit_reader_get_nth(struct nicfit_reader *r, const char *key, size_t i);
/* Point a failure (rc, already recorded in r->err) at the current key; returns rc. */
int nicfit_reader_fail(struct nicfit_reader *r, int rc);
/* A required value: NICFIT_E_USAGE "missing --key" when absent. */
int nicfit_reader_need(struct nicfit_reader *r, const char *key, const char **out);
/* Optional numbers: *out = def when absent; range-checked when present. */
int nicfit_reader_long(struct nicfit_reader *r, const char *key, long def, long min, long max,
		       long *out);
int nicfit_reader_double(struct nicfit_reader *r, const char *key, double def, double min,
			 double max, double *out);

#ifdef __cplusplus
}
#endif

#endif
