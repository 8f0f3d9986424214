#!/bin/sh
# Install the Debian packages nicfit needs, and only those that are missing.
#
#   scripts/deps.sh build    compiler, pkg-config, jansson, libmicrohttpd, cmocka, libarchive, libsmartcols, libxml2
#   scripts/deps.sh check    build + what the test suite uses (g++, lstopo, chromium, curl, jq, node,
#                            mandoc, python3, zsh, fish, promtool, node_exporter, shellcheck and zstd)
#   scripts/deps.sh deb      build + what make deb and check-deb use (build-essential, which
#                            dpkg-buildpackage requires, dpkg-dev, debhelper, lintian, man-db)
#   scripts/deps.sh bench    check + what the benchmarks use (hyperfine, wrk, nginx)
#
# It asks apt-get only when something is missing, so a second run is silent and
# needs no network. Run as root, or as a user who can sudo.
set -eu

group=${1:-build}
pkgs="gcc make pkg-config libjansson-dev libmicrohttpd-dev libcmocka-dev libarchive-dev libsmartcols-dev libxml2-dev"
case "$group" in
build) ;;
check) pkgs="$pkgs g++ hwloc-nox chromium pciutils curl jq nodejs mandoc python3 zsh fish prometheus prometheus-node-exporter shellcheck zstd" ;;
deb) pkgs="$pkgs build-essential dpkg-dev debhelper lintian man-db" ;;
bench) pkgs="$pkgs g++ hwloc-nox chromium pciutils curl jq nodejs mandoc python3 zsh fish prometheus prometheus-node-exporter shellcheck hyperfine wrk nginx-light valgrind" ;;
*) echo "usage: scripts/deps.sh build|check|deb|bench" >&2; exit 64 ;;
esac

missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done
# npm comes with some builds of nodejs (NodeSource) and separately in Debian's.
if [ "$group" != build ] && [ "$group" != deb ] && ! command -v npm >/dev/null 2>&1; then missing="$missing npm"; fi
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: missing packages:$missing (no apt-get here: install them by hand)" >&2
	exit 69
fi
sudo=
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then sudo=sudo; else
		echo "deps: missing packages:$missing (run as root or install sudo)" >&2
		exit 77
	fi
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2 || true
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >&2
