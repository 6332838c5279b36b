# Arbiter — MIT licence, see LICENSE.
"""The trainer's shared pieces (arbiter/train.h): puzzles in lichess's CSV exactly, proven by
the exact solver (a second solution, or none, is found — not guessed); a learner's move judged
and, when wrong, why; Glicko-2 ratings with lichess's constants; the Leitner review schedule.

    from arbiter.train import Puzzle
    p = Puzzle.from_csv("00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,"
                        "e8d7 a2e6 d7d8 f7f8,1760,80,83,72,mate mateIn2 middlegame short,"
                        "https://lichess.org/yyznGmXs/black#34,")
    c = p.check()            # re-proves it: c.verdict "ok", c.goal "mate", c.length 2
    p.board()                # the position the learner sees (after the opponent's move)

Puzzles are plain values; checking one releases the GIL (the solver's search).
"""
from typing import Iterable, Iterator, Optional, Sequence, Tuple, Union

from . import ArbiterError, Board, Move, _text
from ._arbiter import ffi, lib
from .solve import Solver, _GOALS, _position

__all__ = ["Puzzle", "PuzzleCheck", "read_puzzles", "CSV_HEADER", "move_right", "why_wrong",
           "Glicko", "rate_puzzle", "theme_kind", "Review"]

CSV_HEADER = _text(lib.arb_puzzle_csv_header())
_GOAL_NAMES = {v: k for k, v in _GOALS.items()}


class PuzzleCheck:
    """A puzzle re-proven: verdict "ok" (every solver move is the only one that forces it),
    "second_solution" (another move, other, forces it as fast at ply), "no_solution" (the
    solver move at ply does not force it), "unchecked" (the line ends in neither mate nor a
    draw: nothing to prove), "unknown" (the budget ran out) or "bad" (message says what does
    not read); goal ("mate" or "draw"), length (the solver's moves), last_alternatives (other
    moves that also end it on the last move)."""
    __slots__ = ("verdict", "goal", "length", "ply", "other", "last_alternatives", "message")

    def __init__(self, c) -> None:
        self.verdict = _text(lib.arb_puzzle_verdict_name(c.verdict))
        self.goal = _GOAL_NAMES.get(c.goal, "mate")
        self.length, self.ply = c.length, c.ply
        self.other = _text(c.other) or None
        self.last_alternatives = c.last_alternatives
        self.message = _text(c.message)

    @property
    def ok(self) -> bool:
        return self.verdict == "ok"

    def __repr__(self):
        return "<PuzzleCheck %s (%s in %d)%s>" % (self.verdict, self.goal, self.length,
                                                   ": " + self.message if self.message else "")


