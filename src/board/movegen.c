/* Arbiter — MIT licence, see LICENSE.
 *
 * movegen.c: fully legal move generation with a check mask and pin masks, and perft, the
 * count of the legal move tree that exercises it.
 *
 * One generator body serves five modes, specialised by the compiler because the mode is a
 * constant at every call site: LIST writes moves, CHECKS writes them with whether each gives
 * check, COUNT only counts them (popcounts over target sets, used for perft's last ply), ANY
 * stops at the first legal move, LEAVES makes each move on a scratch copy of the position and
 * counts the child's moves (perft's ply above the last: no list, the make written for the piece
 * that moves and undone after the count, the child's checkers not looked for when the move gives
 * no check, its castling and en passant blocks left out when it has neither).
 *
 * Legality without make/unmake:
 * - king moves: the destination must not be attacked with the king removed from the board
 *   (so the king cannot step back along the line of a slider that checks it);
 * - double check: king moves only;
 * - single check: other pieces must capture the checker or block (checkmask);
 * - a piece pinned to its king may move only along the line through king and pinner;
 * - en passant is checked exactly by removing both pawns (the rank "double pin") and
 *   asking whether anything then attacks the king;
 * - castling: not in check, the squares between king, rook and their destinations empty
 *   (apart from the two castling pieces), the king's path not attacked, and its destination
 *   not attacked once the rook has left (Chess960: the rook may have shielded it).
 * The enemy king is never a target, so even an accepted "opponent in check" position can't
 * lose its king.
 */
#include "board/make.h"

/* MODE_CHECKS: as MODE_LIST, and whether each move gives check (for the winnability search,
 * which needs both for every move).  MODE_LEAVES: perft's ply above the last, the sum over the
 * legal moves of the child's count of legal moves (see leaves_after). */
enum { MODE_LIST, MODE_COUNT, MODE_ANY, MODE_CHECKS, MODE_LEAVES };
/* MODE_COUNT for perft's children: LEAF_QUIET, the side to move is known not to be in check;
 * LEAF_PLAIN, it has no castling right and there is no en passant square. */
enum { LEAF_QUIET = 1, LEAF_PLAIN = 2 };
#define LISTING (mode == MODE_LIST || mode == MODE_CHECKS)

static inline __attribute__((always_inline)) int
leaves_after(const arb_position *restrict p, arb_position *restrict w, int us, arb_piece_type type,
             arb_square from, arb_square to, arb_piece_type becomes, arb_square ep, int quiet,
             int capture);
static int leaves_after_make(const arb_position *p, int us, arb_move m);

/* King moves: with more targets than this, one map of the enemy's attacks (one lookup per
 * enemy slider) is cheaper than asking about each target. */
#define KING_TARGETS_ONE_BY_ONE 2

#define PROMO_MOVES(list, n, from, to)                                                             \
  do {                                                                                             \
    list[n++] = ARB_MOVE_MAKE_SPECIAL(from, to, ARB_MOVE_PROMOTION, ARB_QUEEN);                    \
    list[n++] = ARB_MOVE_MAKE_SPECIAL(from, to, ARB_MOVE_PROMOTION, ARB_ROOK);                     \
    list[n++] = ARB_MOVE_MAKE_SPECIAL(from, to, ARB_MOVE_PROMOTION, ARB_BISHOP);                   \
    list[n++] = ARB_MOVE_MAKE_SPECIAL(from, to, ARB_MOVE_PROMOTION, ARB_KNIGHT);                   \
  } while (0)

#if defined(__AVX512VBMI2__) && defined(__AVX512BW__)
#include <immintrin.h>
/* Writes the moves from `from` (0..63) to every square of t: one compress of the square numbers,
 * no loop whose length a branch predictor would have to guess.  It stores 32 moves whatever t
 * holds, so the list needs that much room past n (see the caller). */
static inline int write_targets(arb_move *list, int n, int from, arb_bitboard t, int delta) {
  const __m512i squares = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
      40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
      17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i to = _mm512_cvtepu8_epi16(
      _mm512_castsi512_si256(_mm512_maskz_compress_epi8((__mmask64)t, squares)));
  /* from: fixed, or (delta != 0) each target's own origin, to - delta */
  const __m512i origin = delta ? _mm512_sub_epi16(to, _mm512_set1_epi16((short)delta))
                               : _mm512_set1_epi16((short)from);
  _mm512_storeu_si512((void *)(list + n), _mm512_or_si512(_mm512_slli_epi16(origin, 6), to));
  return n + arb__popcount(t);
}

/* chk[n..]: 1 for the targets in c, 0 for the others, in the order write_targets uses. */
static inline void write_checks(unsigned char *chk, int n, arb_bitboard t, arb_bitboard c) {
  const __m512i flags = _mm512_maskz_set1_epi8((__mmask64)c, 1);
  _mm256_storeu_si256((__m256i *)(chk + n),
                      _mm512_castsi512_si256(_mm512_maskz_compress_epi8((__mmask64)t, flags)));
}
#define WRITE_TARGETS_ROOM 32
#endif

