/* Arbiter — MIT licence, see LICENSE.
 *
 * winnable.c: "can this side ever checkmate?" with a proof either way.
 *
 * A position where the game is already over answers at once (a mate on the board is a
 * helpmate of no moves; stalemate or the side itself mated: it can never mate).  Then material
 * (free), the locked-wall enumeration of dead.c (cheap where it applies), then a cooperative
 * search — both sides play for the mate of the loser — under one node budget, in phases (the
 * table `schedule` below):
 * - limited discrepancy: lines as long as a proof may be that leave the best-ordered move at most
 *   k times, first along the "king walk" ordering (the winner's king comes close, its pieces
 *   bear on the squares around the loser's king), which settles most real positions in a few
 *   dozen nodes;
 * - the same towards each corner: the loser's king and men go to the corner, the winner's king
 *   and men follow — and, for a lone minor piece, the exact net (the winner's king a knight's
 *   move from the corner, the loser's own men on the two flight squares along the edges, the
 *   diagonal square free for the bishop's check);
 * - probes that follow only the best two or three moves of each node, deepening two plies at a
 *   time (the mate is the winner's move, so only one parity of depth can end in it);
 * - the corner phases again with a little deterministic noise in the ordering (restarts that
 *   break its ties differently), for the long endgame helpmates;
 * - the full search, iterative deepening with a table of positions already searched in vain.
 * The probes are incomplete on purpose: they only ever prove WINNABLE, and every line is
 * replayed to mate before it is believed.  The search never answers UNWINNABLE.
 * Beside the phases runs the exhaustive enumeration of dead.c (reach.h), resumed after each row
 * with as many nodes as that row used: when it has seen every reachable position and no mate,
 * the side can never mate (proof "search"); when it meets a mate, the moves that led there (each
 * position's shortest way seen) are a helpmate line, replayed like any other.  Once the first row
 * has failed, if the winner has at most one piece besides its pawns, the enumeration becomes a
 * best-first search towards mate pictures (make_pictures): the long endgame helpmates of a lone
 * minor piece, where the loser's own men must block its king.
 * At every node where the winner moves, its checks are first tried for a mate in one (a check
 * that leaves the king a flight it cannot have taken away is not even made); no line returns to
 * a position already on it (a helpmate never needs to).
 * Moves are ordered without making them, from bitboards: checks (arb__check_info), captures,
 * promotions, distances.  The weights were tuned on the final positions of lichess games lost on
 * time (bench/dead) and checked on the final positions of the other games of the PGN corpus.
 */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "arbiter/status.h"
#include "board/board_internal.h"
#include "board/make.h"
#include "rules/reach.h"

/* The enumeration's first slice, before any helpmate phase, when the side to move has at most
 * FORCED_MOVES moves (else the first expansion alone would cost as much as most helpmates) and
 * may_be_forced says so. */
#define FORCED_NODES 16
#define FORCED_MOVES 3
#ifndef REACH_SHARE
#define REACH_SHARE 1
#endif
#define REACH_MAX (1u << 22) /* positions the enumeration may hold (64 bytes each, and index) */
/* Remembered failures, (key, depth) found to have no helpmate: none for the first TT_FIRST
 * nodes, then TT_SMALL entries (a long helpmate of a real game), then TT_SIZE (the full search
 * of a composed position) once the search has made that many nodes. */
#define TT_FIRST 4096
#define TT_SMALL (1u << 12)
#define TT_SIZE (1u << 17)
#define STRUCTURE_COST 16 /* budget nodes per pawn structure visited (structures.c) */
#define STRUCTURE_ROW 2   /* the schedule's row before which the pawn structures are listed */
#ifndef PICTURE_SPAN
#define PICTURE_SPAN 1
#endif
#ifndef PICTURE_NODES
#define PICTURE_NODES 2000 /* the ordered enumeration's first slice (see make_pictures) */
#endif

typedef struct tt_entry {
  uint64_t key;
  uint8_t depth;
} tt_entry;

/* The orderings (see score_loser_walk, score_winner_walk and score_corner). */
typedef enum order {
  CHECKS_FIRST, /* checks, captures, promotions first: short mates */
  KING_WALK,    /* the winner's king comes close first; its checks that lead nowhere rank low */
  PAWNS_RUN,    /* KING_WALK, and the loser's pawns run: against a lone minor piece the loser
                 * must promote to a piece that blocks its own king */
  CORNER,       /* everything heads for one corner */
  CORNER_NET,   /* the exact net of a lone minor piece in one corner */
  TRADE         /* the loser gives its men away (onto squares the winner attacks, pawns
                 * promoted to be given), the winner takes and promotes: the pawn endings
                 * where the winner's pawns must change files to pass */
} order;

/* Weights of the orderings (higher first). */
enum {
  W_CHECK = 25,          /* a check, ordering CHECKS_FIRST, and for the loser */
  W_CHECK_WALKING = -20, /* a check by the winner in KING_WALK and PAWNS_RUN */
  W_PROMOTION = 25,      /* plus the piece type */
  W_LOSER_KING_EDGE = 6, /* per step of the loser's king towards the edge */
  W_SELF_BLOCK = 6,      /* a loser's man next to its own king */
  W_LOSER_PAWN_RUN = 8,  /* per rank the loser's pawn reaches, PAWNS_RUN */
  W_LOSER_CAPTURE = -40, /* capturing the winner's material helps no mate */
  W_WINNER_CAPTURE = 4,  /* capturing the loser's */
  W_PAWN_FOR_QUEEN = 12, /* per rank the winner's pawn reaches when it has no queen or rook */
  W_PAWN = 1,            /* per rank the winner's pawn reaches otherwise */
  W_KING_WALK = 240,     /* per step of the winner's king towards the loser's, walking */
  W_PIECE_CLOSER = 1,    /* per step of the winner's piece towards the loser's king */
  W_NEW_QUEEN = 125,     /* a new queen for a winner without queen or rook */
  W_KING_ZONE = 4,       /* per square around the loser's king the piece newly attacks */
  /* CORNER and CORNER_NET */
  W_C_CASTLING = -50,       /* castling goes nowhere near a corner */
  W_C_LOSER_KING = 10,      /* per step of the loser's king towards the corner */
  W_C_LOSER_MAN = 3,        /* per step of a loser's man towards the corner (NET: its flights) */
  W_C_LOSER_PAWN = 4,       /* a loser's pawn move (CORNER) */
  W_C_CORNER_TAKEN = -30,   /* a loser's man onto the corner, where its king must stand */
  W_C_LOSER_PROMOTION = 20, /* a loser's promotion to anything but a queen (NET: a knight, twice) */
  W_C_WINNER_CHECK = 5,
  W_C_WINNER_KING = 10, /* per step of the winner's king towards its square (2 from the corner) */
  W_C_WINNER_PAWN = 8,  /* per rank the winner's pawn reaches when it has no queen or rook */
  W_C_WINNER_PIECE = 2, /* per step of the winner's piece towards the corner */
  W_C_NEW_QUEEN = 30,
  W_C_WINNER_CAPTURE = 5,
  W_C_NET_CAPTURE = -20, /* NET: the loser's men are the net */
  /* TRADE */
  W_T_OFFER_PAWN = 40,   /* a loser's piece onto a square a winner's pawn attacks */
  W_T_OFFER = 12,        /* ... or that the winner attacks otherwise */
  W_T_LOSER_PAWN = 6,    /* per rank the loser's pawn reaches */
  W_T_UNDER = 60,        /* a loser's promotion to a knight or bishop */
  W_T_LOSER_TAKES = -60, /* the loser takes */
  W_T_PAWN_TAKES = 70,   /* the winner's pawn takes */
  W_T_TAKES = 30,        /* the winner's piece or king takes */
  W_T_QUEEN = 90,        /* the winner promotes to a queen */
  W_T_PAWN = 8,          /* per rank the winner's pawn reaches */
  W_T_KING = 3,          /* per step of the winner's king towards the loser's */
  W_T_APPROACH = 4       /* per step of a loser's piece towards the squares the winner's pawns
                          * attack */
};

typedef struct phase {
  uint8_t width;     /* moves tried per node; 0: all (the full search) */
  uint8_t lds;       /* 1: limited discrepancy at max_depth; 0: deepening two plies at a time */
  uint8_t order;     /* enum order; CORNER and CORNER_NET phases come in fours, one per corner,
                      * nearest the loser's king first */
  uint8_t max_depth; /* plies */
  uint8_t max_disc;  /* discrepancies (lds) */
  uint8_t noise;     /* 0, or the range of a pseudo-random term added to every score */
  uint32_t budget;   /* nodes for this phase (per corner); 0: what is left */
} phase;

/* Measured on the 6,539 lost-on-time positions of bench/dead, 6,308 of them winnable: the
 * enumeration's first slice (a side to move with at most three moves) meets a mate in 190, the
 * first row proves 6,015, the enumeration heading for the mate pictures 63 (the long helpmates of
 * a lone bishop or knight, which took the later rows up to 380,000 nodes), rows 1, 2 and 4 the
 * last 40.  The TRADE rows and the long noisy restarts come before the noisy corners, which get
 * 8,000 nodes a corner (the community positions of bench/dead --labels: fewer unknown sides). */
