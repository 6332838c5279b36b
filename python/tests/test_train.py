# Arbiter — MIT licence, see LICENSE.
"""arbiter.train: puzzles in lichess's CSV, their proof, a learner's moves judged; Glicko-2;
the review schedule.  Expected values: lichess's own sample row (its database page) and the
starter set's puzzles (data/puzzles/starter.csv, each solver move proven again by Popeye, the
problemists' solver), puzzles with a fault reasoned by hand, Glickman's worked example of
Glicko-2, the Leitner intervals as train.h documents them (discochess's Mistake Review)."""
import itertools
import os

import pytest

import arbiter
from arbiter import Board, Move
from arbiter.solve import Solver
from arbiter.train import (Puzzle, read_puzzles, move_right, why_wrong, Glicko, rate_puzzle,
                           theme_kind, Review, CSV_HEADER)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STARTER = os.path.join(REPO, "data", "puzzles", "starter.csv")
SAMPLE = ("00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6 d7d8 f7f8,"
          "1760,80,83,72,mate mateIn2 middlegame short,https://lichess.org/yyznGmXs/black#34,")


def test_lichess_sample_row():
    p = Puzzle.from_csv(SAMPLE)
    assert p.id == "00sHx" and p.rating == 1760 and p.rating_deviation == 80
    assert p.moves == ["e8d7", "a2e6", "d7d8", "f7f8"] and p.plays == 72
    assert p.themes == ["mate", "mateIn2", "middlegame", "short"] and p.openings == []
    assert p.to_csv() == SAMPLE and Puzzle.from_csv(p.to_csv()) == p
    assert p.kind_theme == "mateIn2" and p.has_theme("short")
    # after ...Kd7, Be6+ Kd8 Qf8#: a mate in two with one key at each move
    c = p.check()
    assert c.ok and c.goal == "mate" and c.length == 2
    b = p.board()  # ...Kd7 played: the learner's turn
    assert b.turn == arbiter.WHITE and b.piece_at(arbiter.parse_square("d7")).symbol() == "k"
    assert CSV_HEADER.startswith("PuzzleId,FEN,Moves,Rating")


@pytest.mark.parametrize("row,verdict,ply,goal", [
    # after ...Ka7, 1.Qb6+ Ka8 2.Qb7# — but 1.Kc7 mates in two as well (Ka8 forced, Qb7#/Qb8#)
    ("x2,k7/8/2K5/1Q6/8/8/8/8 b - - 0 1,a8a7 b5b6 a7a8 b6b7,1500,500,0,0,,,",
     "second_solution", 1, "mate"),
    # Re3 forces nothing after ...Qc3 (Nxc3 is the mate in two); ...h5?? Qg5# is a blunder
    ("x4,8/p3R2p/p2p1Qpk/3P4/N4PbP/P5K1/3q4/8 b - - 6 36,d2c3 e7e3 h6h5 f6g5,1500,500,0,0,,,",
     "no_solution", 1, "mate"),
    # a line ending in neither mate nor a draw: nothing to prove
    ("x5,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,e2e4 e7e5,1500,500,0,0,,,",
     "unchecked", None, None),
    # e2e5 is not a move
    ("x6,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,e2e5 e7e5,1500,500,0,0,,,",
     "bad", 0, None),
    # the king takes the last pawn: a dead position, a draw forced by one key
    ("x7,8/8/8/3k4/8/3P4/8/6K1 w - - 0 1,d3d4 d5d4,1500,500,0,0,,,", "ok", None, "draw"),
])
def test_faults_found(row, verdict, ply, goal):
    c = Puzzle.from_csv(row).check(Solver(1 << 20))
    assert c.verdict == verdict, c
    if ply is not None:
        assert c.ply == ply
    if goal is not None:
        assert c.goal == goal
    if verdict == "second_solution":
        assert c.other == "c6c7"


