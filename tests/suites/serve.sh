#!/bin/sh
# Web server tests (TAP): `nicfit serve --port 0` on loopback, then
#  - the API: every answer equals the CLI's --json document for the same request;
#  - hostile requests: malformed and deep JSON, huge and chunked bodies,
#    wrong media types and methods, path traversal, a foreign Host, slow clients;
#  - shutdown on SIGTERM and SIGINT, bad options;
#  - the page in headless Chromium: Debian's chromium for a shared link,
#    playwright-core and axe-core (npm, installed under $BUILD/npm) for
#    clicking, every screen width and accessibility, the server and GPU
#    menus against `catalog list` (tests/browser/catalog.js). Without
#    npm or chromium the browser tests fail, they are never skipped.
# Screenshots and the printed quote go to $BUILD/test-artifacts/.
set -u
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
PLAYWRIGHT_VERSION=1.65.1
AXE_VERSION=4.11.0
n=0
tmp=$(mktemp -d)
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

pass() { n=$((n + 1)); echo "ok $n - $1"; }
fail() { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
check() { # description command...
	d=$1; shift
	if "$@" >/dev/null 2>&1; then pass "$d"; else fail "$d"; fi
}

# Start a server; sets $pid, $base. Arguments go to nicfit serve.
start() {
	nstart=$((${nstart:-0} + 1))
	log=$tmp/serve.$nstart.err
	: >"$log"
	"$NICFIT" serve --port 0 "$@" 2>"$log" &
	pid=$!
	pids="$pids $pid"
	port=
	i=0
	while [ $i -lt 100 ]; do
		port=$(sed -n 's|^nicfit serve: listening on http://127\.0\.0\.1:\([0-9]*\)/$|\1|p' "$log")
		[ -n "$port" ] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	base=http://127.0.0.1:$port
	[ -n "$port" ]
}

# req METHOD PATH [curl args...]: body in $tmp/body, headers in $tmp/head, status in $code.
req() {
	m=$1 p=$2; shift 2
	code=$(curl -s -m 20 -o "$tmp/body" -D "$tmp/head" -w '%{http_code}' -X "$m" "$@" "$base$p")
}
post() { # PATH JSON [curl args]
	p=$1 b=$2; shift 2
	req POST "$p" -H 'Content-Type: application/json' --data-binary "$b" "$@"
}
is_code() { [ "$code" = "$1" ]; }
header() { tr -d '\r' <"$tmp/head" | grep -i "^$1:" | head -1 | sed 's/^[^:]*: *//'; }
err_has() { jq -e --arg s "$1" '(.error | type == "string") and (.error | contains($s)) and (.code | type == "string")' "$tmp/body" >/dev/null; }
same_as_cli() { # the response body equals what the CLI prints for "$@" (audit exits 1 or 2)
	"$NICFIT" "$@" >"$tmp/cli" 2>/dev/null
	[ -s "$tmp/cli" ] && cmp -s "$tmp/body" "$tmp/cli"
}

if ! start --timeout 2; then
	fail "nicfit serve --port 0 starts and prints its address" "$(cat "$log")"
	exit 1
fi
pass "nicfit serve --port 0 starts on 127.0.0.1:$port"

# ---- the API answers what the CLI prints ----
req GET /api
check "GET /api lists the routes" jq -e '.schema == "nicfit.api.v1" and (.routes | length) > 2' "$tmp/body"
for f in text md csv; do
	req GET "/api?format=$f"
	check "GET /api?format=$f lists the routes" grep -q '/api/plan' "$tmp/body"
done
post /api/calc/pcie '{"gen": 3, "width": 16}'
check "POST /api/calc/pcie answers 200" is_code 200
check "... with exactly the CLI's --json document" same_as_cli --json calc pcie --gen 3 --width 16
check "... as application/json" test "$(header content-type)" = application/json
post /api/calc/fit '{"model": "llama-3-8b", "precision": "bf16", "gpus": "2xa40", "context": 8192}'
check "POST /api/calc/fit (catalog look-ups) equals the CLI" same_as_cli --json calc fit --model llama-3-8b --precision bf16 --gpus 2xa40 --context 8192
post /api/calc/allreduce '{"size": "16GB", "nodes": 2, "link": "100G", "assume": ["link_factor=0.9"]}'
check "arrays become repeated keys (assume) as on the command line" same_as_cli --json calc allreduce --size 16GB --nodes 2 --link 100G --assume link_factor=0.9
post '/api/calc/link?format=text' '{"speed": "100G", "proto": "roce"}'
check "?format=text gives the CLI's text" same_as_cli calc link --speed 100G --proto roce
post '/api/calc/link?pretty=1' '{"speed": "100G"}'
check "?pretty=1 gives the CLI's --pretty JSON" same_as_cli --json --pretty calc link --speed 100G
post '/api/calc/link?format=md' '{"speed": "25G"}'
check "?format=md gives the CLI's Markdown" same_as_cli --format md calc link --speed 25G
# every calculator's Markdown answer (heading, figures, formula) is one document
while IFS='|' read -r name body args; do
	post "/api/calc/$name?format=md" "$body"
	# shellcheck disable=SC2086 # the options are words
	check "calc $name: ?format=md is the CLI's --format md" same_as_cli --format md calc $name $args
done <<'CALCS'
pcie|{"gen": 3, "width": 16, "mps": 512, "assume": ["read_cpl=64"]}|--gen 3 --width 16 --mps 512 --assume read_cpl=64
link|{"speed": "EDR"}|--speed EDR
nic|{"part": "MCX621102AE-ADAT", "slot": "gen3x8"}|--part MCX621102AE-ADAT --slot gen3x8
load|{"size": "40GB", "link": "10G", "storage_gbps": 4}|--size 40GB --link 10G --storage-gbps 4
fit|{"model": "llama-3-70b", "precision": "fp8", "gpus": "1xa40"}|--model llama-3-70b --precision fp8 --gpus 1xa40
allreduce|{"size": "140GB", "nodes": 8, "link": "HDR", "nics_per_node": 2, "sharp": true}|--size 140GB --nodes 8 --link HDR --nics-per-node 2 --sharp
stream|{"tokens_per_s": 50, "concurrency": 1000, "link": "10G"}|--tokens-per-s 50 --concurrency 1000 --link 10G
step|{"model": "llama-3-8b", "gpu": "a40", "nodes": 2, "gpus_per_node": 2, "link": "100G"}|--model llama-3-8b --gpu a40 --nodes 2 --gpus-per-node 2 --link 100G
step|{"model": "llama-3-70b", "gpu": "h100-sxm5-80gb", "nodes": 1, "workload": "prefill", "context": 8192, "disaggregated": true, "link": "400G", "proto": "ib", "nics_per_node": 8}|--model llama-3-70b --gpu h100-sxm5-80gb --nodes 1 --workload prefill --context 8192 --disaggregated --link 400G --proto ib --nics-per-node 8
CALCS
post '/api/calc/pcie?format=md' '{"gen": 4, "width": 8}'
check "... and it is Markdown: a heading, the figures' table, the formula" \
	sh -c 'head -1 "$1" | grep -q "^# PCIe Gen4 x8 moves" && grep -q "^| raw | " "$1" && grep -q "^## Formula" "$1"' sh "$tmp/body"
spec='{"server": "r740xd", "gpu": "a40", "gpus_per_server": 2, "servers": 2, "model": "llama-3-8b", "precision": "bf16", "workload": "training"}'
post /api/plan "$spec"
check "POST /api/plan answers 200" is_code 200
check "... with exactly plan --json for the same flags" same_as_cli --json plan --server r740xd --gpu a40 --gpus-per-server 2 --servers 2 --model llama-3-8b --precision bf16 --workload training
check "... a nicfit.plan.v1 document with a BOM" jq -e '.schema == "nicfit.plan.v1" and (.bom.lines | length) > 0' "$tmp/body"
printf '%s' "$spec" >"$tmp/spec.json"
check "... and what plan --spec FILE prints" same_as_cli --json plan --spec "$tmp/spec.json"
post '/api/plan?format=svg' "$spec"
check "?format=svg is the plan's picture" same_as_cli --format svg plan --spec "$tmp/spec.json"
check "... as image/svg+xml" test "$(header content-type)" = image/svg+xml
post '/api/plan?format=csv' "$spec"
check "?format=csv is the plan's BOM as CSV" same_as_cli --format csv plan --spec "$tmp/spec.json"
post /api/plan '{"example": "capped"}'
check "a named example runs as plan --example" same_as_cli --json plan --example=capped
req GET /api/plan/examples
check "GET /api/plan/examples lists the examples with their requests" jq -e '(.examples | length) > 3 and (.examples[0].spec.server | type) == "string"' "$tmp/body"
post /api/plan '{"server": "r740xdx", "gpu": "a40"}'
check "an unknown server is 404 with a suggestion" err_has "r740xd"
post /api/plan '{"server": "r740xd", "gpu": "a40", "servers": -1}'
check "a bad count in a plan is 400" is_code 400
post /api/plan '{"gpu": "a40",
 "workload": "trainin"}'
