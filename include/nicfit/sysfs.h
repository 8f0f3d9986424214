/*
 * nicfit/sysfs.h - every read of a Linux sysfs/procfs tree, through one
 * root directory.
 *
 * What it is
 * ----------
 *
 * A struct nicfit_sysfs holds a directory fd on a filesystem root: the
 * live "/" or a captured tree that contains sys/ (and usually proc/), the
 * HWLOC_FSROOT convention, so trees saved by hwloc-gather-topology or by
 * `nicfit snapshot` read the same way. Paths given to this module are
 * relative to that root ("sys/bus/pci/devices"); symbolic links are
 * followed as if the root were "/" (an absolute link in a captured tree
 * stays inside the tree), with openat2(RESOLVE_IN_ROOT) where the kernel
 * has it and a component-by-component resolver where it does not. It
 * only reads; what the files mean is nicfit/topo.h's business.
 *
 * Opening a root
 * --------------
 *
 *	struct nicfit_sysfs *fs;
 *	struct nicfit_error err;
 *
 *	nicfit_error_clear(&err);
 *	if (nicfit_sysfs_open(root, &fs, &err))   (root: NULL or "/" for this host)
 *		return report(&err);
 *	...
 *	nicfit_sysfs_close(fs);
 *
 * Reading a typed attribute
 * -------------------------
 *
 * Each reader returns an enum nicfit_sysfs_status; its value means
 * something only on NICFIT_SYSFS_OK (otherwise a number is 0 and a text
 * ""):
 *
 *	enum nicfit_sysfs_status st;
 *	char speed[32];
 *	long node;
 *
 *	st = nicfit_sysfs_read_long(fs, "sys/bus/pci/devices/0000:17:00.0/numa_node",
 *				    &node, 0);
 *	if (st == NICFIT_SYSFS_MISSING)
 *		node = -1;	// an older kernel: unknown, never 0
 *	else if (st != NICFIT_SYSFS_OK)
 *		node = -1;	// unreadable or malformed: already kept as a problem
 *
 *	// a file that may fail for a known reason (a down link's speed):
 *	if (nicfit_sysfs_read_str(fs, path, speed, sizeof(speed),
 *				  NICFIT_SYSFS_QUIET) != NICFIT_SYSFS_OK)
 *		speed[0] = '\0';
 *
 * Missing, unreadable, malformed
 * ------------------------------
 *
 * The readers tell apart what a careful audit must tell apart: a file
 * that is not there (MISSING: normal, old kernels lack many files), a file
 * that could not be read (UNREADABLE: permissions, the kernel's EINVAL on
 * a down link, I/O errors), a symlink loop (LOOP), something that is not
 * a regular file (NOT_FILE), and content that is not what the file should
 * hold (MALFORMED: binary junk, "0xZZ"). Everything but MISSING is kept as
 * a problem (path, status, errno) that the audit reports;
 * NICFIT_SYSFS_QUIET keeps expected failures out of that list, and
 * nicfit_sysfs_report() adds a problem found above this layer (a text
 * that read fine but did not parse).
 *
 * Recording for snapshots
 * -----------------------
 *
 * For `nicfit snapshot`, a recorder can be attached: it keeps every path
 * that was read, listed or followed, so that exactly those can be copied.
 *
 * Parsers
 * -------
 *
 * This module also holds the pure parsers of sysfs strings (link speeds,
 * hex IDs, CPU lists, InfiniBand rates and states, GIDs, PCI addresses),
 * which never touch the filesystem and are fuzzed. Decimal integers go
 * through nicfit_parse_dec() in nicfit/units.h, the one integer core.
 *
 * Who owns what
 * -------------
 *
 * The handle is allocated by nicfit_sysfs_open() and freed by
 * nicfit_sysfs_close(). Readers write into buffers the caller provides
 * (never more than cap bytes, always NUL-terminated for text); only
 * nicfit_sysfs_list() allocates (*ents, free() it). Problem paths and
 * records belong to the handle and live until nicfit_sysfs_close(). A
 * handle is not safe to use from two threads at once: it keeps the last
 * directory opened, to save lookups.
 */
#ifndef NICFIT_SYSFS_H
#define NICFIT_SYSFS_H

#include <stddef.h>
#include <stdint.h>

