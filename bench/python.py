#!/usr/bin/env python3
# Arbiter — MIT licence, see LICENSE.
"""The Python package against python-chess on the same machine, in one run: legal moves, perft,
SAN (writing and reading) and reading a PGN file — each figure the best of --runs for both, and
the answers of the two compared before any time is believed; then two long calls (perft 5) one
after the other and in two threads at once, which overlap because the GIL is released.

usage: PYTHON_CHESS=DIR python3 bench/python.py [--runs N] [--pgn FILE]
  DIR: python-chess's source (fetched outside the tree: its `chess` package is imported from
  there); arbiter is imported from PYTHONPATH or where `make python` installed it.
"""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
POSITIONS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
]


def best(fn, runs):
    t = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        t = min(t, time.perf_counter() - t0)
    return t, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--pgn", default=os.path.join(
        ROOT, "tests", "data", "pgn", "real", "lichess-jishanshaikh4-standard-first300.pgn"))
    args = ap.parse_args()
    pc = os.environ.get("PYTHON_CHESS")
    if not pc:
        print("bench/python.py: skipped (PYTHON_CHESS is not set: python-chess's source, "
              "fetched outside the tree)")
        return 0
    sys.path.insert(0, pc)
    import chess
    import chess.pgn
    import arbiter
    import arbiter.pgn

    rows = []

    def row(name, ours, theirs, unit):
        rows.append((name, ours, theirs))
        print("%-34s arbiter %10.1f  python-chess %10.1f %-9s  %6.1fx" % (
            name, ours, theirs, unit, theirs and ours / theirs))

    # legal moves: list them, 2,000 times per position
    def legal(mod):
        boards = [mod.Board(f) for f in POSITIONS]
        def go():
            n = 0
            for _ in range(2000):
                for b in boards:
                    n += len(list(b.legal_moves))
            return n
        return go
    ta, na = best(legal(arbiter), args.runs)
    tc, nc = best(legal(chess), args.runs)
    assert na == nc, (na, nc)
    row("legal moves (lists/s)", 2000 * len(POSITIONS) / ta, 2000 * len(POSITIONS) / tc, "")

    # perft 3 of every position: python-chess by push/pop (it has no perft of its own),
    # arbiter by its perft call and by the same push/pop loop in Python
    def perft_loop(b, d):
        if d == 1:
            return len(list(b.legal_moves))
        n = 0
        for m in list(b.legal_moves):
            b.push(m)
            n += perft_loop(b, d - 1)
            b.pop()
        return n
    ta, na = best(lambda: sum(arbiter.Board(f).perft(3) for f in POSITIONS), args.runs)
    tl, nl = best(lambda: sum(perft_loop(arbiter.Board(f), 3) for f in POSITIONS), args.runs)
    tc, nc = best(lambda: sum(perft_loop(chess.Board(f), 3) for f in POSITIONS), args.runs)
    assert na == nc == nl, (na, nc, nl)
    row("perft 3 (nodes/s), Board.perft", na / ta, nc / tc, "")
    row("perft 3 (nodes/s), push/pop", nl / tl, nc / tc, "")

    # SAN: every legal move of every position written, then read back, 200 times
    def san(mod):
        boards = [mod.Board(f) for f in POSITIONS]
        moves = [list(b.legal_moves) for b in boards]
        def go():
            out = []
            for _ in range(200):
                for b, ms in zip(boards, moves):
                    for m in ms:
                        s = b.san(m)
                        b.parse_san(s)
                        out.append(s)
            return out
        return go
    ta, sa = best(san(arbiter), args.runs)
    tc, sc = best(san(chess), args.runs)
    assert sorted(sa) == sorted(sc)  # the same SAN (the orders of the move lists differ)
    row("SAN written and read (moves/s)", len(sa) / ta, len(sc) / tc, "")

    # PGN: every game of the file, replayed
    def read_chess():
        plies = 0
        with open(args.pgn, encoding="utf-8") as f:
            while True:
                g = chess.pgn.read_game(f)
                if g is None:
                    return plies
                plies += sum(1 for _ in g.mainline_moves())
    size = os.path.getsize(args.pgn)
    ta, pa = best(lambda: sum(len(g.moves) for g in arbiter.pgn.read_games(args.pgn)), args.runs)
    tc, pcount = best(read_chess, args.runs)
    assert pa == pcount, (pa, pcount)
    row("PGN read (MB/s, %d plies)" % pa, size / ta / 1e6, size / tc / 1e6, "")
    worst = min(o / t for _, o, t in rows)
    print("least ratio: %.1fx (goal: 20x on each)" % worst)

    # the GIL: the same long calls (perft 5 of two positions) one after the other, then in
    # two threads at once; with the GIL released they overlap (1.0: no overlap, 0.5: perfect on
    # two idle cores)
    import threading
    fens = [POSITIONS[1], POSITIONS[1]]
    def serial():
        return [arbiter.Board(f).perft(5) for f in fens]
    def parallel():
        out = [None, None]
        def run(i):
            out[i] = arbiter.Board(fens[i]).perft(5)
        ts = [threading.Thread(target=run, args=(i,)) for i in range(2)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        return out
    ts, rs = best(serial, args.runs)
    tp, rp = best(parallel, args.runs)
    assert rs == rp == [193690690] * 2
    print("two perft 5 calls: serial %.2f s, two threads %.2f s: %.2f of the serial time "
          "(%d cores)" % (ts, tp, tp / ts, os.cpu_count() or 1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