check "a bad value in a plan body is blamed at its own key and line:column" err_has "body:2:14: workload: unknown workload 'trainin'"
post /api/cluster '{"nodes": 4, "switch": "qm9701"}'
check "an unknown switch in a cluster body is named at its key and position" err_has "body:1:24: switch: unknown switch 'qm9701'"
cspec='{"nodes": 16, "gpus_per_node": 8, "nic_gbps": "400G", "rail_optimized": true}'
post /api/cluster "$cspec"
check "POST /api/cluster equals cluster --json" same_as_cli --json cluster --nodes 16 --gpus-per-node 8 --nic-gbps 400G --rail-optimized
post '/api/cluster?format=svg' "$cspec"
check "... and its picture with ?format=svg" same_as_cli --format svg cluster --nodes 16 --gpus-per-node 8 --nic-gbps 400G --rail-optimized
post /api/cluster '{"nodes": 0}'
check "a cluster of 0 nodes is 400" is_code 400
post /api/accept '{"example": "training", "backend_cards": 2, "hosts": "gpu[1-2]", "launcher": "srun"}'
check "POST /api/accept equals accept --json" same_as_cli --json accept --example=training --backend-cards 2 --hosts 'gpu[1-2]' --launcher srun
post '/api/accept?format=md' '{"example": "training"}'
check "... and its Markdown with ?format=md" same_as_cli --format md accept --example=training
post /api/accept '{"example": "training",
 "hosts": "gpu;1"}'
