# Arbiter — MIT licence, see LICENSE.
"""The over-the-board referee: the act of moving (FIDE Article 4: touch-move, the castling
touch order, promotion, the released move), completed illegal moves and their penalties (7.5,
A.4-A.5, B.3, US Chess 11A-11D), the clock presses that complete moves, flags, claims, offers
and the as-played record — driven by the events an arbiter's log, an electronic clock and an
e-board produce.  The library decides everything (arbiter/otb.h, docs/otb.md).

    from arbiter import WHITE, BLACK, parse_square
    from arbiter.otb import OtbReferee

    otb = OtbReferee("fide", time_control=TimeControl.from_pgn("5400+30"))
    d = otb.touch(WHITE, "g1", t=1000)        # touch-move: the g1 knight must move (4.3.1)
    [m.uci() for m in d.obligation.allowed]   # ['g1f3', 'g1h3']
    otb.move(WHITE, "g1f3", t=1500)           # made (released, 4.7), not yet completed
    otb.press(WHITE, t=1800)                  # completed: Black has the move
    d = otb.move(BLACK, "e7e4", t=5000)       # an illegal move, made
    d = otb.press(BLACK, t=5200)              # completed: 7.5.1, two minutes to White (7.5.5)
    d.violation, d.article, d.time_added_s    # 'illegal_move_completed', '7.5.1', {...: 120}

Every event has its time t in milliseconds, never going back.  Colours are WHITE/BLACK (or
"white"/"black"); squares are names ("e4") or numbers (a1 = 0 ... h8 = 63).  event(type, t,
**fields) takes any event by its name in docs/otb.md ("touch", "lift", "place", "board",
"move", "press", "claim", "arbiter_rules", ...); the named methods are the same events.  A
refused event is a decision with accepted False; wrong arguments raise ValueError.
An OtbReferee owns its C referee, freed with it; one thread at a time.
"""
from typing import Dict, Iterable, List, Optional, Union

from . import (Board, Move, Outcome, WHITE, BLACK, SQUARE_NAMES, _color_arg, _color_out, _move_of,
               _outcome_of, _text)
from ._arbiter import ffi, lib
from .referee import _Answer, _new_event, _setup_start, _write_pgn, _RESULTS, _RESULT_NAMES

__all__ = ["OtbReferee", "OtbDecision", "Obligation", "OtbRecordEntry", "OTB_RULES"]

OTB_RULES = ("fide", "fide-rapid", "fide-blitz", "uscf", "uscf-blitz", "casual")


def _names(name_fn, limit=64) -> Dict[str, int]:
    out = {}
    for i in range(limit):
        n = _text(name_fn(i))
        if n:
            out[n] = i
        elif i:
            break
    return out


_KINDS = _names(lib.arb_otb_kind_name)
_MATTERS = _names(lib.arb_otb_matter_name)
_RULINGS = _names(lib.arb_otb_ruling_name)
_SUPERVISION = {None: 0, "A.4": 1, "A.5": 2, "B.2": 3, "B.3": 4}
_SENSING = {None: 0, "identity": 1, "presence": 2}
_SOURCES = {"log": 0, "eboard": 1, "clock": 2}
_ORDERS = {"first": 0, "simultaneous": 1, "unknown": 2}
_INTENTS = {"move": 0, "castle": 1, "adjust": 2, "accidental": 3}
_NEEDS = (("promotion_piece", lib.ARB_OTB_NEEDS_PROMOTION_PIECE),
          ("arbiter_judgement", lib.ARB_OTB_NEEDS_ARBITER),
          ("touch_order", lib.ARB_OTB_NEEDS_TOUCH_ORDER))
_WARNINGS = (("board_mismatch", lib.ARB_OTB_WARN_BOARD_MISMATCH),
             ("sensor_misread", lib.ARB_OTB_WARN_SENSOR_MISREAD),
             ("result_gesture", lib.ARB_OTB_WARN_RESULT_GESTURE),
             ("flag_shown", lib.ARB_OTB_WARN_FLAG_SHOWN),
             ("out_of_turn", lib.ARB_OTB_WARN_OUT_OF_TURN),
             ("piece_displaced", lib.ARB_OTB_WARN_DISPLACED),
             ("signed_result_differs", lib.ARB_OTB_WARN_SIGNED_RESULT))
