/* Arbiter — MIT licence, see LICENSE.
 *
 * make.h (internal): the body of arb_make_move, inline so that perft's last made ply (movegen.c)
 * gets it without a call and without the key, arb_make_move (position.c) and the rules layer's
 * searches, which make a move at every node (the helpmate search and the enumeration of reachable
 * positions: winnable.c, dead.c), with it.
 */
#ifndef ARB_BOARD_MAKE_H
#define ARB_BOARD_MAKE_H

#include "board/board_internal.h"
#include "board/zobrist.h"

/* The move made on p, undo information into u; with `keyed` 0 (a constant: the compiler keeps
 * one copy of each) the Zobrist key is not stored, so its computation (table reads only) is
 * compiled out and the key is left as it was — for a position that is only counted (perft's
 * last made ply), never hashed or compared. */
static inline __attribute__((always_inline)) void arb__make(arb_position *p, arb_move m,
                                                            arb_undo *u, const int keyed) {
  const int us = p->turn, them = us ^ 1;
  uint64_t k = p->key ^ ARB_ZOB_TURN;
  u->key = p->key;
  u->castling_rooks = p->castling_rooks;
  u->halfmove_clock = p->halfmove_clock;
  u->ep_square = p->ep_square;
  u->captured = ARB_NO_PIECE;
  u->ep_target = p->ep_target;
  p->ep_target = 0;
  if (p->ep_square != ARB_NO_SQUARE) k ^= arb__zob_ep(p->ep_square);
  p->ep_square = ARB_NO_SQUARE;
  if (p->halfmove_clock < UINT16_MAX) p->halfmove_clock++; /* saturates, never wraps to 0 */
  if (us == ARB_BLACK) p->fullmove_number++;
  p->turn = (uint8_t)them;
  if (m == ARB_MOVE_NULL) {
    if (keyed) p->key = k;
    return;
  }
  const arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
  const unsigned kind = ARB_MOVE_KIND(m);
  const arb_piece pc = p->board[from];
  const arb_piece_type type = ARB_PIECE_TYPE(pc);

  /* Castling rights first, while the kings still stand where the rights were granted. */
  if (p->castling_rooks) {
    arb_bitboard touched = ARB_BB(from) | ARB_BB(to);
    if (type == ARB_KING) touched |= ARB_RANK_BB(us == ARB_WHITE ? 0 : 7);
    arb_bitboard lost = p->castling_rooks & touched;
    if (lost) {
      for (arb_bitboard b = lost; b;)
        k ^= arb__zob_castle_rook(p, arb__pop_lsb(&b));
      p->castling_rooks ^= lost;
    }
  }

  if (kind == ARB_MOVE_CASTLING) {
    arb_square kto = arb__castle_king_to(us, from, to), rto = arb__castle_rook_to(us, from, to);
    arb_piece rook = p->board[to];
    arb__remove(p, from);
    arb__remove(p, to);
    arb__put(p, pc, kto);
    arb__put(p, rook, rto);
    k ^= arb__zob_piece(pc, from) ^ arb__zob_piece(pc, kto) ^ arb__zob_piece(rook, to) ^
         arb__zob_piece(rook, rto);
    if (keyed) p->key = k;
    return;
  }

  arb_square capsq = kind == ARB_MOVE_EN_PASSANT ? (arb_square)(to ^ 8) : to;
  arb_piece cap = p->board[capsq];
  if (cap) {
    u->captured = cap;
    arb__remove(p, capsq);
    k ^= arb__zob_piece(cap, capsq);
    p->halfmove_clock = 0;
  }
  arb__move_piece(p, from, to);
  k ^= arb__zob_piece(pc, from) ^ arb__zob_piece(pc, to);
  if (type == ARB_PAWN) {
    p->halfmove_clock = 0;
    if ((from ^ to) == 16) {
      arb_square ep = (arb_square)((from + to) / 2);
      p->ep_target = ep;
      if (arb__ep_capturable(p, them, ep)) {
        p->ep_square = ep;
        k ^= arb__zob_ep(ep);
      }
    } else if (kind == ARB_MOVE_PROMOTION) {
      arb_piece promo = ARB_MAKE_PIECE(us, ARB_MOVE_PROMO(m));
      arb__remove(p, to);
      arb__put(p, promo, to);
      k ^= arb__zob_piece(pc, to) ^ arb__zob_piece(promo, to);
    }
  }
  if (keyed) p->key = k;
}

#endif
