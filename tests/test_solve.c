/* Arbiter — MIT licence, see LICENSE.
 *
 * test_solve.c: the exact solver (arbiter/solve.h) on positions whose answers are worked out by
 * hand from the Laws (stated beside each), and its contract: a budget that runs out gives
 * "unknown" and never a wrong "mate" or "none"; every key is listed with its own length; bad
 * arguments and impossible positions are refused.  The solver against Stockfish on 400
 * real-game positions, each claimed mate proven leaf by leaf, is tests/cli/solve.py.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "arbiter/arbiter.h"

static arb_solve_result R; /* large: not on the stack */

static arb_solve_verdict solve(const char *fen, arb_solve_goal goal, int n, uint64_t budget) {
  arb_position pos;
  cr_assert_eq(arb_fen_read(&pos, fen, 0, NULL), ARB_OK, "%s", fen);
  arb_solver *s = arb_solver_new(1 << 20);
  cr_assert_not_null(s);
  cr_assert_eq(arb_solve(s, &pos, goal, n, budget, &R), ARB_OK);
  arb_solver_free(s);
  return R.verdict;
}

static int has_key(const char *fen, const char *uci, int *length) {
  arb_position pos;
  arb_fen_read(&pos, fen, 0, NULL);
  for (int i = 0; i < R.nkeys; i++) {
    char t[8];
    arb_uci_write(&pos, R.keys[i], t, sizeof t);
    if (!strcmp(t, uci)) {
      if (length) *length = R.key_length[i];
      return 1;
    }
  }
  return 0;
}

Test(solve, the_only_mate_in_one_and_every_other_key_with_its_length) {
  /* Ka8 against Qb6 and Kc6: Qb7 is mate (b7 held by the king; a7, a8's other flights covered);
   * Qa7+ and Qb8+ are taken, Qa6+ leaves b8, quiet queen moves stalemate or let the king out */
  const char *fen = "k7/8/1QK5/8/8/8/8/8 w - - 0 1";
  cr_assert_eq(solve(fen, ARB_SOLVE_MATE, 1, 0), ARB_SOLVE_FOUND);
  cr_assert_eq(R.length, 1);
  cr_assert_eq(R.nkeys, 1);
  cr_assert(has_key(fen, "b6b7", NULL));
  cr_assert(R.keys_complete);
  cr_assert_eq(R.line_len, 1);
  /* within 3, more first moves mate, each with its own shortest length */
  cr_assert_eq(solve(fen, ARB_SOLVE_MATE, 3, 0), ARB_SOLVE_FOUND);
  int len = 0;
  cr_assert(has_key(fen, "b6b7", &len));
  cr_assert_eq(len, 1);
  cr_assert(R.nkeys > 1);
  for (int i = 0; i < R.nkeys; i++)
    cr_assert(R.key_length[i] >= 1 && R.key_length[i] <= 3);
  /* Qb8+?? Kxb8 and Qa7+?? Kxa7 leave king against king: never a mate */
  cr_assert_not(has_key(fen, "b6b8", NULL));
  cr_assert_not(has_key(fen, "b6a7", NULL));
}

Test(solve, a_zugzwang_mate_in_three_from_a_real_game) {
  /* lichess CC0 game: the rook on g6 is pinned by Qe4, Kg8/Kh8 are covered by Rc8, so after
   * 1.a4 Black's only move is ...h5; 2.h4 leaves only ...Kh6, and 3.Rh8 is mate (g5 held by
   * the h4 pawn).  No check mates sooner: Qxg6+ Kxg6 or fxg6... (Stockfish misses it at 0.25 s) */
  const char *fen = "2R5/6pk/6rp/p7/4Q3/P6P/1P6/1K6 w - - 4 40";
  cr_assert_eq(solve(fen, ARB_SOLVE_MATE, 3, 0), ARB_SOLVE_FOUND);
  cr_assert_eq(R.length, 3);
  cr_assert_eq(R.nkeys, 1);
  cr_assert(has_key(fen, "a3a4", NULL));
  cr_assert_eq(R.line_len, 5, "a4 h5 h4 Kh6 Rh8#");
  cr_assert_eq(solve(fen, ARB_SOLVE_MATE, 2, 0), ARB_SOLVE_NONE, "no mate in two");
}

