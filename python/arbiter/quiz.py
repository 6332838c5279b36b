# Arbiter — MIT licence, see LICENSE.
"""The rules quiz (arbiter/quiz.h): items whose every answer the library derives from their
inputs — a template, a position (with the moves that led to it where history matters), the move
asked about, a clock, an over-the-board event log, the rule set.  Making an item is choosing
inputs and deriving; checking one is deriving again from its inputs alone and comparing.

    from arbiter import quiz
    items = quiz.make(10, topics=["castling", "en-passant"], seed=7)
    item = items[0]
    item.question, item.choices, item.answer, item.explanation, item.articles
    item.check()                    # (True, "") — the stored answer is what the rules give
    quiz.QuizItem.from_dict(json.loads(line))   # an item of `arbiter quiz make` (JSON lines)

Items are plain Python values with the fields of `arbiter quiz`'s JSON (to_dict/from_dict).
"""
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from . import ArbiterError, Board, _text
from ._arbiter import ffi, lib

__all__ = ["QuizItem", "make", "templates", "TOPICS", "QuizError"]

TOPICS = tuple(_text(lib.arb_quiz_topic_name(i)) for i in range(lib.ARB_QUIZ_TOPIC_COUNT))
_COLORS = {"white": 0, "black": 1, None: -1}
_COLOR_NAMES = {0: "white", 1: "black"}


class QuizError(ArbiterError):
    """An item whose inputs do not make a question (the library's words)."""


def templates() -> List[Tuple[str, str, bool]]:
    """Every template: (name, topic, whether its choices are inputs — moves to judge)."""
    return [(_text(lib.arb_quiz_template_name(i)),
             TOPICS[lib.arb_quiz_template_topic(i)],
             bool(lib.arb_quiz_template_choices_are_input(i)))
            for i in range(lib.arb_quiz_template_count())]


def _put(dst, value: str, what: str) -> None:
    b = value.encode("utf-8")
    if len(b) >= len(dst):
        raise ValueError("quiz item: %s is longer than %d bytes" % (what, len(dst) - 1))
    ffi.memmove(dst, b + b"\0", len(b) + 1)


