# Arbiter — MIT licence, see LICENSE.
"""The GIL is released around the library's long calls, so that threads run them in parallel.

The proof does not depend on timing or on the number of cores: with the interpreter's switch
interval made very long, a thread holding the GIL keeps it until it releases it itself.  A
worker thread announces that it is about to make the long call and makes it; the main thread,
woken by the announcement, counts how often it runs (sleep(0) gives the GIL back each time)
until the worker is done.  Had the call kept the GIL, the main thread could not run before the
worker's call ended and would count nothing; it counts as long as the call lasts."""
import os
import sys
import threading
import time

import pytest

import arbiter
import arbiter.pgn
from arbiter import Board, BLACK
from arbiter.endgame import EndgameTable
from arbiter.solve import Solver

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PGN = os.path.join(REPO, "tests", "data", "pgn", "real",
                   "lichess-jishanshaikh4-standard-first300.pgn")
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def runs_beside(call):
    """How often the main thread ran while another thread made call(); call's result."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(100.0)
    inside, done, result = threading.Event(), threading.Event(), []
    try:
        def work():
            inside.set()
            result.append(call())
            done.set()
        t = threading.Thread(target=work)
        t.start()
        inside.wait()
        ticks = 0
        while not done.is_set():
            ticks += 1
            time.sleep(0)
        t.join()
    finally:
        sys.setswitchinterval(old)
    return ticks, result[0]


def pgn_bytes():
    with open(PGN, "rb") as f:
        return f.read()


@pytest.mark.parametrize("name,call,check", [
    ("perft", lambda: Board(KIWIPETE).perft(5), lambda r: r == 193690690),
    # a position chasolver.org's users sent (../shared/data/dead): 300,000 nodes settle nothing
    ("winnability", lambda: Board("k1b1b3/8/8/BpBpBpBp/1PbP1PpP/6P1/6P1/K1B5 w - - 0 1")
     .winnability(BLACK, 300000), lambda r: r.verdict == "unknown" and r.nodes >= 300000),
    ("solver", lambda: Solver(1 << 20).solve(arbiter.STARTING_FEN, 5, budget=1000000),
     lambda r: r.verdict in ("unknown", "none")),
    ("endgame table", lambda: EndgameTable("KPK").material, lambda r: r == "KPK"),
    ("PGN file", lambda: len(list(arbiter.pgn.read_games(pgn_bytes(), chunk_size=1 << 24))),
     lambda r: r == 300),
])
def test_long_calls_release_the_gil(name, call, check):
    ticks, result = runs_beside(call)
    assert check(result), (name, result)
    assert ticks > 20, "%s: the main thread ran %d times during the call" % (name, ticks)


def test_the_proof_sees_a_call_that_keeps_the_gil():
    # a busy loop in Python keeps the GIL when the switch interval is long: nothing runs beside
    def busy():
        end = time.perf_counter() + 0.05
        n = 0
        while time.perf_counter() < end:
            n += 1
        return n
    ticks, _ = runs_beside(busy)
    assert ticks <= 1