check "a host name accept refuses is blamed at its key and line:column" err_has "body:2:11: hosts: 'gpu;1' is not a host name"
# the runbook judged on uploaded outputs: the same report as accept --results on their folder
rdir=tests/fixtures/accept/training-rail
(cd "$rdir" && for f in *.txt; do jq -Rs --arg n "$f" '{($n): .}' "$f"; done) |
	jq -s '{spec: {example: "training", backend_cards: 2, servers: 3}, results: add}' >"$tmp/results.json"
req POST '/api/accept/results?format=text' -H 'Content-Type: application/json' --data-binary @"$tmp/results.json"
same_upload() { # the body equals accept --results on the folder, its results label aside
	"$NICFIT" accept --example=training --backend-cards 2 --servers 3 --results "$rdir" |
		sed "s|results $rdir)|results uploaded, 9 files)|; s|$rdir/||" >"$tmp/cli"
	is_code 200 && cmp -s "$tmp/body" "$tmp/cli"
}
check "POST /api/accept/results judges uploaded outputs as accept --results does" same_upload
post /api/accept/results '{"spec": {"example": "training"}, "results": {"allreduce.txt": 5}}'
check "... an output that is not a string is 400 at its line:column" err_has "request body:1:64: results: each file's output must be a string"
req GET /api/decode/MCX653105A-HDAT
check "GET /api/decode/PART equals decode --json" same_as_cli --json decode MCX653105A-HDAT
req GET '/api/decode/mcx556a-ecat?format=text'
check "... and decode's text with ?format=text" same_as_cli decode mcx556a-ecat
req GET /api/decode/XYZ-123
check "an unreadable part number is 400 saying why" err_has "not a part number"
req GET "/api/decode/$(head -c 300 /dev/zero | tr '\0' A)"
check "a 300-character part number is 400" is_code 400
req GET /api/catalog
check "GET /api/catalog equals catalog list --json" same_as_cli --json catalog list
req GET /api/catalog/gpus
check "GET /api/catalog/gpus equals catalog list gpus --json" same_as_cli --json catalog list gpus
req GET /api/catalog/nics/MCX556A-ECAT
check "GET /api/catalog/nics/ID equals catalog show ID --json" same_as_cli --json catalog show mcx556a-ecat
req GET /api/catalog/servers/mcx556a-ecat
check "an id of another kind is 404" is_code 404

# ---- errors are JSON with the status that fits ----
post /api/calc/link '{"proto": "tcp"}'
check "a missing setting is 400" is_code 400
check "... with {\"error\": ..., \"code\": ...} naming it" err_has "missing speed"
post /api/calc/pcie '{"gen": 3, "widht": 16}'
check "an unknown key is 400 with a suggestion" err_has "width"
post /api/calc/pcie '{"gen": 9, "width": 16}'
check "an absurd value is 400" is_code 400
post /api/calc/fit '{"model": "llama-9", "precision": "bf16", "gpus": "2xa40"}'
check "an unknown model is 404" is_code 404
post /api/calc/nic '{"part": "no-such-card", "slot": "gen3x16"}'
check "an unreadable part number is 400" is_code 400
post /api/calc/pcei '{}'
check "an unknown calculator is 404 with a suggestion" err_has "pcie"
req GET /api/catalog/widgets
check "an unknown catalog kind is 404" is_code 404
req GET /no/such/page
check "an unknown path is 404 JSON" err_has "nothing at"
post '/api/calc/pcie?format=yaml' '{"gen": 3, "width": 16}'
check "an unknown format is 400" is_code 400
post '/api/calc/pcie?format=svg' '{"gen": 3, "width": 16}'
check "svg where there is no picture is 400" is_code 400
req GET /api/audit
check "GET /api/audit is off without --allow-audit (404)" is_code 404

# ---- the page ----
req GET /
check "GET / is the page" grep -q '<script src="/app.js"' "$tmp/body"
check "... as text/html" test "$(header content-type)" = "text/html; charset=utf-8"
csp=$(header content-security-policy)
check "... with a CSP of default-src 'self'" sh -c "echo \"\$1\" | grep -q \"^default-src 'self'\"" - "$csp"
check "... and nosniff" test "$(header x-content-type-options)" = nosniff
check "... and frame-ancestors 'none'" sh -c "echo \"\$1\" | grep -q \"frame-ancestors 'none'\"" - "$csp"
check "the page loads nothing from outside" sh -c "! grep -Eiq '(src|href)=\"(https?:)?//' '$tmp/body'"
for t in plan cluster decode calc; do
	req GET "/$t?server=r740xd"
	check "GET /$t is the page" is_code 200
