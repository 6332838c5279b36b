# Arbiter — MIT licence, see LICENSE.
"""Arbiter: the complete laws of chess, from Python, on the C library (libarbiter).

An API a python-chess user recognises — Board, Move, Piece, Outcome, Termination, squares
numbered a1 = 0 ... h8 = 63, WHITE = True — with Arbiter's own on top: the exact dead position
and winnability with its proof (Board.winnability), perft, and the modules
  arbiter.pgn       PGN read at C speed (every move replayed, problems with their place), written
  arbiter.referee   the referee: timed games with a clock, offers, claims, flags, its PGN
  arbiter.otb       the over-the-board referee: touch-move, illegal moves, presses, e-boards
  arbiter.solve     the exact solver: mate (or a draw) in n with every key move
  arbiter.train     puzzles in lichess's CSV and their proof, Glicko-2, reviews
  arbiter.quiz      the rules quiz: items derived from their inputs by the rules
  arbiter.endgame   endgame tables built in memory (KQK, KRK, KPK, KBNK)
(docs/python.md).

Every rule is decided by the C library; this module only translates.  Wrong input raises
ValueError subclasses (InvalidMoveError, IllegalMoveError, AmbiguousMoveError, InvalidFenError)
carrying the library's own message.  C memory is freed with its Python object; the GIL is
released during every call into the library through cffi, so long calls (perft, winnability,
the solver, PGN files) run in parallel from threads; the Board's microsecond calls (legal
moves, push, pop, SAN) go through arbiter._board, which keeps it.
"""
import enum
from typing import Iterator, List, Optional

from ._arbiter import ffi, lib


def _load_board_module():
    """arbiter._board, the Board's hot calls: a CPython module in the cffi module's own shared
    library (PEP 489's several modules in one library), loaded from that file."""
    import importlib.machinery
    import importlib.util
    from . import _arbiter
    loader = importlib.machinery.ExtensionFileLoader("arbiter._board", _arbiter.__file__)
    spec = importlib.util.spec_from_file_location("arbiter._board", _arbiter.__file__,
                                                  loader=loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


_board = _load_board_module()
_b_legal, _b_push, _b_undo, _b_san, _b_parse_san, _b_code = (
    _board.legal, _board.push, _board.undo, _board.san, _board.parse_san, _board.code)

__all__ = [
    "WHITE", "BLACK", "COLORS", "COLOR_NAMES", "PAWN", "KNIGHT", "BISHOP", "ROOK", "QUEEN",
    "KING", "PIECE_TYPES", "PIECE_SYMBOLS", "PIECE_NAMES", "SQUARES", "SQUARE_NAMES",
    "FILE_NAMES", "RANK_NAMES", "STARTING_FEN", "STARTING_BOARD_FEN", "square", "square_file",
    "square_rank", "square_name", "parse_square", "piece_symbol", "piece_name", "Piece", "Move",
    "Board", "LegalMoveGenerator", "Outcome", "Termination", "Winnability", "ArbiterError", "InvalidFenError",
    "InvalidMoveError", "IllegalMoveError", "AmbiguousMoveError", "perft", "__version__",
]
__version__ = "0.1.0"

lib.arb_init()

WHITE, BLACK = True, False
COLORS = [WHITE, BLACK]
COLOR_NAMES = ["black", "white"]
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(1, 7)
PIECE_TYPES = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING]
PIECE_SYMBOLS = [None, "p", "n", "b", "r", "q", "k"]
PIECE_NAMES = [None, "pawn", "knight", "bishop", "rook", "queen", "king"]
FILE_NAMES = ["a", "b", "c", "d", "e", "f", "g", "h"]
RANK_NAMES = ["1", "2", "3", "4", "5", "6", "7", "8"]
SQUARES = list(range(64))
SQUARE_NAMES = [f + r for r in RANK_NAMES for f in FILE_NAMES]
STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
STARTING_BOARD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"

