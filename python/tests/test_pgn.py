# Arbiter — MIT licence, see LICENSE.
"""arbiter.pgn: reading (paths, files, bytes, text; chunked), problems with their place, and
writing.  Expected values: the Opera game's final position as published (and as python-chess
gives it), the input's own line and column numbers, the count of its [Event tags."""
import io
import os

import pytest

import arbiter
import arbiter.pgn as pgn

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OPERA_END = "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17"
LICHESS = os.path.join(REPO, "tests", "data", "pgn", "real",
                       "lichess-jishanshaikh4-standard-first300.pgn")


def test_the_opera_game(data):
    g = pgn.read_game(data("opera.pgn"))
    assert g.headers["White"] == "Paul Morphy" and g.headers["Result"] == "1-0"
    assert len(g.moves) == 33 and not g.errors and g.start_fen is None
    end = g.end()
    assert end.fen() == OPERA_END and end.is_checkmate()
    assert g.moves[22] == arbiter.Move.from_uci("e1c1")  # 12. O-O-O as the king's move


@pytest.mark.parametrize("how", ["path", "binary", "text", "bytes", "str"])
def test_every_kind_of_source(data, how):
    path = data("opera.pgn")
    source = {"path": lambda: path, "binary": lambda: open(path, "rb"),
              "text": lambda: open(path, encoding="utf-8"),
              "bytes": lambda: open(path, "rb").read(),
              "str": lambda: open(path, encoding="utf-8").read()}[how]()
    games = list(pgn.read_games(source))
    assert len(games) == 1 and games[0].end().fen() == OPERA_END


def test_problems_name_their_place_and_reading_goes_on():
    text = '[White "x"]\n\n1. e4 e5 2. Ke3 *\n\n[White "y"]\n\n1. d4 Nf6 2. Bg5 *\n'
    a, b = pgn.read_games(text)
    assert a.number == 1 and a.has_errors()
    e = a.errors[0]
    assert (e.line, e.column, e.warning) == (3, 13, False) and "Ke3" in str(e)
    assert [m.uci() for m in a.moves] == ["e2e4", "e7e5"]  # up to the illegal move
    assert b.number == 2 and not b.errors and b.headers == {"White": "y"}
    assert b.end().fen() == "rnbqkb1r/pppppppp/5n2/6B1/3P4/8/PPP1PPPP/RN1QKBNR b KQkq - 2 2"


def test_a_file_larger_than_a_chunk():
    if not os.path.exists(LICHESS):
        pytest.skip("the repository's PGN corpus is not here")
    events = sum(1 for line in open(LICHESS, encoding="utf-8") if line.startswith("[Event "))
    assert os.path.getsize(LICHESS) > 1 << 16
    games = list(pgn.read_games(LICHESS))
    assert len(games) == events == 300
    assert [g.number for g in games] == list(range(1, 301))
    # each game's moves replay on a board, and the game's end is the board's
    for g in games[:50]:
        b = g.board()
        for m in g.moves:
            b.push(m)
        assert b.fen() == g.end().fen()


def test_setup_and_chess960_games():
    text = ('[Variant "Chess960"]\n[SetUp "1"]\n'
            '[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]\n\n1. O-O *\n')
    g = pgn.read_game(text)
    assert g.chess960 and not g.errors
    assert g.moves == [arbiter.Move.from_uci("e1h1")]  # king takes rook
    assert g.end().fen() == "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"


def test_write_and_read_back(data):
    g = pgn.read_game(data("opera.pgn"))
    text = pgn.write_game(g)
    assert text.startswith('[Event "A Night at the Opera"]\n[Site "Paris FRA"]')
    assert "12. O-O-O Rd8" in text and text.rstrip().endswith("17. Rd8# 1-0")
    again = pgn.read_game(text)
    assert again.moves == g.moves and again.headers == g.headers
    b = arbiter.Board()
    b.push_san("e4")
    assert "1. e4 *" in pgn.write_game(b, headers={"White": "me"})
    with pytest.raises(arbiter.ArbiterError):
        pgn.write_game(b, headers={"bad name": "x"})


def test_no_game_at_all():
    assert pgn.read_game(io.BytesIO(b"")) is None


def test_options_refused_as_the_command_refuses_them():
    with pytest.raises(ValueError):
        pgn.Options("filter")  # a filter needs a filter
    with pytest.raises(ValueError):
        pgn.Options("check", to="jsonl")  # check has no output format
    with pytest.raises(ValueError):
        pgn.Options("convert", to="xml")
    with pytest.raises(ValueError):
        pgn.Options("convert", eco="A0")
    with pytest.raises(arbiter.InvalidFenError):
        pgn.Options("filter", position="not a fen")
    assert pgn.Options("filter", min_elo=2000).format == "pgn"


def test_a_piece_read_and_put_in_order():
    text = b'[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Ke3 *\n'
    records, stats = pgn.read_piece(pgn.Options("check"), "x.pgn", text)
    assert stats["games"] == 1 and stats["errors"] == 1
    out = pgn.Output()
    o, e = out.add(records, stats)
    assert o == "x.pgn:4:13: game 1 (A \u2013 B): ply 3: 2. Ke3: no legal move fits\n".encode()
    o, e = out.add(records, stats)  # the next piece's game is game 2
    assert o.startswith(b"x.pgn:4:13: game 2 ") and e == b""
    assert out.summary(0).startswith("2 games, 2 with errors (2 errors, 0 warnings)")
    with pytest.raises(arbiter.ArbiterError):
        out.add(records[:-1], stats)  # damaged records
