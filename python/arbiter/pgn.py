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
import sys
from typing import Dict, Iterator, List, Optional, Union

from . import Board, Move, ArbiterError, _code_moves, _text
from ._arbiter import ffi, lib

__all__ = ["Game", "PgnProblem", "read_games", "read_game", "write_game", "STRICT",
           "ALLOW_NULL", "NO_VARIATIONS", "Options", "Piece", "open_pgn", "split", "read_piece",
           "read_range", "compression", "Output", "FORMATS"]

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


# ---- PGN at database scale: the command's own pieces (arbiter/pgn.h) ----
#
# `arbiter pgn check|convert|filter` is a front end over three pieces of the library, shared
# here so that a program (the Dask stage, arbiter.dask) gives the same bytes: a splitter that
# cuts a stream at game boundaries, a job that reads a piece as the command does (reports,
# conversions, filters) and keeps its output as records, and an ordered output that puts the
# pieces' records together (games numbered across pieces, repeats dropped) and writes the
# summary line.

FORMATS = ("pgn", "uci", "lan", "fen", "jsonl")
_FORMAT_CODES = {None: 0, "pgn": 1, "uci": 2, "lan": 3, "fen": 4, "jsonl": 5}
_WRITE_FLAGS = {"no_comments": 1, "no_variations": 2, "no_nags": 4}
_READ_FLAGS = {"strict": 1, "allow_null": 2, "no_result_check": 8}


class Options:
    """What `arbiter pgn` is told on its command line, as values: command ("check", "convert"
    or "filter"); to (convert and filter: "pgn", the default, "uci", "lan", "fen", "jsonl");
    json (check's reports as JSON); strict, allow_null, no_result_check; rules; no_comments,
    no_variations, no_nags, tree (pgn output); quiet (no summary line); the filters — white,
    black, player, result, date_from, date_to, min_elo, max_elo, eco ("A00" or "A00-E99"), tags
    ({name: value}), setup (True: only games from a FEN, False: none from one), position (a
    FEN), key (a Polyglot key), dedupe.  ValueError, as the command's usage errors, for options
    that do not go together.  Plain values: they pickle, so a cluster's workers get them."""

    def __init__(self, command: str = "check", *, to: Optional[str] = None, json: bool = False,
                 strict: bool = False, allow_null: bool = False, no_result_check: bool = False,
                 rules: str = "fide", no_comments: bool = False, no_variations: bool = False,
                 no_nags: bool = False, tree: bool = False, quiet: bool = False,
                 white: Optional[str] = None, black: Optional[str] = None,
                 player: Optional[str] = None, result: Optional[str] = None,
                 date_from: Optional[str] = None, date_to: Optional[str] = None,
                 min_elo: int = 0, max_elo: int = 0, eco: Optional[str] = None,
                 tags: Optional[Dict[str, str]] = None, setup: Optional[bool] = None,
                 position: Optional[str] = None, key: Optional[int] = None,
                 dedupe: bool = False) -> None:
        if command not in ("check", "convert", "filter"):
            raise ValueError("command must be check, convert or filter: %r" % (command,))
        if to is not None and (command == "check" or to not in FORMATS):
            raise ValueError("to wants pgn, uci, lan, fen or jsonl (convert, filter)")
        if result is not None and result not in _RESULT_CODES:
            raise ValueError("result wants 1-0, 0-1, 1/2-1/2 or *")
        if eco is not None and not (len(eco) == 3 or (len(eco) == 7 and eco[3] == "-")):
            raise ValueError("eco wants A00 or A00-E99")
        if min_elo < 0 or max_elo < 0:
            raise ValueError("min_elo and max_elo want positive numbers")
        if len(tags or {}) > 16:
            raise ValueError("at most 16 tags")
        if rules not in ("fide", "fide-rapid", "fide-blitz", "uscf", "online", "casual"):
            raise ValueError("unknown rules %r" % (rules,))
        if position is not None:
            from . import _read_fen
            _read_fen(position, False)  # InvalidFenError now, not on a worker
        self.command, self.to, self.json, self.quiet = command, to, json, quiet
        self.strict, self.allow_null, self.no_result_check = strict, allow_null, no_result_check
        self.rules, self.tree = rules, tree
        self.no_comments, self.no_variations, self.no_nags = no_comments, no_variations, no_nags
        self.white, self.black, self.player, self.result = white, black, player, result
        self.date_from, self.date_to, self.min_elo, self.max_elo = (date_from, date_to, min_elo,
                                                                    max_elo)
        self.eco, self.tags, self.setup = eco, dict(tags or {}), setup
        self.position, self.key, self.dedupe = position, key, dedupe
        if command == "filter" and not self.filtering:
            raise ValueError("filter: give at least one filter")

    @property
    def filtering(self) -> bool:
        return any(v not in (None, 0, False, {}) for v in (
            self.white, self.black, self.player, self.result, self.date_from, self.date_to,
            self.min_elo, self.max_elo, self.eco, self.tags, self.position, self.key,
            self.dedupe)) or self.setup is not None

    @property
    def format(self) -> Optional[str]:
        """The output format: None for check."""
        return None if self.command == "check" else (self.to or "pgn")

    def _c(self, file: str):
        """The library's arb_pgn_job_options, and the buffers it points to."""
        o = ffi.new("arb_pgn_job_options *")
        keep = [o]

        def s(value):
            if value is None:
                return ffi.NULL
            b = ffi.new("char[]", str(value).encode("utf-8"))
            keep.append(b)
            return b
        o.file = s(file)
        o.format = _FORMAT_CODES[self.format]
        o.json = bool(self.json)
        o.tree = bool(self.tree)
        o.read_flags = sum(v for k, v in _READ_FLAGS.items() if getattr(self, k))
        o.write_flags = sum(v for k, v in _WRITE_FLAGS.items() if getattr(self, k))
        rules = ffi.new("arb_ruleset *")
        lib.arb_rules_parse(self.rules.encode(), rules)
        o.rules = rules[0]
        o.filtering = self.filtering
        o.white, o.black, o.player = s(self.white), s(self.black), s(self.player)
        o.result, o.date_from, o.date_to = s(self.result), s(self.date_from), s(self.date_to)
        o.min_elo, o.max_elo = self.min_elo, self.max_elo
        if self.eco:
            o.eco_from, o.eco_to = s(self.eco[:3]), s(self.eco[4:] if len(self.eco) == 7 else
                                                      self.eco[:3])
        o.setup = 0 if self.setup is None else (1 if self.setup else -1)
        if self.position is not None:
            from . import _read_fen
            pos = _read_fen(self.position, False)
            keep.append(pos)
            o.position = pos
        if self.key is not None:
            o.has_key, o.key = 1, self.key
        if self.tags:
            arr = ffi.new("arb_pgn_tag_filter[]", len(self.tags))
            for i, (name, value) in enumerate(self.tags.items()):
                arr[i].name, arr[i].value = s(name), s(value)
            keep.append(arr)
            o.tags, o.ntags = arr, len(self.tags)
        o.dedupe = bool(self.dedupe)
        return o, keep

    def __repr__(self):
        return "Options(%r, %s)" % (self.command, ", ".join(
            "%s=%r" % (k, v) for k, v in vars(self).items() if k != "command" and v not in (
                None, False, 0, {}, "fide")))


