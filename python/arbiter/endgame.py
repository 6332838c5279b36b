# Arbiter — MIT licence, see LICENSE.
"""Exact endgame tables built in memory (arbiter/endgame.h): win, draw or loss for the side to
move and the distance to mate, for king and queen, king and rook, king and pawn, and king,
bishop and knight against a lone king ("KQK", "KRK", "KPK", "KBNK").

    from arbiter.endgame import EndgameTable
    krk = EndgameTable("KRK")                 # built by retrograde analysis (milliseconds)
    r = krk.probe(Board("8/8/8/8/8/2k5/8/R3K3 w - - 0 1"))
    r.wdl, r.dtm, r.best                      # 'win', mate in r.dtm, every move that keeps it

Distance to mate counts as published tables do: "mate in N" is N moves of the winner; the 50-move
rule and repetitions are not applied.  Building releases the GIL (KBNK takes seconds); a built
table is never written again, so any number of threads may probe one table at once.
"""
from typing import List, Optional, Union

from . import Board, Move, _move_of, _text
from ._arbiter import ffi, lib
from .solve import _position

__all__ = ["EndgameTable", "EndgameResult", "EndgameStats", "MATERIALS", "material_of"]

MATERIALS = ("KQK", "KRK", "KPK", "KBNK")


def material_of(position: Union[Board, str]) -> Optional[str]:
    """The table that covers the position ("KQK", ...; the strong side of either colour), or
    None."""
    m = lib.arb_endgame_material_of(_position(position))
    return _text(m) if m != ffi.NULL else None


class EndgameResult:
    """wdl ("win", "draw", "loss" for the side to move), dtm (WIN: mate in dtm; LOSS: mated in
    dtm, 0 when checkmated now; None for a draw), plies (the same in plies, None for a draw),
    best (WIN: every move keeping the shortest mate; LOSS: every move delaying it longest; DRAW:
    every move keeping the draw; none when the game is over)."""
    __slots__ = ("wdl", "dtm", "plies", "best")

    def __init__(self, r, chess960: int) -> None:
        self.wdl = _text(lib.arb_endgame_wdl_name(r.wdl))
        self.dtm = None if r.dtm < 0 else r.dtm
        self.plies = None if r.plies < 0 else r.plies
        self.best: List[Move] = [_move_of(r.best[i], chess960) for i in range(r.nbest)]

    def __repr__(self):
        return "<EndgameResult %s%s, best %s>" % (
            self.wdl, "" if self.dtm is None else " in %d" % self.dtm,
            " ".join(m.uci() for m in self.best))


class EndgameStats:
    """A table's figures over every legal position (strong side White, no symmetry folding):
    per side to move ("strong", "weak"): positions, wins, draws, losses; longest (the longest
    DTM: a win with the strong side to move, a loss with the lone king to move) and longest_fen
    (one position with it)."""
    __slots__ = ("positions", "wins", "draws", "losses", "longest", "longest_fen")

    def __init__(self, s) -> None:
        def pair(a):
            return {"strong": a[0], "weak": a[1]}
        self.positions, self.wins = pair(s.positions), pair(s.wins)
        self.draws, self.losses = pair(s.draws), pair(s.losses)
        self.longest = pair(s.longest)
        self.longest_fen = {"strong": _text(s.longest_fen[0]), "weak": _text(s.longest_fen[1])}

    def __repr__(self):
        return "<EndgameStats %s positions, longest %s>" % (self.positions, self.longest)


class EndgameTable:
    """The table of material "KQK", "KRK", "KPK" or "KBNK", built when made (ValueError for
    another material); freed with the object."""

    def __init__(self, material: str) -> None:
        st = ffi.new("arb_status *")
        eg = lib.arb_endgame_new(material.encode(), st)
        if eg == ffi.NULL:
            if st[0] == -9:
                raise MemoryError("arbiter: out of memory for the %s table" % material)
            raise ValueError("no endgame table for %r (known: %s)" % (material,
                                                                     ", ".join(MATERIALS)))
        self._eg = ffi.gc(eg, lib.arb_endgame_free)
        self.material = _text(lib.arb_endgame_material(self._eg))

    def probe(self, position: Union[Board, str]) -> EndgameResult:
        """The position (a Board or a FEN; its material must be the table's, the strong side of
        either colour, no castling rights), else ValueError."""
        pos = _position(position)
        out = ffi.new("arb_endgame_result *")
        if lib.arb_endgame_probe(self._eg, pos, out) != 0:
            raise ValueError("not a %s position without castling rights" % self.material)
        return EndgameResult(out, int(pos.chess960))

    @property
    def stats(self) -> EndgameStats:
        s = ffi.new("arb_endgame_stats *")
        lib.arb_endgame_stats_of(self._eg, s)
        return EndgameStats(s)

    def __repr__(self):
        return "<EndgameTable %s>" % self.material
