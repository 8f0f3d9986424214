#!/bin/sh
# nicfit serve under load, against nginx serving the same bytes as a file.
#
# POST /api/plan (the same request every time: after the first, the answer
# cache answers it; SERVE_ARGS="--cache 0" makes the planner run on every
# request; /api/calc/fit while a build has no planner) and nginx GET of a
# static file holding that very
# answer, both on loopback, with wrk: CONNECTIONS connections, SECONDS_RUN
# seconds a run (256 and 10 by default), in ROUNDS rounds (3) of one nicfit
# run then one nginx run, so that the machine's drift over the minutes the
# benchmark takes weighs on both sides of each round's ratio alike. Prints
# each round, then the medians: requests per second, latency (the worst
# p99 of the rounds), errors (all rounds), nicfit's resident memory before
# and after, the median of the rounds' ratios nicfit / nginx, and the CPU
# time (user + system, /proc/PID/stat) each server spent a request, which
# moves less with the machine's state than the rates do. Fails
# when a request failed or memory grew by more than GROWTH_MIB (16) over
# the run.
set -u
: "${NICFIT:=build/nicfit}" "${SECONDS_RUN:=10}" "${CONNECTIONS:=256}" "${GROWTH_MIB:=16}"
: "${ROUNDS:=3}"
threads=$(nproc 2>/dev/null || echo 2)
for t in wrk nginx curl; do
	command -v "$t" >/dev/null 2>&1 || [ -x "/usr/sbin/$t" ] || {
		echo "bench/serve: $t is missing (scripts/deps.sh bench)" >&2
		exit 69
	}
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
tmp=$(mktemp -d)
chmod 755 "$tmp"
spid= npid=
cleanup() {
	[ -n "$spid" ] && kill "$spid" 2>/dev/null && wait "$spid" 2>/dev/null
	[ -n "$npid" ] && kill "$npid" 2>/dev/null && wait "$npid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

: >"$tmp/serve.err"
# shellcheck disable=SC2086 # SERVE_ARGS are words: "--cache 0" measures the planner cold
"$NICFIT" serve --port 0 --max-connections 1024 --max-per-ip 1024 ${SERVE_ARGS:-} 2>"$tmp/serve.err" &
spid=$!
port=
for i in $(seq 100); do
	port=$(sed -n 's|^nicfit serve: listening on http://127\.0\.0\.1:\([0-9]*\)/$|\1|p' "$tmp/serve.err")
	[ -n "$port" ] && break
	sleep 0.1
done
[ -n "$port" ] || { echo "bench/serve: nicfit serve did not start" >&2; cat "$tmp/serve.err" >&2; exit 1; }

body='{"server": "r740xd", "gpu": "a40", "gpus_per_server": 2, "servers": 2, "model": "llama-3-8b", "precision": "bf16", "workload": "training"}'
path=/api/plan
code=$(curl -s -o "$tmp/answer" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
	--data-binary "$body" "http://127.0.0.1:$port$path")
if [ "$code" = 404 ]; then
	path=/api/calc/fit
	body='{"model": "llama-3-8b", "precision": "bf16", "gpus": "2xa40", "context": 8192, "concurrency": 16}'
	code=$(curl -s -o "$tmp/answer" -w '%{http_code}' -X POST -H 'Content-Type: application/json' \
		--data-binary "$body" "http://127.0.0.1:$port$path")
	echo "# this build has no POST /api/plan: measuring POST $path"
fi
[ "$code" = 200 ] || { echo "bench/serve: POST $path answered $code" >&2; exit 1; }
mkdir -p "$tmp/www"
cp "$tmp/answer" "$tmp/www/answer.json"
chmod -R a+rX "$tmp/www"

# nginx on the first free port from 18080, as many workers as nicfit has threads.
nport=18080
while [ $nport -lt 18180 ]; do
	cat >"$tmp/nginx.conf" <<CONF
worker_processes $threads;
daemon off;
pid $tmp/nginx.pid;
error_log $tmp/nginx.err;
events { worker_connections 2048; }
http {
	access_log off;
	client_body_temp_path $tmp/body;
	proxy_temp_path $tmp/proxy;
	fastcgi_temp_path $tmp/fastcgi;
	uwsgi_temp_path $tmp/uwsgi;
	scgi_temp_path $tmp/scgi;
	types { application/json json; }
	server {
		listen 127.0.0.1:$nport;
		root $tmp/www;
	}
}
CONF
	"$NGINX" -p "$tmp" -c "$tmp/nginx.conf" 2>>"$tmp/nginx.start" &
	npid=$!
	sleep 0.5
	if kill -0 "$npid" 2>/dev/null && curl -sf -o /dev/null "http://127.0.0.1:$nport/answer.json"; then
		break
	fi
	wait "$npid" 2>/dev/null
	npid=
	nport=$((nport + 1))
done
[ -n "$npid" ] || { echo "bench/serve: nginx did not start" >&2; cat "$tmp/nginx.start" >&2; exit 1; }

esc=$(printf '%s' "$body" | sed 's/\\/\\\\/g; s/"/\\"/g')
cat >"$tmp/post.lua" <<LUA
wrk.method = "POST"
wrk.body = "$esc"
wrk.headers["Content-Type"] = "application/json"
LUA

rss() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$spid/status"; }
hwm() { sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$spid/status"; }
field() { awk -v k="$1" '$1 == k { print $2; exit }' "$2"; }
# CPU ticks (user + system) of nicfit, and of nginx's workers together
ticks_nicfit() { awk '{ print $14 + $15 }' "/proc/$spid/stat"; }
ticks_nginx() {
	t=0
	for p in $(pgrep -P "$npid"); do t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat"))); done
	echo "$t"
}
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
requests() { awk '/requests in/ { print $1; exit }' "$1"; }
errors() { # non-2xx responses and socket errors in a wrk report
	awk '/Non-2xx/ { e += $NF } /Socket errors/ { gsub(",", ""); e += $4 + $6 + $8 + $10 } END { print e + 0 }' "$1"
}

# Warm up (threads, allocator arenas, nginx's workers), then measure in rounds.
wrk -t2 -c"$CONNECTIONS" -d3s -s "$tmp/post.lua" "http://127.0.0.1:$port$path" >/dev/null 2>&1
wrk -t2 -c"$CONNECTIONS" -d3s "http://127.0.0.1:$nport/answer.json" >/dev/null 2>&1
before=$(rss)
: >"$tmp/rounds"
r=1
while [ $r -le "$ROUNDS" ]; do
	t0=$(ticks_nicfit)
	wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency -s "$tmp/post.lua" \
		"http://127.0.0.1:$port$path" >"$tmp/wrk.nicfit.$r" 2>&1
	t1=$(ticks_nicfit)
	u0=$(ticks_nginx)
	wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency "http://127.0.0.1:$nport/answer.json" \
		>"$tmp/wrk.nginx.$r" 2>&1
	u1=$(ticks_nginx)
	grep -q 'Requests/sec' "$tmp/wrk.nicfit.$r" || { cat "$tmp/wrk.nicfit.$r"; exit 1; }
	grep -q 'Requests/sec' "$tmp/wrk.nginx.$r" || { cat "$tmp/wrk.nginx.$r"; exit 1; }
	echo "$r $(field 'Requests/sec:' "$tmp/wrk.nicfit.$r") $(field 'Requests/sec:' "$tmp/wrk.nginx.$r")" \
		"$(errors "$tmp/wrk.nicfit.$r") $(errors "$tmp/wrk.nginx.$r")" \
		"$(awk '$1 == "99%" { print $2 }' "$tmp/wrk.nicfit.$r")" \
		"$(awk '$1 == "99%" { print $2 }' "$tmp/wrk.nginx.$r")" \
		"$(awk -v t=$((t1 - t0)) -v n="$(requests "$tmp/wrk.nicfit.$r")" -v hz="$hz" \
			'BEGIN { printf "%.1f", (n > 0 ? t * 1e6 / hz / n : 0) }')" \
		"$(awk -v t=$((u1 - u0)) -v n="$(requests "$tmp/wrk.nginx.$r")" -v hz="$hz" \
			'BEGIN { printf "%.1f", (n > 0 ? t * 1e6 / hz / n : 0) }')" >>"$tmp/rounds"
	r=$((r + 1))
done
after=$(rss)
peak=$(hwm)
# The HTTP layer alone: a small page asset nicfit keeps in memory (shown, not compared).
wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency "http://127.0.0.1:$port/favicon.svg" \
	>"$tmp/wrk.static" 2>&1

# wrk's latency as milliseconds, for the worst of the rounds
ms() { awk '{ v = $1 + 0; if ($1 ~ /us$/) v /= 1000; else if ($1 ~ /[^m]s$/) v *= 1000; printf "%.2fms\n", v }'; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
rn=$(awk '{ print $2 }' "$tmp/rounds" | median)
rx=$(awk '{ print $3 }' "$tmp/rounds" | median)
ratio=$(awk '{ print ($3 > 0 ? $2 / $3 : 0) }' "$tmp/rounds" | median)
en=$(awk '{ e += $4 } END { print e + 0 }' "$tmp/rounds")
ex=$(awk '{ e += $5 } END { print e + 0 }' "$tmp/rounds")
p99n=$(awk '{ print $6 }' "$tmp/rounds" | ms | sort -g | tail -1)
p99x=$(awk '{ print $7 }' "$tmp/rounds" | ms | sort -g | tail -1)
rs=$(field 'Requests/sec:' "$tmp/wrk.static")
es=$(errors "$tmp/wrk.static")
p99s=$(awk '$1 == "99%" { print $2 }' "$tmp/wrk.static")
bytes=$(wc -c <"$tmp/answer")
echo "serve: $CONNECTIONS connections, $ROUNDS rounds of ${SECONDS_RUN} s a side, $threads threads each, $bytes-byte answer"
awk '{ printf "round %d: nicfit %.0f req/s, nginx %.0f req/s, ratio %.2f; CPU a request: nicfit %s us, nginx %s us\n", $1, $2, $3, ($3 > 0 ? $2 / $3 : 0), $8, $9 }' "$tmp/rounds"
printf 'nicfit POST %-14s %10.0f req/s  p99 %-8s errors %s\n' "$path" "$rn" "$p99n" "$en"
printf 'nicfit GET  %-14s %10.0f req/s  p99 %-8s errors %s\n' /favicon.svg "$rs" "$p99s" "$es"
printf 'nginx  GET  %-14s %10.0f req/s  p99 %-8s errors %s\n' /answer.json "$rx" "$p99x" "$ex"
awk -v r="$ratio" 'BEGIN { printf "ratio nicfit/nginx: %.2f (median of the rounds)\n", r }'
echo "CPU a request (user + system, median of the rounds): nicfit $(awk '{ print $8 }' "$tmp/rounds" | median) us," \
	"nginx $(awk '{ print $9 }' "$tmp/rounds" | median) us"
echo "nicfit memory: RSS $((before / 1024)) MiB before, $((after / 1024)) MiB after, peak $((peak / 1024)) MiB"
rc=0
if [ "$en" -ne 0 ] || [ "$es" -ne 0 ]; then
	echo "bench/serve: $en + $es failed requests" >&2
	for f in "$tmp"/wrk.nicfit.*; do sed 's/^/# /' "$f" >&2; done
	rc=1
fi
if [ $((after - before)) -gt $((GROWTH_MIB * 1024)) ]; then
	echo "bench/serve: memory grew by $(((after - before) / 1024)) MiB" >&2
	rc=1
fi
exit $rc
