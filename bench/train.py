#!/usr/bin/env python3
# Arbiter — MIT licence, see LICENSE.
# The trainer's speed: items served per second by `arbiter serve` (the next puzzle and the next
# quiz item for one learner, over HTTP/1.1 keep-alive from one client, each answer checked to be
# an item), the answers checked per second (a quiz answer), and the review of played games in
# games per second (`arbiter train review` on the shared 14k lichess games, or the 300 kept in
# tests/data when the shared corpus is not there).
# usage: python3 bench/train.py [ARBITER] [--requests N]
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
args = [a for a in sys.argv[1:] if not a.startswith('--')]
arbiter = args[0] if args else os.path.join(top, 'build/release/arbiter')
requests = 2000
if '--requests' in sys.argv:
    requests = int(sys.argv[sys.argv.index('--requests') + 1])

tmp = tempfile.mkdtemp()
port_file = os.path.join(tmp, 'port')
server = subprocess.Popen([arbiter, 'serve', '--port', '0', '--port-file', port_file, '--db', os.path.join(tmp, 'b.db'),
                           '--puzzles', os.path.join(top, 'data/puzzles/starter.csv'),
                           '--quiz', os.path.join(top, 'data/quiz/bank.jsonl')],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(100):
        if os.path.exists(port_file) and open(port_file).read().strip():
            break
        time.sleep(0.05)
    port = int(open(port_file).read())
    c = http.client.HTTPConnection('127.0.0.1', port)

    def call(method, path, body=None, learner=None):
        h = {'Content-Type': 'application/json'}
        if learner:
            h['X-Learner'] = learner
        c.request(method, path, json.dumps(body) if body is not None else None, h)
        r = c.getresponse()
        return r.status, json.loads(r.read())

    _, j = call('POST', '/api/train/learner', {})
    learner = j['token']
    for what, path in (('puzzles', '/api/train/puzzle/next'), ('quiz items', '/api/train/quiz/next')):
        t0 = time.perf_counter()
        for _ in range(requests):
            st, j = call('GET', path, learner=learner)
            assert st == 200 and 'id' in j, j
        dt = time.perf_counter() - t0
        print(f'{what} served: {requests / dt:,.0f}/s ({requests} in {dt:.2f} s, one learner, one client)')
    bank = [json.loads(l) for l in open(os.path.join(top, 'data/quiz/bank.jsonl'))]
    t0 = time.perf_counter()
    for i in range(requests):
        q = bank[i % len(bank)]
        st, j = call('POST', '/api/train/quiz/answer', {'id': q['id'], 'answer': q['answer']})
        assert st == 200 and j['right'], j
    dt = time.perf_counter() - t0
    print(f'quiz answers checked: {requests / dt:,.0f}/s (without a learner: nothing written)')
finally:
    server.terminate()
    server.wait()

pgn = os.path.join(top, '../shared/data/pgn/real/lichess-jishanshaikh4-standard-14k.pgn')
if not os.path.exists(pgn):
    pgn = os.path.join(top, 'tests/data/pgn/real/lichess-jishanshaikh4-standard-first300.pgn')
t0 = time.perf_counter()
out = subprocess.run([arbiter, 'train', 'review', '--json', pgn], capture_output=True, text=True, check=True).stdout
dt = time.perf_counter() - t0
games = out.count('\n')
findings = sum(len(json.loads(l)['findings']) for l in out.splitlines())
print(f'review: {games / dt:,.0f} games/s ({games} games, {findings} findings, {dt:.1f} s, one thread: {os.path.basename(pgn)})')
