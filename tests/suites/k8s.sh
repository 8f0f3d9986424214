#!/bin/sh
# Kubernetes: the Dockerfile the NFD DaemonSet example's image is built
# from, checked as a linter would (hadolint is not in Debian): Debian base
# images only, packages from apt without recommends and without the lists
# left in the image, nothing fetched from the network by hand, the image
# made of the .deb `make deb` builds; and the DaemonSet against it: the
# image it names is the one the Dockerfile says to build, at this version,
# and its command runs as written on a fixture tree.
set -u
: "${NICFIT:=build/nicfit}" "${BUILD:=build}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
no() { n=$((n + 1)); echo "not ok $n - $1"; }
check() { # name command...
	name=$1; shift
	if "$@"; then ok "$name"; else no "$name"; fi
}
df=Dockerfile
ds=docs/examples/nicfit-nfd-daemonset.yaml
v=$(sed -n 's/^#define NICFIT_VERSION "\(.*\)"/\1/p' include/nicfit/version.h)

# Instructions with their continuation lines joined.
sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$df" | grep -v '^[[:space:]]*#' | grep -v '^[[:space:]]*$' >"$tmp/ins"
check "Dockerfile: every FROM is a Debian image (or an earlier stage)" sh -c \
	"! grep -i '^FROM ' '$tmp/ins' | grep -viq '^FROM debian:[a-z0-9.-]*\\( AS [a-z]*\\)\\?\$'"
check "Dockerfile: two stages, the image built from the build stage's package" sh -c \
	"[ \$(grep -ci '^FROM ' '$tmp/ins') = 2 ] && grep -q '^COPY --from=build /src/build/deb/nicfit_\\*\\.deb ' '$tmp/ins'"
check "Dockerfile: the build stage makes the package with make deb" grep -q '^RUN make deb$' "$tmp/ins"
check "Dockerfile: nothing fetched by hand (no ADD, curl, wget)" sh -c \
	"! grep -Eiq '^ADD |curl |wget ' '$tmp/ins'"
check "Dockerfile: every apt-get install without recommends and non-interactive" sh -c \
	"! grep 'apt-get install' '$tmp/ins' | grep -v -- '-y --no-install-recommends' | grep -q . &&
	 grep -q '^ENV DEBIAN_FRONTEND=noninteractive' '$tmp/ins'"
check "Dockerfile: every apt-get update removes the lists in the same layer" sh -c \
	"! grep 'apt-get update' '$tmp/ins' | grep -v 'rm -rf /var/lib/apt/lists/\\*' | grep -q ."
check "Dockerfile: the image installs the package with apt (its Depends come along)" \
	grep -q 'apt-get install -y --no-install-recommends /tmp/nicfit_\*\.deb' "$tmp/ins"
check "Dockerfile: the entry point is nicfit, the version label $v" sh -c \
	"grep -q '^ENTRYPOINT \\[\"nicfit\"\\]' '$tmp/ins' && grep -q 'image.version=\"$v\"' '$tmp/ins'"
check ".dockerignore keeps build outputs and .git out of the context" sh -c \
	"grep -qx build .dockerignore && grep -qx .git .dockerignore"

# The DaemonSet names the image the Dockerfile builds.
tag=$(sed -n 's/^#   docker build -t \([^ ]*\) .*/\1/p' "$df" | head -1)
img=$(sed -n 's/^ *image: *\([^ ]*\)$/\1/p' "$ds")
check "the DaemonSet's image ($img) is the Dockerfile's (docker build -t $tag)" \
	sh -c "[ -n '$img' ] && [ '$img' = '$tag' ] && [ '$tag' = 'nicfit:$v' ]"
if python3 -c 'import yaml' 2>/dev/null; then
	check "the DaemonSet is valid YAML: a DaemonSet reading /sys and /proc read-only" python3 -c '
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
c = d["spec"]["template"]["spec"]["containers"][0]
m = {v["name"]: v for v in c["volumeMounts"]}
assert d["kind"] == "DaemonSet" and d["apiVersion"] == "apps/v1"
assert m["sys"]["readOnly"] and m["proc"]["readOnly"]
assert m["features"]["mountPath"] == "/etc/kubernetes/node-feature-discovery/features.d"
' "$ds"
fi

# Its command, as written, on a fixture in place of the host.
cmd=$(sed -n '/nicfit audit/,/features.d\/nicfit/p' "$ds" | tr -d '\\' | tr '\n' ' ' | sed 's/  */ /g; s/^ *//')
mkdir -p "$tmp/host" "$tmp/features.d"
cp -R "$BUILD/fixtures/hgx-h100/." "$tmp/host/"
run=$(printf '%s\n' "$cmd" | sed "s|^nicfit |$NICFIT |; s|/host|$tmp/host|; s|/etc/kubernetes/node-feature-discovery/features.d|$tmp/features.d|")
echo "# $run"
sh -c "$run" >/dev/null 2>"$tmp/err"
rc=$?
check "the DaemonSet's audit runs as written (exit $rc: the audit's verdict, 0 to 2)" \
	sh -c "[ $rc -le 2 ] && [ ! -s '$tmp/err' ]"
check "it writes the labels with their expiry where nfd-worker reads them" sh -c \
	"grep -q '^# +expiry-time=' '$tmp/features.d/nicfit' && grep -q '^nicfit.io/gpus=8$' '$tmp/features.d/nicfit'"
exit 0
