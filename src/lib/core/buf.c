/*
 * buf.c - growable, bounded, sticky-error byte buffer (see nicfit/buf.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/buf.h"
#include "nicfit/error.h"
#include "core/budget_int.h"
#include "core/fmt_int.h"

static char empty[1];

void nicfit_buf_init(struct nicfit_buf *b, size_t max)
{
	b->data = empty;
	b->len = 0;
	b->cap = 0;
	b->max = max ? max : NICFIT_BUF_MAX_DEFAULT;
	b->err = 0;
}

void nicfit_buf_release(struct nicfit_buf *b)
{
	if (b->cap)
		free(b->data);
	nicfit_buf_init(b, b->max);
}

void nicfit_buf_reset(struct nicfit_buf *b)
{
	b->len = 0;
	b->err = 0;
	if (b->cap)
		b->data[0] = '\0';
}

char *nicfit_buf_detach(struct nicfit_buf *b, size_t *len)
{
	char *p;

	if (len)
		*len = b->len;
	if (b->cap) {
		p = b->data;
	} else {
		p = malloc(1);
		if (p)
			p[0] = '\0';
	}
	nicfit_buf_init(b, b->max);
	return p;
}

/* Make room for n more bytes plus the NUL; returns 0 or sets b->err. */
static int grow(struct nicfit_buf *b, size_t n)
{
	size_t need, cap;
	char *p;

	if (b->err)
		return -1;
	/* a thread over its CPU budget (nicfit/budget.h) writes no more */
	if (n > b->max - b->len || nicfit_budget_tick()) {
		b->err = NICFIT_E_LIMIT;
		return -1;
	}
	need = b->len + n + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = b->cap ? realloc(b->data, cap) : malloc(cap);
	if (!p) {
		b->err = NICFIT_E_NOMEM;
		return -1;
	}
	if (!b->cap)
		p[0] = '\0';
	b->data = p;
	b->cap = cap;
	return 0;
}

void nicfit_buf_reserve(struct nicfit_buf *b, size_t n)
{
	grow(b, n);
}

void nicfit_buf_add(struct nicfit_buf *b, const void *p, size_t n)
{
	if (grow(b, n))
		return;
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void nicfit_buf_puts(struct nicfit_buf *b, const char *s)
{
	nicfit_buf_add(b, s, strlen(s));
}

void nicfit_buf_addch(struct nicfit_buf *b, int c)
{
	char ch = (char)c;

	nicfit_buf_add(b, &ch, 1);
}

void nicfit_buf_addchn(struct nicfit_buf *b, int c, size_t n)
{
	if (grow(b, n))
		return;
	memset(b->data + b->len, c, n);
	b->len += n;
	b->data[b->len] = '\0';
}

/*
 * Formatted into the room the buffer has first, so that the usual short
 * append is formatted once; only one that does not fit grows the buffer
 * and is formatted again.
 */
void nicfit_buf_vaddf(struct nicfit_buf *b, const char *fmt, va_list ap)
{
	size_t room = b->cap > b->len ? b->cap - b->len : 0;
	va_list cp;
	int n;

	if (b->err)
		return;
	if (nicfit_budget_tick()) {
		b->err = NICFIT_E_LIMIT;
		return;
	}
	if (room < 256) {
		/* little room: a short text is formatted once, on the stack, and added */
		char small[256];

		va_copy(cp, ap);
		n = nicfit__vfmt(small, sizeof(small), fmt, cp);
		va_end(cp);
		if (n >= 0 && (size_t)n < sizeof(small)) {
			nicfit_buf_add(b, small, (size_t)n);
			return;
		}
	}
	va_copy(cp, ap);
	n = nicfit__vfmt(room ? b->data + b->len : NULL, room, fmt, cp);
	va_end(cp);
	if (n < 0) {
		if (room)
			b->data[b->len] = '\0';
		b->err = NICFIT_E_INTERNAL;
		return;
	}
	if ((size_t)n < room) {
		if ((size_t)n > b->max - b->len) {
			b->data[b->len] = '\0';
			b->err = NICFIT_E_LIMIT;
			return;
		}
		b->len += (size_t)n;
		return;
	}
	if (room)
		b->data[b->len] = '\0';
	if (grow(b, (size_t)n))
		return;
	nicfit__vfmt(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void nicfit_buf_addf(struct nicfit_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	nicfit_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void nicfit_buf_truncate(struct nicfit_buf *b, size_t n)
{
	if (n >= b->len)
		return;
	b->len = n;
	b->data[n] = '\0';
}

int nicfit_buf_error(const struct nicfit_buf *b)
{
	return b->err;
}
