/*
 * fleet_int.h - what the fleet sources share (internal).
 *
 * Input, one document at a time:
 *   fleet_files.c    files, directories and descriptors -> streams
 *   fleet_stream.c   a stream cut into lines; each line to its document's splitter
 *                    (plain JSON, pdsh/clush/srun labels, clush -b blocks, Ansible)
 *   fleet_input.c    the splitter: where a JSON document ends, and its positions
 *   fleet_audit.c    one audit document -> one host record (and Ansible bundles)
 *   fleet_read.c     the token helpers, and the members of each device
 *   fleet_attrs.c    the table of what is compared, and how bad a difference is
 *   fleet_strtab.c   interned strings
 *   fleet_store.c    keys, hosts and input problems, as read
 * Analysis:
 *   fleet_groups.c   hardware signatures, groups, groups built alike compared
 *   fleet_compare.c  the hosts of one group compared, attribute by attribute
 *   fleet_anomaly.c  the anomaly records and the words for values
 *   fleet_analyze.c  nicfit_fleet_analyze: the passes in order, the results published
 * And fleet.c (the object and its accessors), fleet_render.c (text, JSON,
 * Markdown, CSV), fleet_prom.c (Prometheus), fleet_expect.c (one host's
 * audit judged against others', for audit --expect), hostlist.c
 * (pdsh/clush host lists).
 *
 * A host is reduced to a list of attributes: (key, value) where the key
 * names what is compared ("link.current_width of 0000:31:00.0") and the
 * value is a number or an interned string. Comparing hosts is then tallying
 * values per key, with no knowledge of JSON left.
 *
 * One recursion: an Ansible JSON document is a bundle whose hosts'
 * stdout each hold an audit, so fleet_audit.c hands each stdout back to
 * fleet_input.c (nicfit__fleet_feed_labelled), whose splitter hands the
 * documents it finds to the fleet's reader again (fl->read_doc, which
 * nicfit_fleet_new sets to nicfit__fleet_audit_doc), so that the splitter
 * never calls the audit reader by name and the files do not call each
 * other. It is one level deep: a document read from inside a bundle is
 * marked nested and is never taken for a bundle itself.
 */
#ifndef NICFIT_FLEET_INT_H
#define NICFIT_FLEET_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "fleet_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nicfit/buf.h"
#include "core/finding_int.h"
#include "nicfit/fleet.h"
#include "core/jscan_int.h"

/* ---- interned strings ------------------------------------------------------- */

/* Id 0 is "no string". Strings never move once interned. */
struct fl_strtab {
	uint32_t *slots;      /* open addressing: id, 0 empty */
	size_t nslots;
	struct fl_strent {
		const char *s;
		uint32_t hash, len;
	} *ent;               /* by id; ent[0] is "no string" */
	size_t n, alloc;      /* ids used (including 0) */
	char *chunk;          /* current arena chunk */
	size_t chunk_used, chunk_cap;
	char **chunks;        /* every chunk, for freeing */
	size_t nchunks, chunks_cap;
};

uint32_t nicfit__fleet_intern(struct fl_strtab *t, const char *s, size_t len);
uint32_t nicfit__fleet_intern0(struct fl_strtab *t, const char *s);
static inline const char *fl_str(const struct fl_strtab *t, uint32_t id)
{
	return id ? t->ent[id].s : NULL;
}

/* ---- attributes ------------------------------------------------------------- */

enum fl_attr_id {
	FA_NUMA_COUNT,   /* host: NUMA nodes */
	FA_KERNEL,       /* host: kernel release */
	FA_GPU_DRIVER,   /* host: GPU driver version */
	FA_PRODUCT_FW,   /* host: BIOS version */
	FA_PEERMEM,      /* host: nvidia_peermem loaded */
	FA_GDR_KERNEL,   /* host: GPUDirect RDMA kernel support */
	FA_IOMMU,        /* host: IOMMU on */
	FA_PRIVILEGED,   /* host: audited as root */
	FA_NUMA,         /* device */
	FA_CUR_WIDTH,
	FA_CUR_GTS,
	FA_MAX_WIDTH,
	FA_MAX_GTS,
	FA_PATH,
	FA_PART,
	FA_DRIVER,
	FA_FW,
	FA_MPS,
	FA_MRRS,
	FA_NNET,
	FA_NRDMA,
	FA_NET_STATE,    /* netdev */
	FA_NET_SPEED,
	FA_NET_MTU,
	FA_NET_PFC,      /* netdev: priorities with PFC on */
	FA_PORT_STATE,   /* RDMA port */
	FA_PORT_RATE,
	FA_PORT_LAYER,
	FA_PAIR_PATH,    /* GPU-NIC pair */
	FA_PAIR_GDR,
	FA_FINDING,      /* presence of a finding (code, device) */
	FA_NOTCHECKED,   /* presence of a not-checked item */
	FA_COUNT
};

