/* Arbiter — MIT licence, see LICENSE.
 *
 * test_diagnostic.c: the diagnostic's model and its endgame drills (arbiter/diagnostic.h).
 * The model against what item response theory says it must do (an item of difficulty equal to
 * the ability is the most informative; answers narrow the estimate; the stop rule), and the
 * drills on positions whose outcome the Laws settle: Qg8# mates, Qc7 stalemates (a draw), a
 * queen left where the king takes it is lost, an illegal move changes nothing.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "arbiter/arbiter.h"

static arb_position fen(const char *f) {
  arb_position p;
  cr_assert_eq(arb_fen_read(&p, f, 0, NULL), ARB_OK, "%s", f);
  return p;
}

static arb_move move(const arb_position *p, const char *uci) {
  arb_move m;
  cr_assert_eq(arb_uci_read(p, uci, strlen(uci), 0, &m), ARB_OK, "%s", uci);
  return m;
}

Test(diagnostic, the_most_informative_item_is_the_one_at_the_ability) {
  arb_diag d;
  arb_diag_init(&d);
  arb_irt_item items[3] = {{1, -3}, {1, 0.1}, {1, 3}};
  cr_assert_eq(arb_diag_pick(&d, ARB_DIAG_RULES, items, 3), 1, "the prior's mean is 0");
  cr_assert_eq(arb_diag_pick(&d, ARB_DIAG_RULES, items, 0), -1);
  /* right answers to hard items raise the estimate and narrow it */
  arb_diag_estimate before, after;
  arb_diag_estimate_of(&d, ARB_DIAG_TACTICS, &before);
  for (int i = 0; i < 4; i++)
    arb_diag_answer(&d, ARB_DIAG_TACTICS, (arb_irt_item){1, 1.5}, 1);
  arb_diag_estimate_of(&d, ARB_DIAG_TACTICS, &after);
  cr_assert(after.theta > before.theta + 0.5 && after.se < before.se, "%f %f", after.theta,
            after.se);
  cr_assert_eq(after.answered, 4);
  cr_assert_eq(after.right, 4);
  cr_assert(fabs(before.rating - 1500) < 1, "the prior is 1500");
  cr_assert_eq(arb_diag_pick(&d, ARB_DIAG_TACTICS, items, 3), 2, "now the hard one tells most");
}

Test(diagnostic, areas_short_of_answers_come_first_and_the_test_stops) {
  arb_diag d;
  arb_diag_init(&d);
  cr_assert_eq(arb_diag_next_area(&d), ARB_DIAG_RULES);
  arb_diag_answer(&d, ARB_DIAG_RULES, (arb_irt_item){1, 0}, 1);
  cr_assert_eq(arb_diag_next_area(&d), ARB_DIAG_TACTICS);
  arb_diag_skip(&d, ARB_DIAG_TACTICS);
  cr_assert_eq(arb_diag_next_area(&d), ARB_DIAG_ENDGAMES, "a skipped area is not asked");
  cr_assert_eq(arb_diag_answer(&d, ARB_DIAG_TACTICS, (arb_irt_item){1, 0}, 1), ARB_ERR_ARGUMENT);
  int asked = 1;
  while (!arb_diag_done(&d)) {
    arb_diag_area a = arb_diag_next_area(&d);
    cr_assert(a == ARB_DIAG_RULES || a == ARB_DIAG_ENDGAMES);
    cr_assert_eq(arb_diag_answer(&d, a, (arb_irt_item){1, 0}, asked % 2), ARB_OK);
    asked++;
  }
  cr_assert(asked >= ARB_DIAG_MIN && asked <= ARB_DIAG_MAX, "%d", asked);
  cr_assert_eq(arb_diag_next_area(&d), ARB_DIAG_AREAS);
  cr_assert_eq(arb_diag_answer(&d, ARB_DIAG_RULES, (arb_irt_item){1, 0}, 1), ARB_ERR_GAME_OVER);
  /* always wrong on endgames, always right on rules: endgames is the weakest */
  arb_diag_init(&d);
  for (int i = 0; i < 6; i++) {
    arb_diag_answer(&d, ARB_DIAG_RULES, (arb_irt_item){1, 0}, 1);
    arb_diag_answer(&d, ARB_DIAG_TACTICS, (arb_irt_item){1, 0}, i % 2);
    arb_diag_answer(&d, ARB_DIAG_ENDGAMES, (arb_irt_item){1, 0}, 0);
  }
  cr_assert_eq(arb_diag_weakest(&d), ARB_DIAG_ENDGAMES);
}

