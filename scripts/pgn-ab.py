#!/usr/bin/env python3
# Arbiter — MIT licence, see LICENSE.
#
# pgn-ab.py [-n ROUNDS] [-j N] [--file F] [--] BIN... [-- ARGS...]: for speed work on
# `arbiter pgn` — two (or more) arbiter binaries timed on the same PGN file, taking turns within
# each round so that a load from elsewhere on the machine hits them alike, the best wall-clock
# time and the best CPU time (user + system) of each kept.  On a shared two-core machine single
# runs move by ±5% and more; a difference smaller than what repeated rounds of the same binary
# show is not a difference.  Check that the binaries say the same with scripts/pgn-same.sh.
#   -n ROUNDS  rounds (default 11)
#   -j N       worker threads passed to `pgn check -j` (default 1)
#   --file F   the PGN file (default ../shared/data/pgn/real/lichess-jishanshaikh4-standard-14k.pgn)
#   ARGS       more arguments for `pgn check` (say --rules online)
# Exit status: 0, 2 bad usage or a file missing.
import os
import resource
import subprocess
import sys
import time


def main(argv):
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    path = os.path.normpath(os.path.join(top, '..', 'shared', 'data', 'pgn', 'real',
                                         'lichess-jishanshaikh4-standard-14k.pgn'))
    rounds, jobs, bins, extra = 11, '1', [], []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == '-n' and i + 1 < len(argv):
            rounds = int(argv[i + 1])
            i += 2
        elif a == '-j' and i + 1 < len(argv):
            jobs = argv[i + 1]
            i += 2
        elif a == '--file' and i + 1 < len(argv):
            path = argv[i + 1]
            i += 2
        elif a == '--':
            extra = argv[i + 1:]
            break
        elif a.startswith('-'):
            print(f'pgn-ab.py: unknown option {a}', file=sys.stderr)
            return 2
        else:
            bins.append(a)
            i += 1
    if not bins or rounds < 1:
        print('usage: pgn-ab.py [-n ROUNDS] [-j N] [--file F] BIN... [-- ARGS...]',
              file=sys.stderr)
        return 2
    for f in bins + [path]:
        if not os.path.exists(f):
            print(f'pgn-ab.py: {f}: not found', file=sys.stderr)
            return 2
    mb = os.path.getsize(path) / 1e6
    wall = {b: float('inf') for b in bins}
    cpu = {b: float('inf') for b in bins}
    for _ in range(rounds):
        for b in bins:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run([b, 'pgn', 'check', '-q', '-j', jobs] + extra + [path],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            t = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            wall[b] = min(wall[b], t)
            cpu[b] = min(cpu[b], used)
    mode = ' '.join(['pgn check -j', jobs] + extra)
    print(f'{path}: {mb:.2f} MB, {mode}, best of {rounds} rounds')
    for b in bins:
        print(f'  {b}: wall {wall[b] * 1000:.1f} ms ({mb / wall[b]:.1f} MB/s), '
              f'cpu {cpu[b] * 1000:.1f} ms')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
