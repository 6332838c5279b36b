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
 * would need the loser to block every square of the other.)
 * "pawn_lanes" is the same where some pawns can still move: each only along its file towards
 * the other side's pawns, within its lane (pawn_lanes below); the pawns that never move block
 * lines, a region may cross a lane of its own side, any square of an enemy lane is a pawn to
 * capture (a king's only where a pawn that never moves guards it), and a pawn attacks from every
 * square of its lane (checks and cover too).  En passant on the board, a missing king or more
 * than 16 of the loser's men answer "not proven".
 */
#include "arbiter/status.h"
#include "board/board_internal.h"
#include "rules/reach.h"

/* The region of a man of type t on `from` (see above): `occ` blocks its lines (the pawns that
 * never move), it never steps onto `own` (its own pawns that never move) nor `forbidden`; `hits`
 * gathers the squares of `enemy` (every square an enemy pawn may ever stand on) it could capture
 * on, `attacks` the squares it attacks from its region. */
static arb_bitboard flood(arb_piece_type t, arb_square from, arb_bitboard occ, arb_bitboard own,
                          arb_bitboard enemy, arb_bitboard forbidden, arb_bitboard *hits,
                          arb_bitboard *attacks) {
  return arb__flood((int)t, ARB_BB(from), occ, own, enemy, forbidden, hits, attacks);
}

#define MAX_MEN 16 /* a side's men whose regions are kept one by one (more: "not proven") */

/* The lanes of the pawns: lane[sq] is every square the pawn on sq may ever stand on while no
 * pawn captures or is captured, seg[c] their union for colour c.  0 when some pawn could run
 * free (a file whose lowest pawn is Black's or whose highest is White's, or a Black pawn below a
 * White one it does not face).  A file is read bottom up as runs of White pawns then Black ones:
 * without a capture pawns never pass each other on a file, White's only go up and Black's only
 * down, so in a run of a White pawns below b Black ones, the lowest Black one never rises above
 * its rank lb and the highest White one never sinks below its rank hw: the White pawn i (from
 * the bottom, 0..a-1) stays between its rank and lb - (a - i), the Black pawn j (0..b-1) between
 * hw + 1 + j and its rank; two runs never meet (the Black pawns of the lower one move down, away
 * from the White ones of the upper one). */
static int pawn_lanes(const arb_position *p, arb_bitboard lane[64], arb_bitboard seg[2]) {
  if (!arb__pawns_face(p)) return 0;
  seg[0] = seg[1] = 0;
  for (int f = 0; f < 8; f++) {
    int rank[8], color[8], n = 0;
    for (int r = 0; r < 8; r++) {
      const arb_square sq = (arb_square)(r * 8 + f);
      if (ARB_PIECE_TYPE(p->board[sq]) != ARB_PAWN) continue;
      rank[n] = r;
      color[n++] = ARB_PIECE_COLOR(p->board[sq]);
    }
    for (int k = 0; k < n;) { /* one run: White pawns k..k+a-1, Black ones k+a..k+a+b-1 */
      int a = 0, b = 0;
      while (k + a < n && color[k + a] == ARB_WHITE)
        a++;
      while (k + a + b < n && color[k + a + b] == ARB_BLACK)
        b++;
      if (!a || !b) return 0;
      const int lb = rank[k + a], hw = rank[k + a - 1];
      for (int i = 0; i < a + b; i++) {
        const int from = i < a ? rank[k + i] : hw + 1 + (i - a),
                  to = i < a ? lb - (a - i) : rank[k + i];
        arb_bitboard l = 0;
        for (int r = from; r <= to; r++)
          l |= ARB_BB(r * 8 + f);
        lane[rank[k + i] * 8 + f] = l;
        seg[color[k + i]] |= l;
      }
      k += a + b;
    }
  }
  return 1;
}

/* The squares a fill from gen reaches moving north (south) one square at a time through the
 * squares of pass (Kogge-Stone). */
static arb_bitboard fill_north(arb_bitboard gen, arb_bitboard pass) {
  gen |= pass & (gen << 8);
  pass &= pass << 8;
  gen |= pass & (gen << 16);
  pass &= pass << 16;
  return gen | (pass & (gen << 32));
}

static arb_bitboard fill_south(arb_bitboard gen, arb_bitboard pass) {
  gen |= pass & (gen >> 8);
  pass &= pass >> 8;
  gen |= pass & (gen >> 16);
  pass &= pass >> 16;
  return gen | (pass & (gen >> 32));
}

int arb__never_mates(const arb_position *p, int winner) {
  const arb_bitboard pawns = p->by_type[ARB_PAWN];
  if (p->ep_square != ARB_NO_SQUARE || !pawns) return 0;
  for (int c = 0; c < 2; c++)
    if (arb__popcount(p->by_type[ARB_KING] & p->by_color[c]) != 1) return 0;
  if (!arb__pawns_face(p)) return 0;
  /* When the pawns face, the lanes' union for White is every square a White pawn reaches going
   * up until a Black pawn, and Black's the same downwards (pawn_lanes: in each run of a White
   * pawns below b Black ones, the White lanes cover its lowest White pawn's rank up to just below
   * its lowest Black one, the Black lanes just above its highest White one up to its highest
   * Black one): two fills, and (b) below for pawns alone, before the lanes one by one. */
  const arb_bitboard white = pawns & p->by_color[ARB_WHITE], black = pawns & p->by_color[ARB_BLACK];
  const arb_bitboard up = fill_north(white, ~black), down = fill_south(black, ~white);
  if ((arb__pawns_attacks(up, ARB_WHITE) & down) || (arb__pawns_attacks(down, ARB_BLACK) & up))
    return 0;
  arb_bitboard lane[64], seg[2];
  if (!pawn_lanes(p, lane, seg)) return 0;
  /* (b) below for pawns alone first: it rejects most positions of real games cheaply. */
  if ((arb__pawns_attacks(seg[ARB_WHITE], ARB_WHITE) & seg[ARB_BLACK]) ||
      (arb__pawns_attacks(seg[ARB_BLACK], ARB_BLACK) & seg[ARB_WHITE]))
    return 0;
  const int loser = winner ^ 1;
  /* fixed[c]: the pawns of colour c that never move (a lane of one square). */
  arb_bitboard fixed[2] = {0, 0}, hit = 0, piece_region[2] = {0, 0}, king_region[2];
  arb_bitboard attacks[2] = {0, 0};
  arb_bitboard blocker[MAX_MEN]; /* the region (lane) of each of the loser's men but its king */
  int blockers = 0;
  for (arb_bitboard b = pawns; b;) {
    const arb_square sq = arb__pop_lsb(&b);
    const int c = ARB_PIECE_COLOR(p->board[sq]);
    if (lane[sq] == ARB_BB(sq)) fixed[c] |= ARB_BB(sq);
    if (c == loser) {
      if (blockers == MAX_MEN) return 0;
      blocker[blockers++] = lane[sq];
    }
  }
  const arb_bitboard occ = fixed[0] | fixed[1];
  for (int c = 0; c < 2; c++) {
    /* The king's no-go squares: those a pawn that never moves attacks. */
    const arb_bitboard guarded = arb__pawns_attacks(fixed[c ^ 1], c ^ 1);
    arb_bitboard ignored = 0;
    king_region[c] =
        flood(ARB_KING, arb__king_sq(p, c), occ, fixed[c], seg[c ^ 1], guarded, &hit, &ignored);
    for (arb_bitboard b = p->by_color[c] & ~pawns & ~p->by_type[ARB_KING]; b;) {
      const arb_square sq = arb__pop_lsb(&b);
      const arb_bitboard r =
          flood(ARB_PIECE_TYPE(p->board[sq]), sq, occ, fixed[c], seg[c ^ 1], 0, &hit, &attacks[c]);
      piece_region[c] |= r;
      if (c == loser) {
        if (blockers == MAX_MEN) return 0;
        blocker[blockers++] = r;
      }
    }
  }
  if (hit) return 0;          /* (a) a pawn could be captured */
  for (int c = 0; c < 2; c++) /* (b) a pawn could capture a piece or a pawn (en passant too) */
    if (arb__pawns_attacks(seg[c], c) & (piece_region[c ^ 1] | seg[c ^ 1])) return 0;
  /* Where could the loser's king be mated?  On a square of its region that the winner attacks (a
   * check: a piece from its region, or a pawn from its lane), with every flight covered: attacked
   * by the winner (its pieces and pawns as above, its king from its region), or blocked by one of
   * the loser's own men, each man (a pawn along its lane) on one square. */
  const arb_bitboard checks = attacks[winner] | arb__pawns_attacks(seg[winner], winner);
  arb_bitboard cover = checks;
  for (arb_bitboard b = king_region[winner]; b;)
    cover |= arb__tab.king[arb__pop_lsb(&b)];
  for (arb_bitboard b = king_region[loser] & checks; b;) {
    const arb_bitboard open = arb__tab.king[arb__pop_lsb(&b)] & ~cover;
    int can_block = 0;
    for (int i = 0; i < blockers; i++)
      can_block += (blocker[i] & open) != 0;
    if (can_block >= arb__popcount(open)) return 0; /* a mate there is not excluded */
  }
  return (fixed[0] | fixed[1]) == pawns ? 1 : 2;
}
