/* Arbiter — MIT licence, see LICENSE.
 *
 * dead.c: proving that a side can never checkmate when the pawn structure is locked.
 *
 * When every pawn on the board is blocked head-on by another pawn, the positions reachable from
 * the board are often few: only kings and pieces walk, behind their walls.  Then we enumerate
 * every position reachable by any sequence of legal moves (both sides cooperating) and look for
 * a checkmate.  None in the whole closed set proves the side can never mate (FIDE 5.2.2, 6.9);
 * a mate found, a capture or pawn move anywhere in the set (the structure could open: we stop
 * at once rather than explore an open position), or a set larger than the bound proves nothing
 * and we say so — "not proven", never "winnable".  Positions are compared exactly (placement, side
 * to move, castling rights, en passant), never by hash alone, so a key collision cannot hide a
 * mate.
 *
 * Memory: this is the one place in the rules layer that allocates — a table for the enumeration
 * that grows by doubling up to a bound (about 32 MB), freed before returning; when memory runs out
 * the answer is "not proven".  The material test (status.c) runs first and costs nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "arbiter/status.h"
#include "board/board_internal.h"

#define CLOSURE_MAX 262144u /* positions (a power of two): H11 of the catalogue needs 152 352 */

typedef struct packed {
  uint64_t key;
  arb_bitboard castling;
  uint8_t board[32]; /* two squares a byte */
  uint8_t turn, ep;
} packed;

static void pack(const arb_position *p, packed *out) {
  out->key = p->key;
  out->castling = p->castling_rooks;
  for (int i = 0; i < 32; i++)
    out->board[i] = (uint8_t)(p->board[2 * i] | (p->board[2 * i + 1] << 4));
  out->turn = p->turn;
  out->ep = p->ep_square;
}

static void unpack(const packed *in, arb_position *p) {
  memset(p, 0, sizeof *p);
  for (int sq = 0; sq < 64; sq++) {
    arb_piece pc = (arb_piece)((in->board[sq / 2] >> (4 * (sq & 1))) & 15);
    if (pc) arb__put(p, pc, (arb_square)sq);
  }
  p->castling_rooks = in->castling;
  p->turn = in->turn;
  p->ep_square = in->ep;
  p->fullmove_number = 1;
  p->key = in->key;
}

static int same(const packed *a, const packed *b) {
  return a->key == b->key && a->castling == b->castling && a->turn == b->turn && a->ep == b->ep &&
         memcmp(a->board, b->board, sizeof a->board) == 0;
}

/* 1 when every pawn is blocked head-on by a pawn (of either colour), and there is a pawn. */
static int pawns_locked(const arb_position *p) {
  arb_bitboard pawns = p->by_type[ARB_PAWN];
  if (!pawns) return 0;
  arb_bitboard white = pawns & p->by_color[ARB_WHITE], black = pawns & p->by_color[ARB_BLACK];
  return (arb__north(white) & ~pawns) == 0 && (arb__south(black) & ~pawns) == 0;
}

enum { CLOSED_NO_MATE = 1, CLOSED_MATE = 0, CLOSED_UNKNOWN = -1 };

/* The set of positions seen: a dense array and an open-addressing index over it (0 = empty,
 * else position number + 1), both grown by doubling so that the usual early answers cost little. */
typedef struct seen_set {
  packed *items;
  uint32_t *index;
  size_t count, cap, slots;
} seen_set;

static int grow(seen_set *s) {
  size_t cap = s->cap ? s->cap * 2 : 1024;
  if (cap > CLOSURE_MAX) cap = CLOSURE_MAX;
  size_t slots = cap * 4;
  packed *items = realloc(s->items, cap * sizeof *items);
  if (!items) return 0;
  s->items = items;
  uint32_t *index = calloc(slots, sizeof *index);
  if (!index) return 0;
  for (size_t k = 0; k < s->count; k++) {
    size_t slot = s->items[k].key & (slots - 1);
    while (index[slot])
      slot = (slot + 1) & (slots - 1);
    index[slot] = (uint32_t)(k + 1);
  }
  free(s->index);
  s->index = index;
  s->cap = cap;
  s->slots = slots;
  return 1;
}

