#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# A UCI engine with fixed opinions, for `arbiter puzzles mine --engine`'s test: in the position
# 8/3P1k2/4q3/2K5/8/8/6P1/8 (White to move) its move is d8=N+ worth +4.5 (the knight forks king
# and queen); after d8=Q (the queen on d8, Black to move) it sees 0.00 and plays ...Qe5.  Any
# other position: 0.00 and the first move it was told of is not needed (it answers "(none)").
fen=
while IFS= read -r line; do
  case $line in
  uci) echo "id name mock-judge"; echo uciok ;;
  isready) echo readyok ;;
  position*) fen=$line ;;
  go*)
    case $fen in
    *"8/3P1k2/4q3/2K5/8/8/6P1/8 w"*) echo "info depth 5 score cp 450 pv d7d8n"; echo "bestmove d7d8n" ;;
    *"3Q4/5k2/4q3/2K5/8/8/6P1/8 b"*) echo "info depth 5 score cp 0 pv e6e5"; echo "bestmove e6e5" ;;
    *) echo "info depth 5 score cp 0"; echo "bestmove (none)" ;;
    esac ;;
  quit) exit 0 ;;
  esac
done