Test(diagnostic, drills_mate_stalemate_and_a_lost_queen) {
  arb_status st;
  arb_endgame *kqk = arb_endgame_new("KQK", &st);
  cr_assert_not_null(kqk);
  /* White Kb6, Qg1; Black Ka8: Qg8# (a7 and b7 are the king's, b8 the queen's) */
  arb_position p = fen("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1");
  arb_drill d;
  cr_assert_eq(arb_drill_start(&d, kqk, &p, 0), ARB_OK);
  cr_assert_eq(d.dtm, 1);
  cr_assert_eq(d.moves_allowed, 1);
  cr_assert_eq(arb_drill_move(&d, kqk, move(&d.pos, "g1g2")), ARB_OK);
  cr_assert_eq(d.state, ARB_DRILL_TOO_SLOW, "one move was allowed and it did not mate");
  arb_drill_start(&d, kqk, &p, 0);
  cr_assert_eq(arb_drill_move(&d, kqk, move(&d.pos, "g1g8")), ARB_OK);
  cr_assert_eq(d.state, ARB_DRILL_MATED);
  cr_assert_eq(arb_drill_move(&d, kqk, move(&p, "g1g8")), ARB_ERR_GAME_OVER);
  /* Qc7: the king on a8 is not in check and has no move — stalemate, a draw */
  arb_drill_start(&d, kqk, &p, 3);
  cr_assert_eq(arb_drill_move(&d, kqk, move(&d.pos, "g1g7")), ARB_OK);
  cr_assert_eq(d.state, ARB_DRILL_ON, "Qg7 keeps the win");
  cr_assert_neq(d.last_reply, ARB_MOVE_NONE, "the defence answered");
  /* a queen given away next to the king */
  arb_position q = fen("k7/8/2K5/8/8/8/8/1Q6 w - - 0 1");
  cr_assert_eq(arb_drill_start(&d, kqk, &q, 5), ARB_OK);
  cr_assert_eq(arb_drill_move(&d, kqk, move(&d.pos, "b1b7")), ARB_OK);
  cr_assert_eq(d.state, ARB_DRILL_MATED, "Qb7#: the king defends the queen");
  arb_position r = fen("k7/8/8/2K5/8/8/8/1Q6 w - - 0 1");
  cr_assert_eq(arb_drill_start(&d, kqk, &r, 5), ARB_OK);
  cr_assert_eq(arb_drill_move(&d, kqk, move(&d.pos, "b1b7")), ARB_OK);
  cr_assert_eq(d.state, ARB_DRILL_DRAWN, "Qb7+?? Kxb7: the queen is lost");
  arb_position s = fen("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1");
  cr_assert(arb_is_stalemate(&s), "the stalemate the drill must call a draw");
  arb_position t = fen("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1");
  cr_assert_eq(arb_drill_start(&d, kqk, &t, 5), ARB_OK);
  cr_assert_eq(arb_drill_move(&d, kqk, move(&d.pos, "c1c7")), ARB_OK);
  cr_assert_eq(d.state, ARB_DRILL_DRAWN, "Qc7 stalemates");
  /* an illegal move changes nothing */
  arb_drill_start(&d, kqk, &t, 5);
  arb_move bad = ARB_MOVE_MAKE(ARB_SQUARE(2, 0), ARB_SQUARE(3, 2)); /* a queen's knight jump */
  cr_assert_eq(arb_drill_move(&d, kqk, bad), ARB_ERR_MOVE_ILLEGAL);
  cr_assert_eq(d.moves_made, 0);
  /* a drawn or lost position is not a drill */
  arb_position drawn = fen("k7/8/8/8/8/8/1Q6/K7 b - - 0 1"); /* the lone king to move: lost */
  cr_assert_eq(arb_drill_start(&d, kqk, &drawn, 3), ARB_ERR_ARGUMENT, "the lone king to move");
  arb_endgame_free(kqk);
}

Test(diagnostic, drill_positions_have_the_length_asked) {
  arb_endgame *krk = arb_endgame_new("KRK", NULL);
  arb_solver *s = arb_solver_new(1 << 20);
  for (uint64_t seed = 1; seed <= 6; seed++) {
    arb_position p;
    cr_assert_eq(arb_drill_position(krk, 2, 3, seed, &p), ARB_OK);
    /* the exact solver (another algorithm) agrees on the length */
    arb_solve_result r;
    cr_assert_eq(arb_solve(s, &p, ARB_SOLVE_MATE, 3, 0, &r), ARB_OK);
    cr_assert_eq(r.verdict, ARB_SOLVE_FOUND);
    cr_assert(r.length >= 2 && r.length <= 3, "%d", r.length);
  }
  arb_solver_free(s);
  const arb_endgame *tables[3] = {NULL, krk, NULL};
  arb_diag_endgame e[ARB_DIAG_ENDGAME_CANDIDATES];
  int n = arb_diag_endgames(tables, 7, e);
  cr_assert(n >= 2, "KRK drills without the other tables (%d)", n);
  for (int i = 0; i < n; i++)
    cr_assert_eq(e[i].table, ARB_DIAG_TABLE_KRK);
  arb_endgame_free(krk);
}