enum fl_vkind { FV_NUM, FV_STR, FV_BOOL, FV_PRESENT };

struct fl_attr_def {
	const char *name;     /* JSON "attribute" */
	enum nicfit__code code; /* anomaly code (findings: NICFIT__CODE_COUNT, theirs) */
	const char *what;     /* words for messages: "PCIe link width" */
	enum fl_vkind vk;
	int ordered;          /* higher rank is better */
	int (*rank)(const char *s); /* strings: rank, -1 unranked */
	enum nicfit_severity sev; /* when odd hosts are worse / differ */
	int ratio;            /* critical when at most half the reference value */
	int gpu_info;         /* differences on GPUs are info (idle power saving) */
	const char *yes, *no; /* booleans in words */
};

extern const struct fl_attr_def nicfit__fleet_attrs[FA_COUNT];

/* A comparable thing: attribute + subject. */
struct fl_key {
	uint16_t attr;        /* enum fl_attr_id */
	uint8_t sev;          /* findings: the worst severity seen */
	uint32_t subject;     /* string id: BDF, "BDF ibp1s0", "BDF port 1", pair, finding */
	uint32_t dev;         /* BDF string id, 0 when not about a device */
	uint32_t code;        /* findings: code; not-checked: check name */
	uint32_t port;        /* netdev name / "port N" / pair text, for display */
	uint32_t msg;         /* findings: the first message seen */
};

struct fl_attr {
	uint32_t key;
	uint64_t v;           /* double bits (FV_NUM), string id (FV_STR), 0/1, 1 */
};

/* A device of a host, for the signature and for naming devices. */
struct fl_dev {
	uint32_t bdf, kind, name, model; /* model: "10de:2330" */
	uint8_t sig;          /* counts in the hardware signature */
};

struct fl_host {
	uint32_t name;        /* what the fleet calls it */
	uint32_t reported;    /* host inside the audit */
	uint32_t input;
	long line;
	uint32_t product;
	uint32_t sig, family, label;
	size_t attr_off;
	uint32_t nattr;
	size_t dev_off;
	uint32_t ndev;
	enum nicfit_severity own; /* worst own finding severity */
	uint8_t findings_known, notchecked_known;
	/* analysis */
	int group;
	enum nicfit_severity status;
	size_t nanom;
};

/* ---- input ------------------------------------------------------------------ */

/* Where each piece of a document came from, to turn offsets into positions. */
struct fl_frag {
	size_t off;           /* offset in the document */
	long line, col;       /* input position of that byte */
};

/* A JSON document being cut out of a stream. */
/* What a splitter's document may hold now (see fl_split). */
#define FL_SPLIT_MAX(sp) ((sp)->is_audit ? (sp)->audit_max : (sp)->max)

struct fl_split {
	struct nicfit_buf doc;
	struct fl_frag *frags;
	size_t nfrags, cap_frags;
	int depth;
	int in_str, esc;
	int started;
	size_t max;           /* bytes allowed */
	size_t audit_max;     /* bytes allowed once it shows it is an audit (0: max) */
	int is_audit;         /* it showed that: max no longer applies, audit_max does */
	int overflow;         /* the document exceeded max */
	int keep;             /* keep the buffers between documents (the plain stream) */
};

enum fl_label_kind { FL_LABEL_NONE, FL_LABEL_HOST, FL_LABEL_TASK, FL_LABEL_ANSIBLE };

struct fl_label {
	char *name;
	enum fl_label_kind kind;
	struct fl_split sp;
	long first_line;
	char *note;           /* first non-JSON text it printed */
	long note_line;
	size_t ndocs;
	int in_result;        /* the text is Ansible's own result object */
	char status[32];      /* its status ("UNREACHABLE!") */
};

