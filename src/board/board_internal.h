/* Arbiter — MIT licence, see LICENSE.
 *
 * board_internal.h (internal): placing and removing pieces, shared by position.c and fen.c.
 * These keep board[], by_type[] and by_color[] consistent; keys are the caller's business.
 */
#ifndef ARB_BOARD_INTERNAL_H
#define ARB_BOARD_INTERNAL_H

#include "board/bitboard.h"

static inline void arb__put(arb_position *p, arb_piece pc, arb_square sq) {
  arb_bitboard b = ARB_BB(sq);
  p->board[sq] = pc;
  p->by_type[0] |= b;
  p->by_type[ARB_PIECE_TYPE(pc)] |= b;
  p->by_color[ARB_PIECE_COLOR(pc)] |= b;
}

static inline void arb__remove(arb_position *p, arb_square sq) {
  arb_piece pc = p->board[sq];
  arb_bitboard b = ARB_BB(sq);
  p->board[sq] = ARB_NO_PIECE;
  p->by_type[0] ^= b;
  p->by_type[ARB_PIECE_TYPE(pc)] ^= b;
  p->by_color[ARB_PIECE_COLOR(pc)] ^= b;
}

static inline void arb__move_piece(arb_position *p, arb_square from, arb_square to) {
  arb_piece pc = p->board[from];
  arb_bitboard b = ARB_BB(from) | ARB_BB(to);
  p->board[from] = ARB_NO_PIECE;
  p->board[to] = pc;
  p->by_type[0] ^= b;
  p->by_type[ARB_PIECE_TYPE(pc)] ^= b;
  p->by_color[ARB_PIECE_COLOR(pc)] ^= b;
}

/* Where king and rook end up when castling with the rook on rook_sq (any start files). */
static inline arb_square arb__castle_king_to(int color, arb_square king_sq, arb_square rook_sq) {
  return (arb_square)((color == ARB_WHITE ? 0 : 56) + (rook_sq > king_sq ? 6 : 2));
}
static inline arb_square arb__castle_rook_to(int color, arb_square king_sq, arb_square rook_sq) {
  return (arb_square)((color == ARB_WHITE ? 0 : 56) + (rook_sq > king_sq ? 5 : 3));
}

/* 1 if ep could be the en passant square of the side to move: on the third rank from the
 * opponent's side, the opponent's pawn just past it, it and the square behind it empty (what a
 * double step leaves).  Whether a pawn can take is a separate question (arb__ep_capturable). */
static inline int arb__ep_plausible(const arb_position *p, arb_square ep) {
  if (ep > 63) return 0;
  const int us = p->turn, them = us ^ 1;
  const arb_square origin = (arb_square)(us == ARB_WHITE ? ep + 8 : ep - 8);
  return ARB_RANK_OF(ep) == (us == ARB_WHITE ? 5 : 2) &&
         p->board[ep ^ 8] == ARB_MAKE_PIECE(them, ARB_PAWN) && p->board[ep] == ARB_NO_PIECE &&
         p->board[origin] == ARB_NO_PIECE;
}

/* 1 if a pawn of colour `by` attacks ep (a pseudo-legal en passant capture exists): whether a
 * double step leaves an en passant square (the Polyglot convention). */
static inline int arb__ep_capturable(const arb_position *p, int by, arb_square ep) {
  return (arb__tab.pawn[by ^ 1][ep] & p->by_type[ARB_PAWN] & p->by_color[by]) != 0;
}

/* 1 if castling with these rooks needs Chess960 rules: a castling king off the e-file or a
 * castling rook off the a- and h-files (the rule FEN reading and board editing share).  Every
 * colour with a right must have a king. */
static inline int arb__castling_is_960(const arb_position *p, arb_bitboard rooks) {
  while (rooks) {
    arb_square rsq = arb__pop_lsb(&rooks);
    arb_square k = arb__king_sq(p, rsq >= 56);
    if ((ARB_FILE_OF(rsq) != 0 && ARB_FILE_OF(rsq) != 7) || ARB_FILE_OF(k) != 4) return 1;
  }
  return 0;
}

