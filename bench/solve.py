#!/usr/bin/env python3
# Arbiter — MIT licence, see LICENSE.
#
# bench/solve.py: `arbiter solve` beside Popeye (the problemists' solver) and Stockfish's
# `go mate N`, on the same real-game positions, in one run: the time each takes, and whether
# they agree.  Arbiter and Popeye both list every key (every first move forcing mate within n);
# their key sets must be equal, position by position.  Stockfish finds one mating move (not all,
# and not always: its search prunes quiet moves), so it is timed and its move checked against
# Arbiter's keys.
#
# Positions: tests/data/solve/real-mates.jsonl (400, from CC0 lichess games), or with --all the
# 8,942 candidates taken from ../shared's 14k lichess games (3 and 5 plies before a mate).
# For each position n is 3; one thread each.
#
# Popeye is built outside the tree (its own makefile and flags):
#   fetch thomas-maeder/popeye (the search tool), git clone it to /tmp/popeye, then
#   cd /tmp/popeye && cp makefile.unx makefile && make      -> /tmp/popeye/py
# usage: bench/solve.py [--arbiter PATH] [--popeye PATH] [--stockfish PATH] [--all] [--n N]
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.dirname(here)
ap = argparse.ArgumentParser()
ap.add_argument('--arbiter', default=os.path.join(top, 'build/release/arbiter'))
ap.add_argument('--popeye', default=os.environ.get('POPEYE', '/tmp/popeye/py'))
ap.add_argument('--stockfish', default='/usr/games/stockfish')
ap.add_argument('--all', action='store_true')
ap.add_argument('--n', type=int, default=3)
args = ap.parse_args()


def positions():
    if args.all:
        pgn = os.path.join(top, '..', 'shared', 'data', 'pgn', 'real', 'lichess-jishanshaikh4-standard-14k.pgn')
        if not os.path.exists(pgn):
            sys.exit('bench/solve: --all needs ../shared/data/pgn/real (not in this clone)')
        games = [json.loads(l) for l in subprocess.run([args.arbiter, 'pgn', 'convert', '--to', 'jsonl', pgn],
                                                       capture_output=True, text=True).stdout.splitlines()]
        games = [g for g in games if g.get('uci')]
        ends = subprocess.run([args.arbiter, 'query'], input=''.join(json.dumps({'moves': g['uci']}) + '\n' for g in games),
                              capture_output=True, text=True).stdout.splitlines()
        reqs = []
        for g, e in zip(games, ends):
            if json.loads(e).get('checkmate'):
                for back in (3, 5):
                    if len(g['uci']) >= back:
                        reqs.append({'moves': g['uci'][:len(g['uci']) - back]})
        fens = subprocess.run([args.arbiter, 'query'], input=''.join(json.dumps(r) + '\n' for r in reqs),
                              capture_output=True, text=True).stdout.splitlines()
        return [json.loads(f)['fen'] for f in fens]
    return [json.loads(l)['fen'] for l in open(os.path.join(top, 'tests', 'data', 'solve', 'real-mates.jsonl'))]


from popeye import popeye_problem, popeye_keys, mirror_uci  # noqa: E402


def arbiter_keys(answer):
    keys = []
    for k, san in zip(answer['keys'], answer['keys_san']):
        keys.append('O-O-O' if san.startswith('O-O-O') else 'O-O' if san.startswith('O-O') else k)
    return sorted(keys)


fens = positions()
n = args.n
print(f'bench/solve: {len(fens)} real-game positions, mate in at most {n}, one thread each')

t0 = time.monotonic()
out = subprocess.run([args.arbiter, 'solve', '--n', str(n)], input=''.join(json.dumps({'fen': f}) + '\n' for f in fens),
                     capture_output=True, text=True, check=True).stdout
t_arb = time.monotonic() - t0
answers = [json.loads(l) for l in out.splitlines()]
mates = sum(a['verdict'] == 'mate' for a in answers)
unknown = sum(a['verdict'] == 'unknown' for a in answers)
nodes = sum(a['nodes'] for a in answers)
print(f'  Arbiter   {t_arb:8.2f} s   {mates} mates, {len(fens) - mates - unknown} none, {unknown} unknown, '
      f'{nodes / t_arb / 1e6:.1f} M nodes/s')

if os.access(args.popeye, os.X_OK):
    inp = 'BeginProblem\n' + 'NextProblem\n'.join(popeye_problem(f, n) for f in fens) + 'EndProblem\n'
    t0 = time.monotonic()
    pout = subprocess.run([args.popeye], input=inp, capture_output=True, text=True).stdout
    t_py = time.monotonic() - t0
    pkeys = popeye_keys(pout)
    pkeys = [sorted(mirror_uci(k) for k in p) if f.split()[1] == 'b' else p for f, p in zip(fens, pkeys)]
    agree = sum(1 for a, p in zip(answers, pkeys) if arbiter_keys(a) == p)
    print(f'  Popeye    {t_py:8.2f} s   keys agree on {agree} of {len(fens)} positions'
          f'{"" if len(pkeys) == len(fens) else f" (Popeye answered {len(pkeys)})"}')
    for f, a, p in zip(fens, answers, pkeys):
        if arbiter_keys(a) != p:
            print(f'    differ: {f}: Arbiter {arbiter_keys(a)} Popeye {p}')
    print(f'  Popeye / Arbiter time: {t_py / t_arb:.1f}x')
else:
    print(f'  Popeye: not at {args.popeye} (see the header of bench/solve.py to build it)')

if os.access(args.stockfish, os.X_OK):
    sf = subprocess.Popen([args.stockfish], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    sf.stdin.write('uci\nsetoption name Threads value 1\nsetoption name Hash value 64\nisready\n')
    while not sf.stdout.readline().startswith('readyok'):
        pass
    found = inkeys = 0
    t0 = time.monotonic()
    for f, a in zip(fens, answers):
        if a['verdict'] != 'mate':
            continue
        sf.stdin.write(f'ucinewgame\nposition fen {f}\ngo mate {a["mate_in"]} movetime 2000\n')
        mate = None
        while True:
            line = sf.stdout.readline().split()
            if line and line[0] == 'info' and 'score' in line:
                i = line.index('score')
                mate = int(line[i + 2]) if line[i + 1] == 'mate' else None
            if line and line[0] == 'bestmove':
                break
        if mate is not None and mate > 0:
            found += 1
            inkeys += line[1] in a['keys']
    t_sf = time.monotonic() - t0
    sf.stdin.write('quit\n')
    sf.wait()
    print(f'  Stockfish {t_sf:8.2f} s   go mate k on the {mates} mates: found {found}, its move one of '
          f'Arbiter\'s keys in {inkeys}')
    print(f'  Stockfish / Arbiter time: {t_sf / t_arb:.1f}x (Stockfish on the mates only, one move each; Arbiter proves every key of every position)')
