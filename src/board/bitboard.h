/* Arbiter — MIT licence, see LICENSE.
 *
 * bitboard.h (internal): bit tricks and the attack tables of the board layer.
 * The tables live in one hidden struct filled once by arb_init() (pthread_once) and only read
 * afterwards.
 */
#ifndef ARB_BOARD_BITBOARD_H
#define ARB_BOARD_BITBOARD_H

#include "arbiter/position.h"

#if defined(__BMI2__) && !defined(ARB_NO_PEXT)
#include <immintrin.h>
#define ARB_USE_PEXT 1
#else
#define ARB_USE_PEXT 0
#endif

#define ARB_HIDDEN __attribute__((visibility("hidden")))

#define ARB_BB(sq) (UINT64_C(1) << (sq))
#define ARB_FILE_A_BB UINT64_C(0x0101010101010101)
#define ARB_FILE_H_BB (ARB_FILE_A_BB << 7)
#define ARB_RANK_1_BB UINT64_C(0xFF)
#define ARB_RANK_BB(r) (ARB_RANK_1_BB << (8 * (r)))
#define ARB_FILE_BB(f) (ARB_FILE_A_BB << (f))
#define ARB_LIGHT_SQUARES UINT64_C(0x55AA55AA55AA55AA)
#define ARB_DARK_SQUARES UINT64_C(0xAA55AA55AA55AA55)

static inline int arb__popcount(arb_bitboard b) { return __builtin_popcountll(b); }
static inline arb_square arb__lsb(arb_bitboard b) { return (arb_square)__builtin_ctzll(b); }
static inline arb_square arb__pop_lsb(arb_bitboard *b) {
  arb_square s = arb__lsb(*b);
  *b &= *b - 1;
  return s;
}
static inline int arb__more_than_one(arb_bitboard b) { return (b & (b - 1)) != 0; }

/* Shift a whole board one step; files wrapping around the edge are masked off. */
static inline arb_bitboard arb__north(arb_bitboard b) { return b << 8; }
static inline arb_bitboard arb__south(arb_bitboard b) { return b >> 8; }
static inline arb_bitboard arb__east(arb_bitboard b) { return (b & ~ARB_FILE_H_BB) << 1; }
static inline arb_bitboard arb__west(arb_bitboard b) { return (b & ~ARB_FILE_A_BB) >> 1; }

typedef struct arb__magic {
  arb_bitboard mask;
  uint64_t magic;
  uint32_t offset; /* into the shared slider table */
  uint32_t shift;
} arb__magic;

#define ARB_ROOK_TABLE_SIZE 102400
#define ARB_BISHOP_TABLE_SIZE 5248

/* Castling with the king on file kf and the rook on file rf of a side's first rank. */
typedef struct arb__castle {
  arb_bitboard empty; /* the squares both pass or reach, but for their own two (every square
                       * between them among them: the king goes to the c- or g-file, the rook
                       * next to it inside) */
  arb_bitboard path;  /* the squares the king crosses, its destination left out */
  uint32_t kto;       /* the king's destination */
} arb__castle;

typedef struct arb__tables {
  arb_bitboard knight[64];
  arb_bitboard king[64];
  arb_bitboard pawn[2][64];
  arb_bitboard between[64][64]; /* squares strictly between two aligned squares, else 0 */
  arb_bitboard line[64][64];    /* the whole line through two aligned squares, else 0 */
  arb_bitboard rook_table[ARB_ROOK_TABLE_SIZE];
  arb_bitboard bishop_table[ARB_BISHOP_TABLE_SIZE];
  /* The small slider tables (2 KB, see arb__rook_attacks_small): each square's file, diagonal
   * and anti-diagonal without the square itself; rank_attacks[o][f]: the squares a rook on file
   * f of the first rank attacks along it when the inner six squares hold the bits o. */
  arb_bitboard file_ex[64], diag_ex[64], anti_ex[64];
  uint8_t rank_attacks[64][8];
  /* The squares a rook, or a bishop, attacks from each square on an empty board. */
  arb_bitboard rook_lines[64], bishop_lines[64];
  /* The slider lookups read these, from the arb__magic that arb_init finds (and keeps no
   * further): each square's mask and first row of its part of the slider table (and without PEXT
   * its multiplier and shift), in arrays of their own, so that the square scales straight into
   * every load. */
  arb_bitboard rook_mask[64], bishop_mask[64];
  const arb_bitboard *rook_rows[64], *bishop_rows[64];
#if !ARB_USE_PEXT
  uint64_t rook_magic[64], bishop_magic[64];
  uint8_t rook_shift[64], bishop_shift[64];
#endif
  arb__castle castle[2][8][8]; /* [colour][king's file][rook's file] */
} arb__tables;

