/*
 * verify.c - documents in: recognising what an input holds and handing it
 * to the parser of each kind, and the exit status. A text is looked at
 * once for every kind it may hold; nccl-tests run with NCCL_DEBUG=INFO
 * print both a log and a table, and both are read. Parsing each kind is in
 * its own file; the object and its documents are in verify_doc.c, which
 * the parsers call, so that they never call back into this dispatcher.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/alloc_int.h"
#include "core/jansson_int.h"
#include "core/text_int.h"
#include "verify/verify_int.h"

/* nccl-tests' data types and reduction names (its common.cu tables) */
static int known_word(const char *w, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(w, *list))
			return 1;
	return 0;
}

/* A line that is an nccl-tests row: size count type redop ..., rank tags allowed. */
static int is_table_row(const char *line)
{
	static const char *const types[] = { "int8", "uint8", "int32", "uint32", "int64", "uint64",
		"half", "float", "double", "bfloat16", "f8e4m3", "f8e5m2", NULL };
	static const char *const ops[] = { "sum", "prod", "max", "min", "avg", "none", "mulsum",
		"premulsum", NULL };
	char buf[512], *tok[NICFIT__VTOK_MAX];
	double d;
	int n;

	nicfit__vcopy(buf, sizeof(buf), line, (size_t)-1);
	nicfit__vblank_rank_tags(buf);
	n = nicfit__split_blanks(buf, tok, NICFIT__VTOK_MAX);
	return n >= 8 && !nicfit__vnum(tok[0], &d) && !nicfit__vnum(tok[1], &d) &&
	       known_word(tok[2], types) && known_word(tok[3], ops);
}

/* What a text holds, as bits of 1 << kind (iperf3 text and JSON share a kind). */
struct seen {
	int tests, log, perftest, iperf3, iperf3_json, iperf3_frag, topo;
};

/* Whether an input opens with '{': a whole iperf3 --json document. */
static int opens_json(const char *text, size_t len)
{
	const char *first = text;

	while (first < text + len && (*first == ' ' || *first == '\t' || *first == '\n' ||
				      *first == '\r'))
		first++;
	return first < text + len && *first == '{';
}

/* What one line shows of the kinds an input holds. */
static void look_line(const char *line, struct seen *s)
{
	if (strstr(line, "NCCL INFO") || strstr(line, "NCCL WARN") ||
	    !strncmp(nicfit__vskip_tags((char *)line), "NCCL version ", 13) ||
	    !strncmp(nicfit__vskip_tags((char *)line), "RCCL version", 12))
		s->log = 1;
	if ((strstr(line, "out-of-place") && strstr(line, "in-place")) ||
	    (strstr(line, "algbw") && strstr(line, "busbw")) ||
	    strstr(line, "Avg bus bandwidth") || strstr(line, "(elements)") ||
	    (strstr(line, "nThread") && strstr(line, "minBytes")) || is_table_row(line) ||
	    (strstr(line, "Rank ") && strstr(line, " Pid ") && strstr(line, " on ") &&
	     strstr(line, " device ")))
		s->tests = 1;
	if (strstr(line, "BW peak[") || strstr(line, "t_typical[usec]") ||
	    strstr(line, "RDMA_Write BW Test") || strstr(line, "RDMA_Read BW Test") ||
	    strstr(line, "Send BW Test") || strstr(line, "Latency Test") ||
	    nicfit__perftest_bare_row(nicfit__vskip_tags((char *)line)))
		s->perftest = 1;
	/* iperf3 and iperf2 (verify_iperf.c has the formats' sources) */
	if (strstr(line, "[ ID] Interval") || strstr(line, "[ ID][Role] Interval") ||
	    (strstr(line, "bits/sec") && (strstr(line, " sender") ||
	     strstr(line, " receiver") || strstr(line, "[SUM]"))) ||
	    (strstr(line, "Server listening on ") &&
	     strstr(line, "Server listening on ")[20] >= '0' &&
	     strstr(line, "Server listening on ")[20] <= '9') ||
	    strstr(line, "Server listening on TCP port") ||
	    strstr(line, "Client connecting to "))
		s->iperf3 = 1;
	/* a piece of iperf3 --json: its start block's members */
	if (strstr(line, "\"version\":") && strstr(line, "\"iperf 3."))
		s->iperf3_frag = 1;
	if (strstr(line, "<system version=") || strstr(line, "<system>"))
		s->topo = 1;
}

