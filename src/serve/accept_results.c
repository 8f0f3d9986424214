/*
 * accept_results.c - POST /api/accept/results: a plan's acceptance
 * runbook judged on the outputs its script kept, uploaded in the body
 * ({"spec": {...}, "results": {"NAME.txt": "output", ...}}), as `nicfit
 * accept --results DIR` judges a directory. The body is held to the
 * server's body limit like every other (serve.c, --max-body), each
 * output to verify's; the answer is the judged report in the format
 * asked (its JSON's judgement.exit_status is the command's exit status).
 */
#include <stdio.h>
#include <stdlib.h>

#include "serve_int.h"
#include "nicfit/accept.h"

enum MHD_Result serve_handle_accept_results(struct request *rq)
{
	enum MHD_Result ok = MHD_NO;
	struct nicfit_emit *e;
	struct nicfit_error err;
	int rc, status = 0;

	if (!rq->body.len)
		return serve_reply_error(rq, MHD_HTTP_BAD_REQUEST, "data", "request body: empty; "
					 "send {\"spec\": {...}, \"results\": {\"NAME.txt\": "
					 "\"output\", ...}}");
	e = serve_request_emitter(rq, &ok);
	if (!e)
		return ok;
	nicfit_error_clear(&err);
	rc = nicfit_accept_run_results(rq->srv->o->cat, rq->body.data, rq->body.len, e, &status,
				       &err);
	(void)status; /* the report says it: the verdict, judgement.exit_status */
	if (rc) {
		nicfit_emit_free(e);
		return serve_reply_nicfit_error(rq, rc, &err);
	}
	return serve_reply_emit(rq, e);
}
