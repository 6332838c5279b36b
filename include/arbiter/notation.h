/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * notation.h: FEN/EPD in and out with validation, SAN and UCI/LAN in and out.
 *
 * Ownership: callers own every buffer.  Output functions follow snprintf: they write at most
 * `size` bytes including the terminating NUL and return the length the full text needs
 * (excluding the NUL), so a return value >= size means the output was truncated.
 * Thread-safety: all functions are reentrant; nothing allocates.
 */
#ifndef ARBITER_NOTATION_H
#define ARBITER_NOTATION_H

#include "arbiter/position.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ARB_FEN_START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* Validity problems of a syntactically correct FEN, reported as a bit set: every problem found
 * is reported, not just the first.  A caller may accept chosen problems deliberately (the
 * `accept` argument of arb_fen_read), except the ones in ARB_FEN_FATAL: a position without
 * exactly one king per side cannot be played, and one with more men than a chess set has (16 a
 * side) could have more legal moves than ARB_MAX_MOVES. */
#define ARB_FEN_PROBLEM_LIST(X)                                                                    \
  X(ARB_FEN_NO_WHITE_KING, 0, "White has no king")                                                 \
  X(ARB_FEN_NO_BLACK_KING, 1, "Black has no king")                                                 \
  X(ARB_FEN_TOO_MANY_KINGS, 2, "a side has more than one king")                                    \
  X(ARB_FEN_PAWN_ON_BACK_RANK, 3, "a pawn stands on the first or last rank")                       \
  X(ARB_FEN_BAD_CASTLING, 4, "castling right without king and rook on their home squares")         \
  X(ARB_FEN_BAD_EN_PASSANT, 5, "en passant square that no double step could have produced")        \
  X(ARB_FEN_OPPONENT_IN_CHECK, 6, "the side not to move is in check")                              \
  X(ARB_FEN_TOO_MANY_CHECKERS, 7, "more than two pieces give check")                               \
  X(ARB_FEN_IMPOSSIBLE_CHECK, 8, "a check no legal move could have produced")                      \
  X(ARB_FEN_TOO_MUCH_MATERIAL, 9, "more pieces or pawns than a game can have")                     \
  X(ARB_FEN_KINGS_ADJACENT, 10, "the kings stand on adjacent squares")                             \
  X(ARB_FEN_TOO_MANY_MEN, 11, "a side has more than 16 men")

enum {
#define ARB_FEN_PROBLEM_ENUM_(name, bit, msg) name = 1u << (bit),
  ARB_FEN_PROBLEM_LIST(ARB_FEN_PROBLEM_ENUM_)
#undef ARB_FEN_PROBLEM_ENUM_
};
#define ARB_FEN_FATAL                                                                              \
  (ARB_FEN_NO_WHITE_KING | ARB_FEN_NO_BLACK_KING | ARB_FEN_TOO_MANY_KINGS | ARB_FEN_TOO_MANY_MEN)
#define ARB_FEN_PROBLEM_COUNT 12
#define ARB_FEN_PROBLEMS_ALL ((1u << ARB_FEN_PROBLEM_COUNT) - 1u)

/* Reading options, or-ed into arb_fen_read's `accept` argument (they are not problems).
 * Without either, Chess960 is inferred: castling rights whose king is not on the e-file or
 * whose rook is not on the a- or h-file make the position Chess960. */
#define ARB_FEN_READ_STANDARD (1u << 30) /* standard chess: other castling rights are invalid */
#define ARB_FEN_READ_CHESS960 (1u << 31) /* Chess960 even when the placement looks standard */

/* Static message for one problem bit; NULL for an unknown bit. */
ARB_API const char *arb_fen_problem_message(uint32_t problem);
/* Static short identifier for one problem bit, e.g. "no_white_king"; NULL for unknown. */
ARB_API const char *arb_fen_problem_name(uint32_t problem);

