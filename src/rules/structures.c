/* Arbiter — MIT licence, see LICENSE.
 *
 * structures.c: the static proof "pawn_structures" — every pawn structure the game can ever
 * reach is listed, and behind none of them could the other king be mated.
 *
 * An abstraction of the game, sound by over-approximation.  A state is one placement of the
 * pawns (both colours, exact).  Every other man — kings, pieces, promoted pieces — is a set of
 * squares, its "region": a flood fill by its own moves in which only pawns block lines, it never
 * steps onto its own pawns, an enemy pawn is a square it could capture on (a "hit"), and a king
 * never steps onto a square an enemy pawn attacks (walls.c's regions, one per state).  Pieces
 * are never removed: a position with a man more can do everything the one without can (no man
 * blocks a line here, and more men only mean more captures, checks and blockers), so ignoring a
 * capture of a piece only over-approximates.  From a state, the successors are:
 * - a man's capture of a pawn it hits (the pawn goes, the man's region grows by its square),
 *   unless the capture ends the game without a mate of the loser (capture_ends_game: the side
 *   that loses the pawn has only its king and pawns left, and no move wherever its king stands —
 *   the king that takes the last free pawn and stalemates);
 * - a pawn's step or double step onto squares no pawn holds (pieces are assumed to step aside),
 *   and en passant after a double step beside an enemy pawn;
 * - a pawn's capture of an enemy pawn, or on a square of an enemy piece's region;
 * - a promotion: the pawn becomes a piece that moves as a queen and as a knight, counted.
 * Regions carry over from a state to its successors (a man is where it was when the pawns last
 * changed), and when a state is reached again its regions grow by union, until nothing grows:
 * a fixpoint, so that every real sequence of legal moves is followed by a path of states whose
 * regions hold every man's square.  In each state, a mate of the loser needs its king on a
 * square of its region that the winner's last move attacks — a piece from its region (lines
 * through any square but a pawn's), a promoted piece, or a pawn that has just arrived (a pawn
 * that stood there before cannot give check: the king could not have stepped into it) — and each
 * flight attacked by the winner (pieces, pawns, its king from its region) or held by one of the
 * loser's own men, a different man for each (a pawn on its square, a piece from its region).
 * When the loser has nothing but its king and pawns, and its last move was a king move inside
 * the structure, that king came to its square from a neighbour where it stood with the winner's
 * king not next to it: unless the winner's king made the last move (a discovered check), that
 * neighbour must be covered by another man (the tempo rule, no_mate_here).
 * Men that can neither move nor be taken while a structure lasts (found as a greatest fixpoint
 * in expand: a king boxed in by its own rook and bishop, say) block lines and pawns there.
 * When no state allows a mate, the side can never mate.
 * Not proven (0): a missing king, the side not to move in check, no legal move on the board
 * (the game is over: arb_winnability_of answers that first), pawns on a back rank, en
 * passant on the board, castling rights other than the standard king and rooks, more than
 * MAX_MEN men besides pawns, or more than MAX_STATES structures.  Memory: the states (malloc),
 * freed before returning.
 */
#include <stdlib.h>
#include <string.h>

#include "arbiter/status.h"
#include "board/board_internal.h"
#include "rules/reach.h"

#define MAX_STATES (1 << 16) /* pawn structures kept (the fixpoint gives up beyond) */
#define MAX_MEN 32           /* kings and pieces */
#define MAX_VISITS (4 * MAX_STATES)
#define PROMOTED 7 /* a promoted piece: a queen's and a knight's moves */

typedef struct man {
  uint8_t color, type;
} man;

typedef struct state {
  arb_bitboard pawns[2];
  arb_bitboard arrived[2]; /* squares attacked by a pawn that has just moved there */
  arb_bitboard promo[2];   /* the promoted pieces' region (all of a colour together) */
  uint8_t promos[2];       /* how many promotions (at most 16 each) */
  uint8_t queued;
  /* 1 when the loser's last move may have been other than a move of its king inside this
   * structure: some path here has the loser's pawn move or capture of a pawn after which only
   * the winner moved, or the first move is the winner's and mates at once (no_mate_here) */
  uint8_t loose;
} state;

