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
