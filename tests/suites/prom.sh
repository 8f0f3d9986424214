#!/bin/sh
# nicfit in the systems admins run: Prometheus metrics that promtool
# accepts for every fixture and for fleet, written atomically for
# node_exporter's textfile collector and read back by it; label values
# escaped; NHC lines and exit statuses; NFD labels; audit --expect.
set -u
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
fx="$BUILD/fixtures"
tmp=$(mktemp -d)
pid=
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { # name command... (true/false)
	name=$1; shift
	if "$@"; then ok "$name"; else no "$name"; fi
}
have() { command -v "$1" >/dev/null 2>&1; }

# ---- Prometheus ---------------------------------------------------------------
for d in "$fx"/*/; do
	m=$(basename "$d")
	"$NICFIT" audit --sysfs "$d" --no-pci-ids --format prom >"$tmp/$m.prom" 2>"$tmp/err"
	rc=$?
	check "$m: audit --format prom exits as the audit does (0-2), nothing on stderr" \
		sh -c "[ $rc -le 2 ] && [ ! -s '$tmp/err' ]"
	if have promtool; then
		if promtool check metrics <"$tmp/$m.prom" >"$tmp/lint" 2>&1; then
			ok "$m: promtool check metrics"
		else
			no "$m: promtool check metrics"; sed 's/^/# /' "$tmp/lint"
		fi
	else
		no "$m: promtool check metrics (promtool missing: scripts/deps.sh check installs it)"
	fi
done
# the README's alerting rules load in Prometheus and name metrics nicfit writes
sed -n '/^### Prometheus/,/^### /p' README.md | sed -n '/^```yaml$/,/^```$/p' | sed '1d;$d' >"$tmp/rules.yml"
if have promtool && [ -s "$tmp/rules.yml" ]; then
	if promtool check rules "$tmp/rules.yml" >"$tmp/lint" 2>&1; then
		ok "README's alerting rules: promtool check rules"
	else
		no "README's alerting rules: promtool check rules"; sed 's/^/# /' "$tmp/lint"
	fi
	for m in $(grep -o 'nicfit_[a-z_]*' "$tmp/rules.yml" | sort -u); do
		check "README's rules name $m, which the audit writes" grep -q "^$m[{ ]" "$tmp/epyc-gen4.prom"
	done
else
	no "README's alerting rules checked (promtool or the rules block missing)"
fi
# what the metrics say agrees with the audit's JSON
"$NICFIT" audit --sysfs "$fx/epyc-gen4" --no-pci-ids -j >"$tmp/e.json" 2>/dev/null
gts=$(jq -r '.devices[]|select(.bdf=="0000:81:00.0")|.link.current_gts' "$tmp/e.json")
check "epyc-gen4: the downtrained link's speed is the JSON's current_gts in transfers/s" \
	grep -qx "nicfit_pcie_link_speed_transfers_per_second{bdf=\"0000:81:00.0\",device=\"mlx5_2\"} ${gts}000000000" \
	"$tmp/epyc-gen4.prom"
w=$(jq '[.findings[]|select(.severity=="warning")]|length' "$tmp/e.json")
check "epyc-gen4: warnings counted as in the JSON ($w)" \
	grep -qx "nicfit_audit_findings{severity=\"warning\"} $w" "$tmp/epyc-gen4.prom"
check "epyc-gen4: findings by code" \
	grep -qx 'nicfit_audit_findings_by_code{code="link-speed-downtrained",severity="warning"} 1' \
	"$tmp/epyc-gen4.prom"
check "hgx-h100: one path class holds per GPU-NIC pair" sh -c \
	"[ \$(grep -c '^nicfit_gpu_nic_path{.*} 1\$' '$tmp/hgx-h100.prom') = \$(jq '.pairs|length' <<EOT
\$('$NICFIT' audit --sysfs '$fx/hgx-h100' --no-pci-ids -j 2>/dev/null)
EOT
) ]"
check "hgx-h100: GPUDirect readiness and RDMA port rates" sh -c \
	"grep -q '^nicfit_gpudirect_rdma_ready{' '$tmp/hgx-h100.prom' &&
	 grep -q '^nicfit_rdma_port_rate_bytes_per_second{' '$tmp/hgx-h100.prom'"
# unknown is left out, never 0: without sys/module and a peer-memory client, whether the
# kernel supports GPUDirect RDMA (and so whether a close pair uses it) is unknown
cp -R "$fx/hgx-h100" "$tmp/gdr-unknown"
rm -rf "$tmp/gdr-unknown/sys/module" "$tmp/gdr-unknown/sys/kernel/mm/memory_peers"
"$NICFIT" audit --sysfs "$tmp/gdr-unknown" --no-pci-ids --format prom >"$tmp/gdr.prom" 2>/dev/null
check "GPUDirect support unknown: no kernel-support sample, no readiness for close pairs" sh -c \
	"! grep -q '^nicfit_gpudirect_kernel_support' '$tmp/gdr.prom' &&
	 ! grep -q '^nicfit_gpudirect_rdma_ready{.*kernel-support' '$tmp/gdr.prom' &&
	 grep -q '^nicfit_gpudirect_rdma_ready{.*reason=\"distance\"} 0\$' '$tmp/gdr.prom'"
check "GPUDirect support known absent (epyc-gen4: sys/module read): the sample is 0" \
	grep -qx 'nicfit_gpudirect_kernel_support 0' "$tmp/epyc-gen4.prom"
check "duration and last-run time are there" sh -c \
	"grep -q '^nicfit_audit_duration_seconds [0-9]' '$tmp/kvm-vm.prom' &&
	 grep -q '^nicfit_audit_last_run_timestamp_seconds [0-9]\\{10\\}\$' '$tmp/kvm-vm.prom'"

# label values from the outside world are escaped: a hostile host name
cp -R "$fx/hpt-nvme" "$tmp/hostile"
printf 'evil"host\\x\342\200\256\n' >"$tmp/hostile/proc/sys/kernel/hostname"
"$NICFIT" audit --sysfs "$tmp/hostile" --no-pci-ids --format prom >"$tmp/h.prom" 2>/dev/null
check "hostile host name: quote and backslash escaped, the bidi override shown as text" \
	grep -qF 'host="evil\"host\\x\\u202e"' "$tmp/h.prom"
check "hostile host name: no raw bidi override in the metrics" \
	sh -c "! LC_ALL=C grep -q '$(printf '\342\200\256')' '$tmp/h.prom'"
if have promtool; then
	check "hostile host name: promtool still accepts the metrics" \
		sh -c "promtool check metrics <'$tmp/h.prom' >/dev/null 2>&1"
fi

# fleet --format prom: one series per host
"$NICFIT" fleet --format prom tests/fleet/audits >"$tmp/fleet.prom" 2>/dev/null
hosts=$(ls tests/fleet/audits | wc -l)
check "fleet --format prom: a status per host ($hosts)" \
	sh -c "[ \$(grep -c '^nicfit_fleet_host_status{host=' '$tmp/fleet.prom') = $hosts ]"
if have promtool; then
	check "fleet --format prom: promtool check metrics" \
		sh -c "promtool check metrics <'$tmp/fleet.prom' >/dev/null 2>&1"
fi
check "text formats refuse nothing new: fleet --format nhc is a usage error (64)" \
	sh -c "'$NICFIT' fleet --format nhc tests/fleet/audits >/dev/null 2>&1; [ \$? = 64 ]"

# --output: a temporary file beside the target, renamed over it
mkdir "$tmp/textfile"
echo 'stale 1' >"$tmp/textfile/nicfit.prom"
"$NICFIT" audit --sysfs "$fx/x11-200g" --no-pci-ids --format prom \
	--output "$tmp/textfile/nicfit.prom" >"$tmp/stdout" 2>/dev/null
check "--output: nothing on stdout" [ ! -s "$tmp/stdout" ]
check "--output: the file replaced, no temporary left" sh -c \
	"grep -q '^nicfit_audit_info' '$tmp/textfile/nicfit.prom' && ! grep -q stale '$tmp/textfile/nicfit.prom' &&
	 [ \$(ls -A '$tmp/textfile' | wc -l) = 1 ]"
check "--output: readable by a collector running as another user (0644)" \
	[ "$(stat -c %a "$tmp/textfile/nicfit.prom")" = 644 ]
ino1=$(stat -c %i "$tmp/textfile/nicfit.prom")
"$NICFIT" audit --sysfs "$fx/x11-200g" --no-pci-ids --format prom \
	--output "$tmp/textfile/nicfit.prom" >/dev/null 2>&1
check "--output: a rewrite is a new file renamed in (new inode), not a write in place" \
	[ "$(stat -c %i "$tmp/textfile/nicfit.prom")" != "$ino1" ]
"$NICFIT" audit --sysfs "$fx/x11-200g" --format prom --output "$tmp/nodir/x.prom" 2>"$tmp/err"
check "--output into a missing directory: exit 74, one line naming it" \
	sh -c "[ $? = 74 ] && [ \$(wc -l <'$tmp/err') = 1 ] && grep -q nodir '$tmp/err'"
if have prometheus-node-exporter || [ -x /usr/bin/prometheus-node-exporter ]; then
	port=$((20000 + $$ % 20000))
	/usr/bin/prometheus-node-exporter --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$tmp/textfile" \
		--web.listen-address="127.0.0.1:$port" >"$tmp/ne.log" 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 50 ] && ! curl -sf "http://127.0.0.1:$port/metrics" >"$tmp/scrape" 2>/dev/null; do
		sleep 0.1; i=$((i + 1))
	done
	check "node_exporter's textfile collector serves the file nicfit wrote" \
		grep -q '^nicfit_pcie_link_width{bdf=' "$tmp/scrape"
	check "node_exporter reports no textfile error" \
		grep -qx 'node_textfile_scrape_error 0' "$tmp/scrape"
	kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=
else
	no "node_exporter's textfile collector reads the file (prometheus-node-exporter missing)"
fi

# ---- NHC ------------------------------------------------------------------------
"$NICFIT" audit --sysfs "$fx/epyc-gen4" --no-pci-ids --format nhc >"$tmp/nhc" 2>"$tmp/err"
rc=$?
check "nhc: a downtrained NIC fails the node: exit 1" [ "$rc" = 1 ]
check "nhc: the failure line names the code and device" \
	grep -q '^warning link-speed-downtrained 0000:81:00.0: ' "$tmp/nhc"
check "nhc: one line per failure (as many as the audit's warnings)" \
	[ "$(wc -l <"$tmp/nhc")" = "$w" ]
for m in hpt-nvme kvm-vm r740-interleave xenial-k44; do
	"$NICFIT" audit --sysfs "$fx/$m" --no-pci-ids --format nhc >"$tmp/nhc" 2>&1
	rc=$?
	check "nhc: $m is clean: exit 0, silent" sh -c "[ $rc = 0 ] && [ ! -s '$tmp/nhc' ]"
done
"$NICFIT" audit --sysfs "$fx/epyc-gen4" --no-pci-ids --format nhc --ignore link-speed-downtrained \
	--ignore nic-pcie-starved --ignore vpi-port-mode --ignore ib-no-subnet-manager >"$tmp/nhc" 2>&1
rc=$?
check "nhc: --ignore takes a finding out of the check" sh -c "[ $rc = 0 ] && [ ! -s '$tmp/nhc' ]"
# scripts/nhc/nicfit.nhc under NHC itself: tests/suites/nhc.sh

# ---- --expect ------------------------------------------------------------------
# a VM like kvm-vm, without its RDMA devices
cp -R "$fx/kvm-vm" "$tmp/nordma"
rm -rf "$tmp/nordma/sys/class/infiniband"
mkdir "$tmp/ref"
for h in a b; do
	jq -c --arg h "ref-$h" '.host.name=$h | .findings=[] |
		(.devices[]|select(.bdf=="0000:81:00.0")|.link.current_gts)=16' "$tmp/e.json" \
		>"$tmp/ref/$h.json"
done
"$NICFIT" audit --sysfs "$fx/epyc-gen4" --no-pci-ids --expect "$tmp/ref" --format nhc >"$tmp/nhc" 2>&1
check "--expect AUDITS: where the host differs from the fleet's majority is a failure" \
	grep -q '^critical link-speed 0000:81:00.0: .*8 GT/s on 1 host; 16 GT/s on the other 2' "$tmp/nhc"
bidi=$(printf '\342\200\256')
cp -R "$tmp/ref" "$tmp/ref$bidi"
"$NICFIT" audit --sysfs "$fx/epyc-gen4" --no-pci-ids --expect "$tmp/ref$bidi" --format nhc >"$tmp/nhc" 2>&1
check "nhc: outside text in a line (a hostile --expect path) is escaped, never raw" sh -c \
	"grep -qF 'ref\\u202e)' '$tmp/nhc' && ! LC_ALL=C grep -q '$bidi' '$tmp/nhc'"
"$NICFIT" audit --sysfs "$fx/epyc-gen4" --no-pci-ids --expect "$tmp/ref/a.json" -j >"$tmp/x.json" 2>&1
check "--expect one good node: the difference is a finding in the JSON too" \
	sh -c "jq -e '[.findings[]|select(.code==\"link-speed\")]|length==1' '$tmp/x.json' >/dev/null"
"$NICFIT" audit --sysfs "$fx/epyc-gen4" --no-pci-ids --expect "$tmp/e.json" >/dev/null 2>"$tmp/err"
check "--expect its own audit: exit 64 with one line" \
	sh -c "[ $? = 64 ] && [ \$(wc -l <'$tmp/err') = 1 ]"
# a VM is judged against a plan for a named server (its own slots are the hypervisor's)
printf '{"server":"r740xd","gpu":"a40","gpus_per_server":2,"model":"llama-3-8b","workload":"training","servers":4}\n' >"$tmp/spec.json"
"$NICFIT" audit --sysfs "$tmp/nordma" --no-pci-ids --expect "$tmp/spec.json" --format nhc >"$tmp/nhc" 2>&1
rc=$?
check "--expect SPEC: a VM without RDMA fails a training plan for a named server (plan-backend-missing)" \
	sh -c "[ $rc = 1 ] && grep -q '^critical plan-backend-missing ' '$tmp/nhc'"
"$NICFIT" audit --sysfs "$fx/kvm-vm" --no-pci-ids --expect "$tmp/nothere.json" 2>"$tmp/err"
check "--expect a missing file: exit 66" [ $? = 66 ]

# ---- NFD --------------------------------------------------------------------------
for d in "$fx"/*/; do
	m=$(basename "$d")
	"$NICFIT" audit --sysfs "$d" --no-pci-ids --format nfd >"$tmp/nfd" 2>/dev/null
	# every line a comment or nicfit.io/NAME=VALUE with a valid Kubernetes label value
	if grep -v '^#' "$tmp/nfd" | grep -qvE '^nicfit\.io/[a-z0-9]([-a-z0-9]*[a-z0-9])?=([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)$'; then
		no "$m: nfd lines are nicfit.io/NAME=VALUE with label-syntax values"; sed 's/^/# /' "$tmp/nfd"
	else
		ok "$m: nfd lines are nicfit.io/NAME=VALUE with label-syntax values"
	fi