/* Adds c unless present: 1 added, 0 present, -1 full or out of memory. */
static int add(seen_set *s, const packed *c) {
  size_t slot = c->key & (s->slots - 1);
  while (s->index[slot]) {
    if (same(&s->items[s->index[slot] - 1], c)) return 0;
    slot = (slot + 1) & (s->slots - 1);
  }
  if (s->count == s->cap) {
    if (s->cap == CLOSURE_MAX || !grow(s)) return -1;
    return add(s, c);
  }
  s->items[s->count] = *c;
  s->index[slot] = (uint32_t)++s->count;
  return 1;
}

/* Enumerates the positions reachable from start; looks for `loser` checkmated (-1: either).
 * Depth first: in an open position a capture turns up within a few plies and ends the search
 * early; a closed one is enumerated whole in any order. */
static int closure(const arb_position *start, int loser) {
  seen_set set = {NULL, NULL, 0, 0, 0};
  int verdict = CLOSED_NO_MATE;
  packed first;
  pack(start, &first);
  if (!grow(&set) || add(&set, &first) < 0) verdict = CLOSED_UNKNOWN;
  /* the positions still to expand, as numbers in set.items; each is added once, so the stack
   * never holds more than the set */
  uint32_t *stack = NULL;
  size_t top = 0, stack_cap = 0;
  if (verdict == CLOSED_NO_MATE) {
    stack = malloc(sizeof *stack);
    stack_cap = 1;
    if (stack)
      stack[top++] = 0;
    else
      verdict = CLOSED_UNKNOWN;
  }
  while (top > 0 && verdict == CLOSED_NO_MATE) {
    arb_position p;
    unpack(&set.items[stack[--top]], &p);
    arb_move moves[ARB_MAX_MOVES];
    int n = arb_generate_legal(&p, moves);
    if (n == 0) {
      if (arb_in_check(&p) && (loser < 0 || loser == p.turn)) verdict = CLOSED_MATE;
      continue;
    }
    for (int i = 0; i < n && verdict == CLOSED_NO_MATE; i++) {
      arb_square from = ARB_MOVE_FROM(moves[i]), to = ARB_MOVE_TO(moves[i]);
      if (ARB_PIECE_TYPE(p.board[from]) == ARB_PAWN ||
          (p.board[to] && ARB_MOVE_KIND(moves[i]) != ARB_MOVE_CASTLING)) {
        verdict = CLOSED_UNKNOWN; /* the walls can open: out of this method's reach */
        break;
      }
      arb_position child = p;
      arb_undo u;
      arb_make_move(&child, moves[i], &u);
      packed c;
      pack(&child, &c);
      int added = add(&set, &c);
      if (added < 0) {
        verdict = CLOSED_UNKNOWN;
      } else if (added) {
        if (top == stack_cap) {
          uint32_t *ns = realloc(stack, 2 * stack_cap * sizeof *ns);
          if (!ns) {
            verdict = CLOSED_UNKNOWN;
            break;
          }
          stack = ns;
          stack_cap *= 2;
        }
        stack[top++] = (uint32_t)(set.count - 1);
      }
    }
  }
  free(stack);
  free(set.items);
  free(set.index);
  return verdict;
}

int arb_cannot_mate(const arb_position *pos, arb_color side) {
  if (arb_cannot_mate_by_material(pos, side)) return 1;
  return pawns_locked(pos) && closure(pos, side ^ 1) == CLOSED_NO_MATE;
}

int arb_is_dead_position(const arb_position *pos) {
  /* With a pawn on the board neither material test can hold (a side with a pawn can mate by
   * material, and it is not insufficient material): only a locked wall can make it dead.  The
   * common case, asked after every move of every game, stops here. */
  if (pos->by_type[ARB_PAWN]) return pawns_locked(pos) && closure(pos, -1) == CLOSED_NO_MATE;
  if (arb_is_insufficient_material(pos) ||
      (arb_cannot_mate_by_material(pos, ARB_WHITE) && arb_cannot_mate_by_material(pos, ARB_BLACK)))
    return 1;
  return pawns_locked(pos) && closure(pos, -1) == CLOSED_NO_MATE;
}
