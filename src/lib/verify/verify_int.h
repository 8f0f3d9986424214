/*
 * verify_int.h - what the verify sources share (internal).
 *
 *   verify.c           recognising an input's kinds, the driver
 *   verify_doc.c       the object and its documents, kind and verdict names
 *   verify_text.c      lines, prefixes (hosts, ranks, mpirun tags), tokens, numbers,
 *                      a document's line quoted, a variable a log echoed
 *   verify_nccltests.c nccl-tests tables and the bus-bandwidth factor
 *   verify_nccllog.c   NCCL INFO/WARN lines
 *   verify_perf.c      perftest, iperf3 --json, NCCL topology XML
 *   verify_iperf.c     iperf3 and iperf2 text, a cut iperf3 --json document
 *   verify_launch.c    a launcher's command line (mpirun, srun, torchrun, deepspeed)
 *   verify_judge.c     the expectation, the ceilings, verdicts and causes
 *   verify_node.c      a single-node run against its GPUs' NVLink
 *   verify_causes.c    what an NCCL log says about why (verify_gid.c: GIDs, MTU)
 *   verify_render.c    text, JSON and Markdown
 *
 * The parsers only read: each fills its document from the text, with the
 * line of every fact it may later quote. Judging reads the documents and
 * writes findings; rendering reads both. No cycles.
 */
#ifndef NICFIT_VERIFY_INT_H
#define NICFIT_VERIFY_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "verify_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>
#include <string.h>

#include "core/file_int.h"
#include "nicfit/verify.h"

/* The longest line kept; longer ones are cut (a log line is far shorter). */
#define NICFIT__VLINE_MAX 4096
/* Tokens a table row is split into at most. */
#define NICFIT__VTOK_MAX 32

/*
 * The size from which a multi-node collective reaches its bandwidth
 * plateau. NCCL's maintainers answer users who stop at 256 MB that "256M
 * is too small to reach peak bandwidth" (NVIDIA/nccl-tests#212); 1 GiB is
 * the smallest size at which the rows of the fixture runs stop growing.
 * Below it a low busbw says latency, not the network.
 */
#define NICFIT__VPLATEAU_BYTES (1024.0 * 1024 * 1024)

/* The most of an input line a finding quotes. */
#define NICFIT__VQUOTE_MAX 200

/*
 * The largest figures the parsers take as measured. A rate past 10^6 Gb/s
 * (a petabit a second, 125,000 GB/s) is far beyond any NIC port or GPU
 * interconnect, and a size, time or count past 10^15 (a petabyte, 30 years
 * in microseconds) beyond any run: such a figure is a damaged input, which
 * is refused (NICFIT_E_DATA at its line and column) rather than judged or
 * printed as a number of hundreds of digits.
 */
#define NICFIT__VMAX_GBPS 1e6
#define NICFIT__VMAX_FIGURE 1e15

/*
 * 0 when v is within max (and not below -max); otherwise NICFIT_E_DATA in
 * err: "name:line:col: what V unit is not a measurement (above BOUND)"
 * (inf among them; nan "not a number"), line 0 for a position that what
 * names (a JSON member).
 */
int nicfit__vbound(struct nicfit_error *err, const char *name, long line, long col,
		   const char *what, double v, double max, const char *unit);

/* A cursor over the lines of a text. */
struct nicfit__vlines {
	const char *text;
	size_t len, pos;
	long lineno;              /* of the line last returned, 1-based */
	char buf[NICFIT__VLINE_MAX + 1];
};

void nicfit__vlines_init(struct nicfit__vlines *l, const char *text, size_t len);
/* The next line (no newline, no CR, NULs made spaces) or NULL at the end. */
char *nicfit__vlines_next(struct nicfit__vlines *l);
/*
 * The next line as it stands in the text (n bytes, no newline; CRs and
 * NULs left in), found with memchr, with l->lineno its number. Returns 0
 * at the end. The single pass of verify.c reads lines so.
 */
int nicfit__vscan_next(struct nicfit__vlines *l, const char **line, size_t *n);
/* line (n bytes) as l's current line lineno: cut, CRs off its end, NULs made spaces. */
void nicfit__vlines_set(struct nicfit__vlines *l, const char *line, size_t n, long lineno);

/*
 * The line past what launchers and forums put in front: a Markdown quote
 * ("> "), "[1,0]<stdout>:", "[0] ", "host: " (pdsh/srun -l labels are
 * left: they are not NCCL's). Returns a pointer into line.
 */
