# Arbiter — MIT licence, see LICENSE.
"""arbiter.solve: mate (or a draw) in n with every key.  Expected values: positions verified by
hand (each key and each refutation reasoned in the comments), and, when $PYTHON_CHESS names
python-chess's source, a brute-force search in python-chess over real games' positions
(tests/data/solve/real-mates.jsonl) for every first move that mates within one or two moves."""
import json
import os

import pytest

import arbiter
from arbiter import Board, Move
from arbiter.solve import Solver, solve, MAX_N
from conftest import python_chess

HERE = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "data", "solve",
                    "real-mates.jsonl")


def ucis(moves):
    return sorted(m.uci() for m in moves)


def test_back_rank_mate_in_one():
    # Ra8#: the king's flight squares f7, g7, h7 are its own pawns; nothing else mates
    r = solve("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1)
    assert r.verdict == "mate" and r.found and r.length == 1
    assert ucis(r.keys) == ["a1a8"] and r.keys_complete and r.unique
    assert r.line == [Move.from_uci("a1a8")]


def test_mate_in_one_and_its_many_mates_in_two():
    # Ka8, Kb6, Rh1: only Rh8 mates at once (Ra1+ leaves b8); within two moves every rook move
    # along the h-file or to d1..g1 keeps ...Kb8 answered by a mate on the eighth rank
    b = Board("k7/8/1K6/8/8/8/8/7R w - - 0 1")
    r = Solver().solve(b, 1)
    assert ucis(r.keys) == ["h1h8"]
    r2 = Solver().solve(b, 2)
    assert r2.length == 1 and "h1h8" in ucis(r2.keys) and r2.keys_complete
    lengths = {m.uci(): n for m, n in zip(r2.keys, r2.key_lengths)}
    assert lengths.pop("h1h8") == 1 and set(lengths.values()) == {2}
    assert {"h1h7", "h1d1", "b6c7"} <= set(lengths)  # e.g. 1.Rh7 Kb8 2.Rh8#


def test_no_mate_proven():
    r = solve(arbiter.STARTING_FEN, 2)
    assert r.verdict == "none" and not r.keys and r.keys_complete


def test_stalemate_as_the_goal():
    # Qg6 takes g8, g7 and h7 from the king on h8 without checking it: stalemate, a draw
    r = solve("7k/5Q2/8/8/8/8/8/K7 w - - 0 1", 1, goal="draw")
    assert r.verdict == "draw" and "f7g6" in ucis(r.keys)
    after = Board("7k/5Q2/8/8/8/8/8/K7 w - - 0 1")
    after.push_uci("f7g6")
    assert after.is_stalemate()


def test_a_small_budget_never_answers_wrong():
    r = solve("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3, budget=50)
    assert r.verdict in ("unknown", "mate")
    if r.verdict == "unknown":
        assert not r.keys_complete


def test_wrong_arguments():
    with pytest.raises(ValueError):
        solve(arbiter.STARTING_FEN, 0)
    with pytest.raises(ValueError):
        solve(arbiter.STARTING_FEN, MAX_N + 1)
    with pytest.raises(ValueError):
        solve(arbiter.STARTING_FEN, 1, goal="win")
    with pytest.raises(arbiter.InvalidFenError):
        solve("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", 1)  # Black, not to move, is in check
    with pytest.raises(TypeError):
        solve(42, 1)


chess = python_chess()


def brute_mates(board, n):
    """python-chess: every first move that mates within n moves (n = 1 or 2) — by definition:
    a move that mates, or after which every reply allows a mate in one."""
    keys = set()
    for m in list(board.legal_moves):
        board.push(m)
        if board.is_checkmate():
            keys.add(m.uci())
        elif n == 2 and not board.is_game_over():
            ok = True
            for r in list(board.legal_moves):
                board.push(r)
                found = False
                for m2 in list(board.legal_moves):
                    board.push(m2)
                    found = board.is_checkmate()
                    board.pop()
                    if found:
                        break
                board.pop()
                if not found:
                    ok = False
                    break
            if ok:
                keys.add(m.uci())
        board.pop()
    return keys


@pytest.mark.skipif(chess is None, reason="PYTHON_CHESS is not set")
def test_every_key_against_python_chess():
    with open(REAL, encoding="utf-8") as f:
        fens = [json.loads(line)["fen"] for line in f][:60]
    solver = Solver()
    compared2 = 0
    for i, fen in enumerate(fens):
        theirs1 = brute_mates(chess.Board(fen), 1)
        r1 = solver.solve(fen, 1)
        assert set(m.uci() for m in r1.keys) == theirs1, fen
        assert r1.keys_complete and r1.verdict == ("mate" if theirs1 else "none")
        if i % 6 == 0:  # mate in two by brute force is slow in Python: every sixth position
            theirs2 = brute_mates(chess.Board(fen), 2)
            r2 = solver.solve(fen, 2)
            assert set(m.uci() for m in r2.keys) == theirs2, fen
            compared2 += 1
    assert compared2 == 10


def test_solvers_free_their_tables():
    import gc
    from conftest import c_heap_bytes
    Solver(16 << 20).solve("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1)
    gc.collect()
    before = c_heap_bytes()
    kept = [Solver(16 << 20) for _ in range(4)]
    assert c_heap_bytes() - before >= 4 * 15 << 20  # the tables are there while kept
    del kept
    for _ in range(40):  # 640 MB if the tables were not freed
        Solver(16 << 20).solve("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1)
    gc.collect()
    assert c_heap_bytes() - before < 1 << 20