typedef struct fix {
  int nmen;
  man men[MAX_MEN];
  int winner;
  int king_alone; /* the loser has nothing but its king and pawns, and no one may castle */
  state *st;
  arb_bitboard *region; /* region[s * nmen + i] */
  uint32_t *slot;       /* open addressing over states: 0 empty, else index + 1 */
  int count, cap;       /* states, and room for them (grown by doubling up to MAX_STATES) */
  int *queue;           /* a ring of cap states to expand */
  int qhead, qlen;
} fix;

#define SLOTS (2 * MAX_STATES)

/* Doubles the room for states (the queue's ring unrolled): 1 done, 0 full or out of memory. */
static int grow(fix *f) {
  const int cap = f->cap ? 2 * f->cap : 256;
  if (cap > MAX_STATES) return 0;
  state *st = realloc(f->st, (size_t)cap * sizeof *st);
  if (!st) return 0;
  f->st = st;
  arb_bitboard *region = realloc(f->region, (size_t)cap * (size_t)f->nmen * sizeof *region);
  if (!region) return 0;
  f->region = region;
  int *queue = malloc((size_t)cap * sizeof *queue);
  if (!queue) return 0;
  for (int i = 0; i < f->qlen; i++)
    queue[i] = f->queue[(f->qhead + i) % f->cap];
  free(f->queue);
  f->queue = queue;
  f->qhead = 0;
  f->cap = cap;
  return 1;
}

static arb_bitboard attacks_of(int type, arb_square sq, arb_bitboard occ) {
  if (type == PROMOTED) return arb__queen_attacks(sq, occ) | arb__tab.knight[sq];
  return arb__piece_attacks((arb_piece_type)type, sq, occ);
}

arb_bitboard arb__flood(int type, arb_bitboard from, arb_bitboard occ, arb_bitboard own,
                        arb_bitboard enemy, arb_bitboard forbidden, arb_bitboard *hits,
                        arb_bitboard *attacks) {
  arb_bitboard region = from, frontier = from;
  while (frontier) {
    const arb_bitboard a = attacks_of(type, arb__pop_lsb(&frontier), occ);
    *attacks |= a;
    const arb_bitboard to = a & ~own & ~forbidden;
    *hits |= to & enemy;
    frontier |= to & ~enemy & ~region;
    region |= to & ~enemy;
  }
  return region;
}

static uint64_t hash_pawns(const arb_bitboard p[2]) {
  uint64_t h = (p[0] * UINT64_C(0x9E3779B97F4A7C15)) ^ (p[1] * UINT64_C(0xC2B2AE3D27D4EB4F));
  return h ^ (h >> 29);
}

/* Adds the state c (regions creg) or merges it into the one with its pawns: 1 done, 0 full. */
static int merge(fix *f, const state *c, const arb_bitboard *creg) {
  size_t s = hash_pawns(c->pawns) & (SLOTS - 1);
  while (f->slot[s]) {
    const int k = (int)f->slot[s] - 1;
    state *e = &f->st[k];
    if (e->pawns[0] == c->pawns[0] && e->pawns[1] == c->pawns[1]) {
      int grew = 0;
      arb_bitboard *reg = &f->region[(size_t)k * (size_t)f->nmen];
      for (int i = 0; i < f->nmen; i++) {
        grew |= (creg[i] & ~reg[i]) != 0;
        reg[i] |= creg[i];
      }
      for (int col = 0; col < 2; col++) {
        grew |= (c->arrived[col] & ~e->arrived[col]) != 0 ||
                (c->promo[col] & ~e->promo[col]) != 0 || c->promos[col] > e->promos[col];
        e->arrived[col] |= c->arrived[col];
        e->promo[col] |= c->promo[col];
        if (c->promos[col] > e->promos[col]) e->promos[col] = c->promos[col];
      }
      grew |= c->loose > e->loose;
      e->loose |= c->loose;
      if (grew && !e->queued) {
        e->queued = 1;
        f->queue[(f->qhead + f->qlen++) % f->cap] = k;
      }
      return 1;
    }
    s = (s + 1) & (SLOTS - 1);
  }
  if (f->count == f->cap && !grow(f)) return 0;
  const int k = f->count++;
  f->st[k] = *c;
  f->st[k].queued = 1;
  memcpy(&f->region[(size_t)k * (size_t)f->nmen], creg, (size_t)f->nmen * sizeof *creg);
  f->slot[s] = (uint32_t)(k + 1);
  f->queue[(f->qhead + f->qlen++) % f->cap] = k;
  return 1;
}