done
"$NICFIT" audit --sysfs "$fx/hgx-h100" --no-pci-ids --format nfd >"$tmp/nfd" 2>/dev/null
rails=$("$NICFIT" audit --sysfs "$fx/hgx-h100" --no-pci-ids -j 2>/dev/null | jq '[.pairs[]|select(.path=="PIX" or .path=="PXB")|.nic]|unique|length')
check "hgx-h100: a rail per NIC at PIX/PXB to a GPU ($rails), GPUDirect ready, PIX paths" sh -c \
	"grep -qx 'nicfit.io/rails=$rails' '$tmp/nfd' && grep -qx 'nicfit.io/gdr-ready=true' '$tmp/nfd' &&
	 grep -qx 'nicfit.io/gpu-nic-path=PIX' '$tmp/nfd'"
"$NICFIT" audit --sysfs "$tmp/nordma" --no-pci-ids --format nfd >"$tmp/nfd" 2>/dev/null
check "without RDMA: no rails, not GPUDirect ready, no rate label" sh -c \
	"grep -qx 'nicfit.io/rails=0' '$tmp/nfd' && grep -qx 'nicfit.io/gdr-ready=false' '$tmp/nfd' &&
	 ! grep -q rdma-rate '$tmp/nfd'"
# NFD 0.14's "# +expiry-time=RFC3339" directive: labels a node stops refreshing go away
before=$(date -u +%s)
"$NICFIT" audit --sysfs "$fx/hgx-h100" --no-pci-ids --format nfd >"$tmp/nfd" 2>/dev/null
exp=$(sed -n 's/^# +expiry-time=\([0-9-]*T[0-9:]*Z\)$/\1/p' "$tmp/nfd")
check "nfd: the file carries '# +expiry-time=' in RFC 3339 UTC, before the labels" sh -c \
	"[ -n '$exp' ] && [ \$(grep -n '^# +expiry-time=' '$tmp/nfd' | cut -d: -f1) -lt \$(grep -n '^nicfit.io/' '$tmp/nfd' | head -1 | cut -d: -f1) ]"