static const phase schedule[] = {{2, 1, KING_WALK, 60, 1, 0, 2500},
                                 {2, 1, CORNER, ARB_WIN_MAX_LINE - 1, 1, 0, 1000},
                                 {2, 1, CORNER_NET, ARB_WIN_MAX_LINE - 1, 1, 0, 1000},
                                 {2, 0, CHECKS_FIRST, 30, 0, 0, 1000},
                                 {2, 1, KING_WALK, 31, 2, 0, 8000},
                                 {2, 0, CHECKS_FIRST, 30, 0, 0, 5000},
                                 {2, 1, TRADE, ARB_WIN_MAX_LINE - 1, 1, 0, 5000},
                                 {2, 1, TRADE, ARB_WIN_MAX_LINE - 1, 2, 0, 30000},
                                 {2, 1, CORNER, ARB_WIN_MAX_LINE - 1, 2, 0, 15000},
                                 {2, 1, CORNER_NET, ARB_WIN_MAX_LINE - 1, 2, 0, 15000},
                                 {2, 1, TRADE, ARB_WIN_MAX_LINE - 1, 1, 30, 10000},
                                 {2, 1, TRADE, ARB_WIN_MAX_LINE - 1, 1, 60, 10000},
                                 {2, 1, KING_WALK, ARB_WIN_MAX_LINE - 1, 1, 30, 10000},
                                 {2, 1, KING_WALK, ARB_WIN_MAX_LINE - 1, 1, 60, 10000},
                                 {2, 1, CORNER, ARB_WIN_MAX_LINE - 1, 2, 20, 8000},
                                 {2, 1, CORNER_NET, ARB_WIN_MAX_LINE - 1, 2, 20, 8000},
                                 {2, 1, CORNER, ARB_WIN_MAX_LINE - 1, 2, 40, 8000},
                                 {2, 1, CORNER_NET, ARB_WIN_MAX_LINE - 1, 2, 40, 8000},
                                 {3, 1, CHECKS_FIRST, ARB_WIN_MAX_LINE - 1, 3, 0, 30000},
                                 {3, 1, PAWNS_RUN, ARB_WIN_MAX_LINE - 1, 3, 0, 30000},
                                 {0, 0, CHECKS_FIRST, ARB_WIN_MAX_LINE - 1, 0, 0, 0}};

typedef struct search {
  int winner;
  int width, lds, disc; /* of the phase; disc: discrepancies still allowed on this line */
  int spine;            /* an LDS step after the first: its discrepancies (see helpmate), or 0 */
  order ord;
  arb_square corner;     /* CORNER, CORNER_NET */
  arb_bitboard diagonal; /* CORNER_NET: the corner's neighbour on the diagonal */
  int noise;
  uint64_t seed;
  int mate_len; /* plies of the line found */
  uint64_t nodes, budget;
  tt_entry *tt;          /* tt_size entries, or NULL (then nothing is remembered) */
  size_t tt_size;        /* grown by grow_table as the search runs long */
  uint64_t tt_grow;      /* the node count at which it grows next */
  struct pictures *pics; /* the enumeration's order, once the first row has failed (or NULL) */
  /* From here on, written before they are read (arb_winnability_of clears only the fields
   * above): the line and its positions by ply, the corner's tables by aim_at_corner. */
  arb_move line[ARB_WIN_MAX_LINE];
  uint64_t path[ARB_WIN_MAX_LINE]; /* keys of the positions on the current line */
  /* seen[ply]: one bit (of 256, from the key's top byte) for each position on the line at ply,
   * ply - 2, ...: most positions are new, and one test says so (with 64 bits, a line of 30
   * positions a side sent two children in five to the scan of path) */
  uint64_t seen[ARB_WIN_MAX_LINE][4];
  /* Distances from every square: to the corner; to the nearer of its two neighbours along the
   * edges (CORNER_NET: the flight squares the loser's men must block); to the nearer of the
   * two squares a knight's move from it (CORNER_NET: where the winner's king must stand). */
  uint8_t to_corner[64], to_flights[64], to_king_squares[64];
} search;

/* What every move's score at one node shares. */
typedef struct node {
  const arb_position *p;
  int winner_to_move;
  arb_square loser_king;
  int needs_queen;   /* the side to move has neither queen nor rook */
  arb_bitboard zone; /* the loser's king and the squares around it */
  int forward;       /* rank of a square, counted from the side to move's first rank: XOR 0 or 7 */
  arb_bitboard pawn_hits, hits; /* TRADE, the loser to move: squares the winner's pawns attack,
                                 * and all the winner attacks */
} node;

/* The king's distance between two squares, by their difference on a board 16 squares wide (the
 * 0x88 layout): one table of 239 entries, max(|rank difference|, |file difference|). */
static const uint8_t distance_by_delta[239] = {
    7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 0, 7, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
    7, 0, 7, 6, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 7, 0, 7, 6, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4,
    5, 6, 7, 0, 7, 6, 5, 4, 3, 3, 3, 3, 3, 3, 3, 4, 5, 6, 7, 0, 7, 6, 5, 4, 3, 2, 2, 2, 2, 2,
    3, 4, 5, 6, 7, 0, 7, 6, 5, 4, 3, 2, 1, 1, 1, 2, 3, 4, 5, 6, 7, 0, 7, 6, 5, 4, 3, 2, 1, 0,
    1, 2, 3, 4, 5, 6, 7, 0, 7, 6, 5, 4, 3, 2, 1, 1, 1, 2, 3, 4, 5, 6, 7, 0, 7, 6, 5, 4, 3, 2,
    2, 2, 2, 2, 3, 4, 5, 6, 7, 0, 7, 6, 5, 4, 3, 3, 3, 3, 3, 3, 3, 4, 5, 6, 7, 0, 7, 6, 5, 4,
    4, 4, 4, 4, 4, 4, 4, 4, 5, 6, 7, 0, 7, 6, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 6, 7, 0, 7, 6,
    6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 7, 0, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7};

static int distance(arb_square a, arb_square b) {
  return distance_by_delta[(int)(a + (a & 56)) - (int)(b + (b & 56)) + 119];
}

/* The distance from sq to the nearest square of a non-empty set. */
static int distance_to_set(arb_square sq, arb_bitboard set) {
  int best = 8;
  while (set) {
    int d = distance(sq, arb__pop_lsb(&set));
    if (d < best) best = d;
  }
  return best;
}

/* How far a square is from the edge of the board (0 on the edge, 3 in the centre). */
static const uint8_t centrality_of[64] = {
    0, 0, 0, 0, 0, 0, 0, 0, /* rank 1 */
    0, 1, 1, 1, 1, 1, 1, 0, /* */
    0, 1, 2, 2, 2, 2, 1, 0, /* */
    0, 1, 2, 3, 3, 2, 1, 0, /* */
    0, 1, 2, 3, 3, 2, 1, 0, /* */
    0, 1, 2, 2, 2, 2, 1, 0, /* */
    0, 1, 1, 1, 1, 1, 1, 0, /* */
    0, 0, 0, 0, 0, 0, 0, 0  /* rank 8 */
};

static int rank_reached(const node *n, arb_square to) { return ARB_RANK_OF(to) ^ n->forward; }

/* CORNER and CORNER_NET, towards s->corner. */
static int score_corner(const search *s, const node *n, arb_move m, int check) {
  const arb_position *p = n->p;
  const arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m), c = s->corner;
  const arb_piece_type type = ARB_PIECE_TYPE(p->board[from]);
  const int net = s->ord == CORNER_NET;
  int v = 0;
  if (ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING) return W_C_CASTLING;
  if (!n->winner_to_move) {
    if (to == c && type != ARB_KING) v += W_C_CORNER_TAKEN;
    if (type == ARB_KING) {
      v += W_C_LOSER_KING * (s->to_corner[from] - s->to_corner[to]);
    } else if (net) { /* onto the flight squares, off the diagonal one */
      v += W_C_LOSER_MAN * (s->to_flights[from] - s->to_flights[to]);
      if (s->diagonal & ARB_BB(from)) v += 2 * W_C_LOSER_MAN;
      if (s->diagonal & ARB_BB(to)) v -= 2 * W_C_LOSER_MAN;
    } else if (type == ARB_PAWN) {
      v += W_C_LOSER_PAWN;
    } else {
      v += W_C_LOSER_MAN * (s->to_corner[from] - s->to_corner[to]);
    }
    /* A new blocker; in the net, a knight: a rook or queen next to the king refutes a bishop's
     * check, a bishop is of one colour (status.c, the bishops' material rule). */
    if (ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION && ARB_MOVE_PROMO(m) != ARB_QUEEN)
      v += !net                              ? W_C_LOSER_PROMOTION
           : ARB_MOVE_PROMO(m) == ARB_KNIGHT ? 2 * W_C_LOSER_PROMOTION
                                             : 0;
    if (p->board[to]) v += W_LOSER_CAPTURE;
    return v;
  }
  if (check) v += W_C_WINNER_CHECK;
  if (type == ARB_KING && net) {
    v += W_C_WINNER_KING * (s->to_king_squares[from] - s->to_king_squares[to]);
  } else if (type == ARB_KING) {
    int df = s->to_corner[from] - 2, dt = s->to_corner[to] - 2;
    v += W_C_WINNER_KING * ((df < 0 ? -df : df) - (dt < 0 ? -dt : dt));
  } else if (type == ARB_PAWN) {
    v += (n->needs_queen ? W_C_WINNER_PAWN : 1) * rank_reached(n, to);
  } else if (!(type == ARB_BISHOP && net)) { /* a bishop checks from afar */
    v += W_C_WINNER_PIECE * (s->to_corner[from] - s->to_corner[to]);
  }
  if (ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION && ARB_MOVE_PROMO(m) == ARB_QUEEN) v += W_C_NEW_QUEEN;
  if (p->board[to]) v += net ? W_C_NET_CAPTURE : W_C_WINNER_CAPTURE;
  return v;
}