/* One successor of state `from` (regions reg): pawn `sq` of colour c moves to `to` (ARB_NO_SQUARE:
 * none moves), the enemy pawn on `taken` goes (ARB_NO_SQUARE: none), man `mover` (-1: none) or the
 * promoted pieces of its colour (mover == -2, colour c) gains the square `to`. */
static int successor(fix *f, const state *from, const arb_bitboard *reg, int c, arb_square sq,
                     arb_square to, arb_square taken, int mover) {
  state n = *from;
  n.loose |= c != f->winner;
  arb_bitboard nreg[MAX_MEN];
  memcpy(nreg, reg, (size_t)f->nmen * sizeof *reg);
  n.arrived[0] = n.arrived[1] = 0;
  if (taken != ARB_NO_SQUARE) n.pawns[c ^ 1] &= ~ARB_BB(taken);
  if (sq != ARB_NO_SQUARE) {
    n.pawns[c] &= ~ARB_BB(sq);
    const int last = c == ARB_WHITE ? 7 : 0;
    if (ARB_RANK_OF(to) == last) {
      n.promo[c] |= ARB_BB(to);
      if (n.promos[c] < 16) n.promos[c]++;
    } else {
      n.pawns[c] |= ARB_BB(to);
      n.arrived[c] = arb__tab.pawn[c][to];
    }
  } else if (mover >= 0) {
    nreg[mover] |= ARB_BB(to);
  } else if (mover == -2) {
    n.promo[c] |= ARB_BB(to);
  }
  return merge(f, &n, nreg);
}

/* How many of the loser's men could stand on the squares `open`, one man a square at most: its
 * pawns where they stand, its pieces from their regions, its promoted pieces. */
static int blockers(const fix *f, const state *s, const arb_bitboard *reg, arb_bitboard open,
                    int need) {
  const int l = f->winner ^ 1;
  int can = arb__popcount(open & s->pawns[l]);
  const int promoted = arb__popcount(open & s->promo[l]);
  can += promoted < s->promos[l] ? promoted : s->promos[l];
  for (int i = 0; i < f->nmen && can < need; i++)
    if (f->men[i].color == l && f->men[i].type != ARB_KING && (reg[i] & open)) can++;
  return can;
}

/* Where colour c's sliders could stand, by the lines they move along (promoted pieces on both):
 * diag for bishops and queens, orth for rooks and queens; man `skip` left out (-1: none). */
static void slider_squares(const fix *f, const state *s, const arb_bitboard *reg, int c, int skip,
                           arb_bitboard *diag, arb_bitboard *orth) {
  *diag = *orth = s->promo[c];
  for (int i = 0; i < f->nmen; i++) {
    const int t = f->men[i].type;
    if (f->men[i].color != c || i == skip) continue;
    if (t == ARB_BISHOP || t == ARB_QUEEN) *diag |= reg[i];
    if (t == ARB_ROOK || t == ARB_QUEEN) *orth |= reg[i];
  }
}

