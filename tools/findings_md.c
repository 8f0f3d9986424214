/*
 * findings_md.c - write docs/findings.md from the registry of finding
 * codes (build tool; `make docs/findings.md`).
 */
#include <stdio.h>

#include "nicfit/finding.h"

int main(void)
{
	struct nicfit_buf b;
	int rc;

	nicfit_buf_init(&b, NICFIT_BUF_MAX_DEFAULT);
	rc = nicfit_codes_render_md(&b);
	if (!rc && fwrite(b.data, 1, b.len, stdout) != b.len)
		rc = 1;
	nicfit_buf_release(&b);
	return rc ? 1 : 0;
}
