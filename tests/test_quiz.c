/* Arbiter — MIT licence, see LICENSE.
 *
 * test_quiz.c: the rules quiz (arbiter/quiz.h).  Items made by hand from positions whose answer
 * the Laws' text settles (the expected answers are written from FIDE 2023 and US Chess, not
 * taken from the library), the check catching a tampered item, every topic having templates,
 * and arb_quiz_make being deterministic and making items that check.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "arbiter/arbiter.h"

static arb_quiz_item item(const char *tmpl, const char *rules, const char *fen, const char *move) {
  arb_quiz_item it;
  memset(&it, 0, sizeof it);
  snprintf(it.id, sizeof it.id, "t-0001");
  snprintf(it.template_name, sizeof it.template_name, "%s", tmpl);
  it.topic = arb_quiz_template_topic(arb_quiz_template_find(tmpl));
  snprintf(it.rules, sizeof it.rules, "%s", rules);
  snprintf(it.fen, sizeof it.fen, "%s", fen);
  if (move) snprintf(it.move, sizeof it.move, "%s", move);
  it.clock.flag = -1;
  return it;
}

static void derive(arb_quiz_item *it) {
  char why[200];
  cr_assert_eq(arb_quiz_derive(it, why, sizeof why), ARB_OK, "%s: %s", it->template_name, why);
  cr_assert(arb_quiz_check_item(it, why, sizeof why), "%s", why);
}

static void flag(arb_quiz_item *it, int flagged) {
  it->clock.present = 1;
  it->clock.flag = (int8_t)flagged;
  it->clock.ms[!flagged] = 60000;
}

static void event(arb_quiz_item *it, const char *type, int by, const char *sq_or_move) {
  arb_quiz_event *e = &it->events[it->nevents++];
  memset(e, 0, sizeof *e);
  snprintf(e->type, sizeof e->type, "%s", type);
  e->by = (int8_t)by;
  if (!sq_or_move) return;
  if (!strcmp(type, "touch")) {
    memcpy(e->squares[0], sq_or_move, 3);
    e->nsquares = 1;
  } else if (!strcmp(type, "claim")) {
    snprintf(e->matter, sizeof e->matter, "%s", sq_or_move);
  } else {
    snprintf(e->move, sizeof e->move, "%s", sq_or_move);
  }
}

Test(quiz, every_topic_has_templates) {
  int per[ARB_QUIZ_TOPIC_COUNT] = {0};
  for (int i = 0; i < arb_quiz_template_count(); i++)
    per[arb_quiz_template_topic(i)]++;
  for (int t = 0; t < ARB_QUIZ_TOPIC_COUNT; t++) {
    cr_assert(per[t] >= 1, "topic %s", arb_quiz_topic_name((arb_quiz_topic)t));
    arb_quiz_topic back;
    cr_assert_eq(arb_quiz_topic_parse(arb_quiz_topic_name((arb_quiz_topic)t), &back), ARB_OK);
    cr_assert_eq(back, (arb_quiz_topic)t);
  }
  arb_quiz_topic x;
  cr_assert_eq(arb_quiz_topic_parse("chess-boxing", &x), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_quiz_template_find("no-such"), -1);
}

/* FIDE 3.8.2.2: castling is illegal if a square the king crosses is attacked (f1 by the rook
 * on f8); the attacked rook on h1 does not matter (the rook on h8 attacks it). */
Test(quiz, castling_through_an_attacked_square) {
  arb_quiz_item it = item("castling-now", "fide", "4kr2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1");
  derive(&it);
  cr_assert_str_eq(it.answer, "No: the king would cross or land on an attacked square");
  it = item("castling-now", "fide", "4k2r/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1");
  derive(&it);
  cr_assert_str_eq(it.answer, "Yes");
  cr_assert(strstr(it.explanation, "rook itself is attacked does not matter"), "%s",
            it.explanation);
}

/* FIDE 6.9: a flag loses unless the opponent cannot mate by any series of legal moves.  King
 * and knight against king and pawn can mate (the pawn blocks its own king), so White wins on
 * time; against a bare king it cannot.  lichess (online) also declares a draw only for the
 * bare knight against king and queens, so it gives the win with the pawn on the board too. */
Test(quiz, flag_verdicts_under_three_rule_sets) {
  arb_quiz_item it = item("flag-verdict", "fide", "7k/7p/8/8/8/8/8/N3K3 w - - 0 1", NULL);
  flag(&it, ARB_BLACK);
  derive(&it);
  cr_assert_str_eq(it.answer, "White wins on time");
  it = item("flag-verdict", "fide", "7k/8/8/8/8/8/8/N3K3 w - - 0 1", NULL);
  flag(&it, ARB_BLACK);
  derive(&it);
  cr_assert_str_eq(it.answer, "Draw: White cannot checkmate by any series of legal moves");
  it = item("online-flag", "online", "7k/7p/8/8/8/8/8/N3K3 w - - 0 1", NULL);
  flag(&it, ARB_BLACK);
  derive(&it);
  cr_assert_str_eq(it.answer, "White wins on time");
}

/* FIDE 8.4: under five minutes with less than 30 s per move, no duty to record; 30 s or more
 * keeps it; A.2: rapid needs no record. */