/* What arb_fen_read found. */
typedef struct arb_fen_report {
  uint32_t problems; /* every validity problem found (ARB_FEN_* bits), accepted or not */
  int field;         /* 1-based FEN field of a syntax error (1 placement ... 6 fullmove), else 0 */
  int column;        /* 0-based byte offset of a syntax error in the input, else -1 */
  char message[192]; /* the syntax error, or the first unaccepted problem; "" when ok */
} arb_fen_report;

/* Parses FEN (six fields; four- and five-field EPD-style input also accepted, the missing
 * counters default to 0 and 1).  Castling: KQkq, X-FEN and Shredder-FEN file letters.
 * Leading/trailing blanks are ignored; fields may be separated by several blanks.
 * `accept`: problems to accept deliberately (ARB_FEN_* bits; ARB_FEN_PROBLEMS_ALL accepts every
 * non-fatal one)
 * plus reading options (ARB_FEN_READ_STANDARD, ARB_FEN_READ_CHESS960).
 * Returns ARB_OK, ARB_ERR_FEN_SYNTAX (report->field/column/message say where), or
 * ARB_ERR_FEN_INVALID when a problem not in `accept` (or a fatal one) was found.
 * *pos is written only on ARB_OK.  Castling rights that fail validation are dropped (and
 * reported); an en passant square is kept only when a pseudo-legal capture exists (and in
 * pos->ep_target as written, when valid, for ARB_FEN_OUT_EP_ALWAYS).
 * report may be NULL. */
ARB_API arb_status arb_fen_read(arb_position *pos, const char *fen, uint32_t accept,
                                arb_fen_report *report);

/* Like arb_fen_read, for a string that is not NUL-terminated. */
ARB_API arb_status arb_fen_read_n(arb_position *pos, const char *fen, size_t len, uint32_t accept,
                                  arb_fen_report *report);

/* FEN output options. */
#define ARB_FEN_OUT_SHREDDER 1u /* castling as file letters (HAha) */
#define ARB_FEN_OUT_EPD 2u      /* four fields only */
#define ARB_FEN_OUT_EP_ALWAYS                                                                      \
  4u /* en passant square after every double step (pos->ep_target),                                \
        as the FEN standard has it; python-chess en_passant="fen" */

/* Writes the FEN of pos (en passant square only when the capture is legal, unless
 * ARB_FEN_OUT_EP_ALWAYS).  snprintf convention.  A FEN is at most 100 bytes (ARB_FEN_MAX). */
#define ARB_FEN_MAX 100
ARB_API int arb_fen_write(const arb_position *pos, char *buf, size_t size, unsigned flags);

/* Validity problems of an existing position (the checks of arb_fen_read after parsing),
 * including a bad en passant square (pos->ep_target) and bad castling rights. */
ARB_API uint32_t arb_position_problems(const arb_position *pos);

/* Validates a position made with the editing functions of position.h (arb_position_put ...)
 * exactly as arb_fen_read validates what it parsed — one function serves both: the report
 * lists every problem (report->field 0, column -1), `accept` takes the same problem bits
 * (reading options are ignored).  ARB_OK: *pos is now a position every other function
 * accepts — accepted bad castling rights and en passant squares are dropped, the en passant
 * square kept where a pawn can take, the key computed.  ARB_ERR_FEN_INVALID (report->message
 * names the first refused problem): *pos is unchanged.  ARB_ERR_ARGUMENT for NULL pos.
 * report may be NULL. */
ARB_API arb_status arb_position_validate(arb_position *pos, uint32_t accept,
                                         arb_fen_report *report);

/* ---- UCI / LAN ---- */

/* Writes a move in UCI ("e2e4", "e7e8q", "0000" for the null move).  Castling is "e1g1" in
 * standard mode and king-takes-rook ("e1h1") when pos->chess960.  snprintf convention;
 * at most 5 characters. */
ARB_API int arb_uci_write(const arb_position *pos, arb_move move, char *buf, size_t size);