/* Writes the moves from `from` (or, delta != 0, from to - delta) to the squares of t_, and in
 * MODE_CHECKS their check flags: c_ holds the targets where the move gives check. */
#define LIST_ONE_BY_ONE(from, t_, delta, c_)                                                       \
  do {                                                                                             \
    while (t_) {                                                                                   \
      arb_square to_ = arb__pop_lsb(&t_);                                                          \
      if (mode == MODE_CHECKS) chk[n] = (unsigned char)(((c_) >> to_) & 1);                        \
      list[n++] = ARB_MOVE_MAKE((delta) != 0 ? to_ - (delta) : (from), to_);                       \
    }                                                                                              \
  } while (0)
#ifdef WRITE_TARGETS_ROOM
#define LIST_TARGETS(from, t_, delta, c_)                                                          \
  do {                                                                                             \
    if (n <= ARB_MAX_MOVES - WRITE_TARGETS_ROOM) {                                                 \
      if (mode == MODE_CHECKS) write_checks(chk, n, t_, c_);                                       \
      n = write_targets(list, n, from, t_, delta);                                                 \
    } else {                                                                                       \
      LIST_ONE_BY_ONE(from, t_, delta, c_);                                                        \
    }                                                                                              \
  } while (0)
#else
#define LIST_TARGETS(from, t_, delta, c_) LIST_ONE_BY_ONE(from, t_, delta, c_)
#endif

/* Adds every move of the piece of type `type` from `from` to the squares of `targets`; checks_:
 * those of the targets where the move gives check, evaluated in MODE_CHECKS only. */
#define ADD_TARGETS(type, from, targets, checks_)                                                  \
  do {                                                                                             \
    arb_bitboard t_ = (targets);                                                                   \
    if (LISTING) {                                                                                 \
      const arb_bitboard c_ = mode == MODE_CHECKS ? (checks_) : 0;                                 \
      LIST_TARGETS(from, t_, 0, c_);                                                               \
    } else if (mode == MODE_LEAVES) {                                                              \
      const arb_bitboard c_ = (checks_);                                                           \
      for (arb_bitboard q_ = t_ & ~opp; q_;) {                                                     \
        const arb_square to_ = arb__pop_lsb(&q_);                                                  \
        n += leaves_after(p, w, us, type, from, to_, type, ARB_NO_SQUARE, !((c_ >> to_) & 1), 0);  \
      }                                                                                            \
      for (arb_bitboard x_ = t_ & opp; x_;) {                                                      \
        const arb_square to_ = arb__pop_lsb(&x_);                                                  \
        n += leaves_after(p, w, us, type, from, to_, type, ARB_NO_SQUARE, !((c_ >> to_) & 1), 1);  \
      }                                                                                            \
    } else {                                                                                       \
      n += arb__popcount(t_);                                                                      \
      if (mode == MODE_ANY && n) return n;                                                         \
    }                                                                                              \
  } while (0)

/* Adds pawn moves to the squares of `targets`, each coming from `to - delta` (captures: 1 when
 * they all capture, 0 when none does). */
#define ADD_PAWN_SET(targets, delta, promo, captures)                                              \
  do {                                                                                             \
    arb_bitboard t_ = (targets);                                                                   \
    if (LISTING && !(promo)) {                                                                     \
      const arb_bitboard c_ = mode == MODE_CHECKS ? pawn_set_checks(ci, t_, delta) : 0;            \
      LIST_TARGETS(0, t_, delta, c_);                                                              \
    } else if (LISTING) {                                                                          \
      while (t_) {                                                                                 \
        arb_square to_ = arb__pop_lsb(&t_);                                                        \
        arb_square from_ = (arb_square)(to_ - (delta));                                            \
        if (mode == MODE_CHECKS) promo_checks(p, ci, from_, to_, chk + n);                         \
        PROMO_MOVES(list, n, from_, to_);                                                          \
      }                                                                                            \
    } else if (mode == MODE_LEAVES) {                                                              \
      const arb_bitboard c_ = (promo) ? ~UINT64_C(0) : pawn_set_checks(ci, t_, delta);             \
      while (t_) {                                                                                 \
        arb_square to_ = arb__pop_lsb(&t_);                                                        \
        n += pawn_leaves(p, w, us, (arb_square)(to_ - (delta)), to_, promo, !((c_ >> to_) & 1),    \
                         captures);                                                                \
      }                                                                                            \
    } else {                                                                                       \
      n += arb__popcount(t_) * ((promo) ? 4 : 1);                                                  \
      if (mode == MODE_ANY && n) return n;                                                         \
    }                                                                                              \
  } while (0)

static inline arb_bitboard pawn_push(arb_bitboard b, int us) {
  return us == ARB_WHITE ? b << 8 : b >> 8;
}

