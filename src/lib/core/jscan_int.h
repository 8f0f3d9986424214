/*
 * jscan_int.h - a strict, fast JSON tokenizer (internal).
 *
 * nicfit fleet reads tens of thousands of audit documents, and building a
 * jansson tree for each costs more than the whole analysis. jscan checks a
 * document against RFC 8259 (UTF-8, escapes, number grammar, nesting capped
 * at JSCAN_MAX_DEPTH or max_depth) and writes a flat array of tokens, one per value, in
 * document order, each knowing where its subtree ends, so that a reader
 * walks and skips members without allocating. Nothing is copied: tokens
 * point into the caller's text, which must outlive them.
 *
 * It is not a general JSON library: no building, no writing. Use jansson
 * for that (the emitter does). It is also where positions come from: a
 * reader that found a value wrong with jansson (the spec and catalog
 * readers) tokenizes the same text and asks nicfit__jscan_locate() for the
 * value's line and column.
 *
 *	struct jscan js;
 *	long line, col;
 *
 *	nicfit__jscan_init(&js);
 *	if (!nicfit__jscan_parse(&js, text, len) &&
 *	    !nicfit__jscan_locate(&js, "/nics/3/port_gbps", &line, &col))
 *		... report input:line:col ...
 *	nicfit__jscan_release(&js);
 *
 * Shape of the result: struct jscan is the caller's (nicfit__jscan_init,
 * then nicfit__jscan_release frees the token array; it can be reused for
 * the next parse, which overwrites the tokens). Tokens and err_msg stay
 * valid until the next parse or the release; they point into the text.
 */
#ifndef NICFIT_JSCAN_INT_H
#define NICFIT_JSCAN_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "jscan_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>
#include <stdint.h>

/*
 * Nesting a document may have by default. A reader that tokenizes what
 * jansson already accepted, only to find positions in it, sets max_depth
 * to jansson's JSON_PARSER_MAX_DEPTH instead, so that every document
 * jansson reads has positions.
 */
#define JSCAN_MAX_DEPTH 64

enum jscan_type {
	JS_NONE,
	JS_OBJECT,
	JS_ARRAY,
	JS_STRING,
	JS_NUMBER,
	JS_TRUE,
	JS_FALSE,
	JS_NULL
};

struct jscan_tok {
	unsigned char type;    /* enum jscan_type */
	unsigned char escaped; /* strings: holds a backslash escape */
	uint32_t start;        /* offset of the value (strings: after the quote) */
	uint32_t len;          /* bytes (strings: between the quotes) */
	uint32_t next;         /* index of the first token after this subtree */
	uint32_t count;        /* objects: members; arrays: elements */
};

struct jscan {
	const char *text;      /* the document last parsed */
	size_t textlen;
	struct jscan_tok *tok; /* tokens; object members are key, value, key, ... */
	uint32_t ntok;
	size_t cap;            /* tokens allocated (NICFIT_ALLOC_GROW) */
	size_t err_off;        /* where the first error is (byte offset) */
	const char *err_msg;   /* static text, NULL when the last parse succeeded */
	uint32_t hint_obj;     /* nicfit__jscan_get resumes after the member it found last */
	uint32_t hint_key;
	unsigned max_depth;    /* nesting allowed; 0 (as init leaves it): JSCAN_MAX_DEPTH */
	uint32_t max_count;    /* members or elements one container may hold; 0: any */
};

void nicfit__jscan_init(struct jscan *s);
void nicfit__jscan_release(struct jscan *s);

/*
 * Parse exactly one JSON value from text[0..len) (whitespace around it is
 * allowed, anything else after it is an error). Returns 0, -1 on a syntax
 * error (err_off and err_msg say where and what), -2 when out of memory,
 * or JSCAN_E_COUNT when a container holds more than max_count members or
 * elements (err_off is where the first one too many starts: the parse
 * stops there, whatever follows). Documents of 4 GiB or more are refused
 * (-1).
 */
#define JSCAN_E_COUNT (-3)

int nicfit__jscan_parse(struct jscan *s, const char *text, size_t len);

/*
 * As nicfit__jscan_parse, but text after the value is allowed: *used is set to the
 * bytes of the value and the whitespace after it.
 */
int nicfit__jscan_parse_prefix(struct jscan *s, const char *text, size_t len, size_t *used);

/*
 * The value of member key in object token obj, or -1. Looking members up
 * in the order they appear costs one step each: the search resumes after
 * the member found last.
 */
int nicfit__jscan_get(struct jscan *s, int obj, const char *key);

/*
 * Decode string token i into out (size n, NUL-terminated). Returns the
 * decoded length, or -1 when i is not a string or does not fit.
 */
int nicfit__jscan_string(const struct jscan *s, int i, char *out, size_t n);

/* Token i as a number: 0 and *v, or -1 when it is not a number. */
int nicfit__jscan_number(const struct jscan *s, int i, double *v);

/* True when key token k equals the NUL-terminated key (escapes decoded). */
int nicfit__jscan_key_is(const struct jscan *s, int k, const char *key);

/*
 * 1-based line and column of byte offset off in text. Columns count
 * characters (a UTF-8 sequence is one column), as an editor shows them.
 */
void nicfit__jscan_position(const char *text, size_t off, long *line, long *col);
/*
 * The same carried on: *line and *col are the position of offset from
 * (<= off) and become off's, the bytes between read once (a reader that
 * locates values in document order walks the text once).
 */
void nicfit__jscan_advance(const char *text, size_t from, size_t off, long *line, long *col);

/*
 * Line and column of the value at path in the document last parsed: ""
 * is the root, each "/name" an object member (the first of that name;
 * "~1" in a name stands for '/', "~0" for '~', as in an RFC 6901 JSON
 * Pointer), each "/N" an array element. A string's position is its
 * opening quote.
 * Returns 0, or -1 when the path is not in the document (then *line =
 * *col = 0).
 */
int nicfit__jscan_locate(const struct jscan *s, const char *path, long *line, long *col);

/* The token at path (as nicfit__jscan_locate reads it), or -1. */
int nicfit__jscan_find(const struct jscan *s, const char *path);

/* Byte offset where token i's value starts (a string's: its opening quote). */
size_t nicfit__jscan_offset(const struct jscan *s, int i);

#endif
