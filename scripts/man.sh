#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# The man pages, made from the one source they must agree with: each command's own --help and
# --version (help2man, Debian package help2man): arbiter(1) from `arbiter --help`, and
# arbiter-COMMAND(1) for every command it lists.  libarbiter(3) is data/man/libarbiter.3.
# usage: scripts/man.sh ARBITER OUTDIR
set -eu
A=$1
out=$2
top=$(cd "$(dirname "$0")/.." && pwd)
command -v help2man >/dev/null 2>&1 || { echo "man.sh: help2man is not installed (sh scripts/deps.sh build)" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ver=$("$A" --version | sed 's/^arbiter //')
common="--no-info --no-discard-stderr --source=Arbiter --manual=Arbiter"
help2man $common --name="the complete laws of chess" --version-string="$ver" \
  --include="$top/data/man/arbiter.h2m" -o "$out/arbiter.1" "$A"
# each command: its line of `arbiter --help` is its name in the page
"$A" --help | sed -n 's/^  \([a-z][a-z]*\)  *\(.*\)$/\1\t\2/p' | while IFS="$(printf '\t')" read -r cmd what; do
  w="$tmp/arbiter-$cmd"
  # the page's name comes from the first word --version prints: arbiter-CMD
  printf '#!/bin/sh\n[ "$1" = --version ] && { echo "arbiter-%s %s"; exit 0; }\nexec "%s" %s "$@"\n' \
    "$cmd" "$ver" "$A" "$cmd" >"$w"
  chmod +x "$w"
  [ "$cmd" = version ] && continue
  help2man $common --name="$what" -o "$out/arbiter-$cmd.1" "$w"
done
cp "$top/data/man/libarbiter.3" "$out/libarbiter.3"
echo "man.sh: $(ls "$out" | wc -l) pages in $out" >&2