/* TRADE (see the order). */
static int score_trade(const node *n, arb_move m, int check) {
  const arb_position *p = n->p;
  const arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
  const arb_piece_type type = ARB_PIECE_TYPE(p->board[from]);
  const int kind = (int)ARB_MOVE_KIND(m);
  const int takes = p->board[to] && kind != ARB_MOVE_CASTLING;
  int v = 0;
  if (!n->winner_to_move) {
    if (takes) v += W_T_LOSER_TAKES;
    if (kind == ARB_MOVE_PROMOTION)
      return v +
             (ARB_MOVE_PROMO(m) == ARB_KNIGHT || ARB_MOVE_PROMO(m) == ARB_BISHOP ? W_T_UNDER : 0);
    if (type == ARB_PAWN) return v + W_T_LOSER_PAWN * rank_reached(n, to);
    if (type == ARB_KING) return v + W_LOSER_KING_EDGE * (centrality_of[from] - centrality_of[to]);
    if (n->pawn_hits & ARB_BB(to))
      v += W_T_OFFER_PAWN;
    else if (n->hits & ARB_BB(to))
      v += W_T_OFFER;
    return v +
           W_T_APPROACH * (distance_to_set(from, n->pawn_hits) - distance_to_set(to, n->pawn_hits));
  }
  if (check) v += W_C_WINNER_CHECK;
  if (takes) v += type == ARB_PAWN ? W_T_PAWN_TAKES : W_T_TAKES;
  if (kind == ARB_MOVE_PROMOTION) return v + (ARB_MOVE_PROMO(m) == ARB_QUEEN ? W_T_QUEEN : 0);
  if (type == ARB_PAWN) return v + W_T_PAWN * rank_reached(n, to);
  if (type == ARB_KING)
    return v + W_T_KING * (distance(from, n->loser_king) - distance(to, n->loser_king));
  return v + W_PIECE_CLOSER * (distance(from, n->loser_king) - distance(to, n->loser_king));
}

/* With AVX-512 (VBMI, VBMI2), the per-move work of a node — the walking orderings' scores, the
 * checking moves, the best move — is done 32 moves at a time: the squares' properties are 64-byte
 * tables looked up with one permute, so no branch depends on the move.  Without, the scalar loops
 * below compute exactly the same numbers. */
#if defined(__AVX512BW__) && defined(__AVX512VL__) && defined(__AVX512VBMI__) &&                   \
    defined(__AVX512VBMI2__)
#define WIN_VECTOR_CPU 1
#else
#define WIN_VECTOR_CPU 0
#endif
/* WIN_SCALAR: the scalar code even so (tests/winnable_scalar.c compares the two). */
#if WIN_VECTOR_CPU && !defined(WIN_SCALAR)
#include <immintrin.h>
#define WIN_SIMD 1
#else
#define WIN_SIMD 0
#endif
#define ROOM 32 /* the vector code reads and writes whole chunks of 32 moves */

#if WIN_SIMD
/* 32 moves from moves[base]: the moves as 16-bit lanes, their squares as byte indices. */
typedef struct chunk {
  __m512i mv, from, to; /* from, to: bytes 0..31 (the rest zero) */
  __mmask32 valid;      /* lanes below the move count */
} chunk;

static inline chunk load_chunk(const arb_move *moves, int base, int count) {
  chunk c;
  c.valid = count - base >= 32 ? ~(__mmask32)0 : (((__mmask32)1 << (count - base)) - 1);
  c.mv = _mm512_maskz_loadu_epi16(c.valid, moves + base);
  const __m512i sq = _mm512_set1_epi16(63);
  c.to = _mm512_zextsi256_si512(_mm512_cvtepi16_epi8(_mm512_and_si512(c.mv, sq)));
  c.from = _mm512_zextsi256_si512(
      _mm512_cvtepi16_epi8(_mm512_and_si512(_mm512_srli_epi16(c.mv, 6), sq)));
  return c;
}

/* A board as 64 bytes, `value` on its squares. */
static inline __m512i bytes_of(arb_bitboard b, char value) {
  return _mm512_maskz_set1_epi8(b, value);
}

/* The moves of the chunk that start from sq. */
static inline __mmask32 moves_from(const chunk *c, arb_square sq) {
  return (__mmask32)_mm512_cmpeq_epi8_mask(c->from, _mm512_set1_epi8((char)sq)) & c->valid;
}

/* The moves of the 32 from checks[base] that give check (checks[i]: 0 or 1). */
static inline __mmask32 checking_mask(const unsigned char *checks, int base) {
  return _mm256_test_epi8_mask(_mm256_loadu_si256((const __m256i *)(checks + base)),
                               _mm256_set1_epi8(1));
}

/* table[index] for the 32 byte indices, as 16-bit lanes. */
static inline __m512i lookup16(__m512i index, __m512i table) {
  return _mm512_cvtepu8_epi16(_mm512_castsi512_si256(_mm512_permutexvar_epi8(index, table)));
}

/* Stores 32 16-bit scores as ints. */
static inline void store_scores(int *scores, __m512i v) {
  _mm512_storeu_si512((void *)scores, _mm512_cvtepi16_epi32(_mm512_castsi512_si256(v)));
  _mm512_storeu_si512((void *)(scores + 16),
                      _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(v, 1)));
}

static const uint8_t rank_of_square[64] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
    4, 4, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7};

/* Chebyshev distance from sq to every square, as bytes. */
static inline __m512i distances_from(arb_square sq) {
  const __m512i iota = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
      40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
      17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i files = _mm512_and_si512(iota, _mm512_set1_epi8(7));
  const __m512i ranks = _mm512_loadu_si512((const void *)rank_of_square);
  const __m512i df = _mm512_abs_epi8(_mm512_sub_epi8(files, _mm512_set1_epi8((char)(sq & 7))));
  const __m512i dr = _mm512_abs_epi8(_mm512_sub_epi8(ranks, _mm512_set1_epi8((char)(sq >> 3))));
  return _mm512_max_epu8(df, dr);
}
#endif

/* The indices of the moves that give check (checks[i] != 0), in order; returns how many.
 * checks and checking need ROOM entries past count. */
static inline __attribute__((always_inline)) int checking_moves(const unsigned char *checks,
                                                                int count, uint16_t *checking) {
  int nchecks = 0;
#if WIN_SIMD
  const __m512i iota = _mm512_set_epi16(31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17,
                                        16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  for (int base = 0; base < count; base += 32) {
    const __mmask32 valid =
        count - base >= 32 ? ~(__mmask32)0 : (((__mmask32)1 << (count - base)) - 1);
    const __mmask32 chk = checking_mask(checks, base) & valid;
    const __m512i index = _mm512_add_epi16(iota, _mm512_set1_epi16((short)base));
    _mm512_storeu_si512((void *)(checking + nchecks), _mm512_maskz_compress_epi16(chk, index));
    nchecks += __builtin_popcount(chk);
  }
#else
  for (int i = 0; i < count; i++) {
    checking[nchecks] = (uint16_t)i; /* kept only when it checks: no branch */
    nchecks += checks[i];
  }
#endif
  return nchecks;
}

/* The first index of the highest score in scores[from..count); count > from.  scores needs
 * ROOM entries past count. */
static inline __attribute__((always_inline)) int best_index(const int *scores, int from,
                                                            int count) {
#if WIN_SIMD
  const __m512i low = _mm512_set1_epi32(INT32_MIN);
  __m512i top = low;
  for (int base = from; base < count; base += 16) {
    const __mmask16 valid =
        count - base >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (count - base)) - 1);
    top = _mm512_max_epi32(top, _mm512_mask_loadu_epi32(low, valid, scores + base));
  }
  const __m512i max = _mm512_set1_epi32(_mm512_reduce_max_epi32(top));
  for (int base = from;; base += 16) {
    const __mmask16 valid =
        count - base >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (count - base)) - 1);
    const __mmask16 eq =
        _mm512_mask_cmpeq_epi32_mask(valid, _mm512_maskz_loadu_epi32(valid, scores + base), max);
    if (eq) return base + __builtin_ctz(eq);
  }
#else
  int best = from, top = scores[from];
  for (int j = from + 1; j < count; j++) {
    const int sj = scores[j], better = sj > top;
    best = better ? j : best;
    top = better ? sj : top;
  }
  return best;
#endif
}

/* CHECKS_FIRST, KING_WALK and PAWNS_RUN: the scores of moves[0..count) into scores[], one loop
 * per side (few branches: in a search that runs once per position, mispredicted branches cost
 * more than the arithmetic).  checks[i]: whether moves[i] gives check. */
