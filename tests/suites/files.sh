#!/bin/sh
# What nicfit writes on the filesystem when the destination is not a plain
# new name: --output and --port-map into a device, a FIFO, a symbolic link,
# a directory, a socket, "-", a file with two names, a file with its own
# mode, /dev/stdout appended to, one of the command's inputs or a file in
# a directory it lists, past ulimit
# -f, and from a terminal (src/cli/output.h); snapshot DEST that is a
# link or exists; and an archive audit interrupted by a signal, which must
# leave no unpacked tree behind. Every device, FIFO and link is made here,
# in this suite's own directory: nothing points at /dev or a system path.
# TAP output.
set -u
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
fx=$(cd "$BUILD/fixtures/kvm-vm" && pwd)
bin=$(cd "$(dirname "$NICFIT")" && pwd)/$(basename "$NICFIT")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { # name command... (true/false)
	name=$1; shift
	if "$@"; then ok "$name"; else no "$name"; fi
}

audit_to() { # DEST: audit the fixture with --output DEST, stderr in $tmp/err, exit in $rc
	"$NICFIT" audit --sysfs "$fx" --no-pci-ids --output "$1" >"$tmp/stdout" 2>"$tmp/err"
	rc=$?
}

# ---- --output and --port-map ---------------------------------------------------
o="$tmp/out"
mkdir "$o"
"$NICFIT" audit --sysfs "$fx" --no-pci-ids >"$tmp/want" 2>/dev/null

if mknod -m 666 "$o/null" c 1 3 2>/dev/null; then
	audit_to "$o/null"
	check "--output DEVICE: exit 0, written to (the device stays a device)" \
		sh -c "[ $rc -le 2 ] && [ -c '$o/null' ] && [ ! -s '$tmp/err' ]"
	"$NICFIT" cluster --nodes 4 --port-map "$o/null" >/dev/null 2>"$tmp/err"
	check "--port-map DEVICE: written to, still a device" sh -c "[ $? = 0 ] && [ -c '$o/null' ]"
else
	skip "--output DEVICE" "mknod not permitted"
	skip "--port-map DEVICE" "mknod not permitted"
fi

mkfifo "$o/fifo"
audit_to "$o/fifo"
check "--output FIFO without a reader: exit 74 at once, one line, still a FIFO" \
	sh -c "[ $rc = 74 ] && [ -p '$o/fifo' ] && grep -q 'no process reads' '$tmp/err' &&
	       [ \$(wc -l <'$tmp/err') = 1 ]"
timeout 20 cat "$o/fifo" >"$tmp/fifo.got" &
reader=$!
# the reader may not have opened the FIFO yet (a loaded machine): until it
# has, the writer is refused (74) without writing, so try again a while
i=0
while :; do
	audit_to "$o/fifo"
	[ "$rc" != 74 ] || [ $i -ge 100 ] && break
	i=$((i + 1))
	sleep 0.1
done
wait $reader
check "--output FIFO with a reader: the report reaches the reader, still a FIFO" \
	sh -c "[ $rc -le 2 ] && [ -p '$o/fifo' ] && cmp -s '$tmp/want' '$tmp/fifo.got'"

echo old >"$o/target"
ln -s target "$o/link"
audit_to "$o/link"
check "--output LINK: the file it names is replaced, the link stays" \
	sh -c "[ $rc -le 2 ] && [ -L '$o/link' ] && cmp -s '$tmp/want' '$o/target'"
"$NICFIT" cluster --nodes 4 --port-map "$o/link" >/dev/null 2>&1
check "--port-map LINK: the file it names gets the map, the link stays" \
	sh -c "[ -L '$o/link' ] && head -1 '$o/target' | grep -q '^link_type,'"
ln -s nowhere "$o/dangling"
audit_to "$o/dangling"
check "--output LINK to nothing: exit 74, one line, nothing created through it" \
	sh -c "[ $rc = 74 ] && [ ! -e '$o/nowhere' ] && [ -L '$o/dangling' ] &&
	       [ \$(wc -l <'$tmp/err') = 1 ] && grep -q 'link to nothing' '$tmp/err'"

mkdir "$o/dir"
audit_to "$o/dir"
check "--output DIRECTORY: exit 74, one line" sh -c "[ $rc = 74 ] && [ \$(wc -l <'$tmp/err') = 1 ]"
if python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$o/sock" \
	2>/dev/null; then
	audit_to "$o/sock"
	check "--output SOCKET: exit 74, one line, still a socket" \
		sh -c "[ $rc = 74 ] && [ -S '$o/sock' ] && grep -q socket '$tmp/err'"
