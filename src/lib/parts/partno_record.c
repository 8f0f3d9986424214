/*
 * partno_record.c - the recorders every part-number reader shares
 * (partno_int.h): a bounded string copy, a note, what a position of the
 * part number means, a field left unverified, and the error that stops a
 * reading at a character. They write into the one result struct and read
 * no part number themselves.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "parts/partno_int.h"

void nicfit__part_setstr(char *dst, size_t n, const char *s)
{
	snprintf(dst, n, "%s", s ? s : "");
}

void nicfit__part_note(struct nicfit_part *p, const char *fmt, ...)
{
	char buf[NICFIT_PART_NOTE_LEN];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (i = 0; i < p->nnotes; i++)
		if (!strcmp(p->notes[i], buf))
			return;
	if (p->nnotes < NICFIT_PART_NOTES)
		setstr(p->notes[p->nnotes++], NICFIT_PART_NOTE_LEN, buf);
}

void nicfit__part_pos(struct nicfit_part *p, const char *chars, const char *fmt, ...)
{
	struct nicfit_part_pos *r;
	va_list ap;

	if (p->nreading >= NICFIT_PART_READING)
		return;
	r = &p->reading[p->nreading++];
	setstr(r->chars, sizeof(r->chars), chars);
	va_start(ap, fmt);
	vsnprintf(r->meaning, sizeof(r->meaning), fmt, ap);
	va_end(ap);
}

void nicfit__part_pos_char(struct nicfit_part *p, char c, const char *fmt, ...)
{
	char chars[2] = { c, '\0' };
	char buf[112];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	pos(p, chars, "%s", buf);
}

void nicfit__part_unverified(struct nicfit_part *p, const char *field)
{
	int i;

	for (i = 0; i < p->nunverified; i++)
		if (!strcmp(p->unverified[i], field))
			return;
	if (p->nunverified < (int)(sizeof(p->unverified) / sizeof(p->unverified[0])))
		setstr(p->unverified[p->nunverified++], sizeof(p->unverified[0]), field);
}

int nicfit__part_bad(struct dec *d, size_t at, const char *fmt, ...)
{
	char why[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	return nicfit_error_at(d->err, NICFIT_E_DATA, "part", 0, d->lead + (long)at + 1,
			       "'%s': %s (at column %ld)", d->s, why, d->lead + (long)at + 1);
}