done
req GET /app.js
etag=$(header etag)
check "assets carry an ETag" test -n "$etag"
check "... and JavaScript's type" test "$(header content-type)" = "text/javascript; charset=utf-8"
req GET /app.js -H "If-None-Match: $etag"
check "If-None-Match answers 304" is_code 304
req HEAD /app.css
check "HEAD works" is_code 200
check "API answers are not cached" sh -c "curl -s -D - -o /dev/null $base/api | grep -qi '^cache-control: no-store'"

# ---- hostile requests ----
post /api/calc/pcie '{"gen": 3, "width":'
check "malformed JSON is 400" is_code 400
check "... naming line and column" err_has "body:1:"
post /api/calc/pcie '[3, 16]'
check "a JSON array instead of an object is 400" is_code 400
post /api/calc/pcie '{"gen": 3, "gen": 4, "width": 16}'
check "duplicate keys are 400" is_code 400
post /api/calc/pcie '{"gen": {"deep": 1}, "width": 16}'
check "an object where a value belongs is 400" is_code 400
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "["; }' >"$tmp/deep"
post /api/calc/pcie "@$tmp/deep"
check "100,000 nested arrays are 400, not a crash" is_code 400
printf '{"gen": "3\000", "width": 16}' >"$tmp/nul"
post /api/calc/pcie "@$tmp/nul"
check "a NUL in the body is 400" is_code 400
head -c 1100000 /dev/zero | tr '\0' ' ' >"$tmp/big"
post /api/calc/pcie "@$tmp/big"
check "a 1.1 MB body is 413" is_code 413
check "... with a JSON error" err_has "limit"
post /api/calc/pcie "@$tmp/big" -H 'Transfer-Encoding: chunked'
check "a 1.1 MB chunked body (no length) is 413" is_code 413
{ printf '{"gen": 3, "width": 16}'; head -c 1000000 /dev/zero | tr '\0' ' '; } >"$tmp/padded"
post /api/calc/pcie "@$tmp/padded"
check "a 1.0 MB body under the limit is answered" is_code 200
req POST /api/calc/pcie -H 'Content-Type: text/plain' --data-binary '{"gen": 3, "width": 16}'
check "text/plain is 415" is_code 415
req POST /api/calc/pcie --data-binary 'gen=3&width=16'
check "a form post is 415" is_code 415
post /api/calc/pcie '{"gen": 3, "width": 16}' -H 'Content-Type: application/json; charset=utf-8'
check "application/json with a charset is accepted" is_code 200
req GET /api/calc/pcie
check "GET on a POST route is 405" is_code 405
check "... with Allow: POST" test "$(header allow)" = POST
req DELETE /api/catalog
check "DELETE is 405" is_code 405
req PUT /
check "PUT on the page is 405" is_code 405
post / '{}'
check "POST on the page is 405" is_code 405
req OPTIONS /api/plan -H 'Origin: http://evil.example'
check "a CORS preflight gets no CORS grant" sh -c "! grep -qi '^access-control-allow' '$tmp/head'"
for p in '/../../../../etc/passwd' '/%2e%2e/%2e%2e/etc/passwd' '/app.js/../../../etc/passwd' \
	'/..%2f..%2fetc%2fpasswd' '/assets/app.js' '/src/serve/assets/app.js' '//etc/passwd' '/index.html%00.js'; do
	req GET "$p" --path-as-is
	if [ "$code" = 404 ] && ! grep -q 'root:' "$tmp/body"; then pass "traversal $p is 404"; else fail "traversal $p is 404" "got $code"; fi
done
req GET /api/catalog -H 'Host: evil.example'
check "a foreign Host (DNS rebinding) is 400" is_code 400
req GET /api/catalog -H 'Host: localhost:1'
check "Host: localhost is accepted" is_code 200
head -c 100000 /dev/zero | tr '\0' 'a' >"$tmp/hdr"
req GET /api -H "X-Big: $(cat "$tmp/hdr")"
check "a 100 KB header is refused" sh -c "[ '$code' -ge 400 ] && [ '$code' -lt 500 ]"
head -c 12000 /dev/zero | tr '\0' 'a' >"$tmp/hdr"
post /api/plan '{"server": "r740xd", "gpu": "a40", "gpus_per_server": 2}' -H "Cookie: big=$(cat "$tmp/hdr")"
check "a 12 KB cookie (browsers send them) is read" is_code 200
# Headers of 8-64 kB: each gets a status line; up to the 15 KiB limit 200,
# past it 431 with the JSON error while the connection memory has room for
# it, then libmicrohttpd's own 431. Not sent: about 31.9-32.4 kB, where
# libmicrohttpd 0.9.75 holds the headers but has no room left for any
# answer's headers and closes the connection (docs/nicfit-serve.1, LIMITS).
for size in 8000 12000 15000 15500 16000 20000 24000 28000 31000 33000 40000 48000 64000; do
	head -c "$size" /dev/zero | tr '\0' 'a' >"$tmp/hdr"
	req GET /api/catalog -H "X-Big: $(cat "$tmp/hdr")"
	if [ "$size" -le 15000 ]; then want=200; else want=431; fi
	if [ "$code" = "$want" ] && { [ "$size" -le 15000 ] || [ "$size" -gt 32768 ] || err_has "over the limit of 15360 bytes"; }; then
		pass "a $size-byte header gets $want"
	else
		fail "a $size-byte header gets $want" "got $code"
	fi
