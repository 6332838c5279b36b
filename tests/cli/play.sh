#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# `arbiter play` in a pseudo-terminal (tmux) as a person uses it: against a real engine (toga2)
# move, see the engine's reply, an illegal move explained, resign, find the PGN with its clocks,
# and after the end ask for a hint, the moves and another game; the claim hint naming the move
# to claim with and a wrong claim answered by the engine (a scripted mock); between two people
# a wrong claim's two minutes and its draw offer said to the right player, the clock ticking
# while a player thinks, one board redrawn in place, pieces readable on every square; Ctrl-C
# saving the game where it said; plain output through a pipe; --color, --level and --help.
# usage: play.sh ARBITER
set -u
A=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
need tmux tmux
need /usr/games/toga2 toga2
need /usr/games/stockfish stockfish
export TERM="${TERM:-xterm}"
[ "$TERM" = dumb ] && export TERM=xterm
sessions=""
trap 'for s in $sessions; do tmux_end "$s"; done; rm -rf "$T"' EXIT
start() { # NAME COMMAND: a new tmux session $S running COMMAND (then a pause, to read the screen)
  S="arbiter-play-$1-$$"
  sessions="$sessions $S"
  tmux_new -d -s "$S" -x 100 -y 50 "$2; echo \"exit status \$?\"; sleep 60"
}
visible() { tmux capture-pane -p -t "$S"; } # the screen without its history
boards() { screen | grep -c 'a  b  c  d  e  f  g  h'; }
# Every piece letter drawn on a coloured square (--ascii: PNBRQK white, pnbrqk black) against
# its square, by WCAG 2's contrast ratio over xterm's 256-colour palette (cube levels 0, 95,
# 135, 175, 215, 255; greys 8 + 10 n): at least 3:1, and at least MIN letters seen.
contrast_ok() {
  min=$1
  tmux capture-pane -e -p -t "$S" | sed 's/\x1b\[\([0-9;]*\)m/\n\x01\1\n/g' | awk -v min="$min" '
    function lin(c) { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ^ 2.4 }
    function lum(i,   r, g, b) {
      if (i >= 232) { r = g = b = 8 + 10 * (i - 232) }
      else if (i >= 16) { i -= 16; r = lv[int(i / 36)]; g = lv[int(i / 6) % 6]; b = lv[i % 6] }
      else return -1
      return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    }
    BEGIN { split("0 95 135 175 215 255", t, " "); for (k = 1; k <= 6; k++) lv[k - 1] = t[k]
            fg = bg = -1; seen = bad = 0 }
    /^\001/ {
      m = split(substr($0, 2), a, ";")
      if (m == 0) fg = bg = -1
      for (k = 1; k <= m; k++) {
        if (a[k] == "" || a[k] == 0) fg = bg = -1
        else if (a[k] == 38 && a[k + 1] == 5) { fg = a[k + 2] + 0; k += 2 }
        else if (a[k] == 48 && a[k + 1] == 5) { bg = a[k + 2] + 0; k += 2 }
        else if (a[k] == 39) fg = -1
        else if (a[k] == 49) bg = -1
      }
      next
    }
    bg >= 0 {
      n = split($0, ch, "")
      for (k = 1; k <= n; k++) if (ch[k] ~ /[PNBRQKpnbrqk]/) {
        seen++
        lf = lum(fg); lb = lum(bg)
        if (lf < 0 || lb < 0) { bad++; continue }
        hi = lf > lb ? lf : lb; lo = lf > lb ? lb : lf
        if ((hi + 0.05) / (lo + 0.05) < 3) { bad++; print "low contrast: " ch[k] " colour " fg " on " bg }
      }
    }
    END { if (seen < min) print "only " seen " pieces seen"; exit !(seen >= min && bad == 0) }'
}

# --- tmux_end (lib.sh) kills what runs in a pane before kill-session hangs up on it: a program
# that a SIGHUP reaches while exiting under AddressSanitizer can spin for ever (lib.sh)
start hup "trap 'echo hung up >> $T/hup.log' HUP; sleep 30 & wait"
sleep 0.3
tmux_end "$S"
sleep 0.3
check "tmux_end: the pane's programs are killed, not hung up on" test ! -e "$T/hup.log"