/* The squares the winner's king could reach by a move that gives check to a king on k by
 * opening a line of one of the winner's sliders: from a square of its region on that line,
 * between k and a square the slider could stand on, with no pawn between. */
static arb_bitboard discovered(const fix *f, const state *s, const arb_bitboard *reg, arb_square k,
                               arb_bitboard winner_king) {
  const arb_bitboard pawns = s->pawns[0] | s->pawns[1];
  arb_bitboard diag, orth, lines = 0;
  slider_squares(f, s, reg, f->winner, -1, &diag, &orth);
  for (arb_bitboard x = arb__bishop_attacks(k, pawns) & diag; x;)
    lines |= arb__tab.between[k][arb__pop_lsb(&x)];
  for (arb_bitboard x = arb__rook_attacks(k, pawns) & orth; x;)
    lines |= arb__tab.between[k][arb__pop_lsb(&x)];
  const arb_bitboard from = lines & winner_king;
  const arb_bitboard wide = from | arb__east(from) | arb__west(from);
  return (wide | arb__north(wide) | arb__south(wide)) & winner_king;
}

/* 1 when no mate of the loser is possible in state s (regions reg, attacks att, the men in
 * place a bit each in `placed`): for every square k of the loser king's region that the winner
 * can check, and every square of the winner's king two steps from k (or none near), some flight
 * of k is neither covered nor held. */
static int no_mate_here(const fix *f, const state *s, const arb_bitboard *reg,
                        const arb_bitboard *att, arb_bitboard promo_att[2], uint64_t placed) {
  const int w = f->winner;
  arb_bitboard checks = s->arrived[w] | promo_att[w], cover = arb__pawns_attacks(s->pawns[w], w);
  arb_bitboard king_region = 0, winner_king = 0;
  for (int i = 0; i < f->nmen; i++) {
    if (f->men[i].color != w) {
      if (f->men[i].type == ARB_KING) king_region = reg[i];
      continue;
    }
    if (f->men[i].type == ARB_KING)
      winner_king = reg[i];
    else if (f->men[i].type != ARB_KNIGHT || !(placed >> i & 1))
      checks |= att[i]; /* a knight that never moves gives no check; a slider may, discovered */
    else
      cover |= att[i];
  }
  cover |= checks; /* all but the winner's king */
  /* When the loser has only its king and its last move was a move of that king here (tempo),
   * the king came to k from a neighbour k' of its region, where it stood with the winner to
   * move next: the winner's king was not next to k', and if it has not moved since, k' must now
   * be covered by another man.  It has moved only if its move gave check by opening a line of
   * a slider (discovered()). */
  const int tempo = f->king_alone && !s->loose && !s->promos[w ^ 1];
  for (arb_bitboard b = king_region & checks; b;) {
    const arb_square k = arb__pop_lsb(&b);
    const arb_bitboard flights = arb__tab.king[k], near = flights | ARB_BB(k);
    const arb_bitboard grown = near | arb__east(near) | arb__west(near);
    const arb_bitboard ring = (grown | arb__north(grown) | arb__south(grown)) & ~near;
    const arb_bitboard came = flights & king_region, from = came & cover;
    if (tempo && !came) continue;
    arb_bitboard open = flights & ~cover; /* the winner's king far away */
    if ((!tempo || from) && blockers(f, s, reg, open, arb__popcount(open)) >= arb__popcount(open))
      return 0;
    /* where the winner's king can have made the last move to (tempo) */
    const arb_bitboard moved_to = tempo ? discovered(f, s, reg, k, winner_king) : 0;
    for (arb_bitboard r = winner_king & ring; r;) {
      const arb_square sq = arb__pop_lsb(&r);
      open = flights & ~cover & ~arb__tab.king[sq];
      if (blockers(f, s, reg, open, arb__popcount(open)) < arb__popcount(open)) continue;
      if (!tempo || (from & ~arb__tab.king[sq]) || (moved_to & ARB_BB(sq))) return 0;
    }
  }
  return 1;
}