/* MODE_LEAVES: the leaves below the pawn move from -> to (the four promotions when promo). */
static inline __attribute__((always_inline)) int pawn_leaves(const arb_position *restrict p,
                                                             arb_position *restrict w, int us,
                                                             arb_square from, arb_square to,
                                                             int promo, int quiet, int capture) {
  if (promo)
    return leaves_after(p, w, us, ARB_PAWN, from, to, ARB_QUEEN, ARB_NO_SQUARE, 0, capture) +
           leaves_after(p, w, us, ARB_PAWN, from, to, ARB_ROOK, ARB_NO_SQUARE, 0, capture) +
           leaves_after(p, w, us, ARB_PAWN, from, to, ARB_BISHOP, ARB_NO_SQUARE, 0, capture) +
           leaves_after(p, w, us, ARB_PAWN, from, to, ARB_KNIGHT, ARB_NO_SQUARE, 0, capture);
  arb_square ep = ARB_NO_SQUARE;
  if ((from ^ to) == 16) { /* as arb__make: an en passant square only when a pawn could take */
    const arb_square mid = (arb_square)((from + to) / 2);
    if (arb__ep_capturable(p, us ^ 1, mid)) ep = mid;
  }
  return leaves_after(p, w, us, ARB_PAWN, from, to, ARB_PAWN, ep, quiet, capture);
}

/* Of the targets t of a piece on `from`, those where its move uncovers a check: it stood alone
 * between the enemy king and one of its side's sliders, and leaves that line. */
static inline arb_bitboard uncovering(const arb__check_info *ci, arb_square from, arb_bitboard t) {
  return t & ~arb__tab.line[ci->king][from] &
         (arb_bitboard)(-(int64_t)((ci->blockers >> from) & 1));
}

/* The checking targets of a set of pawn moves, each from to - delta: direct, or uncovered. */
static inline arb_bitboard pawn_set_checks(const arb__check_info *ci, arb_bitboard t, int delta) {
  arb_bitboard c = t & ci->squares[ARB_PAWN];
  const arb_bitboard from_blockers = delta > 0 ? ci->blockers << delta : ci->blockers >> -delta;
  for (arb_bitboard d = t & from_blockers; d;) { /* rare: a pawn in front of its own slider */
    const arb_square to = arb__pop_lsb(&d);
    c |= uncovering(ci, (arb_square)(to - delta), ARB_BB(to));
  }
  return c;
}

/* chk[0..4): whether the promotions from -> to (queen, rook, bishop, knight, as PROMO_MOVES
 * writes them) give check. */
static inline void promo_checks(const arb_position *p, const arb__check_info *ci, arb_square from,
                                arb_square to, unsigned char *chk) {
  static const arb_piece_type order[4] = {ARB_QUEEN, ARB_ROOK, ARB_BISHOP, ARB_KNIGHT};
  const arb_bitboard occ = (p->by_type[0] ^ ARB_BB(from)) | ARB_BB(to);
  const int uncovered = uncovering(ci, from, ARB_BB(to)) != 0;
  for (int i = 0; i < 4; i++)
    chk[i] =
        (unsigned char)(uncovered | (int)((arb__piece_attacks(order[i], to, occ) >> ci->king) & 1));
}

/* Whether a legal move gives check, made on a copy (en passant, castling, arb_gives_check). */
static int made_checks(const arb_position *p, arb_move m) {
  arb_position next = *p;
  arb_undo u;
  arb_make_move(&next, m, &u);
  return arb_in_check(&next);
}

/* 1 if the side to move, not in check, with its king on ksq, may castle with the rook on r (a
 * rook it has the right to castle with, so both stand on its first rank): the squares both pass
 * or reach empty but for the two (arb__tab.castle, by their files), and no square the king
 * crosses or reaches attacked.  safe: squares the king's own moves have just found not attacked
 * with the king off the board, not asked again — with it on the board they can only be attacked
 * less.  The king's destination is asked about with the rook off the board (Chess960: the rook
 * may shield it). */
static inline int castling_legal(const arb_position *p, int us, int them, arb_bitboard occ,
                                 arb_square ksq, arb_square r, arb_bitboard safe) {
  const arb__castle *c = &arb__tab.castle[us][ksq & 7][r & 7];
  if (c->empty & occ) return 0;
  const arb_square kto = (arb_square)c->kto;
  arb_bitboard path = c->path & ~safe;
  int attacked = 0;
  while (path && !attacked)
    attacked = arb__attackers_by(p, arb__pop_lsb(&path), them, occ) != 0;
  return !attacked && !arb__attackers_by(p, kto, them, occ ^ ARB_BB(r));
}

/* The generator of every mode.  ci: arb__check_info_init of p, for MODE_CHECKS and MODE_LEAVES
 * (which moves give check); NULL otherwise.  leaf (MODE_COUNT on perft's children, else 0):
 * LEAF_QUIET, the side to move is known not to be in check, so its checkers are not looked for
 * (the children whose move gives no check: most of them); LEAF_PLAIN, no castling and no en
 * passant to look at.  w: MODE_LEAVES's scratch copy of p, on which the children are made (see
 * leaves_after); NULL otherwise. */
