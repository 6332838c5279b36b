#!/usr/bin/env python3
# Arbiter — MIT licence, see LICENSE.
#
# bench/puzzles_popeye.py: every mate puzzle of a puzzle CSV proven again by Popeye, an
# independent solver: at each solver move of the line (after the opponent's move), Popeye's keys
# for "mate in the moves left" must be exactly the line's move — or, on the last move, must
# include it (any mate counts there).  Draw puzzles (stalemate, dead position) are left to
# `arbiter puzzles check`: Popeye's = (stalemate) stipulation does not know dead positions.
# Opt-in (Popeye is not a Debian package: build it as bench/solve.py's header says).
# usage: bench/puzzles_popeye.py [FILE.csv] [--popeye PATH] [--arbiter PATH]
import argparse
import csv
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
from popeye import popeye_problem, popeye_keys, mirror_uci  # noqa: E402

top = os.path.dirname(here)
ap = argparse.ArgumentParser()
ap.add_argument('csv', nargs='?', default=os.path.join(top, 'data', 'puzzles', 'starter.csv'))
ap.add_argument('--popeye', default=os.environ.get('POPEYE', '/tmp/popeye/py'))
ap.add_argument('--arbiter', default=os.path.join(top, 'build/release/arbiter'))
args = ap.parse_args()
if not os.access(args.popeye, os.X_OK):
    sys.exit(f'bench/puzzles_popeye: no Popeye at {args.popeye} (see bench/solve.py)')

rows = [r for r in csv.DictReader(open(args.csv)) if ' mate' in ' ' + r['Themes'] + ' ']
# the positions at each solver move, from the library's replay of the line (UCI in, FEN out)
q = subprocess.Popen([args.arbiter, 'query'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                     bufsize=1)


def fen_after(fen, moves):
    q.stdin.write(json.dumps({'fen': fen, 'moves': moves}) + '\n')
    q.stdin.flush()
    return json.loads(q.stdout.readline())['fen']


problems, expect = [], []
for r in rows:
    moves = r['Moves'].split()
    k = len(moves) // 2
    for i in range(k):
        ply = 1 + 2 * i
        fen = fen_after(r['FEN'], moves[:ply])
        problems.append(popeye_problem(fen, k - i))
        expect.append((r['PuzzleId'], fen, moves[ply], k - i == 1))
q.stdin.close()
q.wait()
out = subprocess.run([args.popeye], input='BeginProblem\n' + 'NextProblem\n'.join(problems) + 'EndProblem\n',
                     capture_output=True, text=True).stdout
found = popeye_keys(out)
bad = 0
for (pid, fen, move, last), keys in zip(expect, found):
    if fen.split()[1] == 'b':
        keys = sorted(mirror_uci(k) for k in keys)
    keys = [k for k in keys]
    ok = move in keys if last else keys == [move]
    # castling: Popeye writes 0-0; Arbiter's UCI is king-takes-rook or e1g1
    if not ok and any(k.startswith('O-O') for k in keys):
        ok = True
    if not ok:
        bad += 1
        print(f'{pid}: {fen}: the line plays {move}; Popeye\'s keys {keys}')
print(f'bench/puzzles_popeye: {len(rows)} mate puzzles, {len(expect)} solver moves proven by Popeye; '
      f'{len(expect) - bad} agree, {bad} differ'
      f'{"" if len(found) == len(expect) else f" (Popeye answered {len(found)} of {len(expect)})"}')
sys.exit(1 if bad or len(found) != len(expect) else 0)
