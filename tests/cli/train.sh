#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# `arbiter train` in a pseudo-terminal (tmux) as a person uses it: a puzzle of the starter set
# solved move by move in SAN (the expected moves are the puzzle's own line in lichess's CSV,
# proven by `arbiter puzzles check` and agreed by Popeye), an illegal move explained, a hint, a
# wrong move answered with the refutation and the solution, the rating change, progress kept in
# $XDG_DATA_HOME/arbiter/train.db across runs (--stats); the quiz answered by number, its answer
# and explanation being the bank's (re-derived by `arbiter quiz check`); the diagnostic started,
# answered and stopped, with its report.
# usage: train.sh ARBITER SOURCE_DIR
set -u
A=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$2" && pwd)
. "$top/tests/cli/lib.sh"
need tmux tmux
S="arbiter-train-test-$$"
export TERM="${TERM:-xterm}" XDG_DATA_HOME="$T/xdg"
trap 'tmux_end "$S"; rm -rf "$T"' EXIT

# one mate in two of the starter set: after Qe3, ...Rxh2+ Kxh2 Rh8#
head -1 "$top/data/puzzles/starter.csv" >"$T/p.csv"
grep '^kgwCjB,' "$top/data/puzzles/starter.csv" >>"$T/p.csv"
check "the puzzle is in the starter set" test "$(wc -l <"$T/p.csv")" -eq 2

tmux_new -d -s "$S" -x 200 -y 60 "$A train puzzles --puzzles $T/p.csv --count 1; sleep 30"
check "the puzzle is shown" wait_for "The opponent played Qe3"
check "the goal is said" wait_for "Black to play and mate in 2"
check "the board is drawn from Black's side" wait_for "h g f e d c b a"
key a8a5
check "an illegal move is explained" wait_for "Illegal: "
check "with its article" wait_for "(FIDE 3\."
key Rxh2+
check "the right move: the opponent answers" wait_for "Right.  The opponent answers Kxh2"
key Rh8#
check "mate: solved" wait_for "Rh8#: checkmate. Solved!"
check "the rating goes up" wait_for "Your puzzle rating: 1[0-9]* (+[1-9]"
check "the progress file is where XDG says" test -s "$T/xdg/arbiter/train.db"
"$A" train --stats >"$T/stats.json"
check "--stats: one rated puzzle, solved" grep -q '"puzzles":{[^}]*"played":1,"right":1' "$T/stats.json"
check "--stats: per theme" grep -q '"mateIn2":{"played":1,"right":1}' "$T/stats.json"
tmux_end "$S"

# again (seen: not rated), a hint, then a wrong move: its refutation and the solution
tmux_new -d -s "$S" -x 200 -y 60 "$A train puzzles --puzzles $T/p.csv --count 1 --ascii; sleep 30"
check "the same puzzle again" wait_for "The opponent played Qe3"
key hint
check "a hint names the square" wait_for "Hint: move the piece on h8"
key a6
check "a wrong move: why" wait_for "Not the move: a6 does not force mate"
check "the solution" wait_for "The solution: Rxh2+ Kxh2 Rh8#"
check "not rated twice" wait_for "Not rated"
check "a miss comes back" wait_for "It comes back for review tomorrow"
tmux_end "$S"
"$A" train --stats >"$T/stats.json"
check "--stats: still one rated" grep -q '"puzzles":{[^}]*"played":1,"right":1' "$T/stats.json"

# the quiz: the first item of the bank, answered right by its number
if [ -s "$top/data/quiz/bank.jsonl" ]; then
  head -1 "$top/data/quiz/bank.jsonl" >"$T/q.jsonl"
  python3 - "$T/q.jsonl" >"$T/q.want" <<'PY'
import json, sys
q = json.loads(open(sys.argv[1]).readline())
print(q["choices"].index(q["answer"]) + 1 if q.get("choices") else q["answer"])
print(q["question"])
PY
  want=$(sed -n 1p "$T/q.want")
  question=$(sed -n 2p "$T/q.want" | cut -c1-40)
  tmux_new -d -s "$S" -x 120 -y 60 "$A train quiz --quiz $T/q.jsonl --count 1; sleep 30"
  check "the question is asked" wait_for "$question"
  key "$want"
  check "the answer is right" wait_for "^Right\."
  check "the quiz rating" wait_for "Your quiz rating: "
  tmux_end "$S"
fi
# the diagnostic: a rules question answered, a tactics question, then "quit": the report
if [ -s "$T/q.jsonl" ]; then
  tmux_new -d -s "$S" -x 200 -y 60 "$A train diagnostic --ascii --puzzles $T/p.csv --quiz $T/q.jsonl --seed 1; sleep 30"
  check "the diagnostic starts with the rules" wait_for "Question 1 (Rules)"
  key "$want"
  check "the answer judged" wait_for "^Right\."
  check "then tactics: the puzzle's position" wait_for "Question 2 (Tactics)"
  check "the puzzle's question" wait_for "Black to move: find the forced mate"
  key quit
  check "the report, per area" wait_for "Your report after 1 question"
  check "the rules' level" wait_for "Rules .* 1 of 1 right"
  check "what to train next" wait_for "^Train .* first"
  tmux_end "$S"
fi
check "bad usage is exit 2" sh -c "'$A' train --mode fast puzzles 2>/dev/null; test \$? -eq 2"
check "a progress file that is not one: exit 1" sh -c "echo junk >'$T/bad.db'; '$A' train --stats --db '$T/bad.db' 2>/dev/null; test \$? -eq 1"
finish
