/* Arbiter — MIT licence, see LICENSE.
 *
 * mate.c: the exact solver (solve.h).  Two mutually recursive predicates over a fixed goal and a
 * fixed solving side S:
 *   A(p, d)  S to move: S can force the goal with at most d more moves of its own;
 *   D(p, d)  the opponent to move: whatever it plays, S then forces the goal within d;
 * A(p, d) = some move m with D(p+m, d-1); D(p, d) = the game is over in S's favour, or d > 0
 * and every reply r has A(p+r, d).  Each answer is yes, no, or unknown (the node budget ran out
 * beneath it); unknown propagates, so a "yes" or "no" is always proven.
 *
 * Speed, without changing an answer:
 *   - with one move left for a mate, only S's checks can mate (arb__generate_checks flags them);
 *   - a transposition table keyed by the Zobrist key (side to move included) keeps, for each
 *     position, the fewest moves S was proven to need and the most it was proven not to
 *     suffice; both bounds are exact facts, reused at any depth they decide;
 *   - S's checks and captures are tried first (mates usually begin with them), the opponent's
 *     captures first (the usual refutations).
 * At the root every move is tried at depth 1, 2, ... n in turn, so each key's own shortest
 * length is known and every non-key is proven to fail within n (unless the budget runs out).
 */
#include <stdlib.h>
#include <string.h>

#include "arbiter/solve.h"
#include "arbiter/status.h"
#include "board/board_internal.h"

enum { NO = 0, YES = 1, UNK = 2 };

/* One entry: win = the fewest S-moves proven to suffice (0: none known), fail = the most proven
 * not to (-1: none known), both for (goal, S) = tag. */
typedef struct tt_entry {
  uint64_t key;
  int8_t win, fail;
  uint8_t tag;
  uint8_t pad_[5];
} tt_entry;

struct arb_solver {
  tt_entry *tt;
  size_t mask;
  uint64_t nodes, budget;
  int out_of_budget;
  int goal;
  int side; /* S */
  uint8_t tag;
};

arb_solver *arb_solver_new(size_t tt_bytes) {
  arb_init();
  if (!tt_bytes) tt_bytes = (size_t)16 << 20;
  if (tt_bytes < (size_t)64 << 10) tt_bytes = (size_t)64 << 10;
  size_t n = 1;
  while (n * 2 * sizeof(tt_entry) <= tt_bytes)
    n *= 2;
  arb_solver *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  if (!(s->tt = calloc(n, sizeof *s->tt))) {
    free(s);
    return NULL;
  }
  s->mask = n - 1;
  return s;
}

void arb_solver_free(arb_solver *s) {
  if (!s) return;
  free(s->tt);
  free(s);
}

const char *arb_solve_goal_name(arb_solve_goal goal) {
  return goal == ARB_SOLVE_DRAW ? "draw" : "mate";
}

const char *arb_solve_verdict_name(arb_solve_verdict v, arb_solve_goal goal) {
  switch (v) {
  case ARB_SOLVE_FOUND: return arb_solve_goal_name(goal);
  case ARB_SOLVE_NONE: return "none";
  default: return "unknown";
  }
}

/* ---- the table ---- */

static tt_entry *tt_slot(arb_solver *s, uint64_t key) { return &s->tt[key & s->mask]; }

/* YES, NO, or UNK when the table does not decide "S forces it within d". */
static int tt_probe(arb_solver *s, uint64_t key, int d) {
  const tt_entry *e = tt_slot(s, key);
  if (e->key != key || e->tag != s->tag) return UNK;
  if (e->win && e->win <= d) return YES;
  if (e->fail >= d) return NO;
  return UNK;
}

static void tt_store(arb_solver *s, uint64_t key, int d, int result) {
  if (result == UNK) return;
  tt_entry *e = tt_slot(s, key);
  if (e->key != key || e->tag != s->tag) {
    e->key = key;
    e->tag = s->tag;
    e->win = 0;
    e->fail = -1;
  }
  if (result == YES && (!e->win || d < e->win)) e->win = (int8_t)d;
  if (result == NO && d > e->fail) e->fail = (int8_t)d;
}

/* ---- the predicates ---- */

