/*
 * banned.h - functions that must not be used in nicfit, as in git.
 * Included (via the build's -include flag) into every library and CLI
 * source, so a use is a compile error naming the better choice.
 */
#ifndef NICFIT_BANNED_H
#define NICFIT_BANNED_H

/* Declare the real functions first, so the macros below only catch uses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy) /* use snprintf or nicfit_buf */
#undef strcat
#define strcat(x, y) BANNED(strcat) /* use nicfit_buf */
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy) /* use snprintf */
#undef sprintf
#define sprintf(...) BANNED(sprintf) /* use snprintf */
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf) /* use vsnprintf */
#undef strtok
#define strtok(x, y) BANNED(strtok) /* not reentrant */
#undef gets
#define gets(x) BANNED(gets)
#undef atoi
#define atoi(x) BANNED(atoi) /* use nicfit_parse_* with full checks */
#undef atol
#define atol(x) BANNED(atol)
#undef atof
#define atof(x) BANNED(atof)

#endif