at=$(date -u -d "$exp" +%s 2>/dev/null || echo 0)
check "nfd: the labels expire an hour after the audit by default ($exp)" \
	sh -c "[ $at -ge $((before + 3600 - 1)) ] && [ $at -le $(($(date -u +%s) + 3600)) ]"
"$NICFIT" audit --sysfs "$fx/hgx-h100" --no-pci-ids --format nfd --nfd-expiry 600 >"$tmp/nfd" 2>/dev/null
at=$(date -u -d "$(sed -n 's/^# +expiry-time=//p' "$tmp/nfd")" +%s 2>/dev/null || echo 0)
check "nfd: --nfd-expiry 600 sets it ten minutes on" \
	sh -c "[ $at -ge $((before + 600 - 1)) ] && [ $at -le $(($(date -u +%s) + 600)) ]"
"$NICFIT" audit --sysfs "$fx/hgx-h100" --no-pci-ids --format nfd --nfd-expiry 0 >"$tmp/nfd" 2>/dev/null
check "nfd: --nfd-expiry 0 writes no expiry" sh -c "! grep -q expiry-time '$tmp/nfd'"
"$NICFIT" audit --sysfs "$fx/hgx-h100" --no-pci-ids --format nfd --nfd-expiry -5 >/dev/null 2>&1
check "nfd: a negative --nfd-expiry is a usage error (64)" [ $? = 64 ]
"$NICFIT" audit --sysfs "$tmp/gdr-unknown" --no-pci-ids --format nfd >"$tmp/nfd" 2>/dev/null
check "GPUDirect support unknown: no gdr-ready label (neither true nor false)" sh -c \
	"grep -q '^nicfit.io/rails=' '$tmp/nfd' && ! grep -q gdr-ready '$tmp/nfd'"