/* Searches magic multipliers from scratch into caller-owned tables (scripts/gen_magics.c
 * prints them for src/board/magics.inc).  Only meaningful in builds without PEXT. */
void arb__search_magics(arb__magic *rook, arb_bitboard *rook_table, arb__magic *bishop,
                        arb_bitboard *bishop_table) ARB_HIDDEN;

/* Written once inside arb_init()'s pthread_once, read-only afterwards. */
extern ARB_HIDDEN arb__tables arb__tab;

static inline arb_bitboard arb__rook_attacks(arb_square sq, arb_bitboard occ) {
#if ARB_USE_PEXT
  return arb__tab.rook_rows[sq][_pext_u64(occ, arb__tab.rook_mask[sq])];
#else
  return arb__tab.rook_rows[sq][((occ & arb__tab.rook_mask[sq]) * arb__tab.rook_magic[sq]) >>
                                arb__tab.rook_shift[sq]];
#endif
}

static inline arb_bitboard arb__bishop_attacks(arb_square sq, arb_bitboard occ) {
#if ARB_USE_PEXT
  return arb__tab.bishop_rows[sq][_pext_u64(occ, arb__tab.bishop_mask[sq])];
#else
  return arb__tab.bishop_rows[sq][((occ & arb__tab.bishop_mask[sq]) * arb__tab.bishop_magic[sq]) >>
                                  arb__tab.bishop_shift[sq]];
#endif
}

/* Slider attacks from the small tables: a dozen more instructions than the large ones, but
 * their 2 KB stay in the first-level cache.  For callers that look one attack up now and then
 * between other work (the SAN reader, once per move of a PGN file), where a large table's row
 * is rarely cached.  A line's attacks by subtraction (o - 2s sets the bits up to the first
 * blocker above the slider), the other direction the same on the board turned upside down
 * (bswap), which reverses a file or a diagonal; ranks by table. */
static inline arb_bitboard arb__line_attacks_small(arb_square sq, arb_bitboard occ,
                                                   arb_bitboard mask) {
  arb_bitboard up = occ & mask, down = __builtin_bswap64(up);
  up -= ARB_BB(sq);
  down -= __builtin_bswap64(ARB_BB(sq));
  return (up ^ __builtin_bswap64(down)) & mask;
}

static inline arb_bitboard arb__rook_attacks_small(arb_square sq, arb_bitboard occ) {
  const int shift = sq & 56;
  const arb_bitboard rank = (arb_bitboard)arb__tab.rank_attacks[(occ >> (shift + 1)) & 63][sq & 7]
                            << shift;
  return rank | arb__line_attacks_small(sq, occ, arb__tab.file_ex[sq]);
}

static inline arb_bitboard arb__bishop_attacks_small(arb_square sq, arb_bitboard occ) {
  return arb__line_attacks_small(sq, occ, arb__tab.diag_ex[sq]) |
         arb__line_attacks_small(sq, occ, arb__tab.anti_ex[sq]);
}

static inline arb_bitboard arb__queen_attacks(arb_square sq, arb_bitboard occ) {
  return arb__rook_attacks(sq, occ) | arb__bishop_attacks(sq, occ);
}

/* Squares a knight, bishop, rook, queen or king on sq attacks with occupancy occ; 0 for pawns
 * (their attacks depend on the colour: arb__tab.pawn) and for no piece. */
