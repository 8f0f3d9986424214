/*
 * fuzz_fleet.c - the fleet's input layer (pdsh/clush/srun/Ansible streams,
 * the JSON tokenizer, host lists) and the analysis and rendering of
 * whatever it accepted. Input: a stream as `nicfit fleet -` reads it,
 * fed in two pieces split where the first byte says; a first line
 * "expect: LIST" is also used as the --expect host list.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nicfit/emit.h"
#include "nicfit/fleet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void render(struct nicfit_fleet *fl, enum nicfit_format f)
{
	struct nicfit_emit *e = nicfit_emit_new(f, 0, 0);
	struct nicfit_buf out;

	if (!e)
		return;
	nicfit_buf_init(&out, 0);
	if (nicfit_fleet_render(e, fl, 0) || nicfit_emit_finish(e, &out))
		abort(); /* an analysed fleet always renders */
	nicfit_buf_release(&out);
	nicfit_emit_free(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nicfit_fleet_limits lim;
	struct nicfit_fleet_opts o;
	struct nicfit_fleet *fl;
	struct nicfit_error err;
	size_t cut = size ? data[0] % (size + 1) : 0, i;
	char expect[256];

	memset(&lim, 0, sizeof(lim));
	lim.max_hosts = 2000;
	lim.max_doc_bytes = 1 << 20;
	memset(&o, 0, sizeof(o));
	if (size > 8 && !memcmp(data, "expect: ", 8)) {
		for (i = 8; i < size && i - 8 < sizeof(expect) - 1 && data[i] != '\n'; i++)
			expect[i - 8] = (char)data[i];
		expect[i - 8] = '\0';
		o.expect = expect;
	}
	if (nicfit_fleet_new(&fl, &lim))
		return 0;
	nicfit_error_clear(&err);
	if (!nicfit_fleet_begin(fl, "fuzz", (size & 1) ? "fallback" : NULL, &err) &&
	    !nicfit_fleet_feed(fl, data, cut, &err) &&
	    !nicfit_fleet_feed(fl, data + cut, size - cut, &err) && !nicfit_fleet_end(fl, &err)) {
		for (i = 0; i < nicfit_fleet_nproblems(fl); i++)
			if (!nicfit_fleet_problem(fl, i)->where.msg[0])
				abort(); /* every problem says something */
		nicfit_error_clear(&err);
		if (!nicfit_fleet_analyze(fl, &o, &err)) {
			render(fl, NICFIT_FMT_JSON);
			render(fl, NICFIT_FMT_TEXT);
			render(fl, NICFIT_FMT_MD);
			render(fl, NICFIT_FMT_CSV);
		} else if (!err.msg[0]) {
			abort();
		}
	} else if (!err.msg[0]) {
		abort();
	}
	nicfit_fleet_free(fl);
	return 0;
}