static int over_budget(arb_solver *s) {
  if (++s->nodes > s->budget) s->out_of_budget = 1;
  return s->out_of_budget;
}

/* Is the game over on the board, drawn?  (Only the draw goal asks, where a stalemate or a dead
 * position is what S wants.) */
static int drawn_here(const arb_position *p) { return arb_is_dead_position(p); }

static int att(arb_solver *s, arb_position *p, int d);

/* The opponent to move; S has d moves left. */
static int def(arb_solver *s, arb_position *p, int d) {
  if (over_budget(s)) return UNK;
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(p, moves);
  if (n == 0) /* mate is S's win; stalemate a draw: what the draw goal wants */
    return arb_in_check(p) || s->goal == ARB_SOLVE_DRAW ? YES : NO;
  if (s->goal == ARB_SOLVE_DRAW && drawn_here(p)) return YES;
  if (d == 0) return NO;
  int r = tt_probe(s, p->key, d);
  if (r != UNK) return r;
  /* captures first: the usual refutations */
  int k = 0;
  for (int i = 0; i < n; i++)
    if (p->board[ARB_MOVE_TO(moves[i])] != ARB_NO_PIECE) {
      arb_move t = moves[k];
      moves[k++] = moves[i];
      moves[i] = t;
    }
  int unknown = 0;
  for (int i = 0; i < n; i++) {
    arb_undo u;
    arb_make_move(p, moves[i], &u);
    int a = att(s, p, d);
    arb_unmake_move(p, moves[i], &u);
    if (a == NO) {
      tt_store(s, p->key, d, NO);
      return NO;
    }
    if (a == UNK) unknown = 1;
  }
  if (unknown) return UNK;
  tt_store(s, p->key, d, YES);
  return YES;
}

/* S to move with d moves left (d >= 1). */
static int att(arb_solver *s, arb_position *p, int d) {
  if (over_budget(s)) return UNK;
  arb__check_info ci;
  arb__check_info_init(p, &ci);
  arb_move moves[ARB_MAX_MOVES];
  unsigned char checks[ARB_MAX_MOVES];
  int n = arb__generate_checks(p, &ci, moves, checks);
  if (n == 0) /* S mated: lost; S stalemated: the draw goal's */
    return !arb_in_check(p) && s->goal == ARB_SOLVE_DRAW ? YES : NO;
  if (s->goal == ARB_SOLVE_DRAW && drawn_here(p)) return YES;
  if (d <= 0) return NO;
  int r = tt_probe(s, p->key, d);
  if (r != UNK) return r;
  /* checks, then captures, then the rest; with one move left for a mate, checks only */
  int order[ARB_MAX_MOVES], m = 0;
  for (int i = 0; i < n; i++)
    if (checks[i]) order[m++] = i;
  int nchecks = m;
  if (!(d == 1 && s->goal == ARB_SOLVE_MATE)) {
    for (int i = 0; i < n; i++)
      if (!checks[i] && p->board[ARB_MOVE_TO(moves[i])] != ARB_NO_PIECE) order[m++] = i;
    for (int i = 0; i < n; i++)
      if (!checks[i] && p->board[ARB_MOVE_TO(moves[i])] == ARB_NO_PIECE) order[m++] = i;
  }
  (void)nchecks;
  int unknown = 0;
  for (int j = 0; j < m; j++) {
    arb_move mv = moves[order[j]];
    arb_undo u;
    arb_make_move(p, mv, &u);
    int a = def(s, p, d - 1);
    arb_unmake_move(p, mv, &u);
    if (a == YES) {
      tt_store(s, p->key, d, YES);
      return YES;
    }
    if (a == UNK) unknown = 1;
  }
  if (unknown) return UNK;
  tt_store(s, p->key, d, NO);
  return NO;
}

/* The fewest S-moves from p (S to move) within max, or 0 if none is proven. */
static int att_length(arb_solver *s, arb_position *p, int max) {
  for (int d = 1; d <= max; d++) {
    int r = att(s, p, d);
    if (r == YES) return d;
    if (r == UNK) return 0;
  }
  return 0;
}

/* The main line from p (S to move, a forced goal in d): S's fastest move, the opponent's
 * longest resistance, and so on. */