_FEN_ACCEPT_ALL = 0xFFF      # ARB_FEN_PROBLEMS_ALL: the fatal ones are refused all the same
_FEN_EP_ALWAYS = 4           # ARB_FEN_OUT_EP_ALWAYS
_RULES_FIDE = 0
_MAX_MOVES = 448


class ArbiterError(ValueError):
    """A refusal by the library: the message is its own."""


class InvalidFenError(ArbiterError):
    """A FEN that is malformed or describes a position that cannot be played."""


class InvalidMoveError(ArbiterError):
    """A move in a syntax neither SAN nor UCI."""


class IllegalMoveError(ArbiterError):
    """A move that is not legal in the position."""


class AmbiguousMoveError(ArbiterError):
    """SAN that fits more than one legal move."""


_ERR_MOVE_SYNTAX, _ERR_MOVE_ILLEGAL, _ERR_MOVE_AMBIGUOUS = -5, -6, -7


def _text(p) -> str:
    return ffi.string(p).decode("utf-8", "replace") if p != ffi.NULL else ""


def _color_arg(color, what: str = "color") -> int:
    """WHITE/True or "white" -> 0, BLACK/False or "black" -> 1 (the library's arb_color)."""
    if color is True or color == "white":
        return 0
    if color is False or color == "black":
        return 1
    raise ValueError("%s must be WHITE, BLACK, \"white\" or \"black\": %r" % (what, color))


def _color_out(c: int) -> Optional[bool]:
    """The library's arb_color (or -1) as python-chess's colour (or None)."""
    return None if c < 0 else c == 0


def _outcome_of(o) -> Optional["Outcome"]:
    """An arb_outcome as an Outcome, None while the game goes on."""
    if not o.termination:
        return None
    winner = None if o.result in (0, 3) else o.result == 1
    return Outcome(Termination(o.termination), winner, bool(o.automatic), _color_out(o.by))


def _move_error(status: int, message: str) -> ArbiterError:
    cls = {_ERR_MOVE_SYNTAX: InvalidMoveError, _ERR_MOVE_ILLEGAL: IllegalMoveError,
           _ERR_MOVE_AMBIGUOUS: AmbiguousMoveError}.get(status, ArbiterError)
    return cls(message or _text(lib.arb_strerror(status)))


def square(file_index: int, rank_index: int) -> int:
    return rank_index * 8 + file_index


def square_file(sq: int) -> int:
    return sq & 7


def square_rank(sq: int) -> int:
    return sq >> 3


def square_name(sq: int) -> str:
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> int:
    """'e4' -> 28; ValueError for anything else."""
    try:
        return SQUARE_NAMES.index(name)
    except ValueError:
        raise ValueError("not a square: %r" % (name,)) from None


def piece_symbol(piece_type: int) -> str:
    return PIECE_SYMBOLS[piece_type]


def piece_name(piece_type: int) -> str:
    return PIECE_NAMES[piece_type]


class Piece:
    """A piece type (PAWN .. KING) and a colour (WHITE True, BLACK False)."""
    __slots__ = ("piece_type", "color")

    def __init__(self, piece_type: int, color: bool) -> None:
        self.piece_type = piece_type
        self.color = color

    def symbol(self) -> str:
        s = PIECE_SYMBOLS[self.piece_type]
        return s.upper() if self.color else s

    @classmethod
    def from_symbol(cls, symbol: str) -> "Piece":
        return cls(PIECE_SYMBOLS.index(symbol.lower()), symbol.isupper())

    def __eq__(self, other):
        return isinstance(other, Piece) and (self.piece_type, self.color) == (
            other.piece_type, other.color)

    def __hash__(self):
        return self.piece_type + (8 if self.color else 0)

    def __repr__(self):
        return "Piece.from_symbol(%r)" % self.symbol()

    def __str__(self):
        return self.symbol()


_PROMOTIONS = (None, 0, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING)  # python-chess's range


