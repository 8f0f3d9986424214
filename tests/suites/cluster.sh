#!/bin/sh
# Port maps written by `nicfit cluster --port-map FILE.csv`: a small golden
# map, then for several designs the checks an installer relies on, in awk:
# every node port cabled once, no switch port used twice, and the rows of
# each kind equal to the link counts of the JSON summary. Also: the file
# appears only when complete, with the usual file mode. TAP output.
set -u
: "${NICFIT:=build/nicfit}"
dir=tests/cli/cases
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); echo "not ok $n - $1"; }

# golden: a small map, byte for byte
golden=$dir/cluster-portmap.csv
"$NICFIT" cluster --nodes 8 --gpus-per-node 2 --nics-per-node 2 --nic-gbps 25 --switch sn2100 \
	--port-map "$tmp/pm.csv" >/dev/null 2>"$tmp/err"
if [ "${UPDATE_GOLDEN:-}" = 1 ]; then
	cp "$tmp/pm.csv" "$golden"
	ok "golden port map (updated)"
elif cmp -s "$tmp/pm.csv" "$golden"; then
	ok "golden port map"
else
	diff -u "$golden" "$tmp/pm.csv" | head -20 | sed 's/^/# /'
	notok "golden port map"
fi

# consistency: name args...
check() {
	name=$1
	shift
	if ! "$NICFIT" -j cluster "$@" --port-map "$tmp/map.csv" >"$tmp/sum.json" 2>"$tmp/err"; then
		sed 's/^/# /' "$tmp/err"
		notok "$name: nicfit failed"
		return
	fi
	# link counts per network from the summary: "links":{"host":N,...} in network order
	grep -o '"links":{[^}]*}' "$tmp/sum.json" | sed 's/[^0-9,]//g' >"$tmp/counts"
	grep -o '"\(backend\|frontend\|oob\)":\(null\|{"tiers"\)' "$tmp/sum.json" |
		sed -n 's/"\([a-z]*\)":{"tiers"/\1/p' >"$tmp/nets"
	grep -o '"links_per_node":[0-9]*' "$tmp/sum.json" | head -1 | sed 's/.*://' >"$tmp/k"
	grep -o '"nodes":[0-9]*' "$tmp/sum.json" | head -1 | sed 's/.*://' >"$tmp/nodes"
	why=$(paste -d' ' "$tmp/nets" "$tmp/counts" | awk -v nodes="$(cat "$tmp/nodes")" \
		-v k="$(cat "$tmp/k")" -v map="$tmp/map.csv" '
		{
			split($0, a, " "); split(a[2], v, ",")
			net[NR] = a[1]; host[a[1]] = v[1]; ls[a[1]] = v[2]; sc[a[1]] = v[3]; mg[a[1]] = v[4]
		}
		END {
			FS = ","
			while ((getline line < map) > 0) {
				rows++
				if (rows == 1) {
					if (line != "link_type,endpoint_a,port_a,endpoint_b,port_b,cable,length_m,plane,rail")
						bad = bad " header"
					continue
				}
				# LF line ends, as every CSV nicfit writes (docs/formats.md)
				if (line ~ /\r/) { bad = bad " crlf@" rows; continue }
				nf = split(line, f, ",")
				if (nf != 9) { bad = bad " fields@" rows; continue }
				if (seen[f[2] "/" f[3]]++) bad = bad " dup:" f[2] "/" f[3]
				if (seen[f[4] "/" f[5]]++) bad = bad " dup:" f[4] "/" f[5]
				if (f[7] + 0 <= 0 || f[6] == "") bad = bad " nocable@" rows
				kind[f[1]]++
				if (f[1] == "backend-host") nodeport[f[2] "/" f[3]]++
			}
			for (i in nodeport) np++
			if (host["backend"] != "" && np != nodes * k) bad = bad " nodeports=" np
			for (i = 1; i <= NR; i++) {
				x = net[i]
				h = kind[x "-host"] + kind[x "-bmc"]
				if (h != host[x]) bad = bad " " x "-host=" h "/" host[x]
				if (kind[x "-leaf-spine"] + 0 != ls[x]) bad = bad " " x "-leaf-spine"
				if (kind[x "-spine-core"] + 0 != sc[x]) bad = bad " " x "-spine-core"
				if (kind[x "-mgmt"] + 0 != mg[x]) bad = bad " " x "-mgmt"
			}
			print bad
		}')
	if [ -z "$why" ]; then ok "$name"; else notok "$name:$why"; fi
}

check "SuperPOD 1 SU, rail-optimized" --nodes 64 --rail-optimized
check "non-rail, 3:1" --nodes 100 --oversubscription 3
check "three tiers" --nodes 600 --frontend-links 2
check "two planes, two ports per NIC" --nodes 96 --nics-per-node 8 --nic-ports 2 --planes 2 --rail-optimized
check "breakout 4x25" --nodes 40 --gpus-per-node 2 --nics-per-node 2 --nic-gbps 25 --switch sn2700
check "rail-only" --nodes 48 --rail-only --frontend-links 2
check "InfiniBand, 2 nodes per rack" --nodes 16 --switch qm9700 --nic mcx75310aas-neat --nodes-per-rack 2

# the map appears complete or not at all
if "$NICFIT" cluster --nodes 4 --port-map "$tmp/no/such/dir/map.csv" >/dev/null 2>"$tmp/err"; then
	notok "unwritable port map fails"
else
	rc=$?
	if [ "$rc" -ge 64 ] && grep -q 'map.csv' "$tmp/err" && [ ! -e "$tmp/no" ]; then
		ok "unwritable port map fails with exit $rc and no file"
	else
		notok "unwritable port map: exit $rc"
	fi
fi
left=$(find "$tmp" -name '*.tmp*' | wc -l)
if [ "$left" -eq 0 ]; then ok "no temporary files left"; else notok "$left temporary files left"; fi
( umask 022 && "$NICFIT" cluster --nodes 4 --port-map "$tmp/mode.csv" >/dev/null )
mode=$(stat -c %a "$tmp/mode.csv" 2>/dev/null)
if [ "$mode" = 644 ]; then ok "port map mode 644 under umask 022"; else notok "port map mode $mode"; fi
# the summary names the file and the row count
"$NICFIT" cluster --nodes 4 --port-map "$tmp/x.csv" >"$tmp/out"
rows=$(($(wc -l <"$tmp/x.csv") - 1))
if grep -q "Port map: $tmp/x.csv ($rows links)" "$tmp/out"; then ok "summary names the port map"; else notok "summary names the port map"; fi