static inline __attribute__((always_inline)) void score_loser_walk(const search *s, const node *n,
                                                                   const arb_move *moves,
                                                                   const unsigned char *checks,
                                                                   int *scores, int count) {
  const arb_position *p = n->p;
  const arb_square lk = n->loser_king;
  const arb_bitboard occ = p->by_type[0], near_king = arb__tab.king[lk];
  const int run = s->ord == PAWNS_RUN ? W_LOSER_PAWN_RUN : 0;
#if WIN_SIMD
  const __m512i centrality = _mm512_loadu_si512((const void *)centrality_of);
  const __m512i ranks = _mm512_xor_si512(_mm512_loadu_si512((const void *)rank_of_square),
                                         _mm512_set1_epi8((char)n->forward));
  const __m512i block = bytes_of(near_king, W_SELF_BLOCK), taken = bytes_of(occ, 1);
  const __m512i pawns = bytes_of(p->by_type[ARB_PAWN], 1);
  for (int base = 0; base < count; base += 32) {
    const chunk c = load_chunk(moves, base, count);
    const __m512i kind = _mm512_srli_epi16(c.mv, 14);
    const __mmask32 king = moves_from(&c, lk);
    const __m512i edge = _mm512_mullo_epi16(
        _mm512_sub_epi16(lookup16(c.from, centrality), lookup16(c.to, centrality)),
        _mm512_set1_epi16(W_LOSER_KING_EDGE));
    __m512i v = _mm512_mask_blend_epi16(king, lookup16(c.to, block), edge);
    v = _mm512_add_epi16(
        v, _mm512_mullo_epi16(lookup16(c.to, taken), _mm512_set1_epi16(W_LOSER_CAPTURE)));
    if (run)
      v = _mm512_add_epi16(
          v, _mm512_mullo_epi16(_mm512_mullo_epi16(lookup16(c.from, pawns), lookup16(c.to, ranks)),
                                _mm512_set1_epi16((short)run)));
    v = _mm512_maskz_mov_epi16(_mm512_cmpneq_epi16_mask(kind, _mm512_set1_epi16(ARB_MOVE_CASTLING)),
                               v);
    v = _mm512_mask_add_epi16(v, checking_mask(checks, base), v, _mm512_set1_epi16(W_CHECK));
    const __m512i promo =
        _mm512_add_epi16(_mm512_and_si512(_mm512_srli_epi16(c.mv, 12), _mm512_set1_epi16(3)),
                         _mm512_set1_epi16(W_PROMOTION + ARB_KNIGHT));
    v = _mm512_mask_add_epi16(
        v, _mm512_cmpeq_epi16_mask(kind, _mm512_set1_epi16(ARB_MOVE_PROMOTION)), v, promo);
    store_scores(scores + base, v);
  }
#else
  for (int i = 0; i < count; i++) {
    const arb_move m = moves[i];
    const arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
    const unsigned kind = ARB_MOVE_KIND(m);
    const int king = W_LOSER_KING_EDGE * (centrality_of[from] - centrality_of[to]);
    const int block = (int)((near_king >> to) & 1) * W_SELF_BLOCK;
    const int pawn = ARB_PIECE_TYPE(p->board[from]) == ARB_PAWN;
    int v = (from == lk ? king : block) + (int)((occ >> to) & 1) * W_LOSER_CAPTURE +
            pawn * run * rank_reached(n, to);
    v = kind == ARB_MOVE_CASTLING ? 0 : v;
    v += checks[i] * W_CHECK;
    v += kind == ARB_MOVE_PROMOTION ? W_PROMOTION + (int)ARB_MOVE_PROMO(m) : 0;
    scores[i] = v;
  }
#endif
}

/* The most any move but the king's can score in KING_WALK and PAWNS_RUN, promotions aside: a
 * pawn's run, or a piece's step closer and the squares it newly attacks around the loser's
 * king, plus a capture. */
enum {
  W_NON_KING_MAX = (7 * W_PAWN_FOR_QUEEN > 7 * W_PIECE_CLOSER + 9 * W_KING_ZONE
                        ? 7 * W_PAWN_FOR_QUEEN
                        : 7 * W_PIECE_CLOSER + 9 * W_KING_ZONE) +
                   W_WINNER_CAPTURE + (W_CHECK_WALKING > 0 ? W_CHECK_WALKING : 0),
  W_UNSCORED = -30000 /* a move left unscored: never the best (and fits 16 bits) */
};

/* What zone_gain keeps of the last piece it saw (a piece's moves come together). */
typedef struct zone_cache {
  arb_square from;
  arb_piece_type type;
  arb_bitboard occ; /* the board without the piece */
  int before;       /* zone squares the piece attacks where it stands */
} zone_cache;

/* The zone term of a piece's move: the squares around the loser's king it attacks from `to`,
 * less those it attacked from `from` (its own square taken off the board). */
static inline __attribute__((always_inline)) int
zone_gain(const arb_position *p, arb_bitboard zone, zone_cache *c, arb_square from, arb_square to) {
  if (from != c->from) {
    c->from = from;
    c->type = ARB_PIECE_TYPE(p->board[from]);
    c->occ = p->by_type[0] & ~ARB_BB(from);
    c->before = arb__popcount(arb__piece_attacks(c->type, from, c->occ) & zone);
  }
  return W_KING_ZONE * (arb__popcount(arb__piece_attacks(c->type, to, c->occ) & zone) - c->before);
}

/* Scores the winner's moves.  best_only: only the best move matters (no discrepancy left);
 * then, when the king can step closer and no pawn can promote, nothing else can come first
 * and the other moves are left W_UNSCORED.  Returns 1 when it left some unscored. */
static inline __attribute__((always_inline)) int
score_winner_walk(const search *s, const node *n, const arb_move *moves,
                  const unsigned char *checks, int *scores, int count, int best_only) {
  const arb_position *p = n->p;
  const arb_square lk = n->loser_king, wk = arb__king_sq(p, p->turn);
  const arb_bitboard occ = p->by_type[0], pawns = p->by_type[ARB_PAWN];
  const int walking = s->ord != CHECKS_FIRST;
  const int check_w = walking ? W_CHECK_WALKING : W_CHECK;
  const int pawn_w = n->needs_queen ? W_PAWN_FOR_QUEEN : W_PAWN;
  const int king_w = walking ? W_KING_WALK : 0;
  const int king_from = king_w * distance(wk, lk);
  const int new_queen = W_PROMOTION + ARB_QUEEN + (n->needs_queen ? W_NEW_QUEEN : 0);
  const int king_first =
      best_only && walking && !(pawns & p->by_color[p->turn] & ARB_RANK_BB(n->forward ^ 6));
#if WIN_SIMD
  const __m512i dist = distances_from(lk);
  const __m512i ranks = _mm512_xor_si512(_mm512_loadu_si512((const void *)rank_of_square),
                                         _mm512_set1_epi8((char)n->forward));
  const __m512i taken = bytes_of(occ, W_WINNER_CAPTURE), pawn_at = bytes_of(pawns, 1);
  const __m512i pawn_at_any = _mm512_set1_epi8(1);
  __mmask32 pieces[(ARB_MAX_MOVES + 31) / 32];
  __m512i king_best = _mm512_set1_epi16(W_UNSCORED);
  for (int base = 0, k = 0; base < count; base += 32, k++) {
    const chunk c = load_chunk(moves, base, count);
    const __m512i kind = _mm512_srli_epi16(c.mv, 14);
    const __mmask32 king = moves_from(&c, wk);
    const __mmask32 pawn =
        (__mmask32)_mm512_test_epi8_mask(_mm512_permutexvar_epi8(c.from, pawn_at), pawn_at_any) &
        c.valid & ~king;
    const __mmask32 chk = checking_mask(checks, base);
    pieces[k] = c.valid & ~king & ~pawn;
    const __m512i dist_to = lookup16(c.to, dist);
    /* a piece: its step closer; a pawn: the rank it reaches; the king: its step closer */
    __m512i v = _mm512_mullo_epi16(_mm512_sub_epi16(lookup16(c.from, dist), dist_to),
                                   _mm512_set1_epi16(W_PIECE_CLOSER));
    v = _mm512_mask_mullo_epi16(v, pawn, lookup16(c.to, ranks), _mm512_set1_epi16((short)pawn_w));
    v = _mm512_mask_sub_epi16(v, king, _mm512_set1_epi16((short)king_from),
                              _mm512_mullo_epi16(dist_to, _mm512_set1_epi16((short)king_w)));
    v = _mm512_add_epi16(v, lookup16(c.to, taken));
    v = _mm512_mask_add_epi16(v, chk, v, _mm512_set1_epi16((short)check_w));
    const __m512i bits = _mm512_and_si512(_mm512_srli_epi16(c.mv, 12), _mm512_set1_epi16(3));
    const __m512i promo = _mm512_mask_blend_epi16(
        _mm512_cmpeq_epi16_mask(bits, _mm512_set1_epi16(ARB_QUEEN - ARB_KNIGHT)),
        _mm512_add_epi16(bits, _mm512_set1_epi16(W_PROMOTION + ARB_KNIGHT)),
        _mm512_set1_epi16((short)new_queen));
    v = _mm512_mask_add_epi16(
        v, _mm512_cmpeq_epi16_mask(kind, _mm512_set1_epi16(ARB_MOVE_PROMOTION)), v, promo);
    king_best = _mm512_mask_max_epi16(king_best, king, king_best, v);
    store_scores(scores + base, v);
  }
  if (king_first) {
    const int best = _mm512_reduce_max_epi32(
        _mm512_max_epi32(_mm512_cvtepi16_epi32(_mm512_castsi512_si256(king_best)),
                         _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64(king_best, 1))));
    if (best > W_NON_KING_MAX) {
      for (int i = 0; i < count; i++)
        scores[i] = ARB_MOVE_FROM(moves[i]) == wk ? scores[i] : W_UNSCORED;
      return 1;
    }
  }
  zone_cache zc = {ARB_NO_SQUARE, ARB_KNIGHT, 0, 0};
  for (int base = 0, k = 0; base < count; base += 32, k++)
    for (__mmask32 b = pieces[k]; b; b &= b - 1) {
      const int i = base + __builtin_ctz(b);
      scores[i] += zone_gain(p, n->zone, &zc, ARB_MOVE_FROM(moves[i]), ARB_MOVE_TO(moves[i]));
    }
  return 0;
