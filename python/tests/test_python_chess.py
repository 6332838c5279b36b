# Arbiter — MIT licence, see LICENSE.
"""Differential: random games played on arbiter.Board and python-chess's Board side by side —
at every ply the legal moves, SAN of each, FEN, check, mate, stalemate, insufficient material,
the claims and the outcome.  Runs when $PYTHON_CHESS names python-chess's source (fetched
outside the tree, as bench/python does); skipped otherwise."""
import random

import pytest

import arbiter
from conftest import python_chess

chess = python_chess()
if chess is None:
    pytest.skip("PYTHON_CHESS is not set", allow_module_level=True)

TERMS = {
    "CHECKMATE": "CHECKMATE", "STALEMATE": "STALEMATE",
    "INSUFFICIENT_MATERIAL": "INSUFFICIENT_MATERIAL", "FIVEFOLD_REPETITION":
    "FIVEFOLD_REPETITION", "SEVENTYFIVE_MOVES": "SEVENTYFIVE_MOVES",
    "THREEFOLD_REPETITION": "THREEFOLD_REPETITION", "FIFTY_MOVES": "FIFTY_MOVES",
}


def compare(ours, theirs):
    assert ours.fen() == theirs.fen()
    legal = sorted(m.uci() for m in ours.legal_moves)
    assert legal == sorted(m.uci() for m in theirs.legal_moves), ours.fen()
    for m in theirs.legal_moves:
        assert ours.san(arbiter.Move.from_uci(m.uci())) == theirs.san(m), (ours.fen(), m)
    assert ours.is_check() == theirs.is_check()
    assert ours.is_checkmate() == theirs.is_checkmate()
    assert ours.is_stalemate() == theirs.is_stalemate()
    assert ours.is_insufficient_material() == theirs.is_insufficient_material()
    for c in (True, False):
        assert ours.has_insufficient_material(c) == theirs.has_insufficient_material(c), ours.fen()
    assert ours.can_claim_fifty_moves() == theirs.can_claim_fifty_moves()
    assert ours.can_claim_threefold_repetition() == theirs.can_claim_threefold_repetition()
    assert ours.is_fivefold_repetition() == theirs.is_fivefold_repetition()
    assert ours.is_seventyfive_moves() == theirs.is_seventyfive_moves()
    o, t = ours.outcome(claim_draw=True), theirs.outcome(claim_draw=True)
    if o is not None and o.termination == arbiter.Termination.DEAD_POSITION:
        return  # python-chess knows dead positions by material only
    if t is None:
        assert o is None, ours.fen()
    else:
        assert o is not None and o.termination.name == TERMS[t.termination.name], ours.fen()
        assert o.winner == t.winner


@pytest.mark.parametrize("seed", range(40))
def test_random_games(seed):
    rng = random.Random(seed)
    ours, theirs = arbiter.Board(), chess.Board()
    for _ in range(300):
        compare(ours, theirs)
        moves = list(theirs.legal_moves)
        if not moves or theirs.is_fivefold_repetition() or theirs.is_seventyfive_moves():
            break
        m = rng.choice(moves)
        ours.push(arbiter.Move.from_uci(m.uci()))
        theirs.push(m)
    while theirs.move_stack:
        ours.pop(), theirs.pop()
        assert ours.fen() == theirs.fen()


@pytest.mark.parametrize("seed", range(10))
def test_random_chess960_games(seed):
    rng = random.Random(1000 + seed)
    n = rng.randrange(960)
    ours, theirs = arbiter.Board.from_chess960_pos(n), chess.Board.from_chess960_pos(n)
    for _ in range(150):
        assert ours.fen(shredder=True) == theirs.shredder_fen()
        assert sorted(m.uci() for m in ours.legal_moves) == sorted(
            m.uci() for m in theirs.legal_moves), theirs.fen()
        moves = list(theirs.legal_moves)
        if not moves:
            break
        m = rng.choice(moves)
        assert ours.san(arbiter.Move.from_uci(m.uci())) == theirs.san(m)
        ours.push(arbiter.Move.from_uci(m.uci()))
        theirs.push(m)
