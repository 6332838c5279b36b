#!/bin/sh
# Differential tests against chessops: `arbiter query` on random games (diff.mjs), and
# `arbiter pgn` on PGN files (pgn.mjs: --pgn FILE..., or --pgn-dir DIR for every *.pgn under DIR,
# exit 77 = skipped when DIR does not exist).
# usage: tests/diff/run.sh ARBITER_BINARY [--games N] [--seed S] [--max-plies P] [--max-reports R]
#        tests/diff/run.sh ARBITER_BINARY --pgn FILE... | --pgn-dir DIR
#        tests/diff/run.sh ARBITER_BINARY --tree FILE... | --tree-dir DIR   (tree.mjs: game trees)
#        tests/diff/run.sh ARBITER_BINARY --quiz FILE.jsonl   (quiz.mjs: the quiz bank's answers)
#        tests/diff/run.sh ARBITER_BINARY --review FILE.pgn   (review.mjs: `train review`'s findings)
set -u

here=$(cd "$(dirname "$0")" && pwd)

if [ $# -lt 1 ] || [ "$1" = "-h" ] || [ "$1" = "--help" ]; then
    echo "usage: $0 ARBITER_BINARY [--games N] [--seed S] [--max-plies P] [--max-reports R]" >&2
    exit 2
fi
arbiter=$1
shift
case $arbiter in
    */*) ;;
    *) arbiter=$(command -v "$arbiter" || echo "$arbiter") ;;
esac
if [ ! -x "$arbiter" ]; then
    echo "diff: arbiter binary '$arbiter' not found or not executable (build it: cmake --preset release && cmake --build build/release)" >&2
    exit 1
fi
# diff.mjs runs from $here; make the binary's path absolute.
case $arbiter in
    /*) ;;
    *) arbiter=$(cd "$(dirname "$arbiter")" && pwd)/$(basename "$arbiter") ;;
esac

have_node() { command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; }

if ! have_node; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "diff: node/npm missing; installing nodejs and npm with apt-get" >&2
        apt-get update >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm >&2
    fi
    if ! have_node; then
        echo "diff: FAILED: node and npm are required (install Node.js >= 18 with npm); the differential test did not run" >&2
        exit 1
    fi
fi

cd "$here" || exit 1

# Install chessops (pinned in package-lock.json) unless the pinned version is already there.
want=$(node -e 'console.log(require("./package.json").dependencies.chessops)' 2>/dev/null)
got=$(node -e 'console.log(require("./node_modules/chessops/package.json").version)' 2>/dev/null || true)
if [ -z "$want" ] || [ "$want" != "$got" ]; then
    echo "diff: installing npm dependencies into $here/node_modules" >&2
    if ! npm ci --no-audit --no-fund >&2; then
        echo "diff: npm ci failed; trying npm install" >&2
        if ! npm install --no-audit --no-fund >&2; then
            echo "diff: FAILED: could not install chessops from the npm registry; the differential test did not run" >&2
            exit 1
        fi
    fi
fi

case ${1:-} in
    --tree)
        shift
        exec node "$here/tree.mjs" --arbiter "$arbiter" "$@" ;;
    --tree-dir)
        if [ ! -d "${2:-}" ]; then
            echo "diff: SKIPPED: no PGN directory at ${2:-}" >&2
            exit 77
        fi
        exec node "$here/tree.mjs" --arbiter "$arbiter" $(find "$2" -name '*.pgn' | sort) ;;
    --quiz)
        exec node "$here/quiz.mjs" "$2" ;;
    --review)
        if [ ! -f "${2:-}" ]; then
            echo "diff: SKIPPED: no PGN file at ${2:-}" >&2
            exit 77
        fi
        exec node "$here/review.mjs" "$arbiter" "$2" ;;
    --pgn)
        shift
        exec node "$here/pgn.mjs" --arbiter "$arbiter" "$@" ;;
    --pgn-dir)
        if [ ! -d "${2:-}" ]; then
            echo "diff: SKIPPED: no PGN directory at ${2:-}" >&2
            exit 77
        fi
        # (file names in the corpus have no blanks)
        exec node "$here/pgn.mjs" --arbiter "$arbiter" $(find "$2" -name '*.pgn' | sort) ;;
esac
exec node "$here/diff.mjs" --arbiter "$arbiter" "$@"
