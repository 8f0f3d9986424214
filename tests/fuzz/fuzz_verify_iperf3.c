/*
 * fuzz_verify_iperf3.c - iperf3 text summaries: any bytes are read or refused
 * with an error, and what is read judges and renders (fuzz_verify_common.h).
 */
#include "fuzz_verify_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return run_one(nicfit__verify_iperf3_text, data, size);
}