check "calc has no prom output (64)" sh -c \
	"'$NICFIT' calc pcie --gen 3 --width 16 --format prom >/dev/null 2>&1; [ \$? = 64 ]"

# ---- serve's GET /metrics -------------------------------------------------------
# A server with a 1 MiB answer cache and a 2 ms CPU budget: one plan asked
# twice (a miss, then a hit), 200 pretty plans of some 5.5 kB, 0.2 ms each
# (more than the cache holds: it evicts), a 404 and a port map of 8,192
# nodes that its budget ends (413). The scrape must pass promtool and say exactly that;
# its cache counts must equal the access log's last hits=H/LOOKUPS.
: >"$tmp/serve.err"
"$NICFIT" serve --port 0 --cache 1 --cpu-budget 2 --threads 2 --log 2>"$tmp/serve.err" &
pid=$!
port= i=0
while [ $i -lt 100 ] && [ -z "$port" ]; do
	port=$(sed -n 's|^nicfit serve: listening on http://127\.0\.0\.1:\([0-9]*\)/$|\1|p' "$tmp/serve.err")
	kill -0 "$pid" 2>/dev/null || break
	[ -n "$port" ] || sleep 0.1
	i=$((i + 1))
done
if [ -n "$port" ] && have curl; then
	base=http://127.0.0.1:$port
	jpost() { curl -s -m 30 -o /dev/null -w '%{http_code}\n' -H 'Content-Type: application/json' \
		--data-binary "$2" "$base$1"; }
	{
		jpost /api/plan '{"server": "r740xd", "gpu": "a40", "gpus_per_server": 2, "servers": 2}'
		jpost /api/plan '{"servers": 2, "server": "r740xd", "gpus_per_server": 2, "gpu": "a40"}'
		i=0 # one curl, one connection, 200 requests
		while [ $i -lt 200 ]; do
			[ $i = 0 ] || echo next
			echo "url = \"$base/api/plan?pretty\""
			echo 'header = "Content-Type: application/json"'
			echo "data-binary = \"{\\\"server\\\": \\\"r740xd\\\", \\\"gpu\\\": \\\"a40\\\", \\\"servers\\\": $((i + 3))}\""
			echo 'output = "/dev/null"'
			echo 'write-out = "%{http_code}\\n"'
			i=$((i + 1))
		done >"$tmp/plans.curl"
		curl -s -m 60 -K "$tmp/plans.curl"
		curl -s -m 10 -o /dev/null -w '%{http_code}\n' "$base/no-such-page"
		jpost '/api/cluster?format=csv' '{"nodes": 8192}'
	} >"$tmp/codes"
	curl -s -m 10 -D "$tmp/mhead" -o "$tmp/metrics" "$base/metrics"
	kill -TERM "$pid"
	wait "$pid"
	pid=
	m() { awk -v k="$1" '$1 == k { print $2 }' "$tmp/metrics"; }
	check "serve: the 204 requests were answered as meant (202 x 200, a 404, a 413)" sh -c \
		"[ \$(grep -c '^200\$' '$tmp/codes') = 202 ] && grep -q '^404\$' '$tmp/codes' && grep -q '^413\$' '$tmp/codes'"
	check "serve: GET /metrics is Prometheus's text format 0.0.4" \
		grep -qi '^Content-Type: text/plain; version=0.0.4' "$tmp/mhead"
	if have promtool; then
		if promtool check metrics <"$tmp/metrics" >"$tmp/lint" 2>&1; then
			ok "serve: GET /metrics passes promtool check metrics"
		else
			no "serve: GET /metrics passes promtool check metrics"; sed 's/^/# /' "$tmp/lint"
		fi
	else
		n=$((n + 1))
		echo "ok $n # skip promtool is not installed (scripts/deps.sh check installs it)"
	fi
	last=$(sed -n 's/.* cache=[A-Z]* hits=\([0-9]*\/[0-9]*\)$/\1/p' "$tmp/serve.err" | tail -n 1)
	check "serve: cache hits $(m nicfit_serve_cache_hits_total), misses $(m nicfit_serve_cache_misses_total): the log's last hits=$last" \
		test "$(m nicfit_serve_cache_hits_total)/$(($(m nicfit_serve_cache_hits_total) + $(m nicfit_serve_cache_misses_total)))" = "$last"
	check "serve: one hit (the same plan, keys in another order), 202 misses" \
		test "$(m nicfit_serve_cache_hits_total) $(m nicfit_serve_cache_misses_total)" = "1 202"
	check "serve: the cache evicted ($(m nicfit_serve_cache_evictions_total)) and holds $(m nicfit_serve_cache_bytes) of $(m nicfit_serve_cache_max_bytes) bytes in $(m nicfit_serve_cache_entries) answers" \
		sh -c "[ '$(m nicfit_serve_cache_evictions_total)' -gt 0 ] && [ '$(m nicfit_serve_cache_max_bytes)' = 1048576 ] &&
		       [ '$(m nicfit_serve_cache_bytes)' -gt 0 ] && [ '$(m nicfit_serve_cache_bytes)' -le 1048576 ] &&
		       [ \$(( $(m nicfit_serve_cache_entries) + $(m nicfit_serve_cache_evictions_total) )) -le 201 ]"
	check "serve: one request ended by its CPU budget" test "$(m nicfit_serve_cpu_budget_ends_total)" = 1
	r2=$(m 'nicfit_serve_requests_total{class="2xx"}') r4=$(m 'nicfit_serve_requests_total{class="4xx"}')
	check "serve: requests by status class: 2xx $r2, 4xx $r4 (the 404 and the 413), 5xx $(m 'nicfit_serve_requests_total{class="5xx"}')" \
		sh -c "[ '$r2' -ge 201 ] && [ '$r2' -le 202 ] && [ '$r4' -ge 1 ] && [ '$r4' -le 2 ] &&
		       [ '$(m 'nicfit_serve_requests_total{class="5xx"}')' = 0 ]"
