/* Arbiter — MIT licence, see LICENSE.
 *
 * reach.h (internal): the set of positions reachable from a start by any sequence of legal
 * moves, both sides cooperating, enumerated depth first and exactly (dead.c).  Two modes:
 * - locked (arb__reach_init with open = 0): a capture or pawn move anywhere ends the enumeration
 *   as REACH_GAVE_UP — the locked-wall proof, positions behind the walls only;
 * - open: every move is followed, except into a position where the side asked about cannot mate
 *   by material (status.c), which is a leaf (it is proven: nothing behind it can mate).
 * When the whole set is enumerated and none of it is a mate of the loser, the side can never
 * mate (FIDE 5.2.2, 6.9).  The enumeration can be resumed with a larger budget, so a caller can
 * interleave it with other searches.  Positions are compared whole (placement, side to move,
 * castling rights, en passant), never by hash alone: there are no false transpositions, and no
 * depth, so nothing is reused beyond what it proved.
 *
 * Memory: the set and its stack (malloc), freed by arb__reach_free; out of memory or past
 * max_positions the answer is REACH_GAVE_UP.
 */
#ifndef ARB_RULES_REACH_H
#define ARB_RULES_REACH_H

#include <stddef.h>

#include "arbiter/status.h"

typedef enum arb__reach_state {
  ARB_REACH_GOING = 0, /* more positions to expand: run again with a larger budget */
  ARB_REACH_NO_MATE,   /* enumerated whole: no mate of the loser anywhere (a proof) */
  ARB_REACH_MATE,      /* a mate of the loser is reachable */
  ARB_REACH_GAVE_UP    /* locked mode: the walls can open; or memory or max_positions ran out */
} arb__reach_state;

typedef struct arb__reach_item arb__reach_item;

/* An order for the enumeration: a position's distance to the goal (see arb__reach_order). */
typedef uint32_t (*arb__reach_key)(void *ctx, const arb_position *p);

typedef struct arb__reach_heap {
  uint64_t *e;
  size_t top, cap;
} arb__reach_heap;

typedef struct arb__reach {
  arb__reach_item *items; /* the positions seen, in order of discovery */
  uint32_t *index;        /* open addressing over items: 0 empty, else item number + 1 */
  size_t count, cap, slots, max;
  arb__reach_heap stack; /* still to expand, depth first: item numbers (a stack) */
  arb__reach_key order;  /* NULL: depth first */
  void *order_ctx;
  arb__reach_heap greedy, weighted; /* ordered: still to expand (dead.c) */
  unsigned turn;                    /* which heap the next position comes from */
  int mated;            /* a mate was found and the enumeration went on (arb__reach_go_on) */
  int lent;             /* items, index and stack are the caller's, of fixed size (dead.c) */
  uint32_t mate_parent; /* ARB_REACH_MATE: the item the mate was reached from, by mate_move */
  arb_move mate_move;   /* (0: that item is the mate: the start) */
  int loser;            /* the side that must be mated, or -1: either (a dead position) */
  int open;             /* 1: follow captures and pawn moves (see above) */
  arb_position start;   /* allocation waits for the first run */
  arb__reach_state state;
  uint64_t nodes; /* positions made (moves played), pruned ones included */
  int opened;     /* ARB_REACH_GAVE_UP because a capture or pawn move was met (locked mode) */
  int full;       /* ARB_REACH_GAVE_UP because max_positions were held (not out of memory) */
} arb__reach;

/* Starts the enumeration from start (which the caller has found not proven by material).
 * loser: ARB_WHITE, ARB_BLACK or -1.  max_positions: bound on the set's size. */
void arb__reach_init(arb__reach *r, const arb_position *start, int loser, int open,
                     size_t max_positions);

/* Expands positions until the state is final or r->nodes reaches `budget` (an absolute count;
 * one expansion may pass it by at most ARB_MAX_MOVES).  Returns r->state. */
arb__reach_state arb__reach_run(arb__reach *r, uint64_t budget);

/* From now on, a best-first search — the same set, so the same proof, in another order —
 * alternating between the position nearest the goal by `order` and the one with the least
 * depth plus a multiple of that distance (dead.c); the positions waiting are keyed now.  Once
 * only. */