#else
  if (king_first) {
    int best_king = W_UNSCORED;
    for (int i = 0; i < count; i++) {
      const arb_square to = ARB_MOVE_TO(moves[i]);
      const int v = checks[i] * check_w + (int)((occ >> to) & 1) * W_WINNER_CAPTURE + king_from -
                    king_w * distance(to, lk);
      scores[i] = ARB_MOVE_FROM(moves[i]) == wk ? v : W_UNSCORED;
      best_king = scores[i] > best_king ? scores[i] : best_king;
    }
    if (best_king > W_NON_KING_MAX) return 1;
  }
  zone_cache zc = {ARB_NO_SQUARE, ARB_KNIGHT, 0, 0};
  for (int i = 0; i < count; i++) {
    const arb_move m = moves[i];
    const arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
    int v = checks[i] * check_w + (int)((occ >> to) & 1) * W_WINNER_CAPTURE;
    if (ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION)
      v += ARB_MOVE_PROMO(m) == ARB_QUEEN ? new_queen : W_PROMOTION + (int)ARB_MOVE_PROMO(m);
    if (from == wk)
      v += king_from - king_w * distance(to, lk);
    else if ((pawns >> from) & 1)
      v += pawn_w * rank_reached(n, to);
    else
      v += W_PIECE_CLOSER * (distance(from, lk) - distance(to, lk)) +
           zone_gain(p, n->zone, &zc, from, to);
    scores[i] = v;
  }
  return 0;
#endif
}

/* The table of failures, larger as the search runs longer (see TT_FIRST): its entries carried
 * over.  Out of memory, the search goes on with the table it has. */
static void grow_table(search *s) {
  const size_t size = s->tt_size ? TT_SIZE : TT_SMALL;
  s->tt_grow = size == TT_SIZE ? UINT64_MAX : TT_SIZE;
  tt_entry *tt = calloc(size, sizeof *tt);
  if (!tt) return;
  for (size_t i = 0; i < s->tt_size; i++)
    if (s->tt[i].key) tt[s->tt[i].key & (size - 1)] = s->tt[i];
  free(s->tt);
  s->tt = tt;
  s->tt_size = size;
}

/* 1 when the loser is mated within `depth` plies from p; the line is written from `ply`. */
static int helpmate(search *s, const arb_position *p, int depth, int ply) {
  if (s->nodes++ >= s->budget) return 0;
  if (depth == 0) { /* mate: the loser to move, in check, without a move */
    s->mate_len = ply;
    return p->turn != s->winner && arb_in_check(p) && !arb_has_legal_move(p);
  }
  /* The moves, and which of them give check (for the mate in one and the orderings). */
  arb__check_info ci;
  arb__check_info_init(p, &ci);
  arb_move moves[ARB_MAX_MOVES];
  unsigned char checks[ARB_MAX_MOVES + ROOM];
  const int n = arb__generate_checks(p, &ci, moves, checks);
  if (n == 0) {
    s->mate_len = ply;
    return p->turn != s->winner && arb_in_check(p);
  }
  if (s->nodes > s->tt_grow) grow_table(s);
  tt_entry *e = s->tt ? &s->tt[p->key & (s->tt_size - 1)] : NULL;
  if (e && e->key == p->key && e->depth >= depth) return 0; /* searched in vain before */
  const int winner_to_move = p->turn == s->winner;
  /* The mating move is the winner's: with one ply left only its checks can mate; with two
   * left the loser's move must leave a mate in one (any move may). */
  if (depth == 1 && !winner_to_move) return 0;
  /* A line that has left the best move nowhere in an LDS step after the first is the first
   * step's line again (the same scores, the same choices): its mates in one were looked for
   * there, in vain. */
  const int on_spine = s->spine && s->disc == s->spine;
  if (winner_to_move) {                      /* a mate in one first, from the checks alone */
    uint16_t checking[ARB_MAX_MOVES + ROOM]; /* indices of the checking moves */
    const int nchecks = on_spine ? 0 : checking_moves(checks, n, checking);
    /* free: the loser king's flights that nothing attacks now.  After an ordinary move, a square
     * is attacked only if it was, or the moved piece attacks it from its new square, or it lies
     * on a line through the square the piece left (a slider behind it may now see through), or
     * the piece stands on it.  A free flight outside those is still a legal escape: that check
     * cannot mate and is not made (counted as a node all the same, so budgets are unchanged). */
    arb_bitboard free = 0, occ = 0; /* occ: without the loser's king, which flees */
    if (nchecks) {
      const arb_square lk = arb__king_sq(p, p->turn ^ 1);
      occ = p->by_type[0] ^ ARB_BB(lk);
      free = arb__tab.king[lk] & ~p->by_color[p->turn ^ 1] & ~arb__attacked_by(p, p->turn, occ);
    }
    for (int k = 0; k < nchecks; k++) {
      const arb_move m = moves[checking[k]];
      if (free && ARB_MOVE_KIND(m) == ARB_MOVE_NORMAL) {
        const arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
        const arb_piece_type type = ARB_PIECE_TYPE(p->board[from]);
        const arb_bitboard after = (occ ^ ARB_BB(from)) | ARB_BB(to);
        const arb_bitboard taken =
            (type == ARB_PAWN ? arb__tab.pawn[p->turn][to] : arb__piece_attacks(type, to, after)) |
            arb__rook_lines(from) | arb__bishop_lines(from) | ARB_BB(to);
        if (free & ~taken) {
          s->nodes++;
          continue;
        }
      }
      arb_position next = *p;
      arb_undo u;
      arb__make(&next, m, &u, 1);
      s->nodes++;
      if (!arb_has_legal_move(&next)) {
        s->line[ply] = m;
        s->mate_len = ply + 1;
        return 1;
      }
    }
    if (depth == 1) return 0;
  }
  node nd;
  nd.p = p;
  nd.winner_to_move = winner_to_move;
  nd.loser_king = arb__king_sq(p, s->winner ^ 1);
  nd.needs_queen = !(p->by_color[p->turn] & (p->by_type[ARB_QUEEN] | p->by_type[ARB_ROOK]));
  nd.zone = arb__tab.king[nd.loser_king] | ARB_BB(nd.loser_king);
  nd.forward = p->turn == ARB_WHITE ? 0 : 7;
  const int corner = s->ord == CORNER || s->ord == CORNER_NET, trade = s->ord == TRADE;
  nd.pawn_hits = nd.hits = 0; /* read by score_trade for the loser only (gcc -O2 cannot tell) */
  if (trade && !winner_to_move) {
    nd.pawn_hits = arb__pawns_attacks(p->by_type[ARB_PAWN] & p->by_color[s->winner], s->winner);
    nd.hits = arb__attacked_by(p, s->winner, p->by_type[0]);
  }
  int scores[ARB_MAX_MOVES + ROOM];
  const int best_only = s->lds && s->disc == 0 && !s->noise;
  int lazy = 0; /* some moves left unscored (score_winner_walk) */
  if (!corner && !trade) {
    if (winner_to_move)
      lazy = score_winner_walk(s, &nd, moves, checks, scores, n, best_only);
    else
      score_loser_walk(s, &nd, moves, checks, scores, n);
  }
  for (int i = 0; i < n; i++) {
    if (corner) scores[i] = score_corner(s, &nd, moves[i], checks[i]);
    if (trade) scores[i] = score_trade(&nd, moves[i], checks[i]);
    if (s->noise) { /* a restart that breaks ties otherwise: the same for the same seed */
      uint64_t h = (p->key ^ s->seed ^ ((uint64_t)moves[i] * UINT64_C(0x9E3779B97F4A7C15))) *
                   UINT64_C(0xD6E8FEB86659FD93);
      scores[i] += (int)((h >> 40) % (uint64_t)s->noise);
    }
  }
  s->path[ply] = p->key;
  for (int w = 0; w < 4; w++)
    s->seen[ply][w] = ply >= 2 ? s->seen[ply - 2][w] : 0;
  s->seen[ply][p->key >> 62] |= UINT64_C(1) << (p->key >> 56 & 63);
  int tried = 0;
  for (int i = 0; i < n; i++) {
    if (s->width && tried >= s->width) return 0; /* a probe: not a full search, remember nothing */
    if (s->lds && tried > 0 && s->disc == 0) return 0; /* no discrepancy left for another move */
    const int best = best_index(scores, i, n);
    const arb_move m = moves[best];
    const int sc = scores[best];
    const unsigned char ch = checks[best];
    moves[best] = moves[i];
    scores[best] = scores[i];
    checks[best] = checks[i];
    moves[i] = m;
    scores[i] = sc;
    checks[i] = ch;
    arb_position next = *p;
    arb_undo u;
    arb__make(&next, m, &u, 1);
    int again = 0; /* back to a position already on this line (same side to move) */
    if (ply >= 1 && (s->seen[ply - 1][next.key >> 62] >> (next.key >> 56 & 63) & 1))
      for (int k = ply - 1; k >= 0 && !again; k -= 2)
        again = s->path[k] == next.key;
    if (again) {
      if (lazy) { /* the next best may be one left unscored: score them all, start again */
        lazy = score_winner_walk(s, &nd, moves, checks, scores, n, 0);
        i = -1;
      }
      continue;
    }
    const int discrepancy = s->lds && tried > 0; /* another move than the best */
    tried++;
    if (discrepancy) s->disc--; /* there is one left: checked at the top of the loop */
    s->line[ply] = m;
    int found = helpmate(s, &next, depth - 1, ply + 1);
    if (discrepancy) s->disc++;
    if (found) return 1;
    if (s->nodes >= s->budget) return 0;
  }
  /* Searched to the end without a mate: remember it (a key collision, or a line cut where it
   * came back to itself, can only cost a helpmate proof, never make one up — every line is
   * replayed). */
  if (e && !s->width) {
    e->key = p->key;
    e->depth = (uint8_t)depth;
  }
  return 0;
}