# --- against a real engine (toga2), timed, FIDE rules
start toga "$A play --engine /usr/games/toga2 --option OwnBook=false --depth 3 --tc 5+3 --rules fide --pgn $T/game.pgn"
check "the game starts" wait_for "You (White) >"
check "the board is drawn with coordinates" sh -c "tmux capture-pane -p -t '$S' | grep -q 'a  b  c  d  e  f  g  h'"
key e4
check "the engine replies" wait_for "Toga II 3.0 plays"
check "the move list" wait_for "Moves: 1. e4"
check "the clocks" wait_for "Clocks: You"
key Ke3
check "an illegal move is explained" wait_for "Ke3: "
key resign
check "the result in words" wait_for "0-1  White resigned: Black wins"
check "the PGN is saved" wait_for "Game saved in $T/game.pgn"
check "the PGN has the clocks" grep -q '%clk' "$T/game.pgn"
"$A" pgn check "$T/game.pgn" >/dev/null 2>&1
check "the PGN reads back" test $? -eq 0
check "the PGN has the date" grep -q "^\[Date \"$(date +%Y.%m.%d)\"\]" "$T/game.pgn"
# after the end: hint (the engine's move in the final position), moves, new
key hint
check "after the game: hint asks the engine" wait_for "Hint: Toga II 3.0 would play [a-hKQRBNO]"
key moves
check "after the game: moves lists the game" wait_for "The game: 1. e4 [a-hKQRBNO].* 0-1"
key new
check "after the game: new starts another game" wait_for "Arbiter: You (White) against Toga II 3.0 (Black)"
check "the new game has no moves yet" sh -c "! tmux capture-pane -p -t '$S' | grep -q '^Moves:'"
key d4
check "the new game goes on: the engine replies" wait_for "Moves: 1. d4 "
key quit
check "quit saves the second game" wait_for "Game saved in $T/game.pgn"
check "the PGN file has both games" test "$(grep -c '^\[Event ' "$T/game.pgn")" -eq 2
check "the second game is unfinished" grep -q '^\[Result "\*"\]' "$T/game.pgn"

# --- against a scripted engine (Black's knight goes g8-f6 and back; it reports +1.00 for
# itself), casual rules by default, untimed
start mock "$A play --engine $here/mock-play.sh --engine-arg 100 --pgn $T/mock.pgn"
check "mock: the game starts under casual rules" wait_for "against mock-knight (Black), casual rules"
key e4
check "mock: the engine replies" wait_for "mock-knight plays Nf6"
key claim
check "mock: a wrong claim is said so" wait_for "The claim is not correct\."
check "mock: no clock, no time given: no seconds mentioned" sh -c "! tmux capture-pane -p -t '$S' | grep -q 'seconds'"
check "mock: the claim counts as an offer to the engine" wait_for "It counts as a draw offer to mock-knight (FIDE 9.1.2.3)"
check "mock: the engine answers it" wait_for "mock-knight declines the draw"
check "mock: no draw offer shown to its own maker" sh -c "! tmux capture-pane -p -t '$S' | grep -q 'offers a draw'"
for m in Nf3 Ng1 Nf3; do key $m; sleep 0.3; done
# 1. e4 Nf6 2. Nf3 Ng8 3. Ng1 Nf6 4. Nf3 Ng8: 5. Ng1 would repeat the position after 1. e4 a
# third time (FIDE 9.2.1.1: claimed by writing the move)
check "mock: the claim hint names the move to claim with" wait_for 'You may claim a draw by threefold repetition with Ng1: type `claim Ng1`'
key "claim Ng1"
check "mock: the claim with the move is a draw" wait_for "1/2-1/2  "
check "mock: the drawn game is saved" wait_for "Game saved in $T/mock.pgn"
check "mock: the PGN says threefold" sh -c "grep -q '^\[Result \"1/2-1/2\"\]' '$T/mock.pgn' && grep -q '4\. Nf3 Ng8 1/2-1/2' '$T/mock.pgn'"
key quit
# Ctrl-C in a game against the engine: saved in --pgn's file
start mockcc "$A play --engine $here/mock-play.sh --pgn $T/mockcc.pgn"
check "Ctrl-C (engine game): started" wait_for "You (White) >"
key e4
check "Ctrl-C (engine game): the engine replies" wait_for "mock-knight plays Nf6"
tmux send-keys -t "$S" C-c
check "Ctrl-C (engine game): the game is saved in --pgn's file" wait_for "Game saved in $T/mockcc.pgn"
check "Ctrl-C (engine game): with its moves" grep -q '^1\. e4 Nf6 \*' "$T/mockcc.pgn"

# --- two people, timed, FIDE rules: the clock, the screen, a wrong claim's penalty and offer
start people "$A play --tc 5+0 --rules fide --ascii --pgn $T/people.pgn"
check "people: the game starts" wait_for "^White >"
check "people: pieces readable on every square (start position)" contrast_ok 32
key e4
check "people: Black to move" wait_for "^Black >"
key e5
check "people: White to move" wait_for "^White >"
c1=$(visible | head -1)
sleep 2.2
c2=$(visible | head -1)
check "people: the clock line is the first row" sh -c "echo '$c1' | grep -q '^Clocks: White 4:[345][0-9] (running) | Black 4:[345][0-9]'"
check "people: the clock ticks while White thinks ($c1 / $c2)" test "$c1" != "$c2"
key claim
check "people: a wrong claim gives Black two minutes" wait_for "The claim is not correct: Black gets 120 seconds"
check "people: Black's clock has them" sh -c "tmux capture-pane -p -t '$S' | head -1 | grep -q '| Black 6:[345][0-9]'"
check "people: the claimant is told the offer stands" wait_for "Your draw offer stands: Black may accept or decline it after your move"
check "people: no offer addressed to its own maker" sh -c "! tmux capture-pane -p -t '$S' | grep -q 'White offers a draw'"
key Nf3
check "people: Black is offered the draw" wait_for "White offers a draw (accept / decline)"
check "people: pieces readable on every square (last move marked)" contrast_ok 32
key Nc6
key Bc4
check "people: after five moves, one board on the screen" test "$(visible | grep -c 'a  b  c  d  e  f  g  h')" -eq 1
check "people: and one in the history: the board is redrawn in place" test "$(boards)" -eq 1
check "people: the moves so far" wait_for "Moves: 1. e4 e5 2. Nf3 Nc6 3. Bc4"
key quit
# a king in check is marked, and readable
start check "$A play --fen '4k3/8/8/8/8/8/4r3/4K3 w - - 0 1' --ascii --pgn $T/check.pgn"
check "check: White is in check" wait_for "White is in check"
check "check: pieces readable, the king in check too" contrast_ok 3