_VARIATIONS = {"10I2": lib.ARB_OTB_US_10I2, "11H1": lib.ARB_OTB_US_11H1}
_PIECE_WORDS = ("", "pawn", "knight", "bishop", "rook", "queen", "king")


def _square_arg(sq) -> int:
    if isinstance(sq, int) and 0 <= sq < 64:
        return sq
    if isinstance(sq, str) and sq in SQUARE_NAMES:
        return SQUARE_NAMES.index(sq)
    raise ValueError("not a square: %r" % (sq,))


def _piece_arg(piece, colour: int) -> int:
    """"Q" (white), "q" (black), "queen" (colour's, white when unknown) -> a piece code."""
    if isinstance(piece, str):
        if piece in _PIECE_WORDS[1:]:
            return (max(colour, 0) << 3) | _PIECE_WORDS.index(piece)
        if len(piece) == 1 and piece.lower() in "pnbrqk":
            c = 0 if piece.isupper() else 1
            if colour >= 0 and not piece.isupper():
                c = colour
            return c << 3 | ("pnbrqk".index(piece.lower()) + 1)
    raise ValueError("piece must be a letter (KQRBNP/kqrbnp) or a word (queen, ...): %r"
                     % (piece,))


def _bits_squares(bb: int) -> List[int]:
    return [sq for sq in range(64) if bb >> sq & 1]


class Obligation:
    """What binds the player having the move (FIDE 4.3-4.4): must_move (touched own pieces'
    squares), must_capture (a touched enemy piece's), any (nothing touched can move: any legal
    move), may_castle ({"a": bool, "h": bool}: the queen and king sides), allowed (the legal
    moves that satisfy it)."""
    __slots__ = ("must_move", "must_capture", "any", "may_castle", "allowed")

    def __init__(self, ob, chess960: int) -> None:
        self.must_move = _bits_squares(ob.must_move)
        self.must_capture = _bits_squares(ob.must_capture)
        self.any = bool(ob.any)
        self.may_castle = {"a": bool(ob.may_castle[0]), "h": bool(ob.may_castle[1])}
        self.allowed = [_move_of(ob.allowed[i], chess960) for i in range(ob.allowed_count)]

    def __repr__(self):
        return "Obligation(must_move=%s, must_capture=%s, allowed=%s)" % (
            [SQUARE_NAMES[s] for s in self.must_move], [SQUARE_NAMES[s] for s in self.must_capture],
            sorted(m.uci() for m in self.allowed))


