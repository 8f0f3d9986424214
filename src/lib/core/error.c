/*
 * error.c - the error record shared by every module (see nicfit/error.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nicfit/buf.h"
#include "nicfit/error.h"
#include "core/text_int.h"

void nicfit_error_clear(struct nicfit_error *err)
{
	if (!err)
		return;
	/* the fields, not the 784 bytes: a request clears several records */
	err->code = NICFIT_OK;
	err->input[0] = '\0';
	err->line = 0;
	err->col = 0;
	err->msg[0] = '\0';
}

static void set_msg(struct nicfit_error *err, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static void set_msg(struct nicfit_error *err, const char *fmt, va_list ap)
{
	char *p;

	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	/* A message is one line: fold any newline an input smuggled in. */
	for (p = err->msg; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
}

int nicfit_error_set(struct nicfit_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err || err->code != NICFIT_OK)
		return code;
	err->code = code;
	err->input[0] = '\0';
	err->line = 0;
	err->col = 0;
	va_start(ap, fmt);
	set_msg(err, fmt, ap);
	va_end(ap);
	return code;
}

int nicfit_error_at(struct nicfit_error *err, int code, const char *input,
		    long line, long col, const char *fmt, ...)
{
	va_list ap;

	if (!err || err->code != NICFIT_OK)
		return code;
	err->code = code;
	snprintf(err->input, sizeof(err->input), "%s", input ? input : "");
	err->line = line > 0 ? line : 0;
	err->col = col > 0 ? col : 0;
	va_start(ap, fmt);
	set_msg(err, fmt, ap);
	va_end(ap);
	return code;
}

/*
 * The line, with what the input put in it (a path, a name, a value)
 * escaped as the emitter escapes it: it goes to a terminal too.
 */
int nicfit_error_line(const struct nicfit_error *err, char *out, size_t n)
{
	const char *msg = err->msg[0] ? err->msg : nicfit_strerror(err->code);
	struct nicfit_buf raw, b;
	int len;

	nicfit_buf_init(&raw, 0);
	nicfit_buf_init(&b, 0);
	if (err->input[0] && err->line > 0 && err->col > 0)
		nicfit_buf_addf(&raw, "%s:%ld:%ld: %s", err->input, err->line, err->col, msg);
	else if (err->input[0] && err->line > 0)
		nicfit_buf_addf(&raw, "%s:%ld: %s", err->input, err->line, msg);
	else if (err->input[0])
		nicfit_buf_addf(&raw, "%s: %s", err->input, msg);
	else
		nicfit_buf_puts(&raw, msg);
	nicfit__text_escape_n(&b, raw.data ? raw.data : "", raw.len, 0);
	if (nicfit_buf_error(&raw) || nicfit_buf_error(&b))
		len = snprintf(out, n, "%s", msg);
	else
		len = snprintf(out, n, "%s", b.data ? b.data : "");
	nicfit_buf_release(&raw);
	nicfit_buf_release(&b);
	return len;
}

const char *nicfit_strerror(int code)
{
	switch (code) {
	case NICFIT_OK: return "success";
	case NICFIT_E_USAGE: return "usage error";
	case NICFIT_E_DATA: return "bad input data";
	case NICFIT_E_NOTFOUND: return "not found";
	case NICFIT_E_NOMEM: return "out of memory";
	case NICFIT_E_INTERNAL: return "internal error";
	case NICFIT_E_IO: return "cannot read input";
	case NICFIT_E_LIMIT: return "input exceeds a limit";
	case NICFIT_E_OUTPUT: return "output cannot be written";
	}
	return "unknown error";
}

int nicfit_exit_code(int code)
{
	switch (code) {
	case NICFIT_OK: return 0;
	case NICFIT_E_USAGE: return 64;
	case NICFIT_E_DATA:
	case NICFIT_E_LIMIT: return 65;
	case NICFIT_E_NOTFOUND:
	case NICFIT_E_IO: return 66;
	case NICFIT_E_OUTPUT: return 74;
	}
	return 70;
}
