/* Arbiter — MIT licence, see LICENSE.
 *
 * zobrist.h (internal): Polyglot Zobrist keys.
 */
#ifndef ARB_BOARD_ZOBRIST_H
#define ARB_BOARD_ZOBRIST_H

#include "board/bitboard.h"

extern ARB_HIDDEN const uint64_t arb__polyglot_random[781];

/* Key of piece code p on square sq (Polyglot kind = 2 * (type - 1) + (colour == white)). */
static inline uint64_t arb__zob_piece(arb_piece p, arb_square sq) {
  unsigned kind = 2u * (ARB_PIECE_TYPE(p) - 1u) + (ARB_PIECE_COLOR(p) == ARB_WHITE);
  return arb__polyglot_random[64u * kind + sq];
}
static inline uint64_t arb__zob_ep(arb_square ep) { return arb__polyglot_random[772 + (ep & 7)]; }
#define ARB_ZOB_TURN (arb__polyglot_random[780])

/* Key of the castling right held by the rook on r (Polyglot: White O-O, O-O-O, Black O-O,
 * O-O-O): the side of the board is the rook's side of its king, so Chess960 fits too.  The
 * king must still stand where the right was granted. */
static inline uint64_t arb__zob_castle_rook(const arb_position *p, arb_square r) {
  int c = r >= 56 ? ARB_BLACK : ARB_WHITE;
  int queenside = ARB_FILE_OF(r) < ARB_FILE_OF(arb__king_sq(p, c));
  return arb__polyglot_random[768 + 2 * c + queenside];
}

/* Key part of all the castling rights. */
uint64_t arb__zob_castling(const arb_position *pos) ARB_HIDDEN;

#endif