static int add_parts(struct nicfit_verify *v, const char *name, struct nicfit_verify_text *t,
		     struct nicfit_error *err);

int nicfit__verify_add_source(struct nicfit_verify *v, const char *name,
			      struct nicfit_verify_text *t, struct nicfit_error *err)
{
	size_t first = v->ndocs, i;
	int rc;

	if (NICFIT_ALLOC_GROW(v->texts, v->ntexts + 1, v->texts_alloc)) {
		nicfit__verify_text_free(t);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	v->texts[v->ntexts++] = t;
	rc = add_parts(v, name, t, err);
	for (i = first; i < v->ndocs; i++) {
		v->docs[i].text = t->text;
		v->docs[i].text_len = t->len;
		v->docs[i].src = t;
	}
	return rc;
}

int nicfit_verify_add_text(struct nicfit_verify *v, const char *name, const char *text,
			   size_t len, struct nicfit_error *err)
{
	struct nicfit_verify_text *t = calloc(1, sizeof(*t));

	if (!t || !(t->copy = malloc(len + 1))) {
		free(t);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	memcpy(t->copy, text, len);
	t->copy[len] = '\0';
	t->text = t->copy;
	t->len = len;
	return nicfit__verify_add_source(v, name, t, err);
}

/*
 * A whole iperf3 --json document inside other text (a Markdown fence, a
 * line of prose before it): from the first line that opens with '{' to the
 * text's last '}', when that parses as an object with iperf3's "end"
 * member. Its length (*off its start), 0 when there is none.
 */
static size_t json_block(const char *text, size_t len, size_t *off)
{
	const char *end = text + len, *p = text, *s = NULL, *last = NULL, *q;
	json_error_t je;
	json_t *j;
	int ok;

	for (q = text; q < end; q++)
		if (*q == '}')
			last = q;
	while (p < end && !s) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		for (q = p; q < end && (*q == ' ' || *q == '\t'); q++)
			;
		if (q < end && *q == '{')
			s = q;
		p = nl ? nl + 1 : end;
	}
	if (!s || !last || last < s)
		return 0;
	j = json_loadb(s, (size_t)(last - s) + 1, 0, &je);
	if (!j)
		return 0;
	ok = json_is_object(j) && json_object_get(j, "end") != NULL;
	json_decref(j);
	if (!ok)
		return 0;
	*off = (size_t)(s - text);
	return (size_t)(last - s) + 1;
}

/* The line parsers of one input, all fed in the one pass over its lines. */
struct pass {
	struct seen s;
	struct nicfit__vlines l;            /* the line as look_line reads it */
	struct nicfit__vlog *log;
	struct nicfit__vtests *tests;
	struct nicfit__vperf *perf;
	struct nicfit__viperf *iperf;
};

/*
 * End every parser, each moving its document to v when its kind was seen
 * and keep is set (in the order the documents are listed: log, tests,
 * perftest, iperf), the others discarded. Returns the first error of a
 * kept kind, in that order (set in err).
 */
static int end_parsers(struct pass *ps, struct nicfit_verify *v, const char *name, int keep,
		       struct nicfit_error *err)
{
	int rc = 0, r;

