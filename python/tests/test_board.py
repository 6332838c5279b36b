# Arbiter — MIT licence, see LICENSE.
"""arbiter.Board as a python-chess user uses it.  Expected values come from outside Arbiter:
the published perft counts, the Laws' own examples (Fool's mate, the repetition and move-count
rules counted by hand), SAN as the Laws' Appendix C writes it, chasolver's labels for dead
positions (dead-positions.txt, from ../shared/data/dead)."""
import gc
import resource

import pytest

import arbiter
from arbiter import Board, Move, WHITE, BLACK, Termination


@pytest.mark.parametrize("fen,counts", [
    (arbiter.STARTING_FEN, [20, 400, 8902, 197281]),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", [48, 2039, 97862]),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", [14, 191, 2812, 43238]),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", [6, 264, 9467]),
])
def test_perft_published_counts(fen, counts):
    b = Board(fen)
    for depth, n in enumerate(counts, 1):
        assert b.perft(depth) == n
        assert arbiter.perft(fen, depth) == n
    assert b.legal_moves.count() == counts[0] == len(list(b.legal_moves))


def test_fools_mate_and_pop():
    b = Board()
    for san in ["f3", "e5", "g4", "Qh4#"]:
        b.push_san(san)
    assert b.is_check() and b.is_checkmate() and not b.is_stalemate()
    assert b.outcome() == arbiter.Outcome(Termination.CHECKMATE, BLACK)
    assert b.result() == "0-1" and b.is_game_over()
    assert b.fen() == "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    assert b.pop() == Move.from_uci("d8h4")
    assert b.outcome() is None and b.turn == BLACK and len(b.move_stack) == 3
    assert b.peek() == Move.from_uci("g2g4")


def test_san_as_the_laws_write_it():
    b = Board("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1")
    assert b.san(Move.from_uci("b1d2")) == "Nbd2"
    assert b.san(Move.from_uci("f3d2")) == "Nfd2"
    with pytest.raises(arbiter.AmbiguousMoveError):
        b.push_san("Nd2")
    b = Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert b.san(Move.from_uci("e1g1")) == "O-O" and b.san(Move.from_uci("e1c1")) == "O-O-O"
    assert b.san(Move.from_uci("a1a8")) == "Rxa8+"
    b = Board("7k/P7/8/8/8/8/8/K7 w - - 0 1")
    assert b.san(Move.from_uci("a7a8q")) == "a8=Q+" and b.san(Move.from_uci("a7a8n")) == "a8=N"
    assert b.push_san("a8=R+") == Move.from_uci("a7a8r")


def test_errors_carry_the_library_message():
    b = Board()
    with pytest.raises(arbiter.IllegalMoveError) as e:
        b.push_san("e5")
    assert isinstance(e.value, ValueError) and "e5" in str(e.value)
    with pytest.raises(arbiter.InvalidMoveError):
        b.push_san("Zz9")
    with pytest.raises(arbiter.IllegalMoveError):
        b.push(Move.from_uci("e2e5"))
    with pytest.raises(arbiter.InvalidMoveError):
        Move.from_uci("e2")
    with pytest.raises(arbiter.InvalidFenError) as e:
        Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1")
    assert "X" in str(e.value)
    with pytest.raises(arbiter.InvalidFenError):
        Board("8/8/8/8/8/8/8/8 w - - 0 1")  # no kings: cannot be played
    assert b.fen() == arbiter.STARTING_FEN and not b.move_stack  # nothing changed


def test_en_passant_square_written_when_legal():
    b = Board()
    b.push_san("e4")
    assert b.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert b.fen(en_passant="fen").split()[3] == "e3"
    b = Board("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1")
    b.push_san("e4")
    assert b.fen().split()[3] == "e3" and b.ep_square == 20
    ep = Move.from_uci("d4e3")
    assert b.is_en_passant(ep) and b.is_capture(ep) and b.san(ep) == "dxe3"
    b.push(ep)
    assert b.piece_at(arbiter.parse_square("e4")) is None  # the pawn taken en passant


def test_stalemate_and_insufficient_material():
    b = Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert b.is_stalemate() and not b.is_checkmate() and not b.legal_moves
    assert b.outcome() == arbiter.Outcome(Termination.STALEMATE, None)
    for fen in ["8/8/4k3/8/8/3K4/8/8 w - - 0 1", "8/8/4k3/8/8/3KB3/8/8 w - - 0 1",
                "8/8/4k3/8/8/3KN3/8/8 w - - 0 1"]:
        assert Board(fen).is_insufficient_material()
        assert Board(fen).outcome().termination == Termination.INSUFFICIENT_MATERIAL
    b = Board("8/8/4k3/8/8/3KB3/8/7p w - - 0 1")  # a bishop against a pawn: only Black can mate
    assert not b.is_insufficient_material()
    assert b.has_insufficient_material(WHITE) is False  # KB v K+P: the pawn can block a mate
    assert Board("8/8/4k3/8/8/3K4/8/7p w - - 0 1").has_insufficient_material(WHITE)