class Piece:
    """A piece of a PGN stream cut at game boundaries: data (bytes; None when split was told
    not to keep it), size, first_line (of its first byte in the stream), offset (of that byte),
    forced (no boundary within the maximum: cut at a line end)."""
    __slots__ = ("data", "size", "first_line", "offset", "forced")

    def __init__(self, data: Optional[bytes], first_line: int = 1, offset: int = 0,
                 forced: bool = False, size: Optional[int] = None) -> None:
        self.data, self.first_line, self.offset, self.forced = data, first_line, offset, forced
        self.size = len(data) if size is None else size

    def __repr__(self):
        return "<Piece %d bytes at line %d>" % (self.size, self.first_line)


_ZSTD_MAGIC, _GZIP_MAGIC = b"\x28\xb5\x2f\xfd", b"\x1f\x8b"


def open_pgn(source) -> io.BufferedIOBase:
    """A binary stream of the PGN text of source (a path, "-" for stdin, or a binary file):
    plain, or compressed with zstd (.pgn.zst, lichess's database; Debian's python3-zstandard) or
    gzip (.pgn.gz), told by its first bytes as `arbiter pgn` tells them, decompressed as read
    (frames and members one after another)."""
    if isinstance(source, (str, os.PathLike)):
        f = sys.stdin.buffer if source == "-" else open(source, "rb")
    else:
        f = source
    f = f if hasattr(f, "peek") else io.BufferedReader(f)
    head = f.peek(4)[:4]
    if head.startswith(_ZSTD_MAGIC):
        import zstandard
        return zstandard.ZstdDecompressor().stream_reader(f, read_across_frames=True)
    if head.startswith(_GZIP_MAGIC):
        import gzip
        return gzip.GzipFile(fileobj=f, mode="rb")
    return f


def split(source, *, target: int = 0, max: int = 0, block: int = 1 << 20,
          keep_data: bool = True) -> Iterator[Piece]:
    """The pieces of a PGN input (a path, "-", a binary file, or bytes), each ending before the
    first game boundary at or after target bytes (0: 256 KB), at most max (0: 512 KB, and at
    least target): arb_pgn_splitter, the cut `arbiter pgn -j` makes.  Compressed inputs are
    decompressed (open_pgn).  Memory: about max plus one block.  keep_data=False gives the
    pieces' places only (offset, size, first_line), for readers that read the file themselves
    (read_range)."""
    s = lib.arb_pgn_splitter_new(target, max)
    if s == ffi.NULL:
        raise MemoryError("arbiter: out of memory")
    s = ffi.gc(s, lib.arb_pgn_splitter_free)
    piece = ffi.new("arb_pgn_piece *")
    if isinstance(source, (bytes, bytearray, memoryview)):
        blocks = iter([bytes(source)])
    else:
        stream = open_pgn(source)
        blocks = iter(lambda: stream.read(block), b"")
    end = False
    while not end:
        data = next(blocks, None)
        end = data is None
        if data:
            if lib.arb_pgn_splitter_feed(s, data, len(data)) != 0:
                raise MemoryError("arbiter: out of memory")
        while lib.arb_pgn_splitter_next(s, int(end), piece):
            yield Piece(ffi.buffer(piece.data, piece.len)[:] if keep_data else None,
                        piece.first_line, piece.offset, bool(piece.forced), piece.len)


