#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# A UCI engine for `arbiter play`'s tests, playing Black: its knight goes g8-f6 and back, again
# and again (so a person playing Nf3/Ng1 repeats the position), and it reports the score
# given (centipawns from its own point of view: a draw offer is declined at +100, accepted at
# -100).  usage: mock-play.sh SCORE
score=${1:-0}
n=0
while IFS= read -r line; do
  case $line in
  uci) echo "id name mock-knight"; echo uciok ;;
  isready) echo readyok ;;
  position*)
    case $line in
    *" moves "*) set -- ${line#* moves } ; n=$# ;;
    *) n=0 ;;
    esac ;;
  go*)
    k=$(( (n - 1) / 2 ))
    echo "info depth 1 score cp $score"
    if [ $((k % 2)) -eq 0 ]; then echo "bestmove g8f6"; else echo "bestmove f6g8"; fi ;;
  quit) exit 0 ;;
  esac
done
