#!/bin/sh
# Every man page in docs/ must format without a warning from man(1)
# (groff's --warnings), pass mandoc's lint at warning level when mandoc is
# installed (scripts/deps.sh check installs it), and never run words
# together: the font-alternating macros (.BR, .IR, .BI, ...) join their
# arguments without spaces, so two plain words side by side in one of them
# ("... ). Files that cannot ...") come out as one word.
set -u
n=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/runon.py" <<'PY'
import re, shlex, sys
bad = 0
for path in sys.argv[1:]:
    for no, line in enumerate(open(path, encoding='utf-8'), 1):
        m = re.match(r'\.(BR|BI|IB|IR|RB|RI)\s+(.*)', line)
        if not m:
            continue
        try:
            args = shlex.split(m.group(2).replace('\\', '\\\\'))
        except ValueError:
            print('%s:%d: cannot split the arguments' % (path, no)); bad = 1; continue
        word = re.compile(r'^[A-Za-z][A-Za-z\'-]*[,.;:]?$')
        for a, b in zip(args, args[1:]):
            if word.match(a) and word.match(b) and len(a) > 1 and len(b) > 1:
                print('%s:%d: .%s runs "%s" and "%s" together' % (path, no, m.group(1), a, b))
                bad = 1
                break
sys.exit(bad)
PY
for page in docs/*.[1-8]; do
	n=$((n + 1))
	MANWIDTH=80 man --warnings -E UTF-8 -l "$page" >/dev/null 2>"$tmp/err"
	if [ -s "$tmp/err" ]; then
		echo "not ok $n - man --warnings $page"
		sed 's/^/# /' "$tmp/err" | head -5
	else
		echo "ok $n - man --warnings $page"
	fi
	n=$((n + 1))
	if ! command -v mandoc >/dev/null 2>&1; then
		echo "ok $n - mandoc lint $page # skip mandoc not installed"
	elif mandoc -T lint -W warning "$page" >"$tmp/err" 2>&1; then
		echo "ok $n - mandoc lint $page"
	else
		echo "not ok $n - mandoc lint $page"
		sed 's/^/# /' "$tmp/err" | head -5
	fi
	n=$((n + 1))
	if python3 "$tmp/runon.py" "$page" >"$tmp/err" 2>&1; then
		echo "ok $n - no words run together in $page"
	else
		echo "not ok $n - words run together in $page"
		sed 's/^/# /' "$tmp/err" | head -5
	fi
done