class Move:
    """A move from a square to a square, with the piece type a pawn becomes.  Castling is the
    king's two-square move in standard chess (e1g1) and king-takes-rook in Chess960 (e1h1), as
    in UCI and python-chess; the null move is Move.null() ("0000").

    Held as one integer, from | to << 6 | promotion << 12 (what the library's calls take), with
    from_square, to_square and promotion read and written through it."""
    __slots__ = ("_key", "drop")

    def __init__(self, from_square: int, to_square: int, promotion: Optional[int] = None,
                 drop: Optional[int] = None) -> None:
        if not (0 <= from_square < 64 and 0 <= to_square < 64) or promotion not in _PROMOTIONS:
            raise ValueError("not a move: Move(%r, %r, %r)" % (from_square, to_square, promotion))
        # a drop (a variant's move, never legal here) sets bit 15, which the library refuses
        self._key = from_square | to_square << 6 | (promotion or 0) << 12 | (
            0 if drop is None else 1 << 15)
        self.drop = drop

    @property
    def from_square(self) -> int:
        return self._key & 63

    @from_square.setter
    def from_square(self, sq: int) -> None:
        self._key = Move(sq, self.to_square, self.promotion, self.drop)._key

    @property
    def to_square(self) -> int:
        return self._key >> 6 & 63

    @to_square.setter
    def to_square(self, sq: int) -> None:
        self._key = Move(self.from_square, sq, self.promotion, self.drop)._key

    @property
    def promotion(self) -> Optional[int]:
        return (self._key >> 12 & 7) or None

    @promotion.setter
    def promotion(self, piece_type: Optional[int]) -> None:
        self._key = Move(self.from_square, self.to_square, piece_type, self.drop)._key

    def uci(self) -> str:
        if not self:
            return "0000"
        s = SQUARE_NAMES[self.from_square] + SQUARE_NAMES[self.to_square]
        return s + PIECE_SYMBOLS[self.promotion] if self.promotion else s

    @classmethod
    def from_uci(cls, uci: str) -> "Move":
        """Parses UCI text ("e2e4", "e7e8q", "0000"); InvalidMoveError otherwise.  Whether the
        move is legal is the board's to say (Board.push, Board.is_legal)."""
        if uci == "0000":
            return cls.null()
        if len(uci) in (4, 5) and uci[:2] in SQUARE_NAMES and uci[2:4] in SQUARE_NAMES:
            promo = None
            if len(uci) == 5:
                if uci[4] not in "nbrq":
                    raise InvalidMoveError("invalid promotion in uci: %r" % uci)
                promo = PIECE_SYMBOLS.index(uci[4])
            f, t = SQUARE_NAMES.index(uci[:2]), SQUARE_NAMES.index(uci[2:4])
            if f == t:
                raise InvalidMoveError("invalid uci (use 0000 for null moves): %r" % uci)
            return cls(f, t, promo)
        raise InvalidMoveError("invalid uci: %r" % uci)

    @classmethod
    def null(cls) -> "Move":
        return cls(0, 0)

    def __bool__(self):
        return self._key != 0

    def __eq__(self, other):
        return isinstance(other, Move) and self._key == other._key and self.drop == other.drop

    def __hash__(self):
        return self._key

    def __repr__(self):
        return "Move.from_uci(%r)" % self.uci()

    def __str__(self):
        return self.uci()