struct fl_input {
	int open;
	char *name;
	char *fallback;
	long line;            /* current line (1-based) */
	struct nicfit_buf pending; /* the unfinished line */
	long long_col;             /* a long line fed in pieces: its next column, else 0 */
	struct fl_split plain;     /* unlabelled documents */
	struct fl_label **labels;  /* labelled streams of this input */
	size_t nlabels, cap_labels;
	uint32_t *label_slots;     /* hash: index + 1 */
	size_t nlabel_slots;
	/* block mode: clush -b / dshbak -c / Ansible ad-hoc */
	int block_state;           /* 0 none, 1 saw dashes, 2 saw names, 3 in body */
	struct fl_label **block;   /* labels the body goes to */
	size_t nblock, cap_block;
	size_t ndocs;              /* documents found in this input */
	size_t nignored;           /* lines ignored */
	struct {
		long line, col;
		char text[80];
		int after_doc;     /* text after a document, not a line of its own */
	} ign[5];                  /* the first ones, reported when the input ends */
	char first[80];            /* the first line with text, for "it printed ..." */
	long first_line;
};

/* ---- the fleet ---------------------------------------------------------------- */

struct fl_value_int {          /* anomaly value, with offsets until the end */
	uint32_t shown;
	size_t count;
	size_t host_off;
	int majority;
};

struct fl_anom {
	enum nicfit_severity sev;
	int attr;             /* enum fl_attr_id, -1 for fleet-level anomalies */
	uint32_t code;
	const char *attribute;
	int group;
	uint32_t dev, subject, expected, message;
	int majority;
	size_t host_off, nhosts;
	size_t val_off, nvals;
	int dropped;
};

struct fl_origin;

struct nicfit_fleet {
	struct nicfit_fleet_limits lim;
	/*
	 * Where the splitters hand each whole document: nicfit__fleet_audit_doc,
	 * set by nicfit_fleet_new. Through this pointer fleet_input.c does not
	 * call fleet_audit.c, which feeds an Ansible host's stdout back to it.
	 */
	int (*read_doc)(struct nicfit_fleet *fl, const char *text, size_t len,
			const struct fl_origin *o, struct nicfit_error *err);
	struct fl_strtab st;
	struct jscan js;

	struct fl_host *hosts;
	size_t nhosts, cap_hosts;
	uint32_t *host_slots;      /* name id -> index + 1 */
	size_t nhost_slots;

	struct fl_attr *attrs;
	size_t nattrs, cap_attrs;
	struct fl_dev *devs;
	size_t ndevs, cap_devs;

	/*
	 * Hosts built and set up alike read as the same attributes and
	 * devices: each distinct list is kept once and the hosts that have it
	 * share it (fleet_store.c), so that a host costs its record, not a
	 * copy of its attributes (an 8-GPU HGX's are 9 kB).
	 */
	struct fl_span {
		size_t off;
		uint32_t n;
		uint8_t devs;     /* a list of devs, else of attrs */
		uint64_t hash;
	} *spans;
	size_t nspans, cap_spans;
	uint32_t *span_slots;      /* index + 1 */
	size_t nspan_slots;

	struct fl_key *keys;
	size_t nkeys, cap_keys;
	uint64_t *key_hk;          /* hash slots: (attr<<32|subject) */
	uint32_t *key_slots;       /* index + 1 */
	size_t nkey_slots;

	struct nicfit_fleet_problem *problems;
	size_t nproblems, cap_problems, problems_total;
	uint32_t *problem_hosts;   /* unreadable hosts (string ids), for the anomaly */
	size_t nproblem_hosts, cap_problem_hosts;
	size_t ndocs, nunreadable, nduplicates, nignored;
	int oom;                   /* sticky: a problem could not be recorded (analysis fails) */

	struct fl_input in;
	size_t open_bytes;         /* bytes of unfinished documents */
	char *scratch;             /* string decoding */
	size_t scratch_cap;

	/* analysis results */
	int analyzed;
	struct fl_anom *anoms;
	size_t nanoms, cap_anoms;
	size_t *ahosts;            /* host lists of anomalies and values */
	size_t nahosts, cap_ahosts;
	struct fl_value_int *avals;
	size_t navals, cap_avals;
	struct nicfit_fleet_anomaly *pub_anoms;
	size_t nanoms_pub;
	struct nicfit_fleet_value *pub_vals;
	struct nicfit_fleet_group *groups;
	size_t ngroups;
	size_t *group_hosts;
	struct nicfit_finding *commons; /* strings in st: never released as findings */
	size_t ncommons, cap_commons;
	struct nicfit_fleet_host *pub_hosts;
	uint32_t *absent;          /* hosts without a usable audit (names) */
	size_t nabsent, cap_absent;
	size_t nunnamed;           /* unreadable documents without a host name */
	size_t nexpected;          /* hosts --expect asked for (0: no check) */
	size_t nmissing_unnamed;   /* --expect COUNT: how many are missing */
};

