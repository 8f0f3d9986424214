#!/bin/sh
# nicfit fleet on 10,000 host audits: the audits of the fixture machines
# (tests/fleet/audits/) copied under 10,000 host names, as one plain stream
# and as pdsh prints it ("host: " lines), and 10,000 copies of the largest
# machine (an 8-GPU HGX with 12 NICs). Wall time of the whole command, best
# of RUNS, against jq reading the same stream (parse only: `jq -c .host.name`).
set -eu
: "${NICFIT:=build/nicfit}" "${RUNS:=3}" "${HOSTS:=10000}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# HOSTS documents, one per line, cycling over the given audits
gen() {
	for f in "$@"; do tr -d '\n' <"$f"; echo; done >"$tmp/tmpl"
	awk -v n="$HOSTS" '{ t[NR] = $0 } END {
		for (i = 0; i < n; i++) {
			l = t[i % NR + 1]
			sub(/"name":"[^"]*"/, sprintf("\"name\":\"gpu%05d\"", i + 1), l)
			print l
		}
	}' "$tmp/tmpl"
}

now() { date +%s%N; }

# best wall time in ms of RUNS runs of "$@" (output discarded)
best_ms() {
	best=
	i=0
	while [ $i -lt "$RUNS" ]; do
		t0=$(now)
		"$@" >/dev/null 2>&1 || true
		t1=$(now)
		ms=$(((t1 - t0) / 1000000))
		if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
		i=$((i + 1))
	done
	echo "$best"
}

mb() { echo $(($(wc -c <"$1") / 1000000)); }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
secs() { awk -v a="$1" 'BEGIN { printf "%.2f", a / 1000 }'; }

gen tests/fleet/audits/*.json >"$tmp/mixed.jsonl"
sed 's/^{"schema":"nicfit.audit.v1","nicfit_version":"[^"]*","host":{"name":"\(gpu[0-9]*\)"/\1: &/' \
	"$tmp/mixed.jsonl" >"$tmp/mixed.pdsh"
# pdsh with a fan-out of 32: each host's document in 80-byte "host: " pieces,
# the 32 hosts' pieces interleaved (the reassembly path, with 2,300 pieces a host)
awk '{ d[NR] = $0; match($0, /"name":"[^"]*"/); n[NR] = substr($0, RSTART + 8, RLENGTH - 9) }
END {
	for (b = 1; b <= NR; b += 32)
		for (off = 1; ; off += 80) {
			any = 0
			for (k = b; k < b + 32 && k <= NR; k++) {
				s = substr(d[k], off, 80)
				if (s != "") { any = 1; print n[k] ": " s }
			}
			if (!any) break
		}
}' "$tmp/mixed.jsonl" >"$tmp/interleaved.pdsh"
gen tests/fleet/audits/hgx-h100.json >"$tmp/hgx.jsonl"

have_jq=
command -v jq >/dev/null 2>&1 && have_jq=1
mem=
[ -x /usr/bin/time ] && mem=1

echo "bench fleet ($HOSTS host audits per stream, best of $RUNS runs)"
for s in mixed.jsonl mixed.pdsh interleaved.pdsh hgx.jsonl; do
	f="$tmp/$s"
	t=$(best_ms "$NICFIT" fleet "$f")
	line=$(printf '  %-16s %4s MB  nicfit fleet %6s s' "$s" "$(mb "$f")" "$(secs "$t")")
	if [ -n "$mem" ]; then
		kb=$(/usr/bin/time -f %M "$NICFIT" fleet "$f" 2>&1 >/dev/null | tail -1)
		line="$line  (peak $((kb / 1024)) MiB)"
	fi
	case $s in *.pdsh) have=;; *) have=$have_jq;; esac
	if [ -n "$have" ]; then
		j=$(best_ms jq -c .host.name "$f")
		line="$line  jq $(secs "$j") s  nicfit = $(ratio "$t" "$j") x jq"
	fi
	echo "$line"
done
t=$(best_ms "$NICFIT" fleet "$tmp/mixed.jsonl")
if [ "$t" -lt 2000 ]; then
	echo "  $HOSTS audits of the fixture machines summarised in $(secs "$t") s (goal: under 2 s)"
else
	echo "  $HOSTS audits of the fixture machines took $(secs "$t") s: over the 2 s goal"
fi
t=$(best_ms "$NICFIT" fleet "$tmp/hgx.jsonl")
if [ "$t" -lt 1000 ]; then
	echo "  $HOSTS HGX audits summarised in $(secs "$t") s (goal: under 1 s)"
else
	echo "  $HOSTS HGX audits took $(secs "$t") s: over the 1 s goal"
fi
# memory a host costs: the peak of HOSTS HGX audits against a tenth of them
if [ -n "$mem" ]; then
	head -n $((HOSTS / 10)) "$tmp/hgx.jsonl" >"$tmp/hgx10.jsonl"
	k1=$(/usr/bin/time -f %M "$NICFIT" fleet "$tmp/hgx10.jsonl" 2>&1 >/dev/null | tail -1)
	k2=$(/usr/bin/time -f %M "$NICFIT" fleet "$tmp/hgx.jsonl" 2>&1 >/dev/null | tail -1)
	awk -v a="$k1" -v b="$k2" -v n="$HOSTS" 'BEGIN {
		printf "  peak memory: %d KiB at %d HGX hosts, %d KiB at %d: %.2f kB a host\n",
			a, n / 10, b, n, (b - a) * 1024 / 1000 / (n - n / 10)
	}'
fi