def test_threefold_counted_by_hand():
    b = Board()
    moves = ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6"]
    for san in moves:
        b.push_san(san)
    assert not b.can_claim_threefold_repetition()  # Ng1 would make a second occurrence only
    b.push_san("Ng1")
    assert b.can_claim_threefold_repetition()  # ... Ng8 would be the start's third (9.2.1)
    assert not b.is_repetition(3)
    b.push_san("Ng8")
    assert b.is_repetition(3) and b.can_claim_draw()
    assert b.outcome() is None
    assert b.outcome(claim_draw=True) == arbiter.Outcome(Termination.THREEFOLD_REPETITION, None)
    for san in ["Nf3", "Nf6", "Ng1", "Ng8"] * 2:
        b.push_san(san)
    assert b.is_fivefold_repetition()
    assert b.outcome().termination == Termination.FIVEFOLD_REPETITION  # 9.6.1: automatic
    b.push_san("e4")  # play goes on on an analysis board
    assert b.outcome() is None and not b.is_fivefold_repetition()


def test_fifty_and_seventyfive_moves():
    b = Board("4k3/8/8/8/8/8/8/R3K3 w - - 99 80")
    assert b.can_claim_fifty_moves() and not b.is_fifty_moves()  # a quiet move completes 50
    b.push_san("Ra2")
    assert b.is_fifty_moves() and b.outcome(claim_draw=True).termination == Termination.FIFTY_MOVES
    b = Board("4k3/8/8/8/8/8/8/R3K3 w - - 149 100")
    b.push_san("Ra2")
    assert b.is_seventyfive_moves()
    assert b.outcome() == arbiter.Outcome(Termination.SEVENTYFIVE_MOVES, None)


def test_dead_positions_labelled_by_chasolver(data):
    for line in open(data("dead-positions.txt")):
        label, fen = line[:2], line[3:].strip() + " 0 1"
        b = Board(fen)
        for color, mark in ((WHITE, label[0]), (BLACK, label[1])):
            w = b.winnability(color)
            if mark == "-":
                assert w.verdict == "unwinnable", (fen, color, w)
            else:
                assert w.verdict == "winnable", (fen, color, w)
                end = b.copy(stack=False)
                for m in w.line:
                    end.push(m)
                assert end.is_checkmate() and end.turn != color
        assert b.is_dead_position() == (label == "--")


def test_null_move():
    b = Board("rnbqkbnr/ppp1pppp/8/2Pp4/8/8/PP1PPPPP/RNBQKBNR w KQkq d6 0 2")
    b.push(Move.null())
    assert b.fen() == "rnbqkbnr/ppp1pppp/8/2Pp4/8/8/PP1PPPPP/RNBQKBNR b KQkq - 1 2"
    assert b.pop() == Move.null() and not Move.null()


def test_chess960():
    assert Board.from_chess960_pos(518).fen() == arbiter.STARTING_FEN
    b = Board("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", chess960=True)
    assert b.chess960 and b.perft(1) == 21 and b.perft(2) == 528 and b.perft(3) == 12189
    b = Board("4k3/8/8/8/8/8/8/4K2R w K - 0 1", chess960=True)
    castle = [m for m in b.legal_moves if b.is_castling(m)]
    assert castle == [Move.from_uci("e1h1")]  # king takes rook
    assert b.san(castle[0]) == "O-O"


def test_board_display_and_copy():
    b = Board()
    b.push_san("e4")
    c = b.copy()
    c.push_san("e5")
    assert len(b.move_stack) == 1 and len(c.move_stack) == 2
    assert str(b).splitlines()[4] == ". . . . P . . ."
    assert b.piece_at(arbiter.parse_square("e4")) == arbiter.Piece(arbiter.PAWN, WHITE)
    assert b.king(BLACK) == arbiter.parse_square("e8")
    assert b.variation_san([Move.from_uci("e7e5"), Move.from_uci("g1f3")]) == "1...e5 2. Nf3"


def test_memory_is_freed():
    def rss_kb():
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(2000):  # warm up the allocator
        Board().push_san("e4")
    before = rss_kb()
    for _ in range(50000):
        b = Board()
        for san in ("e4", "e5", "Nf3"):
            b.push_san(san)
    gc.collect()
    assert rss_kb() - before < 20000  # 50,000 games kept would be far more (each holds KBs)
