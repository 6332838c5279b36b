#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# The hot paths' guard: instruction counts (valgrind's callgrind, the same on a noisy machine
# whatever else runs) of `arbiter` on fixed inputs — pgn check, perft, query, the referee's event
# loop, dead and the solver — against the budgets in tests/perf/budgets.  More than TOLERANCE
# percent over a budget fails, with the figure and the function that grew most since the budget
# was set.  The budgets move only in a commit that says why: `--update` writes them anew.
#
# The binary must be a portable build (no -march=native: valgrind cannot run AVX-512 code, and
# the counts must not depend on the CPU): `make test-guard` builds one in build/guard (slider
# lookups by magic multiplication, tests/perf/budgets) and, where the CPU has BMI2 and AVX2,
# one in build/guard-pext (the PEXT lookups every -march=native build of such a CPU uses,
# tests/perf/budgets-pext: `--budgets tests/perf/budgets-pext`).
# usage: tests/perf/guard.sh ARBITER SOURCE_DIR [--budgets FILE] [--update]
set -u
A=$1
top=$(cd "$2" && pwd)
shift 2
update=0
budgets=$top/tests/perf/budgets
while [ $# -gt 0 ]; do
  case $1 in
  --update) update=1 ;;
  --budgets)
    [ $# -ge 2 ] || { echo "guard: --budgets needs a file" >&2; exit 2; }
    case $2 in /*) budgets=$2 ;; *) budgets=$top/$2 ;; esac
    shift
    ;;
  *) echo "guard: unknown argument $1" >&2; exit 2 ;;
  esac
  shift
done
TOLERANCE=${TOLERANCE:-3}
rel=${budgets#"$top"/}
command -v valgrind >/dev/null 2>&1 || { echo "guard: valgrind is not installed (scripts/deps.sh test)"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# name | stdin ('-' for none) | arguments
workloads() {
  cat <<EOF
pgn_check|-|pgn check -q $top/tests/data/pgn/real/lichess-jishanshaikh4-standard-first300.pgn
perft_start|-|perft 5
perft_suite|-|perft --epd $top/tests/perf/perft.epd --max-depth 4
query|$top/tests/perf/query.jsonl|query
referee|$top/tests/perf/referee.jsonl|referee
dead|$top/tests/perf/dead.fen|dead
solve|$top/tests/perf/solve.jsonl|solve --n 3
EOF
}

# The exclusive instructions of every function: "FUNCTION COUNT" lines, recursion levels
# (helpmate'2) and files (src/x.c:f, ???:f) folded into the function's name.
functions() {
  callgrind_annotate --threshold=100 "$1" 2>/dev/null | awk '
    /PROGRAM TOTALS/ { next }
    /^ *[0-9,]+ +\( *[0-9.]+%\) +[^ ]+:[^ ]+/ {
      line = $0; sub(/^ */, "", line)
      n = line; sub(/ .*/, "", n); gsub(/,/, "", n)
      f = line; sub(/^[^)]*\) +/, "", f); sub(/ .*/, "", f)
      sub(/^.*:/, "", f); sub(/\x27[0-9]+$/, "", f)
      ir[f] += n
    }
    END { for (f in ir) print f, ir[f] }' | sort -k2,2nr
}

new=$T/budgets
echo "guard: $A against $rel"
workloads | while IFS='|' read -r name input args; do
  out=$T/$name.out
  # shellcheck disable=SC2086
  if [ "$input" = - ]; then
    valgrind --tool=callgrind --callgrind-out-file="$out" "$A" $args >/dev/null 2>"$T/$name.err" </dev/null
  else
    valgrind --tool=callgrind --callgrind-out-file="$out" "$A" $args >/dev/null 2>"$T/$name.err" <"$input"
  fi
  status=$?
  total=$(sed -n 's/^totals: *//p' "$out" 2>/dev/null)
  if [ $status != 0 ] || [ -z "$total" ]; then
    echo "FAIL: $name: exit $status, no count? (it said: $(tail -3 "$T/$name.err" | tr '\n' ' '))"
    echo x >>"$T/failed"
    continue
  fi
  functions "$out" >"$T/$name.fn"
  {
    echo "$name $total"
    head -12 "$T/$name.fn" | sed "s/^/$name:/"
  } >>"$new"
  [ $update = 1 ] && { echo "$name: $total instructions"; continue; }
  budget=$(awk -v n="$name" '$1 == n { print $2 }' "$budgets")
  if [ -z "$budget" ]; then
    echo "FAIL: $name: no budget in $rel (tests/perf/guard.sh ... --update)"
    echo x >>"$T/failed"
    continue
  fi
  verdict=$(awk -v t="$total" -v b="$budget" -v tol="$TOLERANCE" 'BEGIN {
    pct = (t - b) * 100.0 / b
    printf "%s %+.1f", (t > b * (1 + tol / 100.0)) ? "over" : (t < b * 0.9 ? "under" : "ok"), pct }')
  pct=${verdict#* }
  case "$verdict" in
  over*)
    # the function that grew most against its count when the budget was set
    grew=$(awk -v n="$name:" '
      FNR == NR { if (index($1, n) == 1) base[substr($1, length(n) + 1)] = $2; next }
      { d = $2 - base[$1]; if (d > best) { best = d; f = $1; was = base[$1] + 0; now = $2 } }
      END { if (f != "") printf "%s (+%d: %d -> %d)", f, best, was, now }' "$budgets" "$T/$name.fn")
    echo "FAIL: $name: $total instructions, budget $budget ($pct%, tolerance $TOLERANCE%); grew most: ${grew:-?}"
    echo x >>"$T/failed"
    ;;
  under*) echo "ok: $name: $total instructions, budget $budget ($pct%: lower the budget in a commit that says why)" ;;
  *) echo "ok: $name: $total instructions, budget $budget ($pct%)" ;;
  esac
done
if [ $update = 1 ]; then
  [ -s "$T/failed" ] && { echo "guard: budgets not written"; exit 1; }
  {
    echo "# Instruction budgets of tests/perf/guard.sh: NAME INSTRUCTIONS, then NAME:FUNCTION"
    echo "# INSTRUCTIONS for its heaviest functions (to name the one that grew).  Written by"
    if [ "$rel" = tests/perf/budgets ]; then
      echo "# tests/perf/guard.sh ARBITER . --update on a portable build (make test-guard); move them"
    else
      echo "# tests/perf/guard.sh ARBITER . --budgets $rel --update on the portable PEXT build"
      echo "# (make test-guard: build/guard-pext); move them"
    fi
    echo "# only in a commit that says why."
    cat "$new"
  } >"$budgets"
  echo "guard: budgets written to $rel"
  exit 0
fi
[ -s "$T/failed" ] && exit 1
echo "guard: every hot path within its budget ($rel)"
exit 0