static void main_line(arb_solver *s, arb_position p, int d, arb_solve_result *out) {
  while (d > 0 && out->line_len + 1 < 2 * ARB_SOLVE_MAX_N) {
    arb_move moves[ARB_MAX_MOVES];
    int n = arb_generate_legal(&p, moves), best = -1;
    for (int i = 0; i < n && best < 0; i++) {
      arb_undo u;
      arb_make_move(&p, moves[i], &u);
      if (def(s, &p, d - 1) == YES) best = i;
      arb_unmake_move(&p, moves[i], &u);
    }
    if (best < 0) return;
    arb_undo u;
    arb_make_move(&p, moves[best], &u);
    out->line[out->line_len++] = moves[best];
    n = arb_generate_legal(&p, moves);
    if (n == 0 || (s->goal == ARB_SOLVE_DRAW && drawn_here(&p))) return;
    /* the reply that makes S need the most moves */
    int worst = -1, longest = 0;
    for (int i = 0; i < n; i++) {
      arb_make_move(&p, moves[i], &u);
      int len = att_length(s, &p, d - 1);
      arb_unmake_move(&p, moves[i], &u);
      if (len > longest) longest = len, worst = i;
    }
    if (worst < 0) return;
    arb_make_move(&p, moves[worst], &u);
    out->line[out->line_len++] = moves[worst];
    d = longest;
  }
}

arb_status arb_solve(arb_solver *s, const arb_position *pos, arb_solve_goal goal, int n,
                     uint64_t budget, arb_solve_result *out) {
  if (!s || !pos || !out || n < 1 || n > ARB_SOLVE_MAX_N ||
      (goal != ARB_SOLVE_MATE && goal != ARB_SOLVE_DRAW))
    return ARB_ERR_ARGUMENT;
  memset(out, 0, sizeof *out);
  arb_position p = *pos;
  /* the side not to move in check cannot arise */
  p.turn ^= 1;
  int impossible = arb_in_check(&p);
  p.turn ^= 1;
  if (impossible) return ARB_ERR_FEN_INVALID;
  s->goal = goal;
  s->side = p.turn;
  s->tag = (uint8_t)(1 + goal * 2 + p.turn);
  s->nodes = 0;
  s->budget = budget ? budget : ARB_SOLVE_DEFAULT_BUDGET;
  s->out_of_budget = 0;
  arb_move moves[ARB_MAX_MOVES];
  int count = arb_generate_legal(&p, moves);
  if (count == 0 || arb_is_dead_position(&p)) {
    out->verdict = ARB_SOLVE_NONE; /* over on the board: nothing to force */
    out->keys_complete = 1;
    return ARB_OK;
  }
  int len[ARB_MAX_MOVES], unknown[ARB_MAX_MOVES];
  memset(len, 0, sizeof len);
  memset(unknown, 0, sizeof unknown);
  for (int d = 1; d <= n; d++)
    for (int i = 0; i < count; i++) {
      if (len[i] || unknown[i]) continue;
      arb_undo u;
      arb_make_move(&p, moves[i], &u);
      int r = def(s, &p, d - 1);
      arb_unmake_move(&p, moves[i], &u);
      if (r == YES) len[i] = d;
      if (r == UNK) unknown[i] = 1;
    }
  int shortest = 0, any_unknown = 0;
  for (int i = 0; i < count; i++) {
    if (len[i]) {
      out->keys[out->nkeys] = moves[i];
      out->key_length[out->nkeys++] = len[i];
      if (!shortest || len[i] < shortest) shortest = len[i];
    }
    any_unknown |= unknown[i];
  }
  out->keys_complete = !any_unknown;
  if (shortest) {
    out->verdict = ARB_SOLVE_FOUND;
    out->length = shortest;
    /* unknown moves might be shorter than the shortest found: then the length is only an upper
     * bound, and the result is not complete (keys_complete says so) */
    uint64_t spent = s->nodes;
    s->budget = spent + (s->budget > spent ? s->budget - spent : 0) + 1000000;
    s->out_of_budget = 0;
    main_line(s, p, shortest, out);
  } else {
    out->verdict = any_unknown ? ARB_SOLVE_UNKNOWN : ARB_SOLVE_NONE;
  }
  out->nodes = s->nodes;
  return ARB_OK;
}
