/*
 * fmt_int.h - snprintf() and vsnprintf() to the byte, cheaper (fmt.c): the
 * same return value (the length the whole text takes) and the same
 * truncation to n - 1 bytes and a NUL.
 */
#ifndef NICFIT_FMT_INT_H
#define NICFIT_FMT_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "fmt_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stdarg.h>
#include <stddef.h>

/*
 * The first byte at or after s that is c or NUL (nicfit__stop), and the
 * length of s (nicfit__strlen), inline for the short texts a plan and its
 * JSON are made of, where a call into the C library costs more than the
 * search. Each reads aligned 16-byte blocks: an aligned block never
 * crosses a page, so the bytes read before s and past its NUL are in pages
 * that hold s and cannot fault; they are masked off before they count.
 * Every checker of memory reports such reads, which no C object holds:
 * under AddressSanitizer, ThreadSanitizer and MemorySanitizer (found by
 * the compiler), under valgrind (built with NICFIT_NO_OVERREAD, which
 * `make VALGRIND=1` and `make SANITIZE=thread` define), and without SSE2,
 * they are the C library's strchr() and strlen(), whose own over-reads the
 * checkers know.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(NICFIT_NO_OVERREAD)
#define NICFIT__STOP_PLAIN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
	__has_feature(memory_sanitizer)
#define NICFIT__STOP_PLAIN 1
#endif
#endif
#if defined(__SSE2__) && !defined(NICFIT__STOP_PLAIN)
#include <emmintrin.h>
#include <stdint.h>

static inline __attribute__((always_inline)) unsigned nicfit__stop_mask(__m128i b, __m128i c)
{
	__m128i z = _mm_setzero_si128();

	return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(b, z), _mm_cmpeq_epi8(b, c)));
}

static inline __attribute__((always_inline)) const char *nicfit__stop(const char *s, char c)
{
	const __m128i cc = _mm_set1_epi8(c);
	const char *a = (const char *)((uintptr_t)s & ~(uintptr_t)15);
	unsigned m = nicfit__stop_mask(_mm_load_si128((const __m128i *)(const void *)a), cc) >>
		     (unsigned)(s - a);

	if (m)
		return s + __builtin_ctz(m);
	for (;;) {
		a += 16;
		m = nicfit__stop_mask(_mm_load_si128((const __m128i *)(const void *)a), cc);
		if (m)
			return a + __builtin_ctz(m);
	}
}

static inline __attribute__((always_inline)) size_t nicfit__strlen(const char *s)
{
	return (size_t)(nicfit__stop(s, '\0') - s);
}
#else
#include <string.h>

static inline const char *nicfit__stop(const char *s, char c)
{
	const char *p = strchr(s, c);

	return p ? p : s + strlen(s);
}

static inline size_t nicfit__strlen(const char *s)
{
	return strlen(s);
}
#endif

int nicfit__vfmt(char *d, size_t n, const char *fmt, va_list ap);
/*
 * nicfit__vfmt() for a format that is a string literal, as the library's
 * own texts are (their functions' format attributes and -Wformat=2 hold
 * every caller to it): the format is read once a process and kept by its
 * address (fmt.c), so that each later text costs only its runs' copies
 * and its conversions. A format built at run time must go to
 * nicfit__vfmt(): bytes that change at one address would be written from
 * the first ones' reading. nicfit__fmt() is this one's.
 */
int nicfit__vfmt_lit(char *d, size_t n, const char *fmt, va_list ap);
int nicfit__fmt(char *d, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "00" to "99": two digits a division */
static const char nicfit__digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* u in decimal (one digit at least), ending at q (written backwards); returns where it begins. */
static inline char *nicfit__digits_back(char *q, unsigned long long u)
{
	while (u >= 100) {
		const char *dd = nicfit__digit_pairs + 2 * (u % 100);

		u /= 100;
		*--q = dd[1];
		*--q = dd[0];
	}
	if (u >= 10) {
		*--q = nicfit__digit_pairs[2 * u + 1];
		*--q = nicfit__digit_pairs[2 * u];
	} else {
		*--q = (char)('0' + u);
	}
	return q;
}

#endif
