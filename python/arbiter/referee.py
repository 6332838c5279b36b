# Arbiter — MIT licence, see LICENSE.
"""The referee: one game under a rule set, with its clock, driven by events — moves, draw
offers, claims, resignation, flags, the arbiter's adjustments — each answered by a decision.
The library decides everything (arbiter/referee.h); this module only translates.

    from arbiter import WHITE, BLACK
    from arbiter.referee import Referee

    ref = Referee("fide", time_control="5+3", t=0)     # a timed game starts at t = 0 ms
    d = ref.move("e4", t=1500)                          # White's move, 1.5 s after the start
    d.accepted, d.san, d.state.remaining_ms[WHITE]      # True, 'e4', 301500
    ref.claim_draw(BLACK, "threefold", t=2000)          # refused: the decision says why
    ref.flag(BLACK, t=400000)                           # Black's flag fell: checked by the clock
    print(ref.pgn())

Time is an argument: each event carries its time t in milliseconds of a monotonic clock, never
going back.  Give it on every event of a timed game, or give the Referee a clock (a function
answering the time in ms, e.g. arbiter.referee.monotonic_ms) and leave it out.  An untimed game
needs no time at all.

Colours are python-chess's: WHITE (True) and BLACK (False); "white" and "black" are accepted
too.  A refused event is not an exception: it is a decision with accepted False, refusal (a
stable code: "illegal_move", "not_your_turn", "game_over", ...) and message (the library's
words), and it may still have changed the game (a flag that had fallen before it under a rule
set whose server sees flags).  decision.raise_if_refused() turns it into Refused.  Wrong
arguments (a rule set, a time control or a FEN that does not read) raise ValueError
subclasses with the library's message.

A referee owns its C referee, freed with it; it is used by one thread at a time.
"""
import time
from typing import Dict, Iterable, List, Optional, Union

from . import (ArbiterError, Board, InvalidFenError, Move, Outcome, Termination, WHITE, BLACK,
               _color_arg, _color_out, _move_of, _outcome_of, _read_fen, _text)
from ._arbiter import ffi, lib

__all__ = ["Referee", "TimeControl", "Decision", "State", "ClaimVerdict", "PremoveOutcome",
           "RecordEntry", "Refused", "InvalidTimeControlError", "RULES", "monotonic_ms"]

RULES = ("fide", "fide-rapid", "fide-blitz", "uscf", "online", "casual")
_KINDS = {}
for _i in range(64):
    _name = _text(lib.arb_ref_kind_name(_i))
    if not _name:
        break
    _KINDS[_name] = _i
_CLAIMS = {"threefold": 1, "fifty": 2}
_CLAIM_NAMES = {v: k for k, v in _CLAIMS.items()}
_RESULTS = {"*": 0, "1-0": 1, "0-1": 2, "1/2-1/2": 3}
_RESULT_NAMES = {v: k for k, v in _RESULTS.items()}
_NEVER = lib.ARB_CLOCK_NEVER
_SYNTAX = {"pgn": 0, "human": 1, "auto": 2}


def monotonic_ms() -> int:
    """Milliseconds of the system's monotonic clock: a clock for Referee(clock=...)."""
    return time.monotonic_ns() // 1000000


class InvalidTimeControlError(ArbiterError):
    """A time control that does not read: message and column (0-based) from the library."""

    def __init__(self, message: str, column: int = -1) -> None:
        super().__init__(message)
        self.column = column


class Refused(ArbiterError):
    """An event the referee refused (Decision.raise_if_refused): decision, refusal, message."""

    def __init__(self, decision: "Decision") -> None:
        super().__init__("%s: %s" % (decision.refusal, decision.message))
        self.decision = decision
        self.refusal = decision.refusal


def _rules_arg(rules) -> int:
    out = ffi.new("arb_ruleset *")
    if not isinstance(rules, str) or lib.arb_rules_parse(rules.encode(), out) != 0:
        raise ValueError("rules must be one of %s: %r" % (", ".join(RULES), rules))
    return out[0]