static inline __attribute__((always_inline)) int
generate(const arb_position *restrict p, arb_move *list, const int mode, const int us,
         const arb__check_info *ci, unsigned char *chk, const int leaf, arb_position *restrict w) {
  const int quiet = leaf & LEAF_QUIET, plain = leaf & LEAF_PLAIN;
  const int them = us ^ 1;
  const arb_bitboard occ = p->by_type[0];
  const arb_bitboard own = p->by_color[us], opp = p->by_color[them];
  const arb_square ksq = arb__king_sq(p, us);
  /* not a target; perft's children are legal positions, where nothing attacks it */
  const arb_bitboard their_king = leaf ? 0 : p->by_type[ARB_KING] & opp;
  /* The enemy's sliders on the king's lines, the only ones that can check it or pin to it: most
   * often there are none of one kind or the other, and then the slider tables are not asked. */
  const arb_bitboard rq_lines =
      (p->by_type[ARB_ROOK] | p->by_type[ARB_QUEEN]) & opp & arb__rook_lines(ksq);
  const arb_bitboard bq_lines =
      (p->by_type[ARB_BISHOP] | p->by_type[ARB_QUEEN]) & opp & arb__bishop_lines(ksq);
  const arb_bitboard checkers = quiet
                                    ? 0
                                    : arb__leapers_attacking(p, ksq, them) |
                                          (rq_lines ? arb__rook_attacks(ksq, occ) & rq_lines : 0) |
                                          (bq_lines ? arb__bishop_attacks(ksq, occ) & bq_lines : 0);
  int n = 0;

  /* King moves: ok, the safe squares (all of them whenever castling is reached below: MODE_ANY
   * stops looking only to return). */
  arb_bitboard ok = 0;
  {
    const arb_bitboard occ_nk = occ ^ ARB_BB(ksq);
    arb_bitboard kt = arb__tab.king[ksq] & ~own & ~their_king;
    if (mode != MODE_ANY && arb__popcount(kt) > KING_TARGETS_ONE_BY_ONE) {
      ok = kt & ~arb__attacked_by(p, them, occ_nk);
      kt = 0;
    }
    while (kt) {
      arb_square s = arb__pop_lsb(&kt);
      if (!arb__attackers_by(p, s, them, occ_nk)) {
        ok |= ARB_BB(s);
        if (mode == MODE_ANY) break; /* one safe square answers "is there a move" */
      }
    }
    ADD_TARGETS(ARB_KING, ksq, ok, uncovering(ci, ksq, ok));
  }
  if (arb__more_than_one(checkers)) return n;

  const arb_bitboard target = ~own & ~their_king;
  arb_bitboard checkmask = ~UINT64_C(0);
  if (checkers) checkmask = arb__tab.between[ksq][arb__lsb(checkers)] | checkers;
  const arb_bitboard mask = target & checkmask;

  /* Pinned pieces: own pieces alone between the king and an enemy slider. */
  arb_bitboard pinned = 0;
  {
    arb_bitboard snipers = (rq_lines ? arb__rook_attacks(ksq, opp) & rq_lines : 0) |
                           (bq_lines ? arb__bishop_attacks(ksq, opp) & bq_lines : 0);
    while (snipers) {
      arb_square s = arb__pop_lsb(&snipers);
      arb_bitboard b = arb__tab.between[ksq][s] & occ;
      if (b && !arb__more_than_one(b) && (b & own)) pinned |= b;
    }
  }
  /* In check a pinned piece can never help: it can neither leave its line nor reach the
   * checker on another line. */
  const arb_bitboard movable = checkers ? own & ~pinned : own;

  /* Pawns. */
  {
    const arb_bitboard pawns = p->by_type[ARB_PAWN] & movable;
    const arb_bitboard rank7 = ARB_RANK_BB(us == ARB_WHITE ? 6 : 1);
    const arb_bitboard rank3 = ARB_RANK_BB(us == ARB_WHITE ? 2 : 5);
    const arb_bitboard empty = ~occ;
    const arb_bitboard enemies = opp & ~their_king & checkmask;
    const int up = us == ARB_WHITE ? 8 : -8;
    const int upleft = us == ARB_WHITE ? 7 : -9, upright = us == ARB_WHITE ? 9 : -7;
    const arb_bitboard free_pawns = pawns & ~pinned;
    for (int promo = 0; promo < 2; promo++) {
      arb_bitboard pw = free_pawns & (promo ? rank7 : ~rank7);
      if (!pw) continue;
      arb_bitboard single = pawn_push(pw, us) & empty;
      arb_bitboard dbl = promo ? 0 : pawn_push(single & rank3, us) & empty & checkmask;
      single &= checkmask;
      arb_bitboard l = pawn_push(arb__west(pw), us) & enemies;
      arb_bitboard r = pawn_push(arb__east(pw), us) & enemies;
      ADD_PAWN_SET(single, up, promo, 0);
      ADD_PAWN_SET(dbl, 2 * up, 0, 0);
      ADD_PAWN_SET(l, upleft, promo, 1);
      ADD_PAWN_SET(r, upright, promo, 1);
    }
    /* Pinned pawns (never in check, see `movable`), one by one along their pin line. */
    arb_bitboard pp = pawns & pinned;
    while (pp) {
      arb_square from = arb__pop_lsb(&pp);
      arb_bitboard b = ARB_BB(from);
      arb_bitboard single = pawn_push(b, us) & empty;
      arb_bitboard t = single | (pawn_push(single & rank3, us) & empty) |
                       (arb__tab.pawn[us][from] & opp & ~their_king);
      t &= arb__tab.line[ksq][from];
      if (LISTING) {
        while (t) {
          arb_square to = arb__pop_lsb(&t);
          if (b & rank7) {
            if (mode == MODE_CHECKS) promo_checks(p, ci, from, to, chk + n);
            PROMO_MOVES(list, n, from, to);
          } else {
            if (mode == MODE_CHECKS)
              chk[n] = (unsigned char)((((ci->squares[ARB_PAWN] >> to) & 1) |
                                        (uncovering(ci, from, ARB_BB(to)) != 0)));
            list[n++] = ARB_MOVE_MAKE(from, to);
          }
        }
      } else if (mode == MODE_LEAVES) {
        while (t) {
          const arb_square to = arb__pop_lsb(&t);
          n += pawn_leaves(p, w, us, from, to, (b & rank7) != 0, 0, (int)((opp >> to) & 1));
        }
      } else {
        n += arb__popcount(t) * ((b & rank7) ? 4 : 1);
        if (mode == MODE_ANY && n) return n;
      }
    }
    /* En passant: exact test with both pawns removed. */
    if (!plain && p->ep_square != ARB_NO_SQUARE) {
      const arb_square ep = p->ep_square, capsq = (arb_square)(ep ^ 8);
      arb_bitboard cands = arb__tab.pawn[them][ep] & p->by_type[ARB_PAWN] & own;
      while (cands) {
        arb_square from = arb__pop_lsb(&cands);
        arb_bitboard o = (occ ^ ARB_BB(from) ^ ARB_BB(capsq)) | ARB_BB(ep);
        if (arb__attackers_by(p, ksq, them, o) & ~ARB_BB(capsq)) continue;
        if (LISTING) {
          list[n] = ARB_MOVE_MAKE_SPECIAL(from, ep, ARB_MOVE_EN_PASSANT, ARB_KNIGHT);
          if (mode == MODE_CHECKS) chk[n] = (unsigned char)made_checks(p, list[n]);
          n++;
        } else if (mode == MODE_LEAVES) {
          n += leaves_after_make(p, us,
                                 ARB_MOVE_MAKE_SPECIAL(from, ep, ARB_MOVE_EN_PASSANT, ARB_KNIGHT));
        } else {
          n++;
          if (mode == MODE_ANY) return n;
        }
      }
    }
  }

  /* Knights: a pinned knight never moves. */
  {
    arb_bitboard kn = p->by_type[ARB_KNIGHT] & movable & ~pinned;
    while (kn) {
      arb_square s = arb__pop_lsb(&kn);
      const arb_bitboard t = arb__tab.knight[s] & mask;
      ADD_TARGETS(ARB_KNIGHT, s, t, (t & ci->squares[ARB_KNIGHT]) | uncovering(ci, s, t));
    }
  }
  /* Sliders.  A pinned one moves only along its pin line; counting asks about pins only when
   * there is one.  Their type (bishop or queen, rook or queen) from the mailbox, which counting
   * never reads: MODE_LEAVES's children have none. */
#define MAILBOX_TYPE(s) (mode == MODE_COUNT ? ARB_NO_TYPE : ARB_PIECE_TYPE(p->board[s]))
  {
    const arb_bitboard bq = (p->by_type[ARB_BISHOP] | p->by_type[ARB_QUEEN]) & movable;
    const arb_bitboard rq = (p->by_type[ARB_ROOK] | p->by_type[ARB_QUEEN]) & movable;
    const int pins = LISTING || pinned;
    for (arb_bitboard b = bq; b;) {
      arb_square s = arb__pop_lsb(&b);
      arb_bitboard t = arb__bishop_attacks(s, occ) & mask;
      if (pins && (pinned & ARB_BB(s))) t &= arb__tab.line[ksq][s];
      const arb_piece_type type = MAILBOX_TYPE(s);
      ADD_TARGETS(type, s, t, (t & ci->squares[type]) | uncovering(ci, s, t));
    }
    for (arb_bitboard r = rq; r;) {
      arb_square s = arb__pop_lsb(&r);
      arb_bitboard t = arb__rook_attacks(s, occ) & mask;
      if (pins && (pinned & ARB_BB(s))) t &= arb__tab.line[ksq][s];
      const arb_piece_type type = MAILBOX_TYPE(s);
      ADD_TARGETS(type, s, t, (t & ci->squares[type]) | uncovering(ci, s, t));
    }
#undef MAILBOX_TYPE
  }

  /* Castling. */
  if (!plain && !checkers) {
    arb_bitboard rooks = p->castling_rooks & own;
    if (mode == MODE_COUNT && ksq == (us == ARB_WHITE ? 4 : 60)) {
      /* Counting from the standard squares (king on e1, rooks in the corners), without the
       * loop: their table entries at fixed places; the king's path is the one square next to it,
       * safe exactly when ok says so (a king's target whenever it is empty), and a corner rook
       * never shields the king's destination. */
      const int base = us == ARB_WHITE ? 0 : 56;
      for (int rf = 7; rf >= 0; rf -= 7) {
        const arb__castle *c = &arb__tab.castle[us][4][rf];
        if ((rooks & ARB_BB(base + rf)) && !(c->empty & occ) && !(c->path & ~ok) &&
            !arb__attackers_by(p, (arb_square)c->kto, them, occ))
          n++;
      }
      rooks &= ~(ARB_BB(base) | ARB_BB(base + 7));
    }
    while (rooks) {
      arb_square r = arb__pop_lsb(&rooks);
      /* counting only: keeping ok alive this long costs the listing modes more than it saves */
      if (!castling_legal(p, us, them, occ, ksq, r,
                          mode == MODE_COUNT || mode == MODE_LEAVES ? ok : 0))
        continue;
      if (LISTING) {
        list[n] = ARB_MOVE_MAKE_SPECIAL(ksq, r, ARB_MOVE_CASTLING, ARB_KNIGHT);
        if (mode == MODE_CHECKS) chk[n] = (unsigned char)made_checks(p, list[n]);
        n++;
      } else if (mode == MODE_LEAVES) {
        n += leaves_after_make(p, us, ARB_MOVE_MAKE_SPECIAL(ksq, r, ARB_MOVE_CASTLING, ARB_KNIGHT));
      } else {
        n++;
        if (mode == MODE_ANY) return n;
      }
    }
  }
  return n;
}