/* Replays the line: it must be legal and end with the loser checkmated. */
static int replay_mates(const arb_position *pos, const arb_move *line, int len, int winner) {
  arb_position p = *pos;
  for (int i = 0; i < len; i++) {
    if (!arb_is_legal(&p, line[i])) return 0;
    arb_undo u;
    arb_make_move(&p, line[i], &u);
  }
  return p.turn != winner && arb_is_checkmate(&p);
}

/* Points the search at the corner that is `rank`-th nearest the loser's king (ties in the order
 * a1, h1, a8, h8). */
static void aim_at_corner(search *s, const arb_position *pos, int rank) {
  static const arb_square corners[4] = {0, 7, 56, 63};
  const arb_square lk = arb__king_sq(pos, s->winner ^ 1);
  int rank_of[4] = {0, 1, 2, 3};
  for (int a = 1; a < 4; a++)
    for (int b = a;
         b > 0 && distance(lk, corners[rank_of[b]]) < distance(lk, corners[rank_of[b - 1]]); b--) {
      int t = rank_of[b];
      rank_of[b] = rank_of[b - 1];
      rank_of[b - 1] = t;
    }
  const arb_square c = corners[rank_of[rank]];
  const arb_bitboard flights = arb__tab.king[c] & arb__rook_lines(c);
  s->corner = c;
  s->diagonal = arb__tab.king[c] & ~flights;
  for (int sq = 0; sq < 64; sq++) {
    s->to_corner[sq] = (uint8_t)distance((arb_square)sq, c);
    s->to_flights[sq] = (uint8_t)distance_to_set((arb_square)sq, flights);
    s->to_king_squares[sq] = (uint8_t)distance_to_set((arb_square)sq, arb__tab.knight[c]);
  }
}

/* A cheap guess that the side to move has at most FORCED_MOVES moves: it is in check, or it has
 * nothing but its king and pawns (then the moves are counted). */
static int may_be_forced(const arb_position *pos) {
  const arb_bitboard men = pos->by_color[pos->turn];
  if (!arb_in_check(pos) && (men & ~pos->by_type[ARB_KING] & ~pos->by_type[ARB_PAWN])) return 0;
  return arb_count_legal(pos) <= FORCED_MOVES;
}

/* What is left of `total` once `used` are spent (0 when the enumeration has passed it: one
 * expansion may overshoot its share by up to ARB_MAX_MOVES). */
static uint64_t left(uint64_t total, uint64_t used) { return used < total ? total - used : 0; }

/* Mate pictures: the goal of the ordered enumeration when the winner has at most one piece
 * besides pawns (a lone minor piece, the long endgame helpmates).  A picture is a mate in a
 * corner: the loser's king on the corner; a checker of a given type on one of its checking
 * squares (a knight a knight's move away; a bishop of the corner's colour, a rook or a queen
 * from afar along a line through the corner, covering the flight on it, or on a flight next to
 * the corner, protected by the king, covering that flight and those it attacks); the other flights
 * each covered by the winner's king (from squares next to them and not next to the corner) or held
 * by one of the loser's own men — men that cannot interpose or take (no queens or rooks against a
 * bishop).  A position's distance to a picture is the sum of the moves each man needs on an empty
 * board (a pawn: its steps, to promotion — and the winner's king to a loser's pawn in the way,
 * to take it — and then as the new piece), plus two for each loser's man of a kind that would
 * spoil the mate (it must be given away); the enumeration's distance to the goal (reach.h) is the
 * distance to the nearest picture.  Only an order: the set enumerated, and so any proof, is the
 * same, and a mate found is replayed before it is believed.  A queen picture is also made for a
 * winner with pawns (one promoted). */
#define MAX_PICTURES 128
#define PICTURE_FAR 40 /* a distance that never happens: a square out of reach */

typedef struct picture {
  uint8_t corner, checker, nblocks;
  uint8_t suitable; /* loser's piece types that may hold a flight (bit per type) */
  uint8_t promote;  /* ... and that its pawns may promote to for it */
  uint8_t harmful;  /* loser's piece types that spoil the mate */
  uint8_t holders;  /* 0: suitable and promote are P, N, B and N, B; 1: with R too */
  uint8_t blocks[3];
  uint8_t hold[3];      /* for each of blocks, its table in pictures.holds */
  uint8_t to_check[64]; /* moves of a piece of type checker from each square to a checking square */
  uint8_t to_king[64];  /* moves of the winner's king to its squares (0: free) */
} picture;

/* The moves a loser's man of each type needs to stand on one flight: by_type[type][square] (a
 * pawn's as pawn_distance, PICTURE_FAR for a type that may not hold it). */
typedef struct hold_table {
  uint8_t holders, square;
  uint8_t by_type[ARB_QUEEN + 1][64];
} hold_table;

#define MAX_HOLDS 24 /* (holders, flight): two kinds, twelve flights */

typedef struct pictures {
  int n, winner, nholds;
  picture p[MAX_PICTURES];
  hold_table holds[MAX_HOLDS];
} pictures;

/* Moves of a knight between two squares on an empty board. */
static int knight_distance(arb_square a, arb_square b) {
  static const uint8_t by_offset[8][8] = {{0, 3, 2, 3, 2, 3, 4, 5}, {3, 2, 1, 2, 3, 4, 3, 4},
                                          {2, 1, 4, 3, 2, 3, 4, 5}, {3, 2, 3, 2, 3, 4, 3, 4},
                                          {2, 3, 2, 3, 4, 3, 4, 5}, {3, 4, 3, 4, 3, 4, 5, 4},
                                          {4, 3, 4, 3, 4, 5, 4, 5}, {5, 4, 5, 4, 5, 4, 5, 6}};
  int df = ARB_FILE_OF(a) - ARB_FILE_OF(b), dr = ARB_RANK_OF(a) - ARB_RANK_OF(b);
  df = df < 0 ? -df : df;
  dr = dr < 0 ? -dr : dr;
  const arb_bitboard corners = ARB_BB(0) | ARB_BB(7) | ARB_BB(56) | ARB_BB(63);
  if (df == 1 && dr == 1 && (corners & (ARB_BB(a) | ARB_BB(b)))) return 4;
  return by_offset[df][dr];
}

/* Moves of a piece of type t between two squares on an empty board. */
static int piece_distance(int t, arb_square a, arb_square b) {
  if (a == b) return 0;
  int df = ARB_FILE_OF(a) - ARB_FILE_OF(b), dr = ARB_RANK_OF(a) - ARB_RANK_OF(b);
  df = df < 0 ? -df : df;
  dr = dr < 0 ? -dr : dr;
  switch (t) {
  case ARB_KING: return df > dr ? df : dr;
  case ARB_KNIGHT: return knight_distance(a, b);
  case ARB_BISHOP: return (df + dr) & 1 ? PICTURE_FAR : df == dr ? 1 : 2;
  case ARB_ROOK: return df == 0 || dr == 0 ? 1 : 2;
  default: return df == 0 || dr == 0 || df == dr ? 1 : 2;
  }
}

/* Moves of a pawn of colour c on sq to stand on `to`: its steps along its file, or to promotion
 * and then as a piece of a type in `promote`. */
static int pawn_distance(int c, arb_square sq, arb_square to, int promote) {
  const int rank = ARB_RANK_OF(sq), target = ARB_RANK_OF(to);
  const int steps = c == ARB_WHITE ? 7 - rank : rank;
  const int ahead = c == ARB_WHITE ? target - rank : rank - target;
  if (ARB_FILE_OF(sq) == ARB_FILE_OF(to) && ahead >= 0 && target != 0 && target != 7) return ahead;
  const arb_square promo = (arb_square)(ARB_FILE_OF(sq) + (c == ARB_WHITE ? 56 : 0));
  int best = PICTURE_FAR;
  for (int t = ARB_KNIGHT; t <= ARB_QUEEN; t++)
    if (promote >> t & 1) {
      const int d = piece_distance(t, promo, to);
      best = d < best ? d : best;
    }
  return steps + best;
}

/* out[sq]: the moves of a piece of type t from sq to the nearest square of `to` on an empty board
 * (PICTURE_FAR: never, a bishop of the other colour), found outwards from `to` (t's moves are
 * their own reverse). */
static void distances_to(int t, arb_bitboard to, uint8_t out[64]) {
  memset(out, PICTURE_FAR, 64);
  arb_bitboard reached = to, frontier = to;
  for (int d = 0; frontier; d++) {
    arb_bitboard next = 0;
    for (arb_bitboard b = frontier; b;) {
      const arb_square sq = arb__pop_lsb(&b);
      out[sq] = (uint8_t)d;
      next |= arb__piece_attacks(t, sq, 0);
    }
    frontier = next & ~reached;
    reached |= next;
  }
}

/* Adds the pictures of a checker of type `checker` on `check` covering the flights `covered`:
 * one for each set of the other flights the winner's king can cover from one square. */
