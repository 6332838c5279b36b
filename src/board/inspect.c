/* Arbiter — MIT licence, see LICENSE.
 *
 * inspect.c: questions about a position and a move that move generation does not answer —
 * pseudo-legal moves, pins and their rays, what kind of move a move is, and which Chess960
 * start position a position is.
 */
#include <string.h>

#include "board/board_internal.h"

int arb_generate_pseudo_legal(const arb_position *pos, arb_move *moves) {
  int n = arb__generate_pseudo(pos, moves), kept = 0;
  /* The internal generator leaves castling's king-safety conditions to its caller. */
  for (int i = 0; i < n; i++)
    if (ARB_MOVE_KIND(moves[i]) != ARB_MOVE_CASTLING || arb_is_legal(pos, moves[i]))
      moves[kept++] = moves[i];
  return kept;
}

/* The enemy sliders on a line through c's king that could pin: each with at most the king's own
 * line to it (pieces in between are the caller's business). */
static arb_bitboard snipers_of(const arb_position *p, int c, arb_square k) {
  const arb_bitboard enemy = p->by_color[c ^ 1];
  return enemy & ((arb__rook_lines(k) & (p->by_type[ARB_ROOK] | p->by_type[ARB_QUEEN])) |
                  (arb__bishop_lines(k) & (p->by_type[ARB_BISHOP] | p->by_type[ARB_QUEEN])));
}

arb_bitboard arb_pinned(const arb_position *pos, arb_color c) {
  if ((c != ARB_WHITE && c != ARB_BLACK) || !(pos->by_type[ARB_KING] & pos->by_color[c])) return 0;
  const arb_square k = arb__king_sq(pos, c);
  arb_bitboard pinned = 0, snipers = snipers_of(pos, c, k);
  while (snipers) {
    arb_bitboard b = arb__tab.between[k][arb__pop_lsb(&snipers)] & pos->by_type[0];
    if (b && !arb__more_than_one(b) && (b & pos->by_color[c])) pinned |= b;
  }
  return pinned;
}

arb_bitboard arb_pin_ray(const arb_position *pos, arb_color c, arb_square sq) {
  const arb_bitboard all = ~(arb_bitboard)0;
  if ((c != ARB_WHITE && c != ARB_BLACK) || sq > 63 || !(pos->by_type[ARB_KING] & pos->by_color[c]))
    return all;
  const arb_square k = arb__king_sq(pos, c);
  arb_bitboard snipers = snipers_of(pos, c, k);
  /* As python-chess: sq is pinned when it alone (occupied or not) stands between the king and
   * an enemy slider on their line; the ray is that whole line. */
  while (snipers) {
    arb_square s = arb__pop_lsb(&snipers);
    if ((arb__tab.between[k][s] & (pos->by_type[0] | ARB_BB(sq))) == ARB_BB(sq))
      return arb__tab.line[k][s];
  }
  return all;
}

unsigned arb_move_info(const arb_position *pos, arb_move m) {
  if (!arb_is_legal(pos, m)) return 0;
  const unsigned kind = ARB_MOVE_KIND(m);
  const arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
  const int pawn = ARB_PIECE_TYPE(pos->board[from]) == ARB_PAWN;
  unsigned info = 0;
  if (kind == ARB_MOVE_EN_PASSANT) info |= ARB_MOVE_IS_EN_PASSANT | ARB_MOVE_IS_CAPTURE;
  if (kind == ARB_MOVE_CASTLING) info |= ARB_MOVE_IS_CASTLING;
  if (kind == ARB_MOVE_PROMOTION) info |= ARB_MOVE_IS_PROMOTION;
  if (kind != ARB_MOVE_CASTLING && pos->board[to]) info |= ARB_MOVE_IS_CAPTURE;
  if (pawn || (info & ARB_MOVE_IS_CAPTURE)) info |= ARB_MOVE_IS_ZEROING;
  /* The rights arb_make_move takes away: of the rooks on from/to, and all of a king's own. */
  arb_bitboard touched = ARB_BB(from) | ARB_BB(to);
  if (ARB_PIECE_TYPE(pos->board[from]) == ARB_KING)
    touched |= ARB_RANK_BB(pos->turn == ARB_WHITE ? 0 : 7);
  if ((info & ARB_MOVE_IS_ZEROING) || (pos->castling_rooks & touched) || arb_ep_legal(pos))
    info |= ARB_MOVE_IS_IRREVERSIBLE;
  if (arb_gives_check(pos, m)) info |= ARB_MOVE_GIVES_CHECK;
  return info;
}

int arb_position_chess960_number(const arb_position *pos) {
  const arb_bitboard full = ARB_RANK_BB(0) | ARB_RANK_BB(7);
  if (pos->turn != ARB_WHITE || pos->ep_square != ARB_NO_SQUARE || pos->ep_target ||
      pos->by_color[ARB_WHITE] != (ARB_RANK_BB(0) | ARB_RANK_BB(1)) ||
      pos->by_color[ARB_BLACK] != (ARB_RANK_BB(6) | ARB_RANK_BB(7)) ||
      pos->by_type[ARB_PAWN] != (ARB_RANK_BB(1) | ARB_RANK_BB(6)) ||
      pos->castling_rooks != (pos->by_type[ARB_ROOK] & full))
    return -1;
  /* 960 candidates, each a few byte compares: simpler than decoding, and never wrong. */
  for (int number = 0; number < 960; number++) {
    arb_piece_type rank[8];
    arb__chess960_rank(number, rank);
    int f = 0;
    while (f < 8 && pos->board[f] == ARB_MAKE_PIECE(ARB_WHITE, rank[f]) &&
           pos->board[56 + f] == ARB_MAKE_PIECE(ARB_BLACK, rank[f]))
      f++;
    if (f == 8) return number;
  }
  return -1;
}
