/*
 * output.h - where a command's document goes when it is not standard
 * output (output.c): `--output FILE`, written so that a reader never sees
 * half a file. node_exporter's textfile collector reads *.prom files in
 * its directory at every scrape; a file written in place could be read
 * while it is being written. Internal to the CLI.
 */
#ifndef NICFIT_CLI_OUTPUT_H
#define NICFIT_CLI_OUTPUT_H

#include <stddef.h>

#include "nicfit/buf.h"

/*
 * Write data to path atomically: a temporary file in the same directory
 * (".NAME.XXXXXX", a name the textfile collector skips: it reads only
 * *.prom), flushed to disk, mode 0644, then renamed over path. Returns 0,
 * or an exit code after printing one line naming path (66 when its
 * directory cannot be written, 70 when the write fails midway).
 */
int cli_write_atomic(const char *path, const struct nicfit_buf *data);

/* Write all n bytes at p to fd (retrying after EINTR); 0, or -1 with errno set. */
int cli_write_all(int fd, const char *p, size_t n);

#endif