/* Parses a UCI move and checks it is legal in pos.  Accepts "e1g1" and king-takes-rook
 * "e1h1" for castling, upper- or lower-case promotion letters, and "0000" only when
 * allow_null is non-zero.  Returns ARB_OK, ARB_ERR_MOVE_SYNTAX, ARB_ERR_MOVE_ILLEGAL or
 * ARB_ERR_NULL_MOVE. */
ARB_API arb_status arb_uci_read(const arb_position *pos, const char *text, size_t len,
                                int allow_null, arb_move *move);

/* The legal move of pos from `from` to `to` (promotion: ARB_KNIGHT .. ARB_QUEEN, or 0), as
 * arb_uci_read finds it from its text: castling given as the king's two-square step or as
 * king-takes-rook.  ARB_OK with *move; ARB_ERR_MOVE_ILLEGAL (*move = ARB_MOVE_NONE) when no
 * legal move fits; ARB_ERR_ARGUMENT for a square above 63 or a promotion out of range. */
ARB_API arb_status arb_move_from_squares(const arb_position *pos, arb_square from, arb_square to,
                                         int promotion, arb_move *move);

/* Writes long algebraic notation ("Ng1-f3", "e7xd8=Q+", "O-O").  snprintf convention;
 * ARB_ERR_MOVE_ILLEGAL (negative, empty output) for a move that is not legal. */
ARB_API int arb_lan_write(const arb_position *pos, arb_move move, char *buf, size_t size);

/* ---- SAN ---- */

/* Writes SAN with minimal disambiguation (file, then rank, then both), =Q, O-O / O-O-O,
 * and + or #.  "--" for the null move.  snprintf convention; at most ARB_SAN_MAX - 1
 * characters; ARB_ERR_MOVE_ILLEGAL (negative, empty output) for a move that is not legal. */
#define ARB_SAN_MAX 10
ARB_API int arb_san_write(const arb_position *pos, arb_move move, char *buf, size_t size);

#define ARB_SAN_STRICT 1u     /* reject everything but exact SAN (see below) */
#define ARB_SAN_ALLOW_NULL 2u /* accept "--", "Z0", "0000" and "null" as the null move */

/* Detail of a failed SAN parse. */
typedef struct arb_san_error {
  arb_status code;        /* same as the return value */
  int candidates_count;   /* for ARB_ERR_MOVE_AMBIGUOUS: how many moves matched */
  arb_move candidates[8]; /* ... the first few of them */
  int column;             /* 0-based offset of the offending character, or -1 */
  char message[128];
} arb_san_error;

/* Parses SAN and resolves it against the legal moves of pos.
 * Lenient (default): "0-0", "0-0-0", "e8Q", "e8=Q", "e8/Q", "e8(Q)", "Ng1f3", "Ng1-f3",
 * "Nxf3"/"Nf3" whichever fits, over-disambiguation, "exd6 e.p.", "P" prefixes, lower-case
 * piece letters where unambiguous ("bxc3" is a pawn capture, never a bishop), trailing
 * "+ # ! ? !! ?? !? ?!" and UCI text as a fallback.
 * Strict (ARB_SAN_STRICT): exact SAN as arb_san_write would write it, except that the check
 * suffix may be omitted but never wrong.
 * Returns ARB_OK, ARB_ERR_MOVE_SYNTAX (malformed), ARB_ERR_MOVE_ILLEGAL (no legal move fits),
 * ARB_ERR_MOVE_AMBIGUOUS (several fit; err names them) or ARB_ERR_NULL_MOVE.  err may be NULL. */
ARB_API arb_status arb_san_read(const arb_position *pos, const char *text, size_t len,
                                unsigned flags, arb_move *move, arb_san_error *err);

/* Parses a move in SAN or UCI (UCI first when the text looks like UCI); flags as for
 * arb_san_read (ARB_SAN_ALLOW_NULL also admits "0000"). */
ARB_API arb_status arb_move_read(const arb_position *pos, const char *text, size_t len,
                                 unsigned flags, arb_move *move, arb_san_error *err);

#ifdef __cplusplus
}
#endif
#endif