int arb_generate_legal(const arb_position *pos, arb_move *moves) {
  return pos->turn == ARB_WHITE ? generate(pos, moves, MODE_LIST, ARB_WHITE, NULL, NULL, 0, NULL)
                                : generate(pos, moves, MODE_LIST, ARB_BLACK, NULL, NULL, 0, NULL);
}

int arb__generate_checks(const arb_position *pos, const arb__check_info *ci, arb_move *moves,
                         unsigned char *checks) {
  return pos->turn == ARB_WHITE ? generate(pos, moves, MODE_CHECKS, ARB_WHITE, ci, checks, 0, NULL)
                                : generate(pos, moves, MODE_CHECKS, ARB_BLACK, ci, checks, 0, NULL);
}

int arb_count_legal(const arb_position *pos) {
  return pos->turn == ARB_WHITE ? generate(pos, NULL, MODE_COUNT, ARB_WHITE, NULL, NULL, 0, NULL)
                                : generate(pos, NULL, MODE_COUNT, ARB_BLACK, NULL, NULL, 0, NULL);
}

int arb_has_legal_move(const arb_position *pos) {
  return (pos->turn == ARB_WHITE
              ? generate(pos, NULL, MODE_ANY, ARB_WHITE, NULL, NULL, 0, NULL)
              : generate(pos, NULL, MODE_ANY, ARB_BLACK, NULL, NULL, 0, NULL)) != 0;
}

