/* Arbiter — MIT licence, see LICENSE.
 *
 * test_referee.c: `arbiter referee`'s event handler on scripted games — the procedure cases of
 * the rules catalogue (P09, P11, P13, P14, P15) and the rule sets' endings, as event streams.
 */
#include <jansson.h>
#include <stdlib.h>

#include "referee.h"
#include "test_util.h"

/* Feeds the events (one per string) and returns the last answer, parsed. */
static json_t *run(arb_ruleset rules, const char *const *events, size_t n) {
  ref_state *st = ref_state_new(rules);
  cr_assert_not_null(st);
  json_t *last = NULL;
  for (size_t i = 0; i < n; i++) {
    char *ans = referee_answer(st, events[i], strlen(events[i]), (long)i + 1);
    cr_assert_not_null(ans);
    json_error_t e;
    json_decref(last);
    last = json_loads(ans, 0, &e);
    cr_assert_not_null(last, "%s", ans);
    free(ans);
  }
  ref_state_free(st);
  return last;
}

static const char *str(json_t *a, const char *k) {
  return json_string_value(json_object_get(a, k));
}

#define RUN(rules, ...)                                                                            \
  run(rules, (const char *const[]){__VA_ARGS__},                                                   \
      sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

Test(referee, P09_wrong_claim_penalty_and_must_play) {
  json_t *a = RUN(ARB_RULES_FIDE, "{\"type\":\"move\",\"move\":\"g1f3\"}",
                  "{\"type\":\"move\",\"move\":\"g8f6\"}", "{\"type\":\"move\",\"move\":\"f3g1\"}",
                  "{\"type\":\"claim_draw\",\"by\":\"black\",\"reason\":\"threefold\","
                  "\"move\":\"f6g8\"}");
  json_t *c = json_object_get(a, "claim");
  cr_assert(json_is_false(json_object_get(c, "correct")));
  cr_assert_eq(json_integer_value(json_object_get(c, "penalty_s")), 120);
  cr_assert_str_eq(str(c, "time_added_to"), "white");
  cr_assert_str_eq(str(c, "must_play"), "f6g8");
  cr_assert_str_eq(str(a, "result"), "*");
  json_decref(a);
  /* another move than the written one is refused */
  a = RUN(ARB_RULES_FIDE, "{\"type\":\"move\",\"move\":\"g1f3\"}",
          "{\"type\":\"move\",\"move\":\"g8f6\"}", "{\"type\":\"move\",\"move\":\"f3g1\"}",
          "{\"type\":\"claim_draw\",\"by\":\"black\",\"reason\":\"threefold\",\"move\":\"f6g8\"}",
          "{\"type\":\"move\",\"move\":\"b8c6\"}");
  cr_assert_str_eq(str(json_object_get(a, "error"), "code"), "must_play");
  json_decref(a);
}

Test(referee, P11_claim_stands_as_offer) {
  json_t *a = RUN(ARB_RULES_FIDE, "{\"type\":\"move\",\"move\":\"e4\"}",
                  "{\"type\":\"move\",\"move\":\"e5\"}",
                  "{\"type\":\"claim_draw\",\"by\":\"white\",\"reason\":\"fifty\"}",
                  "{\"type\":\"accept_draw\",\"by\":\"black\"}");
  cr_assert(json_is_true(json_object_get(a, "ok")));
  cr_assert_str_eq(str(a, "result"), "1/2-1/2");
  cr_assert_str_eq(str(a, "termination"), "agreement");
  json_decref(a);
}

Test(referee, P13_offer_cannot_be_withdrawn) {
  json_t *a =
      RUN(ARB_RULES_FIDE, "{\"type\":\"move\",\"move\":\"e4\"}",
          "{\"type\":\"move\",\"move\":\"e5\"}", "{\"type\":\"offer_draw\",\"by\":\"white\"}",
          "{\"type\":\"withdraw_offer\",\"by\":\"white\"}",
          "{\"type\":\"accept_draw\",\"by\":\"black\"}");
  cr_assert_str_eq(str(a, "result"), "1/2-1/2");
  json_decref(a);
}

Test(referee, P14_agreement_needs_a_move_each) {
  json_t *a = RUN(ARB_RULES_FIDE,
                  "{\"type\":\"start\",\"fen\":\"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b "
                  "KQkq - 0 1\"}",
                  "{\"type\":\"offer_draw\",\"by\":\"white\"}",
                  "{\"type\":\"accept_draw\",\"by\":\"black\"}");
  cr_assert(json_is_false(json_object_get(a, "ok")));
  cr_assert_str_eq(str(json_object_get(a, "error"), "code"), "not_allowed");
  cr_assert_str_eq(str(a, "result"), "*");
  json_decref(a);
}

Test(referee, P15_resignation_against_a_lone_king) {
  const char *start = "{\"type\":\"start\",\"fen\":\"8/8/8/4k3/8/8/8/3QK3 w - - 0 1\"}";
  json_t *a = RUN(ARB_RULES_FIDE, start, "{\"type\":\"resign\",\"by\":\"white\"}");
  cr_assert_str_eq(str(a, "result"), "1/2-1/2");
  json_decref(a);
  a = RUN(ARB_RULES_ONLINE, start, "{\"type\":\"resign\",\"by\":\"white\"}");
  cr_assert_str_eq(str(a, "result"), "0-1");
  json_decref(a);
}

Test(referee, automatic_endings_per_rule_set) {
  /* F13: the knight shuffle — fivefold under FIDE, threefold already under online */
  const char *ev[17];
  static const char *const cycle[4] = {
      "{\"type\":\"move\",\"move\":\"Nf3\"}", "{\"type\":\"move\",\"move\":\"Nf6\"}",
      "{\"type\":\"move\",\"move\":\"Ng1\"}", "{\"type\":\"move\",\"move\":\"Ng8\"}"};
  for (int i = 0; i < 16; i++)
    ev[i] = cycle[i % 4];
  json_t *a = run(ARB_RULES_FIDE, ev, 16);
  cr_assert_str_eq(str(a, "termination"), "fivefold_repetition");
  cr_assert_str_eq(str(a, "ended_by"), "rules");
  json_decref(a);
  a = run(ARB_RULES_ONLINE, ev, 8);
  cr_assert_str_eq(str(a, "termination"), "threefold_repetition");
  json_decref(a);
  a = run(ARB_RULES_USCF, ev, 16);
  cr_assert_str_eq(str(a, "result"), "*", "US Chess: the director may declare it");
  cr_assert(json_is_true(json_object_get(a, "fivefold")));
  json_decref(a);
  /* a correct claim on the present position after the third occurrence */
  ev[8] = "{\"type\":\"claim_draw\",\"by\":\"white\",\"reason\":\"threefold\"}";
  a = run(ARB_RULES_FIDE, ev, 9);
  cr_assert(json_is_true(json_object_get(json_object_get(a, "claim"), "correct")));
  cr_assert_str_eq(str(a, "termination"), "threefold_repetition");
  cr_assert_str_eq(str(a, "ended_by"), "white");
  json_decref(a);
}

Test(referee, claims_listed_for_the_side_to_move) {
  json_t *a = RUN(ARB_RULES_FIDE, "{\"type\":\"move\",\"move\":\"Nf3\"}",
                  "{\"type\":\"move\",\"move\":\"Nf6\"}", "{\"type\":\"move\",\"move\":\"Ng1\"}",
                  "{\"type\":\"move\",\"move\":\"Ng8\"}", "{\"type\":\"move\",\"move\":\"Nf3\"}",
                  "{\"type\":\"move\",\"move\":\"Nf6\"}", "{\"type\":\"move\",\"move\":\"Ng1\"}");
  json_t *claims = json_object_get(a, "claims");
  cr_assert_eq(json_array_size(claims), 1, "Ng8 would make the third occurrence");
  cr_assert_str_eq(json_string_value(json_array_get(claims, 0)), "threefold");
  json_decref(a);
}

/* ---- with a clock ---- */

static json_t *clock_of(json_t *a) { return json_object_get(a, "clock"); }

Test(referee, flag_verdicts_through_the_referee) {
  /* K+Q v K+N, the K+Q side flags: a draw (the knight can never mate, R22) */
  json_t *a = RUN(ARB_RULES_FIDE,
                  "{\"type\":\"start\",\"fen\":\"8/8/8/4k3/8/8/q7/1N2K3 b - - 0 1\","
                  "\"control\":\"1m\",\"t\":0}",
                  "{\"type\":\"flag\",\"side\":\"black\",\"t\":60001}");
  cr_assert_str_eq(str(a, "result"), "1/2-1/2");
  cr_assert_str_eq(str(a, "termination"), "time_forfeit");
  cr_assert_str_eq(str(json_object_get(a, "flag"), "reason"), "cannot_mate");
  json_decref(a);
  /* K+R v K+N, the rook side flags: a loss (the knight side has a helpmate, T03) */
  a = RUN(ARB_RULES_FIDE,
          "{\"type\":\"start\",\"fen\":\"6rk/8/7K/4N3/8/8/8/8 b - - 0 1\",\"control\":\"1m\","
          "\"t\":0}",
          "{\"type\":\"flag\",\"side\":\"black\",\"t\":60001}");
  cr_assert_str_eq(str(a, "result"), "1-0");
  json_decref(a);
  /* locked pawns (T09) under the online rule: the server sees the flag itself, and scores it a
   * loss (lichess inspects material only).  FIDE's draw here needs the exact dead-position test
   * (its own issue): not asserted yet. */
  a = RUN(ARB_RULES_ONLINE,
          "{\"type\":\"start\",\"fen\":\"k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1\","
          "\"control\":\"1m\",\"t\":0}",
          "{\"type\":\"move\",\"move\":\"Kb2\",\"t\":100}",
          "{\"type\":\"move\",\"move\":\"Kb7\",\"t\":200}", "{\"type\":\"state\",\"t\":60201}");
  cr_assert_str_eq(str(a, "result"), "0-1");
  cr_assert_str_eq(str(json_object_get(a, "flag"), "side"), "white");
  json_decref(a);
}

Test(referee, clock_boundary_and_errors) {
  /* 1 minute, no increment: a move completed at the last millisecond counts... */
  json_t *a = RUN(ARB_RULES_FIDE, "{\"type\":\"start\",\"control\":\"1m\",\"t\":1000}",
                  "{\"type\":\"move\",\"move\":\"e4\",\"t\":61000}",
                  "{\"type\":\"flag\",\"side\":\"white\",\"t\":61000}");
  cr_assert(json_is_false(json_object_get(a, "ok")), "white's flag has not fallen");
  cr_assert_str_eq(str(json_object_get(a, "error"), "code"), "flag_not_fallen");
  cr_assert_eq(json_integer_value(json_object_get(clock_of(a), "white_ms")), 0);
  cr_assert_str_eq(str(clock_of(a), "running"), "black");
  json_decref(a);
  /* ... one millisecond later does not */
  a = RUN(ARB_RULES_FIDE, "{\"type\":\"start\",\"control\":\"1m\",\"t\":1000}",
          "{\"type\":\"move\",\"move\":\"e4\",\"t\":61001}",
          "{\"type\":\"flag\",\"side\":\"white\",\"t\":61002}");
  cr_assert(json_is_true(json_object_get(a, "ok")));
  cr_assert_str_eq(str(a, "result"), "0-1");
  json_decref(a);
  /* time going backwards, flags for the wrong side, events after the end */
  a = RUN(ARB_RULES_FIDE, "{\"type\":\"start\",\"control\":\"5+3\",\"t\":0}",
          "{\"type\":\"move\",\"move\":\"e4\",\"t\":5000}",
          "{\"type\":\"move\",\"move\":\"e5\",\"t\":4000}");
  cr_assert_str_eq(str(json_object_get(a, "error"), "code"), "time_backwards");
  json_decref(a);
  a = RUN(ARB_RULES_FIDE, "{\"type\":\"start\",\"control\":\"5+3\",\"t\":0}",
          "{\"type\":\"flag\",\"side\":\"black\",\"t\":400000}");
  cr_assert_str_eq(str(json_object_get(a, "error"), "code"), "flag_not_fallen",
                   "black's clock never ran");
  json_decref(a);
  a = RUN(ARB_RULES_FIDE, "{\"type\":\"start\",\"control\":\"5+3\",\"t\":0}",
          "{\"type\":\"resign\",\"by\":\"white\",\"t\":1000}",
          "{\"type\":\"move\",\"move\":\"e4\",\"t\":2000}");
  cr_assert_str_eq(str(json_object_get(a, "error"), "code"), "game_over");
  cr_assert(json_is_null(json_object_get(clock_of(a), "running")), "the clock stopped");
  json_decref(a);
  a = RUN(ARB_RULES_FIDE, "{\"type\":\"start\",\"control\":\"five minutes\",\"t\":0}");
  cr_assert_str_eq(str(json_object_get(a, "error"), "code"), "tc_syntax");
  json_decref(a);
}

Test(referee, wrong_claim_costs_clock_time) {
  /* P09 with a clock: +2 minutes to White under FIDE standard play, +1 in blitz (A.3) */
  const char *ev[] = {"{\"type\":\"start\",\"control\":\"10m\",\"t\":0}",
                      "{\"type\":\"move\",\"move\":\"Nf3\",\"t\":1000}",
                      "{\"type\":\"move\",\"move\":\"Nf6\",\"t\":2000}",
                      "{\"type\":\"move\",\"move\":\"Ng1\",\"t\":3000}",
                      ("{\"type\":\"claim_draw\",\"by\":\"black\",\"reason\":\"threefold\","
                       "\"move\":\"Ng8\",\"t\":4000}")};
  json_t *a = run(ARB_RULES_FIDE, ev, 5);
  /* white used 1 s + 1 s: 598 s, plus 120 s */
  cr_assert_eq(json_integer_value(json_object_get(clock_of(a), "white_ms")), 718000);
  json_decref(a);
  a = run(ARB_RULES_FIDE_BLITZ, ev, 5);
  cr_assert_eq(json_integer_value(json_object_get(clock_of(a), "white_ms")), 658000);
  json_decref(a);
}

Test(referee, online_flag_with_a_pending_offer_is_a_draw) {
  /* P21: lila scores a flag as a draw when the player with time had offered one */
  json_t *a = RUN(ARB_RULES_ONLINE, "{\"type\":\"start\",\"control\":\"1m\",\"t\":0}",
                  "{\"type\":\"move\",\"move\":\"e4\",\"t\":100}",
                  "{\"type\":\"move\",\"move\":\"e5\",\"t\":200}",
                  "{\"type\":\"offer_draw\",\"by\":\"black\",\"t\":300}",
                  "{\"type\":\"state\",\"t\":70000}");
  cr_assert_str_eq(str(a, "result"), "1/2-1/2");
  cr_assert_str_eq(str(json_object_get(a, "flag"), "reason"), "draw_offer");
  json_decref(a);
}

Test(referee, locked_pawns_draw_under_fide_lose_online) {
  const char *start = "{\"type\":\"start\",\"fen\":\"k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1\","
                      "\"control\":\"1m\",\"t\":0}";
  /* FIDE 5.2.2: the position is dead, the game is drawn at once; a later flag changes nothing */
  json_t *a = RUN(ARB_RULES_FIDE, start, "{\"type\":\"flag\",\"side\":\"white\",\"t\":60001}");
  cr_assert_str_eq(str(a, "result"), "1/2-1/2");
  cr_assert_str_eq(str(a, "termination"), "dead_position");
  cr_assert_str_eq(str(json_object_get(a, "error"), "code"), "game_over");
  json_decref(a);
}

/* Found in review: time, claims and offers must stay consistent. */
Test(referee, failed_start_keeps_time_and_clock) {
  json_t *a = RUN(ARB_RULES_FIDE, "{\"type\":\"start\",\"control\":\"1+0\",\"t\":0}",
                  "{\"type\":\"move\",\"move\":\"e4\",\"t\":50000}",
                  "{\"type\":\"start\",\"fen\":\"bad\",\"t\":0}",
                  "{\"type\":\"move\",\"move\":\"e5\",\"t\":1000}");
  cr_assert_str_eq(str(json_object_get(a, "error"), "code"), "time_backwards");
  cr_assert_eq(json_integer_value(json_object_get(a, "ply")), 1, "the move was not played");
  json_decref(a);
}

Test(referee, penalty_does_not_lift_a_fallen_flag) {
  json_t *a = RUN(ARB_RULES_FIDE, "{\"type\":\"start\",\"control\":\"1+0\",\"t\":0}",
                  "{\"type\":\"move\",\"move\":\"e4\",\"t\":70000}",
                  "{\"type\":\"claim_draw\",\"by\":\"black\",\"reason\":\"fifty\",\"t\":71000}",
                  "{\"type\":\"flag\",\"side\":\"white\",\"t\":72000}");
  cr_assert(json_is_true(json_object_get(a, "ok")));
  cr_assert_str_eq(str(a, "result"), "0-1");
  json_decref(a);
}

Test(referee, claims_keep_the_rules_of_9_1_and_9_5) {
  /* the present position is the third occurrence: a claim naming any move is correct */
  json_t *a = RUN(ARB_RULES_FIDE, "{\"type\":\"move\",\"move\":\"Nf3\"}",
                  "{\"type\":\"move\",\"move\":\"Nf6\"}", "{\"type\":\"move\",\"move\":\"Ng1\"}",
                  "{\"type\":\"move\",\"move\":\"Ng8\"}", "{\"type\":\"move\",\"move\":\"Nf3\"}",
                  "{\"type\":\"move\",\"move\":\"Nf6\"}", "{\"type\":\"move\",\"move\":\"Ng1\"}",
                  "{\"type\":\"move\",\"move\":\"Ng8\"}",
                  "{\"type\":\"claim_draw\",\"by\":\"white\",\"reason\":\"threefold\","
                  "\"move\":\"e4\"}");
  cr_assert(json_is_true(json_object_get(json_object_get(a, "claim"), "correct")));
  json_decref(a);
  /* a second claim cannot dodge the written move */
  a = RUN(ARB_RULES_FIDE, "{\"type\":\"move\",\"move\":\"Nf3\"}",
          "{\"type\":\"move\",\"move\":\"Nf6\"}",
          "{\"type\":\"claim_draw\",\"by\":\"white\",\"reason\":\"threefold\",\"move\":\"Ng1\"}",
          "{\"type\":\"claim_draw\",\"by\":\"white\",\"reason\":\"fifty\",\"move\":\"Nc3\"}");
  cr_assert_str_eq(str(json_object_get(a, "error"), "code"), "must_play");
  json_decref(a);
  /* a wrong claim meeting the opponent's open offer is an agreement (9.1.2.3) */
  a = RUN(ARB_RULES_FIDE, "{\"type\":\"move\",\"move\":\"e4\"}",
          "{\"type\":\"move\",\"move\":\"e5\"}", "{\"type\":\"offer_draw\",\"by\":\"white\"}",
          "{\"type\":\"move\",\"move\":\"Nf3\"}",
          "{\"type\":\"claim_draw\",\"by\":\"black\",\"reason\":\"fifty\"}");
  cr_assert_str_eq(str(a, "result"), "1/2-1/2");
  cr_assert_str_eq(str(a, "termination"), "agreement");
  json_decref(a);
}

/* A timed scripted game under every rule set: the same flag, each set's verdict and clock. */
Test(referee, timed_game_under_every_rule_set) {
  static const struct {
    arb_ruleset rules;
    const char *result; /* white flags at 60.001 s with K+R v K+N on the board */
  } sets[] = {
      {ARB_RULES_FIDE, "0-1"},     {ARB_RULES_FIDE_RAPID, "0-1"}, {ARB_RULES_FIDE_BLITZ, "0-1"},
      {ARB_RULES_USCF, "1/2-1/2"}, {ARB_RULES_ONLINE, "0-1"},     {ARB_RULES_CASUAL, "0-1"},
  };
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
    /* Black K+N can help-mate White's K+R (T03 mirrored): a loss, except US Chess 14E2 (a
     * knight alone draws unless it has a forced win) */
    json_t *a = RUN(sets[i].rules,
                    "{\"type\":\"start\",\"fen\":\"8/8/8/8/4n3/7k/8/6RK w - - 0 1\","
                    "\"control\":\"1m\",\"t\":0}",
                    "{\"type\":\"move\",\"move\":\"Rg2\",\"t\":1000}",
                    "{\"type\":\"move\",\"move\":\"Nf2+\",\"t\":2000}",
                    "{\"type\":\"flag\",\"side\":\"white\",\"t\":200000}",
                    "{\"type\":\"state\",\"t\":200000}");
    cr_expect_str_eq(str(a, "result"), sets[i].result, "%s", arb_rules_get(sets[i].rules)->name);
    cr_expect_str_eq(str(a, "termination"), "time_forfeit", "%s",
                     arb_rules_get(sets[i].rules)->name);
    cr_expect(json_is_null(json_object_get(clock_of(a), "running")), "the clock stopped");
    json_decref(a);
  }
}