/* 1 when man i's capture of the pawn on t ends the game and is no mate of the loser (the men
 * in place a bit each in in_place): the side whose pawn it takes has nothing but its king and
 * pawns, and then no legal move wherever its king stands in its region (a stalemate, or a mate
 * of the winner), and when that side is the loser, no check either (its king was not in check
 * before: only the capturing man, or a line it opened by leaving its square, can give one).
 * Such a capture leads to no structure. */
static int capture_ends_game(const fix *f, const state *s, const arb_bitboard *reg,
                             uint64_t in_place, int i, arb_square t) {
  const int c = f->men[i].color, d = c ^ 1, type = f->men[i].type, king = type == ARB_KING;
  if (s->promos[d]) return 0;
  int dk = -1;
  for (int j = 0; j < f->nmen; j++)
    if (f->men[j].color == d) {
      if (f->men[j].type != ARB_KING) return 0;
      dk = j;
    }
  if (dk < 0) return 0;
  arb_bitboard pawns[2] = {s->pawns[0], s->pawns[1]};
  pawns[d] &= ~ARB_BB(t);
  /* The capturing side's men: where they could stand (the capturer on t), the ones in place,
   * the squares those guard, and where its sliders could stand. */
  arb_bitboard men = ARB_BB(t) | s->promo[c], placed = 0, guard = 0, diag, orth;
  slider_squares(f, s, reg, c, i, &diag, &orth);
  for (int j = 0; j < f->nmen; j++) {
    const int tj = f->men[j].type;
    if (f->men[j].color != c || j == i) continue;
    if (tj != ARB_KING) men |= reg[j];
    if (in_place >> j & 1) {
      placed |= reg[j];
      guard |= arb__piece_attacks((arb_piece_type)tj, arb__lsb(reg[j]), ~(arb_bitboard)0);
    }
  }
  const arb_bitboard occ = pawns[0] | pawns[1] | placed | ARB_BB(t);
  const int up = d == ARB_WHITE ? 8 : -8;
  for (arb_bitboard b = pawns[d]; b;) /* a pawn's step (pawns are never on a back rank) */
    if (!(occ & ARB_BB(arb__pop_lsb(&b) + up))) return 0;
  if (arb__pawns_attacks(pawns[d], d) & (pawns[c] | men)) return 0; /* a pawn's capture */
  const arb_bitboard taboo = pawns[d] | arb__pawns_attacks(pawns[c], c) | guard |
                             (king ? arb__tab.king[t] | ARB_BB(t) : 0);
  arb_bitboard kings = reg[dk] & ~ARB_BB(t) & ~(king ? arb__tab.king[t] : 0);
  while (kings) {
    const arb_square k = arb__pop_lsb(&kings);
    if (arb__tab.king[k] & ~taboo) return 0; /* a king's move */
    if (d == f->winner) continue;
    if (!king && (attacks_of(type, t, occ) & ARB_BB(k))) return 0; /* the capturer checks */
    const arb_bitboard from =
        (king ? arb__tab.king[t] : ~(arb_bitboard)0) & reg[i] & ~pawns[0] & ~pawns[1];
    for (arb_bitboard o = from & arb__queen_attacks(k, occ); o;) { /* a line it opened */
      const arb_square sq = arb__pop_lsb(&o);
      const int straight = ARB_RANK_OF(sq) == ARB_RANK_OF(k) || ARB_FILE_OF(sq) == ARB_FILE_OF(k);
      const arb_bitboard seen = (straight ? arb__rook_attacks(k, occ & ~ARB_BB(sq)) & orth
                                          : arb__bishop_attacks(k, occ & ~ARB_BB(sq)) & diag) &
                                arb__tab.line[k][sq];
      for (arb_bitboard x = seen; x;)
        if (arb__tab.between[k][arb__pop_lsb(&x)] & ARB_BB(sq)) return 0;
    }
  }
  return 1;
}