def _never(ms: int) -> Optional[int]:
    return None if ms == _NEVER else ms


def _by_color(pair) -> Dict[bool, int]:
    return {WHITE: pair[0], BLACK: pair[1]}


class TimeControl:
    """A time control as the library reads it: TimeControl("5+3") (5 minutes, 3 s a move),
    "40/90+30,30+30" (FIDE standard), "G/90;d5" (US delay), "*3" (a sand clock); syntax "human",
    "pgn" (the PGN TimeControl tag, seconds: "300+2", "40/7200:3600") or "auto" (PGN when the
    text has ':').  InvalidTimeControlError says where a text is wrong.  str() is the canonical
    human form, pgn() the tag's."""
    __slots__ = ("_tc",)

    def __init__(self, text: str, syntax: str = "auto") -> None:
        if syntax not in _SYNTAX:
            raise ValueError("syntax must be human, pgn or auto: %r" % (syntax,))
        b = text.encode("utf-8")
        self._tc = ffi.new("arb_time_control *")
        report = ffi.new("arb_tc_report *")
        if lib.arb_tc_parse(b, len(b), _SYNTAX[syntax], self._tc, report) != 0:
            raise InvalidTimeControlError("%s: %r" % (_text(report.message), text),
                                          report.column)

    @classmethod
    def from_pgn(cls, tag: str) -> "TimeControl":
        return cls(tag, "pgn")

    def _write(self, syntax: int) -> str:
        buf = ffi.new("char[]", 256)
        n = lib.arb_tc_write(self._tc, syntax, buf, 256)
        return ffi.unpack(buf, n).decode() if n >= 0 else "?"

    def pgn(self) -> str:
        return self._write(0)

    def __str__(self) -> str:
        return self._write(1)

    def __repr__(self) -> str:
        return "TimeControl(%r)" % str(self)

    def __eq__(self, other) -> bool:
        return isinstance(other, TimeControl) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))


class ClaimVerdict:
    """A draw claim judged: correct (the game is drawn), must_play (the intended move named in a
    wrong claim must be played, FIDE 9.5.2), intended (that move, or None), penalty_s (seconds
    added to the opponent's clock, 9.5.3) and became_offer (the claim stands as a draw offer)."""
    __slots__ = ("correct", "must_play", "intended", "penalty_s", "became_offer")

    def __init__(self, correct, must_play, intended, penalty_s, became_offer):
        self.correct, self.must_play, self.intended = correct, must_play, intended
        self.penalty_s, self.became_offer = penalty_s, became_offer

    def __repr__(self):
        return "ClaimVerdict(correct=%r, must_play=%r, intended=%r, penalty_s=%r)" % (
            self.correct, self.must_play, self.intended, self.penalty_s)


class PremoveOutcome:
    """After a move: the opponent's stored premove was played (then the state is after it) or
    dropped, and why (refusal, message)."""
    __slots__ = ("played", "dropped", "move", "san", "uci", "refusal", "message")

    def __init__(self, played, dropped, move, san, uci, refusal, message):
        self.played, self.dropped, self.move, self.san, self.uci = played, dropped, move, san, uci
        self.refusal, self.message = refusal, message

    def __repr__(self):
        return "PremoveOutcome(played=%r, dropped=%r, uci=%r, refusal=%r)" % (
            self.played, self.dropped, self.uci, self.refusal)


class Facts:
    """Facts of the position under the game's rules: repetitions, threefold,
    can_claim_threefold, fivefold, can_claim_fifty, fifty, seventyfive, checkmate, stalemate,
    insufficient_material, dead_position."""
    __slots__ = ("repetitions", "threefold", "can_claim_threefold", "fivefold",
                 "can_claim_fifty", "fifty", "seventyfive", "checkmate", "stalemate",
                 "insufficient_material", "dead_position")

    def __init__(self, f):
        self.repetitions = f.repetitions
        for name in self.__slots__[1:]:
            setattr(self, name, bool(getattr(f, name)))

    def __repr__(self):
        return "Facts(%s)" % ", ".join("%s=%r" % (n, getattr(self, n)) for n in self.__slots__)


