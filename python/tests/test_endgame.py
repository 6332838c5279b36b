# Arbiter — MIT licence, see LICENSE.
"""arbiter.endgame: tables built in memory.  Expected values: the longest mates published for
these materials (KQK 10 moves, KRK 16, KBNK 33 — Ströhlein's 1970 tables, Thompson's, Nalimov's
all agree), and textbook king-and-pawn positions."""
import pytest

from arbiter import Board
from arbiter.endgame import EndgameTable, material_of


@pytest.fixture(scope="module")
def tables():
    return {m: EndgameTable(m) for m in ("KQK", "KRK", "KPK")}


@pytest.mark.parametrize("material,longest", [("KQK", 10), ("KRK", 16)])
def test_longest_mates(tables, material, longest):
    s = tables[material].stats
    assert s.longest["strong"] == longest
    fen = s.longest_fen["strong"]
    assert tables[material].probe(fen).dtm == longest


def test_kbnk_longest_mate_is_33():
    t = EndgameTable("KBNK")
    assert t.stats.longest["strong"] == 33


@pytest.mark.parametrize("fen,wdl", [
    # the king on the sixth rank in front of its pawn wins, whoever moves
    ("4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", "win"),
    ("4k3/8/4K3/4P3/8/8/8/8 b - - 0 1", "loss"),
    # the pawn on the seventh, the king behind it: with Black to move, stalemate
    ("4k3/4P3/4K3/8/8/8/8/8 b - - 0 1", "draw"),
    # ... with White to move, 1.Kd6 (guarding e7) Kf7 2.Kd7 and the pawn queens
    ("4k3/4P3/4K3/8/8/8/8/8 w - - 0 1", "win"),
    # a rook's pawn with the defending king in the corner: a draw, whoever moves
    ("k7/8/8/P7/8/8/8/4K3 w - - 0 1", "draw"),
])
def test_king_and_pawn(tables, fen, wdl):
    r = tables["KPK"].probe(fen)
    assert r.wdl == wdl, r


def test_probe_and_best_moves(tables):
    # mate in one: Rh8# (Ra1+ would leave b8)
    r = tables["KRK"].probe("k7/8/1K6/8/8/8/8/7R w - - 0 1")
    assert r.wdl == "win" and r.dtm == 1 and r.plies == 1
    assert [m.uci() for m in r.best] == ["h1h8"]
    b = Board("k7/8/1K6/8/8/8/8/7R w - - 0 1")
    for m in r.best:
        b.push(m)
        assert b.is_checkmate()
        b.pop()
    # Black the strong side: mirrored inside, the best moves given in the position itself
    r = tables["KQK"].probe("8/8/8/8/8/1k6/8/K1q5 w - - 0 1")
    assert r.wdl in ("loss", "draw")
    assert material_of(Board("8/8/8/8/8/1k6/8/K1q5 w - - 0 1")) == "KQK"
    assert material_of(Board()) is None


def test_wrong_material():
    with pytest.raises(ValueError):
        EndgameTable("KRRK")
    with pytest.raises(ValueError):
        EndgameTable("KRK").probe(Board())


def test_tables_free_their_memory():
    import gc
    from conftest import c_heap_bytes
    gc.collect()
    before = c_heap_bytes()
    t = EndgameTable("KRK")
    assert c_heap_bytes() - before > 400000  # about half a megabyte
    del t
    for _ in range(30):
        EndgameTable("KQK")
    gc.collect()
    assert c_heap_bytes() - before < 100000
