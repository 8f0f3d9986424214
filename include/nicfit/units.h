/*
 * nicfit/units.h - strict parsers for the numbers users type.
 *
 * Sizes ("40GB", "40GiB", "1.5 TB"), parameter counts ("70B", "405B",
 * "7.5M"), network speeds ("10G", "10GbE", "100Gb/s", "25Gbps", "EDR",
 * "HDR100", "NDR"), PCIe links ("gen3x16", "Gen4 x8", "PCIe 5.0 x16"),
 * reals and integers. Each parser of user input consumes the whole string
 * (spaces around it are allowed), rejects NaN, infinities, overflow and
 * values out of range, and reports the input's name and the column of the
 * problem.
 *
 * Every integer nicfit reads, typed by a user or written by the kernel in
 * sysfs, goes through one core, nicfit_scan_dec(); nicfit_parse_long() and
 * nicfit_parse_dec() are its two conventions (an error message for a user,
 * a quiet -1 for a file).
 *
 * Units: sizes in bytes (decimal prefixes are powers of 1000, binary ones
 * powers of 1024), speeds in Gb/s (1e9 bit/s). `b` is a bit and `B` a byte
 * ("40Gb" is 5e9 bytes, "25GB/s" is not a link speed); a unit whose case
 * says nothing ("gb", "gbps") is refused with both readings named.
 * docs/units.md is the table of every form.
 *
 * Shape: the parsers write only into their out-parameters and the
 * caller's struct nicfit_error; nothing allocates.
 * `input` names the value in errors ("--gpu-mem", "spec"). The formatters
 * write into the caller's buffer and return it.
 */
#ifndef NICFIT_UNITS_H
#define NICFIT_UNITS_H

#include "nicfit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a size string measured. */
enum nicfit_size_kind {
	NICFIT_SIZE_BYTES,  /* "40GB", "40GiB" */
	NICFIT_SIZE_PARAMS  /* "70B", "8B", "7.5M": a parameter count */
};

/* Parse a size. *value is bytes or a parameter count, as *kind says. */
int nicfit_parse_size(const char *s, const char *input, double *value,
		      enum nicfit_size_kind *kind, struct nicfit_error *err);

/* A link speed: a nominal data rate, and the technology it names. */
enum nicfit_speed_kind {
	NICFIT_SPEED_ANY,  /* "100G", "100Gb/s": Ethernet or InfiniBand */
	NICFIT_SPEED_ETH,  /* "100GbE" */
	NICFIT_SPEED_IB    /* "EDR", "HDR100" */
};

struct nicfit_speed {
	double gbps;               /* nominal data rate (4x FDR: 54.55) */
	enum nicfit_speed_kind kind;
	char ib_name[8];           /* "EDR", "HDR100" when an IB rate was named */
	int ib_lanes;              /* lanes of that IB rate (4, or 2 for HDR100) */
	double ib_lane_gbps;       /* data rate of one lane (EDR 25) */
};

int nicfit_parse_speed(const char *s, const char *input,
		       struct nicfit_speed *out, struct nicfit_error *err);

/*
 * The InfiniBand rate named name ("EDR", "hdr", "HDR100", "NDR200") at its
 * usual width (4x, or 2x for the "100"/"200" split names). Returns 0 or
 * NICFIT_E_NOTFOUND.
 */
int nicfit_ib_rate(const char *name, struct nicfit_speed *out);

/*
 * The i-th InfiniBand rate name nicfit_ib_rate() knows, slowest first
 * ("SDR", "DDR", ... "XDR"), or NULL past the last: for messages that list
 * what a speed may be.
 */
const char *nicfit_ib_rate_name(size_t i);

/* Parse a PCIe link "gen3x16" into generation 1..6 and width 1..32. */
int nicfit_parse_pcie(const char *s, const char *input, int *gen, int *width,
		      struct nicfit_error *err);

/* ---- integers: one core, two conventions --------------------------------- */

/* What nicfit_scan_dec found. */
enum nicfit_dec_status {
	NICFIT_DEC_OK = 0,
	NICFIT_DEC_NONE,   /* no digit where the integer should start */
	NICFIT_DEC_RANGE   /* digits, but the value is outside [min, max] or a long */
};

/*
 * The integer core every integer in nicfit is read with: an optional '-'
 * and decimal digits at the start of s, in plain C arithmetic (no strtol,
 * no double, so no locale and no rounding). The value must lie in [min,
 * max]; overflow of a long is out of range too, LONG_MIN and LONG_MAX are
 * not. No spaces, no '+', no point or exponent: callers that take more
 * (users may type "+8" and " 8 ") decide so themselves. *end gets the
 * first byte after the digits (s itself when there were none), so a
 * caller can tell "12x" (trailing text) from "12"; *out gets the value on
 * NICFIT_DEC_OK and 0 otherwise.
 */
enum nicfit_dec_status nicfit_scan_dec(const char *s, long min, long max, long *out,
				       const char **end);

/*
 * The quiet convention, for text a program wrote (sysfs attributes,
 * directory names): the whole of s is one integer of nicfit_scan_dec in
 * [min, max]. Returns 0, or -1 (and *out = 0) for anything else.
 */
int nicfit_parse_dec(const char *s, long min, long max, long *out);

/*
 * The convention for what users type: nicfit_parse_dec's integer, with
 * blanks around it and an optional '+', the whole string, in [min, max].
 * Fractions and exponents are refused, even when whole ("2.0", "1e3"):
 * an integer is written as digits. Errors, NICFIT_E_USAGE with the input
 * named: "'S': expected an integer (at column N)" when no number starts
 * there, "'S': unexpected text after the number (at column N)", "'S':
 * expected a whole number (at column 1)" for a fraction or exponent, and
 * "'S': out of range (MIN to MAX)". *out is set only on success.
 */
int nicfit_parse_long(const char *s, const char *input, long min, long max,
		      long *out, struct nicfit_error *err);

/* Reals, whole string, range-checked. */
int nicfit_parse_double(const char *s, const char *input, double min,
			double max, double *out, struct nicfit_error *err);

/* Format bytes as "40.0 GB" (decimal) into out. Returns out. */
char *nicfit_fmt_bytes(double bytes, char *out, int n);
/* Format seconds as "34 s", "2.1 min", "3.4 h", "850 ms". Returns out. */
char *nicfit_fmt_seconds(double s, char *out, int n);

#ifdef __cplusplus
}
#endif

#endif