done
head -c 15500 /dev/zero | tr '\0' 'a' >"$tmp/hdr"
req GET /api/catalog -H "Cookie: big=$(cat "$tmp/hdr")"
check "a 15.5 KB cookie gets 431 with the JSON error" sh -c "[ '$code' = 431 ] && jq -e '.code == \"limit\"' '$tmp/body'"
node -e '
const net = require("net");
const s = net.connect(Number(process.argv[1]), "127.0.0.1", () => s.write("GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "));
const t = setTimeout(() => { console.log("still open"); process.exit(1); }, 15000);
let answer = "";
s.on("data", (d) => { answer += d; });
s.on("close", () => { clearTimeout(t); process.exit(answer.startsWith("HTTP/1.1 408 ") ? 0 : 1); });
s.on("error", () => {});
' "$port" >/dev/null 2>&1 &
slow=$!
urls=
i=0
while [ $i -lt 64 ]; do urls="$urls $base/api/calc/pcie"; i=$((i + 1)); done
# shellcheck disable=SC2086
curl -s -m 30 --parallel --parallel-max 32 -X POST -H 'Content-Type: application/json' \
	-d '{"gen": 4, "width": 16}' -o /dev/null -w '%{http_code}\n' $urls >"$tmp/codes" 2>/dev/null
check "64 concurrent requests (32 at once) all answer 200" sh -c "[ \$(grep -c '^200$' '$tmp/codes') -eq 64 ]"
check "a client that stops sending is answered 408 and cut off after --timeout" wait "$slow"
req GET /api
check "after all that the server still answers" is_code 200

# ---- shutdown ----
kill -TERM "$pid"
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
wait "$pid"
rc=$?
check "SIGTERM stops the server with exit 0" test "$rc" = 0
check "... saying so" grep -q 'stopping' "$log"
if start; then
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	check "SIGINT stops the server with exit 0" test "$rc" = 0
else
	fail "second server starts"
fi
"$NICFIT" serve --bind 'not-an-address.example' --port 0 >/dev/null 2>"$tmp/e"
rc=$?
check "--bind with a name is a usage error (64)" test "$rc" = 64
check "... in one line" test "$(wc -l <"$tmp/e")" = 1

# ---- the audit of this host, only with --allow-audit ----
sh tests/fixtures/gen.sh "$tmp/sysfs" r740xd
if start --allow-audit --sysfs "$tmp/sysfs/r740xd"; then
	req GET /api/audit
	check "with --allow-audit GET /api/audit equals audit --json" same_as_cli --json audit --sysfs "$tmp/sysfs/r740xd"
	req GET '/api/audit?format=text'
	check "... and audit's text with ?format=text" same_as_cli audit --sysfs "$tmp/sysfs/r740xd"
	check "... listed in GET /api" sh -c "curl -s $base/api | jq -e '[.routes[].path] | index(\"/api/audit\")' >/dev/null"
	post /api/audit '{}'
	check "POST /api/audit is 405" is_code 405
	kill "$pid"
	wait "$pid"
else
	fail "server with --allow-audit starts"
fi

