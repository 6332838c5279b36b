/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_solve.c: libFuzzer target for the exact solver (arbiter/solve.h).  Input: a FEN line
 * (fuzz_start_position), then one byte choosing the goal and n (1 or 2) and the budget.  The
 * answer is checked against a brute force written here, by move generation alone:
 *   - n = 1: the keys are exactly the moves after which the opponent has no move and is in check
 *     (mate) — or, for the draw goal, has no move at all or stands in a dead position;
 *   - n = 2, mate, when the position has few moves: a key is a move after which every reply
 *     leaves a mate in one, and every such move is a key;
 * and the contract: a small budget gives unknown or the truth, never a wrong mate or none; keys
 * are legal, distinct, with lengths within n; the main line replays legally.
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"

static arb_solve_result R;
static arb_solver *S;

static int goal_now(const arb_position *p, int goal) { /* the opponent (to move) is done for */
  arb_move m[ARB_MAX_MOVES];
  int n = arb_generate_legal(p, m);
  if (n == 0) return goal == ARB_SOLVE_DRAW || arb_in_check(p);
  return goal == ARB_SOLVE_DRAW && arb_is_dead_position(p);
}

static int mate_in_one(arb_position *p) {
  arb_move m[ARB_MAX_MOVES];
  int n = arb_generate_legal(p, m);
  for (int i = 0; i < n; i++) {
    arb_undo u;
    arb_make_move(p, m[i], &u);
    int ok = goal_now(p, ARB_SOLVE_MATE);
    arb_unmake_move(p, m[i], &u);
    if (ok) return 1;
  }
  return 0;
}

/* after S's move (p: the opponent to move), does S mate within one more move whatever comes? */
static int mate_next(arb_position *p) {
  if (goal_now(p, ARB_SOLVE_MATE)) return 1;
  arb_move m[ARB_MAX_MOVES];
  int n = arb_generate_legal(p, m);
  if (n == 0) return 0; /* stalemate */
  for (int i = 0; i < n; i++) {
    arb_undo u;
    arb_make_move(p, m[i], &u);
    int ok = mate_in_one(p);
    arb_unmake_move(p, m[i], &u);
    if (!ok) return 0;
  }
  return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  arb_position pos;
  const char *rest = fuzz_start_position(data, size, &pos);
  uint8_t knob = rest && rest < (const char *)data + size ? (uint8_t)*rest : 0;
  int goal = knob & 1, n = 1 + ((knob >> 1) & 1);
  uint64_t budget = (knob & 4) ? 50 + (knob >> 3) * 20 : 200000;
  if (!S && !(S = arb_solver_new(1 << 20))) return 0;
  arb_position q = pos;
  q.turn ^= 1;
  int impossible = arb_in_check(&q);
  arb_status st = arb_solve(S, &pos, (arb_solve_goal)goal, n, budget, &R);
  if (impossible) {
    FUZZ_CHECK(st == ARB_ERR_FEN_INVALID);
    return 0;
  }
  FUZZ_CHECK(st == ARB_OK);
  arb_move moves[ARB_MAX_MOVES];
  int count = arb_generate_legal(&pos, moves);
  if (count == 0 || arb_is_dead_position(&pos)) {
    FUZZ_CHECK(R.verdict == ARB_SOLVE_NONE && R.nkeys == 0);
    return 0;
  }
  for (int i = 0; i < R.nkeys; i++) {
    FUZZ_CHECK(fuzz_in_list(moves, count, R.keys[i]));
    FUZZ_CHECK(R.key_length[i] >= 1 && R.key_length[i] <= n);
    for (int j = 0; j < i; j++)
      FUZZ_CHECK(R.keys[i] != R.keys[j]);
  }
  FUZZ_CHECK((R.verdict == ARB_SOLVE_FOUND) == (R.nkeys > 0));
  /* the brute force: the first moves that reach the goal within n */
  int brute = 0, decided = 1;
  for (int i = 0; i < count; i++) {
    arb_undo u;
    arb_make_move(&pos, moves[i], &u);
    int yes = goal_now(&pos, goal);
    if (!yes && n == 2 && goal == ARB_SOLVE_MATE) {
      if (count <= 24)
        yes = mate_next(&pos);
      else
        decided = 0;
    } else if (!yes && n == 2) {
      decided = 0; /* the draw goal's second move: not brute-forced here */
    }
    arb_unmake_move(&pos, moves[i], &u);
    if (!decided) break;
    int key = 0;
    for (int k = 0; k < R.nkeys; k++)
      key |= R.keys[k] == moves[i];
    brute += yes;
    if (R.keys_complete) FUZZ_CHECK(key == yes);
    if (key) FUZZ_CHECK(yes); /* a key is always true */
  }
  if (decided && R.keys_complete) FUZZ_CHECK(brute == R.nkeys);
  if (decided && R.verdict == ARB_SOLVE_NONE) FUZZ_CHECK(brute == 0);
  /* the main line replays */
  arb_position p = pos;
  for (int i = 0; i < R.line_len; i++) {
    FUZZ_CHECK(arb_is_legal(&p, R.line[i]));
    arb_undo u;
    arb_make_move(&p, R.line[i], &u);
  }
  return 0;
}
