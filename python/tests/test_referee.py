# Arbiter — MIT licence, see LICENSE.
"""arbiter.referee: timed games with a clock, offers, claims, resignation, flags, the record and
the PGN.  Expected values come from the Laws and the rule cases (tests/data/rules/cases.jsonl,
whose timeout verdicts were verified against chessops with helpmate searches): clocks counted
by hand from each time control's definition, the articles' verdicts."""
import gc
import json
import os

import pytest

import arbiter
import arbiter.pgn
from arbiter import WHITE, BLACK, Move, Termination
from arbiter.referee import (Referee, TimeControl, Refused, InvalidTimeControlError, Decision,
                             monotonic_ms)
from conftest import python_chess

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "data", "rules",
                     "cases.jsonl")


def cases():
    with open(CASES, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


# ---- clocks, counted by hand (cases K01, K02, K03, K08) ----

def test_fischer_increment_after_the_move():
    # K01: 300 s + 2 s credited when the move is completed; White thinks 10 s
    ref = Referee("fide", time_control=TimeControl.from_pgn("300+2"), clock_model="after_move",
                  t=0)
    d = ref.move("e4", t=10000)
    assert d.accepted and d.san == "e4" and d.move == Move.from_uci("e2e4")
    assert d.state.remaining_ms == {WHITE: 292000, BLACK: 300000}
    assert d.state.running == BLACK and d.state.turn == BLACK


def test_fischer_increment_before_the_move():
    # K02: DGT clocks (US Chess 5F1): base + increment at the start
    ref = Referee("fide", time_control=TimeControl.from_pgn("300+2"), clock_model="before_move",
                  t=0)
    d = ref.move("e4", t=10000)
    assert d.state.remaining_ms == {WHITE: 294000, BLACK: 302000}


def test_lichess_first_moves_untimed():
    # K03: scalachess starts the clock after each side's first move
    ref = Referee("online", time_control="5+2", t=0)
    ref.move("e4", t=10000)
    ref.move("e5", t=17000)
    d = ref.move("Nf3", t=27000)
    assert d.state.remaining_ms == {WHITE: 292000, BLACK: 300000}


def test_a_late_move_stands_until_the_flag_is_claimed():
    # K08 and FIDE 6.8: 2 s + 5 s; White takes 3 s: the flag fell before the move, which stands
    # until the flag is claimed (the increment is not credited); then Black wins (6.9)
    ref = Referee("fide", time_control=TimeControl.from_pgn("2+5"), clock_model="after_move",
                  t=0)
    d = ref.move("e4", t=3000)
    assert d.accepted and d.late and not d.state.over
    d = ref.flag(WHITE, t=3500)
    assert d.accepted and d.ended
    assert d.state.outcome == arbiter.Outcome(Termination.TIME_FORFEIT, BLACK)
    assert d.state.result == "0-1" and d.state.flag_side == WHITE
    assert d.state.flag_reason == "loss"


def test_a_flag_that_has_not_fallen_is_refused():
    ref = Referee("fide", time_control="5+0", t=0)
    d = ref.flag(WHITE, t=1000)
    assert not d.accepted and d.refusal == "flag_not_fallen" and d.message
    assert not d.state.over and d.state.remaining_ms[WHITE] == 299000


@pytest.mark.parametrize("case", [c for c in cases() if "timeout_result" in c.get("expect", {})
                                  and c.get("verified")], ids=lambda c: c["id"])
@pytest.mark.parametrize("rules,key", [("fide", "fide"), ("online", "lichess")])
def test_flag_verdicts_of_the_rule_cases(case, rules, key):
    """FIDE 6.9 (a draw when the opponent cannot mate by any series of legal moves) and
    lichess's material rule, as the cases say (verified by helpmate searches)."""
    want = case["expect"]["timeout_result"][key]
    if "timeout_result." + key in case.get("unverified_keys", []):
        pytest.skip("unverified")
    flagged = WHITE if case["flag"] == "white" else BLACK
    # the clock runs from the start (lichess's own model leaves the first moves untimed)
    ref = Referee(rules, fen=case["fen"], time_control="1+0", clock_model="after_move", t=0)
    if ref.status.over:  # a dead position ends the game before any flag (5.2.2)
        assert ref.status.outcome.termination in (Termination.DEAD_POSITION,
                                                  Termination.INSUFFICIENT_MATERIAL)
        assert ref.status.result == want == "1/2-1/2"
        return
    assert ref.status.running == flagged  # the side to move's clock runs
    d = ref.flag(flagged, t=60001)
    state = ref.status
    assert state.over, (d, state)
    assert state.result == want
    assert state.outcome.termination == Termination.TIME_FORFEIT


# ---- offers, claims, resignation ----

def test_draw_offer_accepted_and_lapsed():
    ref = Referee("fide")
    ref.move("e4")
    assert ref.offer_draw(WHITE).accepted and ref.status.draw_offer == WHITE
    d = ref.move("e5")  # the opponent moves instead: the offer lapses (9.1.2.1)
    assert d.state.draw_offer is None
    assert ref.accept_draw(BLACK).refusal == "no_offer"
    ref.offer_draw(BLACK)
    d = ref.accept_draw(WHITE)
    assert d.accepted and d.ended
    assert d.state.outcome == arbiter.Outcome(Termination.AGREEMENT, None)
    assert d.state.result == "1/2-1/2" and d.state.outcome.by == WHITE
    assert ref.move("Nf3").refusal == "game_over"


def test_no_draw_before_a_move_number():
    ref = Referee("fide", no_draw_before=30)  # the event's rule, FIDE 9.1.1
    for san in ["e4", "e5", "Nf3", "Nc6"]:
        ref.move(san)
    ref.offer_draw(WHITE)
    d = ref.accept_draw(BLACK)
    assert not d.accepted and d.refusal == "not_allowed" and not d.state.over


def test_threefold_claim_with_intended_move():
    # F02 (9.2.1): after Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1, Black claims with ...Ng8, which would
    # bring the start position (Black's knights home, White's too) a third time
    ref = Referee("fide", time_control="90+30", t=0)
    t = 0
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]:
        t += 1000
        assert ref.move(uci, t=t).accepted
    assert ref.status.facts.repetitions == 2 and "threefold" in ref.status.claims
    d = ref.claim_draw(BLACK, "threefold", "f6g8", t=t + 500)
    assert d.accepted and d.claimed and d.verdict.correct and d.ended
    assert d.state.outcome == arbiter.Outcome(Termination.THREEFOLD_REPETITION, None)
    assert d.state.outcome.automatic is False and d.state.outcome.by == BLACK
    assert ref.board().move_stack[-1] == Move.from_uci("f3g1")  # the intended move not played