# --- Ctrl-C saves the PGN where it said (the default file, announced at the start)
mkdir "$T/cc"
start ctrlc "cd $T/cc && $A play"
check "Ctrl-C: the default file is announced" wait_for "The game will be saved in arbiter-play-[0-9]*-[0-9]*\.pgn"
key e4
key e5
check "Ctrl-C: two moves played" wait_for "Moves: 1. e4 e5"
tmux send-keys -t "$S" C-c
check "Ctrl-C: the game is saved" wait_for "Game saved in arbiter-play-"
check "Ctrl-C: the exit status says interrupted (130)" wait_for "exit status 130"
check "Ctrl-C: the file announced has the game" sh -c "grep -q '^1\. e4 e5 \*' '$T'/cc/arbiter-play-*.pgn"

# --- plain output through a pipe; two people under FIDE rules without a clock
printf 'moves\ne4\ne5\nclaim\nNf3\naccept\n' | "$A" play --rules fide --pgn "$T/plain.pgn" >"$T/plain.out" 2>&1
check "pipe: no terminal escapes in plain output" sh -c "! grep -q \"$(printf '\033')\" '$T/plain.out'"
check "pipe: a board a turn" test "$(grep -c 'a b c d e f g h' "$T/plain.out")" -ge 5
check "pipe: moves lists the legal moves" sh -c "grep 'Legal moves for White (20): ' '$T/plain.out' | grep -q ' e4 .*Nf3\| Nf3 .*e4'"
check "pipe: untimed, a wrong claim costs no seconds" sh -c \
  "grep -q 'The claim is not correct\.$' '$T/plain.out' && ! grep -q 'seconds' '$T/plain.out'"
check "pipe: the claim stands as an offer to Black" grep -q "Black may accept or decline it after your move" "$T/plain.out"
check "pipe: the offer is put to Black only" test "$(grep -c 'White offers a draw (accept / decline)' "$T/plain.out")" -eq 1
check "pipe: Black accepts: a draw" grep -q '^1/2-1/2  Draw by agreement' "$T/plain.out"

# --level (lichess's table): Stockfish gets its Skill Level, time and depth, and replies
(printf 'e4\n'; sleep 3; printf 'resign\n') | "$A" play --engine /usr/games/stockfish --level 2 \
  --pgn "$T/level.pgn" --ascii --no-color >"$T/level.out" 2>&1
check "--level 2: the engine replies, the game is saved" sh -c \
  "grep -q 'Stockfish.* plays' '$T/level.out' && grep -q '^1\\. e4 ' '$T/level.pgn'"
# what a level means, said when the game starts (fishnet's movetime and depth, ENGINES.md 7.5)
check "--level 2 says what it means" grep -q '^Level 2 of 8: .*(about [0-9]* Elo.*); Skill Level 0, at most 100 ms and depth 5 a move' "$T/level.out"
check "--level 9 is refused" sh -c "! '$A' play --engine /usr/games/stockfish --level 9 </dev/null 2>/dev/null"
(cd "$T" && "$A" play --level 3 </dev/null >/dev/null 2>"$T/nolevel.err")
check "--level without an engine is refused (exit 2)" test $? -eq 2
"$A" play --help >"$T/help.out"
ok=1
for row in "1 0 50 5" "2 0 100 5" "3 0 150 5" "4 3 200 5" "5 7 300 5" "6 11 400 8" "7 16 500 13" "8 20 1000 22"; do
  set -- $row
  grep -Eq "^  $1  ~ *[0-9]+ Elo  skill +$2, +$3 ms, depth +$4  [a-z]" "$T/help.out" || { echo "level $1 missing"; ok=0; }
done
check "--help lists the eight levels" test $ok -eq 1
# --color: white, black or random, nothing else
(cd "$T" && "$A" play --color purple </dev/null >"$T/color.out" 2>"$T/color.err")
check "--color purple is refused (exit 2)" test $? -eq 2
check "--color purple: the message says the choices" grep -q "white, black or random" "$T/color.err"
check "--color purple: no game played" test ! -s "$T/color.out"
finish
