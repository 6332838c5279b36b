#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# A UCI engine that plays scripted games, for comparing `arbiter match -output format=...` with
# fastchess's own output on the same games (tests/data/match/).  mock-script.sh winner|loser.
# From the standard position the winner plays the Scholar's mate as White and the loser walks
# into the Fool's mate as White; from 1.Nf3 Nf6 both shuffle the knights to a threefold
# repetition; in a mate-in-one position the winner mates and the loser moves its king two
# squares (an illegal move).  mock-script.sh burn MS: shuffles the knights from the standard
# position (Nf3 Nf6 Ng1 Ng8 ...), taking MS milliseconds over every move.
role=$1
burn=${2:-0}
fen=
moves=
while IFS= read -r line; do
  case $line in
  uci) echo "id name mock-$role"; echo uciok ;;
  isready) echo readyok ;;
  "position startpos"*)
    fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    moves=${line#position startpos}; moves=${moves# moves} ;;
  "position fen "*)
    rest=${line#position fen }
    case $rest in
    *" moves "*) fen=${rest%% moves *}; moves=${rest#* moves } ;;
    *) fen=$rest; moves= ;;
    esac ;;
  go*)
    moves=$(echo $moves)
    n=0
    for m in $moves; do n=$((n + 1)); done
    case $role:$fen in
    burn:*)
      sleep "$(echo "$burn" | awk '{printf "%.3f", $1 / 1000}')"
      case $((n % 4)) in 0) best=g1f3 ;; 1) best=g8f6 ;; 2) best=f3g1 ;; 3) best=f6g8 ;; esac ;;
    *:rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR*)
      case "$moves" in
      "") if [ "$role" = winner ]; then best=e2e4; else best=f2f3; fi ;;
      e2e4) best=e7e5 ;;
      "e2e4 e7e5") best=f1c4 ;;
      "e2e4 e7e5 f1c4") best=b8c6 ;;
      "e2e4 e7e5 f1c4 b8c6") best=d1h5 ;;
      "e2e4 e7e5 f1c4 b8c6 d1h5") best=g8f6 ;;
      "e2e4 e7e5 f1c4 b8c6 d1h5 g8f6") best=h5f7 ;;
      f2f3) best=e7e5 ;;
      "f2f3 e7e5") best=g2g4 ;;
      "f2f3 e7e5 g2g4") best=d8h4 ;;
      *) best=0000 ;;
      esac ;;
    *:rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R*)
      case $((n % 4)) in 0) best=f3g1 ;; 1) best=f6g8 ;; 2) best=g1f3 ;; 3) best=g8f6 ;; esac ;;
    *)
      if [ "$role" = winner ]; then best=a1a8; else best=g1e1; fi ;;
    esac
    echo "info depth 1 score cp 0"
    echo "bestmove $best" ;;
  quit) exit 0 ;;
  esac
done