class OtbDecision(_Answer):
    """The answer to one event over the board.

    accepted (also its truth value), refusal ("ok", "bad_event", "bad_move", "game_over",
    "not_allowed", "time_backwards", "no_game"), message; phase ("idle", "touched", "lifted",
    "castling_in_progress", "made", "over"), having_move (the colour), obligation (Obligation
    or None).  This event: made (the UCI of a move made by it, or None), made_legal, completed,
    violation ("touch_move", "illegal_move_completed", ... or None) and article (the rule
    applied), penalty_warning, time_added_s ({colour: seconds} added to each clock), restored
    and restore_fen (the position reinstated), annulled (UCI of moves taken off the record),
    stands (an illegal move that stands), claim_valid (None: no claim), needs ({
    "promotion_piece", "arbiter_judgement", "touch_order"}), needs_confirmation, warnings (a set
    of "board_mismatch", "out_of_turn", ...), takeback, signal (a result gesture or None),
    ended.  The state after it: fen, over, outcome (an Outcome) and result, illegal_count
    ({colour: n}), repetitions, timed, remaining_ms ({colour: ms} or None), running, draw_offer.
    """
    __slots__ = ("accepted", "refusal", "message", "phase", "having_move", "obligation", "made",
                 "made_legal", "completed", "violation", "article", "penalty_warning",
                 "time_added_s", "restored", "restore_fen", "annulled", "stands", "claim_valid",
                 "needs", "needs_confirmation", "warnings", "takeback", "signal", "ended", "fen",
                 "over", "outcome", "illegal_count", "repetitions", "timed", "remaining_ms",
                 "running", "draw_offer")

    def __init__(self, d, chess960: int) -> None:
        self.accepted = d.status == 0
        self.refusal = _text(lib.arb_otb_refusal_name(d.refusal))
        self.message = _text(d.message)
        self.phase = _text(lib.arb_otb_phase_name(d.phase))
        self.having_move = d.having_move == 0
        self.obligation = Obligation(d.obligation, chess960) if d.obligation.active else None
        self.made = _text(d.made_uci) if d.made else None
        self.made_legal = bool(d.made_legal) if d.made else None
        self.completed = bool(d.completed)
        self.violation = _text(lib.arb_otb_violation_name(d.violation)) or None
        self.article = _text(d.article) if d.violation else None
        self.penalty_warning = bool(d.penalty_warning)
        self.time_added_s = {c: s for c, s in ((WHITE, d.time_added_s[0]),
                                                (BLACK, d.time_added_s[1])) if s}
        self.restored = bool(d.restored)
        self.restore_fen = _text(d.restore_fen) if d.restored else None
        self.annulled = [_text(d.annulled[i]) for i in range(min(d.annulled_count, 8))]
        self.stands = bool(d.stands)
        self.claim_valid = None if d.claim_valid < 0 else bool(d.claim_valid)
        self.needs = frozenset(n for n, bit in _NEEDS if d.needs & bit)
        self.needs_confirmation = bool(d.needs_confirmation)
        self.warnings = frozenset(n for n, bit in _WARNINGS if d.warnings & bit)
        self.takeback = bool(d.takeback)
        self.signal = _RESULT_NAMES.get(d.signal) if d.signal else None
        self.ended = bool(d.ended)
        self.fen = _text(d.fen)
        self.over = bool(d.over)
        self.outcome: Optional[Outcome] = _outcome_of(d.outcome) if d.over else None
        self.illegal_count = {WHITE: d.illegal_count[0], BLACK: d.illegal_count[1]}
        self.repetitions = d.repetitions
        self.timed = bool(d.timed)
        self.remaining_ms = {WHITE: d.remaining_ms[0], BLACK: d.remaining_ms[1]} if d.timed \
            else None
        self.running = _color_out(d.running)
        self.draw_offer = _color_out(d.draw_offer)

    @property
    def result(self) -> str:
        return self.outcome.result() if self.outcome else "*"

    def __repr__(self):
        if not self.accepted:
            return "<OtbDecision refused: %s: %s>" % (self.refusal, self.message)
        parts = [self.phase]
        if self.made:
            parts.append("made " + self.made)
        if self.violation:
            parts.append("%s (%s)" % (self.violation, self.article))
        if self.over:
            parts.append("over: " + self.result)
        return "<OtbDecision %s>" % ", ".join(parts)


class OtbRecordEntry:
    """One move of the as-played record: uci, san (SAN for a legal move, "Ra1-a4" for an
    illegal one), by, legal, stood, annulled, completed, violation, t_made and t_press (ms or
    None), clock_ms (the mover's time after the press, or None), fen_after (the real position
    after it)."""
    __slots__ = ("uci", "san", "by", "legal", "stood", "annulled", "completed", "violation",
                 "t_made", "t_press", "clock_ms", "fen_after")

    def __init__(self, e) -> None:
        self.uci, self.san = _text(e.uci), _text(e.san)
        self.by = e.by == 0
        self.legal, self.stood = bool(e.legal), bool(e.stood)
        self.annulled, self.completed = bool(e.annulled), bool(e.completed)
        self.violation = _text(lib.arb_otb_violation_name(e.violation)) or None
        self.t_made = None if e.t_made < 0 else e.t_made
        self.t_press = None if e.t_press < 0 else e.t_press
        self.clock_ms = None if e.clock_ms < 0 else e.clock_ms
        self.fen_after = _text(e.fen_after)

    def __repr__(self):
        return "<OtbRecordEntry %s%s%s>" % (self.san, "" if self.legal else " (illegal)",
                                            " annulled" if self.annulled else "")