class QuizItem:
    """One item, with the fields of `arbiter quiz`'s JSON: id, topic, template, rules, fen,
    start_fen and moves (the history, when it matters), move (the move asked about), clock
    ({"white_ms", "black_ms", "increment_ms", "last_period", "flag"} or None), events (dicts:
    type, by, squares, move, intent, hands, matter), choices (inputs for templates whose
    choices are moves to judge), source — the inputs; and what derivation writes: difficulty
    (1..5), kind ("choice" or "move"), question, choices, answer, explanation, articles,
    squares and arrows to highlight."""
    FIELDS = ("id", "topic", "template", "difficulty", "kind", "rules", "fen", "start_fen",
              "moves", "move", "clock", "events", "question", "choices", "answer", "explanation",
              "articles", "squares", "arrows", "source")
    __slots__ = FIELDS

    def __init__(self, **fields) -> None:
        defaults = dict(id="", topic=TOPICS[0], template="", difficulty=1, kind="choice",
                        rules="fide", fen="", start_fen="", moves=[], move="", clock=None,
                        events=[], question="", choices=[], answer="", explanation="",
                        articles=[], squares=[], arrows=[], source="")
        for name in fields:
            if name not in self.FIELDS:
                raise TypeError("QuizItem has no field %r" % (name,))
        defaults.update(fields)
        for name, value in defaults.items():
            setattr(self, name, list(value) if isinstance(value, (list, tuple)) else value)

    # -- the library's item --
    @classmethod
    def _of(cls, it) -> "QuizItem":
        clock = None
        if it.clock.present:
            clock = {"white_ms": it.clock.ms[0], "black_ms": it.clock.ms[1],
                     "increment_ms": it.clock.increment_ms,
                     "last_period": bool(it.clock.last_period),
                     "flag": _COLOR_NAMES.get(it.clock.flag)}
        events = []
        for i in range(it.nevents):
            e = it.events[i]
            d = {"type": _text(e.type)}
            if e.by >= 0:
                d["by"] = _COLOR_NAMES[e.by]
            if e.nsquares:
                d["squares"] = [_text(e.squares[k]) for k in range(min(e.nsquares, 4))]
            for name in ("move", "intent", "matter"):
                if _text(getattr(e, name)):
                    d[name] = _text(getattr(e, name))
            if e.hands > 1:
                d["hands"] = e.hands
            events.append(d)
        return cls(
            id=_text(it.id), topic=TOPICS[it.topic], template=_text(it.template_name),
            difficulty=it.difficulty, kind="move" if it.kind == 1 else "choice",
            rules=_text(it.rules), fen=_text(it.fen), start_fen=_text(it.start_fen),
            moves=[_text(it.moves[i]) for i in range(it.nmoves)], move=_text(it.move),
            clock=clock, events=events, question=_text(it.question),
            choices=[_text(it.choices[i]) for i in range(it.nchoices)], answer=_text(it.answer),
            explanation=_text(it.explanation),
            articles=[_text(it.articles[i]) for i in range(it.narticles)],
            squares=[_text(it.squares[i]) for i in range(it.nsquares)],
            arrows=[[_text(it.arrows[i][0]), _text(it.arrows[i][1])] for i in range(it.narrows)],
            source=_text(it.source))

    def _c(self):
        it = ffi.new("arb_quiz_item *")
        it.clock.flag = -1
        _put(it.id, self.id, "id")
        if self.topic not in TOPICS:
            raise ValueError("unknown topic %r (known: %s)" % (self.topic, ", ".join(TOPICS)))
        it.topic = TOPICS.index(self.topic)
        _put(it.template_name, self.template, "template")
        _put(it.rules, self.rules, "rules")
        _put(it.fen, self.fen, "fen")
        _put(it.start_fen, self.start_fen or "", "start_fen")
        if len(self.moves) > lib.ARB_QUIZ_MAX_PLIES:
            raise ValueError("quiz item: more than %d moves" % lib.ARB_QUIZ_MAX_PLIES)
        for i, m in enumerate(self.moves):
            _put(it.moves[i], str(m), "moves[%d]" % i)
        it.nmoves = len(self.moves)
        _put(it.move, self.move or "", "move")
        if self.clock:
            c = self.clock
            it.clock.present = 1
            it.clock.ms[0], it.clock.ms[1] = c["white_ms"], c["black_ms"]
            it.clock.increment_ms = c.get("increment_ms", 0)
            it.clock.last_period = bool(c.get("last_period"))
            it.clock.flag = _COLORS[c.get("flag")]
        if len(self.events) > lib.ARB_QUIZ_MAX_EVENTS:
            raise ValueError("quiz item: more than %d events" % lib.ARB_QUIZ_MAX_EVENTS)
        for i, ev in enumerate(self.events):
            e = it.events[i]
            _put(e.type, ev["type"], "events[%d].type" % i)
            e.by = _COLORS[ev.get("by")]
            squares = ev.get("squares", [])
            if len(squares) > 4:
                raise ValueError("quiz item: events[%d] has more than 4 squares" % i)
            for k, s in enumerate(squares):
                _put(e.squares[k], s, "events[%d].squares[%d]" % (i, k))
            e.nsquares = len(squares)
            for name in ("move", "intent", "matter"):
                _put(getattr(e, name), ev.get(name, ""), "events[%d].%s" % (i, name))
            e.hands = ev.get("hands", 1)
        it.nevents = len(self.events)
        if len(self.choices) > lib.ARB_QUIZ_MAX_CHOICES:
            raise ValueError("quiz item: more than %d choices" % lib.ARB_QUIZ_MAX_CHOICES)
        for i, c in enumerate(self.choices):
            _put(it.choices[i], c, "choices[%d]" % i)
        it.nchoices = len(self.choices)
        _put(it.source, self.source or "", "source")
        it.difficulty = self.difficulty
        it.kind = 1 if self.kind == "move" else 0
        _put(it.question, self.question, "question")
        _put(it.answer, self.answer, "answer")
        _put(it.explanation, self.explanation, "explanation")
        if len(self.articles) > 6:
            raise ValueError("quiz item: more than 6 articles")
        for i, a in enumerate(self.articles):
            _put(it.articles[i], a, "articles[%d]" % i)
        it.narticles = len(self.articles)
        for i, s in enumerate(self.squares[:8]):
            _put(it.squares[i], s, "squares[%d]" % i)
        it.nsquares = min(len(self.squares), 8)
        for i, (a, b) in enumerate(self.arrows[:8]):
            _put(it.arrows[i][0], a, "arrows[%d]" % i)
            _put(it.arrows[i][1], b, "arrows[%d]" % i)
        it.narrows = min(len(self.arrows), 8)
        return it

    # -- deriving and checking --
    def derive(self) -> "QuizItem":
        """A new item: these inputs with everything derived from them by the rules (question,
        choices, answer, explanation, articles, marks).  QuizError when the inputs make no
        question (the library says why)."""
        it = self._c()
        why = ffi.new("char[]", 256)
        st = lib.arb_quiz_derive(it, why, 256)
        if st != 0:
            raise QuizError(_text(why) or _text(lib.arb_strerror(st)))
        return QuizItem._of(it)

    def check(self) -> Tuple[bool, str]:
        """(True, "") when the stored answer, kind, choices, explanation and topic are what the
        rules give from the inputs alone; else (False, the first difference)."""
        why = ffi.new("char[]", 256)
        ok = lib.arb_quiz_check_item(self._c(), why, 256)
        return bool(ok), _text(why)

    def board(self) -> Board:
        """The position shown, with its history when the item has one."""
        if self.start_fen:
            b = Board(self.start_fen)
            for m in self.moves:
                b.push_uci(m)
            return b
        return Board(self.fen)

    # -- JSON --
    def to_dict(self) -> Dict:
        """The item as `arbiter quiz` writes it in JSON (keys it leaves out, left out)."""
        d = {name: getattr(self, name) for name in self.FIELDS}
        if not self.start_fen:
            del d["start_fen"], d["moves"]
        for name in ("move", "source"):
            if not d[name]:
                del d[name]
        if not self.clock:
            del d["clock"]
        if not self.events:
            del d["events"]
        if self.kind != "choice" and not self.choices:
            del d["choices"]
        return d

    @classmethod
    def from_dict(cls, d: Dict) -> "QuizItem":
        return cls(**{k: v for k, v in d.items() if k in cls.FIELDS})

    def __eq__(self, other):
        return isinstance(other, QuizItem) and self.to_dict() == other.to_dict()

    def __repr__(self):
        return "<QuizItem %s (%s): %s>" % (self.id, self.template, self.question[:60])