/* The back rank of Chess960 start position `number` (0..959) (position.c). */
void arb__chess960_rank(int number, arb_piece_type rank[8]) ARB_HIDDEN;

/* The move generator, internal entry points (movegen.c). */
int arb__generate_pseudo(const arb_position *p, arb_move *moves) ARB_HIDDEN;

/* 1 if the move m — which must be pseudo-legal and not castling: the side to move's piece on
 * from can go to `to` by the piece's own rules — leaves the mover's king unattacked.  A few
 * bitboard operations instead of generating every move: what the SAN reader uses to test the
 * one or two pieces that a SAN token can name, and arb_is_legal — one-off questions, so the
 * small slider tables (arb__rook_attacks_small), which stay cached between them. */
static inline int arb__pseudo_move_legal(const arb_position *p, arb_move m) {
  const int us = p->turn, them = us ^ 1;
  const arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
  arb_bitboard captured = ARB_BB(to) & p->by_color[them];
  if (ARB_MOVE_KIND(m) == ARB_MOVE_EN_PASSANT) captured = ARB_BB(to ^ 8);
  const arb_bitboard occ = (p->by_type[0] & ~ARB_BB(from) & ~captured) | ARB_BB(to);
  const arb_square ksq = ARB_PIECE_TYPE(p->board[from]) == ARB_KING ? to : arb__king_sq(p, us);
  return (arb__attackers_by_small(p, ksq, them, occ) & ~captured) == 0;
}

/* What "does this move give check?" needs, computed once per position: the squares from which
 * each piece type of the side to move would attack the enemy king, and the side to move's
 * pieces that alone stand between that king and one of their own sliders (moving off the line
 * uncovers a check). */
typedef struct arb__check_info {
  arb_bitboard squares[7]; /* by piece type; [ARB_KING] = 0 */
  arb_bitboard blockers;
  arb_square king; /* the enemy king */
} arb__check_info;

static inline void arb__check_info_init(const arb_position *p, arb__check_info *ci) {
  const int us = p->turn, them = us ^ 1;
  const arb_square ek = arb__king_sq(p, them);
  const arb_bitboard occ = p->by_type[0], own = p->by_color[us];
  ci->king = ek;
  ci->squares[0] = ci->squares[ARB_KING] = 0;
  ci->squares[ARB_PAWN] = arb__tab.pawn[them][ek];
  ci->squares[ARB_KNIGHT] = arb__tab.knight[ek];
  ci->squares[ARB_BISHOP] = arb__bishop_attacks(ek, occ);
  ci->squares[ARB_ROOK] = arb__rook_attacks(ek, occ);
  ci->squares[ARB_QUEEN] = ci->squares[ARB_BISHOP] | ci->squares[ARB_ROOK];
  arb_bitboard snipers =
      (arb__rook_lines(ek) & (p->by_type[ARB_ROOK] | p->by_type[ARB_QUEEN]) & own) |
      (arb__bishop_lines(ek) & (p->by_type[ARB_BISHOP] | p->by_type[ARB_QUEEN]) & own);
  ci->blockers = 0;
  while (snipers) {
    arb_bitboard b = arb__tab.between[ek][arb__pop_lsb(&snipers)] & occ;
    if (b && !arb__more_than_one(b) && (b & own)) ci->blockers |= b;
  }
}

/* arb_generate_legal, and checks[i]: whether moves[i] gives check (ci: arb__check_info_init of
 * pos).  Both arrays need room for ARB_MAX_MOVES; entries past the count may be overwritten. */
int arb__generate_checks(const arb_position *pos, const arb__check_info *ci, arb_move *moves,
                         unsigned char *checks) ARB_HIDDEN;

#endif