else
	skip "--output SOCKET" "no python3 to make a socket"
fi

(cd "$o" && "$bin" audit --sysfs "$fx" --no-pci-ids --output - >"$tmp/stdout" 2>"$tmp/err")
rc=$?
check "--output -: the report on standard output, no file named '-'" \
	sh -c "[ $rc -le 2 ] && [ ! -e '$o/-' ] && cmp -s '$tmp/stdout' '$tmp/want'"
(cd "$o" && "$bin" cluster --nodes 4 --port-map - >"$tmp/stdout" 2>"$tmp/err")
rc=$?
check "--port-map -: exit 64 (standard output carries the report), no file named '-'" \
	sh -c "[ $rc = 64 ] && [ ! -e '$o/-' ] && [ \$(wc -l <'$tmp/err') = 1 ]"
echo old >"$o/one"
ln "$o/one" "$o/two"
audit_to "$o/one"
check "--output FILE with two names (hard link): both names get the report" \
	sh -c "[ $rc -le 2 ] && cmp -s '$tmp/want' '$o/two' && [ \$(stat -c %h '$o/one') = 2 ]"
echo old >"$o/private"
chmod 600 "$o/private"
audit_to "$o/private"
check "--output FILE replaced: its mode 0600 is kept" \
	sh -c "[ $rc -le 2 ] && [ \$(stat -c %a '$o/private') = 600 ] && cmp -s '$tmp/want' '$o/private'"
echo log >"$o/log"
"$NICFIT" audit --sysfs "$fx" --no-pci-ids --output /dev/stdout >>"$o/log" 2>"$tmp/err"
rc=$?
check "--output /dev/stdout with standard output appended to a file: added to, not replaced" \
	sh -c "[ $rc -le 2 ] && [ \"\$(head -1 '$o/log')\" = log ] &&
	       tail -n +2 '$o/log' | cmp -s - '$tmp/want'"
echo '{"gpus": "2xA40"}' >"$o/spec.json"
ln -s spec.json "$o/spec-link.json"
"$NICFIT" audit --sysfs "$fx" --no-pci-ids --plan "$o/spec.json" --output "$o/spec-link.json" \
	>"$tmp/stdout" 2>"$tmp/err"
rc=$?
check "--output naming the --plan file (through a link): exit 64, one line, the spec kept" \
	sh -c "[ $rc = 64 ] && [ \$(wc -l <'$tmp/err') = 1 ] && grep -q 'the file --plan reads' '$tmp/err' &&
	       grep -q 2xA40 '$o/spec.json'"
cp "$tmp/want" "$o/dump.txt"
"$NICFIT" audit --dump "$o/dump.txt" --output "$o/dump.txt" >/dev/null 2>"$tmp/err"
check "--output naming the --dump file: exit 64, the dump kept" \
	sh -c "[ $? = 64 ] && cmp -s '$tmp/want' '$o/dump.txt'"
"$NICFIT" fleet "$o/dump.txt" --output "$o/dump.txt" >/dev/null 2>"$tmp/err"
check "fleet --output naming one of its inputs: exit 64, the input kept" \
	sh -c "[ $? = 64 ] && cmp -s '$tmp/want' '$o/dump.txt'"
mkdir "$o/audits" "$o/dumps"
"$NICFIT" -j audit --sysfs "$fx" --no-pci-ids >"$o/audits/vm.json" 2>/dev/null
"$NICFIT" fleet "$o/audits" --output "$o/audits/fleet.json" >/dev/null 2>"$tmp/err"
rc=$?
check "fleet DIR --output DIR/x.json: exit 64, one line naming DIR, nothing written there" \
	sh -c "[ $rc = 64 ] && [ \$(wc -l <'$tmp/err') = 1 ] && grep -q 'which it reads' '$tmp/err' &&
	       [ ! -e '$o/audits/fleet.json' ]"
"$NICFIT" fleet "$o/audits" --output "$o/audits/fleet.txt" >/dev/null 2>"$tmp/err"
rc=$?
check "fleet DIR --output DIR/x.txt (a name fleet does not list): written" \
	sh -c "[ $rc -le 2 ] && [ -s '$o/audits/fleet.txt' ]"
