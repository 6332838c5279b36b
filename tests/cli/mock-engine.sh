#!/bin/sh
# Arbiter — MIT licence, see LICENSE.
# A UCI engine that misbehaves in one way, for `arbiter match`'s tests (ENGINES.md 6.5, 9.9):
#   mock-engine.sh illegal|none|a1a1|malformed|crash|hang|garbage|crlf|castle960|noreadyok|
#                  noping|exitnewgame
# It answers the handshake, then its first `go` the way it was asked (noping: no readyok after
# the first two, i.e. none to the ping before a search; exitnewgame: exits on ucinewgame).
mode=$1
pings=0
while IFS= read -r line; do
  case $line in
  uci)
    [ "$mode" = noreadyok ] && { sleep 30; continue; }
    echo "id name mock-$mode"
    echo "option name Hash type spin default 1 min 1 max 16"
    echo uciok ;;
  isready)
    pings=$((pings + 1))
    [ "$mode" = noping ] && [ $pings -gt 2 ] && continue
    echo readyok ;;
  ucinewgame) [ "$mode" = exitnewgame ] && exit 0 ;;
  go*)
    case $mode in
    illegal) echo "bestmove e2e5" ;;
    none) echo "bestmove (none)" ;;
    a1a1) echo "bestmove a1a1" ;;
    malformed) echo "bestmove banana" ;;
    crash) exit 3 ;;
    hang) sleep 30 ;;
    garbage)
      i=0
      while [ $i -lt 2000 ]; do echo "garbage line $i with no meaning at all"; i=$((i + 1)); done
      echo "bestmove e2e4"; mode=none ;;
    crlf) printf 'info depth 1 score cp 12\r\nbestmove e2e4\r\n'; mode=none ;;
    castle960) echo "bestmove e1h1" ;;
    esac ;;
  quit) exit 0 ;;
  esac
done
