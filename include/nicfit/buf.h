/*
 * nicfit/buf.h - a growable byte buffer with a hard size limit and a
 * sticky error, in the manner of SQLite's StrAccum and curl's dynbuf.
 *
 * Appends after the first failure (out of memory, or the limit reached)
 * are ignored, so a writer appends freely and checks once at the end with
 * nicfit_buf_error(). The contents are always NUL-terminated. Every buffer
 * that outside input can fill has a finite max.
 *
 *	struct nicfit_buf b;
 *
 *	nicfit_buf_init(&b, 0);                  (0: NICFIT_BUF_MAX_DEFAULT)
 *	nicfit_buf_addf(&b, "%d ports", n);
 *	nicfit_buf_puts(&b, ", RoCE");
 *	if (nicfit_buf_error(&b))
 *		... NICFIT_E_NOMEM or NICFIT_E_LIMIT; b.data holds what fitted ...
 *	else
 *		fwrite(b.data, 1, b.len, stdout);
 *	nicfit_buf_release(&b);
 *
 * Shape: struct nicfit_buf is the caller's. nicfit_buf_init() prepares it
 * (data points at a static "" until the first append, so it is never
 * NULL), nicfit_buf_release() frees the contents and leaves it empty for
 * reuse, nicfit_buf_detach() hands the contents to the caller, who
 * free()s them. b.data moves when the buffer grows: a pointer into it
 * lives until the next append.
 */
#ifndef NICFIT_BUF_H
#define NICFIT_BUF_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct nicfit_buf {
	char *data;  /* NUL-terminated contents; never NULL after init */
	size_t len;  /* bytes used, not counting the NUL */
	size_t cap;  /* bytes allocated (0 while data points at a static "") */
	size_t max;  /* hard limit on len; appends beyond it set err */
	int err;     /* 0, NICFIT_E_NOMEM or NICFIT_E_LIMIT; sticky */
};

/* Default limit for text written by renderers: 64 MiB. */
#define NICFIT_BUF_MAX_DEFAULT ((size_t)64 << 20)

/* Prepare b, empty, with limit max (0: NICFIT_BUF_MAX_DEFAULT). */
void nicfit_buf_init(struct nicfit_buf *b, size_t max);
/* Free the contents and re-initialise with the same max. */
void nicfit_buf_release(struct nicfit_buf *b);
/* Keep the allocation, drop the contents and the error. */
void nicfit_buf_reset(struct nicfit_buf *b);
/* Hand the contents to the caller (free() them); b is re-initialised. */
char *nicfit_buf_detach(struct nicfit_buf *b, size_t *len);
/*
 * Make room for n more bytes now (a writer that knows about how much it
 * will write grows the buffer once instead of doubling it up there). An
 * error (no memory, past max) is recorded as an append's would be.
 */
void nicfit_buf_reserve(struct nicfit_buf *b, size_t n);

/* Append n bytes, a string, a character, formatted text. */
void nicfit_buf_add(struct nicfit_buf *b, const void *p, size_t n);
void nicfit_buf_puts(struct nicfit_buf *b, const char *s);
void nicfit_buf_addch(struct nicfit_buf *b, int c);
/* Append n copies of c. */
void nicfit_buf_addchn(struct nicfit_buf *b, int c, size_t n);
void nicfit_buf_addf(struct nicfit_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void nicfit_buf_vaddf(struct nicfit_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Drop bytes from the end so that len becomes n (n <= len). */
void nicfit_buf_truncate(struct nicfit_buf *b, size_t n);

/* 0 when every append succeeded, else the first error's status code. */
int nicfit_buf_error(const struct nicfit_buf *b);

#ifdef __cplusplus
}
#endif

#endif