def _code_table(chess960: int) -> list:
    """The Move object of each of the library's 16-bit move codes that a legal move can have
    (to | from << 6 | promotion << 12 | kind << 14), made once at import and indexed by code, so
    that a list of legal moves is one list lookup per move.  Two tables: castling (kind 3,
    king-takes-rook in the code) is the king's two-square move in standard chess (e1g1) and
    king-takes-rook in Chess960 (e1h1), as in UCI and python-chess."""
    table = [None] * 65536
    shared = _code_table.shared
    if shared is None:
        shared = {}
        for frm in range(64):
            for to in range(64):
                if frm != to:
                    shared[frm << 6 | to] = Move(frm, to)
        for frm_rank, to_rank in ((6, 7), (1, 0)):
            for f in range(8):
                for t in range(max(f - 1, 0), min(f + 2, 8)):
                    frm, to = frm_rank * 8 + f, to_rank * 8 + t
                    for promo in (KNIGHT, BISHOP, ROOK, QUEEN):
                        shared[1 << 14 | (promo - KNIGHT) << 12 | frm << 6 | to] = Move(
                            frm, to, promo)
        for frm_rank, to_rank in ((4, 5), (3, 2)):
            for f in range(8):
                for t in (f - 1, f + 1):
                    if 0 <= t < 8:
                        frm, to = frm_rank * 8 + f, to_rank * 8 + t
                        shared[2 << 14 | frm << 6 | to] = shared[frm << 6 | to]
        shared[65] = Move.null()  # ARB_MOVE_NULL
        _code_table.shared = shared
    for code, m in shared.items():
        table[code] = m
    for rank in (0, 7):
        for kf in range(8):
            for rf in range(8):
                if kf != rf:
                    frm, to = rank * 8 + kf, rank * 8 + rf
                    shown = to if chess960 else rank * 8 + (6 if rf > kf else 2)
                    table[3 << 14 | frm << 6 | to] = shared.get(frm << 6 | shown) or Move(
                        frm, shown)  # the king already on its square in Chess960
    return table


_code_table.shared = None
_code_moves = (tuple(_code_table(0)), tuple(_code_table(1)))


def _move_of(code: int, chess960: int) -> Move:
    return _code_moves[chess960][code]


class Termination(enum.Enum):
    """How a game ended: the library's one vocabulary (docs/endings.md), python-chess's names
    for the endings it knows.  A Board ends games by the first eight (DEAD_POSITION: no
    sequence of legal moves can mate, FIDE 5.2.2, decided by proof); the players and the
    referees (arbiter.referee, arbiter.otb) add the others.  str() is the library's name
    ("checkmate", "time_forfeit", ...), pgn() the PGN Termination tag's value."""
    CHECKMATE = 1
    STALEMATE = 2
    INSUFFICIENT_MATERIAL = 3
    DEAD_POSITION = 4
    FIVEFOLD_REPETITION = 5
    SEVENTYFIVE_MOVES = 6
    THREEFOLD_REPETITION = 7
    FIFTY_MOVES = 8
    AGREEMENT = 9
    RESIGNATION = 10
    TIME_FORFEIT = 11
    ABORTED = 12
    ABANDONMENT = 13
    ILLEGAL_MOVE = 14
    SECOND_ILLEGAL_MOVE = 15
    ILLEGAL_MOVE_CLAIMED = 16
    ILLEGAL_MOVE_CLAIMANT_LACKS_MATERIAL = 17
    ILLEGAL_POSITION = 18
    ELECTRONIC_DEVICE = 19
    CRASH = 20
    STALL = 21
    ADJUDICATION = 22
    ARBITER_DECISION = 23

    def __str__(self):
        return _text(lib.arb_termination_name(self.value))

    def pgn(self) -> str:
        return _text(lib.arb_termination_pgn(self.value))

    def article(self) -> str:
        """The article of the Laws (or US Chess rule) the ending rests on, "" for none."""
        return _text(lib.arb_termination_article(self.value))

    @classmethod
    def from_name(cls, name: str) -> "Termination":
        """Termination.from_name("time_forfeit"); ValueError for a name the library does not
        know."""
        out = ffi.new("arb_termination *")
        b = name.encode("utf-8")
        if lib.arb_termination_parse(b, len(b), out) != 0:
            raise ValueError("not an ending: %r" % (name,))
        return cls(out[0])


