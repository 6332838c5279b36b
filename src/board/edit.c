/* Arbiter — MIT licence, see LICENSE.
 *
 * edit.c: setting up a position piece by piece.  Validation is arb_position_validate
 * (notation/fen.c), the one FEN reading uses.
 */
#include <string.h>

#include "board/board_internal.h"
#include "board/zobrist.h"

/* The key of a position under edit.  A castling right only has a Polyglot key relative to its
 * king, so rights of a side without exactly one king are left out (validation refuses such a
 * position anyway).  The en passant file counts where a pawn can take, as after a move. */
static void rekey(arb_position *p) {
  arb_position k = *p;
  for (int c = 0; c < 2; c++)
    if (arb__popcount(p->by_type[ARB_KING] & p->by_color[c]) != 1)
      k.castling_rooks &= ~ARB_RANK_BB(c == ARB_WHITE ? 0 : 7);
  k.ep_square = ARB_NO_SQUARE;
  if (p->ep_target && arb__ep_plausible(p, p->ep_target) &&
      arb__ep_capturable(p, p->turn, p->ep_target))
    k.ep_square = p->ep_target;
  p->ep_square = k.ep_square;
  p->key = arb_zobrist_compute(&k);
}

void arb_position_clear(arb_position *pos) {
  arb_init();
  memset(pos, 0, sizeof *pos);
  pos->turn = ARB_WHITE;
  pos->ep_square = ARB_NO_SQUARE;
  pos->fullmove_number = 1;
  rekey(pos);
}

static int is_piece(arb_piece pc) {
  return (pc & ~15u) == 0 && ARB_PIECE_TYPE(pc) >= ARB_PAWN && ARB_PIECE_TYPE(pc) <= ARB_KING;
}

arb_status arb_position_put(arb_position *pos, arb_square sq, arb_piece piece) {
  if (sq > 63 || (piece != ARB_NO_PIECE && !is_piece(piece))) return ARB_ERR_ARGUMENT;
  if (pos->board[sq]) arb__remove(pos, sq);
  if (piece) arb__put(pos, piece, sq);
  rekey(pos);
  return ARB_OK;
}

arb_piece arb_position_remove(arb_position *pos, arb_square sq) {
  if (sq > 63) return ARB_NO_PIECE;
  arb_piece was = pos->board[sq];
  arb_position_put(pos, sq, ARB_NO_PIECE);
  return was;
}

arb_status arb_position_set_turn(arb_position *pos, arb_color turn) {
  if (turn != ARB_WHITE && turn != ARB_BLACK) return ARB_ERR_ARGUMENT;
  pos->turn = (uint8_t)turn;
  rekey(pos);
  return ARB_OK;
}

arb_status arb_position_set_castling(arb_position *pos, arb_bitboard rooks) {
  if (rooks & ~(ARB_RANK_BB(0) | ARB_RANK_BB(7))) return ARB_ERR_ARGUMENT;
  pos->castling_rooks = rooks;
  arb_bitboard judged = 0;
  for (int c = 0; c < 2; c++)
    if (pos->by_type[ARB_KING] & pos->by_color[c]) judged |= rooks & ARB_RANK_BB(c ? 7 : 0);
  if (arb__castling_is_960(pos, judged)) pos->chess960 = 1;
  rekey(pos);
  return ARB_OK;
}

void arb_position_set_chess960(arb_position *pos, int chess960) { pos->chess960 = chess960 != 0; }

arb_status arb_position_set_ep(arb_position *pos, arb_square sq) {
  if (sq != ARB_NO_SQUARE && (sq > 63 || (ARB_RANK_OF(sq) != 2 && ARB_RANK_OF(sq) != 5)))
    return ARB_ERR_ARGUMENT;
  pos->ep_target = sq == ARB_NO_SQUARE ? 0 : sq;
  rekey(pos);
  return ARB_OK;
}

arb_status arb_position_set_counters(arb_position *pos, unsigned halfmove_clock,
                                     unsigned long fullmove_number) {
  if (halfmove_clock > 65535 || fullmove_number < 1 || fullmove_number > 100000000)
    return ARB_ERR_ARGUMENT;
  pos->halfmove_clock = (uint16_t)halfmove_clock;
  pos->fullmove_number = (uint32_t)fullmove_number;
  return ARB_OK;
}