/* Legality of one move without generating the others: the move must be pseudo-legal by its
 * piece's own rules (and encoded exactly as the generator encodes it), then leave the king
 * safe.  Castling, rare and intricate, asks the generator. */
int arb_is_legal(const arb_position *p, arb_move m) {
  if (m == ARB_MOVE_NONE || m == ARB_MOVE_NULL) return 0;
  const arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
  const unsigned kind = ARB_MOVE_KIND(m);
  const arb_piece pc = p->board[from];
  const int us = p->turn;
  if (!pc || (int)ARB_PIECE_COLOR(pc) != us) return 0;
  if (kind == ARB_MOVE_CASTLING) {
    const arb_square ksq = arb__king_sq(p, us);
    return from == ksq && ARB_MOVE_PROMO(m) == ARB_KNIGHT &&
           (p->castling_rooks & p->by_color[us] & ARB_BB(to)) &&
           !arb__attackers_by(p, ksq, us ^ 1, p->by_type[0]) &&
           castling_legal(p, us, us ^ 1, p->by_type[0], ksq, to, 0);
  }
  if (kind != ARB_MOVE_PROMOTION && ((m >> 12) & 3)) return 0; /* stray promotion bits */
  const arb_bitboard occ = p->by_type[0], own = p->by_color[us], opp = p->by_color[us ^ 1];
  const arb_bitboard to_bb = ARB_BB(to);
  if ((own & to_bb) || (opp & p->by_type[ARB_KING] & to_bb)) return 0;
  const arb_piece_type type = ARB_PIECE_TYPE(pc);
  if (type == ARB_PAWN) {
    const int fwd = us == ARB_WHITE ? 8 : -8;
    if (kind == ARB_MOVE_EN_PASSANT) {
      if (to != p->ep_square || !(arb__tab.pawn[us][from] & to_bb)) return 0;
    } else {
      if ((ARB_RANK_OF(to) == (us == ARB_WHITE ? 7 : 0)) != (kind == ARB_MOVE_PROMOTION)) return 0;
      if (arb__tab.pawn[us][from] & to_bb) {
        if (!(opp & to_bb)) return 0;
      } else if ((int)to == (int)from + fwd) {
        if (occ & to_bb) return 0;
      } else if ((int)to == (int)from + 2 * fwd && ARB_RANK_OF(from) == (us == ARB_WHITE ? 1 : 6)) {
        if (occ & (ARB_BB(from + fwd) | to_bb)) return 0;
      } else {
        return 0;
      }
    }
  } else {
    if (kind != ARB_MOVE_NORMAL) return 0;
    arb_bitboard att = type == ARB_KNIGHT   ? arb__tab.knight[from]
                       : type == ARB_BISHOP ? arb__bishop_attacks(from, occ)
                       : type == ARB_ROOK   ? arb__rook_attacks(from, occ)
                       : type == ARB_QUEEN  ? arb__queen_attacks(from, occ)
                                            : arb__tab.king[from];
    if (!(att & to_bb)) return 0;
  }
  return arb__pseudo_move_legal(p, m);
}

