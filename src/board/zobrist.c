/* Arbiter — MIT licence, see LICENSE.
 *
 * zobrist.c: Polyglot-compatible Zobrist keys.
 */
#include "board/zobrist.h"

ARB_HIDDEN const uint64_t arb__polyglot_random[781] = {
#include "board/polyglot_random.inc"
};

uint64_t arb__zob_castling(const arb_position *pos) {
  uint64_t k = 0;
  arb_bitboard rooks = pos->castling_rooks;
  while (rooks)
    k ^= arb__zob_castle_rook(pos, arb__pop_lsb(&rooks));
  return k;
}

uint64_t arb_zobrist_compute(const arb_position *pos) {
  uint64_t k = 0;
  arb_bitboard occ = pos->by_type[0];
  while (occ) {
    arb_square sq = arb__pop_lsb(&occ);
    k ^= arb__zob_piece(pos->board[sq], sq);
  }
  k ^= arb__zob_castling(pos);
  if (pos->ep_square != ARB_NO_SQUARE) k ^= arb__zob_ep(pos->ep_square);
  if (pos->turn == ARB_WHITE) k ^= ARB_ZOB_TURN;
  return k;
}
