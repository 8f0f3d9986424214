#!/bin/sh
# tsan.sh - nicfit serve under ThreadSanitizer: the server built with
# SANITIZE=thread (into $BUILD/tsan, apart from the normal build) answers
# concurrent requests that share its state - the answer cache (hits, misses
# and evictions at once), the CPU budget (requests ended by it), the
# connection table, the page, errors, the log, GET /metrics reading the
# counts they keep - and is stopped with SIGTERM while requests are in
# flight (the budget's cancel). Any report from ThreadSanitizer fails the
# suite. Without a compiler that builds and runs a ThreadSanitizer
# program: one "ok # skip" line.
set -u
: "${BUILD:=build}"
T=$BUILD/tsan
n=0
tmp=$(mktemp -d)
spid=
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null && wait "$spid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; }

cc=${CC:-cc}
printf '#include <pthread.h>\nstatic void *f(void *a) { return a; }\nint main(void) { pthread_t t; pthread_create(&t, 0, f, 0); return pthread_join(t, 0); }\n' >"$tmp/probe.c"
if ! "$cc" -fsanitize=thread -o "$tmp/probe" "$tmp/probe.c" -lpthread >/dev/null 2>&1 ||
   ! "$tmp/probe" >/dev/null 2>&1; then
	echo "1..1"
	echo "ok 1 # skip $cc cannot build or run a ThreadSanitizer program here"
	exit 0
fi
for t in curl; do
	command -v $t >/dev/null 2>&1 || { echo "1..1"; echo "ok 1 # skip $t is not installed"; exit 0; }
done
echo "1..5"
if make -s -j2 B="$T" SANITIZE=thread "$T/nicfit" >"$tmp/build.log" 2>&1; then
	ok "nicfit built with SANITIZE=thread into $T"
else
	no "nicfit built with SANITIZE=thread into $T"
	sed 's/^/# /' "$tmp/build.log" | tail -20
	exit 1
fi

# --cache 1 so that 64 distinct plans evict while others hit; --cpu-budget 20
# so that the port maps are ended by the budget while the rest are answered
TSAN_OPTIONS="log_path=$tmp/tsan exitcode=66 halt_on_error=0" \
	"$T/nicfit" serve --port 0 --threads 4 --cache 1 --cpu-budget 20 --log 2>"$tmp/serve.err" &
spid=$!
port=
i=0
while [ $i -lt 300 ] && [ -z "$port" ]; do
	port=$(sed -n 's|^nicfit serve: listening on http://127\.0\.0\.1:\([0-9]*\)/$|\1|p' "$tmp/serve.err")
	kill -0 "$spid" 2>/dev/null || break
	[ -n "$port" ] || sleep 0.1
	i=$((i + 1))
done
if [ -z "$port" ]; then
	no "the TSan build of serve starts"
	sed 's/^/# /' "$tmp/serve.err" | tail -20
	exit 1
fi
base=http://127.0.0.1:$port

# client K: 40 requests of every kind, the plans spread over 64 settings
client() {
	k=$1 j=0
	while [ $j -lt 40 ]; do
		s=$(( (k * 7 + j) % 64 + 1 ))
		case $((j % 5)) in
		0|1) curl -s -o /dev/null -w '%{http_code}\n' -H 'Content-Type: application/json' \
			--data-binary "{\"server\": \"r740xd\", \"gpu\": \"a40\", \"gpus_per_server\": 2, \"servers\": $s}" \
			"$base/api/plan" ;;
		2) if [ $((k % 2)) = 0 ]; then t=/api?format=text; else t=/metrics; fi
		   curl -s -o /dev/null -w '%{http_code}\n' "$base$t" ;;
		3) curl -s -o /dev/null -w '%{http_code}\n' -H 'Content-Type: application/json' \
			--data-binary '{"nodes": 4096}' "$base/api/cluster?format=csv" ;;
		4) curl -s -o /dev/null -w '%{http_code}\n' "$base/plan?server=r740xd&servers=$s" ;;
		esac
		j=$((j + 1))
	done
}
cp=
k=0
while [ $k -lt 8 ]; do
	client $k >"$tmp/codes.$k" &
	cp="$cp $!"
	k=$((k + 1))
done
# shellcheck disable=SC2086 # the pids are words
wait $cp
total=$(cat "$tmp"/codes.* | wc -l)
good=$(cat "$tmp"/codes.* | grep -c '^\(200\|413\)$')
[ "$total" = 320 ] && [ "$good" = 320 ] &&
	ok "8 clients, 320 requests at once: all answered 200 (or 413 by the budget)" ||
	no "8 clients, 320 requests at once: $good of $total answered 200 or 413 ($(sort "$tmp"/codes.* | uniq -c | tr '\n' ' '))"
grep -q 'cache=HIT' "$tmp/serve.err" && grep -q '" 413 ' "$tmp/serve.err" &&
	ok "... with cache hits and requests ended by the budget among them" ||
	no "... no cache hit or no 413 in the log"

# stop while port maps are being drawn
k=0 cp=
while [ $k -lt 4 ]; do
	curl -s -o /dev/null -m 20 -H 'Content-Type: application/json' --data-binary '{"nodes": 4096}' \
		"$base/api/cluster?format=svg" &
	cp="$cp $!"
	k=$((k + 1))
done
sleep 0.2
kill -TERM "$spid"
wait "$spid"
rc=$?
spid=
# shellcheck disable=SC2086 # the pids are words
wait $cp
[ "$rc" = 0 ] && ok "SIGTERM with requests in flight: exit 0" || no "SIGTERM with requests in flight: exit $rc"
if ls "$tmp"/tsan.* >/dev/null 2>&1 || grep -q 'ThreadSanitizer' "$tmp/serve.err"; then
	no "ThreadSanitizer reported nothing"
	cat "$tmp"/tsan.* 2>/dev/null | grep -E '^(WARNING|SUMMARY|    #[0-3] )' | head -40 | sed 's/^/# /'
else
	ok "ThreadSanitizer reported nothing"
fi