#include "nicfit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum nicfit_sysfs_status {
	NICFIT_SYSFS_OK = 0,
	NICFIT_SYSFS_MISSING,    /* no such file (ENOENT, ENOTDIR) */
	NICFIT_SYSFS_UNREADABLE, /* open or read failed (EACCES, EINVAL, EIO, ...) */
	NICFIT_SYSFS_LOOP,       /* too many symbolic links (ELOOP) */
	NICFIT_SYSFS_NOT_FILE,   /* a directory, FIFO or device where a file was expected */
	NICFIT_SYSFS_MALFORMED,  /* read, but the content is not what the file holds */
	NICFIT_SYSFS_TOO_BIG     /* longer than the reader's limit */
};

/* "missing", "unreadable", "symlink loop", ... */
const char *nicfit_sysfs_status_name(enum nicfit_sysfs_status st);

/* Do not record a failure of this read as a problem (it is expected). */
#define NICFIT_SYSFS_QUIET 0x1u
/*
 * nicfit_sysfs_list: return the subdirectories only (a walk of the device
 * tree skips a device's many files); the limit and the recording of a
 * snapshot still count every entry.
 */
#define NICFIT_SYSFS_SUBDIRS 0x2u

/* Largest file the text readers take, and the binary limit (PCI VPD is 32 KiB). */
#define NICFIT_SYSFS_TEXT_MAX 4096
#define NICFIT_SYSFS_BIN_MAX 32768
/* At most this many problems are kept (the count goes on). */
#define NICFIT_SYSFS_MAX_PROBLEMS 64
/* Longest root-relative path handled. */
#define NICFIT_SYSFS_PATH_MAX 1024

struct nicfit_sysfs;

/*
 * Open root ("/" or NULL for the live system, else a directory that holds
 * sys/). Errors: NICFIT_E_NOTFOUND when root does not exist or has no
 * sys/ directory, NICFIT_E_IO when it cannot be opened, NICFIT_E_NOMEM.
 */
int nicfit_sysfs_open(const char *root, struct nicfit_sysfs **out,
		      struct nicfit_error *err);
void nicfit_sysfs_close(struct nicfit_sysfs *fs);

/* The root as given ("/" for the live system). */
const char *nicfit_sysfs_root(const struct nicfit_sysfs *fs);
/* 1 when the root is the live "/" (procfs and uname describe this host). */
int nicfit_sysfs_is_live(const struct nicfit_sysfs *fs);

/*
 * Read a whole file into buf (cap bytes); *len gets the bytes read. A file
 * longer than cap gives TOO_BIG (buf holds the first cap bytes).
 */
enum nicfit_sysfs_status nicfit_sysfs_read(struct nicfit_sysfs *fs, const char *path,
					   void *buf, size_t cap, size_t *len,
					   unsigned flags);

/*
 * A one-line text attribute: trailing newline and blanks removed, NUL-
 * terminated in out (cap bytes). A NUL byte or control character in the
 * text (other than tab and the final newline) is MALFORMED; the one NUL
 * after the final newline that older kernels put at the end of the node
 * lists ("0-3\n\0") is not.
 */
enum nicfit_sysfs_status nicfit_sysfs_read_str(struct nicfit_sysfs *fs, const char *path,
					       char *out, size_t cap, unsigned flags);

/* "0x15b3" (0x and 1 to 8 hex digits). */
enum nicfit_sysfs_status nicfit_sysfs_read_hex(struct nicfit_sysfs *fs, const char *path,
					       unsigned long *out, unsigned flags);

/* A decimal integer ("-1", "16"). */
enum nicfit_sysfs_status nicfit_sysfs_read_long(struct nicfit_sysfs *fs, const char *path,
						long *out, unsigned flags);

/* The target of a symbolic link (not followed). */
enum nicfit_sysfs_status nicfit_sysfs_readlink(struct nicfit_sysfs *fs, const char *path,
					       char *out, size_t cap, unsigned flags);

/*
 * The canonical root-relative path of path: every symbolic link in every
 * component followed (at most 40), "." and ".." folded, no leading "/".
 * MISSING when a component does not exist, LOOP on a loop.
 */
enum nicfit_sysfs_status nicfit_sysfs_resolve(struct nicfit_sysfs *fs, const char *path,
					      char *out, size_t cap, unsigned flags);

/* 1 when path exists (as anything, links followed), else 0; never a problem. */
int nicfit_sysfs_exists(struct nicfit_sysfs *fs, const char *path);

enum nicfit_dirent_type { NICFIT_DT_OTHER, NICFIT_DT_FILE, NICFIT_DT_DIR, NICFIT_DT_LINK };

struct nicfit_dirent {
	char name[256];
	enum nicfit_dirent_type type; /* of the entry itself (links not followed) */
};

/* At most this many entries per directory. */
#define NICFIT_SYSFS_MAX_DIRENTS 65536

