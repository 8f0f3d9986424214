/*
 * fleet_int.h - what the fleet sources share (internal).
 *
 *   fleet_input.c   streams -> documents (pdsh/clush/srun/Ansible/plain JSON)
 *   fleet_audit.c   one audit document -> one host record with attributes
 *   fleet.c         the fleet object, string table, grouping and anomalies
 *   fleet_render.c  text, JSON, Markdown and CSV
 *   hostlist.c      pdsh/clush host lists, folded and expanded
 *
 * A host is reduced to a list of attributes: (key, value) where the key
 * names what is compared ("link.current_width of 0000:31:00.0") and the
 * value is a number or an interned string. Comparing hosts is then tallying
 * values per key, with no knowledge of JSON left.
 */
#ifndef NICFIT_FLEET_INT_H
#define NICFIT_FLEET_INT_H

#ifndef NICFIT_BUILDING_LIBRARY
#error "fleet_int.h is internal to libnicfit: include the public headers in include/nicfit/"
#endif

#include <stddef.h>
#include <stdint.h>

#include "nicfit/buf.h"
#include "finding_int.h"
#include "nicfit/fleet.h"
#include "jscan_int.h"

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
struct fl_split {
	struct nicfit_buf doc;
	struct fl_frag *frags;
	size_t nfrags, cap_frags;
	int depth;
	int in_str, esc;
	int started;
	size_t max;           /* bytes allowed */
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

struct nicfit_fleet {
	struct nicfit_fleet_limits lim;
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

/* fleet.c */
int nicfit__fleet_host_commit(struct nicfit_fleet *fl, struct fl_host *h, size_t attr_mark,
			      size_t dev_mark, const char *origin_input, long origin_line,
			      struct nicfit_error *err);
int nicfit__fleet_key(struct nicfit_fleet *fl, int attr, uint32_t subject, uint32_t dev,
		      uint32_t *out);
void nicfit__fleet_problem(struct nicfit_fleet *fl, enum nicfit_fleet_problem_kind kind,
			   const char *host, const char *input, long line, long col,
			   const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
char *nicfit__fleet_scratch(struct nicfit_fleet *fl, size_t n);
/*
 * Make s printable UTF-8 in place: bytes of invalid or cut sequences and
 * control characters become '?'. Outside text (a junk line, a file name)
 * ends up in messages and JSON, which must be valid UTF-8.
 */
void nicfit__fleet_sanitize(char *s);

/* fleet_audit.c: one document; origin says where it came from. */
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
int nicfit__fleet_audit_doc(struct nicfit_fleet *fl, const char *text, size_t len,
		 const struct fl_origin *o, struct nicfit_error *err);
void nicfit__fleet_position(const struct fl_origin *o, const char *text, size_t off,
			long *line, long *col);

/* fleet_input.c */
void nicfit__fleet_input_release(struct nicfit_fleet *fl);
/*
 * One host's text from inside another document (an Ansible result's
 * stdout), read with its own splitter; line is where the result stands.
 */
int nicfit__fleet_feed_labelled(struct nicfit_fleet *fl, const char *label, enum fl_label_kind kind,
		     const char *text, size_t len, long line, struct nicfit_error *err);

#endif
