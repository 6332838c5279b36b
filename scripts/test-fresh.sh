#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# The clean-room test (`make test-fresh`): a minimal Debian bookworm made by debootstrap in a
# folder, with only `make` and `git` added (and this machine's CA certificates and npm settings,
# so that the package registries answer there as they do here), a clean clone of this
# repository's HEAD copied in, and the README's two commands run there as a newcomer runs them:
#   1. `.ci/run` (which is `make test`) must pass;
#   2. `make run` must serve the page on loopback;
#   3. when ARBITER_FRESH_DEB=1 (or `make test-fresh-deb`): `make deb` builds the packages,
#      and a second fresh system installs them with apt and serves the page from them.
# It needs root (debootstrap, chroot, mounts) and takes many minutes.  Only committed work is
# tested: the clone is of HEAD.
# usage: scripts/test-fresh.sh [--keep] [--dir DIR]
#   --keep   leave the system in DIR afterwards (default: removed)
#   --dir    where to build it (default: build/fresh)
#   FRESH_MIRROR   the Debian mirror (default: the first URIs of this machine's sources)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir="$top/build/fresh"
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
  --keep) keep=1 ;;
  --dir) dir=$2; shift ;;
  -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "test-fresh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ "$(id -u)" != 0 ]; then
  echo "test-fresh: needs root (debootstrap, chroot and mounts); run it with sudo" >&2
  exit 2
fi
command -v debootstrap >/dev/null 2>&1 || sh "$top/scripts/deps.sh" fresh
mirror=${FRESH_MIRROR:-}
if [ -z "$mirror" ]; then
  mirror=$(grep -h -o -E '^(URIs:|deb) *(\[[^]]*\] *)?http[^ ]*' /etc/apt/sources.list.d/*.sources \
    /etc/apt/sources.list 2>/dev/null | head -1 | sed -E 's/^(URIs:|deb) *(\[[^]]*\] *)?//')
fi
mirror=${mirror:-http://deb.debian.org/debian}
say() { echo "test-fresh: $*" >&2; }

# mounts_under: the mount points under $dir, deepest first (read from /proc/mounts: the ones a
# run killed before its trap left behind too — their /dev is the host's, and removing files
# under a mounted $dir/root/dev once emptied this machine's /dev)
mounts_under() {
  [ -d "$dir" ] || return 0
  real=$(cd "$dir" && pwd -P)
  awk -v d="$real/" 'index($2 "/", d) == 1 { print $2 }' /proc/mounts | sort -r
}
# unmount_all: every mount under $dir; 1 when one is still there
unmount_all() {
  mounts_under | while read -r m; do umount -l "$m" 2>/dev/null || true; done
  if [ -n "$(mounts_under)" ]; then
    say "file systems are still mounted under $dir; not removing it"
    return 1
  fi
}
# remove_dir: $dir, never crossing into another file system
remove_dir() {
  unmount_all || return 1
  rm -rf --one-file-system "$dir"
}
cleanup() {
  if [ "$keep" = 0 ]; then remove_dir || true; else unmount_all || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# make_system ROOT: a fresh bookworm with make and git, the host's CA certificates and npm
# settings, and the kernel file systems a browser and tmux need.
make_system() {
  root=$1
  say "debootstrap bookworm into $root (from $mirror)"
  debootstrap --variant=minbase --include=make,git,ca-certificates bookworm "$root" "$mirror" \
    >"$dir/debootstrap.log" 2>&1 || { tail -20 "$dir/debootstrap.log" >&2; exit 1; }
  # the same package sources as here (updates and security), when this machine has them
  if ls /etc/apt/sources.list.d/*.sources >/dev/null 2>&1; then
    cp /etc/apt/sources.list.d/*.sources "$root/etc/apt/sources.list.d/"
    : >"$root/etc/apt/sources.list"
  fi
  # this machine's certificate authorities, so that npm's registry answers as it does here
  if [ -d /usr/local/share/ca-certificates ]; then
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp -R /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null 2>&1 || true
  fi
  cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
  [ -f "$HOME/.npmrc" ] && cp "$HOME/.npmrc" "$root/root/.npmrc"
  cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  for m in proc sys dev dev/pts; do
    mount --bind "/$m" "$root/$m"
  done
  mount -t tmpfs -o size=1g tmpfs "$root/dev/shm"
}

# in ROOT COMMAND: runs a shell command in the system as root, with a clean environment
in_root() {
  root=$1
  shift
  chroot "$root" /usr/bin/env -i HOME=/root TERM=xterm LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt /bin/sh -c "$*"
}

# serves ROOT COMMAND PORT: starts COMMAND in the system and waits for the page on PORT
serves() {
  root=$1 cmd=$2 port=$3
  in_root "$root" "$cmd" >"$dir/serve.log" 2>&1 &
  pid=$!
  i=0 ok=0
  while [ $i -lt 900 ]; do # the first `make run` builds the release preset and the page
    if curl -s -o /dev/null -m 2 "http://127.0.0.1:$port/"; then ok=1; break; fi
    kill -0 $pid 2>/dev/null || break
    sleep 1
    i=$((i + 1))
  done
  page=""
  [ $ok = 1 ] && page=$(curl -s -m 10 "http://127.0.0.1:$port/" || true)
  pkill -f -- "--port $port" 2>/dev/null || true
  kill $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  if ! echo "$page" | grep -q '<title>'; then
    say "'$cmd' did not serve the page on port $port; its output:"
    tail -30 "$dir/serve.log" >&2
    return 1
  fi
  say "'$cmd' served the page on port $port"
}

remove_dir || exit 1
mkdir -p "$dir"
root="$dir/root"
start=$(date +%s)
make_system "$root"
say "a clean clone of $(git -C "$top" rev-parse --short HEAD) into /root/arbiter"
git clone -q --no-local "$top" "$root/root/arbiter"
say "1/2: .ci/run (make test) on the fresh system; log in $dir/ci.log"
if ! in_root "$root" "cd /root/arbiter && .ci/run" >"$dir/ci.log" 2>&1; then
  say ".ci/run FAILED on the fresh system; the end of its log:"
  grep -E 'FAIL|Error|error:|tests failed|\*\*\*' "$dir/ci.log" | tail -40 >&2
  tail -40 "$dir/ci.log" >&2
  keep=1
  exit 1
fi
grep -E 'tests passed|tests failed' "$dir/ci.log" >&2 || true
say "2/2: make run"
serves "$root" "cd /root/arbiter && make run PORT=18931" 18931
if [ "${ARBITER_FRESH_DEB:-0}" = 1 ]; then
  say "3/3: make deb, then the packages installed on a second fresh system"
  in_root "$root" "cd /root/arbiter && make deb" >"$dir/deb.log" 2>&1 ||
    { tail -40 "$dir/deb.log" >&2; keep=1; exit 1; }
  debs=$(ls "$root/root/arbiter/build/deb/"*.deb)
  root2="$dir/root2"
  make_system "$root2"
  mkdir -p "$root2/root/debs"
  cp $debs "$root2/root/debs/"
  in_root "$root2" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /root/debs/*.deb" \
    >"$dir/install.log" 2>&1 || { tail -40 "$dir/install.log" >&2; keep=1; exit 1; }
  # minbase has no man(1): the page is checked as a file where man looks for it
  in_root "$root2" "test -s /usr/share/man/man1/arbiter-pgn.1.gz && arbiter --version" >&2
  serves "$root2" "arbiter serve --port 18932 --state-dir /tmp/arbiter-state" 18932
fi
say "passed in $(($(date +%s) - start)) s"