def test_wrong_claim_penalty_and_must_play():
    # P09 (9.5.3, 9.5.2): after Nf3 Nf6 Ng1 the start would occur only a second time: the claim
    # is wrong, White gets two minutes, and Black must play the move named
    ref = Referee("fide", time_control="90+30", t=0)
    for t, uci in ((1000, "g1f3"), (2000, "g8f6"), (3000, "f3g1")):
        ref.move(uci, t=t)
    before = ref.status.remaining_ms[WHITE]
    d = ref.claim_draw(BLACK, "threefold", "f6g8", t=4000)
    assert d.accepted and d.claimed and not d.verdict.correct
    assert d.verdict.must_play and d.verdict.intended == "f6g8"
    assert d.time_added_to == WHITE and d.time_added_ms == 120000
    assert d.state.remaining_ms[WHITE] == before + 120000
    assert d.state.must_play == Move.from_uci("f6g8") and not d.state.over
    assert ref.move("Nc6", t=5000).refusal == "must_play"
    assert ref.move("Ng8", t=5000).accepted


def test_fifty_move_claim():
    # 9.3: fifty moves by each side without a capture or a pawn move
    ref = Referee("fide", fen="4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    assert "fifty" in ref.status.claims  # a quiet move would complete them (9.3.1)
    d = ref.claim_draw(WHITE, "fifty", "Ra2")
    assert d.accepted and d.verdict.correct
    assert d.state.outcome.termination == Termination.FIFTY_MOVES


@pytest.mark.parametrize("rules,want", [("fide", "1/2-1/2"), ("online", "0-1")])
def test_resignation_when_the_opponent_cannot_mate(rules, want):
    # P15: FIDE 2023 5.1.2 makes it a draw; lichess awards the win regardless of material
    ref = Referee(rules, fen="8/8/8/4k3/8/8/8/3QK3 w - - 0 1")
    d = ref.resign(WHITE)
    assert d.accepted and d.ended and d.state.result == want
    assert d.state.outcome.termination in (Termination.RESIGNATION,)


def test_resignation_loses():
    ref = Referee("fide")
    ref.move("e4")
    d = ref.resign(BLACK)
    assert d.state.outcome == arbiter.Outcome(Termination.RESIGNATION, WHITE)
    assert ref.end_words()  # "... resigns": words for a person


def test_checkmate_ends_the_game():
    ref = Referee("fide", time_control="3+2", t=0)
    t = 0
    for san in ["f3", "e5", "g4", "Qh4#"]:
        t += 1000
        d = ref.move(san, t=t)
    assert d.ended and d.san == "Qh4#"
    assert d.state.outcome == arbiter.Outcome(Termination.CHECKMATE, BLACK)
    assert d.state.outcome.automatic
    assert ref.flag(WHITE, t=10 ** 7).refusal == "game_over"  # mate came first (6.9 / 5.1.1)


# ---- refusals and wrong arguments ----

def test_refused_moves_change_nothing():
    ref = Referee("fide")
    d = ref.move("e5")
    assert isinstance(d, Decision) and not d and d.refusal == "illegal_move" and d.message
    with pytest.raises(Refused) as e:
        d.raise_if_refused()
    assert e.value.refusal == "illegal_move" and d.message in str(e.value)
    assert ref.move("Zz9").refusal == "bad_move"
    assert ref.move("e4", by=BLACK).refusal == "not_your_turn"
    assert ref.status.ply == 0 and ref.board().fen() == arbiter.STARTING_FEN


def test_wrong_arguments_raise_with_the_library_message():
    with pytest.raises(InvalidTimeControlError) as e:
        TimeControl("5+x")
    assert isinstance(e.value, ValueError) and e.value.column >= 0
    with pytest.raises(ValueError):
        Referee("blitz")
    with pytest.raises(arbiter.InvalidFenError):
        Referee("fide", fen="8/8/8/8/8/8/8/8 w - - 0 1")
    with pytest.raises(ValueError):
        Referee("fide").resign("red")
    with pytest.raises(ValueError):
        Referee("fide").claim_draw(WHITE, "boredom")


def test_time_controls_read_and_written():
    tc = TimeControl("40/90+30,30+30")  # FIDE standard play
    assert tc.pgn() == "40/5400+30:1800+30"
    assert TimeControl.from_pgn("300+2") == TimeControl("5+2")
    assert TimeControl.from_pgn(TimeControl("G/90;d5").pgn()).pgn() == "5400"  # PGN has no delay


def test_a_timed_game_needs_times_or_a_clock():
    ref = Referee("fide", time_control="5+3", t=0)
    d = ref.move("e4")  # no t and no clock
    assert d.refusal == "bad_event"
    ref = Referee("fide", time_control="5+3", clock=monotonic_ms)
    assert ref.move("e4").accepted


# ---- online: the server sees every flag ----

def test_online_flag_falls_by_itself():
    ref = Referee("online", time_control="1+0", t=0)
    ref.move("e4", t=1000)
    ref.move("e5", t=2000)  # the first moves are untimed; White's clock now runs from 2000
    assert ref.next_deadline is not None and 62000 <= ref.next_deadline <= 64000
    d = ref.tick(ref.next_deadline)
    assert d.ended and d.state.outcome == arbiter.Outcome(Termination.TIME_FORFEIT, BLACK)
    assert ref.next_deadline is None


# ---- the record, the board and the PGN ----

def test_record_and_pgn():
    ref = Referee("fide", time_control=TimeControl.from_pgn("300+2"), clock_model="after_move",
                  tags={"White": "Morphy", "Black": "Duke", "Event": "Opera"}, t=0)
    for t, san in ((10000, "e4"), (15000, "e5"), (22000, "Nf3")):
        ref.move(san, t=t)
    ref.move("Ke6", t=23000)  # refused, and in the record
    ref.resign(BLACK, t=30000)
    rec = ref.record
    assert [e.kind for e in rec] == ["start", "move", "move", "move", "move", "resign"]
    assert [e.accepted for e in rec] == [True, True, True, True, False, True]
    # after the press: 300 - 10 + 2 = 292 s for White, 300 - 5 + 2 = 297 s for Black, then
    # 292 - 7 + 2 = 287 s for White
    assert [e.clock_ms for e in rec[1:4]] == [292000, 297000, 287000]
    assert [e.move_ms for e in rec[1:4]] == [10000, 5000, 7000]
    board = ref.board()
    assert [m.uci() for m in board.move_stack] == ["e2e4", "e7e5", "g1f3"]
    text = ref.pgn()
    assert '[White "Morphy"]' in text and '[TimeControl "300+2"]' in text
    assert '[Result "1-0"]' in text and text.rstrip().endswith("1-0")
    g = arbiter.pgn.read_game(text)
    assert not g.has_errors() and [m.uci() for m in g.moves] == ["e2e4", "e7e5", "g1f3"]
    assert g.headers["Termination"] == "normal"
    chess = python_chess()
    if chess:  # python-chess reads the clocks back
        import io
        game = chess.pgn.read_game(io.StringIO(text))
        assert [n.clock() for n in game.mainline()] == [292.0, 297.0, 287.0]


def test_setup_moves_and_chess960():
    ref = Referee("fide", moves=["e4", "e5", "Nf3"])  # a book's: counted, not in the record
    assert ref.status.ply == 3 and ref.status.turn == BLACK
    assert [e.kind for e in ref.record] == ["start"]
    assert ref.board().fen() == arbiter.Board(
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2").fen()
    b = arbiter.Board.from_chess960_pos(0)
    ref = Referee("fide", board=b)
    assert ref.board().chess960


def test_referees_free_their_memory():
    from conftest import c_heap_bytes
    Referee("fide", time_control="5+3", t=0).move("e4", t=100)
    gc.collect()
    before = c_heap_bytes()
    kept = [Referee("fide", time_control="5+3", t=0) for _ in range(100)]
    assert c_heap_bytes() - before > 100 * 1000  # each holds its game and record
    del kept
    for _ in range(5000):
        ref = Referee("fide", time_control="5+3", t=0)
        ref.move("e4", t=100)
    gc.collect()
    assert c_heap_bytes() - before < 100000
