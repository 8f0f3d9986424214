#!/bin/sh
# nicfit fleet from the command line at scale: a directory of 1,000 audit
# files (one per host, named by the file), standard input against the same
# stream as a file, --expect naming the hosts that are gone, and the audit
# samples in tests/fleet/audits still saying what `nicfit audit` says about
# the fixture machines (skipped while this build has no audit command).
set -u
: "${NICFIT:=build/nicfit}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - # SKIP $1"; }

# 1,000 hosts: the fixture machines' audits in turn, host names removed so
# that each file's name names its host
for f in tests/fleet/audits/*.json; do tr -d '\n' <"$f"; echo; done |
	sed 's/"host":{"name":"[^"]*",/"host":{/' >"$tmp/tmpl"
mkdir "$tmp/dir"
awk -v dir="$tmp/dir" '{ t[NR] = $0 } END {
	for (i = 1; i <= 1000; i++) {
		f = sprintf("%s/node%04d.json", dir, i)
		print t[(i - 1) % NR + 1] >f
		close(f)
	}
}' "$tmp/tmpl"

"$NICFIT" fleet -j "$tmp/dir" >"$tmp/dir.json" 2>"$tmp/dir.err"
rc=$?
if [ $rc -le 2 ] && grep -q '"hosts":1000,' "$tmp/dir.json" && grep -q '"anomalies":0,' "$tmp/dir.json" &&
	grep -q '"host":"node0999"' "$tmp/dir.json" && [ ! -s "$tmp/dir.err" ]; then
	ok "a directory of 1,000 per-host files: 1,000 hosts named by their files, nothing odd"
else
	no "a directory of 1,000 per-host files (exit $rc)"
	head -5 "$tmp/dir.err" | sed 's/^/# /'
fi

# hostile fleet inputs: an audit over --max-doc-mb as a plain document (a file, standard input),
# a host name with U+202E, a link width of 1e308
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
a = json.load(open("tests/fleet/audits/hgx-h100.json"))
big = dict(a, padding="x" * (3 << 20))
open(f"{d}/big.json", "w").write(json.dumps(big) + "\n" + json.dumps(a) + "\n")
rlo = dict(a)
rlo["host"] = dict(a["host"], name="gpu07\u202elo.x")
wide = json.loads(json.dumps(a))
wide["host"]["name"] = "gpu08"
for dev in wide["devices"]:
    if isinstance(dev.get("link"), dict) and "current_width" in dev["link"]:
        dev["link"]["current_width"] = 1e308
        break
open(f"{d}/hostile.json", "w").write(json.dumps(rlo) + "\n" + json.dumps(wide) + "\n")
PY
"$NICFIT" fleet --max-doc-mb 1 "$tmp/big.json" >/dev/null 2>"$tmp/big.err"
rc=$?
if [ $rc -le 2 ] && grep -q 'big.json:1: document larger than 1 MiB' "$tmp/big.err"; then
	ok "a plain 3 MiB audit in a file with --max-doc-mb 1: skipped, the next one read"
else
	no "a plain 3 MiB audit in a file with --max-doc-mb 1 (exit $rc)"; sed 's/^/# /' "$tmp/big.err"
fi
"$NICFIT" fleet --max-doc-mb 1 - <"$tmp/big.json" >/dev/null 2>"$tmp/big.err"
rc=$?
if [ $rc -le 2 ] && grep -q '<stdin>:1: document larger than 1 MiB' "$tmp/big.err"; then
	ok "the same on standard input"
else
	no "the same on standard input (exit $rc)"; sed 's/^/# /' "$tmp/big.err"
fi
for fmt in text md json csv; do
	"$NICFIT" fleet --all-hosts --format "$fmt" "$tmp/hostile.json" >"$tmp/h.out" 2>"$tmp/h.err"
	if ! grep -q "$(printf '\342\200\256')" "$tmp/h.out" "$tmp/h.err" && ! grep -q 'x1e+308' "$tmp/h.out" &&
		grep -q 'current_width .* is outside 1..32; ignored' "$tmp/h.err"; then
		ok "fleet --format $fmt: no U+202E in names, a width of 1e308 dropped and said so"
	else
		no "fleet --format $fmt: U+202E or 1e308 got through"; sed 's/^/# /' "$tmp/h.err"
	fi
done

cat "$tmp"/dir/*.json >"$tmp/all.jsonl"
"$NICFIT" fleet "$tmp/all.jsonl" >"$tmp/file.out" 2>&1
"$NICFIT" fleet - <"$tmp/all.jsonl" >"$tmp/stdin.out" 2>&1
if cmp -s "$tmp/file.out" "$tmp/stdin.out"; then
	ok "standard input reads as the same stream in a file"
else
	no "standard input reads as the same stream in a file"
	diff "$tmp/file.out" "$tmp/stdin.out" | head -5 | sed 's/^/# /'
fi

rm "$tmp/dir/node0013.json" "$tmp/dir/node0500.json" "$tmp/dir/node0501.json"
"$NICFIT" fleet -j --expect 'node[0001-1000]' "$tmp/dir" >"$tmp/expect.json" 2>/dev/null
rc=$?
if [ $rc = 2 ] && grep -q '"code":"host-missing"' "$tmp/expect.json" &&
	grep -q '"hosts_folded":"node\[0013,0500-0501\]"' "$tmp/expect.json"; then
	ok "--expect names the three hosts that sent nothing, exit 2"
else
	no "--expect names the three hosts that sent nothing (exit $rc)"
fi

# The samples against the audit command, when this build has one: each
# machine's fresh audit must land in its sample's group with nothing odd.
if "$NICFIT" help audit >/dev/null 2>&1 && [ -f tests/fixtures/gen.sh ]; then
	sh tests/fixtures/gen.sh "$tmp/fx" >/dev/null 2>&1
	stale=
	for f in tests/fleet/audits/*.json; do
		m=$(basename "$f" .json)
		[ -d "$tmp/fx/$m" ] || { stale="$stale $m(no fixture)"; continue; }
		"$NICFIT" audit --sysfs "$tmp/fx/$m" --json >"$tmp/fresh.json" 2>/dev/null
		sed 's/"host":{"name":"[^"]*"/"host":{"name":"fresh"/' "$tmp/fresh.json" >"$tmp/pair.jsonl"
		sed 's/"host":{"name":"[^"]*"/"host":{"name":"sample"/' "$f" >>"$tmp/pair.jsonl"
		"$NICFIT" fleet -j "$tmp/pair.jsonl" >"$tmp/pair.out" 2>/dev/null
		grep -q '"groups":1,' "$tmp/pair.out" && grep -q '"anomalies":0,' "$tmp/pair.out" ||
			stale="$stale $m"
	done
	if [ -z "$stale" ]; then
		ok "tests/fleet/audits agree with nicfit audit on every fixture machine"
	else
		no "tests/fleet/audits differ from nicfit audit on:$stale (run tests/fleet/refresh.sh)"
	fi
else
	skip "no audit command in this build: tests/fleet/audits not compared with it"
fi
