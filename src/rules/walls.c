/* Arbiter — MIT licence, see LICENSE.
 *
 * walls.c: the static proof "fixed_pawns" — behind pawns that can never move, no square the
 * other king can reach can be a mate: the side's men can never attack it, or too few of its
 * flight squares can ever be covered or blocked.
 *
 * When every pawn is blocked head-on by a pawn, the pawns stay where they are for as long as no
 * pawn captures and none is captured.  While they stay, each man can only ever stand on the
 * squares of its "region": a flood fill from its square by its own moves, its own pawns blocking
 * it, an enemy pawn a square it could capture on (a "hit"), a king never stepping onto a square
 * an enemy pawn attacks; every other man is ignored, as if it had moved away, so the regions are
 * over-approximations.  Then, by induction on any sequence of legal moves, the pawns stay for
 * ever if (a) no region hits a pawn (no man can ever capture one) and (b) no enemy pawn, and no
 * region of an enemy piece, is on a square a pawn attacks (no pawn can ever capture; a king never
 * stands on one).
 * The squares a side can ever attack are those its pieces attack from their regions (pawns fixed
 * as blockers, the other men ignored); its pawns attack only squares the enemy king never enters,
 * and a king gives no check.  A mate needs the king on a square of its region that the winner
 * attacks, and each of its flights attacked by the winner or occupied by one of the loser's own
 * men, a different man for each: when the loser's men that could ever stand on those flights are
 * fewer than the flights, no mate there.  No such square at all: no mate ever.  (A bishop of the
 * wrong colour behind its own pawns, kings that cannot cross a wall, bishops of one colour that
 * would need the loser to block every square of the other.)  En passant on the board (a pawn
 * could move), a missing king or more than 16 of the loser's pieces answer "not proven".
 */
#include "arbiter/status.h"
#include "board/board_internal.h"
#include "rules/reach.h"

/* The region of a man of type t on `from` (see above); `hits` gathers the enemy pawns it could
 * capture, `attacks` the squares it attacks from its region. */
static arb_bitboard flood(arb_piece_type t, arb_square from, arb_bitboard own_pawns,
                          arb_bitboard enemy_pawns, arb_bitboard forbidden, arb_bitboard *hits,
                          arb_bitboard *attacks) {
  const arb_bitboard pawns = own_pawns | enemy_pawns;
  arb_bitboard region = ARB_BB(from), todo = region;
  while (todo) {
    const arb_bitboard a = arb__piece_attacks(t, arb__pop_lsb(&todo), pawns);
    *attacks |= a;
    const arb_bitboard to = a & ~own_pawns & ~forbidden;
    *hits |= to & enemy_pawns;
    todo |= to & ~enemy_pawns & ~region;
    region |= to & ~enemy_pawns;
  }
  return region;
}

static arb_bitboard pawn_attacks(arb_bitboard pawns, int color) {
  const arb_bitboard ahead = color == ARB_WHITE ? arb__north(pawns) : arb__south(pawns);
  return arb__east(ahead) | arb__west(ahead);
}

#define MAX_MEN 16 /* a side's men whose regions are kept one by one (more: "not proven") */

int arb__never_mates(const arb_position *p, int winner) {
  const arb_bitboard pawns = p->by_type[ARB_PAWN];
  if (p->ep_square != ARB_NO_SQUARE || !arb__pawns_locked(p)) return 0;
  for (int c = 0; c < 2; c++)
    if (arb__popcount(p->by_type[ARB_KING] & p->by_color[c]) != 1) return 0;
  const int loser = winner ^ 1;
  arb_bitboard own[2], hit = 0, piece_region[2] = {0, 0}, king_region[2], attacks[2] = {0, 0};
  arb_bitboard blocker[MAX_MEN]; /* the region of each of the loser's pieces */
  int blockers = 0;
  for (int c = 0; c < 2; c++)
    own[c] = pawns & p->by_color[c];
  for (int c = 0; c < 2; c++) {
    const arb_bitboard guarded = pawn_attacks(own[c ^ 1], c ^ 1); /* the king's no-go squares */
    arb_bitboard ignored = 0;
    king_region[c] =
        flood(ARB_KING, arb__king_sq(p, c), own[c], own[c ^ 1], guarded, &hit, &ignored);
    for (arb_bitboard b = p->by_color[c] & ~pawns & ~p->by_type[ARB_KING]; b;) {
      const arb_square sq = arb__pop_lsb(&b);
      const arb_bitboard r =
          flood(ARB_PIECE_TYPE(p->board[sq]), sq, own[c], own[c ^ 1], 0, &hit, &attacks[c]);
      piece_region[c] |= r;
      if (c == loser) {
        if (blockers == MAX_MEN) return 0;
        blocker[blockers++] = r;
      }
    }
  }
  if (hit) return 0;          /* (a) a pawn could be captured */
  for (int c = 0; c < 2; c++) /* (b) a pawn could capture a piece or a pawn */
    if (pawn_attacks(own[c], c) & (piece_region[c ^ 1] | own[c ^ 1])) return 0;
  /* Where could the loser's king be mated?  On a square of its region that a piece of the winner
   * attacks (a check), with every flight covered: attacked by the winner (its pieces from their
   * regions, its king from its region, its pawns), or blocked by one of the loser's own men —
   * each man blocks one square, its own pawns stand where they are. */
  arb_bitboard cover = attacks[winner] | pawn_attacks(own[winner], winner);
  for (arb_bitboard b = king_region[winner]; b;)
    cover |= arb__tab.king[arb__pop_lsb(&b)];
  for (arb_bitboard b = king_region[loser] & attacks[winner]; b;) {
    const arb_bitboard open = arb__tab.king[arb__pop_lsb(&b)] & ~cover;
    int can_block = arb__popcount(open & own[loser]);
    for (int i = 0; i < blockers; i++)
      can_block += (blocker[i] & open) != 0;
    if (can_block >= arb__popcount(open)) return 0; /* a mate there is not excluded */
  }
  return 1;
}
