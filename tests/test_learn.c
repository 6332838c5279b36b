/* Arbiter — MIT licence, see LICENSE.
 *
 * test_learn.c: the training model (arbiter/train.h) against its published vectors — Glicko-2
 * against Glickman's worked example, lichess's constants and bounds and its puzzle weights, the
 * Leitner schedule's boxes and days, lichess's selection window, and the 2PL model's estimate
 * against values worked out by hand.
 */
#include <criterion/criterion.h>
#include <math.h>

#include "arbiter/arbiter.h"

Test(learn, glickman_worked_example) {
  /* "Example of the Glicko-2 system" (Glickman 2013): a player of 1500, RD 200, volatility
   * 0.06, tau 0.5, against 1400/30 (won), 1550/100 (lost), 1700/300 (lost):
   * 1464.06, RD 151.52, volatility 0.05999 */
  arb_glicko p = {1500, 200, 0.06};
  const arb_glicko o[3] = {{1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}};
  const double s[3] = {1, 0, 0};
  cr_assert_eq(arb_glicko_update(&p, o, s, 3, 0.5), ARB_OK);
  cr_assert(fabs(p.rating - 1464.06) < 0.01, "%f", p.rating);
  cr_assert(fabs(p.rd - 151.52) < 0.01, "%f", p.rd);
  cr_assert(fabs(p.volatility - 0.05999) < 0.00001, "%f", p.volatility);
  /* no game: only the RD grows, by the volatility: sqrt(phi^2 + sigma^2) */
  arb_glicko q = {1500, 200, 0.06};
  arb_glicko_update(&q, NULL, NULL, 0, 0.5);
  cr_assert(fabs(q.rd - sqrt(200.0 * 200.0 + pow(0.06 * 173.7178, 2))) < 1e-6, "%f", q.rd);
  cr_assert_eq(q.rating, 1500);
  double bad = 1.5;
  cr_assert_eq(arb_glicko_update(&q, o, &bad, 1, 0.5), ARB_ERR_ARGUMENT);
}

Test(learn, lichess_constants_and_bounds) {
  arb_glicko g = arb_glicko_new();
  cr_assert_eq(g.rating, 1500);
  cr_assert_eq(g.rd, 500);
  cr_assert_eq(g.volatility, 0.09);
  cr_assert_eq(ARB_GLICKO_TAU, 0.75);
  arb_glicko before = {1500, 300, 0.06}, x = {2500, 20, 0.5};
  arb_glicko_clamp(&x, &before);
  cr_assert_eq(x.rating, 2200, "at most 700 a game");
  cr_assert_eq(x.rd, 45);
  cr_assert_eq(x.volatility, 0.1);
  arb_glicko y = {300, 600, 0.05};
  arb_glicko_clamp(&y, NULL);
  cr_assert_eq(y.rating, 400);
  cr_assert_eq(y.rd, 500);
  /* equal players: an even chance */
  cr_assert(fabs(arb_glicko_expected(&before, &before) - 0.5) < 1e-12);
}

Test(learn, puzzle_attempts_as_lichess_weighs_them) {
  cr_assert_eq(arb_puzzle_theme_kind("mateIn1"), 1);
  cr_assert_eq(arb_puzzle_theme_kind("smotheredMate"), 1);
  cr_assert_eq(arb_puzzle_theme_kind("enPassant"), 1);
  cr_assert_eq(arb_puzzle_theme_kind("fork"), 2);
  cr_assert_eq(arb_puzzle_theme_kind("stalemateTrap"), 2);
  cr_assert_eq(arb_puzzle_theme_kind("rookEndgame"), 3);
  cr_assert_eq(arb_puzzle_theme_kind("middlegame"), 3);
  cr_assert_eq(arb_puzzle_theme_kind(""), 0);
  /* the same solve moves the learner less when the theme gives the answer away */
  arb_glicko l1 = {1500, 100, 0.06}, p1 = {1500, 80, 0.06};
  arb_glicko l2 = l1, p2 = p1;
  arb_puzzle_rate(&l1, &p1, 1, 0);
  arb_puzzle_rate(&l2, &p2, 1, 1);
  cr_assert(l1.rating > 1500 && p1.rating < 1500, "a solve: the learner up, the puzzle down");
  double full = l1.rating - 1500, obvious = l2.rating - 1500;
  cr_assert(fabs(obvious - 0.1 * full) < 1e-9, "obvious theme: a tenth (%f of %f)", obvious, full);
  /* a failure against a provisional puzzle counts least: 0.4 - 0.7 floors at 0.1 */
  arb_glicko l3 = {1500, 100, 0.06}, p3 = {1500, 300, 0.06}, l4 = l3, p4 = p3;
  arb_puzzle_rate(&l3, &p3, 0, 0); /* mix: 1 - 0.7 = 0.3 */
  arb_puzzle_rate(&l4, &p4, 0, 1); /* obvious: max(0.1, 0.4 - 0.7) */
  cr_assert(l3.rating < 1500);
  cr_assert(fabs((l4.rating - 1500) / (l3.rating - 1500) - 0.1 / 0.3) < 1e-9);
}

