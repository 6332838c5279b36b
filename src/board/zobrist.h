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

/* Key part of the castling rights (Polyglot: White O-O, O-O-O, Black O-O, O-O-O). */
uint64_t arb__zob_castling(const arb_position *pos) ARB_HIDDEN;

#endif