Test(quiz, keeping_score) {
  const char *fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  arb_quiz_item it = item("record-duty", "fide", fen, NULL);
  it.clock.present = 1;
  it.clock.ms[ARB_WHITE] = 4 * 60000 + 59000;
  derive(&it);
  cr_assert_str_eq(it.answer,
                   "No: under five minutes without 30 seconds per move, writing may stop");
  it.clock.increment_ms = 30000;
  derive(&it);
  cr_assert_str_eq(it.answer, "Yes: every move must be written down");
  snprintf(it.rules, sizeof it.rules, "fide-rapid");
  derive(&it);
  cr_assert_str_eq(it.answer, "No: in rapid and blitz games players need not record the moves");
  cr_assert_eq(arb_record_duty_of(ARB_RULES_FIDE, 300000, 0), ARB_RECORD_REQUIRED,
               "five minutes exactly");
}

/* FIDE 7.5.1 and 7.5.5: the first completed illegal move: the position before it, two minutes
 * for the opponent; the second loses (the opponent has a queen: it can mate). */
Test(quiz, completed_illegal_moves) {
  const char *fen = "4k3/4q3/8/8/8/8/8/4K3 w - - 0 1";
  arb_quiz_item it = item("illegal-penalty", "fide", fen, NULL);
  event(&it, "move", ARB_WHITE, "e1e2");
  event(&it, "press", ARB_WHITE, NULL);
  derive(&it);
  cr_assert_str_eq(it.answer,
                   "The position before it is reinstated and Black gets 2 extra minutes");
  it.nevents = 0;
  event(&it, "earlier_illegal", ARB_WHITE, NULL);
  event(&it, "move", ARB_WHITE, "e1e2");
  event(&it, "press", ARB_WHITE, NULL);
  derive(&it);
  cr_assert_str_eq(it.answer, "White loses the game");
}

/* FIDE 4.2.1: "j'adoube" first frees the player; 4.3.1: a touched own piece that can move must
 * move; 4.5: a touched piece that cannot move binds nothing. */
Test(quiz, touch_move) {
  const char *fen = "4k3/8/8/8/8/8/4P3/4K1N1 w - - 0 1";
  arb_quiz_item it = item("touch-obligation", "fide", fen, NULL);
  event(&it, "touch", ARB_WHITE, "g1");
  derive(&it);
  cr_assert_str_eq(it.answer, "Move the knight on g1");
  it.nevents = 0;
  event(&it, "adjust_announce", ARB_WHITE, NULL);
  event(&it, "touch", ARB_WHITE, "g1");
  snprintf(it.events[1].intent, sizeof it.events[1].intent, "adjust");
  derive(&it);
  cr_assert_str_eq(it.answer, "Any legal move: nothing binds the player");
  it = item("touch-obligation", "fide", "4k3/8/8/8/8/8/2PPP3/2BQKB2 w - - 0 1", NULL);
  event(&it, "touch", ARB_WHITE, "d1");
  derive(&it);
  cr_assert_str_eq(it.answer, "Any legal move: no touched piece can be moved or taken");
}

/* FIDE 9.1.2.2: an offer lapses when the opponent rejects it orally. */
Test(quiz, a_draw_offer_rejected_then_accepted) {
  arb_quiz_item it = item("draw-offer", "fide", "4k3/8/8/8/8/8/8/R3K3 w - - 0 40", NULL);
  event(&it, "move", ARB_WHITE, "a1a2");
  event(&it, "offer_draw", ARB_WHITE, NULL);
  event(&it, "press", ARB_WHITE, NULL);
  event(&it, "accept_draw", ARB_BLACK, NULL);
  derive(&it);
  cr_assert_str_eq(it.answer, "Yes: the offer still stood");
  it.nevents = 3;
  event(&it, "decline_draw", ARB_BLACK, NULL);
  event(&it, "accept_draw", ARB_BLACK, NULL);
  derive(&it);
  cr_assert_str_eq(it.answer, "No: the offer had lapsed");
}

Test(quiz, a_tampered_item_is_caught) {
  arb_quiz_item it = item("castling-now", "fide", "4kr2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1");
  derive(&it);
  char why[300];
  arb_quiz_item bad = it;
  snprintf(bad.answer, sizeof bad.answer, "Yes");
  cr_assert_not(arb_quiz_check_item(&bad, why, sizeof why));
  cr_assert(strstr(why, "answer 'Yes'"), "%s", why);
  bad = it;
  bad.difficulty = 9;
  cr_assert_not(arb_quiz_check_item(&bad, why, sizeof why));
  bad = it;
  bad.topic = ARB_QUIZ_FLAG;
  cr_assert_not(arb_quiz_check_item(&bad, why, sizeof why));
  cr_assert(strstr(why, "topic"), "%s", why);
  bad = it;
  snprintf(bad.fen, sizeof bad.fen, "not a fen");
  cr_assert_not(arb_quiz_check_item(&bad, why, sizeof why));
}

Test(quiz, make_is_deterministic_and_checks) {
  static arb_quiz_item a[40], b[40];
  arb_quiz_options o = {0, 40, 3, NULL, 0};
  size_t na, nb;
  cr_assert_eq(arb_quiz_make(&o, a, 40, &na), ARB_OK);
  cr_assert_eq(arb_quiz_make(&o, b, 40, &nb), ARB_OK);
  cr_assert(na >= 5, "seeded positions alone make some items (%zu)", na);
  cr_assert_eq(na, nb);
  for (size_t i = 0; i < na; i++) {
    char why[300];
    cr_assert_str_eq(a[i].question, b[i].question);
    cr_assert(arb_quiz_check_item(&a[i], why, sizeof why), "%s: %s", a[i].id, why);
  }
  o.topics = 1u << ARB_QUIZ_FLAG;
  cr_assert_eq(arb_quiz_make(&o, a, 40, &na), ARB_OK);
  for (size_t i = 0; i < na; i++)
    cr_assert_eq(a[i].topic, ARB_QUIZ_FLAG);
}