static void add_pictures(pictures *pc, arb_square c, int checker, arb_bitboard check,
                         arb_bitboard covered, int suitable, int promote, int harmful,
                         arb_bitboard king_must) {
  arb_square rest[3];
  int nrest = 0;
  for (arb_bitboard f = arb__tab.king[c] & ~covered; f;)
    rest[nrest++] = arb__pop_lsb(&f);
  for (int subset = 0; subset < 1 << nrest && pc->n < MAX_PICTURES; subset++) {
    arb_bitboard king = king_must ? king_must : ~(arb_bitboard)0;
    for (int k = 0; k < nrest; k++)
      if (subset >> k & 1) king &= arb__tab.king[rest[k]];
    king &= ~arb__tab.king[c] & ~ARB_BB(c) & ~check;
    if ((subset || king_must) && !king) continue;
    picture *pi = &pc->p[pc->n++];
    pi->corner = (uint8_t)c;
    pi->checker = (uint8_t)checker;
    pi->suitable = (uint8_t)suitable;
    pi->promote = (uint8_t)promote;
    pi->harmful = (uint8_t)harmful;
    pi->holders = (suitable >> ARB_ROOK) & 1;
    pi->nblocks = 0;
    for (int k = 0; k < nrest; k++)
      if (!(subset >> k & 1)) pi->blocks[pi->nblocks++] = (uint8_t)rest[k];
    distances_to(checker, check, pi->to_check);
    if (subset || king_must)
      distances_to(ARB_KING, king, pi->to_king);
    else
      memset(pi->to_king, 0, sizeof pi->to_king);
  }
}

/* The pictures of a checker of type t against corner c: from afar along each line through the
 * corner (covering the flight on that line; a knight covers none), and from each flight it can
 * check from, protected by the winner's king (covering that flight and those it attacks from
 * there). */
static void add_checker(pictures *pc, arb_square c, int t, int suitable, int promote, int harmful) {
  const arb_bitboard flights = arb__tab.king[c], from = arb__piece_attacks(t, c, 0);
  if (t == ARB_KNIGHT) {
    add_pictures(pc, c, t, from, 0, suitable, promote, harmful, 0);
    return;
  }
  for (arb_bitboard f = from & flights; f;) {
    const arb_square a = arb__pop_lsb(&f);
    const arb_bitboard ray = arb__tab.line[c][a] & from & ~flights;
    if (ray) add_pictures(pc, c, t, ray, ARB_BB(a), suitable, promote, harmful, 0);
    add_pictures(pc, c, t, ARB_BB(a), ARB_BB(a) | (arb__piece_attacks(t, a, 0) & flights), suitable,
                 promote, harmful, arb__tab.king[a]);
  }
}

/* The pictures for `winner` in pos: none unless it has at most one piece besides its pawns; a
 * winner with pawns gets the queen's too (one promoted). */
static void make_pictures(pictures *pc, const arb_position *pos, int winner) {
  pc->n = 0;
  pc->winner = winner;
  const arb_bitboard mine = pos->by_color[winner];
  const arb_bitboard pieces = mine & ~pos->by_type[ARB_PAWN] & ~pos->by_type[ARB_KING];
  if (arb__more_than_one(pieces)) return;
  const int type = pieces ? ARB_PIECE_TYPE(pos->board[arb__lsb(pieces)]) : 0;
  const int pawns = (mine & pos->by_type[ARB_PAWN]) != 0;
  enum {
    P = 1 << ARB_PAWN,
    N = 1 << ARB_KNIGHT,
    B = 1 << ARB_BISHOP,
    R = 1 << ARB_ROOK,
    Q = 1 << ARB_QUEEN
  };
  static const arb_square corners[4] = {0, 7, 56, 63};
  for (int k = 0; k < 4; k++) {
    const arb_square c = corners[k];
    if (type == ARB_KNIGHT) add_checker(pc, c, ARB_KNIGHT, P | N | B | R, N | B | R, Q);
    if (type == ARB_BISHOP &&
        ((pieces & ARB_DARK_SQUARES) != 0) == ((ARB_BB(c) & ARB_DARK_SQUARES) != 0))
      add_checker(pc, c, ARB_BISHOP, P | N | B, N | B, Q | R);
    if (type == ARB_ROOK) add_checker(pc, c, ARB_ROOK, P | N | B, N | B, Q);
    if (type == ARB_QUEEN || pawns) add_checker(pc, c, ARB_QUEEN, P | N | B | R, N | B | R, 0);
  }
  /* One table for each flight some picture needs held, and each kind of holder. */
  pc->nholds = 0;
  for (int i = 0; i < pc->n; i++) {
    picture *pi = &pc->p[i];
    for (int k = 0; k < pi->nblocks; k++) {
      int h = 0;
      while (h < pc->nholds &&
             (pc->holds[h].holders != pi->holders || pc->holds[h].square != pi->blocks[k]))
        h++;
      if (h == pc->nholds) { /* new (at most MAX_HOLDS: two kinds, twelve flights) */
        hold_table *t = &pc->holds[pc->nholds++];
        t->holders = pi->holders;
        t->square = pi->blocks[k];
        for (int man = ARB_PAWN; man <= ARB_QUEEN; man++)
          for (int sq = 0; sq < 64; sq++)
            t->by_type[man][sq] =
                (uint8_t)(!(pi->suitable >> man & 1) ? PICTURE_FAR
                          : man == ARB_PAWN
                              ? pawn_distance(winner ^ 1, (arb_square)sq, t->square, pi->promote)
                              : piece_distance(man, (arb_square)sq, t->square));
      }
      pi->hold[k] = (uint8_t)h;
    }
  }
}

/* What the distances to every picture share, for one position. */
typedef struct picture_view {
  const arb_position *p;
  int loser;
  arb_square loser_king, winner_king;
  int npawns;
  arb_square promo[8];    /* the winner's pawns' promotion squares */
  int steps[8];           /* ... and the moves to get there */
  arb_bitboard men;       /* the loser's men but its king */
  int8_t hold[MAX_HOLDS]; /* the fewest moves for a loser's man to hold a flight, or -1 */
} picture_view;

static int hold_distance(picture_view *v, const pictures *pc, int k) {
  int8_t *h = &v->hold[k];
  if (*h >= 0) return *h;
  const hold_table *t = &pc->holds[k];
  int best = PICTURE_FAR;
  for (arb_bitboard b = v->men; b;) {
    const arb_square sq = arb__pop_lsb(&b);
    const int d = t->by_type[ARB_PIECE_TYPE(v->p->board[sq])][sq];
    best = d < best ? d : best;
  }
  *h = (int8_t)best;
  return best;
}

/* The moves a position needs to reach picture pi (see above) — or, once the sum of its terms
 * (none negative) reaches `bound`, that partial sum: the nearest picture is the same. */
static int picture_distance(picture_view *v, const pictures *pc, const picture *pi, int bound) {
  const int winner = pc->winner;
  const arb_position *p = v->p;
  int cost = distance(v->loser_king, pi->corner) + pi->to_king[v->winner_king];
  if (cost >= bound) return cost;
  int best = PICTURE_FAR;
  for (arb_bitboard b = p->by_color[winner] & p->by_type[pi->checker]; b;) {
    const int d = pi->to_check[arb__pop_lsb(&b)];
    best = d < best ? d : best;
  }
  for (int k = 0; k < v->npawns && best > 1; k++) { /* a pawn promoted to the checker */
    const int d = v->steps[k] + pi->to_check[v->promo[k]];
    best = d < best ? d : best;
  }
  cost += best;
  for (int k = 0; k < pi->nblocks && cost < bound; k++)
    cost += hold_distance(v, pc, pi->hold[k]);
  if (cost >= bound) return cost;
  for (int t = ARB_PAWN; t <= ARB_QUEEN; t++) /* men that would spoil the mate: given away */
    if (pi->harmful >> t & 1) cost += 2 * arb__popcount(v->men & p->by_type[t]);
  return cost;
}

/* The view of p that every picture's distance shares. */
static void view_of(picture_view *v, const pictures *pc, const arb_position *p) {
  const int w = pc->winner, l = w ^ 1;
  v->p = p;
  v->loser = l;
  v->loser_king = arb__king_sq(p, l);
  v->winner_king = arb__king_sq(p, w);
  v->men = p->by_color[l] & ~p->by_type[ARB_KING];
  v->npawns = 0;
  for (arb_bitboard b = p->by_color[w] & p->by_type[ARB_PAWN]; b && v->npawns < 8;) {
    const arb_square sq = arb__pop_lsb(&b);
    const arb_square promo = (arb_square)(ARB_FILE_OF(sq) + (w == ARB_WHITE ? 56 : 0));
    /* a loser's pawn in the way must be taken: the winner's king walks to it */
    const arb_bitboard path = arb__tab.between[sq][promo] | ARB_BB(promo);
    const arb_bitboard blockers = path & p->by_color[l] & p->by_type[ARB_PAWN];
    v->promo[v->npawns] = promo;
    v->steps[v->npawns++] = (w == ARB_WHITE ? 7 - ARB_RANK_OF(sq) : ARB_RANK_OF(sq)) +
                            (blockers ? 1 + distance_to_set(v->winner_king, blockers) : 0);
  }
  memset(v->hold, -1, sizeof v->hold);
}

/* The enumeration's order (reach.h): the distance to the nearest picture. */
static uint32_t picture_key(void *ctx, const arb_position *p) {
  const pictures *pc = ctx;
  picture_view v;
  view_of(&v, pc, p);
  int best = 1 << 20;
  for (int i = 0; i < pc->n; i++) {
    const int d = picture_distance(&v, pc, &pc->p[i], best);
    best = d < best ? d : best;
  }
  return (uint32_t)best;
}

/* Keeps the pictures at most PICTURE_SPAN moves farther from pos than the nearest: the others
 * would cost every position's key their time and hardly ever be the nearest. */
static void keep_nearest_pictures(pictures *pc, const arb_position *pos) {
  picture_view v;
  view_of(&v, pc, pos);
  int d[MAX_PICTURES], best = 1 << 20;
  for (int i = 0; i < pc->n; i++) {
    d[i] = picture_distance(&v, pc, &pc->p[i], INT_MAX);
    best = d[i] < best ? d[i] : best;
  }
  int kept = 0;
  for (int i = 0; i < pc->n; i++)
    if (d[i] <= best + PICTURE_SPAN) pc->p[kept++] = pc->p[i];
  pc->n = kept;
}

