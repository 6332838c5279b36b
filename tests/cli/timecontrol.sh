#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# One meaning of a time control in every command, and one default rule set per kind of use
# (docs/commands.md): "5+3" is 5 minutes and 3 seconds a move in arbiter play, arbiter referee
# and arbiter serve; arbiter match refuses it (fastchess and cutechess read it as 5 seconds)
# with both readings written out in units, and takes it with its unit (tc=5s+3) or in the PGN
# grammar (seconds by definition); the default rules: play casual, match fide, referee fide,
# serve online.
# usage: timecontrol.sh ARBITER
set -u
A=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
need curl curl

# --- 5+3 is five minutes (and three seconds a move) ...
printf 'quit\n' | "$A" play --tc 5+3 --no-color --pgn "$T/p.pgn" >"$T/play.out" 2>&1
check "play --tc 5+3: five minutes on the clocks" grep -q '^Clocks: White 5:0[0-3] (running) | Black 5:0[0-3]$' "$T/play.out"
echo '{"type":"start","control":"5+3","t":0}' | "$A" referee >"$T/ref.out" 2>&1
check "referee control 5+3: 300 s (+3 s) each" grep -q '"white_ms":30[03]000,"black_ms":30[03]000' "$T/ref.out"
"$A" serve --port 0 --port-file "$T/port" --db "$T/s.db" --no-engine --quiet >/dev/null 2>&1 &
spid=$!
i=0
while [ ! -s "$T/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
curl -s -X POST -d '{"control":"5+3"}' "http://127.0.0.1:$(cat "$T/port")/api/games" >"$T/serve.out" 2>&1
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
check "serve control 5+3: five minutes and three seconds" grep -q '"control":"5m+3s"' "$T/serve.out"
check "serve: online rules by default" grep -q '"rules":"online"' "$T/serve.out"

# --- ... so arbiter match refuses fastchess's meaning of it, saying the units
SC="$here/mock-script.sh"
# engines without args= (a refused command line leaks it: seen under LeakSanitizer)
printf '#!/bin/sh\nexec sh "%s" burn 50\n' "$SC" >"$T/burn50.sh"
chmod +x "$T/burn50.sh"
E2() { "$A" match -engine cmd="$T/burn50.sh" name=a -engine cmd="$T/burn50.sh" name=b "$@"; }
E2 -each tc=5+3 -pgnout file="$T/m0.pgn" >"$T/m0.out" 2>"$T/m0.err"
check "match tc=5+3: refused (exit 2)" test $? -eq 2
check "match tc=5+3: says fastchess's reading in seconds" grep -q 'seconds (5s+3s)' "$T/m0.err"
check "match tc=5+3: and play's in minutes" grep -q 'minutes (5m+3s)' "$T/m0.err"
check "match tc=5+3: and how to write it" grep -q 'tc=5s+3s' "$T/m0.err"
check "match tc=5+3: no game played" test ! -s "$T/m0.pgn"
E2 -each tc=10+0.1 >/dev/null 2>"$T/m1.err"
check "match tc=10+0.1 (fishtest's): refused with the units" sh -c "grep -q 'seconds (10s+100ms)' '$T/m1.err' && grep -q 'minutes (10m+100ms)' '$T/m1.err'"
E2 -each tc=5s+0.1 --claims off -pgnout file="$T/m2.pgn" >"$T/m2.out" 2>&1
check "match tc=5s+0.1: five seconds, played" grep -q '^\[TimeControl "5+0.1"\]' "$T/m2.pgn"
check "match tc=5s+0.1: the clock starts under five seconds" sh -c "grep -o '%clk 0:00:0[0-9.]*' '$T/m2.pgn' | head -1 | grep -q '0:00:0[45]'"
E2 -each tc=40/5400+30:1800+30 -maxmoves 2 -pgnout file="$T/m3.pgn" >"$T/m3.out" 2>&1
check "match: the PGN grammar (seconds) is read as PGN" grep -q '^\[TimeControl "40/5400+30:1800+30"\]' "$T/m3.pgn"
check "match: fide rules by default" grep -q '^\[ArbiterRuleset "fide"\]' "$T/m2.pgn"

# --- the other defaults
printf 'quit\n' | "$A" play --no-color --pgn "$T/d1.pgn" >"$T/d1.out" 2>&1
check "play between people: casual rules by default" grep -q '^Arbiter: White against Black, casual rules, no clock' "$T/d1.out"
printf 'quit\n' | "$A" play --engine "$here/mock-play.sh" --no-color --pgn "$T/d2.pgn" >"$T/d2.out" 2>&1
check "play against an engine: casual rules by default" grep -q 'against mock-knight (Black), casual rules' "$T/d2.out"
echo '{"type":"start"}' | "$A" referee >"$T/d3.out" 2>&1
check "referee: fide rules by default" grep -q '"rules":"fide"' "$T/d3.out"
finish