/* ---- the shared helpers ------------------------------------------------------ */

static inline double fl_as_double(uint64_t v)
{
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

static inline const char *fl_plural(size_t n)
{
	return n == 1 ? "" : "s";
}

/* fleet_strtab.c */
/* FNV-1a of s[0..n): the string table's hash, and the input's label table's. */
uint32_t nicfit__fleet_hash(const char *s, size_t n);
/* The id of s[0..len), interned if new; 0 when memory ran out. */
uint32_t nicfit__fleet_intern(struct fl_strtab *t, const char *s, size_t len);
/* The same for a C string; NULL is 0. */
uint32_t nicfit__fleet_intern0(struct fl_strtab *t, const char *s);
void nicfit__fleet_strtab_release(struct fl_strtab *t);

/* fleet_store.c */
/* The key of (attr, subject), made if new. Returns 0 or NICFIT_E_NOMEM. */
int nicfit__fleet_key(struct nicfit_fleet *fl, int attr, uint32_t subject, uint32_t dev,
		      uint32_t *out);
/*
 * Add h, whose attributes and devices are those from the marks to the ends
 * of the fleet's arrays. A host of the same name is replaced (a duplicate
 * problem says so). Errors: NICFIT_E_LIMIT (max_hosts), NICFIT_E_NOMEM.
 */
int nicfit__fleet_host_commit(struct nicfit_fleet *fl, struct fl_host *h, size_t attr_mark,
			      size_t dev_mark, const char *origin_input, long origin_line,
			      struct nicfit_error *err);
/* The index of the host named by string id name, or -1. */
long nicfit__fleet_host_index(const struct nicfit_fleet *fl, uint32_t name);
/*
 * Record an input problem (counted always, kept up to max_problems); an
 * unreadable host is remembered for the audit-unreadable anomaly.
 */
void nicfit__fleet_problem(struct nicfit_fleet *fl, enum nicfit_fleet_problem_kind kind,
			   const char *host, const char *input, long line, long col,
			   const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
/* A buffer of at least n bytes, valid until the next call; NULL without memory. */
char *nicfit__fleet_scratch(struct nicfit_fleet *fl, size_t n);
/*
 * Make s printable UTF-8 in place: bytes of invalid or cut sequences and
 * control characters become '?'. Outside text (a junk line, a file name)
 * ends up in messages and JSON, which must be valid UTF-8.
 */
void nicfit__fleet_sanitize(char *s);

/* ---- one document ------------------------------------------------------------ */

/* Where a document came from. */
struct fl_origin {
	const char *input;
	const char *label;        /* pdsh/clush/Ansible name, NULL */
	enum fl_label_kind kind;
	const char *fallback;     /* file-per-host name, NULL */
	const struct fl_frag *frags;
	size_t nfrags;
	int nested;               /* already inside an Ansible bundle */
	int tokenized;            /* fl->js already holds the document's tokens */
};

/* Where a splitter's documents go. */
struct fl_dest {
	const char *label;        /* NULL for plain documents */
	enum fl_label_kind kind;
	const char *status;       /* Ansible "UNREACHABLE!" etc. when the body is its result */
	int nested;
};

/* fleet_audit.c */
/*
 * Read one document: an audit becomes a host, an Ansible bundle its hosts,
 * anything else an input problem. Errors (fatal for the fleet) are those
 * of nicfit__fleet_host_commit.
 */
int nicfit__fleet_audit_doc(struct nicfit_fleet *fl, const char *text, size_t len,
			    const struct fl_origin *o, struct nicfit_error *err);

/* fleet_read.c: reading one document's tokens (fleet_audit.c and fleet_read.c) */
struct fl_actx {
	struct nicfit_fleet *fl;
	struct jscan *js;        /* holds the document's tokens */
	const char *text;
	struct fl_host h;        /* the host being read */
	int err;                 /* NICFIT_E_NOMEM once something failed */
};

static inline int fl_tok_type(const struct fl_actx *a, int t)
{
	return t < 0 ? JS_NONE : a->js->tok[t].type;
}

/* A number as an attribute value: its bits, -0 taken as 0 (they compare equal). */
static inline uint64_t fl_dbits(double d)
{
	uint64_t u;

	if (d == 0)
		d = 0;
	memcpy(&u, &d, sizeof(u));
	return u;
}

/* A member name looked for, with its length (KD("name")). */
struct keydef {
	const char *k;
	size_t n;
};
#define KD(s) { s, sizeof(s) - 1 }

/* Interned string token t; 0 when t is not a string. */
uint32_t nicfit__fleet_tok_sid(struct fl_actx *a, int t);
uint32_t nicfit__fleet_get_sid(struct fl_actx *a, int obj, const char *key);
/* Member key of obj is true. */
int nicfit__fleet_is_true(struct fl_actx *a, int obj, const char *key);
/* One pass over obj's members: out[i] is the value token of keys[i], or -1. */
void nicfit__fleet_members(struct fl_actx *a, int obj, const struct keydef *keys, int n, int *out);
/* Add attribute (attr, subject) of value v to the host being read. */
void nicfit__fleet_add(struct fl_actx *a, int attr, uint32_t subject, uint32_t dev, uint64_t v);
void nicfit__fleet_add_num(struct fl_actx *a, int attr, uint32_t subject, uint32_t dev, int obj,
			   const char *key);
/* A string attribute; an empty string is unknown. */
void nicfit__fleet_add_str(struct fl_actx *a, int attr, uint32_t subject, uint32_t dev,
			   uint32_t sid);
/* A host-wide boolean: 1, 0, or -1 unknown (nothing added). */
void nicfit__fleet_add_bool(struct fl_actx *a, int attr, int v);
/* An interned "x SEP y". */
uint32_t nicfit__fleet_join(struct fl_actx *a, uint32_t x, const char *sep, const char *y);
/* One object of "devices": the device, and its attributes. */
void nicfit__fleet_read_device(struct fl_actx *a, int dev);

/* fleet_input.c */
void nicfit__fleet_split_init(struct fl_split *sp, size_t max);
/* Forget the document begun (its bytes no longer count as open). */
void nicfit__fleet_split_reset(struct nicfit_fleet *fl, struct fl_split *sp);
void nicfit__fleet_split_release(struct nicfit_fleet *fl, struct fl_split *sp);
/*
 * Feed text that starts at input (line, col); each document completed goes
 * to nicfit__fleet_audit_doc. *garbage (when not NULL) is set to the first
 * non-JSON text seen outside a document (the rest of that piece is
 * skipped). Errors: NICFIT_E_NOMEM, NICFIT_E_LIMIT, and the audit's.
 */
int nicfit__fleet_split_feed(struct nicfit_fleet *fl, struct fl_split *sp,
			     const struct fl_dest *d, const char *p, size_t n, long line, long col,
			     const char **garbage, struct nicfit_error *err);
/*
 * The common case, a whole compact document at p: read it where it lies.
 * Returns the bytes used, 0 when p[0..n) does not start with one (*rc is
 * then 0, and the splitter takes the text).
 */
size_t nicfit__fleet_whole_doc(struct nicfit_fleet *fl, const struct fl_dest *d, const char *p,
			       size_t n, long line, long col, int *rc, struct nicfit_error *err);
/* The input ended inside sp's document: an unreadable problem for label. */
void nicfit__fleet_truncated(struct nicfit_fleet *fl, const char *label, struct fl_split *sp);
/*
 * One host's text from inside another document (an Ansible result's
 * stdout), read with its own splitter; line is where the result stands.
 */
int nicfit__fleet_feed_labelled(struct nicfit_fleet *fl, const char *label,
				enum fl_label_kind kind, const char *text, size_t len, long line,
				struct nicfit_error *err);
/* The input line and column of byte off of a document read from o. */
void nicfit__fleet_position(const struct fl_origin *o, const char *text, size_t off,
			    long *line, long *col);

/* fleet_stream.c */
void nicfit__fleet_input_release(struct nicfit_fleet *fl);

/* fleet_groups.c (reading side): what a host's hardware is */
/* Sort the devices devs[off..off+n) by BDF. Returns 0 or -1 without memory. */
int nicfit__fleet_sort_devs(struct nicfit_fleet *fl, size_t off, size_t n);
/* The signature string of a host with those (sorted) devices; 0 without memory. */
uint32_t nicfit__fleet_signature(struct nicfit_fleet *fl, uint32_t product, uint32_t vendor,
				 size_t off, size_t n);

/* ---- analysis ---------------------------------------------------------------- */

struct fl_gath;
struct fl_tally;

/*
 * The longest message or label the analysis writes: a bound on text that
 * repeats outside input (names, versions), far above any real message.
 */
#define FL_TEXT_MAX ((size_t)1 << 16)
/*
 * The distinct GPU (with accelerator) and NIC models a group keeps for
 * alike(); a server holds a handful, and models past this are not compared.
 */
#define FL_GROUP_MODELS 16

/* The analysis's working state (fleet_analyze.c owns it). */
struct fl_an {
	struct nicfit_fleet *fl;
	const struct nicfit_fleet_opts *o;
	uint64_t *first;
	uint32_t *cnt, *last, *last2;
	uint8_t *flags;
	uint32_t *touched;
	size_t ntouched;
	struct fl_gath *g;
	size_t ng, capg;
	size_t *vh;            /* hosts of the tallies being built */
	size_t nvh, capvh;
	struct fl_tally *t;
	size_t nt, capt;
	uint8_t *mark;         /* per host */
	int err;               /* NICFIT_E_NOMEM once something failed */
};

/* A group of hosts with one hardware signature, while the analysis runs. */
struct fl_grp {
	uint32_t sig, label, product;
	const char *label_s, *sig_s; /* for sorting */
	size_t off, n;        /* into fl->group_hosts */
	size_t coff, ncommon; /* into fl->commons */
	size_t nsig;          /* signature devices */
	uint32_t gpus[FL_GROUP_MODELS], nics[FL_GROUP_MODELS]; /* distinct models (ids), sorted */
	int ngpus, nnics;
	int cluster;          /* groups meant to be built alike share one */
};

/* fleet_anomaly.c: the records (a->err is set when memory runs out) */
struct fl_anom *nicfit__fleet_anom_new(struct fl_an *a, int attr, enum nicfit_severity sev,
				       uint32_t code, int group, uint32_t dev);
void nicfit__fleet_anom_host(struct fl_an *a, struct fl_anom *x, size_t h);
/* A value of x with its hosts (copied from hosts[0..n)). */
void nicfit__fleet_anom_value(struct fl_an *a, struct fl_anom *x, uint32_t shown,
			      const size_t *hosts, size_t n, int majority);
/* --ignore: code (a string: fleet's or a host's finding code) is not to be reported. */
int nicfit__fleet_ignored(const struct fl_an *a, const char *code);
int nicfit__fleet_ignored_code(const struct fl_an *a, enum nicfit__code code);
/* The string id of a registered code, as anomalies carry it. */
uint32_t nicfit__fleet_code_id(struct fl_an *a, enum nicfit__code code);
uint32_t nicfit__fleet_intern_fmt(struct fl_an *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
uint32_t nicfit__fleet_intern_buf(struct fl_an *a, struct nicfit_buf *b);
/* A value of attr as users read it ("x16", "16 GT/s", "absent"), in buf. */
const char *nicfit__fleet_fmt_value(struct nicfit_fleet *fl, int attr, uint64_t v, char *buf,
				    size_t n);
/* The device at bdf in host h, or NULL. */
const struct fl_dev *nicfit__fleet_host_dev(const struct nicfit_fleet *fl,
					    const struct fl_host *h, uint32_t bdf);
/* A device's name, or its PCI ID when the audit gives none. */
const char *nicfit__fleet_dev_label(const struct nicfit_fleet *fl, const struct fl_dev *d);
int nicfit__fleet_is_gpu(const struct nicfit_fleet *fl, const struct fl_dev *d);

/* fleet_compare.c: compare the hosts[0..n) of group gi */
void nicfit__fleet_compare_group(struct fl_an *a, int gi, const size_t *hosts, size_t n);

/* fleet_groups.c: make the groups (sorted, largest first), compare those built alike */
int nicfit__fleet_make_groups(struct fl_an *a, struct fl_grp **groups, size_t *ngroups);
void nicfit__fleet_compare_families(struct fl_an *a, struct fl_grp *groups, size_t ng);

/* fleet_analyze.c */
/* Free the last analysis's results; fl reads as not analysed. */
void nicfit__fleet_results_release(struct nicfit_fleet *fl);

#endif
