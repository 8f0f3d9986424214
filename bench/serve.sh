#!/bin/sh
# nicfit serve under load, against nginx serving the same bytes as a file.
#
# POST /api/plan (the planner runs on every request; /api/calc/fit while a
# build has no planner) and nginx GET of a static file holding that very
# answer, both on loopback, with wrk: CONNECTIONS connections for SECONDS
# seconds each (256 and 30 by default). Prints requests per second, latency,
# errors, nicfit's resident memory before and after, and the ratio
# nicfit / nginx. Fails when a request failed or memory grew by more than
# GROWTH_MIB (16) over the run.
set -u
: "${NICFIT:=build/nicfit}" "${SECONDS_RUN:=30}" "${CONNECTIONS:=256}" "${GROWTH_MIB:=16}"
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
"$NICFIT" serve --port 0 --max-connections 1024 --max-per-ip 1024 2>"$tmp/serve.err" &
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
errors() { # non-2xx responses and socket errors in a wrk report
	awk '/Non-2xx/ { e += $NF } /Socket errors/ { gsub(",", ""); e += $4 + $6 + $8 + $10 } END { print e + 0 }' "$1"
}

# Warm up (threads, allocator arenas), then measure.
wrk -t2 -c"$CONNECTIONS" -d3s -s "$tmp/post.lua" "http://127.0.0.1:$port$path" >/dev/null 2>&1
before=$(rss)
wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency -s "$tmp/post.lua" \
	"http://127.0.0.1:$port$path" >"$tmp/wrk.nicfit" 2>&1
after=$(rss)
peak=$(hwm)
# The HTTP layer alone: a small page asset nicfit keeps in memory (shown, not compared).
wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency "http://127.0.0.1:$port/favicon.svg" \
	>"$tmp/wrk.static" 2>&1
wrk -t2 -c"$CONNECTIONS" -d3s "http://127.0.0.1:$nport/answer.json" >/dev/null 2>&1
wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" --latency "http://127.0.0.1:$nport/answer.json" \
	>"$tmp/wrk.nginx" 2>&1

rn=$(field 'Requests/sec:' "$tmp/wrk.nicfit")
rx=$(field 'Requests/sec:' "$tmp/wrk.nginx")
rs=$(field 'Requests/sec:' "$tmp/wrk.static")
es=$(errors "$tmp/wrk.static")
p99s=$(awk '$1 == "99%" { print $2 }' "$tmp/wrk.static")
en=$(errors "$tmp/wrk.nicfit")
ex=$(errors "$tmp/wrk.nginx")
p99n=$(awk '$1 == "99%" { print $2 }' "$tmp/wrk.nicfit")
p99x=$(awk '$1 == "99%" { print $2 }' "$tmp/wrk.nginx")
bytes=$(wc -c <"$tmp/answer")
echo "serve: $CONNECTIONS connections, ${SECONDS_RUN} s, $threads threads each, $bytes-byte answer"
printf 'nicfit POST %-14s %10.0f req/s  p99 %-8s errors %s\n' "$path" "$rn" "$p99n" "$en"
printf 'nicfit GET  %-14s %10.0f req/s  p99 %-8s errors %s\n' /favicon.svg "$rs" "$p99s" "$es"
printf 'nginx  GET  %-14s %10.0f req/s  p99 %-8s errors %s\n' /answer.json "$rx" "$p99x" "$ex"
awk -v a="$rn" -v b="$rx" 'BEGIN { printf "ratio nicfit/nginx: %.2f\n", (b > 0 ? a / b : 0) }'
echo "nicfit memory: RSS $((before / 1024)) MiB before, $((after / 1024)) MiB after, peak $((peak / 1024)) MiB"
grep -q 'Requests/sec' "$tmp/wrk.nicfit" || { cat "$tmp/wrk.nicfit"; exit 1; }
rc=0
if [ "$en" -ne 0 ] || [ "$es" -ne 0 ]; then
	echo "bench/serve: $en + $es failed requests" >&2
	sed 's/^/# /' "$tmp/wrk.nicfit" >&2
	rc=1
fi
if [ $((after - before)) -gt $((GROWTH_MIB * 1024)) ]; then
	echo "bench/serve: memory grew by $(((after - before) / 1024)) MiB" >&2
	rc=1
fi
exit $rc