# ---- raw requests: framing, bytes JSON cannot hold, the log ----
raw() { # NAME BYTES (printf format): the answer's status line in $tmp/NAME.status, body in $tmp/NAME.body
	printf "$2" >"$tmp/$1.req"
	node tests/suites/http.js raw "$port" "$tmp/$1.req" >"$tmp/$1.out" 2>/dev/null
	head -1 "$tmp/$1.out" >"$tmp/$1.status"
	tail -n +2 "$tmp/$1.out" >"$tmp/$1.body"
}
raw_is() { # NAME CODE: the status is CODE and the body one JSON error document
	grep -q "^HTTP/1.1 $2 " "$tmp/$1.status" &&
		jq -e '(.error | type == "string") and (.code | type == "string")' "$tmp/$1.body" >/dev/null
}
if start --timeout 3 --log; then
	raw dupcl 'POST /api/calc/pcie HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 23\r\nContent-Length: 5\r\n\r\n{"gen": 3, "width": 16}'
	check "two different Content-Lengths are 400" raw_is dupcl 400
	raw clte 'POST /api/calc/pcie HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 23\r\nTransfer-Encoding: chunked\r\n\r\n{"gen": 3, "width": 16}'
	check "Content-Length with Transfer-Encoding is 400" raw_is clte 400
	raw gzip 'POST /api/calc/pcie HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\nxxxx'
	check "Transfer-Encoding: gzip is 501 at once, not a hang" raw_is gzip 501
	raw nul 'GET /index.html\000.js HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
	check "a raw NUL in the target is 400 (not index.html)" raw_is nul 400
	raw ff 'GET /%%ff HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
	check "GET /%ff (invalid UTF-8 in the message) is answered 404 JSON" raw_is ff 404
	raw calcff 'POST /api/calc/%%ff%%fe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'
	check "a calculator name of bad bytes is answered 404 JSON" raw_is calcff 404
	raw kindff 'GET /api/catalog/%%c3 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
	check "a catalog kind of bad bytes is answered 404 JSON" raw_is kindff 404
	raw hostff 'GET /api HTTP/1.1\r\nHost: \377\376\r\n\r\n'
	check "a Host of bad bytes is answered 400 JSON" raw_is hostff 400
	long=$(awk 'BEGIN { for (i = 0; i < 126; i++) printf "a" }')
	raw cut "GET /$long%%c3%%a9%%c3%%a9 HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\n\\r\\n"
	check "a path cut mid-character by the message's length is answered 404 JSON" raw_is cut 404
	raw quote 'GE"T\001 /api HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'
	check "a method holding a quote and a control byte is 405 with a valid JSON body" raw_is quote 405
	check "... which holds the method, escaped" jq -e '.error | startswith("GE\"T\u0001 is not allowed")' "$tmp/quote.body"
	raw forge 'GET /x%%0a6.6.6.6%%20GET%%20/forged%%20200 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'
	sleep 0.2
	check "--log: a %0a in the path forges no log line (the target is logged as sent)" \
		sh -c "! grep -q '^6\\.6\\.6\\.6' '$log' && grep -q '\"GET /x%0a6.6.6.6%20GET%20/forged%20200 HTTP/1.1\" ' '$log'"
	post /api/cluster '{"nodes": 1000000, "gpus_per_node": 1, "radix": 1024, "no_frontend": true, "no_oob": true}' -m 2
	check "a cluster of 1,000,000 nodes is 413 at once (the server's limit)" is_code 413
	check "... naming the limit" err_has "16384"
	post /api/cluster '{"gpus": 800000, "gpus_per_node": 8}' -m 2
	check "... counted from gpus too" is_code 413
	post /api/cluster '{"nodes": 16384, "gpus_per_node": 1, "radix": 128, "no_oob": true}' -m 10
	check "a cluster at the limit is sized" is_code 200
	kill "$pid"
	wait "$pid"
else
	fail "server for raw requests starts"
fi

# ---- slowloris: a normal request is still answered at once ----
if start --timeout 2 --max-connections 16 --max-per-ip 16; then
	node tests/suites/http.js slow "$port" 40 6 >"$tmp/slow" 2>&1 &
	slow=$!
	sleep 1.5
	i=0 fast=0
	while [ $i -lt 6 ]; do
		t=$(curl -s -m 3 -o /dev/null -w '%{http_code} %{time_total}' "$base/api")
		echo "$t" >>"$tmp/fast"
		case $t in 200\ 0.*) fast=$((fast + 1)) ;; esac
		sleep 0.5
		i=$((i + 1))
	done
	wait "$slow"
	check "during a slowloris of 40 connections on 16 places, 6 of 6 requests get 200 in under 1 s" \
		test "$fast" = 6
	[ "$fast" = 6 ] || echo "# $(tr '\n' ' ' <"$tmp/fast")"
	check "... the slow connections are cut within --timeout 2 s, answered 408 or 503" \
		jq -e '.answered408 > 0 and .unanswered == 0 and .longest_ms < 3000' "$tmp/slow"
	kill "$pid"
	wait "$pid"
else
	fail "server for slowloris starts"
fi

# ---- connection limits: answered 503, never dropped ----
if start --threads 1 --max-connections 4 --max-per-ip 4 --timeout 5; then
	node tests/suites/http.js hold "$port" 4 10 >"$tmp/hold" 2>&1 &
	hold=$!
	i=0
	while ! grep -q ready "$tmp/hold" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	req GET /api -m 2
	check "with --max-per-ip 4 held by idle connections, a fifth client is served" is_code 200
	sleep 0.2
	check "... and the oldest idle one is answered 503" grep -q '^HTTP/1.1 503' "$tmp/hold"
	kill "$hold" 2>/dev/null
	wait "$hold" 2>/dev/null
	# the file exists before the loop reads it: the redirection happens in the background child
	: >"$tmp/hold2"
	node tests/suites/http.js hold "$port" 7 10 >"$tmp/hold2" 2>&1 &
	hold=$!
	# answered, not dropped: wait for the three answers (a hang meets the 30 s guard)
	i=0
	while [ "$(grep -c '^HTTP/1.1 503' "$tmp/hold2")" -lt 3 ] && [ $i -lt 600 ]; do
		sleep 0.05; i=$((i + 1))
	done
	check "connections past the limit that send nothing are answered 503" \
		test "$(grep -c '^HTTP/1.1 503' "$tmp/hold2")" = 3
	kill "$hold" 2>/dev/null
	wait "$hold" 2>/dev/null
	kill "$pid"
	wait "$pid"
