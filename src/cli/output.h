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
 *  - a regular file, or a name that does not exist yet: a temporary file
 *    in the same directory (".NAME.XXXXXX", a name the textfile collector
 *    skips: it reads only *.prom), flushed to disk, then renamed over it;
 *  - a symbolic link is followed: the file it names is replaced that way
 *    (the link stays a link), a device or FIFO it names is written to; a
 *    link to nothing is refused, as nicfit creates no file through a link;
 *  - a character or block device, or a FIFO, is written to as it is
 *    (opened without O_CREAT or O_TRUNC, never made a controlling
 *    terminal); a FIFO that no process reads is refused instead of
 *    waiting for a reader for ever;
 *  - a directory or a socket is refused.
 * Errors are one line naming the option and the path, with exit 66 (the
 * destination cannot be written there) or 70 (a write failed midway).
 * "-" is left to the caller: it means standard output for --output and
 * is refused by --port-map, whose standard output carries the report.
 */
#ifndef NICFIT_CLI_OUTPUT_H
#define NICFIT_CLI_OUTPUT_H

#include <stddef.h>
#include <sys/types.h>

#include "nicfit/buf.h"

struct cli;

/* A destination being written: cli_out_open(), cli_out_write()..., cli_out_commit(). */
struct cli_out {
	const char *opt;     /* the option, for messages ("--output") */
	const char *path;    /* as the user gave it */
	char tmp[4096];      /* the temporary file; "" when written to as it is */
	char target[4096];   /* what tmp is renamed over: path, or the file its link names */
	int fd;
	int err;             /* the first write's errno */
};

/*
 * Open path for writing as the paragraph above says; a new file gets
 * mode. Returns 0, or an exit code after printing one line; then there
 * is nothing to commit or abort.
 */
int cli_out_open(struct cli_out *o, const char *opt, const char *path, mode_t mode);
/* Write n bytes at p; 0, or -1 (the error is kept for cli_out_commit()). */
int cli_out_write(struct cli_out *o, const char *p, size_t n);
/*
 * Finish: flush the temporary file and rename it over the target, or
 * close the device or FIFO. Returns 0, or an exit code after printing one
 * line (a failed write included); the temporary file is then gone.
 */
int cli_out_commit(struct cli_out *o);
/* Give up: close, remove the temporary file, leave the destination as it was. */
void cli_out_abort(struct cli_out *o);

/*
 * `--output FILE` of a command that rendered into c->out: FILE written
 * as above (mode 0644, so that a collector running as another user reads
 * it) and c->out emptied; for "-" c->out is left for standard output, as
 * without the option. Returns 0 or an exit code.
 */
int cli_output(struct cli *c, const char *path);

/* Write all n bytes at p to fd (retrying after EINTR); 0, or -1 with errno set. */
int cli_write_all(int fd, const char *p, size_t n);

#endif
