# Arbiter — MIT licence, see LICENSE.
"""PGN: reading games at C speed (every move replayed under the full rules in the library, the
problems of each game reported with their place) and writing export format.

    import arbiter.pgn
    for game in arbiter.pgn.read_games("games.pgn"):
        print(game.headers["White"], len(game.moves), game.end().fen(), game.errors)

read_games takes a path, a binary or text file, or bytes/str, and reads it in chunks: memory
holds one chunk's games, never the file.  The main line is kept (variations are replayed and
checked by the reader, comments and NAGs are not kept in this version).
"""
import io
import os
from typing import Dict, Iterator, List, Optional, Union

from . import Board, Move, ArbiterError, _code_moves, _text
from ._arbiter import ffi, lib

__all__ = ["Game", "PgnProblem", "read_games", "read_game", "write_game", "STRICT",
           "ALLOW_NULL", "NO_VARIATIONS"]

STRICT, ALLOW_NULL, NO_VARIATIONS = 1, 2, 4  # ARB_PGN_* reading flags
_CHUNK = 1 << 16
_RESULTS = {0: "*", 1: "1-0", 2: "0-1", 3: "1/2-1/2"}
_RESULT_CODES = {"*": 0, "1-0": 1, "0-1": 2, "1/2-1/2": 3}


class PgnProblem:
    """A problem the reader found: problem (its name), message, line, column, ply (0: none),
    warning (True: the game stands)."""
    __slots__ = ("warning", "problem", "line", "column", "ply", "message")

    def __init__(self, warning, problem, line, column, ply, message):
        self.warning, self.problem, self.line, self.column, self.ply, self.message = (
            warning, problem, line, column, ply, message)

    def __str__(self):
        return "%d:%d: %s: %s" % (self.line, self.column,
                                  "warning" if self.warning else "error", self.message)

    def __repr__(self):
        return "PgnProblem(%s)" % self


class Game:
    """One game: headers (a dict in the order read), the main line's moves from its start
    position (start_fen), the problems found (errors: PgnProblem, warnings included), number
    (1-based in the input).  board() is the start position, end() the final one."""
    __slots__ = ("headers", "moves", "start_fen", "errors", "number", "skipped", "chess960")

    def __init__(self, headers=None, moves=None, start_fen=None, errors=None, number=0,
                 skipped=False, chess960=False):
        self.headers: Dict[str, str] = dict(headers or {})
        self.moves: List[Move] = list(moves or [])
        self.start_fen: Optional[str] = start_fen
        self.errors: List[PgnProblem] = list(errors or [])
        self.number = number
        self.skipped = skipped
        self.chess960 = chess960

    @classmethod
    def from_board(cls, board: Board) -> "Game":
        start = board.copy()
        while start.move_stack:
            start.pop()
        fen = start.fen()
        g = cls(moves=board.move_stack, start_fen=None if fen == _START else fen,
                chess960=board.chess960)
        g.headers["Result"] = board.result()
        return g

    def board(self) -> Board:
        return Board(self.start_fen or _START, chess960=self.chess960)

    def end(self) -> Board:
        b = self.board()
        for m in self.moves:
            b.push(m)
        return b

    def mainline_moves(self) -> List[Move]:
        return list(self.moves)

    def has_errors(self) -> bool:
        return any(not e.warning for e in self.errors)

    def __str__(self):
        return write_game(self)

    def __repr__(self):
        return "<Game %d: %s - %s, %d plies>" % (self.number, self.headers.get("White", "?"),
                                                  self.headers.get("Black", "?"),
                                                  len(self.moves))


_START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def _fen_of(pos) -> str:
    buf = ffi.new("char[]", 128)
    lib.arb_fen_write(pos, buf, 128, 0)
    return ffi.string(buf).decode()