/* Expands state k: 1 no mate there and its successors merged, 0 a mate not excluded or full. */
static int expand(fix *f, int k) {
  state s = f->st[k];
  /* A copy: merging successors may move the states (grow). */
  arb_bitboard reg[MAX_MEN];
  memcpy(reg, &f->region[(size_t)k * (size_t)f->nmen], (size_t)f->nmen * sizeof *reg);
  /* Men that cannot move at all in this structure stay where they are for as long as it lasts:
   * they block lines and pawns, and the squares next to them that they attack are never a
   * king's.  They are found as a greatest fixpoint: assume every man on one square in place, and
   * drop each one that could then still move, or be taken (a king never is) by an enemy pawn or
   * by a man not assumed in place, until none drops.  Sound: the first of those left to move or
   * be taken would have to be so while all the others stand where they are, and it cannot. */
  arb_bitboard start[MAX_MEN], stuck[2] = {0, 0}, guard[2] = {0, 0};
  memcpy(start, reg, (size_t)f->nmen * sizeof *reg);
  arb_bitboard hits[MAX_MEN], att[MAX_MEN], promo_hits[2] = {0, 0}, promo_att[2] = {0, 0};
  arb_bitboard targets[2]; /* what a pawn of the other colour takes */
  arb_bitboard occ = s.pawns[0] | s.pawns[1];
  const arb_bitboard pawn_att[2] = {arb__pawns_attacks(s.pawns[0], ARB_WHITE),
                                    arb__pawns_attacks(s.pawns[1], ARB_BLACK)};
  arb_bitboard promo_attacked[2] = {0, 0};
  for (int c = 0; c < 2; c++)
    if (s.promo[c]) {
      arb_bitboard ignored = 0;
      arb__flood(PROMOTED, s.promo[c], occ, s.pawns[c], s.pawns[c ^ 1], 0, &ignored,
                 &promo_attacked[c]);
    }
  uint64_t cand = 0; /* the men assumed in place, by number */
  for (int i = 0; i < f->nmen; i++) {
    const int c = f->men[i].color;
    /* (a piece a pawn has taken lives on a pawn's square here, over-approximating: never in
     * place) */
    if (!arb__more_than_one(start[i]) &&
        (f->men[i].type == ARB_KING ||
         !(start[i] & (promo_attacked[c ^ 1] | pawn_att[c ^ 1] | s.pawns[0] | s.pawns[1]))))
      cand |= UINT64_C(1) << i;
  }
  /* Each round floods every man with the men assumed in place standing still; the round in
   * which none drops gives the regions. */
  for (int dropped = 1; dropped;) {
    const uint64_t before = cand;
    stuck[0] = stuck[1] = guard[0] = guard[1] = 0;
    for (int i = 0; i < f->nmen; i++)
      if (cand >> i & 1) {
        const int c = f->men[i].color;
        stuck[c] |= start[i];
        guard[c] |= arb__piece_attacks((arb_piece_type)f->men[i].type, arb__lsb(start[i]),
                                       ~(arb_bitboard)0);
      }
    occ = s.pawns[0] | s.pawns[1] | stuck[0] | stuck[1];
    targets[0] = s.pawns[0];
    targets[1] = s.pawns[1];
    arb_bitboard attacked[2] = {promo_attacked[0], promo_attacked[1]};
    for (int i = 0; i < f->nmen; i++) {
      const int c = f->men[i].color, t = f->men[i].type;
      hits[i] = att[i] = 0;
      const arb_bitboard forbidden = t == ARB_KING ? pawn_att[c ^ 1] | guard[c ^ 1] : 0;
      reg[i] = arb__flood(t, start[i], occ, s.pawns[c] | (stuck[c] & ~start[i]), s.pawns[c ^ 1],
                          forbidden, &hits[i], &att[i]);
      if (t != ARB_KING) targets[c] |= reg[i];
      if (!(cand >> i & 1))
        attacked[c] |= att[i] & ~forbidden; /* a king takes nothing guarded by a pawn or a man */
      else if (reg[i] != start[i]) /* it could move (a capture of a pawn is another structure) */
        cand &= ~(UINT64_C(1) << i);
    }
    for (int i = 0; i < f->nmen; i++)
      if ((cand >> i & 1) && f->men[i].type != ARB_KING &&
          (start[i] & attacked[f->men[i].color ^ 1]))
        cand &= ~(UINT64_C(1) << i);
    dropped = cand != before;
  }
  for (int c = 0; c < 2; c++)
    if (s.promo[c]) {
      s.promo[c] = arb__flood(PROMOTED, s.promo[c], occ, s.pawns[c], s.pawns[c ^ 1], 0,
                              &promo_hits[c], &promo_att[c]);
      f->st[k].promo[c] = s.promo[c];
      targets[c] |= s.promo[c];
    }
  memcpy(&f->region[(size_t)k * (size_t)f->nmen], reg, (size_t)f->nmen * sizeof *reg);
  if (!no_mate_here(f, &s, reg, att, promo_att, cand)) return 0;
  for (int i = 0; i < f->nmen; i++) /* a man takes a pawn */
    for (arb_bitboard b = hits[i]; b;) {
      const arb_square t = arb__pop_lsb(&b);
      if (capture_ends_game(f, &s, reg, cand, i, t)) continue;
      if (!successor(f, &s, reg, f->men[i].color, ARB_NO_SQUARE, t, t, i)) return 0;
    }
  for (int c = 0; c < 2; c++) {
    for (arb_bitboard b = promo_hits[c]; b;) {
      const arb_square t = arb__pop_lsb(&b);
      if (!successor(f, &s, reg, c, ARB_NO_SQUARE, t, t, -2)) return 0;
    }
    const int up = c == ARB_WHITE ? 8 : -8, home = c == ARB_WHITE ? 1 : 6;
    for (arb_bitboard b = s.pawns[c]; b;) {
      const arb_square sq = arb__pop_lsb(&b);
      const arb_square ahead = (arb_square)(sq + up);
      if (!(occ & ARB_BB(ahead))) { /* a step, and from the start a double step */
        if (!successor(f, &s, reg, c, sq, ahead, ARB_NO_SQUARE, -1)) return 0;
        const arb_square two = (arb_square)(ahead + up);
        if (ARB_RANK_OF(sq) == home && !(occ & ARB_BB(two))) {
          if (!successor(f, &s, reg, c, sq, two, ARB_NO_SQUARE, -1)) return 0;
          /* en passant: an enemy pawn beside `two` takes it, landing on `ahead` */
          const arb_bitboard beside =
              (arb__east(ARB_BB(two)) | arb__west(ARB_BB(two))) & s.pawns[c ^ 1];
          for (arb_bitboard e = beside; e;) {
            const arb_square esq = arb__pop_lsb(&e);
            state mid = s;
            mid.pawns[c] ^= ARB_BB(sq) | ARB_BB(two);
            mid.loose = 1; /* both sides moved a pawn: the loser's last move was one */
            if (!successor(f, &mid, reg, c ^ 1, esq, ahead, two, -1)) return 0;
          }
        }
      }
      for (arb_bitboard t = arb__tab.pawn[c][sq] & targets[c ^ 1]; t;) { /* captures */
        const arb_square to = arb__pop_lsb(&t);
        if (!successor(f, &s, reg, c, sq, to, (s.pawns[c ^ 1] & ARB_BB(to)) ? to : ARB_NO_SQUARE,
                       -1))
          return 0;
      }
    }
  }
  return 1;
}

