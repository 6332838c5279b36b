#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# `arbiter quiz`: the committed bank re-derives clean, at least 500 items over every topic; an
# item whose answer, explanation, template or JSON was tampered with is found (with its line)
# and the others still checked; make is deterministic and what it makes re-checks; --topic and
# --from are honoured; bad usage is 2.
# usage: quiz.sh ARBITER SOURCE_DIR
set -u
A=$1
top=$(cd "$2" && pwd)
. "$top/tests/cli/lib.sh"
need python3 python3
BANK=$top/data/quiz/bank.jsonl

"$A" quiz check "$BANK" >"$T/bank.out"
check "the bank re-derives (exit 0)" test $? -eq 0
n=$(sed -n 's/^\([0-9]*\) items, \([0-9]*\) re-derive exactly, 0 differ.*/\1 \2/p' "$T/bank.out")
check "at least 500 items, all exact ($n)" sh -c "set -- $n; test \${1:-0} -ge 500 && test \"\$1\" = \"\$2\""
check "every topic has at least 20 items" sh -c "test \$(awk 'NR>1 && \$2 >= 20' '$T/bank.out' | wc -l) -eq 15"

# tampering: a wrong answer, a changed explanation, an unknown template, a line that is not JSON
python3 - "$BANK" "$T/bad.jsonl" <<'PY'
import json, sys
items = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
castle = next(i for i in items if i['template'] == 'castling-now')
wrong = dict(castle); wrong['answer'] = next(c for c in castle['choices'] if c != castle['answer'])
flag = next(i for i in items if i['template'] == 'flag-verdict')
told = dict(flag); told['explanation'] = told['explanation'].replace('draw', 'loss') + ' (edited)'
unknown = dict(items[0]); unknown['template'] = 'no-such-template'
with open(sys.argv[2], 'w') as f:
    for x in (castle, wrong, told, unknown):
        f.write(json.dumps(x) + '\n')
    f.write('{"id": "broken", \n')
    f.write(json.dumps(items[-1]) + '\n')
PY
"$A" quiz check "$T/bad.jsonl" >"$T/bad.out"
check "findings: exit 1" test $? -eq 1
check "the wrong answer, with what the rules give" grep -q "bad.jsonl:2: castling-.*: answer '.*', the rules give '.*'" "$T/bad.out"
check "the edited explanation" grep -q "bad.jsonl:3: flag-.*: the explanation differs" "$T/bad.out"
check "the unknown template" grep -q "bad.jsonl:4: .*unknown template 'no-such-template'" "$T/bad.out"
check "the line that is not JSON, by number" grep -q "bad.jsonl:5: (no id): not JSON" "$T/bad.out"
check "the good items around them still pass" grep -q "^6 items, 2 re-derive exactly, 4 differ or do not read" "$T/bad.out"
"$A" quiz check --json "$T/bad.jsonl" >"$T/bad.json"
check "--json: one line per item" test "$(wc -l <"$T/bad.json")" -eq 6
check "--json: ok and error" sh -c "grep -q '\"line\": *2.*\"ok\": *false.*\"error\"' '$T/bad.json' && grep -q '\"line\": *1.*\"ok\": *true' '$T/bad.json'"

# make: deterministic, clean, topics and games honoured
pgn=$top/tests/data/pgn/real/lichess-jishanshaikh4-standard-first300.pgn
"$A" quiz make --count 45 --seed 7 --from "$pgn" -o "$T/a.jsonl" 2>/dev/null
check "make writes items" test "$(wc -l <"$T/a.jsonl")" -ge 40
"$A" quiz make --count 45 --seed 7 --from "$pgn" >"$T/b.jsonl" 2>/dev/null
check "the same seed makes the same items" cmp -s "$T/a.jsonl" "$T/b.jsonl"
"$A" quiz check "$T/a.jsonl" >/dev/null
check "what make writes re-checks" test $? -eq 0
"$A" quiz make --topic castling --topic threefold --count 12 --from "$pgn" -o "$T/c.jsonl" 2>"$T/c.err"
check "--topic: only those topics" sh -c "! grep -v '\"topic\": *\"\\(castling\\|threefold\\)\"' '$T/c.jsonl'"
check "--from: positions from the games, with their source" grep -q '"source"' "$T/c.jsonl"
check "the summary names the games read" grep -q "items from [1-9][0-9]* games" "$T/c.err"

# bad usage
"$A" quiz make --topic nosuch >/dev/null 2>"$T/e1"
check "an unknown topic: exit 2" test $? -eq 2
check "an unknown topic: named" grep -q "unknown topic 'nosuch'" "$T/e1"
"$A" quiz check >/dev/null 2>&1
check "check without a file: exit 2" test $? -eq 2
"$A" quiz check "$T/none.jsonl" >/dev/null 2>&1
check "a file that is not there: exit 2" test $? -eq 2
"$A" quiz frob >/dev/null 2>&1
check "an unknown command: exit 2" test $? -eq 2
"$A" quiz topics >"$T/topics"
check "topics: fifteen, each with its templates" sh -c "test \$(grep -c '^[a-z-]*: [a-z]' '$T/topics') -eq 15"
finish