/* A mate the enumeration has found, as a helpmate: the line along the ways it recorded, replayed
 * to mate (out filled in), or 0 when it is longer than ARB_WIN_MAX_LINE. */
static int reach_helpmate(const arb__reach *r, arb_winnability *out) {
  const int len = arb__reach_line(r, out->line, ARB_WIN_MAX_LINE);
  if (len <= 0 || !replay_mates(&r->start, out->line, len, r->loser ^ 1)) return 0;
  out->verdict = ARB_WIN_WINNABLE;
  out->proof = ARB_PROOF_HELPMATE;
  out->line_len = len;
  return 1;
}

/* Resumes the enumeration for `more` nodes, within `total` for both searches (the helpmate's
 * `other` nodes included): 1 when it has settled the answer — proven the side cannot mate, or
 * found a mate whose line replays (out filled in). */
static int enumerated(arb__reach *r, uint64_t more, uint64_t total, uint64_t other,
                      arb_winnability *out) {
  if (r->state != ARB_REACH_GOING || other + r->nodes >= total)
    return r->state == ARB_REACH_NO_MATE;
  uint64_t limit = total - other;
  uint64_t until = r->nodes + more < limit ? r->nodes + more : limit;
  while (arb__reach_run(r, until) == ARB_REACH_MATE) {
    if (reach_helpmate(r, out)) return 1;
    /* A line too long to give: the side can mate, and the enumeration may yet find a mate
     * along a shorter way. */
    arb__reach_go_on(r);
    if (r->state != ARB_REACH_GOING) break;
  }
  return r->state == ARB_REACH_NO_MATE;
}

/* The helpmate phases of `schedule`, the enumeration resumed after each row; stops at a
 * helpmate (out filled in) or when the enumeration is complete (its state says which). */
static void search_phases(search *s, arb__reach *r, const arb_position *pos, uint64_t total,
                          arb_winnability *out) {
  const int side = s->winner;
  /* The mate is the winner's move: only depths of the right parity can end in one. */
  const int first = pos->turn == side ? 1 : 2;
  int run = 0; /* phases run, corners counted one by one: the noise's seed */
  /* The squares of the winner's bishops' colour when bishops of one colour are all it has. */
  const arb_bitboard mine = pos->by_color[side], bishops = mine & pos->by_type[ARB_BISHOP];
  arb_bitboard lone_bishops = 0;
  if (bishops && !(mine & ~bishops & ~pos->by_type[ARB_KING])) {
    if (!(bishops & ARB_DARK_SQUARES)) lone_bishops = ARB_LIGHT_SQUARES;
    if (!(bishops & ARB_LIGHT_SQUARES)) lone_bishops = ARB_DARK_SQUARES;
  }
  for (size_t row = 0; row < sizeof schedule / sizeof schedule[0]; row++) {
    const phase *ph = &schedule[row];
    /* After the first rows (which prove most real positions winnable, the long helpmates of the
     * mate pictures too), the pawn structures (structures.c), bounded by the budget. */
    if (row == STRUCTURE_ROW && pos->by_type[ARB_PAWN] &&
        arb__structures_never_mate(pos, side, (int)(total / STRUCTURE_COST))) {
      out->verdict = ARB_WIN_UNWINNABLE;
      out->proof = ARB_PROOF_PAWN_STRUCTURES;
      return;
    }
    const int corners = ph->order == CORNER || ph->order == CORNER_NET ? 4 : 1;
    const uint64_t row_start = s->nodes;
    /* The last row (the full search) takes what is left: the enumeration half of it first. */
    if (!ph->budget && enumerated(r, left(total, s->nodes + r->nodes) / 2, total, s->nodes, out))
      return;
    for (int k = 0; k < corners; k++, run++) {
      s->width = ph->width;
      s->lds = ph->lds;
      s->ord = (order)ph->order;
      s->noise = ph->noise;
      s->seed = UINT64_C(0x1234567) * (uint64_t)(run + 1);
      if (corners == 4) aim_at_corner(s, pos, k);
      /* A lone bishop's net closes only in a corner of its colour. */
      if (ph->order == CORNER_NET && lone_bishops && !(lone_bishops & ARB_BB(s->corner))) continue;
      s->budget = left(total, r->nodes);
      if (ph->budget && s->nodes + ph->budget < s->budget) s->budget = s->nodes + ph->budget;
      /* Deepening by depth, or (limited discrepancy) by the number of discrepancies. */
      for (int step = 0; s->nodes < s->budget; step++) {
        const int depth = s->lds ? ph->max_depth : first + 2 * step;
        if (s->lds ? step > ph->max_disc : depth > ph->max_depth) break;
        s->disc = step;
        s->spine = s->lds ? step : 0;
        s->mate_len = 0;
        if (!helpmate(s, pos, depth, 0)) continue;
        const int len = s->mate_len;
        if (len <= 0 || !replay_mates(pos, s->line, len, side))
          break; /* never trust a line unchecked */
        out->verdict = ARB_WIN_WINNABLE;
        out->proof = ARB_PROOF_HELPMATE;
        out->line_len = len;
        memcpy(out->line, s->line, (size_t)len * sizeof s->line[0]);
        return;
      }
    }
    /* Once the first row has failed, when the winner has at most one piece, the enumeration
     * heads for the mate pictures (an order only), with a first slice of its own. */
    uint64_t share = REACH_SHARE * (s->nodes - row_start);
    if (row == 0 && (s->pics = malloc(sizeof *s->pics)) != NULL) {
      make_pictures(s->pics, pos, side);
      keep_nearest_pictures(s->pics, pos);
      if (s->pics->n) arb__reach_order(r, picture_key, s->pics);
    }
    if (row == 0 && s->pics && s->pics->n && share < PICTURE_NODES) share = PICTURE_NODES;
    if (enumerated(r, share, total, s->nodes, out)) return;
  }
}

arb_win_verdict arb_winnability_of(const arb_position *pos, arb_color side, uint64_t budget,
                                   arb_winnability *out) {
  memset(out, 0, sizeof *out);
  if (!arb_has_legal_move(pos)) { /* the game is over on the board */
    const int mated = arb_in_check(pos);
    out->verdict = mated && pos->turn != side ? ARB_WIN_WINNABLE : ARB_WIN_UNWINNABLE;
    out->proof = out->verdict == ARB_WIN_WINNABLE ? ARB_PROOF_HELPMATE : ARB_PROOF_GAME_OVER;
    return out->verdict;
  }
  if (arb_cannot_mate_by_material(pos, side)) {
    out->verdict = ARB_WIN_UNWINNABLE;
    out->proof = ARB_PROOF_MATERIAL;
    return out->verdict;
  }
  /* Locked walls next: cheap when they hold (a few thousand positions), and the search below
   * could never finish there. */
  if (arb__locked_walls_hold(pos, side ^ 1)) {
    out->verdict = ARB_WIN_UNWINNABLE;
    out->proof = ARB_PROOF_LOCKED_WALLS;
    return out->verdict;
  }
  const int lanes = arb__never_mates(pos, side);
  if (lanes) {
    out->verdict = ARB_WIN_UNWINNABLE;
    out->proof = lanes == 2 ? ARB_PROOF_PAWN_LANES : ARB_PROOF_FIXED_PAWNS;
    return out->verdict;
  }
  const uint64_t total = budget ? budget : ARB_WIN_DEFAULT_BUDGET;
  /* The exhaustive enumeration (reach.h) runs beside the helpmate phases, resumed after each row
   * with as many nodes as that row used: forced lines first, for almost nothing. */
  arb__reach r;
  arb__reach_init(&r, pos, side ^ 1, 1, total < REACH_MAX ? (size_t)total : REACH_MAX);
  search s;
  /* no table yet (s.tt): allocated once a search runs long */
  memset(&s, 0, offsetof(search, line));
  s.winner = side;
  s.tt_grow = TT_FIRST;
  if (!may_be_forced(pos) || !enumerated(&r, FORCED_NODES, total, 0, out)) {
    search_phases(&s, &r, pos, total, out);
    if (out->verdict == ARB_WIN_UNKNOWN) enumerated(&r, total, total, s.nodes, out);
  }
  if (r.state == ARB_REACH_NO_MATE) {
    out->verdict = ARB_WIN_UNWINNABLE;
    out->proof = ARB_PROOF_SEARCH;
  }
  out->nodes = s.nodes + r.nodes;
  free(s.tt);
  free(s.pics);
  arb__reach_free(&r);
  return out->verdict;
}

const char *arb_win_verdict_name(arb_win_verdict v) {
  switch (v) {
  case ARB_WIN_WINNABLE: return "winnable";
  case ARB_WIN_UNWINNABLE: return "unwinnable";
  default: return "unknown";
  }
}

const char *arb_win_proof_name(arb_win_proof p) {
  switch (p) {
  case ARB_PROOF_HELPMATE: return "helpmate";
  case ARB_PROOF_MATERIAL: return "material";
  case ARB_PROOF_LOCKED_WALLS: return "locked_walls";
  case ARB_PROOF_GAME_OVER: return "game_over";
  case ARB_PROOF_FIXED_PAWNS: return "fixed_pawns";
  case ARB_PROOF_SEARCH: return "search";
  case ARB_PROOF_PAWN_LANES: return "pawn_lanes";
  case ARB_PROOF_PAWN_STRUCTURES: return "pawn_structures";
  default: return "";
  }
}