class State:
    """The referee's state after an event — what a front end shows.

    has_game, over, aborted, timed, paused: bools; turn (WHITE/BLACK), ply (plies played);
    outcome (an Outcome, None while the game goes on); claims (the draws the side to move may
    claim now: a set of "threefold", "fifty"); draw_offer, unpressed, flag_side, running,
    abandoned: a colour or None; flag_reason (the flag verdict's reason: "loss",
    "cannot_mate", ... or None); must_play (the move a wrong claim named, or None); facts
    (Facts); now (the referee's time, ms); remaining_ms ({WHITE: ms, BLACK: ms}, None untimed);
    flag_at, deadline, first_move_by (ms or None); premove ({WHITE: uci or None, BLACK: ...});
    away_since, abandon_claim_at ({colour: ms or None}); abandon_result ("1-0", ... or None)."""
    __slots__ = ("has_game", "over", "aborted", "timed", "claims", "turn", "ply", "outcome",
                 "draw_offer", "unpressed", "flag_side", "flag_reason", "must_play", "facts",
                 "now", "remaining_ms", "running", "paused", "flag_at", "deadline", "premove",
                 "first_move_by", "away_since", "abandon_claim_at", "abandoned",
                 "abandon_result")

    def __init__(self, s, chess960: int) -> None:
        self.has_game, self.over, self.aborted = bool(s.has_game), bool(s.over), bool(s.aborted)
        self.timed, self.paused = bool(s.timed), bool(s.paused)
        self.claims = frozenset(n for r, n in _CLAIM_NAMES.items() if s.claims >> r & 1)
        self.turn = s.turn == 0
        self.ply = s.ply
        self.outcome: Optional[Outcome] = _outcome_of(s.outcome)
        self.draw_offer = _color_out(s.draw_offer)
        self.unpressed = _color_out(s.unpressed)
        self.flag_side = _color_out(s.flag_side)
        self.flag_reason = _text(lib.arb_flag_reason_name(s.flag_reason)) or None
        self.must_play = _move_of(s.must_play, chess960) if s.must_play else None
        self.facts = Facts(s.facts)
        self.now = s.now
        self.remaining_ms = _by_color(s.remaining_ms) if s.timed else None
        self.running = _color_out(s.running)
        self.flag_at = _never(s.flag_at)
        self.deadline = _never(s.deadline)
        self.premove = {WHITE: _text(s.premove[0]) or None, BLACK: _text(s.premove[1]) or None}
        self.first_move_by = _never(s.first_move_by)
        self.away_since = {c: (None if v < 0 else v) for c, v in _by_color(s.away_since).items()}
        self.abandon_claim_at = {c: _never(v) for c, v in _by_color(s.abandon_claim_at).items()}
        self.abandoned = _color_out(s.abandoned)
        self.abandon_result = _RESULT_NAMES.get(s.abandon_result) if s.abandon_result else None

    @property
    def result(self) -> str:
        """"1-0", "0-1", "1/2-1/2", or "*" (going on, or aborted)."""
        return self.outcome.result() if self.outcome else "*"

    def __repr__(self):
        return "<State ply %d, %s to move, %s%s>" % (
            self.ply, "white" if self.turn else "black",
            "over: %s by %s" % (self.result, self.outcome.termination) if self.over else "going on",
            ", %d/%d ms" % (self.remaining_ms[WHITE], self.remaining_ms[BLACK])
            if self.remaining_ms else "")


class _Answer:
    """What a referee's decisions share: true when accepted; raise_if_refused()."""
    __slots__ = ()

    def __bool__(self):
        return self.accepted

    def raise_if_refused(self):
        """This decision, or Refused when the event was refused."""
        if not self.accepted:
            raise Refused(self)
        return self