Test(learn, the_leitner_boxes) {
  const int64_t day = ARB_REVIEW_DAY_MS, t0 = 1000;
  arb_review r = {0, 0, 0, 0};
  arb_review_answer(&r, 1, t0);
  cr_assert_eq(r.box, 0, "never missed: not in review");
  cr_assert_not(arb_review_due(&r, t0 + 100 * day));
  arb_review_answer(&r, 0, t0);
  cr_assert_eq(r.box, 1);
  cr_assert_eq(r.due_ms, t0 + day, "a miss comes back the next day");
  cr_assert_not(arb_review_due(&r, t0 + day - 1));
  cr_assert(arb_review_due(&r, t0 + day));
  /* right answers: 3, 7, 14, 30 days, then mastered after the fifth in a row */
  const int waits[] = {3, 7, 14, 30};
  int64_t t = t0 + day;
  for (int i = 0; i < 4; i++) {
    arb_review_answer(&r, 1, t);
    cr_assert_eq(r.box, 2 + i);
    cr_assert_eq(r.due_ms, t + waits[i] * day);
    t = r.due_ms;
  }
  arb_review_answer(&r, 1, t);
  cr_assert_eq(r.box, ARB_REVIEW_BOXES + 1, "five in a row: mastered");
  cr_assert_not(arb_review_due(&r, t + 1000 * day));
  /* a miss in a high box starts again at 1 */
  arb_review s = {4, 3, 0, 0};
  arb_review_answer(&s, 0, t0);
  cr_assert_eq(s.box, 1);
  cr_assert_eq(s.streak, 0);
}

Test(learn, selection_near_the_level) {
  /* lichess: target = rating + 300 per step, window (100 + |1500 - target| / 4) * compromise */
  cr_assert_eq(arb_select_target(1500, ARB_DIFFICULTY_HARDEST), 2100);
  cr_assert_eq(arb_select_target(1500, ARB_DIFFICULTY_EASIER), 1200);
  cr_assert_eq(arb_select_window(1500, 1), 100);
  cr_assert_eq(arb_select_window(2100, 1), 250);
  cr_assert_eq(arb_select_window(2100, 7), 1000, "the compromise stops at 4");
  arb_select_item items[] = {
      {1500, 1, 0, 1}, {1620, 0, 0, 1}, {1450, 0, 0, 0}, {1800, 0, 0, 1}, {1000, 1, 1, 1}};
  cr_assert_eq(arb_select_next(items, 5, 1500, 0), 4, "a due review comes first");
  items[4].due = 0;
  cr_assert_eq(arb_select_next(items, 5, 1500, 0), 1,
               "unseen, with the theme, nearest: 1620 (at compromise 2; 1450 lacks the theme)");
  items[1].seen = items[3].seen = 1;
  cr_assert_eq(arb_select_next(items, 5, 1500, 0), 0,
               "all seen: at compromise 5 the nearest again");
  cr_assert_eq(arb_select_next(items, 0, 1500, 0), -1);
}

Test(learn, irt_estimates) {
  /* no answers: the prior itself */
  double th, se;
  arb_irt_estimate(NULL, NULL, 0, 0.0, 1.0, &th, &se);
  cr_assert(fabs(th) < 1e-9);
  cr_assert(fabs(se - 1.0) < 0.01, "%f", se);
  /* one item of difficulty 0, a = 1, answered right: the posterior mean is above 0, and by
   * symmetry a wrong answer gives the opposite */
  arb_irt_item it = {1.0, 0.0};
  int yes = 1, no = 0;
  double up, down, s1, s2;
  arb_irt_estimate(&it, &yes, 1, 0.0, 1.0, &up, &s1);
  arb_irt_estimate(&it, &no, 1, 0.0, 1.0, &down, &s2);
  cr_assert(up > 0.3 && up < 0.5, "%f", up);
  cr_assert(fabs(up + down) < 1e-9);
  cr_assert(s1 < 1.0, "an answer narrows it");
  /* information a^2 P (1 - P): at theta = b, a^2 / 4 */
  arb_irt_item sharp = {2.0, 0.5};
  cr_assert(fabs(arb_irt_information(&sharp, 0.5) - 1.0) < 1e-12);
  /* the rating scale: 400 points are odds of 10 */
  cr_assert(fabs(arb_irt_difficulty(1900) - log(10.0)) < 1e-12);
  cr_assert(fabs(arb_irt_rating(log(10.0)) - 1900) < 1e-9);
  /* many right answers to items around 1500 put the learner well above 1500, precisely */
  arb_irt_item many[30];
  int right[30];
  for (int i = 0; i < 30; i++)
    many[i] = (arb_irt_item){1.0, arb_irt_difficulty(1400 + 10 * i)}, right[i] = i % 4 != 3;
  arb_irt_estimate(many, right, 30, 0.0, 1.5, &th, &se);
  cr_assert(arb_irt_rating(th) > 1600, "%f", arb_irt_rating(th));
  cr_assert(se < 0.5, "%f", se);
}