	r = nicfit__vlog_end(ps->log, keep && ps->s.log ? v : NULL, name, rc ? NULL : err);
	rc = keep && ps->s.log ? r : rc;
	r = nicfit__vtests_end(ps->tests, !rc && keep && ps->s.tests ? v : NULL, name,
			       rc ? NULL : err);
	rc = !rc && keep && ps->s.tests ? r : rc;
	r = nicfit__vperf_end(ps->perf, !rc && keep && ps->s.perftest ? v : NULL, name,
			      rc ? NULL : err);
	rc = !rc && keep && ps->s.perftest ? r : rc;
	r = nicfit__viperf_end(ps->iperf, !rc && keep && ps->s.iperf3 ? v : NULL, name,
			       rc ? NULL : err);
	rc = !rc && keep && ps->s.iperf3 ? r : rc;
	return rc;
}

/* The line holds "NCCL INFO" or "NCCL WARN" within its first 4096 bytes. */
static int nccl_record(const char *line, size_t n)
{
	const char *p = line, *end = line + (n > NICFIT__VLINE_MAX ? NICFIT__VLINE_MAX : n);

	while ((p = nicfit__vmemmem(p, (size_t)(end - p), "NCCL ", 5)) != NULL) {
		if (end - p >= 9 && (!memcmp(p + 5, "INFO", 4) || !memcmp(p + 5, "WARN", 4)))
			return 1;
		p += 5;
	}
	return 0;
}

/* Bytes of a mapped input read between two hand-backs of its pages. */
#define GIVE_BACK_BYTES ((size_t)8 << 20)

/*
 * The pages of a mapped input's text before its byte at done, handed back
 * to the kernel: the pass has read them, and a quote reads them again from
 * the file (the mapping is private and never written), so that memory
 * stays flat whatever the input's size (within GIVE_BACK_BYTES of it).
 */
static void give_back(const struct nicfit_verify_text *t, size_t done)
{
	uintptr_t start = (uintptr_t)t->map, end = (uintptr_t)t->text + done;
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);

	end -= end % page;
	if (end > start)
		madvise(t->map, end - start, MADV_DONTNEED);
}

/*
 * One pass over the lines of t: what each shows, every line parser fed,
 * a mark every NICFIT_VERIFY_MARK_LINES lines. Returns 0 or -1 (out of
 * memory for a mark).
 */
static int read_lines(struct pass *ps, struct nicfit_verify_text *t)
{
	struct nicfit__vlines *l = &ps->l;
	size_t next_give = GIVE_BACK_BYTES;
	const char *line;
	size_t n;

	nicfit__vlines_init(l, t->text, t->len);
	while (nicfit__vscan_next(l, &line, &n)) {
		long no = l->lineno;

		if ((no - 1) % NICFIT_VERIFY_MARK_LINES == 0) {
			if (NICFIT_ALLOC_GROW(t->marks, t->nmarks + 1, t->marks_alloc))
				return -1;
			t->marks[t->nmarks++] = (size_t)(line - t->text);
		}
		if (t->map && l->pos >= next_give) {
			give_back(t, (size_t)(line - t->text));
			next_give = l->pos + GIVE_BACK_BYTES;
		}
		/*
		 * Most lines of a large log are NCCL's records: they go to the
		 * log's reader, and to the table's for the version they may
		 * name; no other kind's facts are on them
		 */
		if (nccl_record(line, n)) {
			ps->s.log = 1;
			nicfit__vlog_record(ps->log, line, n, no);
			nicfit__vtests_record(ps->tests, line, n, no);
			continue;
		}
		nicfit__vlines_set(l, line, n, no);
		look_line(l->buf, &ps->s);
		nicfit__vlog_line(ps->log, line, n, no);
		nicfit__vtests_line(ps->tests, line, n, no);
		nicfit__vperf_line(ps->perf, line, n, no);
		nicfit__viperf_line(ps->iperf, line, n, no);
	}
	if (t->map)
		give_back(t, t->len);
	return 0;
}