char *nicfit__vskip_tags(char *line);
/* Replace rank tags "[N]" anywhere in line by spaces (interleaved mpirun output). */
void nicfit__vblank_rank_tags(char *line);
/* The first needle (k bytes) in s (n bytes, NULs and all), or NULL: memmem, which C11 lacks. */
const char *nicfit__vmemmem(const char *s, size_t n, const char *needle, size_t k);
/*
 * strstr(s, " word") where word starts with a byte rarer than a blank
 * ("via ", "-> "): found by that byte with strchr. Returns the blank.
 * Inline, so that a literal word's length is the compiler's.
 */
static inline const char *nicfit__vafter_blank(const char *s, const char *word)
{
	size_t k = strlen(word), i;
	const char *p = s;

	while ((p = strchr(p, word[0])) != NULL) {
		for (i = 1; i < k && p[i] == word[i]; i++)
			;
		if (i == k && p > s && p[-1] == ' ')
			return p - 1;
		p++;
	}
	return NULL;
}
/* A finite number, the whole of s. Returns 0 or -1. */
int nicfit__vnum(const char *s, double *out);
/*
 * A number, the whole of s, finite or not ("inf", "nan", "1e999" as inf):
 * what a table cell holds when it is a figure at all. Returns 0 or -1.
 */
int nicfit__vnum_any(const char *s, double *out);
/*
 * 0 when v is at least 0: a time, a rate or a size below zero is not a
 * measurement (NICFIT_E_DATA at line and col, as nicfit__vbound).
 */
int nicfit__vnonneg(struct nicfit_error *err, const char *name, long line, long col,
		    const char *what, double v, const char *unit);
/* A decimal integer at the start of s (digits only); -1 when none. */
long nicfit__vint(const char *s, const char **end);
/* Copy at most size-1 bytes of s (n bytes, or to NUL when n is (size_t)-1). */
void nicfit__vcopy(char *dst, size_t size, const char *s, size_t n);
/* A heap copy of s, or NULL. */
char *nicfit__vstrdup(const char *s);

/*
 * The line parsers, as the single pass of verify.c drives them: _new()
 * (NULL out of memory; name is the input's, for errors), _line() with each
 * line as it stands in the text (0, or the first error, after which the
 * parser takes no more lines), _end() to finish, move the documents to v
 * (none when v is NULL) and free the parser; it returns the first error,
 * set in err. The whole-text functions below feed every line to them.
 */
struct nicfit__vlog;
struct nicfit__vlog *nicfit__vlog_new(void);
int nicfit__vlog_line(struct nicfit__vlog *s, const char *line, size_t n, long lineno);
/* The same for a line known to hold an NCCL INFO/WARN record (never a launcher's line). */
int nicfit__vlog_record(struct nicfit__vlog *s, const char *line, size_t n, long lineno);
int nicfit__vlog_end(struct nicfit__vlog *s, struct nicfit_verify *v, const char *name,
		     struct nicfit_error *err);
struct nicfit__vtests;
struct nicfit__vtests *nicfit__vtests_new(const char *name);
int nicfit__vtests_line(struct nicfit__vtests *s, const char *line, size_t n, long lineno);
int nicfit__vtests_end(struct nicfit__vtests *s, struct nicfit_verify *v, const char *name,
		       struct nicfit_error *err);
/* An NCCL INFO/WARN line, of which the table's reader needs only the version. */
int nicfit__vtests_record(struct nicfit__vtests *s, const char *line, size_t n, long lineno);
struct nicfit__vperf;
struct nicfit__vperf *nicfit__vperf_new(const char *name);
int nicfit__vperf_line(struct nicfit__vperf *s, const char *line, size_t n, long lineno);
int nicfit__vperf_end(struct nicfit__vperf *s, struct nicfit_verify *v, const char *name,
		      struct nicfit_error *err);
struct nicfit__viperf;
struct nicfit__viperf *nicfit__viperf_new(const char *name);
int nicfit__viperf_line(struct nicfit__viperf *s, const char *line, size_t n, long lineno);
int nicfit__viperf_end(struct nicfit__viperf *s, struct nicfit_verify *v, const char *name,
		       struct nicfit_error *err);

/* The parsers: each reads the whole text and adds its document to v. */
int nicfit__verify_nccl_tests(struct nicfit_verify *v, const char *name, const char *text,
			      size_t len, struct nicfit_error *err);
int nicfit__verify_nccl_log(struct nicfit_verify *v, const char *name, const char *text,
			    size_t len, struct nicfit_error *err);
int nicfit__verify_perftest(struct nicfit_verify *v, const char *name, const char *text,
			    size_t len, struct nicfit_error *err);
int nicfit__verify_iperf3_text(struct nicfit_verify *v, const char *name, const char *text,
			       size_t len, struct nicfit_error *err);
