/*
 * output.h - where a command's document goes when it is not standard
 * output (output.c): `--output FILE` and `cluster --port-map FILE`,
 * written so that a reader never sees half a file. node_exporter's
 * textfile collector reads *.prom files in its directory at every scrape;
 * a file written in place could be read while it is being written.
 * Internal to the CLI.
 *
 * What the destination is decides how it is written, as cp(1), tee(1)
 * and a shell's redirection decide it, but with a regular file replaced
 * whole:
 *  - a regular file with one name, or a name that does not exist yet: a
 *    new file in the same directory, made only once the document is ready
 *    to be written (a run killed while it works leaves nothing), without
 *    a name where the filesystem allows (O_TMPFILE: a kill while it is
 *    written leaves nothing either), written, flushed to disk, given the
 *    old file's permission bits (and owner and group where the process
 *    may give them; a new file gets the caller's mode), then linked in
 *    under the target's name (a new one) or a temporary name renamed over
 *    it, and the directory flushed. The temporary name is
 *    ".NAME.nicfit-PID.XXXXXX" (hidden: the textfile collector reads only
 *    *.prom); one whose process is gone, left by a kill at the wrong
 *    moment, is removed by the next run that writes NAME;
 *  - a regular file with more than one name (hard links) is written in
 *    place, so that every name sees the new content: room for the whole
 *    content is reserved first where it is known (a full disk then leaves
 *    the file as it was), then it is overwritten and cut to its length;
 *  - a symbolic link is followed: the file it names is replaced as above
 *    in that file's directory (the link stays a link), a device or FIFO it
 *    names is written to; a link to nothing is refused, as nicfit creates
 *    no file through a link;
 *  - this process's standard output or error (/dev/stdout, /dev/fd/2, or
 *    a name of the file they are redirected to) is written through that
 *    descriptor, at its offset and with its append mode, as a shell's
 *    redirection to /dev/stdout is;
 *  - a character or block device, or a FIFO, is written to as it is
 *    (opened without O_CREAT or O_TRUNC, never made a controlling
 *    terminal); a FIFO that no process reads is refused instead of
 *    waiting for a reader for ever;
 *  - a directory, a socket, and an existing file the process may not
 *    write (a read-only file, which a rename would replace all the same)
 *    are refused.
 * A temporary file never outlives the process: an error removes it, and
 * so does SIGINT, SIGTERM or SIGHUP (cli_out_remove_pending()); a file
 * size limit (ulimit -f) is a write error, SIGXFSZ being ignored.
 * Errors are one line naming the option and the path, with exit 66 (the
 * destination cannot be written there), 64 (it is one of the command's
 * inputs) or 70 (a write failed midway; the message says whether the
 * destination was left as it was or partly written).
 * "-" is left to the caller: it means standard output for --output and
 * is refused by --port-map, whose standard output carries the report.
 */
#ifndef NICFIT_CLI_OUTPUT_H
#define NICFIT_CLI_OUTPUT_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "nicfit/buf.h"

struct cli;

/* A destination being written: cli_out_open(), cli_out_write()..., cli_out_commit(). */
struct cli_out {
	const char *opt;     /* the option, for messages ("--output") */
	const char *path;    /* as the user gave it */
	char tmp[4096];      /* the temporary file; "" when written to as it is */
	char target[4096];   /* what tmp is renamed over: path, or the file its link names */
	int fd;              /* -1: nothing open */
	int in_place;        /* a regular file overwritten where it is, cut at commit */
	int existed;         /* the target was a regular file already */
	int deferred;        /* the new file is made at the first write (open_beside) */
	int anon;            /* fd is an O_TMPFILE file, without a name until commit */
	mode_t mode;         /* its permission bits */
	int has_old;         /* old: the file it replaces, whose owner and mode it takes */
	struct stat old;
	size_t written;      /* bytes written so far */
	int err;             /* the first write's errno */
};

/* A file a command reads, which its output must not replace. */
/* What a command reads of an input that is a directory (cli_out_not_input). */
enum cli_lists {
	CLI_LISTS_NONE,      /* named files only (a sysfs tree) */
	CLI_LISTS_JSON,      /* the *.json files directly in it, not hidden (fleet's audits) */
	CLI_LISTS_ALL        /* every file at any depth below it (audit --dump DIR) */
};

struct cli_input {
	const char *opt;     /* "--dump", "--plan", "" for an operand */
	const char *path;    /* NULL or "-": nothing to compare */
	enum cli_lists lists;
};

/*
 * Refuse path (given to opt) when it names the same file as one of the
 * n inputs: replacing a dump, a spec or an audit with the report would
 * lose it. Also when path is a file an input directory's listing takes
 * in (a .json report in fleet's directory of audits, any file under
 * audit's --dump DIR): the next run would read the report as an input.
 * Returns 0, or 64 after printing one line.
 */
int cli_out_not_input(const char *opt, const char *path, const struct cli_input *in, size_t n);

/*
 * Open path for writing as the paragraph above says; a new file gets
 * mode. Returns 0, or an exit code after printing one line; then there
 * is nothing to commit or abort.
 */
int cli_out_open(struct cli_out *o, const char *opt, const char *path, mode_t mode);
/*
 * Room for n bytes more, reserved on the disk before they are written
 * (a regular file only; a filesystem that cannot reserve is not asked).
 * 0, or -1 with the error kept as a write's: a file written in place is
 * then still as it was.
 */
int cli_out_reserve(struct cli_out *o, size_t n);
/* Write n bytes at p; 0, or -1 (the error is kept for cli_out_commit()). */
int cli_out_write(struct cli_out *o, const char *p, size_t n);
/*
 * Finish: flush the temporary file and rename it over the target, cut a
 * file written in place to its length, or close the device or FIFO.
 * Returns 0, or an exit code after printing one line (a failed write
 * included); the temporary file is then gone.
 */
int cli_out_commit(struct cli_out *o);
/* Give up: close, remove the temporary file, leave the destination as it was. */
void cli_out_abort(struct cli_out *o);
/* Remove the temporary file being written, if any; safe in a signal handler. */
void cli_out_remove_pending(void);

/*
 * `--output FILE` of a command that renders into c->out, in two steps so
 * that a destination that cannot be written is refused before the work:
 * cli_output_open() checks FILE against the command's inputs, opens it
 * (a new file: checks that its directory takes one, and makes it later)
 * (mode 0644 for a new file, so that a collector running as another user
 * reads it) and lays the report out for it rather than for standard
 * output (colour and width when --color is auto, as for a terminal it
 * is); cli_output_close() writes c->out there and empties it when rc is
 * a result (0, 1 or 2), or removes the temporary file for an error. For
 * NULL or "-" both do nothing: c->out goes to standard output. Each
 * returns 0 or an exit code; cli_output_close() returns rc unless the
 * writing failed.
 */
int cli_output_open(struct cli *c, struct cli_out *o, const char *path,
		    const struct cli_input *in, size_t nin);
int cli_output_close(struct cli *c, struct cli_out *o, int rc);

/* Write all n bytes at p to fd (retrying after EINTR); 0, or -1 with errno set. */
int cli_write_all(int fd, const char *p, size_t n);

#endif