class Decision(_Answer):
    """The referee's answer to one event.

    accepted (bool; also the decision's truth value), refusal ("ok" or why not: "bad_event",
    "bad_move", "illegal_move", "ambiguous_move", "not_your_turn", "game_over", "no_offer",
    "not_allowed", "must_play", "time_backwards", "clock_state", "flag_not_fallen"), message
    (the library's words, "" when accepted), kind (the event's: "move", "claim_draw", ...), seq
    (its index in the record).  A move: move (Move), san, uci, late (the flag had fallen, the
    move stands), comp_ms (lag forgiven), premove (PremoveOutcome when the opponent had one).
    A claim: claimed, verdict (ClaimVerdict).  time_added_to (a colour or None) and
    time_added_ms: time put on a clock (a wrong claim's penalty, an adjustment).  ended: the
    game ended with this event (or with the flag that came before it).  state: State after it.
    """
    __slots__ = ("accepted", "status", "refusal", "message", "kind", "seq", "move", "san", "uci",
                 "late", "claimed", "verdict", "time_added_to", "time_added_ms", "comp_ms",
                 "premove", "ended", "state")

    def __init__(self, d, chess960: int) -> None:
        self.status = d.status
        self.accepted = d.status == 0
        self.refusal = _text(lib.arb_ref_refusal_name(d.refusal))
        self.message = _text(d.message)
        self.kind = _text(lib.arb_ref_kind_name(d.kind))
        self.seq = d.seq
        self.move = _move_of(d.move, chess960) if self.accepted and d.move else None
        self.san = _text(d.san) or None
        self.uci = _text(d.uci) or None
        self.late = bool(d.late)
        self.claimed = bool(d.claimed)
        v = d.verdict
        self.verdict = ClaimVerdict(bool(v.correct), bool(v.must_play),
                                    _text(d.must_play_uci) or None, v.penalty_s,
                                    bool(v.became_offer)) if d.claimed or v.must_play else None
        self.time_added_to = _color_out(d.time_added_to)
        self.time_added_ms = d.time_added_ms
        self.comp_ms = d.comp_ms
        p = d.premove
        self.premove = PremoveOutcome(
            bool(p.played), bool(p.dropped),
            _move_of(p.move, chess960) if p.played and p.move else None, _text(p.san) or None,
            _text(p.uci) or None, _text(lib.arb_ref_refusal_name(p.refusal)) if p.dropped else None,
            _text(p.message)) if p.played or p.dropped else None
        self.ended = bool(d.ended)
        self.state = State(d.state, chess960)

    def __repr__(self):
        if not self.accepted:
            return "<Decision %s refused: %s: %s>" % (self.kind, self.refusal, self.message)
        return "<Decision %s accepted%s%s>" % (self.kind, " " + self.san if self.san else "",
                                               ", game over: %s" % self.state.result
                                               if self.ended else "")


class RecordEntry:
    """One event of the game's record: t (ms), kind, by, side (colours or None), accepted,
    refusal, move (the move played, or a claim's intended move), reason (a claim's), ms
    (adjust_time), ply (plies after it), clock_ms and move_ms (accepted moves of timed games:
    the mover's time after the press and the time the move counted, else None), lag_ms,
    comp_ms, from_premove, annulled (taken back by a reinstatement), ended."""
    __slots__ = ("t", "kind", "by", "side", "set", "accepted", "refusal", "move", "reason", "ms",
                 "ply", "clock_ms", "move_ms", "lag_ms", "comp_ms", "from_premove", "annulled",
                 "ended")

    def __init__(self, e, chess960: int) -> None:
        self.t = e.t
        self.kind = _text(lib.arb_ref_kind_name(e.kind))
        self.by, self.side = _color_out(e.by), _color_out(e.side)
        self.set = bool(e.set)
        self.accepted = e.status == 0
        self.refusal = _text(lib.arb_ref_refusal_name(e.refusal))
        self.move = _move_of(e.move, chess960) if e.move else None
        self.reason = _CLAIM_NAMES.get(e.reason)
        self.ms = e.ms
        self.ply = e.ply
        self.clock_ms = None if e.clock_ms < 0 else e.clock_ms
        self.move_ms = None if e.move_ms < 0 else e.move_ms
        self.lag_ms, self.comp_ms = e.lag_ms, e.comp_ms
        self.from_premove = bool(e.flags & lib.ARB_REF_FROM_PREMOVE)
        self.annulled = bool(e.flags & lib.ARB_REF_ANNULLED)
        self.ended = bool(e.ended)

    def __repr__(self):
        return "<RecordEntry t=%d %s%s%s>" % (self.t, self.kind,
                                              " " + self.move.uci() if self.move else "",
                                              "" if self.accepted else " refused: " + self.refusal)


