/*
 * wrap.c - text output for a terminal: its width, and prose wrapped to it.
 *
 * The library lays tables out for the width it is given (libsmartcols)
 * and leaves prose as long lines; on a terminal the CLI wraps what is
 * still too wide here, once, after the document is rendered, so that no
 * renderer has to know about terminals. Piped output is not touched:
 * grep and diff see every finding and verdict on one line.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"

unsigned cli_term_width(int fd)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	char *end;
	long n;

	if (!isatty(fd))
		return 0;
	if (env && *env) {
		n = strtol(env, &end, 10);
		if (!*end && n >= 20 && n <= 10000)
			return (unsigned)n;
	}
	if (!ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

/* Bytes of an ANSI escape sequence at s ("\033[...m"), 0 if none. */
static size_t ansi_len(const char *s, size_t n)
{
	size_t i = 2;

	if (n < 3 || s[0] != '\033' || s[1] != '[')
		return 0;
	while (i < n && ((s[i] >= '0' && s[i] <= '9') || s[i] == ';'))
		i++;
	return i < n && s[i] == 'm' ? i + 1 : 0;
}

/* Display columns of s[0..n): code points, not bytes, and no escapes. */
static size_t columns(const char *s, size_t n)
{
	size_t w = 0, i = 0, a;

	while (i < n) {
		if ((a = ansi_len(s + i, n - i))) {
			i += a;
			continue;
		}
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			w++;
		i++;
	}
	return w;
}

/* The byte offset in s[0..n) where `cols` display columns end. */
static size_t offset_of(const char *s, size_t n, size_t cols)
{
	size_t w = 0, i = 0, a;

	while (i < n) {
		if ((a = ansi_len(s + i, n - i))) {
			i += a;
			continue;
		}
		if (((unsigned char)s[i] & 0xC0) != 0x80) {
			if (w == cols)
				return i;
			w++;
		}
		i++;
	}
	return n;
}

/*
 * Where the lines a long line is wrapped into start: under its text. A
 * labelled line ("Back end   MCX...", "  R1   Llama...", "  info     code:
 * ...") hangs under what follows the label, the first run of two blanks
 * in its first 32 columns; a list item ("- ", "* ") under its words; other
 * prose under its own indentation.
 */
static size_t hang_of(const char *s, size_t n, size_t ind, unsigned width)
{
	size_t i = ind, col = ind, a, blanks = 0, limit = width / 2 < 32 ? width / 2 : 32;

	if (ind + 1 < n && (s[ind] == '-' || s[ind] == '*') && s[ind + 1] == ' ')
		return ind + 2;
	/* colour codes take no column: "\033[33mWARNING \033[0m code" has two blanks */
	for (; i < n && col <= limit; i++) {
		if ((a = ansi_len(s + i, n - i))) {
			i += a - 1;
			continue;
		}
		if (s[i] == ' ') {
			blanks++;
		} else {
			if (blanks >= 2 && col > ind + blanks)
				return col;
			blanks = 0;
		}
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			col++;
	}
	return ind;
}

/* Append one line (no newline in it) to out, wrapped at width. */
static void wrap_line(struct nicfit_buf *out, const char *s, size_t n, unsigned width)
{
	size_t ind = 0, hang, first = 1;

	while (ind < n && s[ind] == ' ')
		ind++;
	hang = hang_of(s, n, ind, width);
	if (hang + 20 > width)
		hang = ind = 0;
	while (columns(s, n) + (first ? 0 : hang) > width) {
		size_t room = width - (first ? 0 : hang), cut = offset_of(s, n, room), b = cut;

		/* the last blank before the cut, past the indentation */
		while (b > (first ? ind : 0) && s[b] != ' ')
			b--;
		if (b > (first ? ind : 0))
			cut = b;
		if (!first)
			nicfit_buf_addchn(out, ' ', hang);
		nicfit_buf_add(out, s, cut);
		nicfit_buf_addch(out, '\n');
		while (cut < n && s[cut] == ' ')
			cut++;
		s += cut;
		n -= cut;
		first = 0;
	}
	if (!first)
		nicfit_buf_addchn(out, ' ', hang);
	nicfit_buf_add(out, s, n);
}

int cli_wrap(struct nicfit_buf *b, unsigned width)
{
	struct nicfit_buf out;
	const char *p = b->data, *end = b->data + b->len;

	if (!width || !b->len)
		return 0;
	nicfit_buf_init(&out, 0);
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (columns(p, n) > width)
			wrap_line(&out, p, n, width);
		else
			nicfit_buf_add(&out, p, n);
		if (nl)
			nicfit_buf_addch(&out, '\n');
		p += n + (nl ? 1 : 0);
	}
	if (nicfit_buf_error(&out)) {
		nicfit_buf_release(&out);
		return NICFIT_E_NOMEM;
	}
	nicfit_buf_release(b);
	*b = out;
	return 0;
}
