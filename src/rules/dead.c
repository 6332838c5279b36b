/* Arbiter — MIT licence, see LICENSE.
 *
 * dead.c: the set of positions reachable from a board, enumerated exactly (reach.h), and the
 * proofs built on it that a side can never checkmate.
 *
 * Locked walls: when every pawn on the board is blocked head-on by another pawn, the positions
 * reachable from the board are often few: only kings and pieces walk, behind their walls.  Then
 * we enumerate every position reachable by any sequence of legal moves (both sides cooperating)
 * and look for a checkmate; a capture or pawn move anywhere (the structure could open) ends it
 * as "not proven".
 *
 * The open enumeration (winnable.c's proof "search") follows every move, captures and pawn moves
 * too, and stops at positions proven by material: a forced line (one legal move, or every move
 * into insufficient material) costs a node or two, and a closed position with a few men loose is
 * enumerated whole.
 *
 * Either way: none in the whole closed set proves the side can never mate (FIDE 5.2.2, 6.9); a
 * mate found, or a set larger than the bound, proves nothing and we say so — "not proven", never
 * "winnable".  Positions are compared exactly (placement, side to move, castling rights, en
 * passant), never by hash alone, so a key collision cannot hide a mate.
 *
 * Memory: this is the one place in the rules layer that allocates — a table for the enumeration
 * that grows by doubling up to a bound, freed before returning; when memory runs out the answer
 * is "not proven".  The material test (status.c) runs first and costs nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "arbiter/status.h"
#include "board/board_internal.h"
#include "board/make.h"
#include "rules/reach.h"

#define CLOSURE_MAX 262144u /* positions (a power of two): H11 of the catalogue needs 152 352 */

