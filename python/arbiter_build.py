# Arbiter — MIT licence, see LICENSE.
"""cffi builder of arbiter._arbiter: the C library's sources (the list in ../CMakeLists.txt,
read here so that it is kept in one place) compiled into one extension module with the
declarations below and a small translation layer (shim.c): the PGN reader's visitor collecting
games for Python, so that no Python code runs per move.

The source tree is this file's parent directory, or $ARBITER_SOURCE.
"""
import os
import platform
import re

from cffi import FFI

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("ARBITER_SOURCE") or os.path.dirname(HERE)
if not os.path.exists(os.path.join(ROOT, "include", "arbiter", "arbiter.h")):
    raise SystemExit(
        "arbiter_build.py: the C sources are not in %s; build from the repository "
        "(pip install --no-build-isolation ./python) or set ARBITER_SOURCE" % ROOT)


def library_sources():
    """The C library's sources, as CMakeLists.txt lists them (set(ARB_SOURCES ...))."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"set\(ARB_SOURCES\s+([^)]*)\)", text)
    if not m:
        raise SystemExit("arbiter_build.py: no set(ARB_SOURCES ...) in CMakeLists.txt")
    # setuptools wants paths relative to setup.py's directory
    return [os.path.relpath(os.path.join(ROOT, s), HERE) for s in m.group(1).split()]


CDEF = r"""
typedef uint64_t arb_bitboard;
typedef uint16_t arb_move;
typedef uint8_t arb_piece;
typedef uint8_t arb_square;
typedef int... arb_status;
typedef int... arb_color;
typedef int... arb_ruleset;
typedef struct arb_position {
  arb_bitboard by_type[7];
  arb_bitboard by_color[2];
  arb_bitboard castling_rooks;
  uint64_t key;
  arb_piece board[64];
  uint8_t turn;
  uint8_t ep_square;
  uint8_t chess960;
  uint16_t halfmove_clock;
  uint32_t fullmove_number;
  ...;
} arb_position;
typedef struct arb_fen_report {
  uint32_t problems;
  int field;
  int column;
  char message[192];
} arb_fen_report;
typedef struct arb_san_error {
  arb_status code;
  int candidates_count;
  arb_move candidates[8];
  int column;
  char message[128];
} arb_san_error;
typedef struct arb_outcome {
  int result;
  int termination;
  uint8_t automatic;
  int8_t by;
} arb_outcome;
typedef struct arb_game_facts {
  int repetitions;
  uint8_t threefold;
  uint8_t can_claim_threefold;
  uint8_t fivefold;
  uint8_t can_claim_fifty;
  uint8_t fifty;
  uint8_t seventyfive;
  uint8_t checkmate, stalemate, insufficient_material, dead_position;
} arb_game_facts;
typedef struct arb_winnability {
  int verdict;
  int proof;
  int line_len;
  arb_move line[128];
  uint64_t nodes;
} arb_winnability;
typedef struct arb_game arb_game;

void arb_init(void);
const char *arb_strerror(arb_status status);
const char *arb_status_name(arb_status status);
void arb_position_startpos(arb_position *pos);
arb_status arb_position_chess960(arb_position *pos, int number);
int arb_position_chess960_number(const arb_position *pos);
void arb_position_set_chess960(arb_position *pos, int chess960);
int arb_generate_legal(const arb_position *pos, arb_move *moves);
int arb_count_legal(const arb_position *pos);
int arb_is_legal(const arb_position *pos, arb_move move);
int arb_gives_check(const arb_position *pos, arb_move move);
unsigned arb_move_info(const arb_position *pos, arb_move move);
int arb_in_check(const arb_position *pos);
uint64_t arb_perft(const arb_position *pos, int depth);
uint32_t arb_position_problems(const arb_position *pos);
const char *arb_fen_problem_message(uint32_t problem);
const char *arb_fen_problem_name(uint32_t problem);
arb_status arb_fen_read(arb_position *pos, const char *fen, uint32_t accept,
                        arb_fen_report *report);
int arb_fen_write(const arb_position *pos, char *buf, size_t size, unsigned flags);
int arb_uci_write(const arb_position *pos, arb_move move, char *buf, size_t size);
arb_status arb_move_from_squares(const arb_position *pos, arb_square from, arb_square to,
                                 int promotion, arb_move *move);
arb_status arb_uci_read(const arb_position *pos, const char *text, size_t len, int allow_null,
                        arb_move *move);
int arb_san_write(const arb_position *pos, arb_move move, char *buf, size_t size);
arb_status arb_san_read(const arb_position *pos, const char *text, size_t len, unsigned flags,
                        arb_move *move, arb_san_error *err);