def _take(reader) -> List[Game]:
    games = []
    for i in range(lib.pyarb_pgn_ready(reader)):
        n = ffi.new("size_t *")
        raw = ffi.unpack(lib.pyarb_pgn_tags(reader, i, n), n[0]).decode("utf-8", "replace")
        parts = raw.split("\0")
        headers = dict(zip(parts[0:-1:2], parts[1::2]))
        count = ffi.new("int *")
        codes = ffi.unpack(lib.pyarb_pgn_moves(reader, i, count), count[0])
        flags = lib.pyarb_pgn_flags(reader, i)
        c960 = 1 if flags & 2 else 0
        start = _fen_of(lib.pyarb_pgn_start(reader, i)) if not flags & 4 else None
        errs = []
        etext = ffi.unpack(lib.pyarb_pgn_errors(reader, i, n), n[0]).decode("utf-8", "replace")
        for line in etext.splitlines():
            kind, problem, ln, col, ply, msg = line.split("\t", 5)
            errs.append(PgnProblem(kind == "warning", problem, int(ln), int(col), int(ply), msg))
        games.append(Game(headers, list(map(_code_moves[c960].__getitem__, codes)),
                          None if start == _START else start, errs,
                          lib.pyarb_pgn_number(reader, i), bool(flags & 1), bool(c960)))
    lib.pyarb_pgn_drop(reader)
    return games


def _chunks(source, size: int = _CHUNK) -> Iterator[bytes]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = memoryview(source)
        for k in range(0, len(data), size):
            yield data[k:k + size]
        return
    if isinstance(source, str) and ("\n" in source or "[" in source) and not os.path.exists(
            source):
        yield from _chunks(source.encode("utf-8"), size)
        return
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            yield from _chunks(f, size)
        return
    while True:  # a file object, binary or text
        block = source.read(size)
        if not block:
            return
        yield block.encode("utf-8") if isinstance(block, str) else block


def read_games(source: Union[str, bytes, os.PathLike, io.IOBase], *, flags: int = 0,
               chunk_size: int = _CHUNK) -> Iterator[Game]:
    """Every game of a PGN input (a path, a file, bytes or PGN text), in order; a game with
    problems is still yielded, its problems in Game.errors.  The input goes to the reader
    chunk_size bytes at a time (each chunk's games are then taken); the GIL is released while
    the reader reads a chunk."""
    reader = lib.pyarb_pgn_new(flags)
    if reader == ffi.NULL:
        raise MemoryError("arbiter: out of memory")
    reader = ffi.gc(reader, lib.pyarb_pgn_free)
    for chunk in _chunks(source, max(int(chunk_size), 1)):
        st = lib.pyarb_pgn_feed(reader, ffi.from_buffer(chunk), len(chunk))
        if st != 0:
            raise ArbiterError(_text(lib.arb_strerror(st)))
        yield from _take(reader)
    st = lib.pyarb_pgn_finish(reader)
    if st != 0:
        raise ArbiterError(_text(lib.arb_strerror(st)))
    yield from _take(reader)


def read_game(source) -> Optional[Game]:
    """The first game of a PGN input, or None when it has none."""
    for g in read_games(source):
        return g
    return None


def write_game(game: Union[Game, Board], *, headers: Optional[Dict[str, str]] = None) -> str:
    """The game in PGN export format (the Seven Tag Roster first; the result from its Result
    header, or the board's result); ArbiterError for an illegal move or a bad tag name."""
    if isinstance(game, Board):
        game = Game.from_board(game)
    tags = dict(game.headers)
    tags.update(headers or {})
    w = lib.arb_pgn_writer_new(0)
    if w == ffi.NULL:
        raise MemoryError("arbiter: out of memory")
    w = ffi.gc(w, lib.arb_pgn_writer_free)
    lib.arb_pgn_writer_begin_game(w)
    for name, value in tags.items():
        n, v = name.encode("utf-8"), str(value).encode("utf-8")
        if not lib.arb_pgn_tag_name_valid(n, len(n)):
            raise ArbiterError("not a PGN tag name: %r" % name)
        lib.arb_pgn_writer_tag(w, n, len(n), v, len(v))
    start = game.board()
    pos = ffi.new("arb_position *", lib.arb_game_position(start._game)[0])  # a copy: moves follow
    lib.arb_pgn_writer_start(w, pos)
    lib.arb_pgn_writer_begin_moves(w)
    codes = []
    b = start
    for m in game.moves:  # each move's code in its own position (castling is written per mode)
        codes.append(b._code(m))
        b.push(m)
    arr = ffi.new("arb_move[]", codes or [0])
    st = lib.pyarb_write_moves(w, pos, arr, len(codes))
    if st != 0:
        raise ArbiterError(_text(lib.arb_strerror(st)))
    lib.arb_pgn_writer_end_game(w, _RESULT_CODES.get(tags.get("Result", "*"), 0))
    n = ffi.new("size_t *")
    return ffi.unpack(lib.arb_pgn_writer_data(w, n), n[0]).decode("utf-8")