Test(solve, forced_draws_stalemate_and_dead_positions) {
  /* Black's king takes the last pawn: king against king, a dead position (5.2.2) */
  cr_assert_eq(solve("8/8/8/3k4/3P4/8/8/6K1 b - - 0 1", ARB_SOLVE_DRAW, 1, 0), ARB_SOLVE_FOUND);
  cr_assert_eq(R.nkeys, 1);
  cr_assert(has_key("8/8/8/3k4/3P4/8/8/6K1 b - - 0 1", "d5d4", NULL));
  /* Kf2 leaves the white king on h1 (h2 own pawn, blocked by h3) without a move: stalemate */
  const char *st = "8/8/8/8/8/5k1p/7P/7K b - - 0 1";
  cr_assert_eq(solve(st, ARB_SOLVE_DRAW, 1, 0), ARB_SOLVE_FOUND);
  cr_assert(has_key(st, "f3f2", NULL));
  cr_assert_not(has_key(st, "f3g3", NULL), "Kg3 lets the king to g1");
  /* a lone king cannot force anything against king and queen in one move... */
  cr_assert_eq(solve("k7/8/2K5/8/8/8/8/7Q b - - 0 1", ARB_SOLVE_DRAW, 1, 0), ARB_SOLVE_NONE);
}

Test(solve, a_budget_that_runs_out_says_unknown_never_mate_or_none) {
  const char *fen = "2R5/6pk/6rp/p7/4Q3/P6P/1P6/1K6 w - - 4 40";
  for (uint64_t budget = 1; budget < 4000; budget = budget * 3 + 1) {
    arb_solve_verdict v = solve(fen, ARB_SOLVE_MATE, 3, budget);
    cr_assert_neq(v, ARB_SOLVE_NONE, "budget %llu", (unsigned long long)budget);
    if (v == ARB_SOLVE_FOUND) { /* only the true key, at the true length */
      cr_assert(has_key(fen, "a3a4", NULL));
      cr_assert_eq(R.nkeys, 1);
    }
    cr_assert(R.nodes <= budget + 1000000, "the line may spend a little more");
  }
}

Test(solve, over_on_the_board_bad_arguments_and_impossible_positions) {
  cr_assert_eq(solve("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", ARB_SOLVE_DRAW, 2, 0), ARB_SOLVE_NONE,
               "already stalemate: nothing to force");
  cr_assert_eq(R.length, 0);
  arb_position pos;
  arb_fen_read(&pos, ARB_FEN_START, 0, NULL);
  arb_solver *s = arb_solver_new(0);
  cr_assert_eq(arb_solve(s, &pos, ARB_SOLVE_MATE, 0, 0, &R), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_solve(s, &pos, ARB_SOLVE_MATE, ARB_SOLVE_MAX_N + 1, 0, &R), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_solve(s, &pos, (arb_solve_goal)7, 2, 0, &R), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_solve(NULL, &pos, ARB_SOLVE_MATE, 2, 0, &R), ARB_ERR_ARGUMENT);
  /* Black to move with White in check cannot arise */
  arb_fen_read(&pos, "4k3/8/8/8/8/8/8/r3K3 b - - 0 1", ARB_FEN_PROBLEMS_ALL, NULL);
  cr_assert_eq(arb_solve(s, &pos, ARB_SOLVE_MATE, 2, 0, &R), ARB_ERR_FEN_INVALID);
  arb_solver_free(s);
  arb_solver_free(NULL);
  cr_assert_str_eq(arb_solve_verdict_name(ARB_SOLVE_FOUND, ARB_SOLVE_DRAW), "draw");
  cr_assert_str_eq(arb_solve_verdict_name(ARB_SOLVE_FOUND, ARB_SOLVE_MATE), "mate");
  cr_assert_str_eq(arb_solve_verdict_name(ARB_SOLVE_NONE, ARB_SOLVE_MATE), "none");
  cr_assert_str_eq(arb_solve_verdict_name(ARB_SOLVE_UNKNOWN, ARB_SOLVE_MATE), "unknown");
}