class Puzzle:
    """A puzzle record in lichess's CSV: id, fen (the position before the opponent's move),
    moves (UCI: the opponent's move, then the solver's and the opponent's in turn), rating,
    rating_deviation, popularity, plays, themes (a list), game_url, openings (a list)."""
    __slots__ = ("id", "fen", "moves", "rating", "rating_deviation", "popularity", "plays",
                 "themes", "game_url", "openings")

    def __init__(self, id: str, fen: str, moves: Sequence[str], rating: int = 1500,
                 rating_deviation: int = 500, popularity: int = 0, plays: int = 0,
                 themes: Sequence[str] = (), game_url: str = "",
                 openings: Sequence[str] = ()) -> None:
        self.id, self.fen, self.moves = id, fen, list(moves)
        self.rating, self.rating_deviation = rating, rating_deviation
        self.popularity, self.plays = popularity, plays
        self.themes, self.game_url, self.openings = list(themes), game_url, list(openings)

    @classmethod
    def from_csv(cls, line: str) -> "Puzzle":
        """One CSV record (lichess's columns); ValueError naming the field that is wrong."""
        b = line.rstrip("\r\n").encode("utf-8")
        p = ffi.new("arb_puzzle *")
        err = ffi.new("char[]", 160)
        if lib.arb_puzzle_csv_read(b, len(b), p, err, 160) != 0:
            raise ValueError("puzzle CSV: %s" % _text(err))
        return cls._of(p)

    @classmethod
    def _of(cls, p) -> "Puzzle":
        return cls(_text(p.id), _text(p.fen), [_text(p.moves[i]) for i in range(p.nmoves)],
                   p.rating, p.rating_deviation, p.popularity, p.plays,
                   _text(p.themes).split(), _text(p.game_url), _text(p.openings).split())

    def _c(self):
        """The record as the library's arb_puzzle (checked sizes)."""
        p = ffi.new("arb_puzzle *")
        for name in ("id", "fen", "game_url"):
            value = getattr(self, name).encode("utf-8")
            if len(value) >= len(getattr(p, name)):
                raise ValueError("puzzle %s too long: %r" % (name, getattr(self, name)))
            setattr(p, name, value)
        for name in ("themes", "openings"):
            value = " ".join(getattr(self, name)).encode("utf-8")
            if len(value) >= len(getattr(p, name)):
                raise ValueError("puzzle %s too long" % name)
            setattr(p, name, value)
        if len(self.moves) > lib.ARB_PUZZLE_MAX_MOVES:
            raise ValueError("a puzzle has at most %d plies" % lib.ARB_PUZZLE_MAX_MOVES)
        for i, m in enumerate(self.moves):
            u = m.uci() if isinstance(m, Move) else str(m)
            if len(u) > 5:
                raise ValueError("not a UCI move: %r" % (u,))
            p.moves[i] = u.encode()
        p.nmoves = len(self.moves)
        p.rating, p.rating_deviation = self.rating, self.rating_deviation
        p.popularity, p.plays = self.popularity, self.plays
        return p

    def to_csv(self) -> str:
        p = self._c()
        n = lib.arb_puzzle_csv_write(p, ffi.NULL, 0)
        buf = ffi.new("char[]", n + 1)
        lib.arb_puzzle_csv_write(p, buf, n + 1)
        return ffi.string(buf).decode("utf-8")

    def has_theme(self, theme: str) -> bool:
        return theme in self.themes

    @property
    def kind_theme(self) -> str:
        """What the puzzle is: stalemateTrap, stalemateRescue, underPromotion, mateIn1..4,
        enPassant or castling (the first it has, in that order), else "tactics"."""
        return _text(lib.arb_puzzle_kind_theme(self._c()))

    def check(self, solver: Optional[Solver] = None, budget: int = 0) -> PuzzleCheck:
        """Re-proves the puzzle with the solver (at most budget nodes per solver move; 0: the
        solver's default)."""
        solver = solver or Solver(4 << 20)
        out = ffi.new("arb_puzzle_check *")
        st = lib.arb_puzzle_check_record(solver._s, self._c(), budget, out)
        if st != 0:
            raise ArbiterError(_text(lib.arb_strerror(st)))
        return PuzzleCheck(out)

    def board(self) -> Board:
        """The position the learner sees: the FEN with the opponent's first move played."""
        b = Board(self.fen)
        if self.moves:
            b.push_uci(str(self.moves[0]))
        return b

    def __repr__(self):
        return "<Puzzle %s %d %s>" % (self.id, self.rating, " ".join(self.themes))

    def __eq__(self, other):
        return isinstance(other, Puzzle) and all(
            getattr(self, n) == getattr(other, n) for n in self.__slots__)


def read_puzzles(source: Union[str, Iterable[str]]) -> Iterator[Puzzle]:
    """The puzzles of a CSV file (a path, or lines), the header line skipped."""
    if isinstance(source, str):
        with open(source, encoding="utf-8") as f:
            yield from read_puzzles(f)
        return
    for n, line in enumerate(source, 1):
        line = line.rstrip("\r\n")
        if not line or (n == 1 and line.startswith("PuzzleId,")):
            continue
        try:
            yield Puzzle.from_csv(line)
        except ValueError as e:
            raise ValueError("line %d: %s" % (n, e)) from None


def move_right(board: Board, move: Move, expected: Move, final: bool,
               goal: str = "mate") -> bool:
    """Is the learner's legal move right where the line expects `expected`?  On the line's last
    solver move (final) any move that ends the game as goal wants is right too (a mate in one
    accepts every mate, as lichess does)."""
    pos = _position(board)
    return bool(lib.arb_puzzle_move_right(pos, board._code(move), board._code(expected),
                                          int(final), _GOALS[goal]))


def why_wrong(board: Board, move: Move, goal: str = "mate", left: int = 1,
              solver: Optional[Solver] = None, budget: int = 0) -> str:
    """Why the legal move, not right, fails to force goal within `left` solver moves: the
    stalemate or dead position it makes, or the reply that refutes it (found by the solver)."""
    solver = solver or Solver(1 << 20)
    buf = ffi.new("char[]", 512)
    lib.arb_puzzle_why_wrong(solver._s, _position(board), board._code(move), _GOALS[goal], left,
                             budget, buf, 512)
    return ffi.string(buf).decode("utf-8")