int arb_gives_check(const arb_position *pos, arb_move move) {
  return arb_is_legal(pos, move) && made_checks(pos, move);
}

/* ---- An independent pseudo-legal generator, only for cross-checking the legal one. ---- */

int arb__generate_pseudo(const arb_position *p, arb_move *list) {
  const int us = p->turn, them = us ^ 1;
  const arb_bitboard occ = p->by_type[0], own = p->by_color[us], opp = p->by_color[them];
  const arb_bitboard enemy_king = p->by_type[ARB_KING] & opp;
  int n = 0;
  for (arb_square s = 0; s < 64; s++) {
    arb_piece pc = p->board[s];
    if (!pc || (int)ARB_PIECE_COLOR(pc) != us) continue;
    arb_bitboard t = 0;
    switch (ARB_PIECE_TYPE(pc)) {
    case ARB_PAWN: {
      int dir = us == ARB_WHITE ? 8 : -8;
      int last = us == ARB_WHITE ? 7 : 0, start = us == ARB_WHITE ? 1 : 6;
      int one = s + dir;
      if (one >= 0 && one < 64 && !(occ & ARB_BB(one))) {
        t |= ARB_BB(one);
        if (ARB_RANK_OF(s) == start && !(occ & ARB_BB(one + dir))) t |= ARB_BB(one + dir);
      }
      t |= arb__tab.pawn[us][s] & opp & ~enemy_king;
      while (t) {
        arb_square to = arb__pop_lsb(&t);
        if (ARB_RANK_OF(to) == last) {
          PROMO_MOVES(list, n, s, to);
        } else {
          list[n++] = ARB_MOVE_MAKE(s, to);
        }
      }
      if (p->ep_square != ARB_NO_SQUARE && (arb__tab.pawn[us][s] & ARB_BB(p->ep_square)))
        list[n++] = ARB_MOVE_MAKE_SPECIAL(s, p->ep_square, ARB_MOVE_EN_PASSANT, ARB_KNIGHT);
      continue;
    }
    default: t = arb__piece_attacks(ARB_PIECE_TYPE(pc), s, occ); break;
    }
    t &= ~own & ~enemy_king;
    while (t)
      list[n++] = ARB_MOVE_MAKE(s, arb__pop_lsb(&t));
  }
  /* Castling, pseudo-legally: rights and empty squares only; the king-safety conditions
   * along the path are checked by the caller (the cross-check test). */
  arb_bitboard rooks = p->castling_rooks & own;
  arb_square ksq = arb__king_sq(p, us);
  while (rooks) {
    arb_square r = arb__pop_lsb(&rooks);
    arb_square kto = arb__castle_king_to(us, ksq, r), rto = arb__castle_rook_to(us, ksq, r);
    arb_bitboard need =
        (arb__tab.between[ksq][kto] | ARB_BB(kto) | arb__tab.between[r][rto] | ARB_BB(rto)) &
        ~(ARB_BB(ksq) | ARB_BB(r));
    if (!(need & occ)) list[n++] = ARB_MOVE_MAKE_SPECIAL(ksq, r, ARB_MOVE_CASTLING, ARB_KNIGHT);
  }
  return n;
}

/* ---- perft: leaf-node counts of the legal move tree ---- */

/* The count of the legal moves of c, whose side to move is White (Black): not inline, so that
 * MODE_LEAVES calls one copy of the counting generator for every child. */
#define LEAVES_FN(name, us, leaf)                                                                  \
  static __attribute__((noinline)) int name(const arb_position *c) {                               \
    return generate(c, NULL, MODE_COUNT, us, NULL, NULL, leaf, NULL);                              \
  }
LEAVES_FN(leaves_white, ARB_WHITE, 0)
LEAVES_FN(leaves_white_q, ARB_WHITE, LEAF_QUIET)
LEAVES_FN(leaves_white_p, ARB_WHITE, LEAF_PLAIN)
LEAVES_FN(leaves_white_qp, ARB_WHITE, LEAF_QUIET | LEAF_PLAIN)
LEAVES_FN(leaves_black, ARB_BLACK, 0)
LEAVES_FN(leaves_black_q, ARB_BLACK, LEAF_QUIET)
LEAVES_FN(leaves_black_p, ARB_BLACK, LEAF_PLAIN)
LEAVES_FN(leaves_black_qp, ARB_BLACK, LEAF_QUIET | LEAF_PLAIN)
#undef LEAVES_FN