static inline arb_bitboard arb__piece_attacks(arb_piece_type type, arb_square sq,
                                              arb_bitboard occ) {
  switch (type) {
  case ARB_KNIGHT: return arb__tab.knight[sq];
  case ARB_BISHOP: return arb__bishop_attacks(sq, occ);
  case ARB_ROOK: return arb__rook_attacks(sq, occ);
  case ARB_QUEEN: return arb__queen_attacks(sq, occ);
  case ARB_KING: return arb__tab.king[sq];
  default: return 0;
  }
}

/* Pawns, knights and king of colour `by` attacking sq. */
static inline arb_bitboard arb__leapers_attacking(const arb_position *p, arb_square sq, int by) {
  return p->by_color[by] & ((arb__tab.pawn[by ^ 1][sq] & p->by_type[ARB_PAWN]) |
                            (arb__tab.knight[sq] & p->by_type[ARB_KNIGHT]) |
                            (arb__tab.king[sq] & p->by_type[ARB_KING]));
}

/* Pieces of colour `by` attacking sq, occupancy occ; `small` (a constant where it is called):
 * the sliders' attacks from the small tables (arb__rook_attacks_small). */
static inline arb_bitboard arb__attackers_from(const arb_position *p, arb_square sq, int by,
                                               arb_bitboard occ, const int small) {
  const arb_bitboard rq = (p->by_type[ARB_ROOK] | p->by_type[ARB_QUEEN]) & p->by_color[by];
  const arb_bitboard bq = (p->by_type[ARB_BISHOP] | p->by_type[ARB_QUEEN]) & p->by_color[by];
  return arb__leapers_attacking(p, sq, by) |
         ((small ? arb__rook_attacks_small(sq, occ) : arb__rook_attacks(sq, occ)) & rq) |
         ((small ? arb__bishop_attacks_small(sq, occ) : arb__bishop_attacks(sq, occ)) & bq);
}

/* The squares a rook, or a bishop, on sq attacks on an empty board (= arb__rook_attacks(sq, 0),
 * from a table of their own, 1 KB): the lines an enemy slider must stand on to check or pin. */
static inline arb_bitboard arb__rook_lines(arb_square sq) { return arb__tab.rook_lines[sq]; }
static inline arb_bitboard arb__bishop_lines(arb_square sq) { return arb__tab.bishop_lines[sq]; }

/* Pieces of colour `by` attacking sq, occupancy occ. */
static inline arb_bitboard arb__attackers_by(const arb_position *p, arb_square sq, int by,
                                             arb_bitboard occ) {
  return arb__attackers_from(p, sq, by, occ, 0);
}

/* The same from the small tables: for one-off questions. */
static inline arb_bitboard arb__attackers_by_small(const arb_position *p, arb_square sq, int by,
                                                   arb_bitboard occ) {
  return arb__attackers_from(p, sq, by, occ, 1);
}

static inline arb_square arb__king_sq(const arb_position *p, int c);

/* Every square the pawns `pawns` of colour `color` attack. */
static inline arb_bitboard arb__pawns_attacks(arb_bitboard pawns, int color) {
  const arb_bitboard ahead = color == ARB_WHITE ? arb__north(pawns) : arb__south(pawns);
  return arb__east(ahead) | arb__west(ahead);
}

/* Every square colour `by` attacks, occupancy occ. */
static inline arb_bitboard arb__attacked_by(const arb_position *p, int by, arb_bitboard occ) {
  const arb_bitboard them = p->by_color[by];
  arb_bitboard a = arb__pawns_attacks(p->by_type[ARB_PAWN] & them, by);
  a |= arb__tab.king[arb__king_sq(p, by)];
  for (arb_bitboard b = p->by_type[ARB_KNIGHT] & them; b;)
    a |= arb__tab.knight[arb__pop_lsb(&b)];
  for (arb_bitboard b = (p->by_type[ARB_BISHOP] | p->by_type[ARB_QUEEN]) & them; b;)
    a |= arb__bishop_attacks(arb__pop_lsb(&b), occ);
  for (arb_bitboard b = (p->by_type[ARB_ROOK] | p->by_type[ARB_QUEEN]) & them; b;)
    a |= arb__rook_attacks(arb__pop_lsb(&b), occ);
  return a;
}

static inline arb_square arb__king_sq(const arb_position *p, int c) {
  return arb__lsb(p->by_type[ARB_KING] & p->by_color[c]);
}

#endif