# ---- ratings ----

class Glicko:
    """A Glicko-2 rating: rating, rd (deviation), volatility; a new player is 1500 / 500 / 0.09
    (lichess's)."""
    __slots__ = ("rating", "rd", "volatility")

    def __init__(self, rating: float = 1500.0, rd: float = 500.0,
                 volatility: float = 0.09) -> None:
        self.rating, self.rd, self.volatility = rating, rd, volatility

    def _c(self):
        g = ffi.new("arb_glicko *")
        g.rating, g.rd, g.volatility = self.rating, self.rd, self.volatility
        return g

    @classmethod
    def _of(cls, g) -> "Glicko":
        return cls(g.rating, g.rd, g.volatility)

    def updated(self, opponents: Sequence["Glicko"], scores: Sequence[float],
                tau: float = 0.75) -> "Glicko":
        """The rating after one period against opponents with scores (1 win, 0.5, 0 loss), by
        Glicko-2 (Glickman's steps 1-8); no games: only the RD grows.  Not clamped."""
        if len(opponents) != len(scores):
            raise ValueError("one score per opponent")
        me = self._c()
        opp = ffi.new("arb_glicko[]", max(len(opponents), 1))
        for i, o in enumerate(opponents):
            opp[i].rating, opp[i].rd, opp[i].volatility = o.rating, o.rd, o.volatility
        sc = ffi.new("double[]", list(scores) or [0.0])
        if lib.arb_glicko_update(me, opp, sc, len(scores), tau) != 0:
            raise ValueError("scores must be within 0 .. 1: %r" % (list(scores),))
        return Glicko._of(me)

    def clamped(self, before: "Glicko") -> "Glicko":
        """lichess's bounds: RD 45..500, volatility at most 0.1, rating 400..4000 and at most 700
        from `before`."""
        g = self._c()
        lib.arb_glicko_clamp(g, before._c())
        return Glicko._of(g)

    def expected(self, other: "Glicko") -> float:
        """The expected score against other."""
        return lib.arb_glicko_expected(self._c(), other._c())

    @property
    def provisional(self) -> bool:
        return self.rd >= 110.0

    def __repr__(self):
        return "Glicko(%.2f, %.2f, %.6f)" % (self.rating, self.rd, self.volatility)


def theme_kind(theme: Optional[str]) -> int:
    """lichess's theme kinds for rate_puzzle: 1 an obvious theme (mateIn1, ...), 2 another
    hinting one, 3 a non-hinting one (phases, origins), 0 none or "mix"."""
    return lib.arb_puzzle_theme_kind(theme.encode() if theme else ffi.NULL)


def rate_puzzle(learner: Glicko, puzzle: Glicko, solved: bool,
                theme: Optional[str] = None) -> Tuple[Glicko, Glicko]:
    """A puzzle attempt rated as lichess rates it: the learner's and the puzzle's new ratings."""
    a, b = learner._c(), puzzle._c()
    lib.arb_puzzle_rate(a, b, int(solved), theme_kind(theme))
    return Glicko._of(a), Glicko._of(b)


class Review:
    """An item's place in the Leitner review schedule: box (0 never missed, 1..5 in review, 6
    mastered), streak, due_ms, seen_ms.  answer(right, now_ms) moves it; due(now_ms)."""
    __slots__ = ("box", "streak", "due_ms", "seen_ms")

    def __init__(self, box: int = 0, streak: int = 0, due_ms: int = 0, seen_ms: int = 0):
        self.box, self.streak, self.due_ms, self.seen_ms = box, streak, due_ms, seen_ms

    def _c(self):
        r = ffi.new("arb_review *")
        r.box, r.streak, r.due_ms, r.seen_ms = self.box, self.streak, self.due_ms, self.seen_ms
        return r

    def answer(self, right: bool, now_ms: int) -> None:
        r = self._c()
        lib.arb_review_answer(r, int(right), now_ms)
        self.box, self.streak, self.due_ms, self.seen_ms = r.box, r.streak, r.due_ms, r.seen_ms

    def due(self, now_ms: int) -> bool:
        return bool(lib.arb_review_due(self._c(), now_ms))

    def __repr__(self):
        return "Review(box=%d, streak=%d, due_ms=%d)" % (self.box, self.streak, self.due_ms)