struct arb__reach_item {
  uint64_t key;
  arb_bitboard castling;
  uint8_t board[32]; /* two squares a byte */
  uint32_t parent;   /* the item it was first (or most shallowly) reached from; the start: 0 */
  arb_move move;     /* the move from there */
  uint8_t turn, ep;
  uint8_t depth;    /* plies from the start along the parents (at most 255) */
  uint8_t expanded; /* its moves have been made */
};
typedef arb__reach_item packed;

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
  for (int i = 0; i < 32; i++) {
    const uint8_t two = in->board[i];
    if (!two) continue;
    if (two & 15) arb__put(p, (arb_piece)(two & 15), (arb_square)(2 * i));
    if (two >> 4) arb__put(p, (arb_piece)(two >> 4), (arb_square)(2 * i + 1));
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

/* Grows the set (items and index) by doubling, up to r->max: 1 done, 0 full or out of memory. */
static int grow(arb__reach *r) {
  if (r->lent) {
    r->full = 1;
    return 0;
  }
  size_t cap = r->cap ? r->cap * 2 : 64;
  if (cap > r->max) cap = r->max;
  if (cap <= r->cap) {
    r->full = 1;
    return 0;
  }
  size_t slots = 4;
  while (slots < cap * 2)
    slots *= 2;
  packed *items = realloc(r->items, cap * sizeof *items);
  if (!items) return 0;
  r->items = items;
  uint32_t *index = calloc(slots, sizeof *index);
  if (!index) return 0;
  for (size_t k = 0; k < r->count; k++) {
    size_t slot = r->items[k].key & (slots - 1);
    while (index[slot])
      slot = (slot + 1) & (slots - 1);
    index[slot] = (uint32_t)(k + 1);
  }
  free(r->index);
  r->index = index;
  r->cap = cap;
  r->slots = slots;
  return 1;
}

/* Adds c unless present: 1 added (item r->count - 1), 0 present (*at: its item), -1 full or out
 * of memory. */
static int add(arb__reach *r, const packed *c, size_t *at) {
  size_t slot = c->key & (r->slots - 1);
  while (r->index[slot]) {
    if (same(&r->items[r->index[slot] - 1], c)) {
      *at = r->index[slot] - 1;
      return 0;
    }
    slot = (slot + 1) & (r->slots - 1);
  }
  if (r->count == r->cap) {
    if (!grow(r)) return -1;
    return add(r, c, at);
  }
  r->items[r->count] = *c;
  r->index[slot] = (uint32_t)++r->count;
  *at = r->count - 1;
  return 1;
}

/* Room for one more entry in h (doubling): 1, or 0 out of memory. */
static int room(arb__reach_heap *h) {
  if (h->top < h->cap) return 1;
  size_t cap = h->cap ? 2 * h->cap : 64;
  uint64_t *ns = realloc(h->e, cap * sizeof *ns);
  if (!ns) return 0;
  h->e = ns;
  h->cap = cap;
  return 1;
}

/* Pushes e on a binary heap (lowest first): 1, or 0 out of memory. */
static int heap_push(arb__reach_heap *h, uint64_t e) {
  if (!room(h)) return 0;
  size_t i = h->top++;
  while (i && e < h->e[(i - 1) / 2]) {
    h->e[i] = h->e[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->e[i] = e;
  return 1;
}

static uint64_t heap_pop(arb__reach_heap *h) {
  const uint64_t first = h->e[0], e = h->e[--h->top];
  size_t i = 0, n = h->top;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && h->e[c + 1] < h->e[c]) c++;
    if (h->e[c] >= e) break;
    h->e[i] = h->e[c];
    i = c;
  }
  h->e[i] = e;
  return first;
}

/* The positions still to expand: a stack (depth first) or, with an order, two heaps of
 * key << 32 | ~item (the lowest key first, the latest item first among equal keys): one keyed by
 * the distance alone (greedy), one by the depth plus REACH_WEIGHT times the distance; each item
 * is in both, and the enumeration takes from them in turn (a position taken from one is skipped
 * in the other).  Either heap empty: every position found is expanded. */
#ifndef REACH_WEIGHT
#define REACH_WEIGHT 3
#endif

static int push(arb__reach *r, size_t k, uint32_t distance, int depth) {
  if (!r->order) {
    if (!room(&r->stack)) return 0;
    r->stack.e[r->stack.top++] = k;
    return 1;
  }
  const uint64_t item = (uint32_t) ~(uint32_t)k;
  return heap_push(&r->greedy, (uint64_t)distance << 32 | item) &&
         heap_push(&r->weighted, (uint64_t)(depth + REACH_WEIGHT * distance) << 32 | item);
}

static int waiting(const arb__reach *r) {
  return r->order ? r->greedy.top && r->weighted.top : r->stack.top != 0;
}

/* The next position to expand (waiting(r) must hold), or SIZE_MAX when the heap taken from held
 * only positions expanded already. */
static size_t pop(arb__reach *r) {
  if (!r->order) return (size_t)r->stack.e[--r->stack.top];
  arb__reach_heap *h = (r->turn++ & 1) ? &r->weighted : &r->greedy;
  while (h->top) {
    const size_t k = (uint32_t) ~(uint32_t)heap_pop(h);
    if (!r->items[k].expanded) return k;
  }
  return SIZE_MAX;
}

/* 1 if `side` is proven unable to mate p by a static test: material, or fixed pawns (walls.c). */
static int static_proof(const arb_position *p, int side) {
  return arb_cannot_mate_by_material(p, (arb_color)side) || arb__never_mates(p, side);
}

/* A position nothing behind which can mate: the side asked about (loser -1: each side) is
 * proven unable to by a static test. */
static int leaf(const arb_position *p, int loser) {
  if (loser >= 0) return static_proof(p, loser ^ 1);
  return static_proof(p, ARB_WHITE) && static_proof(p, ARB_BLACK);
}

void arb__reach_init(arb__reach *r, const arb_position *start, int loser, int open,
                     size_t max_positions) {
  memset(r, 0, sizeof *r);
  r->loser = loser;
  r->open = open;
  r->start = *start;
  r->max = max_positions < 64 ? 64 : max_positions;
}

void arb__reach_order(arb__reach *r, arb__reach_key order, void *ctx) {
  if (r->order || !order) return;
  r->order = order;
  r->order_ctx = ctx;
  /* The positions waiting on the stack go into the heaps with their keys. */
  for (size_t i = 0; i < r->stack.top; i++) {
    const size_t k = (size_t)r->stack.e[i];
    arb_position p;
    unpack(&r->items[k], &p);
    p.chess960 = r->start.chess960;
    if (!push(r, k, order(ctx, &p), r->items[k].depth)) r->state = ARB_REACH_GAVE_UP;
  }
  r->stack.top = 0;
}

arb__reach_state arb__reach_run(arb__reach *r, uint64_t budget) {
  if (!r->count && r->state == ARB_REACH_GOING) { /* the first run: allocate only now */
    packed first;
    pack(&r->start, &first);
    first.parent = 0;
    first.move = 0;
    first.depth = 0;
    first.expanded = 0;
    size_t at;
    if ((!r->cap && !grow(r)) || add(r, &first, &at) < 0 ||
        !push(r, 0, r->order ? r->order(r->order_ctx, &r->start) : 0, 0))
      r->state = ARB_REACH_GAVE_UP;
  }
  while (r->state == ARB_REACH_GOING) {
    if (!waiting(r)) {
      r->state = r->mated ? ARB_REACH_MATE : ARB_REACH_NO_MATE;
      break;
    }
    if (r->nodes >= budget) break;
    /* Depth first, unless ordered: in an open position a capture or a mate turns up within a few
     * plies; a closed one is enumerated whole in any order. */
    const size_t from = pop(r);
    if (from == SIZE_MAX) continue;
    r->items[from].expanded = 1;
    arb_position p;
    unpack(&r->items[from], &p);
    p.chess960 = r->start.chess960;
    const int depth = r->items[from].depth + (r->items[from].depth < 255);
    arb_move moves[ARB_MAX_MOVES];
    unsigned char checks[ARB_MAX_MOVES];
    arb__check_info ci;
    arb__check_info_init(&p, &ci);
    const int n = arb__generate_checks(&p, &ci, moves, checks);
    if (n == 0) { /* the start (every other mate is seen as it is made) */
      if (arb_in_check(&p) && (r->loser < 0 || r->loser == p.turn)) {
        r->mate_parent = (uint32_t)from;
        r->mate_move = 0;
        r->state = ARB_REACH_MATE;
      }
      continue;
    }
    for (int i = 0; i < n && r->state == ARB_REACH_GOING; i++) {
      arb_square mfrom = ARB_MOVE_FROM(moves[i]), to = ARB_MOVE_TO(moves[i]);
      int opens = ARB_PIECE_TYPE(p.board[mfrom]) == ARB_PAWN ||
                  (p.board[to] && ARB_MOVE_KIND(moves[i]) != ARB_MOVE_CASTLING);
      if (opens && !r->open) {
        r->state = ARB_REACH_GAVE_UP; /* the walls can open: out of this method's reach */
        r->opened = 1;
        break;
      }
      arb_position child = p;
      arb_undo u;
      arb__make(&child, moves[i], &u, 1);
      r->nodes++;
      /* A mate of the loser, seen as it is made (an ordered enumeration might expand it late). */
      if (checks[i] && (r->loser < 0 || r->loser == child.turn) && !arb_has_legal_move(&child)) {
        r->mate_parent = (uint32_t)from;
        r->mate_move = moves[i];
        r->state = ARB_REACH_MATE;
        break;
      }
      /* Only a capture changes the material; then the child may be proven where it stands. */
      if (opens && r->open && leaf(&child, r->loser)) continue;
      packed c;
      pack(&child, &c);
      c.parent = (uint32_t)from;
      c.move = moves[i];
      c.depth = (uint8_t)depth;
      c.expanded = 0;
      size_t at;
      const int added = add(r, &c, &at);
      if (added < 0) {
        r->state = ARB_REACH_GAVE_UP;
      } else if (added) {
        if (!push(r, at, r->order ? r->order(r->order_ctx, &child) : 0, depth))
          r->state = ARB_REACH_GAVE_UP;
      } else if (r->items[at].depth > depth) { /* a shorter way to a position seen: the line */
        r->items[at].parent = (uint32_t)from;
        r->items[at].move = moves[i];
        r->items[at].depth = (uint8_t)depth;
      }
    }
  }
  return r->state;
}

int arb__reach_line(const arb__reach *r, arb_move *line, int max) {
  if (r->state != ARB_REACH_MATE) return -1;
  int len = r->mate_move != 0;
  for (size_t k = r->mate_parent; k; k = r->items[k].parent)
    if (++len > max) return -1;
  int i = len - 1;
  if (r->mate_move) line[i--] = r->mate_move;
  for (size_t k = r->mate_parent; k; k = r->items[k].parent)
    line[i--] = r->items[k].move;
  return len;
}

void arb__reach_go_on(arb__reach *r) {
  if (r->state != ARB_REACH_MATE || !waiting(r)) return;
  r->mated = 1;
  r->state = ARB_REACH_GOING;
}

void arb__reach_free(arb__reach *r) {
  if (!r->lent) {
    free(r->stack.e);
    free(r->items);
    free(r->index);
  }
  free(r->greedy.e);
  free(r->weighted.e);
  memset(r, 0, sizeof *r);
}

int arb__pawns_locked(const arb_position *p) {
  arb_bitboard pawns = p->by_type[ARB_PAWN];
  if (!pawns) return 0;
  arb_bitboard white = pawns & p->by_color[ARB_WHITE], black = pawns & p->by_color[ARB_BLACK];
  return (arb__north(white) & ~pawns) == 0 && (arb__south(black) & ~pawns) == 0;
}

/* The locked walls' enumeration of p: 1 proven; 0 not, and then *shared (when not NULL) says
 * whether for a reason every position that reaches p shares (see arb__dead_memo): a capture or
 * pawn move met, a mate met, or CLOSURE_MAX positions held — not memory run out. */
static int locked_walls(const arb_position *p, int loser, int *shared) {
  if (shared) *shared = 0;
  if (!arb__pawns_locked(p)) return 0;
  arb__reach r;
  arb__reach_init(&r, p, loser, 0, CLOSURE_MAX);
  const arb__reach_state st = arb__reach_run(&r, UINT64_MAX);
  if (shared) *shared = st == ARB_REACH_MATE || (st == ARB_REACH_GAVE_UP && (r.opened || r.full));
  arb__reach_free(&r);
  return st == ARB_REACH_NO_MATE;
}

int arb__locked_walls_hold(const arb_position *p, int loser) {
  return locked_walls(p, loser, NULL);
}

/* 1 when `before` is reached from `now` by three quiet moves of pieces (no pawn, no capture, no
 * castling), each legal where it is made: u, a move of the side to move in `now`; the other
 * side's piece that alone stands elsewhere in `now` than in `before` going back to its square;
 * u undone — and the position then is `before` exactly (placement, side to move, castling rights,
 * en passant: the enumeration's own comparison).  The locked walls' enumeration of `now` follows
 * every such move, so it reaches `before` unless it stops first, and then meets all that
 * before's met: if that was a capture or a pawn move, a mate, or CLOSURE_MAX positions, it
 * cannot prove `now` dead either (the set it must enumerate whole holds before's).  Cost: a move
 * generation and a few moves made, against the enumeration's thousands of positions. */
static int walks_back_to(const arb_position *now, const arb_position *before) {
  if (now->turn == before->turn || now->chess960 != before->chess960) return 0;
  const arb_bitboard diff = now->by_type[0] ^ before->by_type[0];
  const arb_bitboard to_bb = diff & now->by_type[0], from_bb = diff & before->by_type[0];
  if (!to_bb || !from_bb || arb__more_than_one(to_bb) || arb__more_than_one(from_bb)) return 0;
  const arb_square to = arb__lsb(to_bb), from = arb__lsb(from_bb);
  const arb_piece piece = now->board[to];
  if (piece != before->board[from] || ARB_PIECE_TYPE(piece) == ARB_PAWN ||
      (int)ARB_PIECE_COLOR(piece) == now->turn)
    return 0;
  packed target;
  pack(before, &target);
  const arb_move back = ARB_MOVE_MAKE(to, from);
  arb_move moves[ARB_MAX_MOVES];
  const int n = arb_generate_legal(now, moves);
  for (int i = 0; i < n; i++) {
    const arb_square c = ARB_MOVE_FROM(moves[i]), d = ARB_MOVE_TO(moves[i]);
    if (ARB_MOVE_KIND(moves[i]) != ARB_MOVE_NORMAL || now->board[d] || d == from ||
        ARB_PIECE_TYPE(now->board[c]) == ARB_PAWN)
      continue;
    arb_position q = *now;
    arb_undo u;
    arb_make_move(&q, moves[i], &u);
    if (!arb_is_legal(&q, back)) continue;
    arb_make_move(&q, back, &u);
    const arb_move undo = ARB_MOVE_MAKE(d, c);
    if (!arb_is_legal(&q, undo)) continue;
    arb_make_move(&q, undo, &u);
    packed got;
    pack(&q, &got);
    if (same(&got, &target)) return 1; /* else u changed the castling rights: another */
  }
  return 0;
}

/* The open enumeration for arb_is_dead_position: only on sparse boards where the side to move,
 * in check or with nothing but king and pawns, has few moves (forced lines into insufficient
 * material), and a small budget, so that the
 * question asked after every move of every game stays cheap. */
#define DEAD_SEARCH_MEN 8   /* at most this many men on the board, kings included */
#define DEAD_SEARCH_MOVES 4 /* at most this many legal moves for the side to move */
#define DEAD_SEARCH_NODES 64

/* The squares one king step from any square of a set. */
static arb_bitboard king_steps(arb_bitboard set) {
  const arb_bitboard east = (set << 1) & ~ARB_FILE_BB(0), west = (set >> 1) & ~ARB_FILE_BB(7);
  const arb_bitboard row = set | east | west;
  return (row << 8) | (row >> 8) | east | west;
}

/* 1 when more than `limit` positions can be reached from p by quiet king moves alone, each side
 * in turn, every other man standing still: then the enumeration below (at most `limit`
 * positions) cannot complete, and p is not proven dead by it — in a few hundred operations
 * instead of its thousands.  Sound because each such position is reachable: a king step onto a
 * square that is empty, not next to the other king and not attacked by the other side's men even
 * with both kings off the board (more attacks than the real ones, so fewer moves) is legal
 * whatever the rest of the position, and the enumeration, which follows every legal move, must
 * hold every position reached (positions differing in castling rights only count once here). */
static int kings_walk_far(const arb_position *p, int limit) {
  const arb_bitboard kings = p->by_type[ARB_KING], men = p->by_type[0] & ~kings;
  if (arb__popcount(kings) != 2 || arb__popcount(kings & p->by_color[ARB_WHITE]) != 1) return 0;
  arb_bitboard barred[2]; /* where each side's king may not step */
  for (int c = 0; c < 2; c++) {
    const arb_bitboard them = p->by_color[c ^ 1];
    arb_bitboard a = arb__pawns_attacks(p->by_type[ARB_PAWN] & them, c ^ 1);
    for (arb_bitboard b = p->by_type[ARB_KNIGHT] & them; b;)
      a |= arb__tab.knight[arb__pop_lsb(&b)];
    for (arb_bitboard b = (p->by_type[ARB_BISHOP] | p->by_type[ARB_QUEEN]) & them; b;)
      a |= arb__bishop_attacks(arb__pop_lsb(&b), men);
    for (arb_bitboard b = (p->by_type[ARB_ROOK] | p->by_type[ARB_QUEEN]) & them; b;)
      a |= arb__rook_attacks(arb__pop_lsb(&b), men);
    barred[c] = a | men;
  }
  /* The states (the mover's king, the other king, side to move; the mover: the side to move in
   * p), breadth first, a whole ply at a time with bitboards.  With the other king on b: mover[b]
   * holds the squares of the mover's king in the states where the mover is to move, other[b]
   * those where the other side is, fresh[b] those the last ply reached first (every ply sets it
   * for each b it looks at). */
  const int m = p->turn, o = m ^ 1;
  const arb_square ms = arb__king_sq(p, (arb_color)m), os = arb__king_sq(p, (arb_color)o);
  arb_bitboard mover[64], other[64], fresh[64];
  arb_bitboard where = ARB_BB(os); /* the squares b with a state */
  mover[os] = fresh[os] = ARB_BB(ms);
  other[os] = 0;
  int count = 1;
  for (int ply = 0;; ply++) {
    arb_bitboard next = 0; /* the squares b with states reached by this ply */
    if ((ply & 1) == 0) {  /* the mover steps: the other king stays on b */
      for (arb_bitboard bs = where; bs;) {
        const arb_square b = arb__pop_lsb(&bs);
        const arb_bitboard got = king_steps(fresh[b]) & ~barred[m] & ~arb__tab.king[b] & ~other[b];
        fresh[b] = got;
        if (!got) continue;
        other[b] |= got;
        next |= ARB_BB(b);
        count += arb__popcount(got);
      }
    } else { /* the other king steps from b to c; the mover's king stays */
      arb_bitboard moved[64];
      arb_bitboard reach = 0;
      for (arb_bitboard bs = where; bs;) {
        const arb_square b = arb__pop_lsb(&bs);
        if (!fresh[b]) continue;
        for (arb_bitboard cs = arb__tab.king[b] & ~barred[o]; cs;) {
          const arb_square c = arb__pop_lsb(&cs);
          if (!(reach & ARB_BB(c))) {
            reach |= ARB_BB(c);
            moved[c] = 0;
          }
          moved[c] |= fresh[b] & ~arb__tab.king[c];
        }
      }
      for (arb_bitboard bs = where; bs;)
        fresh[arb__pop_lsb(&bs)] = 0;
      for (arb_bitboard cs = reach; cs;) {
        const arb_square c = arb__pop_lsb(&cs);
        if (!(where & ARB_BB(c))) {
          where |= ARB_BB(c);
          mover[c] = other[c] = 0;
        }
        const arb_bitboard got = moved[c] & ~mover[c];
        fresh[c] = got;
        if (!got) continue;
        mover[c] |= got;
        next |= ARB_BB(c);
        count += arb__popcount(got);
      }
    }
    if (count > limit) return 1;
    if (!next) return 0;
  }
}

static int forced_into_dead(const arb_position *p) {
  if (arb__popcount(p->by_type[0]) > DEAD_SEARCH_MEN) return 0;
  /* Forced lines start with a check, or with a side that has only its king and pawns. */
  const arb_bitboard men = p->by_color[p->turn];
  if ((men & ~p->by_type[ARB_KING] & ~p->by_type[ARB_PAWN]) && !arb_in_check(p)) return 0;
  if (arb_count_legal(p) > DEAD_SEARCH_MOVES || kings_walk_far(p, DEAD_SEARCH_NODES)) return 0;
  /* The enumeration in storage of its own on the stack (no allocation, asked after every move):
   * DEAD_SEARCH_NODES positions at most, as many item numbers waiting, an index twice as large. */
  packed items[DEAD_SEARCH_NODES];
  uint32_t index[2 * DEAD_SEARCH_NODES];
  uint64_t waiting[DEAD_SEARCH_NODES];
  memset(index, 0, sizeof index);
  arb__reach r;
  arb__reach_init(&r, p, -1, 1, DEAD_SEARCH_NODES);
  r.lent = 1;
  r.items = items;
  r.cap = DEAD_SEARCH_NODES;
  r.index = index;
  r.slots = 2 * DEAD_SEARCH_NODES;
  r.stack.e = waiting;
  r.stack.cap = DEAD_SEARCH_NODES;
  int proven = arb__reach_run(&r, DEAD_SEARCH_NODES) == ARB_REACH_NO_MATE;
  arb__reach_free(&r);
  return proven;
}

int arb_cannot_mate_within(const arb_position *pos, arb_color side, uint64_t budget) {
  arb_winnability w;
  return arb_winnability_of(pos, side, budget, &w) == ARB_WIN_UNWINNABLE;
}

int arb_cannot_mate(const arb_position *pos, arb_color side) {
  return arb_cannot_mate_within(pos, side, 0);
}

/* The locked walls of the dead-position test, with a game's memo (or NULL). */
static int walls_hold(const arb_position *pos, arb__dead_memo *memo) {
  if (!memo) return locked_walls(pos, -1, NULL);
  if (memo->valid && walks_back_to(pos, &memo->pos)) {
    memo->pos = *pos; /* what the remembered position met, this one meets too */
    memo->reused++;
    return 0;
  }
  int shared;
  const int proven = locked_walls(pos, -1, &shared);
  memo->valid = shared;
  if (shared) memo->pos = *pos;
  return proven;
}

int arb__is_dead_position_memo(const arb_position *pos, arb__dead_memo *memo) {
  /* With a pawn on the board neither material test can hold (a side with a pawn can mate by
   * material, and it is not insufficient material): only fixed pawns or lanes (walls.c, a few
   * bitboard operations when they cannot hold), a locked wall, or a forced line, can make it
   * dead.  The common case, asked after every move of every game, stops at the
   * counts of forced_into_dead. */
  if (pos->by_type[ARB_PAWN])
    return (arb__pawns_face(pos) && leaf(pos, -1)) ||
           (arb__pawns_locked(pos) && walls_hold(pos, memo)) || forced_into_dead(pos);
  if (arb_is_insufficient_material(pos) ||
      (arb_cannot_mate_by_material(pos, ARB_WHITE) && arb_cannot_mate_by_material(pos, ARB_BLACK)))
    return 1;
  return forced_into_dead(pos);
}

int arb_is_dead_position(const arb_position *pos) { return arb__is_dead_position_memo(pos, NULL); }