class Outcome:
    """termination and winner (WHITE, BLACK or None for a draw); from a referee also
    automatic (the rules ended the game, not a player) and by (the player it rests on: who
    claimed, resigned or forfeited, None when automatic)."""
    __slots__ = ("termination", "winner", "automatic", "by")

    def __init__(self, termination: Termination, winner: Optional[bool], automatic: bool = True,
                 by: Optional[bool] = None) -> None:
        self.termination = termination
        self.winner = winner
        self.automatic = automatic
        self.by = by

    def result(self) -> str:
        if self.termination is Termination.ABORTED:
            return "*"
        return "1/2-1/2" if self.winner is None else ("1-0" if self.winner else "0-1")

    def __eq__(self, other):
        return isinstance(other, Outcome) and (self.termination, self.winner) == (
            other.termination, other.winner)

    def __repr__(self):
        return "Outcome(termination=%s, winner=%r)" % (self.termination, self.winner)


class Winnability:
    """Can `color` ever checkmate?  verdict "winnable" (proof "helpmate", line: the moves from
    the position to a mate, replayed by the library before it answered), "unwinnable" (proof:
    material, locked_walls, fixed_pawns, pawn_lanes, pawn_structures, search, game_over) or
    "unknown" (the node budget ran out)."""
    __slots__ = ("color", "verdict", "proof", "line", "nodes")

    def __init__(self, color, verdict, proof, line, nodes):
        self.color, self.verdict, self.proof, self.line, self.nodes = (
            color, verdict, proof, line, nodes)

    def __repr__(self):
        return "Winnability(%s: %s by %s, %d nodes%s)" % (
            COLOR_NAMES[self.color], self.verdict, self.proof, self.nodes,
            ", line " + " ".join(m.uci() for m in self.line) if self.line else "")


def _read_fen(fen: str, chess960: bool):
    pos = ffi.new("arb_position *")
    report = ffi.new("arb_fen_report *")
    st = lib.arb_fen_read(pos, fen.encode("utf-8"), _FEN_ACCEPT_ALL, report)
    if st != 0:
        raise InvalidFenError("%s: %r" % (_text(report.message) or _text(lib.arb_strerror(st)),
                                          fen))
    if chess960:
        lib.arb_position_set_chess960(pos, 1)
    return pos


class LegalMoveGenerator:
    """The legal moves of a board as it stands when asked: iterable, count(), bool, `in` (as
    python-chess's; like it, no len(): list(board.legal_moves) generates them once)."""
    __slots__ = ("_board",)

    def __init__(self, board: "Board") -> None:
        self._board = board

    def __iter__(self) -> Iterator[Move]:
        b = self._board
        return iter(_b_legal(b._g, b._moves))

    def count(self) -> int:
        return lib.arb_count_legal(self._board._pos())

    def __bool__(self):
        return self.count() > 0

    def __contains__(self, move) -> bool:
        return self._board.is_legal(move)

    def __repr__(self):
        b = self._board
        return "<LegalMoveList (%s)>" % ", ".join(b.san(m) for m in b._legal())