static inline __attribute__((always_inline)) int leaves_of(const arb_position *c, int us, int quiet,
                                                           int plain) {
  if (us == ARB_WHITE)
    return plain ? (quiet ? leaves_white_qp(c) : leaves_white_p(c))
                 : (quiet ? leaves_white_q(c) : leaves_white(c));
  return plain ? (quiet ? leaves_black_qp(c) : leaves_black_p(c))
               : (quiet ? leaves_black_q(c) : leaves_black(c));
}

/* MODE_LEAVES: the count of the legal moves after the piece of type `type` of the side to move
 * `us` goes from -> to (it becomes `becomes`: itself, or a promotion's piece; ep: the child's en
 * passant square; quiet: the move gives no check, see generate; capture: the move takes the piece
 * the mailbox of p shows on `to`).  The child is made on w, a copy of p that only this function
 * changes, by code that knows the piece: the bitboards it changes, the castling rooks and the en
 * passant square, all the counting reads (no mailbox, key, clocks or undo); then the bitboards are
 * put back from p.  The child's castling rooks and en passant square are written for every child,
 * so w's stay whatever the last child's were. */
static inline __attribute__((always_inline)) int
leaves_after(const arb_position *restrict p, arb_position *restrict w, int us, arb_piece_type type,
             arb_square from, arb_square to, arb_piece_type becomes, arb_square ep, int quiet,
             int capture) {
  const int them = us ^ 1;
  const arb_bitboard f = ARB_BB(from), t = ARB_BB(to);
  const arb_piece_type taken = capture ? ARB_PIECE_TYPE(p->board[to]) : ARB_NO_TYPE;
  w->by_type[type] ^= f;
  w->by_type[becomes] ^= t;
  w->by_color[us] ^= f | t;
  if (capture) {
    w->by_type[taken] ^= t;
    w->by_color[them] ^= t;
    w->by_type[0] ^= f;
  } else {
    w->by_type[0] ^= f | t;
  }
  /* as arb__make: the rooks on either square, and a king's move all of its side's */
  arb_bitboard lost = f | t;
  if (type == ARB_KING) lost |= ARB_RANK_BB(us == ARB_WHITE ? 0 : 7);
  w->castling_rooks = p->castling_rooks & ~lost;
  w->ep_square = ep;
  const int n =
      leaves_of(w, them, quiet, ep == ARB_NO_SQUARE && !(w->castling_rooks & w->by_color[them]));
  /* unmade from p */
  w->by_type[type] = p->by_type[type];
  w->by_type[becomes] = p->by_type[becomes];
  w->by_color[us] = p->by_color[us];
  w->by_type[0] = p->by_type[0];
  if (capture) {
    w->by_type[taken] = p->by_type[taken];
    w->by_color[them] = p->by_color[them];
  }
  return n;
}

/* MODE_LEAVES for the rare moves (en passant, castling): made by arb__make on a copy. */
static int leaves_after_make(const arb_position *p, int us, arb_move m) {
  arb_position c = *p;
  arb_undo u;
  arb__make(&c, m, &u, 0);
  return us == ARB_WHITE ? leaves_black(&c) : leaves_white(&c);
}

static uint64_t perft_rec(const arb_position *p, int depth);

/* The moves of p listed and made, and the leaves below each child counted by perft_rec. */
static uint64_t perft_children(const arb_position *p, int depth) {
  arb_move moves[ARB_MAX_MOVES];
  const int n = arb_generate_legal(p, moves);
  uint64_t total = 0;
  arb_undo u;
  for (int i = 0; i < n; i++) {
    arb_position child = *p;
    arb_make_move(&child, moves[i], &u);
    total += perft_rec(&child, depth - 1);
  }
  return total;
}

/* Two plies and more: the moves listed and made; at two, MODE_LEAVES (above), with the check
 * information that tells which moves give check (their children are not quiet). */
static uint64_t perft_rec(const arb_position *p, int depth) {
  if (depth == 1) return (uint64_t)arb_count_legal(p);
  if (depth == 2) {
    arb__check_info ci;
    arb__check_info_init(p, &ci);
    arb_position w = *p; /* the children, each made on it and unmade */
    return (uint64_t)(p->turn == ARB_WHITE
                          ? generate(p, NULL, MODE_LEAVES, ARB_WHITE, &ci, NULL, 0, &w)
                          : generate(p, NULL, MODE_LEAVES, ARB_BLACK, &ci, NULL, 0, &w));
  }
  return perft_children(p, depth);
}

uint64_t arb_perft(const arb_position *pos, int depth) {
  if (depth <= 0) return 1;
  /* MODE_LEAVES takes a child to be in check only when the move gives check, and leaves the
   * enemy king out of its targets: true below a legal move, not below an accepted position whose
   * side not to move is in check already.  Its moves are made first; their children are legal. */
  const int them = pos->turn ^ 1;
  if (depth >= 2 &&
      arb__attackers_by(pos, arb__king_sq(pos, them), pos->turn, pos->by_type[0]) != 0)
    return perft_children(pos, depth);
  return perft_rec(pos, depth);
}