else
	fail "server with --max-per-ip 4 starts"
fi

# ---- shutdown with slow clients open ----
if start --timeout 30; then
	node tests/suites/http.js slow "$port" 8 10 >/dev/null 2>&1 &
	slow=$!
	node tests/suites/http.js hold "$port" 8 10 >/dev/null 2>&1 &
	hold=$!
	sleep 1
	t0=$(date +%s%N)
	kill -TERM "$pid"
	wait "$pid"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	check "SIGTERM with 16 slow connections open stops in under 3 s (took $ms ms)" \
		sh -c "[ $rc = 0 ] && [ $ms -lt 3000 ]"
	kill "$slow" "$hold" 2>/dev/null
	wait "$slow" "$hold" 2>/dev/null
else
	fail "server for the shutdown test starts"
fi

# ---- the CPU budget: a costly request ends with 413, the others are answered ----
# A port map of 8,192 nodes costs some 80 ms of CPU; with --cpu-budget 1
# each such request is ended by its budget (the answer is 413, not the
# document), while GET /api and a plan, a few tens of microseconds each,
# are answered 200 on the same two workers.
if start --cpu-budget 1 --threads 2 --log; then
	i=0 hp=
	while [ $i -lt 8 ]; do
		curl -s -m 30 -o "$tmp/heavy.$i" -w '%{http_code}\n' -H 'Content-Type: application/json' \
			--data-binary '{"nodes": 8192}' "$base/api/cluster?format=csv" >"$tmp/heavy.$i.code" &
		hp="$hp $!"
		i=$((i + 1))
	done
	cheap=0
	i=0
	while [ $i -lt 20 ]; do
		req GET /api
		is_code 200 && cheap=$((cheap + 1))
		i=$((i + 1))
	done
	# shellcheck disable=SC2086 # the pids are words
	wait $hp
	heavy=$(cat "$tmp"/heavy.*.code | grep -c '^413$')
	check "--cpu-budget 1: 8 of 8 port maps of 8,192 nodes answered 413 (got $heavy)" test "$heavy" = 8
	check "... each saying the budget ran out and naming --cpu-budget" \
		jq -e '.code == "limit" and (.error | contains("--cpu-budget"))' "$tmp/heavy.0"
	check "... while 20 of 20 GET /api were answered 200 (got $cheap)" test "$cheap" = 20
	post /api/plan '{"server": "r740xd", "gpu": "a40", "gpus_per_server": 2, "servers": 2}'
	check "... and a plan is answered 200 within the budget" is_code 200
	kill -TERM "$pid"
	wait "$pid"
	check "... the access log has the eight 413s" test "$(grep -c '"POST /api/cluster?format=csv HTTP/1.1" 413 ' "$log")" = 8
else
	fail "server with --cpu-budget 1 starts"
fi
"$NICFIT" serve --cpu-budget -1 --port 0 >/dev/null 2>"$tmp/e"
check "--cpu-budget -1 is a usage error (64)" test $? = 64

# ---- the answer cache: a repeated request is answered from memory ----
if start --log --cache 1; then
	plan='{"server": "r740xd", "gpu": "a40", "gpus_per_server": 2, "servers": 2, "model": "llama-3-8b"}'
	post /api/plan "$plan"
	cp "$tmp/body" "$tmp/first"
	post /api/plan "$plan"
	check "the same plan twice: the second answer is the first's, byte for byte" cmp -s "$tmp/body" "$tmp/first"
	check "... which is the CLI's --json document" same_as_cli --json plan --server r740xd --gpu a40 \
		--gpus-per-server 2 --servers 2 --model llama-3-8b
	post /api/plan '{"model": "llama-3-8b", "servers": "2", "gpus_per_server": 2, "gpu": "a40", "server": "r740xd"}'
	check "... and the same settings in another order and spelling hit too" cmp -s "$tmp/body" "$tmp/first"
	post '/api/plan?format=text' "$plan"
	check "... but ?format=text is another answer" same_as_cli plan --server r740xd --gpu a40 \
		--gpus-per-server 2 --servers 2 --model llama-3-8b
	post /api/plan '{"servers": 0}'
	post /api/plan '{"servers": 0}'
	check "... and an error is never kept (400 twice, both misses)" is_code 400
	# 250 answers of 5 kB and more are more than the 1 MiB --cache 1 keeps:
	# the first is dropped, the last is still there
	i=1
	while [ $i -le 250 ]; do
		post /api/plan "{\"server\": \"r740xd\", \"gpu\": \"a40\", \"gpus_per_server\": 2, \"servers\": $i}"
		i=$((i + 1))
	done
	post /api/plan '{"server": "r740xd", "gpu": "a40", "gpus_per_server": 2, "servers": 250}'
	post /api/plan "$plan"
	kill -TERM "$pid"
	wait "$pid"
	grep '"POST /api/plan' "$log" | sed 's/.*" \([0-9]*\) [-0-9]* ".*cache=\([A-Z]*\).*/\1 \2/' >"$tmp/cache"
	check "--log: the hits and misses in order (miss, hit, hit, miss, two error misses)" \
		test "$(head -6 "$tmp/cache" | tr '\n' ,)" = "200 MISS,200 HIT,200 HIT,200 MISS,400 MISS,400 MISS,"
	check "... with the running hit rate (hits=2/3 on the third)" \
		sh -c "grep '\"POST /api/plan' '$log' | sed -n 3p | grep -q 'cache=HIT hits=2/3\$'"
	check "--cache 1: the last of 250 answers is kept, the first was dropped (bounded in bytes)" \
		test "$(tail -2 "$tmp/cache" | tr '\n' ,)" = "200 HIT,200 MISS,"