/*
 * List a directory, sorted by name, without "." and "..". *ents is
 * malloc'd (free() it); *n may be 0. MISSING when there is no such
 * directory, NOT_FILE when path is not a directory.
 */
enum nicfit_sysfs_status nicfit_sysfs_list(struct nicfit_sysfs *fs, const char *path,
					   struct nicfit_dirent **ents, size_t *n,
					   unsigned flags);

/*
 * Record a problem found above this layer (a file that read fine but did
 * not parse as its kind of value). flags as for the readers.
 */
void nicfit_sysfs_report(struct nicfit_sysfs *fs, const char *path,
			 enum nicfit_sysfs_status st, int errnum, unsigned flags);

/* Problems met so far: how many (including those beyond the kept ones) ... */
size_t nicfit_sysfs_problem_count(const struct nicfit_sysfs *fs);
/* ... and the i-th kept one (i < min(count, NICFIT_SYSFS_MAX_PROBLEMS)). */
void nicfit_sysfs_problem(const struct nicfit_sysfs *fs, size_t i, const char **path,
			  enum nicfit_sysfs_status *st, int *errnum);
/* One line describing a problem: "permission denied", "binary data", ... */
const char *nicfit_sysfs_problem_text(enum nicfit_sysfs_status st, int errnum);

/* ---- reading parts of a binary attribute ---------------------------------- */

/*
 * Config space is read by the kernel one dword at a time, each a config
 * cycle of microseconds on a live host (pci_read_config() in
 * drivers/pci/pci-sysfs.c): a reader that needs a few registers opens the
 * attribute once and reads those, not the 4096 bytes. open gives a
 * descriptor (or a status, reported as the other readers do); pread reads
 * len bytes at off and returns how many came (0 past the end, which is
 * where an unprivileged reader's 64 bytes stop); why says which facts the
 * bytes hold, for a trace. close ends it.
 */
enum nicfit_sysfs_status nicfit_sysfs_open_attr(struct nicfit_sysfs *fs, const char *path,
						int *fd, unsigned flags);
size_t nicfit_sysfs_pread(struct nicfit_sysfs *fs, int fd, const char *path, void *buf,
			  size_t len, size_t off, const char *why);
void nicfit_sysfs_close_attr(struct nicfit_sysfs *fs, int fd);
/* Whether a snapshot is being recorded (nicfit_sysfs_record(fs, 1)): it keeps files whole. */
int nicfit_sysfs_recording_whole(const struct nicfit_sysfs *fs);

/* ---- tracing what is read -------------------------------------------------- */

/*
 * One read the layer made, in the order made: 'F' a file read whole, 'P'
 * len bytes at off of a binary attribute (why says for what), 'L' a link
 * read, 'D' a directory listed, 'M' a path looked for and not there, 'T'
 * a path only tested for. A failed read of another kind is not traced
 * (it is a problem, kept as such). bench/reads.c prints these as the
 * minimal list of what an audit reads and why.
 */
typedef void (*nicfit_sysfs_trace_fn)(void *ctx, int op, const char *path, size_t off,
				      size_t len, const char *why);
void nicfit_sysfs_trace(struct nicfit_sysfs *fs, nicfit_sysfs_trace_fn fn, void *ctx);
/*
 * What a traced read was for, in words: why when the reader said (a
 * range of config space), else the facts discovery takes from a file of
 * that name, else what an op of that kind learns. Never NULL.
 */
const char *nicfit_sysfs_read_why(int op, const char *path, const char *why);

/* ---- recording what was read (for snapshots) ----------------------------- */

enum nicfit_rec_type {
	NICFIT_REC_FILE, NICFIT_REC_LINK, NICFIT_REC_DIR, NICFIT_REC_FAILED,
	NICFIT_REC_MISSING /* only with nicfit_sysfs_record(fs, 2) */
};

struct nicfit_rec {
	char *path;                /* root-relative, as read */
	enum nicfit_rec_type type;
	unsigned char *data;       /* FILE: the bytes read; LINK: the target (NUL-ended) */
	size_t len;
	enum nicfit_sysfs_status st; /* FAILED: why */
	int errnum;
};

/*
 * Start (on = 1) or stop recording. While on, every file read whole, link
 * read, directory listed and path that could not be read is kept once
 * (the first time). on = 2 also keeps each path looked for and not there
 * (NICFIT_REC_MISSING): what a discovery tried, for measuring it (a
 * snapshot records with 1). Returns 0 or NICFIT_E_NOMEM.
 */
