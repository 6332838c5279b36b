/* Arbiter — the complete laws of chess. MIT licence, see LICENSE.
 *
 * common.h: the error convention, colours, pieces, squares and the 16-bit move.
 * Everything here is a plain value; nothing allocates; every function is thread-safe.
 */
#ifndef ARBITER_COMMON_H
#define ARBITER_COMMON_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define ARB_API
#elif defined(__GNUC__)
#define ARB_API __attribute__((visibility("default")))
#else
#define ARB_API
#endif

#define ARB_VERSION_MAJOR 0
#define ARB_VERSION_MINOR 1
#define ARB_VERSION_PATCH 0
#define ARB_VERSION_STRING "0.1.0"

/* One error convention for the whole library: ARB_OK (0) or a negative code.
 * X(name, value, default message) */
#define ARB_STATUS_LIST(X)                                                                         \
  X(ARB_OK, 0, "ok")                                                                               \
  X(ARB_ERR_ARGUMENT, -1, "invalid argument")                                                      \
  X(ARB_ERR_BUFFER, -2, "buffer too small")                                                        \
  X(ARB_ERR_FEN_SYNTAX, -3, "malformed FEN")                                                       \
  X(ARB_ERR_FEN_INVALID, -4, "FEN describes an impossible position")                               \
  X(ARB_ERR_MOVE_SYNTAX, -5, "malformed move")                                                     \
  X(ARB_ERR_MOVE_ILLEGAL, -6, "illegal move")                                                      \
  X(ARB_ERR_MOVE_AMBIGUOUS, -7, "ambiguous move")                                                  \
  X(ARB_ERR_NULL_MOVE, -8, "null move not allowed here")                                           \
  X(ARB_ERR_NO_MEMORY, -9, "out of memory")                                                        \
  X(ARB_ERR_GAME_OVER, -10, "the game is over")                                                    \
  X(ARB_ERR_NOT_YOUR_TURN, -11, "not this player's turn")                                          \
  X(ARB_ERR_NO_OFFER, -12, "no draw offer to answer")                                              \
  X(ARB_ERR_NOT_ALLOWED, -13, "not allowed by the rules in force")                                 \
  X(ARB_ERR_MUST_PLAY, -14, "the move named in a wrong claim must be played")                      \
  X(ARB_ERR_TC_SYNTAX, -15, "malformed time control")                                              \
  X(ARB_ERR_TIME_BACKWARDS, -16, "time went backwards")                                            \
  X(ARB_ERR_CLOCK_STATE, -17, "the clock is not started, paused or already stopped")               \
  X(ARB_ERR_FLAG_NOT_FALLEN, -18, "the flag has not fallen")                                       \
  X(ARB_ERR_BOOK_FORMAT, -19, "malformed opening book")                                            \
  X(ARB_ERR_NULL_IN_CHECK, -20, "a null move is not allowed while in check")                       \
  X(ARB_ERR_EPD_SYNTAX, -21, "malformed EPD operation")

typedef enum arb_status {
#define ARB_STATUS_ENUM_(name, value, msg) name = value,
  ARB_STATUS_LIST(ARB_STATUS_ENUM_)
#undef ARB_STATUS_ENUM_
} arb_status;

/* A static, human-readable message for a status code ("unknown status" for others). */
ARB_API const char *arb_strerror(arb_status status);

/* A short stable identifier for a status, e.g. "move_illegal" (used in JSON error codes). */
ARB_API const char *arb_status_name(arb_status status);

/* 1 if text[0, n) is UTF-8 as RFC 3629 has it (no overlong forms, no surrogates, nothing past
 * U+10FFFF), else 0.  Pure, thread-safe.  The PGN reader and the play server's WebSocket
 * reader both judge text with it. */
ARB_API int arb_utf8_valid(const char *text, size_t n);

typedef enum arb_color { ARB_WHITE = 0, ARB_BLACK = 1 } arb_color;

