#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
#
# pgn-same.sh OLD NEW: for speed work on `arbiter pgn` — two arbiter binaries (say the one
# before a change and the one after) must report and write the same on every PGN file at hand:
# ../shared/data/pgn (when there), tests/ and fuzz/corpus/pgn, each read by
#   check (plain, --strict, --allow-null, --json, --rules online, --rules uscf) and
#   convert (pgn, jsonl, fen),
# stdout, stderr and exit status compared (-q: no summary line, whose timing differs).
# Prints each run that differs, then a count; exit status 1 when any differs.
set -u
[ $# -eq 2 ] || { echo "usage: $0 OLD_ARBITER NEW_ARBITER" >&2; exit 2; }
old=$1 new=$2
top=$(cd "$(dirname "$0")/.." && pwd)
dirs="$top/tests $top/fuzz/corpus/pgn"
[ -d "$top/../shared/data/pgn" ] && dirs="$top/../shared/data/pgn $dirs"
n=0 differ=0
# shellcheck disable=SC2086 # $dirs is a list of directories
for f in $(find $dirs -type f \( -name '*.pgn' -o -path '*corpus/pgn/*' \) | sort); do
  for mode in "check" "check --strict" "check --allow-null" "check --json" \
    "check --rules online" "check --rules uscf" "convert" "convert --to jsonl" \
    "convert --to fen"; do
    # shellcheck disable=SC2086 # the mode's words are separate arguments
    a=$("$old" pgn $mode -q "$f" 2>&1; echo "exit $?")
    # shellcheck disable=SC2086
    b=$("$new" pgn $mode -q "$f" 2>&1; echo "exit $?")
    n=$((n + 1))
    if [ "$a" != "$b" ]; then
      echo "differs: pgn $mode $f"
      differ=$((differ + 1))
    fi
  done
done
echo "pgn-same: $n runs compared, $differ differ"
[ "$differ" -eq 0 ]