int nicfit_sysfs_record(struct nicfit_sysfs *fs, int on);
/*
 * Record data as if it had been read from path (facts that do not come
 * from a file, such as DCB settings, so that a snapshot keeps them).
 */
void nicfit_sysfs_record_data(struct nicfit_sysfs *fs, const char *path, const void *data,
			      size_t len);
/* The records, in the order first met; valid until close. */
size_t nicfit_sysfs_rec_count(const struct nicfit_sysfs *fs);
const struct nicfit_rec *nicfit_sysfs_rec(const struct nicfit_sysfs *fs, size_t i);

/* ---- pure parsers of sysfs strings -------------------------------------- */

/*
 * A PCIe link speed in any kernel format: "2.5 GT/s", "8 GT/s", "8.0 GT/s
 * PCIe", "16.0 GT/s PCIe". Returns 0 with *gts set; 1 for the kernel's
 * "Unknown", "Unknown speed" and the empty string (*gts = 0); -1 for
 * anything else.
 */
int nicfit_parse_link_speed(const char *s, double *gts);

/* "0x" and 1 to 8 hex digits. Returns 0 or -1. */
int nicfit_parse_hex_id(const char *s, unsigned long *out);

/*
 * A CPU or node list "0-7,16-23" (empty means none). *count gets the
 * number of members, *first the lowest (-1 when empty). Members above
 * 1<<22 are refused. Returns 0 or -1.
 */
int nicfit_parse_cpulist(const char *s, unsigned long *count, long *first);
/* 1 when member n is in list s (s already valid), else 0. */
int nicfit_cpulist_has(const char *s, long n);
/*
 * A CPU mask as the kernel prints it ("00000000,000000f0": words of up
 * to 32 bits in hex, the highest first, separated by commas), the only
 * form of a node's CPUs (cpumap) and a package's (core_siblings) before
 * Linux 2.6.2x added the lists, and what a PCI function's local_cpus
 * holds, into a CPU list at list (cap bytes): "4-7" ("" for no CPU; any
 * number of words, but none that starts past CPU 1<<22). Returns 0;
 * -1 when s is malformed (an empty string, a "0x" prefix, a newline, a
 * word of more than 8 digits, an empty word); -2 when s is well formed but
 * its list does not fit in cap bytes. list is "" on failure.
 */
int nicfit_parse_cpumask(const char *s, char *list, size_t cap);

/*
 * An InfiniBand port rate: "100 Gb/sec (4X EDR)", "2.5 Gb/sec (1X)". The
 * kernel prints the signalling rate; SDR, DDR and QDR lanes carry 8b/10b
 * code and FDR 64b/66b, so the data rate is lower ("40 Gb/sec (4X QDR)"
 * moves 32 Gb/s: docs/reference/bandwidth.md 3.1). data_gbps is that rate
 * for an InfiniBand link; an Ethernet (RoCE) port's rate string reuses IB
 * names for Ethernet speeds (40GbE shows as "4X QDR"), so discovery sets
 * data_gbps = gbps there.
 */
struct nicfit_ib_rate {
	double gbps;      /* as printed: 100, 2.5 */
	double data_gbps; /* after line coding (InfiniBand): 32 for 4X QDR; 0 unknown */
	int width;        /* lanes: 1, 2, 4, 8, 12 */
	char speed[8];    /* "EDR", "HDR", "" for SDR */
};
int nicfit_parse_ib_rate(const char *s, struct nicfit_ib_rate *r);

/* "4: ACTIVE", "5: LinkUp": the number and the name. Returns 0 or -1. */
int nicfit_parse_ib_state(const char *s, int *num, char *name, size_t cap);

/* A GID "fe80:0000:0000:0000:0202:c9ff:fe00:0001" into 16 bytes. 0 or -1. */
int nicfit_parse_gid(const char *s, uint8_t gid[16]);

enum nicfit_gid_type { NICFIT_GID_UNKNOWN, NICFIT_GID_IB_ROCE1, NICFIT_GID_ROCE2 };
/* "IB/RoCE v1" or "RoCE v2"; anything else is NICFIT_GID_UNKNOWN. */
enum nicfit_gid_type nicfit_parse_gid_type(const char *s);

/*
 * A PCI address "DDDD:BB:DD.F" (domain 4 to 8 hex digits, as in VMD's
 * "10000:00:04.0"), or without the function ("0000:3b:00", a slot address)
 * when fn is NULL. Returns 0 or -1.
 */
int nicfit_parse_pci_addr(const char *s, unsigned *domain, unsigned *bus,
			  unsigned *dev, unsigned *fn);

#ifdef __cplusplus
}
#endif

#endif