/* Piece types start at 1 so that a piece code (below) of 0 means an empty square. */
typedef enum arb_piece_type {
  ARB_NO_TYPE = 0,
  ARB_PAWN = 1,
  ARB_KNIGHT = 2,
  ARB_BISHOP = 3,
  ARB_ROOK = 4,
  ARB_QUEEN = 5,
  ARB_KING = 6
} arb_piece_type;

/* A piece code: bits 0-2 the type, bit 3 the colour.  0 = no piece.
 *   white pawn = 1 ... white king = 6, black pawn = 9 ... black king = 14. */
typedef uint8_t arb_piece;
#define ARB_NO_PIECE ((arb_piece)0)
#define ARB_MAKE_PIECE(color, type) ((arb_piece)(((unsigned)(color) << 3) | (unsigned)(type)))
#define ARB_PIECE_TYPE(p) ((arb_piece_type)((p)&7))
#define ARB_PIECE_COLOR(p) ((arb_color)((p) >> 3))

/* Squares: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.  ARB_NO_SQUARE = 64. */
typedef uint8_t arb_square;
#define ARB_NO_SQUARE ((arb_square)64)
#define ARB_SQUARE(file, rank) ((arb_square)((rank)*8 + (file)))
#define ARB_FILE_OF(sq) ((sq)&7)
#define ARB_RANK_OF(sq) ((sq) >> 3)

/* A move, 16 bits:
 *
 *   15 14 | 13 12 | 11 10 9 8 7 6 | 5 4 3 2 1 0
 *   kind  | promo |     from      |     to
 *
 *   kind:  0 normal, 1 promotion, 2 en passant, 3 castling
 *   promo: 0 knight, 1 bishop, 2 rook, 3 queen (meaningful for kind 1 only)
 *   castling is encoded king-takes-rook: from = king square, to = the castling rook's square.
 *
 * ARB_MOVE_MAKE_SPECIAL(from, to, kind, promo_type): promo_type is ARB_KNIGHT..ARB_QUEEN for
 * promotions and ignored (any value) for the other kinds.
 * ARB_MOVE_NONE (0) is "no move"; ARB_MOVE_NULL (b1b1) is the null move ("--", UCI "0000"),
 * only ever produced where a caller explicitly allows null moves. */
typedef uint16_t arb_move;
#define ARB_MOVE_NONE ((arb_move)0)
#define ARB_MOVE_NULL ((arb_move)65)
#define ARB_MOVE_NORMAL 0u
#define ARB_MOVE_PROMOTION 1u
#define ARB_MOVE_EN_PASSANT 2u
#define ARB_MOVE_CASTLING 3u
#define ARB_MOVE_MAKE(from, to) ((arb_move)(((unsigned)(from) << 6) | (unsigned)(to)))
#define ARB_MOVE_MAKE_SPECIAL(from, to, kind, promo_type)                                          \
  ((arb_move)(((unsigned)(kind) << 14) | ((((unsigned)(promo_type)-ARB_KNIGHT) & 3u) << 12) |      \
              ((unsigned)(from) << 6) | (unsigned)(to)))
#define ARB_MOVE_FROM(m) ((arb_square)(((m) >> 6) & 63))
#define ARB_MOVE_TO(m) ((arb_square)((m)&63))
#define ARB_MOVE_KIND(m) ((unsigned)((m) >> 14))
/* The piece type a promotion creates (ARB_KNIGHT..ARB_QUEEN); only for kind 1. */
#define ARB_MOVE_PROMO(m) ((arb_piece_type)((((m) >> 12) & 3) + ARB_KNIGHT))

/* Upper bound on the number of legal moves in any position the library accepts.  218 is the
 * known maximum in a position a game can reach; positions read with problems accepted can have
 * more (one with 29 queens has 277), but never more than 16 men a side (arb_fen_read refuses
 * that, ARB_FEN_TOO_MANY_MEN): 8 king steps, 2 castlings and 15 pieces of at most 27 moves
 * each make at most 415. */
#define ARB_MAX_MOVES 448

#ifdef __cplusplus
}
#endif
#endif