class Board:
    """A position and the moves that led to it, under the FIDE Laws.

    Board(fen=STARTING_FEN, chess960=False).  Moves may be pushed after the game is over by
    the rules (as in python-chess); outcome() says how the current position stands.  A board
    owns its C game (freed with it); it is not shared between threads."""

    def __init__(self, fen: Optional[str] = STARTING_FEN, *, chess960: bool = False) -> None:
        if fen is None:
            raise InvalidFenError("an empty board has no kings: give a FEN")
        pos = _read_fen(fen, chess960)
        self._set(pos)

    def _set(self, pos) -> None:
        game = lib.arb_game_new(pos, _RULES_FIDE)
        if game == ffi.NULL:
            raise MemoryError("arbiter: out of memory")
        lib.arb_game_set_play_on(game, 1)
        lib.arb_game_set_null_moves(game, 1)
        self._game = ffi.gc(game, lib.arb_game_free)
        self._g = int(ffi.cast("uintptr_t", game))  # for arbiter._board's calls
        self._chess960 = int(pos.chess960)
        self._moves = _code_moves[self._chess960]
        self._err = ffi.new("arb_san_error *")  # made once per board (not shared by threads)
        self.move_stack: List[Move] = []

    @classmethod
    def _from_game(cls, game) -> "Board":
        """A board with the history of a C game (a referee's): its start and moves."""
        b = cls.__new__(cls)
        b._set(lib.arb_game_position_at(game, 0))
        c960 = b._chess960
        for ply in range(1, lib.arb_game_ply_count(game) + 1):
            code = lib.arb_game_move_at(game, ply)
            st = lib.arb_game_play(b._game, code)
            if st != 0:
                raise ArbiterError(_text(lib.arb_strerror(st)))
            b.move_stack.append(_move_of(code, c960))
        return b

    @classmethod
    def from_chess960_pos(cls, scharnagl: int) -> "Board":
        pos = ffi.new("arb_position *")
        if lib.arb_position_chess960(pos, scharnagl) != 0:
            raise ValueError("not a Chess960 starting position number (0-959): %r" % scharnagl)
        b = cls.__new__(cls)
        b._set(pos)
        return b

    # -- the position --
    def _pos(self):
        return lib.arb_game_position(self._game)

    @property
    def turn(self) -> bool:
        return self._pos().turn == 0

    @property
    def chess960(self) -> bool:
        return bool(self._chess960)

    @property
    def halfmove_clock(self) -> int:
        return self._pos().halfmove_clock

    @property
    def fullmove_number(self) -> int:
        return self._pos().fullmove_number

    @property
    def ep_square(self) -> Optional[int]:
        sq = self._pos().ep_square
        return None if sq == 64 else sq

    def ply(self) -> int:
        p = lib.arb_game_position_at(self._game, 0)
        return 2 * (p.fullmove_number - 1) + p.turn + len(self.move_stack)

    def piece_at(self, sq: int) -> Optional[Piece]:
        code = self._pos().board[sq]
        return Piece(code & 7, not code >> 3) if code else None

    def piece_type_at(self, sq: int) -> Optional[int]:
        return (self._pos().board[sq] & 7) or None

    def piece_map(self) -> dict:
        board = self._pos().board
        return {sq: Piece(board[sq] & 7, not board[sq] >> 3) for sq in range(64) if board[sq]}

    def king(self, color: bool) -> Optional[int]:
        code = 6 if color else 14
        board = self._pos().board
        for sq in range(64):
            if board[sq] == code:
                return sq
        return None

    def fen(self, *, en_passant: str = "legal", shredder: bool = False) -> str:
        """FEN; the en passant square is written only when a capture there is legal
        (en_passant="legal", python-chess's default) or whenever a pawn has just moved two
        squares ("fen")."""
        buf = ffi.new("char[]", 128)
        flags = (1 if shredder else 0) | (_FEN_EP_ALWAYS if en_passant == "fen" else 0)
        lib.arb_fen_write(self._pos(), buf, 128, flags)
        return ffi.string(buf).decode()

    def board_fen(self) -> str:
        return self.fen().split(" ", 1)[0]

    def epd(self) -> str:
        return " ".join(self.fen().split(" ")[:4])

    def set_fen(self, fen: str) -> None:
        self._set(_read_fen(fen, bool(self._chess960)))

    def copy(self, *, stack: bool = True) -> "Board":
        b = Board.__new__(Board)
        if stack:
            b._set(lib.arb_game_position_at(self._game, 0))
            for m in self.move_stack:
                b.push(m)
        else:
            b._set(self._pos())
        return b

    def __copy__(self):
        return self.copy()

    def chess960_pos(self) -> Optional[int]:
        n = lib.arb_position_chess960_number(self._pos())
        return None if n < 0 else n

    # -- moves --
    def _legal(self) -> List[Move]:
        return _b_legal(self._g, self._moves)

    @property
    def legal_moves(self) -> LegalMoveGenerator:
        return LegalMoveGenerator(self)

    def _code(self, move: Move) -> int:
        """The library's code of a legal move (65: the null move); IllegalMoveError
        otherwise."""
        code = _b_code(self._g, move._key)
        if code < 0:
            raise IllegalMoveError("illegal move %s in %s" % (move.uci(), self.fen()))
        return code

    def is_legal(self, move: Move) -> bool:
        return bool(move) and _b_code(self._g, move._key) >= 0

    def push(self, move: Move) -> None:
        """Plays a legal move (or Move.null() when not in check); IllegalMoveError otherwise."""
        code = _b_push(self._g, move._key)
        if code < 0:
            if code == _ERR_MOVE_ILLEGAL:
                raise IllegalMoveError("illegal move %s in %s" % (move.uci(), self.fen()))
            raise _move_error(code, "%s: %s" % (move.uci(), _text(lib.arb_strerror(code))))
        self.move_stack.append(self._moves[code])

    def push_uci(self, uci: str) -> Move:
        move = Move.from_uci(uci)
        self.push(move)
        return self.move_stack[-1]

    def parse_san(self, san: str) -> Move:
        code = _b_parse_san(self._g, san)
        if code < 0:  # the library's message, from the same call through cffi
            text = san.encode("utf-8")
            code = lib.pyarb_parse_san(self._game, text, len(text), self._err)
            raise _move_error(code, "%s: %r in %s" % (_text(self._err.message), san, self.fen()))
        return self._moves[code]

    def push_san(self, san: str) -> Move:
        move = self.parse_san(san)
        self.push(move)
        return move

    def parse_uci(self, uci: str) -> Move:
        move = Move.from_uci(uci)
        return self._moves[self._code(move)]

    def san(self, move: Move) -> str:
        """The move in SAN with its check or mate mark; IllegalMoveError when not legal."""
        s = _b_san(self._g, move._key)
        if s.__class__ is int:
            raise IllegalMoveError("illegal move %s in %s" % (move.uci(), self.fen()))
        return s

    def uci(self, move: Move) -> str:
        return move.uci()

    def variation_san(self, moves) -> str:
        b = self.copy()
        out = []
        for m in moves:
            if b.turn:
                out.append("%d. %s" % (b.fullmove_number, b.san(m)))
            elif not out:
                out.append("%d...%s" % (b.fullmove_number, b.san(m)))
            else:
                out.append(b.san(m))
            b.push(m)
        return " ".join(out)

    def pop(self) -> Move:
        if not self.move_stack:
            raise IndexError("pop from an empty move stack")
        _b_undo(self._g)
        return self.move_stack.pop()

    def peek(self) -> Move:
        return self.move_stack[-1]

    def _info(self, move: Move) -> int:
        return lib.arb_move_info(self._pos(), self._code(move))

    def is_capture(self, move: Move) -> bool:
        return bool(self._info(move) & 1)

    def is_en_passant(self, move: Move) -> bool:
        return bool(self._info(move) & 2)

    def is_castling(self, move: Move) -> bool:
        return bool(self._info(move) & 4)

    def is_zeroing(self, move: Move) -> bool:
        return bool(self._info(move) & 16)

    def gives_check(self, move: Move) -> bool:
        return bool(self._info(move) & 64)

    # -- the laws --
    def _facts(self):
        f = ffi.new("arb_game_facts *")
        lib.arb_game_facts_of(self._game, f)
        return f

    def is_check(self) -> bool:
        return bool(lib.arb_in_check(self._pos()))

    def is_checkmate(self) -> bool:
        return bool(lib.arb_is_checkmate(self._pos()))

    def is_stalemate(self) -> bool:
        return bool(lib.arb_is_stalemate(self._pos()))

    def is_insufficient_material(self) -> bool:
        """Neither side has mating material (FIDE 5.2.2's simplest dead positions)."""
        return bool(lib.arb_is_insufficient_material(self._pos()))

    def has_insufficient_material(self, color: bool) -> bool:
        return bool(lib.arb_cannot_mate_by_material(self._pos(), 0 if color else 1))

    def is_repetition(self, count: int = 3) -> bool:
        return self._facts().repetitions >= count

    def can_claim_threefold_repetition(self) -> bool:
        """The position has occurred three times, or a legal move would make it so (9.2)."""
        return bool(self._facts().can_claim_threefold)

    def can_claim_fifty_moves(self) -> bool:
        return bool(self._facts().can_claim_fifty)

    def can_claim_draw(self) -> bool:
        f = self._facts()
        return bool(f.can_claim_fifty or f.can_claim_threefold)

    def is_fivefold_repetition(self) -> bool:
        return bool(self._facts().fivefold)

    def is_seventyfive_moves(self) -> bool:
        return bool(self._facts().seventyfive)

    def is_fifty_moves(self) -> bool:
        return bool(self._facts().fifty)

    def is_dead_position(self, budget: int = 0) -> bool:
        """Neither side can mate by any sequence of legal moves (FIDE 5.2.2), proven: True only
        with a proof for each side (Board.winnability says which)."""
        return all(self.winnability(c, budget).verdict == "unwinnable" for c in COLORS)

    def winnability(self, color: bool, budget: int = 0) -> Winnability:
        """Whether `color` can ever mate, with the proof (budget: search nodes, 0 = the
        library's default, 500,000)."""
        w = ffi.new("arb_winnability *")
        side = 0 if color else 1
        lib.arb_winnability_of(self._pos(), side, budget, w)
        line, b = [], None
        if w.line_len:
            b = self.copy(stack=False)
            for code in ffi.unpack(w.line, w.line_len):
                m = _move_of(code, self._chess960)
                line.append(m)
                b.push(m)
        return Winnability(color, _text(lib.arb_win_verdict_name(w.verdict)),
                           _text(lib.arb_win_proof_name(w.proof)), line, w.nodes)

    def outcome(self, *, claim_draw: bool = False) -> Optional[Outcome]:
        """How the current position ends the game under the FIDE Laws (checkmate, stalemate,
        insufficient material, dead position, fivefold, 75 moves), or with claim_draw the draws
        the side to move could claim (50 moves, threefold); None while play goes on."""
        o = lib.arb_game_outcome(self._game)
        if o.termination:
            winner = None if o.result == 3 else o.result == 1
            return Outcome(Termination(o.termination), winner)
        if claim_draw:
            f = self._facts()
            if f.can_claim_fifty:
                return Outcome(Termination.FIFTY_MOVES, None)
            if f.can_claim_threefold:
                return Outcome(Termination.THREEFOLD_REPETITION, None)
        return None

    def is_game_over(self, *, claim_draw: bool = False) -> bool:
        return self.outcome(claim_draw=claim_draw) is not None

    def result(self, *, claim_draw: bool = False) -> str:
        o = self.outcome(claim_draw=claim_draw)
        return o.result() if o else "*"

    def is_valid(self) -> bool:
        return lib.arb_position_problems(self._pos()) == 0

    def problems(self) -> List[str]:
        """What makes the position impossible in a game (empty when valid): the library's
        problem messages."""
        bits = lib.arb_position_problems(self._pos())
        return [_text(lib.arb_fen_problem_message(1 << i)) for i in range(32) if bits >> i & 1]

    def perft(self, depth: int) -> int:
        return lib.arb_perft(self._pos(), depth)

    # -- display --
    def __str__(self) -> str:
        board = self._pos().board
        rows = []
        for rank in range(7, -1, -1):
            row = []
            for f in range(8):
                c = board[rank * 8 + f]
                row.append(PIECE_SYMBOLS[c & 7].upper() if c and not c >> 3 else
                           (PIECE_SYMBOLS[c & 7] if c else "."))
            rows.append(" ".join(row))
        return "\n".join(rows)

    def __repr__(self) -> str:
        return "%s(%r%s)" % (type(self).__name__, self.fen(),
                             ", chess960=True" if self._chess960 else "")

    def __eq__(self, other):
        return isinstance(other, Board) and self.fen() == other.fen()

    def __hash__(self):
        return hash(self.fen())


def perft(fen: str, depth: int) -> int:
    """Leaf nodes of the legal move tree of `depth` plies from `fen`."""
    return lib.arb_perft(_read_fen(fen, False), depth)


LegalMoveList = LegalMoveGenerator  # the name of earlier versions
