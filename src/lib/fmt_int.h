/*
 * fmt_int.h - snprintf() and vsnprintf() to the byte, cheaper (fmt.c): the
 * same return value (the length the whole text takes) and the same
 * truncation to n - 1 bytes and a NUL.
 */
#ifndef NICFIT_FMT_INT_H
#define NICFIT_FMT_INT_H

#include <stdarg.h>
#include <stddef.h>

int nicfit__vfmt(char *d, size_t n, const char *fmt, va_list ap);
int nicfit__fmt(char *d, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