class OtbReferee:
    """An over-the-board referee with a game: OtbReferee(rules="fide", *, fen=None, moves=(),
    time_control=None, supervision=None, eboard=None, debounce_ms=0, variations=(),
    guidelines_iii=False, illegal_count=None, t=0).

    rules: "fide", "fide-rapid", "fide-blitz", "uscf", "uscf-blitz" or "casual"; fen (or
    board): the start; moves: completed moves already played from it; time_control: a
    TimeControl (or its text; None: presses still complete moves, no times); supervision: who
    watches — "A.4", "A.5", "B.2", "B.3" (None: standard play; A.5 for rapid, B.3 for blitz);
    eboard: None (the log and the clock), "identity" (piece types on squares) or "presence"
    (occupancy only), with debounce_ms; variations: US Chess variations announced ("10I2",
    "11H1"); guidelines_iii: FIDE Guidelines III announced; illegal_count: completed illegal
    moves each side already has ({WHITE: 1}).  Refused when the referee refuses the start."""

    def __init__(self, rules: str = "fide", *, t: int = 0, **setup) -> None:
        otb = lib.arb_otb_new()
        if otb == ffi.NULL:
            raise MemoryError("arbiter: out of memory")
        self._otb = ffi.gc(otb, lib.arb_otb_free)
        self._c960 = 0
        self.start(rules, t=t, **setup).raise_if_refused()

    def start(self, rules: str = "fide", *, fen: Optional[str] = None,
              board: Optional[Board] = None, moves: Iterable = (), time_control=None,
              supervision: Optional[str] = None, eboard: Optional[str] = None,
              debounce_ms: int = 0, variations: Iterable[str] = (), guidelines_iii: bool = False,
              illegal_count: Optional[dict] = None, t: int = 0) -> OtbDecision:
        """A new game (the present one is replaced); the options as the constructor's."""
        su = ffi.new("arb_otb_setup *")
        out = ffi.new("arb_otb_rules *")
        b = rules.encode() if isinstance(rules, str) else b""
        if lib.arb_otb_rules_parse(b, len(b), out) != 0:
            raise ValueError("rules must be one of %s: %r" % (", ".join(OTB_RULES), rules))
        su.rules = out[0]
        if supervision not in _SUPERVISION:
            raise ValueError("supervision must be A.4, A.5, B.2 or B.3: %r" % (supervision,))
        su.supervision = _SUPERVISION[supervision]
        if eboard not in _SENSING:
            raise ValueError("eboard must be None, identity or presence: %r" % (eboard,))
        su.sensing = _SENSING[eboard]
        su.debounce_ms = debounce_ms
        keep = []
        pos = _setup_start(su, keep, fen, board, False, moves, time_control)
        for v in variations:
            if v not in _VARIATIONS:
                raise ValueError("unknown variation (known: 10I2, 11H1): %r" % (v,))
            su.variations |= _VARIATIONS[v]
        su.guidelines_iii = bool(guidelines_iii)
        for colour, n in (illegal_count or {}).items():
            su.illegal_count[_color_arg(colour)] = n
        d = self._apply("start", t, setup=su)
        if d.accepted:
            self._c960 = int(pos.chess960)
        return d

    def _apply(self, kind: str, t: int, **fields) -> OtbDecision:
        squares = fields.pop("squares", ())
        keep = []
        ev = _new_event("arb_otb_event *", _KINDS[kind], t, fields, keep)
        if squares:
            if len(squares) > 8:
                raise ValueError("1 to 8 squares: %r" % (squares,))
            for i, sq in enumerate(squares):
                ev.squares[i] = _square_arg(sq)
            ev.square_count = len(squares)
        d = ffi.new("arb_otb_decision *")
        lib.arb_otb_event_apply(self._otb, ev, d)
        return OtbDecision(d, self._c960)

    def event(self, type: str, t: int, *, by=None, side=None, squares=(), order: str = "first",
              intent: str = "move", piece=None, hands: int = 0, other_hand: bool = False,
              move: Union[Move, str, None] = None, placement: Optional[str] = None,
              stable_ms: int = 0, matter: Optional[str] = None, ply: int = 0,
              ruling: Optional[str] = None, ms: int = 0, result: Optional[str] = None,
              evident: bool = True, source: Optional[str] = None) -> OtbDecision:
        """Any event by its name (docs/otb.md): type is "touch", "adjust_announce", "lift",
        "place", "board", "release", "move", "promote_choice", "press", "clock_pause",
        "clock_resume", "flag_shown", "claim", "arbiter_observes", "arbiter_rules", "record",
        "offer_draw", "accept_draw", "decline_draw", "resign", "device", "note" or "sign".
        Fields: by, side (colours); squares; order ("first", "simultaneous", "unknown") and
        intent ("move", "castle", "adjust", "accidental") of a touch; piece (a letter or a
        word); hands (2: a two-handed move); other_hand (a press not with the moving hand);
        move (the move made, an intended move, a move written); placement (a board event's FEN
        field 1) and stable_ms; matter (a claim's or observation's: "illegal_move",
        "touch_move", "flag", "threefold", "fifty", "dead_position", ...); ply; ruling (the
        arbiter's: "accept", "reject", "agree_increment", "supply_piece", "no_valid_reason",
        "time_adjust", "result") with ms and result; evident (a device); source ("log",
        "eboard", "clock": by default the event kind's own)."""
        if type not in _KINDS or type == "start":
            raise ValueError("not an over-the-board event: %r" % (type,))
        f = {}
        colour = -1
        if by is not None:
            colour = f["by"] = _color_arg(by, "by")
        if side is not None:
            f["side"] = _color_arg(side, "side")
        if source is None:
            source = ("eboard" if type in ("lift", "place", "board") else
                      "clock" if type in ("press", "flag_shown") else "log")
        if source not in _SOURCES:
            raise ValueError("source must be log, eboard or clock: %r" % (source,))
        f["source"] = _SOURCES[source]
        if isinstance(squares, (str, int)):
            squares = [squares]
        if squares:
            f["squares"] = list(squares)
        if order not in _ORDERS:
            raise ValueError("order must be first, simultaneous or unknown: %r" % (order,))
        if intent not in _INTENTS:
            raise ValueError("intent must be move, castle, adjust or accidental: %r" % (intent,))
        f["order"], f["intent"] = _ORDERS[order], _INTENTS[intent]
        if piece is not None:
            f["piece"] = _piece_arg(piece, colour)
        if hands not in (0, 1, 2):
            raise ValueError("hands must be 1 or 2: %r" % (hands,))
        f["hands"] = hands
        f["other_hand"] = int(bool(other_hand))
        text = placement if type == "board" else move
        if text is not None:
            f["text"] = (text.uci() if isinstance(text, Move) else str(text)).encode("utf-8")
        f["stable_ms"] = stable_ms
        if type in ("claim", "arbiter_observes"):
            if matter not in _MATTERS:
                raise ValueError("matter must be one of %s: %r" % (", ".join(_MATTERS), matter))
            f["matter"] = _MATTERS[matter]
        f["ply"] = ply
        if type == "arbiter_rules":
            if ruling not in _RULINGS:
                raise ValueError("ruling must be one of %s: %r" % (", ".join(_RULINGS), ruling))
            f["ruling"] = _RULINGS[ruling]
            f["ms"] = ms
        if result is not None:
            if result not in _RESULTS or result == "*":
                raise ValueError("result must be 1-0, 0-1 or 1/2-1/2: %r" % (result,))
            f["result"] = _RESULTS[result]
        f["evident"] = int(type == "device" and bool(evident))
        return self._apply(type, t, **f)

    # -- the events by name --
    def touch(self, by, *squares, t: int, order: str = "first", intent: str = "move",
              source: str = "log") -> OtbDecision:
        """by touches squares (in the order touched, or order "simultaneous"/"unknown") with
        intent "move" (4.3), "castle" (4.4), "adjust" (j'adoube said, 4.2) or "accidental"."""
        return self.event("touch", t, by=by, squares=squares, order=order, intent=intent,
                          source=source)

    def adjust_announce(self, by, *, t: int) -> OtbDecision:
        return self.event("adjust_announce", t, by=by)

    def lift(self, square, *, t: int, by=None) -> OtbDecision:
        return self.event("lift", t, by=by, squares=[square])

    def place(self, square, piece=None, *, t: int, by=None) -> OtbDecision:
        return self.event("place", t, by=by, squares=[square], piece=piece)

    def board(self, placement: str, *, t: int, stable_ms: int = 0) -> OtbDecision:
        return self.event("board", t, placement=placement, stable_ms=stable_ms)

    def release(self, by, square, *, t: int) -> OtbDecision:
        return self.event("release", t, by=by, squares=[square])

    def move(self, by, move: Union[Move, str], *, t: int, hands: int = 0) -> OtbDecision:
        """by makes move (UCI or SAN; an illegal move too); hands=2: with two hands (7.5.4)."""
        return self.event("move", t, by=by, move=move, hands=hands)

    def promote_choice(self, by, piece, *, t: int) -> OtbDecision:
        return self.event("promote_choice", t, by=by, piece=piece)

    def press(self, by, *, t: int, other_hand: bool = False) -> OtbDecision:
        return self.event("press", t, by=by, other_hand=other_hand)

    def clock_pause(self, *, t: int) -> OtbDecision:
        return self.event("clock_pause", t)

    def clock_resume(self, *, t: int) -> OtbDecision:
        return self.event("clock_resume", t)

    def flag_shown(self, side, *, t: int) -> OtbDecision:
        return self.event("flag_shown", t, side=side)

    def claim(self, by, matter: str, *, t: int, move: Union[Move, str, None] = None,
              ply: int = 0) -> OtbDecision:
        return self.event("claim", t, by=by, matter=matter, move=move, ply=ply)

    def arbiter_observes(self, matter: str, *, t: int, ply: int = 0,
                         move: Union[Move, str, None] = None) -> OtbDecision:
        return self.event("arbiter_observes", t, matter=matter, ply=ply, move=move)

    def arbiter_rules(self, ruling: str, *, t: int, side=None, ms: int = 0,
                      result: Optional[str] = None) -> OtbDecision:
        return self.event("arbiter_rules", t, ruling=ruling, side=side, ms=ms, result=result)

    def record_move(self, by, move: str, *, t: int, ply: int = 0) -> OtbDecision:
        """by writes move on the scoresheet (the event "record")."""
        return self.event("record", t, by=by, move=move, ply=ply)

    def offer_draw(self, by, *, t: int) -> OtbDecision:
        return self.event("offer_draw", t, by=by)

    def accept_draw(self, by, *, t: int) -> OtbDecision:
        return self.event("accept_draw", t, by=by)

    def decline_draw(self, by, *, t: int) -> OtbDecision:
        return self.event("decline_draw", t, by=by)

    def resign(self, by, *, t: int) -> OtbDecision:
        return self.event("resign", t, by=by)

    def device(self, by, *, t: int, evident: bool = True) -> OtbDecision:
        return self.event("device", t, by=by, evident=evident)

    def note(self, *, t: int) -> OtbDecision:
        return self.event("note", t)

    def sign(self, result: str, *, t: int) -> OtbDecision:
        return self.event("sign", t, result=result)

    # -- the record --
    @property
    def record(self) -> List[OtbRecordEntry]:
        e = ffi.new("arb_otb_record_entry *")
        out = []
        for i in range(lib.arb_otb_record_count(self._otb)):
            lib.arb_otb_record_at(self._otb, i, e)
            out.append(OtbRecordEntry(e))
        return out

    def pgn(self, *, legal_only: bool = False) -> str:
        """The game as PGN: as played (illegal moves that stood, annulled moves and penalties
        as comments), or legal_only: the corrected legal game."""
        return _write_pgn(lambda w: lib.arb_otb_write_pgn(
            self._otb, lib.ARB_OTB_PGN_LEGAL_ONLY if legal_only else 0, w))