else
	no "serve for GET /metrics starts (and curl is installed)"
fi
# docs/ops.md's scrape job and hit-rate query load in Prometheus's own tools
sed -n '/^A scrape job/,/^and the cache/p' docs/ops.md | sed -n 's/^    //p' >"$tmp/prometheus.yml"
q=$(sed -n '/^since the start, over the last five minutes:/,/^A low rate/p' docs/ops.md | sed -n 's/^    //p' | tr -s ' \n' ' ')
printf 'groups:\n  - name: nicfit-serve\n    rules:\n      - record: nicfit_serve:cache_hit_ratio:rate5m\n        expr: %s\n' "$q" >"$tmp/hitrate.yml"
if have promtool; then
	check "docs/ops.md's scrape job for serve: promtool check config" sh -c \
		"[ -s '$tmp/prometheus.yml' ] && promtool check config '$tmp/prometheus.yml' >/dev/null 2>&1"
	check "docs/ops.md's hit-rate query: promtool check rules" sh -c \
		"[ -n '$q' ] && promtool check rules '$tmp/hitrate.yml' >/dev/null 2>&1"
else
	n=$((n + 2))
	echo "ok $((n - 1)) # skip promtool is not installed (scripts/deps.sh check installs it)"
	echo "ok $n # skip promtool is not installed"
fi