/* The castling rights are those of the standard game: king on its e-file square, rooks in the
 * corners (then the floods above cover castling: the king and the rook pass only squares
 * castling needs empty, the king's not attacked). */
static int standard_castling(const arb_position *p) {
  for (arb_bitboard b = p->castling_rooks; b;) {
    const arb_square r = arb__pop_lsb(&b);
    const int c = r >= 56;
    if (r != (c ? 56 : 0) && r != (c ? 63 : 7)) return 0;
    if (arb__king_sq(p, c) != (c ? 60 : 4)) return 0;
  }
  return 1;
}

/* 1 when a move of the side to move mates at once. */
static int mates_in_one(const arb_position *p) {
  arb_move moves[ARB_MAX_MOVES];
  const int n = arb_generate_legal(p, moves);
  for (int i = 0; i < n; i++) {
    arb_position q = *p;
    arb_undo u;
    arb_make_move(&q, moves[i], &u);
    if (arb_in_check(&q) && !arb_has_legal_move(&q)) return 1;
  }
  return 0;
}

int arb__structures_never_mate(const arb_position *p, int winner, int max_visits) {
  const arb_bitboard pawns = p->by_type[ARB_PAWN];
  if (p->ep_square != ARB_NO_SQUARE || (pawns & (ARB_RANK_BB(0) | ARB_RANK_BB(7))) ||
      !standard_castling(p))
    return 0;
  for (int c = 0; c < 2; c++)
    if (arb__popcount(p->by_type[ARB_KING] & p->by_color[c]) != 1) return 0;
  /* (capture_ends_game relies on the side that has just moved not being in check; a pawn's
   * check on the board is seen by no state, so a game already over is not for this proof) */
  if (arb_attackers(p, arb__king_sq(p, p->turn ^ 1), (arb_color)p->turn, p->by_type[0]) ||
      !arb_has_legal_move(p))
    return 0;
  const arb_bitboard men = p->by_type[0] & ~pawns;
  if (arb__popcount(men) > MAX_MEN) return 0;
  fix *f = malloc(sizeof *f);
  if (!f) return 0;
  f->nmen = 0;
  f->winner = winner;
  f->king_alone = !p->castling_rooks && /* (a winner's castling could check with the rook) */
                  !(p->by_color[winner ^ 1] & ~pawns & ~p->by_type[ARB_KING]);
  f->count = f->cap = 0;
  f->qhead = f->qlen = 0;
  f->st = NULL;
  f->region = NULL;
  f->queue = NULL;
  arb_bitboard start[MAX_MEN];
  for (arb_bitboard b = men; b;) {
    const arb_square sq = arb__pop_lsb(&b);
    f->men[f->nmen].color = (uint8_t)ARB_PIECE_COLOR(p->board[sq]);
    f->men[f->nmen].type = (uint8_t)ARB_PIECE_TYPE(p->board[sq]);
    start[f->nmen++] = ARB_BB(sq);
  }
  f->slot = calloc(SLOTS, sizeof *f->slot);
  int proven = 0;
  if (f->slot && grow(f)) {
    state s0;
    memset(&s0, 0, sizeof s0);
    s0.pawns[ARB_WHITE] = pawns & p->by_color[ARB_WHITE];
    s0.pawns[ARB_BLACK] = pawns & p->by_color[ARB_BLACK];
    s0.loose = p->turn == winner && mates_in_one(p); /* a mate before any move of the loser */
    proven = merge(f, &s0, start);
    for (int visits = 0; proven && f->qlen; visits++) {
      if (visits == MAX_VISITS || visits >= max_visits) {
        proven = 0;
        break;
      }
      const int k = f->queue[f->qhead];
      f->qhead = (f->qhead + 1) % f->cap;
      f->qlen--;
      f->st[k].queued = 0;
      proven = expand(f, k);
    }
  }
  free(f->st);
  free(f->region);
  free(f->slot);
  free(f->queue);
  free(f);
  return proven;
}