int nicfit__verify_iperf3_json(struct nicfit_verify *v, const char *name, const char *text,
			       size_t len, struct nicfit_error *err);
int nicfit__verify_nccl_topo(struct nicfit_verify *v, const char *name, const char *text,
			     size_t len, struct nicfit_error *err);
/* verify_perf.c: a perftest bandwidth row without its header: 1 Gb/sec, 2 MB/sec, 0 not one. */
int nicfit__perftest_bare_row(const char *line);
/* verify_iperf.c: a cut iperf3 --json document, read line by line (nothing measured). */
int nicfit__verify_iperf3_fragment(struct nicfit_verify *v, const char *name, const char *text,
				   size_t len, struct nicfit_error *err);

/*
 * verify_launch.c: read line (lineno) into L when it is a launcher's command
 * (mpirun, srun, torchrun, deepspeed) and L holds none yet.
 */
void nicfit__verify_launch_line(struct nicfit_launch *L, const char *line, long lineno);
/* 0 when line names no launcher (it cannot be one): the cheap test before the one above. */
int nicfit__vlaunch_maybe(const char *line);

/*
 * Line lineno of d's input into out (size bytes; blanks trimmed, at most
 * NICFIT__VQUOTE_MAX bytes): the evidence a finding quotes. Returns its
 * length, 0 when there is no such line.
 */
size_t nicfit__vline_at(const struct nicfit_verify_doc *d, long lineno, char *out, size_t size);

/* The variable NCCL echoed as set by the user, or NULL. */
const struct nicfit_nccl_kv *nicfit__venv(const struct nicfit_nccl_log *g, const char *name);
struct nicfit_buf;
/* Append " (line N: \"...\")" quoting line of d to b (nothing for no such line). */
void nicfit__vquote(struct nicfit_buf *b, const struct nicfit_verify_doc *d, long line);

/*
 * verify_gid.c: one NCCL per-QP connection line ("NET/IB: ... qpn N mtu M
 * GID i (prefix/iid)" or "... LID l") into g's per-device list, prefix the
 * line's "host:pid:tid [dev] " (plen bytes). Returns 0, -1 out of memory.
 */
int nicfit__verify_read_qp(struct nicfit_nccl_log *g, const char *prefix, size_t plen,
			   const char *m, long line);
/* Bytes of an enum ibv_mtu value (3 -> 1024), 0 when not one. */
int nicfit__ibv_mtu_bytes(int mtu);
/* q's GID as text ("::ffff:10.0.0.1", "fe80:0000:..."), "" for none; its length. */
size_t nicfit__gid_text(const struct nicfit_nccl_qp *q, char *out, size_t size);
/* The GID, MTU and RoCE version causes of an NCCL log. Returns 0 or NICFIT_E_NOMEM. */
int nicfit__verify_gid_causes(struct nicfit_verify *v, struct nicfit_verify_doc *d);

/*
 * verify_node.c: judge d, a single-node nccl-tests table, against its GPUs'
 * NVLink (never a network link). Returns 0 or NICFIT_E_NOMEM.
 */
int nicfit__verify_judge_node(struct nicfit_verify *v, struct nicfit_verify_doc *d);

/* The causes an NCCL log shows (verify_causes.c). Returns 0 or NICFIT_E_NOMEM. */
int nicfit__verify_causes(struct nicfit_verify *v, struct nicfit_verify_doc *d);

/* Free t: its copy or mapping, its marks, itself (NULL: nothing). */
void nicfit__verify_text_free(struct nicfit_verify_text *t);
/*
 * verify.c: read t (its text mapped or copied; v owns it from the call
 * on, whatever it returns) as input name: every kind found in it is
 * added to v, the documents pointing at t for quoting.
 */
int nicfit__verify_add_source(struct nicfit_verify *v, const char *name,
			      struct nicfit_verify_text *t, struct nicfit_error *err);

/* d emptied as a new document of kind k (not in any verify object yet). */
void nicfit__verify_doc_init(struct nicfit_verify_doc *d, enum nicfit_verify_kind k);
/* Free what d holds (d itself is the caller's). */
void nicfit__verify_doc_release(struct nicfit_verify_doc *d);
/*
 * d, read under name, moved to the end of v when rc is 0 and v is not
 * NULL; otherwise released. Returns rc, or NICFIT_E_NOMEM.
 */
int nicfit__verify_doc_put(struct nicfit_verify *v, struct nicfit_verify_doc *d, const char *name,
			   int rc);

/* A new document of kind k, named name, at the end of v (NULL: out of memory). */
struct nicfit_verify_doc *nicfit__verify_doc_add(struct nicfit_verify *v,
						 enum nicfit_verify_kind k, const char *name);

#endif
