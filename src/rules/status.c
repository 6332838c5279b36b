/* Arbiter — MIT licence, see LICENSE.
 *
 * status.c: checkmate, stalemate and the insufficient-material classes (RULES.md R13).
 */
#include "arbiter/status.h"
#include "board/bitboard.h"

int arb_is_checkmate(const arb_position *pos) {
  return arb_in_check(pos) && !arb_has_legal_move(pos);
}

int arb_is_stalemate(const arb_position *pos) {
  return !arb_in_check(pos) && !arb_has_legal_move(pos);
}

arb_material_class arb_material_class_of(const arb_position *p) {
  if (p->by_type[ARB_PAWN] | p->by_type[ARB_ROOK] | p->by_type[ARB_QUEEN])
    return ARB_MATERIAL_SUFFICIENT;
  arb_bitboard knights = p->by_type[ARB_KNIGHT], bishops = p->by_type[ARB_BISHOP];
  int minors = arb__popcount(knights | bishops);
  if (minors == 0) return ARB_MATERIAL_KK;
  if (minors == 1) return knights ? ARB_MATERIAL_KNK : ARB_MATERIAL_KBK;
  /* Two or more minor pieces: dead only if they are all bishops on one square colour (a
   * mated king would always keep a flight square of the other colour). */
  if (!knights && (!(bishops & ARB_LIGHT_SQUARES) || !(bishops & ARB_DARK_SQUARES)))
    return ARB_MATERIAL_BISHOPS_ONE_COLOR;
  return ARB_MATERIAL_SUFFICIENT;
}

const char *arb_material_class_name(arb_material_class c) {
  switch (c) {
  case ARB_MATERIAL_SUFFICIENT: return "sufficient";
  case ARB_MATERIAL_KK: return "KvK";
  case ARB_MATERIAL_KBK: return "KBvK";
  case ARB_MATERIAL_KNK: return "KNvK";
  case ARB_MATERIAL_BISHOPS_ONE_COLOR: return "bishops_one_colour";
  }
  return "unknown";
}

int arb_is_insufficient_material(const arb_position *pos) {
  return arb_material_class_of(pos) != ARB_MATERIAL_SUFFICIENT;
}

int arb_cannot_mate_by_material(const arb_position *p, arb_color side) {
  const arb_bitboard mine = p->by_color[side], theirs = p->by_color[side ^ 1];
  if (mine & (p->by_type[ARB_PAWN] | p->by_type[ARB_ROOK] | p->by_type[ARB_QUEEN])) return 0;
  arb_bitboard knights = mine & p->by_type[ARB_KNIGHT], bishops = mine & p->by_type[ARB_BISHOP];
  if (!knights && !bishops) return 1; /* a lone king */
  const arb_bitboard their_kings_queens = p->by_type[ARB_KING] | p->by_type[ARB_QUEEN];
  if (knights && !bishops) {
    /* One knight against a king and queens only (RULES.md R22, (b)): no mate position exists.
     * The knight on n checks the king on k; the two squares next to both are flights.  No queen
     * may stand on them (next to n, it takes the knight: nothing can pin it) and the knight does
     * not cover them, so the winner's king does: it stands on the one square next to both that is
     * not next to k (n aside), two steps from k straight along the knight's long leg.  Then the
     * two flights beside k across that leg are neither covered (by the king or the knight) nor
     * holdable: a queen there sees n through one of the two empty flights.  They cannot both be
     * off the board.  Enumerated in test_dead for one to three queens on the flights. */
    return !arb__more_than_one(knights) && !(theirs & ~their_kings_queens);
  }
  if (bishops && !knights) {
    /* Bishops on one square colour (of both sides) against a king with no knight and no pawn
     * (RULES.md, the time-forfeit table; CHA's static rule).  Only the bishops can give check,
     * one at a time (two bishops of one colour never check together), so a mated king stands on
     * their colour, on k, checked along a diagonal through its neighbour d (or from d).  The two
     * squares next to both k and d are of the other colour: no bishop reaches them, and the
     * winner's king touches at most one of them without touching k.  So one holds a man of the
     * loser — not a knight or pawn (none), not a bishop (wrong colour): a rook or queen, one
     * orthogonal step from d, never pinned (it stands off the bishops' colour) — which takes the
     * checking bishop on d or blocks d.  No mate position exists; enumerating every K+B v K+R
     * and K+B v K+Q position finds none (test_dead). */
    arb_bitboard all_bishops = p->by_type[ARB_BISHOP];
    int one_colour = !(all_bishops & ARB_LIGHT_SQUARES) || !(all_bishops & ARB_DARK_SQUARES);
    return one_colour && !(theirs & (p->by_type[ARB_KNIGHT] | p->by_type[ARB_PAWN]));
  }
  return 0;
}