def test_starter_puzzles_proven():
    if not os.path.exists(STARTER):
        pytest.skip("data/puzzles/starter.csv is not here")
    solver = Solver()
    n = 0
    for p in itertools.islice(read_puzzles(STARTER), 0, 8000, 40):
        c = p.check(solver)
        assert c.ok, (p.id, c)
        assert c.goal == ("draw" if p.has_theme("stalemateRescue") else "mate") or \
            p.has_theme("stalemateTrap")
        n += 1
    assert n == 200


def test_csv_errors_name_the_field():
    with pytest.raises(ValueError) as e:
        Puzzle.from_csv("x,fen,e2e4 e7e5,1,1,1,1,,,,extra")
    assert "more than 10" in str(e.value)
    with pytest.raises(ValueError):
        Puzzle.from_csv(CSV_HEADER)
    with pytest.raises(ValueError):
        list(read_puzzles(["PuzzleId,FEN", "broken"]))


def test_learner_moves_judged():
    p = Puzzle.from_csv(SAMPLE)
    b = p.board()
    assert move_right(b, Move.from_uci("a2e6"), Move.from_uci("a2e6"), False)
    assert not move_right(b, Move.from_uci("a2b1"), Move.from_uci("a2e6"), False)
    words = why_wrong(b, Move.from_uci("a2b1"), "mate", 2)
    assert words and isinstance(words, str)
    # the last move: any mate is right (lichess accepts every mate in one)
    b2 = Board("k7/8/1K6/8/8/8/8/6R1 w - - 0 1")
    assert move_right(b2, Move.from_uci("g1g8"), Move.from_uci("g1g8"), True)


def test_glicko2_glickman_example():
    # Glickman, "Example of the Glicko-2 system": 1500/200/0.06 against 1400/30, 1550/100,
    # 1700/300 (won, lost, lost), tau 0.5 -> 1464.06, 151.52, 0.05999
    me = Glicko(1500, 200, 0.06)
    opp = [Glicko(1400, 30, 0.06), Glicko(1550, 100, 0.06), Glicko(1700, 300, 0.06)]
    g = me.updated(opp, [1, 0, 0], tau=0.5)
    assert g.rating == pytest.approx(1464.06, abs=0.02)
    assert g.rd == pytest.approx(151.52, abs=0.01)
    assert g.volatility == pytest.approx(0.05999, abs=0.00001)
    assert Glicko(1500, 200, 0.06).expected(Glicko(1500, 200, 0.06)) == pytest.approx(0.5)
    assert Glicko().updated([], []).rd > 500  # no games: only the RD grows
    assert Glicko().updated([], []).clamped(Glicko()).rd == 500  # lichess's bounds
    with pytest.raises(ValueError):
        me.updated(opp, [1, 0, 2])


def test_puzzle_rating_moves_both_ways():
    learner, puzzle = Glicko(1500, 200, 0.06), Glicko(1500, 200, 0.06)
    won = rate_puzzle(learner, puzzle, True, "middlegame")
    lost = rate_puzzle(learner, puzzle, False, "middlegame")
    assert won[0].rating > 1500 > won[1].rating and lost[0].rating < 1500 < lost[1].rating
    assert theme_kind("mateIn1") == 1 and theme_kind("middlegame") == 3
    assert theme_kind("fork") == 2 and theme_kind(None) == 0


def test_review_schedule():
    day = 86400000
    r = Review()
    r.answer(True, 0)
    assert r.box == 0 and not r.due(10 * day)  # never missed: nothing to review
    r.answer(False, 0)
    assert r.box == 1 and r.due_ms == day and r.due(day) and not r.due(day - 1)
    now = day  # each right answer moves it up a box: due after 3, 7, 14, 30 days
    for box, interval in ((2, 3), (3, 7), (4, 14), (5, 30)):
        r.answer(True, now)
        assert (r.box, r.due_ms) == (box, now + interval * day)
        now = r.due_ms
    r.answer(True, now)
    assert r.box == 6 and not r.due(now + 1000 * day)  # five right in a row: mastered
