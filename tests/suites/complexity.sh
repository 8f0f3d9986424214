#!/bin/sh
# complexity.sh - every parser that takes large input does work in
# proportion to it: the instructions a run executes (valgrind's callgrind,
# counted, not timed, so the machine's load does not move them) are
# measured for one unit of input, n units and 2n units, and of them those
# under the parser's entry point (callgrind's inclusive count); the
# parser's work for the n units (less the one-unit run's) must at most
# triple when n doubles. The whole run's ratio is said beside it; for the
# audits of a dump (parse, model, judgement and the report together: issue
# 41's "linear in functions") the whole run must at most triple too, and
# for the others a comment line says when the work after the parse grows
# faster. Linear work doubles; a quadratic step quadruples,
# so the bound of 3 fails it where "more than 4x" would let a pure
# quadratic pass. Parsers: the spec JSON (plan --spec), pasted text (audit
# --dump of lspci), an NCCL log (verify), topology XML (audit --dump of an
# NCCL topo file) and an archive walk (audit --dump of a tar.gz of pastes).
# Prints TAP; without valgrind, or under SANITIZE=1: one "ok # skip" line.
set -u
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
n=0
if ! command -v valgrind >/dev/null 2>&1; then
	echo "1..1"
	echo "ok 1 # skip valgrind is not installed (scripts/deps.sh check)"
	exit 0
fi
# An ASan build does not run under valgrind (its shadow memory takes the
# address space valgrind needs); the plain build's run of make check counts.
if [ "${SANITIZE:-}" = 1 ]; then
	echo "1..1"
	echo "ok 1 # skip SANITIZE=1: valgrind cannot run an ASan build; make check counts the plain one"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 - "$tmp" <<'PY'
import io, sys, tarfile
d = sys.argv[1]
def spec(k):      # k settings of 2,000 bytes each
    return "{" + ",".join('"k%05d": "%s"' % (i, "v" * 2000) for i in range(k)) + "}\n"
def lspci_line(i):
    return ("%02x:%02x.%d Ethernet controller [0200]: Mellanox Technologies MT2910 Family "
            "[ConnectX-7] [15b3:1021]" % ((i // 32) % 256, i % 32, i // 8192))
def lspci(k):
    return "".join(lspci_line(i) + "\n" for i in range(k))
def xml(k):
    s = '<system version="1">\n<cpu numaid="0" affinity="ffffffff" arch="x86_64" vendor="GenuineIntel" familyid="6" modelid="143">\n'
    for i in range(k):
        s += ('<pci busid="0000:%02x:%02x.0" class="0x020000" vendor="0x15b3" device="0x1021" '
              'link_speed="32.0 GT/s PCIe" link_width="16"/>\n' % ((i // 32) % 256, i % 32))
    return s + "</cpu>\n</system>\n"
def bundle(path, k):  # a sosreport-like tar.gz of k small pastes
    with tarfile.open(path, "w:gz") as t:
        for i in range(k):
            b = ("# lspci -nn\n" + lspci_line(i) + "\n").encode()
            ti = tarfile.TarInfo("sosreport-x/sos_commands/pci/lspci_%05d" % i)
            ti.size = len(b)
            t.addfile(ti, io.BytesIO(b))
for tag, k in (("1", 1), ("n", 100), ("2n", 200)):
    open(f"{d}/spec.{tag}.json", "w").write(spec(k))
for tag, k in (("1", 1), ("n", 500), ("2n", 1000)):
    open(f"{d}/lspci.{tag}.txt", "w").write(lspci(k))
    open(f"{d}/topo.{tag}.xml", "w").write(xml(k))
for tag, k in (("1", 1), ("n", 100), ("2n", 200)):
    bundle(f"{d}/bundle.{tag}.tar.gz", k)
PY
for tag in 1 n 2n; do
	case $tag in 1) mb=0.005 ;; n) mb=0.25 ;; 2n) mb=0.5 ;; esac
	awk -v mb=$mb -v nodes=2 -f bench/verify_log_gen.awk >"$tmp/nccl.$tag.log"
done

# count FN COMMAND...: "TOTAL PARSER", the instructions the run executed
# and those under the parser FN (inclusive), from callgrind's profile
count() {
	fn=$1
	shift
	valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" "$@" >/dev/null 2>"$tmp/cg"
	t=$(sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$tmp/cg")
	p=$(callgrind_annotate --inclusive=yes "$tmp/cg.out" 2>/dev/null |
		awk -v fn="$fn" '$0 ~ (":" fn " ") { gsub(",", "", $1); print $1; exit }')
	echo "${t:-0} ${p:-0}"
}

# ratio A1 AN A2N: (A2N - A1) / (AN - A1) in hundredths
ratio() { echo $(( ($3 - $1) * 100 / ($2 - $1) )); }
shown() { echo "$(($1 / 100)).$(printf %02d $(($1 % 100)))x"; }

# linear NAME FN WHOLE FILE-PATTERN COMMAND-BEFORE-FILE...: @ in the pattern
# is 1, n, 2n. The parser FN's own work fails past 3x; the whole run's ratio
# is said beside it, and fails past 3x too where WHOLE is "whole" (else
# "parse": a comment line only).
linear() {
	name=$1 fn=$2 whole=$3 pat=$4
	shift 4
		r1=$(count "$fn" "$@" "$(echo "$pat" | sed 's/@/1/')")
	rn=$(count "$fn" "$@" "$(echo "$pat" | sed 's/@/n/')")
	r2=$(count "$fn" "$@" "$(echo "$pat" | sed 's/@/2n/')")
	n=$((n + 1))
	set -- $r1 $rn $r2
	if [ "$2" = 0 ] || [ "$4" -le "$2" ] || [ "$6" -le "$4" ]; then
		echo "not ok $n - $name: no count from callgrind for $fn ($(tail -2 "$tmp/cg" | tr '\n' ' '))"
		return
	fi
	rp=$(ratio "$2" "$4" "$6")
	rt=$(ratio "$1" "$3" "$5")
	line="$name: 2x the input costs $fn $(shown "$rp") the instructions ($(($4 - $2)) then $(($6 - $2))); the whole run $(shown "$rt")"
	if [ "$rp" -gt 300 ]; then
		echo "not ok $n - $line: more than 3x"
	elif [ "$whole" = whole ] && [ "$rt" -gt 300 ]; then
		echo "not ok $n - $line: the whole run more than 3x (the model or judgement is not linear in functions)"
	else
		echo "ok $n - $line"
	fi
	[ "$whole" = whole ] || [ "$rt" -le 300 ] ||
		echo "# $name: the whole run grows faster than its input ($(shown "$rt")): the work after the parse is not linear"
}

echo "1..5"
linear "spec JSON (plan --spec, 100 and 200 settings of 2 kB)" nicfit_spec_parse_json parse \
	"$tmp/spec.@.json" "$NICFIT" plan --spec
linear "pasted text (audit --dump, 500 and 1,000 lspci lines)" nicfit_dump_add_path whole \
	"$tmp/lspci.@.txt" "$NICFIT" audit --dump
linear "topology XML (audit --dump, 500 and 1,000 PCI devices)" nicfit_dump_add_path whole \
	"$tmp/topo.@.xml" "$NICFIT" audit --dump
linear "NCCL log (verify, 0.25 and 0.5 MB)" nicfit_verify_add_file parse \
	"$tmp/nccl.@.log" "$NICFIT" verify
linear "archive walk (audit --dump, tar.gz of 100 and 200 pastes)" nicfit_dump_add_path whole \
	"$tmp/bundle.@.tar.gz" "$NICFIT" audit --dump
