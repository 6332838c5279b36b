#!/usr/bin/env python3
# Arbiter — MIT licence, see LICENSE.
#
# `arbiter solve` against Stockfish (Debian's `stockfish`, an independent engine) on real-game
# positions (tests/data/solve/real-mates.jsonl), at n = 3:
#   - every mate Stockfish finds within 3 moves (`go mate 3`) is one of Arbiter's keys, and no
#     shorter than Arbiter's shortest;
#   - every mate Arbiter claims is proven leaf by leaf: each reply of the defender (all its legal
#     moves) is answered, down to positions Stockfish itself sees as checkmate.  (Stockfish's own
#     mate search is no proof: it prunes quiet moves, and misses, e.g., a zugzwang mate in 3.)
# Also forced draws (`--goal draw`), proven the same way down to stalemates Stockfish sees.
# usage: solve.py ARBITER DATA_DIR [STOCKFISH]
import json
import os
import subprocess
import sys

arbiter, data = sys.argv[1], sys.argv[2]
sf_path = sys.argv[3] if len(sys.argv) > 3 else '/usr/games/stockfish'
if not os.access(sf_path, os.X_OK):
    print(f'FAIL: this test needs {sf_path} (Debian package stockfish): run sh scripts/deps.sh test')
    sys.exit(1)


class Engine:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  bufsize=1)
        self.send('uci')
        self.until('uciok')
        self.send('setoption name Threads value 1')
        self.send('setoption name Hash value 64')
        self.send('isready')
        self.until('readyok')

    def send(self, line):
        self.p.stdin.write(line + '\n')

    def until(self, word):
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError('stockfish went away')
            lines.append(line.strip())
            if line.startswith(word):
                return lines

    def search(self, fen, go):
        """(best mate score for the side to move or None, bestmove)"""
        self.send('ucinewgame')
        self.send(f'position fen {fen}')
        self.send(f'go {go}')
        lines = self.until('bestmove')
        mate = None
        for line in lines:
            parts = line.split()
            if 'score' in parts and parts[0] == 'info' and 'multipv' not in parts[1:2]:
                i = parts.index('score')
                if parts[i + 1] == 'mate':
                    mate = int(parts[i + 2])
                elif parts[i + 1] == 'cp':
                    mate = None
        return mate, lines[-1].split()[1]

    def close(self):
        self.send('quit')
        self.p.wait()


def arbiter_lines(requests, *args):
    out = subprocess.run([arbiter, 'solve', *args], input=''.join(json.dumps(r) + '\n' for r in requests),
                         capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print('FAIL:', what)


class Lines:
    """A JSON-lines command kept running: one request, one answer."""

    def __init__(self, *args):
        self.p = subprocess.Popen([arbiter, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)

    def ask(self, obj):
        self.p.stdin.write(json.dumps(obj) + '\n')
        self.p.stdin.flush()
        return json.loads(self.p.stdout.readline())

    def close(self):
        self.p.stdin.close()
        self.p.wait()


q_proc = Lines('query')
s_proc = Lines('solve')


def query(fen, moves=()):
    return q_proc.ask({'fen': fen, 'moves': list(moves)})


def solve_one(fen, goal, n):
    return s_proc.ask({'fen': fen, 'goal': goal, 'n': n})


def ends(fen, goal):
    """Does the game end here as the goal wants, judged by Stockfish where it can: mate
    ("bestmove (none)", score mate 0); stalemate (none, score cp 0); for the draw goal a dead
    position too (the library's, tested against CHA and the labelled positions elsewhere)."""
    mate, best = sf.search(fen, 'depth 1')
    if best == '(none)':
        return mate == 0 if goal == 'mate' else True
    return goal == 'draw' and query(fen)['dead_position']


def forced(fen, key, goal, k):
    """After S's move `key` from fen, is the goal forced within k-1 more S-moves?  The
    opponent's every reply (the library's legal moves, which perft and chessops check) is
    answered by the solver's own first key, down to positions where Stockfish sees the end."""
    nxt = query(fen, [key])['fen']
    if ends(nxt, goal):
        return True
    if k <= 1:
        return False
    for reply in query(nxt)['legal_uci']:
        pos = query(nxt, [reply])['fen']
        if goal == 'draw' and ends(pos, goal):
            continue
        a = solve_one(pos, goal, k - 1)
        if a['verdict'] != goal or not forced(pos, a['keys'][a['key_lengths'].index(min(a['key_lengths']))], goal, k - 1):
            return False
    return True


positions = [json.loads(line) for line in open(os.path.join(data, 'solve', 'real-mates.jsonl'))]
answers = arbiter_lines([{'fen': p['fen'], 'n': 3} for p in positions], '-j', '2')
sf = Engine(sf_path)
counts = {}
sf_missed = 0
for p, a in zip(positions, answers):
    fen = p['fen']
    counts[a['verdict'], a.get('mate_in')] = counts.get((a['verdict'], a.get('mate_in')), 0) + 1
    check(a['verdict'] in ('mate', 'none') and a['keys_complete'], f'{fen}: settled ({a["verdict"]})')
    # Stockfish finding a mate within 3 is a fact: it must be one of the keys, at least as long
    # as the shortest (Stockfish not finding one proves nothing: its search prunes quiet moves)
    mate, best = sf.search(fen, 'mate 3 movetime 250')
    if mate is not None and 0 < mate <= 3:
        check(a['verdict'] == 'mate' and best in a['keys'] and a['mate_in'] <= mate,
              f'{fen}: Stockfish mates in {mate} with {best}; Arbiter: {a["verdict"]} {a.get("mate_in")} {a["keys"]}')
    elif a['verdict'] == 'mate':
        sf_missed += 1
    if a['verdict'] == 'mate':
        k = a['mate_in']
        first = a['keys'][a['key_lengths'].index(k)]
        check(forced(fen, first, 'mate', k), f'{fen}: {first} forces mate in {k}, leaf by leaf')
        for key, length in zip(a['keys'], a['key_lengths']):
            if length == 1:
                check(ends(query(fen, [key])['fen'], 'mate'), f'{fen}: {key} mates')

# forced draws: the side to move, lost otherwise, forces a stalemate or a dead position
draws = [
    {'fen': '8/8/8/3k4/3P4/8/8/6K1 b - - 0 1', 'n': 1},   # Kxd4: king against king
    {'fen': '8/8/8/8/8/5k1p/7P/7K b - - 0 1', 'n': 2},     # Kf2 leaves White no move
]
for d, a in zip(draws, arbiter_lines(draws, '--goal', 'draw')):
    check(a['verdict'] in ('draw', 'none'), f'{d["fen"]}: settled')
    if a['verdict'] == 'draw':
        k = a['draw_in']
        for key, length in zip(a['keys'], a['key_lengths']):
            check(forced(d['fen'], key, 'draw', length), f'{d["fen"]}: {key} forces a draw in {length}')
    counts['draw', a.get('draw_in')] = counts.get(('draw', a.get('draw_in')), 0) + 1
sf.close()
q_proc.close()
s_proc.close()
print('verdicts:', ', '.join(f'{v} {k}: {n}' for (v, k), n in sorted(counts.items(), key=str)))
print(f'Stockfish did not find {sf_missed} of the mates within 0.25 s (each proven leaf by leaf instead)')
print(f'{passed} passed, {failed} failed')
sys.exit(1 if failed else 0)