def make(count: int, *, topics: Optional[Iterable[str]] = None, seed: int = 0,
         games: Sequence = ()) -> List[QuizItem]:
    """Up to count items spread evenly over the topics' templates (all topics when None),
    numbered per topic ("castling-0001"), the same for the same options.  games: positions
    from real games (arbiter.pgn.Game objects, or Boards with their move stacks); none:
    seeded positions."""
    opts = ffi.new("arb_quiz_options *")
    for t in topics or ():
        if t not in TOPICS:
            raise ValueError("unknown topic %r (known: %s)" % (t, ", ".join(TOPICS)))
        opts.topics |= 1 << TOPICS.index(t)
    opts.count = count
    opts.seed = seed
    keep = []
    if games:
        arr = ffi.new("arb_quiz_game[]", len(games))
        for i, g in enumerate(games):
            board = g if isinstance(g, Board) else g.end()
            start = board.copy()
            while start.move_stack:
                start.pop()
            codes = []
            b = start.copy()
            for m in board.move_stack:
                codes.append(b._code(m))
                b.push(m)
            moves = ffi.new("arb_move[]", codes or [0])
            src = ffi.new("char[]", (getattr(g, "headers", {}).get("Site", "") or "").encode())
            keep += [moves, src]
            arr[i].start = lib.arb_game_position(start._game)[0]
            arr[i].moves, arr[i].nmoves, arr[i].source = moves, len(codes), src
        keep.append(arr)
        opts.games, opts.ngames = arr, len(games)
    items = ffi.new("arb_quiz_item[]", max(count, 1))
    made = ffi.new("size_t *")
    st = lib.arb_quiz_make(opts, items, max(count, 0), made)
    if st != 0:
        raise ValueError("quiz.make: %s" % _text(lib.arb_strerror(st)))
    return [QuizItem._of(items[i]) for i in range(made[0])]