void arb__reach_order(arb__reach *r, arb__reach_key order, void *ctx);

/* After ARB_REACH_MATE: the moves from the start to the mate found, along the recorded ways
 * (each position's shortest seen), into line; their number, or -1 when more than max. */
int arb__reach_line(const arb__reach *r, arb_move *line, int max);

/* After ARB_REACH_MATE: goes on enumerating, to find another mate (one with a shorter line, say);
 * the enumeration can then only end in ARB_REACH_MATE. */
void arb__reach_go_on(arb__reach *r);

void arb__reach_free(arb__reach *r);

/* 1 when every pawn is blocked head-on by a pawn and there is a pawn, and the locked-wall
 * enumeration finds no mate of `loser` (-1: either side) behind the walls. */
int arb__locked_walls_hold(const arb_position *p, int loser);

/* What a game remembers between the dead-position tests after its moves (game.c, the PGN
 * reader): the last position whose locked walls the enumeration found open for a reason that
 * every position from which it can be reached shares — a capture or pawn move, or a mate, within
 * reach, or more positions than the enumeration holds (valid: 0 none).  Plain data, owned by
 * the caller; zeroed: nothing remembered. */
typedef struct arb__dead_memo {
  arb_position pos;
  int valid;
  uint64_t reused; /* enumerations spared (for tests and measurements) */
} arb__dead_memo;

/* arb_is_dead_position(p), the same answer, with memo (or NULL): where p's pawns are locked and
 * the remembered position can be reached from p by three quiet moves of pieces — a move of the
 * side to move, the other side's piece that moved going back, that move undone; so after one
 * ordinary move of a piece — the enumeration of p could only meet what that position's met,
 * and is not run (dead.c says why that is sound).  The memo is updated. */
int arb__is_dead_position_memo(const arb_position *p, arb__dead_memo *memo);

/* 1 when every pawn is blocked head-on by a pawn (of either colour), and there is a pawn. */
int arb__pawns_locked(const arb_position *p);

/* 1 when there is a pawn, every White pawn has a Black one ahead of it on its file and every
 * Black pawn a White one: the pawns could have lanes (arb__never_mates).  A few operations,
 * inline: arb_is_dead_position asks it after every move of every game. */
static inline int arb__pawns_face(const arb_position *p) {
  const arb_bitboard white = p->by_type[ARB_PAWN] & p->by_color[ARB_WHITE],
                     black = p->by_type[ARB_PAWN] & p->by_color[ARB_BLACK];
  arb_bitboard below = black >> 8, above = white << 8; /* fills along the files */
  below |= below >> 8;
  below |= below >> 16;
  below |= below >> 32;
  above |= above << 8;
  above |= above << 16;
  above |= above << 32;
  return (white | black) && !(white & ~below) && !(black & ~above);
}

/* Nonzero if `winner` can never mate (walls.c: pawns that can never move, or move only along
 * their files towards the other side's, and no square behind them where the other king could be
 * mated): 1 every pawn fixed, 2 some pawn can move.  Microseconds; 0 means "not proven". */
int arb__never_mates(const arb_position *p, int winner);

/* The squares a man of type `type` (ARB_KNIGHT..ARB_KING, or 7: a queen's and a knight's moves)
 * can ever reach from the squares `from` (structures.c): lines blocked by `occ`, never onto `own`
 * nor `forbidden`; `hits` gathers the squares of `enemy` it could capture on (not entered),
 * `attacks` every square it attacks from the region.  Returns the region. */
arb_bitboard arb__flood(int type, arb_bitboard from, arb_bitboard occ, arb_bitboard own,
                        arb_bitboard enemy, arb_bitboard forbidden, arb_bitboard *hits,
                        arb_bitboard *attacks);

/* 1 if `winner` can never mate by the pawn-structure fixpoint of structures.c (every structure
 * reachable, the other men as regions), within max_visits expansions of a structure; 0 "not
 * proven".  Allocates (freed before returning). */
int arb__structures_never_mate(const arb_position *p, int winner, int max_visits);

#endif