else
	fail "server with --cache 1 starts"
fi
if start --log --cache 0; then
	post /api/plan '{"servers": 2}'
	post /api/plan '{"servers": 2}'
	kill -TERM "$pid"
	wait "$pid"
	check "--cache 0: answered, nothing kept, no cache field in the log" \
		sh -c "[ $code = 200 ] && ! grep -q cache= '$log'"
else
	fail "server with --cache 0 starts"
fi

# ---- the page in Chromium ----
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
	fail "chromium is installed (scripts/deps.sh check)"
	exit 1
fi
if ! start --max-per-ip 64; then
	fail "server for the browser tests starts"
	exit 1
fi
profile=$(mktemp -d -p "$tmp")
timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" \
	--virtual-time-budget=5000 --dump-dom "$base/calc?calc=pcie&gen=3&width=16" >"$tmp/dom" 2>/dev/null
check "chromium: a shared calculator link renders its answer (126.03 Gb/s)" grep -q '126.03 Gb/s' "$tmp/dom"

npmdir=$BUILD/npm
if [ ! -f "$npmdir/node_modules/playwright-core/package.json" ] ||
	! grep -q "\"version\": \"$PLAYWRIGHT_VERSION\"" "$npmdir/node_modules/playwright-core/package.json" ||
	[ ! -f "$npmdir/node_modules/axe-core/package.json" ] ||
	! grep -q "\"version\": \"$AXE_VERSION\"" "$npmdir/node_modules/axe-core/package.json"; then
	mkdir -p "$npmdir"
	if ! command -v npm >/dev/null 2>&1; then
		fail "npm is installed (scripts/deps.sh check) for the browser tests"
		exit 1
	fi
	if ! npm install --prefix "$npmdir" --no-audit --no-fund --no-save --silent \
		"playwright-core@$PLAYWRIGHT_VERSION" "axe-core@$AXE_VERSION" >"$tmp/npm.log" 2>&1; then
		fail "npm install playwright-core@$PLAYWRIGHT_VERSION axe-core@$AXE_VERSION" "$(tail -5 "$tmp/npm.log")"
		exit 1
	fi
fi
mkdir -p "$BUILD/test-artifacts"
# The audit pictures of the fixture hosts, for the browser to measure.
mkdir -p "$tmp/svg"
for m in "$BUILD"/fixtures/*/; do
	m=${m%/}
	"$NICFIT" audit --sysfs "$m" --format svg --pci-ids tests/fixtures/pci.ids \
		>"$tmp/svg/${m##*/}.svg" 2>/dev/null
done
PLAYWRIGHT_CORE=$(cd "$npmdir/node_modules/playwright-core" && pwd) CHROMIUM=$chromium \
	AXE_CORE=$(cd "$npmdir/node_modules/axe-core" && pwd)/axe.min.js \
	AUDIT_SVGS=$tmp/svg \
	timeout 300 node tests/browser/page.js "$base" $((n + 1)) "$BUILD/test-artifacts"
rc=$?
# every catalog server through the form, conflicting counts, focus (tests/browser/servers.js)
PLAYWRIGHT_CORE=$(cd "$npmdir/node_modules/playwright-core" && pwd) CHROMIUM=$chromium \
	timeout 300 node tests/browser/servers.js "$base" 900 || rc=1
# the server and GPU menus hold the command line's catalog, grouped (tests/browser/catalog.js)
if ! "$NICFIT" catalog list servers -j >"$tmp/servers.json" || ! "$NICFIT" catalog list gpus -j >"$tmp/gpus.json"; then
	fail "catalog list servers -j and gpus -j for the page's menus"
	rc=1
fi
PLAYWRIGHT_CORE=$(cd "$npmdir/node_modules/playwright-core" && pwd) CHROMIUM=$chromium \
	timeout 300 node tests/browser/catalog.js "$base" 950 "$tmp/servers.json" "$tmp/gpus.json" || rc=1
exit $rc