def _move_text(move) -> bytes:
    if isinstance(move, Move):
        return move.uci().encode()
    if isinstance(move, str):
        return move.encode("utf-8")
    raise TypeError("a move is a Move or SAN/UCI text: %r" % (move,))


def _new_event(ctype: str, kind: int, t: int, fields: dict, keep: list):
    """A referee's event (arb_ref_event, arb_otb_event): by and side "not given", the fields
    set, "text" as a C string kept alive in keep."""
    ev = ffi.new(ctype)
    ev.kind, ev.t, ev.by, ev.side = kind, t, -1, -1
    for name, value in fields.items():
        if name == "text":
            buf = ffi.new("char[]", value)
            keep.append(buf)
            ev.text, ev.text_len = buf, len(value)
        else:
            setattr(ev, name, value)
    return ev


def _setup_start(su, keep: list, fen, board, chess960, moves, time_control):
    """The start of a referee's setup (arb_ref_setup, arb_otb_setup): the position (fen or
    board), the moves already played from it and the time control, into su; the buffers su
    points to are kept in keep.  The position is returned."""
    if board is not None:
        if fen is not None:
            raise ValueError("give fen or board, not both")
        fen = board.fen()
        chess960 = chess960 or board.chess960
    if fen is None and chess960:
        raise ValueError("a Chess960 game needs its start position (fen or board)")
    pos = _read_fen(fen or "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                    chess960)
    su.start = pos
    codes = _setup_moves(pos, moves)
    if codes:
        arr = ffi.new("arb_move[]", codes)
        keep.append(arr)
        su.moves = arr
        su.move_count = len(codes)
    if time_control is not None:
        if not isinstance(time_control, TimeControl):
            time_control = TimeControl(str(time_control))
        keep.append(time_control)  # su points into it until the start is applied
        su.control = time_control._tc
    return pos


def _setup_moves(start_pos, moves) -> List[int]:
    """The library's codes of moves (Move objects, SAN or UCI) played in turn from start."""
    b = Board.__new__(Board)
    b._set(start_pos)
    codes = []
    for m in moves:
        if isinstance(m, str):
            try:
                m = b.parse_san(m)
            except ArbiterError:
                m = b.parse_uci(m)
        codes.append(b._code(m))
        b.push(m)
    return codes


def _by_event(kind: str, doc: str):
    """A Referee method for an event that only needs its player: f(by, *, t=None)."""
    def event(self, by, *, t: Optional[int] = None) -> Decision:
        return self._event(kind, t, by=_color_arg(by, "by"))
    event.__name__ = event.__qualname__ = kind
    event.__doc__ = doc
    return event


class Referee:
    """A referee with a game: Referee(rules="fide", *, fen=None, chess960=False, moves=(),
    time_control=None, t=None, clock=None, **setup).

    rules: "fide", "fide-rapid", "fide-blitz", "uscf", "online" or "casual".  fen (or board,
    whose position is taken): the start; moves: moves already played from it (a book's, a game
    taken over: they count for repetitions, not on the clock).  time_control: a TimeControl or
    its text ("5+3"), None for an untimed game.  Setup options: clock_model ("after_move",
    "before_move", "online"; None: the rule set's), no_draw_before (no agreed draw before this
    move, FIDE 9.1.1), tags (PGN tags, a dict), lag_compensation, first_move_ms, sees_flags,
    search_budget, abandon_ms — as arbiter/referee.h's arb_ref_setup.  t: the start's time
    (ms); clock: a function answering the time in ms, used for events given no t.

    Raises ValueError (InvalidFenError, InvalidTimeControlError) for setups that do not read,
    Refused when the referee refuses the start."""

    def __init__(self, rules: str = "fide", *, t: Optional[int] = None, clock=None,
                 **setup) -> None:
        self._rules = rules
        ref = lib.arb_referee_new(_rules_arg(rules))
        if ref == ffi.NULL:
            raise MemoryError("arbiter: out of memory")
        self._ref = ffi.gc(ref, lib.arb_referee_free)
        self._clock = clock
        self._c960 = 0
        self.start(t=t, **setup).raise_if_refused()

    # -- time --
    def _time(self, t) -> int:
        if t is not None:
            return int(t)
        if self._clock is not None:
            return int(self._clock())
        return lib.ARB_REF_NO_TIME

    def _event(self, kind: str, t, **fields) -> Decision:
        keep = []
        ev = _new_event("arb_ref_event *", _KINDS[kind], self._time(t), fields, keep)
        d = ffi.new("arb_ref_decision *")
        lib.arb_referee_event(self._ref, ev, d)
        return Decision(d, self._c960)

    # -- the start --
    def start(self, *, fen: Optional[str] = None, board: Optional[Board] = None,
              chess960: bool = False, moves: Iterable = (), time_control=None,
              rules: Optional[str] = None, clock_model: Optional[str] = None,
              no_draw_before: int = 0, tags: Optional[Dict[str, str]] = None,
              lag_compensation: bool = False, first_move_ms: int = 0, sees_flags: bool = False,
              search_budget: int = 0, abandon_ms: int = 0, t: Optional[int] = None) -> Decision:
        """A new game (the present one is replaced); the options as the constructor's."""
        su = ffi.new("arb_ref_setup *")
        su.rules = _rules_arg(rules or self._rules)
        su.clock_model = -1
        keep = []
        pos = _setup_start(su, keep, fen, board, chess960, moves, time_control)
        if clock_model is not None:
            out = ffi.new("arb_clock_model *")
            if lib.arb_clock_model_parse(clock_model.encode(), out) != 0:
                raise ValueError("clock_model must be after_move, before_move or online: %r"
                                 % (clock_model,))
            su.clock_model = out[0]
        su.no_draw_before = no_draw_before
        if tags:
            arr = ffi.new("arb_ref_tag[]", len(tags))
            for i, (name, value) in enumerate(tags.items()):
                n = ffi.new("char[]", str(name).encode("utf-8"))
                v = ffi.new("char[]", str(value).encode("utf-8"))
                keep += [n, v]
                arr[i].name, arr[i].value = n, v
            keep.append(arr)
            su.tags = arr
            su.tag_count = len(tags)
        su.lag_compensation = bool(lag_compensation)
        su.first_move_ms = first_move_ms
        su.sees_flags = bool(sees_flags)
        su.search_budget = search_budget
        su.abandon_ms = abandon_ms
        d = self._event("start", t, setup=su)
        if d.accepted:
            self._c960 = int(pos.chess960)
        return d

    # -- the players' events --
    def move(self, move: Union[Move, str], *, t: Optional[int] = None, by=None,
             lag_ms: int = 0, auto_queen: bool = False, made_only: bool = False) -> Decision:
        """A move by the side to move (a Move, or SAN or UCI read leniently); it presses the
        mover's clock (made_only: over the board, made but not yet pressed, FIDE 6.2.1)."""
        flags = (lib.ARB_REF_AUTO_QUEEN if auto_queen else 0) | (
            lib.ARB_REF_MADE_ONLY if made_only else 0)
        fields = dict(text=_move_text(move), lag_ms=lag_ms, flags=flags)
        if by is not None:
            fields["by"] = _color_arg(by, "by")
        return self._event("move", t, **fields)

    offer_draw = _by_event("offer_draw", "by offers a draw (FIDE 9.1.2): open until accepted, declined, or the opponent moves.")
    accept_draw = _by_event("accept_draw", "by accepts the opponent's open offer: a draw by agreement.")
    decline_draw = _by_event("decline_draw", "by declines the opponent's open offer.")
    resign = _by_event("resign", "by resigns (a draw instead when the opponent cannot mate, under FIDE 5.1.2).")
    cancel_premove = _by_event("cancel_premove", "by's stored premove is forgotten.")
    abort = _by_event("abort", "by ends the game without a result, before each side has moved.")
    away = _by_event("away", "by has left (online: the abandonment claim's clock starts).")
    back = _by_event("back", "by, away, has come back.")
    claim_abandoned = _by_event("claim_abandoned", "by claims the game because the opponent left (online rules).")
    press = _by_event("press", "by presses the clock, completing a move made with made_only (FIDE 6.2.1).")

    def claim_draw(self, by, reason: str = "threefold", move: Union[Move, str, None] = None, *,
                   t: Optional[int] = None) -> Decision:
        """A claim of a draw by threefold repetition or the 50-move rule (reason "threefold" or
        "fifty"), on the present position or with an intended move (FIDE 9.2.1, 9.3.1)."""
        if reason not in _CLAIMS:
            raise ValueError("reason must be threefold or fifty: %r" % (reason,))
        fields = dict(by=_color_arg(by, "by"), reason=_CLAIMS[reason])
        if move is not None:
            fields["text"] = _move_text(move)
        return self._event("claim_draw", t, **fields)

    def flag(self, side, *, t: Optional[int] = None, seen: bool = False) -> Decision:
        """side's flag is said to have fallen: checked against the clock (seen: in an untimed
        game, the arbiter saw the flag down on a clock the referee does not run)."""
        return self._event("flag", t, side=_color_arg(side, "side"),
                           flags=lib.ARB_REF_FLAG_SEEN if seen else 0)

    def state(self, *, t: Optional[int] = None) -> Decision:
        """Nothing happens: the state at t (with any flag due by then, where flags count the
        moment they fall)."""
        return self._event("state", t)

    def premove(self, by, move: Union[Move, str], *, t: Optional[int] = None,
                auto_queen: bool = False) -> Decision:
        return self._event("premove", t, by=_color_arg(by, "by"), text=_move_text(move),
                           flags=lib.ARB_REF_AUTO_QUEEN if auto_queen else 0)

    # -- the arbiter's events --
    def pause(self, *, t: Optional[int] = None) -> Decision:
        return self._event("pause", t)

    def resume(self, *, t: Optional[int] = None) -> Decision:
        return self._event("resume", t)

    def adjust_time(self, side, ms: int, *, set: bool = False,
                    t: Optional[int] = None) -> Decision:
        """Adds ms to side's clock (or sets it, set=True)."""
        return self._event("adjust_time", t, side=_color_arg(side, "side"), ms=ms, set=int(set))

    def reinstate(self, step: int, *, t: Optional[int] = None) -> Decision:
        """Reinstates the position before step `step` (1-based; each accepted move is a step,
        FIDE 7.5.1, 4.8)."""
        return self._event("reinstate", t, ply=step)

    def continue_from(self, fen: str, *, by=None, made_only: bool = False,
                      t: Optional[int] = None) -> Decision:
        """Over the board, play goes on from the position fen, which no legal game need reach
        (a completed illegal move, by `by`; without by, the arbiter's board)."""
        pos = ffi.new("arb_position *")
        report = ffi.new("arb_fen_report *")
        b = fen.encode("utf-8")
        if lib.arb_fen_read_n(pos, b, len(b), 0xFFF, report) != 0:
            raise InvalidFenError("%s: %r" % (_text(report.message), fen))
        fields = dict(position=pos, flags=lib.ARB_REF_MADE_ONLY if made_only else 0)
        if by is not None:
            fields["by"] = _color_arg(by, "by")
        return self._event("continue_from", t, **fields)

    def forfeit(self, side, termination: Union[Termination, str], *,
                t: Optional[int] = None) -> Decision:
        """side loses for termination (Termination.ILLEGAL_MOVE, SECOND_ILLEGAL_MOVE,
        ELECTRONIC_DEVICE, CRASH, STALL)."""
        return self._event("forfeit", t, side=_color_arg(side, "side"),
                           termination=_termination_arg(termination))

    def adjudicate(self, result: str, termination: Union[Termination, str], *, by=None,
                   t: Optional[int] = None) -> Decision:
        """The game ends with result ("1-0", "0-1", "1/2-1/2") by termination (ADJUDICATION,
        DEAD_POSITION, ARBITER_DECISION, AGREEMENT, RESIGNATION, ILLEGAL_POSITION, ...)."""
        if result not in _RESULTS:
            raise ValueError("result must be 1-0, 0-1, 1/2-1/2 or *: %r" % (result,))
        fields = dict(result=_RESULTS[result], termination=_termination_arg(termination))
        if by is not None:
            fields["by"] = _color_arg(by, "by")
        return self._event("adjudicate", t, **fields)

    def tick(self, now: int) -> Decision:
        """Applies what is due at now (a flag under a rule set whose server sees flags, the
        first-move limit), as a timer at next_deadline would."""
        d = ffi.new("arb_ref_decision *")
        lib.arb_referee_tick(self._ref, now, d)
        return Decision(d, self._c960)

    # -- what the referee knows --
    @property
    def next_deadline(self) -> Optional[int]:
        """The ms at which the game changes by itself if no event comes first, or None."""
        return _never(lib.arb_referee_next_deadline(self._ref))

    @property
    def status(self) -> State:
        """The state now."""
        s = ffi.new("arb_ref_state *")
        lib.arb_referee_state_of(self._ref, s)
        return State(s, self._c960)

    @property
    def outcome(self) -> Optional[Outcome]:
        return self.status.outcome

    def board(self) -> Board:
        """The game as a Board: its start and the moves played (a copy)."""
        g = lib.arb_referee_game(self._ref)
        if g == ffi.NULL:
            raise ArbiterError("the referee has no game")
        return Board._from_game(g)

    @property
    def record(self) -> List[RecordEntry]:
        """Every event of the present game, with its time and decision."""
        e = ffi.new("arb_ref_entry *")
        out = []
        for i in range(lib.arb_referee_record_count(self._ref)):
            lib.arb_referee_record_at(self._ref, i, e)
            out.append(RecordEntry(e, self._c960))
        return out

    @property
    def abandon_ms(self) -> int:
        return lib.arb_referee_abandon_ms(self._ref)

    def end_words(self) -> str:
        """Why the game ended, for a person ("Checkmate: Black wins", ...); "" while it goes on."""
        n = lib.arb_referee_end_words(self._ref, ffi.NULL, 0)
        buf = ffi.new("char[]", n + 1)
        lib.arb_referee_end_words(self._ref, buf, n + 1)
        return ffi.string(buf).decode("utf-8")

    def pgn(self, *, emt: bool = False) -> str:
        """The game in PGN export format: the setup's tags, Result, TimeControl, Termination,
        [%clk] after each move of a timed game (and [%emt] with emt=True)."""
        return _write_pgn(lambda w: lib.arb_referee_write_pgn(
            self._ref, lib.ARB_REF_PGN_EMT if emt else 0, w))

    def __repr__(self):
        return "<Referee %s: %r>" % (self._rules, self.status)


def _termination_arg(termination) -> int:
    if isinstance(termination, Termination):
        return termination.value
    return Termination.from_name(str(termination)).value


def _write_pgn(write) -> str:
    w = lib.arb_pgn_writer_new(0)
    if w == ffi.NULL:
        raise MemoryError("arbiter: out of memory")
    w = ffi.gc(w, lib.arb_pgn_writer_free)
    st = write(w)
    if st != 0:
        raise ArbiterError(_text(lib.arb_strerror(st)))
    n = ffi.new("size_t *")
    return ffi.unpack(lib.arb_pgn_writer_data(w, n), n[0]).decode("utf-8")
