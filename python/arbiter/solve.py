# Arbiter — MIT licence, see LICENSE.
"""The exact solver: can the side to move force mate (or a draw: stalemate or a dead position)
within n of its moves?  With the shortest length, EVERY first move that does it within n (so a
puzzle's uniqueness is proven, not guessed), a main line and the nodes searched.  A node budget
bounds the work; when it runs out the verdict is "unknown", never a wrong "mate" or "none".
The library decides (arbiter/solve.h).

    from arbiter.solve import solve
    r = solve("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", n=1)
    r.verdict, r.length, r.keys          # 'mate', 1, [Move.from_uci('a1a8')]

The search sees the position alone (no game history: repetitions and the 50-move rule do not
apply).  The GIL is released during the search: solvers on different threads run in parallel.
A Solver owns its transposition table (freed with it) and serves one thread at a time.
"""
from typing import List, Union

from . import ArbiterError, Board, InvalidFenError, Move, _move_of, _read_fen, _text
from ._arbiter import ffi, lib

__all__ = ["Solver", "SolveResult", "solve", "MAX_N"]

MAX_N = lib.ARB_SOLVE_MAX_N
_GOALS = {"mate": 0, "draw": 1}


def _position(position, chess960: bool = False):
    """A Board or a FEN as the library's position (a copy)."""
    if isinstance(position, Board):
        return ffi.new("arb_position *", lib.arb_game_position(position._game)[0])
    if isinstance(position, str):
        return _read_fen(position, chess960)
    raise TypeError("a position is a Board or a FEN: %r" % (position,))


class SolveResult:
    """verdict: "mate" or "draw" (the goal can be forced within n moves), "none" (proven it
    cannot), "unknown" (the budget ran out first); length: the shortest, in the solver's moves
    (mate in 2: 2); keys: every first move that reaches the goal within n, key_lengths: each
    one's own shortest; keys_complete: every other first move is proven not to (False when the
    budget ran out on some); line: a main line (Moves); nodes: positions searched."""
    __slots__ = ("goal", "n", "verdict", "length", "keys", "key_lengths", "keys_complete",
                 "line", "nodes")

    def __init__(self, goal: str, n: int, r, chess960: int) -> None:
        self.goal, self.n = goal, n
        self.verdict = _text(lib.arb_solve_verdict_name(r.verdict, _GOALS[goal]))
        self.length = r.length
        self.keys: List[Move] = [_move_of(r.keys[i], chess960) for i in range(r.nkeys)]
        self.key_lengths: List[int] = [r.key_length[i] for i in range(r.nkeys)]
        self.keys_complete = bool(r.keys_complete)
        self.line: List[Move] = [_move_of(r.line[i], chess960) for i in range(r.line_len)]
        self.nodes = r.nodes

    @property
    def found(self) -> bool:
        return self.verdict == self.goal

    @property
    def unique(self) -> bool:
        """Exactly one key, and proven to be the only one."""
        return self.found and self.keys_complete and len(self.keys) == 1

    def __repr__(self):
        return "<SolveResult %s in %d: %s, keys %s%s, %d nodes>" % (
            self.goal, self.n, self.verdict, " ".join(m.uci() for m in self.keys) or "none",
            "" if self.keys_complete else " (maybe more)", self.nodes)


class Solver:
    """A solver with a transposition table of about tt_bytes (0: 16 MB)."""

    def __init__(self, tt_bytes: int = 0) -> None:
        s = lib.arb_solver_new(tt_bytes)
        if s == ffi.NULL:
            raise MemoryError("arbiter: out of memory for the solver's table")
        self._s = ffi.gc(s, lib.arb_solver_free)

    def solve(self, position: Union[Board, str], n: int, *, goal: str = "mate",
              budget: int = 0, chess960: bool = False) -> SolveResult:
        """Searches position (a Board or a FEN) for goal ("mate" or "draw") within n moves
        (1 .. MAX_N) of the side to move, at most budget nodes (0: 50 million).  ValueError for
        a bad n or goal, InvalidFenError for a position that cannot arise."""
        if goal not in _GOALS:
            raise ValueError("goal must be mate or draw: %r" % (goal,))
        if not isinstance(n, int) or not 1 <= n <= MAX_N:
            raise ValueError("n must be 1 to %d: %r" % (MAX_N, n))
        pos = _position(position, chess960)
        out = ffi.new("arb_solve_result *")
        st = lib.arb_solve(self._s, pos, _GOALS[goal], n, budget, out)
        if st == -4:  # ARB_ERR_FEN_INVALID
            raise InvalidFenError("the side not to move is in check: the position cannot arise")
        if st != 0:
            raise ArbiterError(_text(lib.arb_strerror(st)))
        return SolveResult(goal, n, out, int(pos.chess960))


def solve(position: Union[Board, str], n: int, *, goal: str = "mate", budget: int = 0,
          chess960: bool = False) -> SolveResult:
    """Solver().solve(...) with a small table (4 MB) made for this one call."""
    return Solver(4 << 20).solve(position, n, goal=goal, budget=budget, chess960=chess960)