_STATS = ("bytes", "games", "games_with_errors", "games_skipped", "plies", "errors", "warnings")


def _read_job(options: Options, file: str, blocks, first_line: int):
    """One arb_pgn_job fed the byte blocks in turn: its records and counts (read_piece)."""
    o, keep = options._c(file)
    job = lib.arb_pgn_job_new(o, first_line, ffi.NULL, ffi.NULL)
    if job == ffi.NULL:
        raise MemoryError("arbiter: out of memory")
    job = ffi.gc(job, lib.arb_pgn_job_free)
    stats = ffi.new("arb_pgn_stats *")
    for block in blocks:
        if lib.arb_pgn_job_feed(job, ffi.from_buffer(block), len(block)) != 0:
            raise MemoryError("arbiter: out of memory reading %s" % file)
    if lib.arb_pgn_job_finish(job, stats) != 0:
        raise MemoryError("arbiter: out of memory reading %s" % file)
    n = ffi.new("size_t *")
    records = ffi.buffer(lib.arb_pgn_job_records(job, n), n[0])[:]
    return records, {k: getattr(stats, k) for k in _STATS}


def read_piece(options: Options, file: str, data: bytes, first_line: int = 1):
    """Reads one piece as `arbiter pgn` does (arb_pgn_job): its output records (serialised
    bytes, for Output.add — on this machine or another) and its counts (a dict).  The GIL is
    released while the piece is read."""
    return _read_job(options, file, (data,), first_line)


def compression(path) -> str:
    """"zstd", "gzip" or "plain": what a file's first bytes say (as open_pgn tells them)."""
    with open(path, "rb") as f:
        head = f.read(4)
    return "zstd" if head.startswith(_ZSTD_MAGIC) else "gzip" if head.startswith(
        _GZIP_MAGIC) else "plain"


def read_range(options: Options, file: str, path: str, offset: int, size: int,
               first_line: int = 1):
    """read_piece of the size bytes at offset of the plain file at path (a piece split gave
    without its data): a worker that sees the file reads its piece itself, a block at a time
    into one buffer (the whole piece read at once cost a third more time: the kernel's copy
    into fresh pages and their faults)."""
    def blocks(f, buf):
        left = size
        while left > 0:
            view = memoryview(buf)[:min(left, len(buf))]
            got = f.readinto(view)
            if not got:
                raise OSError("%s: %d bytes at %d, not %d: the file changed" %
                              (path, size - left, offset, size))
            left -= got
            yield view[:got]

    with open(path, "rb") as f:
        f.seek(offset)
        return _read_job(options, file, blocks(f, bytearray(1 << 20)), first_line)


class Output:
    """The ordered output of jobs (arb_pgn_output): add(records, stats) for each piece in
    input order gives the bytes to write — (output, diagnostics) — with games numbered across
    pieces and repeats dropped (dedupe); file() when a new input begins; totals() and
    summary(seconds) the command's summary line."""

    def __init__(self, dedupe: bool = False, json: bool = False) -> None:
        o = lib.pyarb_output_new(int(dedupe))
        if o == ffi.NULL:
            raise MemoryError("arbiter: out of memory")
        self._o = ffi.gc(o, lib.pyarb_output_free)
        self._json = json

    def file(self) -> None:
        lib.pyarb_output_file(self._o)

    def add(self, records: bytes, stats: Dict[str, int]):
        st = ffi.new("arb_pgn_stats *", [stats[k] for k in _STATS])
        if lib.pyarb_output_job(self._o, ffi.from_buffer(records), len(records), st) != 0:
            raise ArbiterError("damaged records (or out of memory)")
        n = ffi.new("size_t *")
        out = ffi.buffer(lib.pyarb_output_text(self._o, 0, n), n[0])[:]  # (memcpy: unpack is
        err = ffi.buffer(lib.pyarb_output_text(self._o, 1, n), n[0])[:]  # a loop over bytes)
        lib.pyarb_output_clear(self._o)
        return out, err

    def totals(self):
        """(stats dict, games written, repeats dropped)."""
        st = ffi.new("arb_pgn_stats *")
        w, d = ffi.new("uint64_t *"), ffi.new("uint64_t *")
        lib.pyarb_output_totals(self._o, st, w, d)
        return {k: getattr(st, k) for k in _STATS}, w[0], d[0]

    def summary(self, seconds: float) -> str:
        """The command's summary line (with its newline)."""
        st = ffi.new("arb_pgn_stats *")
        lib.pyarb_output_totals(self._o, st, ffi.NULL, ffi.NULL)
        buf = ffi.new("char[]", 512)
        lib.arb_pgn_summary_write(st, seconds, int(self._json), buf, 512)
        return ffi.string(buf).decode()