cp "$tmp/want" "$o/dumps/one.txt"
mkdir "$o/dumps/sub"
"$NICFIT" audit --dump "$o/dumps" --output "$o/dumps/sub/../sub/report.txt" >/dev/null 2>"$tmp/err"
rc=$?
check "audit --dump DIR --output under DIR: exit 64, nothing written there" \
	sh -c "[ $rc = 64 ] && grep -q -- '--dump' '$tmp/err' && [ ! -e '$o/dumps/sub/report.txt' ]"
echo old >"$o/limited.json"
(ulimit -f 4 && "$NICFIT" -j audit --sysfs "$fx" --no-pci-ids --output "$o/limited.json") \
	>/dev/null 2>"$tmp/err"
rc=$?
check "--output past ulimit -f: exit 74, one line, the old file kept, no temporary file" \
	sh -c "[ $rc = 74 ] && [ \$(wc -l <'$tmp/err') = 1 ] && grep -q 'as it was' '$tmp/err' &&
	       [ \"\$(cat '$o/limited.json')\" = old ] && [ -z \"\$(find '$o' -name '.*.??????')\" ]"
if command -v script >/dev/null 2>&1; then
	COLUMNS=50 script -qc "'$bin' audit --sysfs '$fx' --no-pci-ids --output '$o/tty.txt'" /dev/null \
		>/dev/null 2>&1
	check "--output FILE from a terminal: laid out as for a file (no colour, no terminal width)" \
		cmp -s "$tmp/want" "$o/tty.txt"
else
	skip "--output FILE from a terminal" "no script(1)"
fi
check "no temporary file left beside any destination" \
	sh -c "[ -z \"\$(find '$o' -name '.*.??????')\" ]"

# ---- snapshot DEST -------------------------------------------------------------
s="$tmp/snap"
mkdir "$s" "$s/elsewhere"
ln -s "$s/victim.tar.gz" "$s/link.tar.gz"
ln -s "$s/victim.tar" "$s/link.tar"
ln -s "$s/elsewhere" "$s/linkdir"
for d in link.tar.gz link.tar linkdir; do
	"$NICFIT" snapshot --sysfs "$fx" "$s/$d" >/dev/null 2>"$tmp/err"
	rc=$?
	check "snapshot to a symbolic link ($d): exit 64, one line naming it, nothing written" \
		sh -c "[ $rc = 64 ] && [ \$(wc -l <'$tmp/err') = 1 ] &&
		       grep -q '$d: is a symbolic link' '$tmp/err' && [ -L '$s/$d' ] &&
		       [ ! -e '$s/victim.tar.gz' ] && [ ! -e '$s/victim.tar' ] &&
		       [ -z \"\$(ls -A '$s/elsewhere')\" ]"
done
: >"$s/there.tar.gz"
"$NICFIT" snapshot --sysfs "$fx" "$s/there.tar.gz" >/dev/null 2>"$tmp/err"
check "snapshot to an existing file: exit 64, left empty" \
	sh -c "[ $? = 64 ] && [ ! -s '$s/there.tar.gz' ] && grep -q 'already exists' '$tmp/err'"

# ---- an archive audit stopped by a signal ---------------------------------------
# 30,000 small files: unpacking them takes seconds, so SIGTERM lands while
# the tree is being written (or audited); either way none of it may stay.
xt="$tmp/xt"
mkdir "$xt"
if python3 - "$tmp/big.tar.gz" <<'PY'
import io, sys, tarfile
t = tarfile.open(sys.argv[1], "w:gz", format=tarfile.GNU_FORMAT)
for i in range(30000):
    ti = tarfile.TarInfo(f"x/sys/d{i // 1000}/{i}")
    ti.size = 2
    t.addfile(ti, io.BytesIO(b"1\n"))
t.close()
PY
then
	TMPDIR=$xt "$NICFIT" audit --sysfs "$tmp/big.tar.gz" >/dev/null 2>&1 &
	pid=$!
	i=0
	while [ $i -lt 300 ] && [ "$(find "$xt" -type f 2>/dev/null | head -200 | wc -l)" -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -TERM $pid 2>/dev/null
	wait $pid 2>/dev/null
	rc=$?
	check "SIGTERM during an archive audit: the process ends by SIGTERM (exit $rc)" [ $rc = 143 ]
	check "SIGTERM during an archive audit: no unpacked tree left in \$TMPDIR" \
		[ -z "$(ls -A "$xt")" ]
else
	skip "SIGTERM during an archive audit" "no python3 to build the archive"
	skip "SIGTERM during an archive audit: nothing left" "no python3"
fi