int arb_is_checkmate(const arb_position *pos);
int arb_is_stalemate(const arb_position *pos);
int arb_is_insufficient_material(const arb_position *pos);
int arb_cannot_mate_by_material(const arb_position *pos, arb_color side);
int arb_is_dead_position(const arb_position *pos);
int arb_winnability_of(const arb_position *pos, arb_color side, uint64_t budget,
                       arb_winnability *out);
const char *arb_win_verdict_name(int v);
const char *arb_win_proof_name(int p);
const char *arb_termination_name(int t);
const char *arb_termination_article(int t);
const char *arb_result_string(int result);

arb_game *arb_game_new(const arb_position *start, arb_ruleset rules);
void arb_game_free(arb_game *game);
void arb_game_set_play_on(arb_game *game, int on);
void arb_game_set_null_moves(arb_game *game, int allow);
const arb_position *arb_game_position(const arb_game *game);
const arb_position *arb_game_position_at(const arb_game *game, int ply);
int arb_game_ply_count(const arb_game *game);
arb_move arb_game_move_at(const arb_game *game, int ply);
arb_status arb_game_play(arb_game *game, arb_move move);
arb_status arb_game_undo(arb_game *game);
void arb_game_facts_of(const arb_game *game, arb_game_facts *facts);
arb_outcome arb_game_outcome(const arb_game *game);

typedef struct arb_pgn_writer arb_pgn_writer;
arb_pgn_writer *arb_pgn_writer_new(unsigned flags);
void arb_pgn_writer_free(arb_pgn_writer *writer);
void arb_pgn_writer_begin_game(arb_pgn_writer *w);
arb_status arb_pgn_writer_tag(arb_pgn_writer *w, const char *name, size_t name_len,
                              const char *value, size_t value_len);
int arb_pgn_tag_name_valid(const char *name, size_t len);
void arb_pgn_writer_start(arb_pgn_writer *w, const arb_position *start);
arb_status arb_pgn_writer_begin_moves(arb_pgn_writer *w);
arb_status arb_pgn_writer_end_game(arb_pgn_writer *w, int result);
const char *arb_pgn_writer_data(const arb_pgn_writer *w, size_t *len);
void arb_pgn_writer_clear(arb_pgn_writer *w);
void arb_pgn_writer_discard_game(arb_pgn_writer *w);

/* shim.c */
arb_status pyarb_write_moves(arb_pgn_writer *w, const arb_position *start, const arb_move *moves,
                             int count);
typedef struct pyarb_pgn pyarb_pgn;
pyarb_pgn *pyarb_pgn_new(unsigned flags);
void pyarb_pgn_free(pyarb_pgn *p);
arb_status pyarb_pgn_feed(pyarb_pgn *p, const char *data, size_t len);
arb_status pyarb_pgn_finish(pyarb_pgn *p);
int pyarb_pgn_ready(const pyarb_pgn *p);
const char *pyarb_pgn_tags(const pyarb_pgn *p, int i, size_t *len);
const arb_move *pyarb_pgn_moves(const pyarb_pgn *p, int i, int *count);
const arb_position *pyarb_pgn_start(const pyarb_pgn *p, int i);
const char *pyarb_pgn_errors(const pyarb_pgn *p, int i, size_t *len);
int pyarb_pgn_result(const pyarb_pgn *p, int i);
uint64_t pyarb_pgn_number(const pyarb_pgn *p, int i);
int pyarb_pgn_flags(const pyarb_pgn *p, int i);
void pyarb_pgn_drop(pyarb_pgn *p);
int pyarb_code(const arb_game *g, unsigned key);
int pyarb_parse_san(const arb_game *g, const char *text, size_t len, arb_san_error *err);
"""

ffi = FFI()
ffi.cdef(CDEF)
flags = ["-std=c11", "-O2", "-fvisibility=hidden", "-DNDEBUG"]
if platform.machine() in ("x86_64", "AMD64", "amd64"):
    flags.append("-mpopcnt")  # as CMakeLists.txt's ARB_POPCNT
ffi.set_source(
    "arbiter._arbiter",
    '#include "arbiter/arbiter.h"\n#include "shim.h"\n',
    sources=library_sources() + ["arbiter/shim.c", "arbiter/shim_board.c"],
    include_dirs=[os.path.join(ROOT, "include"), os.path.join(ROOT, "src"),
                  os.path.join(HERE, "arbiter")],
    extra_compile_args=flags,
    libraries=["m"],
    # shim_board.c is also a CPython module (arbiter._board) using the full C API: the library
    # is built from source for the interpreter at hand, so no stable-ABI (abi3) name
    py_limited_api=False,
)

if __name__ == "__main__":
    ffi.compile(verbose=True)
