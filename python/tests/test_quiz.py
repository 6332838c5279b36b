# Arbiter — MIT licence, see LICENSE.
"""arbiter.quiz: items derived from their inputs by the rules.  Expected answers come from the
Laws, for positions reasoned by hand: castling across an attacked square (3.8.2.2), a
stalemate and a checkmate (5.1.1, 5.2.1), a flag against a lone king (6.9)."""
import json
import os

import pytest

import arbiter
import arbiter.pgn
from arbiter import quiz
from arbiter.quiz import QuizItem, QuizError

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GAMES = os.path.join(REPO, "tests", "data", "pgn", "real",
                     "lichess-jishanshaikh4-standard-first300.pgn")


@pytest.fixture(scope="module")
def games():
    return list(arbiter.pgn.read_games(GAMES))


def derive(template, fen, rules="fide", move="", topic=None, clock=None):
    topic = topic or {t: tp for t, tp, _ in quiz.templates()}[template]
    return QuizItem(id="t-0001", topic=topic, template=template, rules=rules, fen=fen,
                    move=move, clock=clock).derive()


def test_castling_across_an_attacked_square():
    # the rook on d8 attacks d1, which the king crosses on its way to c1: not now (3.8.2.2)
    it = derive("castling-now", "3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1", move="e1c1")
    assert it.answer.startswith("No") and "FIDE 3.8.2.2" in it.articles
    assert it.answer in it.choices and it.kind == "choice"
    ok = derive("castling-now", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", move="e1c1")
    assert ok.answer.startswith("Yes")


@pytest.mark.parametrize("fen,answer", [
    ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "Stalemate"),  # h8: g8, g7, h7 all taken, no check
    ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "Checkmate"),  # Fool's
])
def test_mate_or_stalemate(fen, answer):
    it = derive("mate-or-stalemate", fen)
    assert it.answer == answer


def test_flag_against_a_lone_king():
    # 6.9: White's flag falls, but Black has a lone king and cannot checkmate: a draw
    it = derive("flag-verdict", "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
                clock={"white_ms": 0, "black_ms": 60000, "flag": "white", "last_period": True})
    assert it.answer.startswith("Draw") and "FIDE 6.9" in it.articles


def test_made_items_check_and_tampering_is_found(games):
    items = quiz.make(30, seed=11, games=games)
    assert 20 <= len(items) <= 30 and len({i.topic for i in items}) >= 10
    again = quiz.make(30, seed=11, games=games)
    assert [i.to_dict() for i in again] == [i.to_dict() for i in items]  # deterministic
    for it in items:
        ok, why = it.check()
        assert ok, (it.id, why)
        assert 1 <= it.difficulty <= 5 and it.question
        again = QuizItem.from_dict(json.loads(json.dumps(it.to_dict())))
        assert again == it and again.check()[0]
    bad = QuizItem.from_dict(items[0].to_dict())
    wrong = [c for c in bad.choices if c != bad.answer]
    if wrong:
        bad.answer = wrong[0]
        ok, why = bad.check()
        assert not ok and why


def test_topics_and_games(games):
    items = quiz.make(6, topics=["castling"], seed=1, games=games)
    assert items and {i.topic for i in items} == {"castling"}
    assert all(i.id.startswith("castling-") for i in items)
    boards = [g.end() for g in games[:100]]  # Boards with their move stacks serve too
    assert {i.topic for i in quiz.make(4, topics=["castling", "movement"], seed=2,
                                       games=boards)} <= {"castling", "movement"}
    assert quiz.make(10, seed=3)  # seeded positions, no games
    with pytest.raises(ValueError):
        quiz.make(3, topics=["chess-boxing"])


def test_inputs_that_make_no_question():
    with pytest.raises(QuizError):
        QuizItem(id="x", topic="castling", template="castling-now", fen="8/8/8/8/8/8/8/8 w - - 0 1",
                 move="e1g1").derive()
    with pytest.raises(ValueError):
        QuizItem(id="x" * 40).derive()