static int not_known(const char *name, const char *text, size_t len, struct nicfit_error *err)
{
	struct nicfit_buf b;
	size_t n = 0;
	int rc;

	while (n < len && n < 60 && text[n] != '\n')
		n++;
	/* the error line reaches a terminal: the input's bytes are escaped */
	nicfit_buf_init(&b, 0);
	nicfit__text_escape_n(&b, text, n, 0);
	rc = nicfit_error_at(err, NICFIT_E_DATA, name, 1, 1,
			     "not an nccl-tests, NCCL log, perftest, iperf3 or NCCL "
			     "topology output (it starts \"%s\")", b.data);
	nicfit_buf_release(&b);
	return rc;
}

static int add_parts(struct nicfit_verify *v, const char *name, struct nicfit_verify_text *t,
		     struct nicfit_error *err)
{
	const char *text = t->text;
	size_t len = t->len;
	struct pass *ps;
	size_t off = 0, jn;
	int rc = 0;

	if (!len)
		return nicfit_error_at(err, NICFIT_E_DATA, name, 0, 0, "empty input");
	if (opens_json(text, len))
		return nicfit__verify_iperf3_json(v, name, text, len, err);
	ps = calloc(1, sizeof(*ps));
	if (!ps || !(ps->log = nicfit__vlog_new()) || !(ps->tests = nicfit__vtests_new(name)) ||
	    !(ps->perf = nicfit__vperf_new(name)) || !(ps->iperf = nicfit__viperf_new(name))) {
		if (ps)
			end_parsers(ps, v, name, 0, NULL);
		free(ps);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	if (read_lines(ps, t)) {
		end_parsers(ps, v, name, 0, NULL);
		free(ps);
		return nicfit_error_set(err, NICFIT_E_NOMEM, "out of memory");
	}
	if (ps->s.iperf3_frag && (jn = json_block(text, len, &off)) > 0) {
		end_parsers(ps, v, name, 0, NULL);
		rc = nicfit__verify_iperf3_json(v, name, text + off, jn, err);
	} else if (ps->s.iperf3_frag && !ps->s.iperf3) {
		end_parsers(ps, v, name, 0, NULL);
		rc = nicfit__verify_iperf3_fragment(v, name, text, len, err);
	} else if (!ps->s.tests && !ps->s.log && !ps->s.perftest && !ps->s.iperf3 && !ps->s.topo &&
		   !ps->s.iperf3_frag) {
		end_parsers(ps, v, name, 0, NULL);
		rc = not_known(name, text, len, err);
	} else {
		if (ps->s.topo)
			rc = nicfit__verify_nccl_topo(v, name, text, len, err);
		if (rc)
			end_parsers(ps, v, name, 0, NULL);
		else
			rc = end_parsers(ps, v, name, 1, err);
	}
	free(ps);
	return rc;
}

/*
 * Nothing to judge: no finding above info, and every input is a
 * measurement (nccl-tests, perftest, iperf) left "not judged" (no ceiling
 * to compare with, or no figure measured). An NCCL log or topology has
 * been judged by its checks (transport, GPUDirect, errors) even when it
 * measured nothing.
 */
static int nothing_judged(const struct nicfit_verify *v)
{
	size_t i;

	if (!v->ndocs)
		return 0;
	for (i = 0; i < v->ndocs; i++)
		if (v->docs[i].kind == NICFIT_VERIFY_NCCL_LOG ||
		    v->docs[i].kind == NICFIT_VERIFY_NCCL_TOPO ||
		    v->docs[i].verdict != NICFIT_VERDICT_NONE)
			return 0;
	return 1;
}

int nicfit_verify_exit_code(const struct nicfit_verify *v)
{
	enum nicfit_severity w = nicfit_findings_worst(&v->findings);

	if (w == NICFIT_SEV_CRITICAL)
		return 2;
	if (w == NICFIT_SEV_WARNING)
		return 1;
	return nothing_judged(v) ? 3 : 0;
}
