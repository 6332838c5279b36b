/* Arbiter — MIT licence, see LICENSE.
 *
 * test_referee_api.c: the referee layer through its C API (arbiter/referee.h) — every event
 * kind under every rule set, refusals that change nothing, flags at the exact millisecond,
 * deadlines and ticks, wrong-claim penalties, moves after the flag, pause and resume, the
 * arbiter's adjustments, the record and the PGN; and the same games through the JSON codec
 * of `arbiter referee`, which must print the very decisions the C API gives.
 *
 * Expected figures come from the Laws (articles named at each test) and hand arithmetic on
 * the clock, never from the code under test.
 */
#include <jansson.h>
#include <stdlib.h>

#include "referee.h"
#include "test_util.h"

/* ---- helpers: one call per event ---- */

static arb_referee *fresh(arb_ruleset rules) {
  arb_referee *r = arb_referee_new(rules);
  cr_assert_not_null(r);
  return r;
}

static arb_ref_decision start(arb_referee *r, arb_ruleset rules, const char *fen,
                              const char *control, int64_t t) {
  static const arb_ref_tag names[2] = {{"White", "Ann"}, {"Black", "Bo"}};
  arb_ref_setup su = ARB_REF_SETUP_INIT;
  su.rules = rules;
  arb_position pos;
  arb_time_control tc;
  if (fen) {
    pos = test_fen(fen);
    su.start = &pos;
  }
  if (control) {
    cr_assert_eq(arb_tc_parse(control, strlen(control), ARB_TC_HUMAN, &tc, NULL), ARB_OK);
    su.control = &tc;
  }
  su.tags = names;
  su.tag_count = 2;
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_START, t);
  ev.setup = &su;
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  return d;
}

static arb_ref_decision event(arb_referee *r, arb_ref_kind kind, int by, int64_t t) {
  arb_ref_event ev = ARB_REF_EVENT_INIT(kind, t);
  ev.by = (int8_t)by;
  ev.side = (int8_t)by;
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  return d;
}

static arb_ref_decision move(arb_referee *r, const char *text, int64_t t) {
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_MOVE, t);
  ev.text = text;
  ev.text_len = strlen(text);
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  return d;
}

static arb_ref_decision claim(arb_referee *r, int by, arb_claim_reason reason, const char *intended,
                              int64_t t) {
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_CLAIM_DRAW, t);
  ev.by = (int8_t)by;
  ev.reason = reason;
  if (intended) {
    ev.text = intended;
    ev.text_len = strlen(intended);
  }
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  return d;
}

static arb_ref_decision adjust(arb_referee *r, int side, int64_t ms, int set, int64_t t) {
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_ADJUST_TIME, t);
  ev.side = (int8_t)side;
  ev.ms = ms;
  ev.set = (uint8_t)set;
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  return d;
}

static arb_ref_decision reinstate(arb_referee *r, int ply, int64_t t) {
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_REINSTATE, t);
  ev.ply = ply;
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  return d;
}

static void moves(arb_referee *r, const char *const *list, size_t n, int64_t t0, int64_t step) {
  for (size_t i = 0; i < n; i++) {
    arb_ref_decision d = move(r, list[i], t0 + (int64_t)i * step);
    cr_assert_eq(d.status, ARB_OK, "move %zu %s: %s", i, list[i], d.message);
  }
}
#define MOVES(r, t0, step, ...)                                                                    \
  moves(r, (const char *const[]){__VA_ARGS__},                                                     \
        sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *), t0, step)

static const char *fen_of(const arb_referee *r, char *buf) {
  arb_fen_write(arb_game_position(arb_referee_game(r)), buf, ARB_FEN_MAX, 0);
  return buf;
}

#define FOOLS "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

/* ---- untimed games ---- */

Test(referee_api, a_game_to_mate_and_its_record) {
  arb_referee *r = fresh(ARB_RULES_FIDE);
  arb_ref_state s;
  arb_referee_state_of(r, &s);
  cr_assert_eq(s.has_game, 0, "no game before the first event");
  cr_assert_null(arb_referee_game(r));
  /* Fool's mate without a start event: the initial position under the referee's rules */
  MOVES(r, ARB_REF_NO_TIME, 0, "f3", "e5", "g4");
  arb_ref_decision d = move(r, "Qh4#", ARB_REF_NO_TIME);
  cr_assert_eq(d.status, ARB_OK);
  cr_assert_str_eq(d.san, "Qh4#");
  cr_assert_str_eq(d.uci, "d8h4");
  cr_assert(d.ended);
  cr_assert(d.state.over);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_BLACK_WINS);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_CHECKMATE);
  cr_assert_eq(d.state.ply, 4);
  cr_assert_eq(d.seq, 3);
  cr_assert_eq(d.state.timed, 0);
  cr_assert_eq(d.state.remaining_ms[0], ARB_CLOCK_NEVER);
  cr_assert_null(arb_referee_clock(r));
  /* everything after the end is refused */
  d = move(r, "a3", ARB_REF_NO_TIME);
  cr_assert_eq(d.refusal, ARB_REF_GAME_OVER);
  cr_assert_eq(d.status, ARB_ERR_GAME_OVER);
  cr_assert_str_eq(arb_ref_refusal_name(d.refusal), "game_over");
  cr_assert_eq(event(r, ARB_REF_RESIGN, ARB_WHITE, ARB_REF_NO_TIME).refusal, ARB_REF_GAME_OVER);
  /* the record: four moves and two refused events, in order */
  cr_assert_eq(arb_referee_record_count(r), 6);
  arb_ref_entry e;
  cr_assert_eq(arb_referee_record_at(r, 3, &e), ARB_OK);
  cr_assert_eq(e.kind, ARB_REF_MOVE);
  cr_assert_eq(e.ply, 4);
  cr_assert(e.ended);
  cr_assert_eq(e.clock_ms, -1, "untimed: no clock reading");
  cr_assert_eq(arb_referee_record_at(r, 5, &e), ARB_OK);
  cr_assert_eq(e.kind, ARB_REF_RESIGN);
  cr_assert_eq(e.refusal, ARB_REF_GAME_OVER);
  cr_assert_eq(arb_referee_record_at(r, 6, &e), ARB_ERR_ARGUMENT);
  arb_referee_free(r);
  arb_referee_free(NULL);
}

Test(referee_api, refusals_change_nothing) {
  arb_referee *r = fresh(ARB_RULES_FIDE);
  arb_ref_decision d = start(r, ARB_RULES_FIDE, "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "5+0", 0);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  char before[ARB_FEN_MAX], after[ARB_FEN_MAX];
  fen_of(r, before);
  static const struct {
    const char *text;
    arb_ref_refusal why;
  } bad[] = {
      {"Zz9", ARB_REF_BAD_MOVE},       {"Nc4", ARB_REF_ILLEGAL_MOVE}, /* no knight reaches c4 */
      {"Nd2", ARB_REF_AMBIGUOUS_MOVE},                                /* b1 and f3 both do */
      {"e4", ARB_REF_ILLEGAL_MOVE},    {"", ARB_REF_BAD_MOVE},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    d = move(r, bad[i].text, 1000);
    cr_assert_eq(d.refusal, bad[i].why, "%s: %s", bad[i].text, d.message);
    cr_assert_neq(d.status, ARB_OK);
    cr_assert_neq(d.message[0], 0, "a message for a person");
    cr_assert_str_eq(fen_of(r, after), before);
    cr_assert_eq(d.state.ply, 0);
    cr_assert_eq(d.state.running, ARB_WHITE);
  }
  /* a move given as arb_move must be legal */
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_MOVE, 1000);
  ev.move = (arb_move)0x0fff;
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.refusal, ARB_REF_ILLEGAL_MOVE);
  ev.move = test_uci(arb_game_position(arb_referee_game(r)), "b1d2");
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.status, ARB_OK);
  cr_assert_str_eq(d.san, "Nbd2");
  /* a move by the wrong player, offers without a player, time that goes back */
  ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_MOVE, 2000);
  ev.text = "Ke2";
  ev.text_len = 3;
  ev.by = ARB_WHITE;
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.refusal, ARB_REF_NOT_YOUR_TURN);
  cr_assert_eq(event(r, ARB_REF_OFFER_DRAW, -1, 2000).refusal, ARB_REF_BAD_EVENT);
  cr_assert_eq(event(r, ARB_REF_ACCEPT_DRAW, ARB_BLACK, 2000).refusal, ARB_REF_NO_OFFER);
  d = move(r, "Ke7", 1500);
  cr_assert_eq(d.refusal, ARB_REF_TIME_BACKWARDS);
  cr_assert_eq(d.state.now, 2000, "the referee's time stays at the latest event");
  d = move(r, "Ke7", ARB_REF_NO_TIME);
  cr_assert_eq(d.refusal, ARB_REF_BAD_EVENT, "a timed game needs t");
  d = event(r, ARB_REF_STATE, -1, ARB_REF_NO_TIME);
  cr_assert_eq(d.status, ARB_OK, "a state event needs no time");
  cr_assert_eq(d.state.ply, 1);
  /* unknown kinds and ticks are not events */
  ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_TICK, 3000);
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.refusal, ARB_REF_BAD_EVENT);
  ev.kind = (arb_ref_kind)99;
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.refusal, ARB_REF_BAD_EVENT);
  /* a start that fails leaves the game and its time as they were */
  uint32_t n = arb_referee_record_count(r);
  arb_ref_setup su = ARB_REF_SETUP_INIT;
  arb_ref_tag bad_tag = {"not a symbol", "x"};
  su.tags = &bad_tag;
  su.tag_count = 1;
  ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_START, 0);
  ev.setup = &su;
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.refusal, ARB_REF_BAD_EVENT);
  cr_assert_eq(d.state.ply, 1);
  cr_assert_eq(d.state.now, 2000);
  cr_assert_eq(arb_referee_record_count(r), n + 1, "the failed start is in this game's record");
  su.tag_count = 0;
  su.rules = ARB_RULES_COUNT;
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.refusal, ARB_REF_BAD_EVENT);
  arb_referee_free(r);
}

/* ---- offers, claims, resignation under every rule set ---- */

Test(referee_api, draw_offers_and_agreement) {
  arb_referee *r = fresh(ARB_RULES_FIDE);
  /* FIDE 5.2.3: no agreement before each player has moved */
  cr_assert_eq(event(r, ARB_REF_OFFER_DRAW, ARB_WHITE, ARB_REF_NO_TIME).status, ARB_OK);
  arb_ref_decision d = event(r, ARB_REF_ACCEPT_DRAW, ARB_BLACK, ARB_REF_NO_TIME);
  cr_assert_eq(d.refusal, ARB_REF_NOT_ALLOWED);
  MOVES(r, ARB_REF_NO_TIME, 0, "e4", "e5");
  d = event(r, ARB_REF_OFFER_DRAW, ARB_WHITE, ARB_REF_NO_TIME);
  cr_assert_eq(d.state.draw_offer, ARB_WHITE);
  d = event(r, ARB_REF_DECLINE_DRAW, ARB_BLACK, ARB_REF_NO_TIME);
  cr_assert_eq(d.status, ARB_OK);
  cr_assert_eq(d.state.draw_offer, -1);
  event(r, ARB_REF_OFFER_DRAW, ARB_WHITE, ARB_REF_NO_TIME);
  d = event(r, ARB_REF_ACCEPT_DRAW, ARB_BLACK, ARB_REF_NO_TIME);
  cr_assert_eq(d.status, ARB_OK);
  cr_assert(d.ended);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_AGREEMENT);
  cr_assert_eq(d.state.outcome.by, ARB_BLACK);
  arb_referee_free(r);
  /* the event rule (9.1.1): no agreed draw before move 30 */
  r = fresh(ARB_RULES_FIDE);
  arb_ref_setup su = ARB_REF_SETUP_INIT;
  su.no_draw_before = 30;
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_START, ARB_REF_NO_TIME);
  ev.setup = &su;
  arb_referee_event(r, &ev, &d);
  MOVES(r, ARB_REF_NO_TIME, 0, "e4", "e5");
  event(r, ARB_REF_OFFER_DRAW, ARB_WHITE, ARB_REF_NO_TIME);
  cr_assert_eq(event(r, ARB_REF_ACCEPT_DRAW, ARB_BLACK, ARB_REF_NO_TIME).refusal,
               ARB_REF_NOT_ALLOWED);
  arb_referee_free(r);
}

Test(referee_api, claims_under_every_rule_set) {
  /* Ng1-f3-g1 by White and Nf6 by Black, then Black claims threefold naming Ng8: the start
   * position would stand only for the second time — a wrong claim (P09). */
  static const struct {
    arb_ruleset rules;
    arb_ref_refusal refusal; /* of the claim */
    int64_t white_ms;        /* White's clock after it: 10 min - 2 s used + the penalty */
  } sets[] = {
      {ARB_RULES_FIDE, ARB_REF_ACCEPTED, 598000 + 120000},      /* 9.5.3: two minutes */
      {ARB_RULES_FIDE_RAPID, ARB_REF_ACCEPTED, 598000 + 60000}, /* A.3: one minute */
      {ARB_RULES_FIDE_BLITZ, ARB_REF_ACCEPTED, 598000 + 60000},
      {ARB_RULES_USCF, ARB_REF_ACCEPTED, 598000 + 120000},
      {ARB_RULES_ONLINE, ARB_REF_NOT_ALLOWED, -1},  /* the server declares draws; no claims */
      {ARB_RULES_CASUAL, ARB_REF_ACCEPTED, 598000}, /* no penalties */
  };
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
    const char *name = arb_rules_get(sets[i].rules)->name;
    arb_referee *r = fresh(ARB_RULES_FIDE);
    cr_assert_eq(start(r, sets[i].rules, NULL, "10m", 0).status, ARB_OK);
    MOVES(r, 1000, 1000, "Nf3", "Nf6", "Ng1");
    arb_ref_decision d = claim(r, ARB_BLACK, ARB_CLAIM_THREEFOLD, "Ng8", 4000);
    cr_assert_eq(d.refusal, sets[i].refusal, "%s: %s", name, d.message);
    if (sets[i].refusal != ARB_REF_ACCEPTED) {
      arb_referee_free(r);
      continue;
    }
    cr_assert(d.claimed);
    cr_assert_eq(d.verdict.correct, 0, "%s", name);
    cr_assert_eq(d.verdict.must_play, 1, "%s: the written move must be played (9.5.2)", name);
    cr_assert_str_eq(d.must_play_uci, "f6g8");
    cr_assert_eq(d.state.must_play, test_uci(arb_game_position(arb_referee_game(r)), "f6g8"));
    cr_assert_eq(d.state.remaining_ms[ARB_WHITE], sets[i].white_ms, "%s", name);
    cr_assert_eq(d.time_added_to, sets[i].white_ms > 598000 ? ARB_WHITE : -1, "%s", name);
    cr_assert_eq(d.state.outcome.result, ARB_RESULT_NONE);
    /* another move than the written one is refused; the written one is played */
    cr_assert_eq(move(r, "Nc6", 5000).refusal, ARB_REF_MUST_PLAY, "%s", name);
    cr_assert_eq(move(r, "Ng8", 5000).status, ARB_OK, "%s", name);
    arb_referee_free(r);
  }
}

Test(referee_api, correct_claims_and_available_claims) {
  arb_referee *r = fresh(ARB_RULES_FIDE);
  MOVES(r, ARB_REF_NO_TIME, 0, "Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1");
  arb_ref_decision d = event(r, ARB_REF_STATE, -1, ARB_REF_NO_TIME);
  /* Black to move; Ng8 would make the start position stand for the third time (9.2.1) */
  cr_assert_eq(d.state.claims, ARB_REF_CAN_CLAIM(ARB_CLAIM_THREEFOLD));
  cr_assert_eq(d.state.facts.repetitions, 2);
  d = claim(r, ARB_WHITE, ARB_CLAIM_THREEFOLD, NULL, ARB_REF_NO_TIME);
  cr_assert_eq(d.refusal, ARB_REF_NOT_YOUR_TURN, "only the player on move claims");
  d = claim(r, ARB_BLACK, ARB_CLAIM_THREEFOLD, "Ng8", ARB_REF_NO_TIME);
  cr_assert_eq(d.status, ARB_OK);
  cr_assert(d.verdict.correct);
  cr_assert(d.ended);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_THREEFOLD_REPETITION);
  cr_assert_eq(d.state.ply, 7, "the intended move is not played");
  cr_assert_eq(d.state.claims, 0, "nothing to claim after the end");
  arb_referee_free(r);
  /* a reason that is not a draw rule */
  r = fresh(ARB_RULES_FIDE);
  cr_assert_eq(claim(r, ARB_WHITE, (arb_claim_reason)7, NULL, ARB_REF_NO_TIME).refusal,
               ARB_REF_BAD_EVENT);
  cr_assert_eq(claim(r, ARB_WHITE, ARB_CLAIM_FIFTY, "e5", ARB_REF_NO_TIME).refusal,
               ARB_REF_ILLEGAL_MOVE, "an intended move must be legal");
  arb_referee_free(r);
}

Test(referee_api, automatic_endings_and_resignation_per_rule_set) {
  static const struct {
    arb_ruleset rules;
    arb_termination after_8;     /* the knight shuffle twice: the start position a third time */
    arb_termination after_16;    /* ... and a fifth time */
    arb_result resign_lone_king; /* K+Q v K: White resigns */
  } sets[] = {
      {ARB_RULES_FIDE, ARB_TERM_NONE, ARB_TERM_FIVEFOLD_REPETITION,
       ARB_RESULT_DRAW}, /* 9.6.1, 5.1.2 */
      {ARB_RULES_FIDE_RAPID, ARB_TERM_NONE, ARB_TERM_FIVEFOLD_REPETITION, ARB_RESULT_DRAW},
      {ARB_RULES_FIDE_BLITZ, ARB_TERM_NONE, ARB_TERM_FIVEFOLD_REPETITION, ARB_RESULT_DRAW},
      {ARB_RULES_USCF, ARB_TERM_NONE, ARB_TERM_NONE, ARB_RESULT_BLACK_WINS}, /* 14K: the TD */
      {ARB_RULES_ONLINE, ARB_TERM_THREEFOLD_REPETITION, ARB_TERM_THREEFOLD_REPETITION,
       ARB_RESULT_BLACK_WINS}, /* lila declares threefold; resigning always loses */
      {ARB_RULES_CASUAL, ARB_TERM_NONE, ARB_TERM_FIVEFOLD_REPETITION, ARB_RESULT_DRAW},
  };
  static const char *const cycle[4] = {"Nf3", "Nf6", "Ng1", "Ng8"};
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
    const char *name = arb_rules_get(sets[i].rules)->name;
    arb_referee *r = fresh(sets[i].rules);
    arb_ref_decision d;
    for (int k = 0; k < 16; k++) {
      d = move(r, cycle[k % 4], ARB_REF_NO_TIME);
      if (k == 7) cr_assert_eq(d.state.outcome.termination, sets[i].after_8, "%s", name);
    }
    cr_assert_eq(d.state.outcome.termination, sets[i].after_16, "%s", name);
    arb_referee_free(r);
    r = fresh(ARB_RULES_FIDE);
    start(r, sets[i].rules, "8/8/8/4k3/8/8/8/3QK3 w - - 0 1", NULL, ARB_REF_NO_TIME);
    d = event(r, ARB_REF_RESIGN, ARB_WHITE, ARB_REF_NO_TIME);
    cr_assert_eq(d.state.outcome.result, sets[i].resign_lone_king, "%s", name);
    cr_assert_eq(d.state.outcome.termination, ARB_TERM_RESIGNATION, "%s", name);
    arb_referee_free(r);
  }
}

/* ---- the clock ---- */

Test(referee_api, flag_at_the_exact_millisecond) {
  /* 1 minute, White's clock starts at t = 1000: its flag falls after t = 61000 (FIDE 6.1) */
  arb_referee *r = fresh(ARB_RULES_FIDE);
  arb_ref_decision d = start(r, ARB_RULES_FIDE, NULL, "1m", 1000);
  cr_assert_eq(d.state.flag_at, 61000);
  cr_assert_eq(d.state.deadline, ARB_CLOCK_NEVER, "FIDE: a flag counts when claimed");
  d = event(r, ARB_REF_FLAG, ARB_WHITE, 61000);
  cr_assert_eq(d.refusal, ARB_REF_FLAG_NOT_FALLEN);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 0);
  d = event(r, ARB_REF_FLAG, ARB_BLACK, 61001);
  cr_assert_eq(d.refusal, ARB_REF_FLAG_NOT_FALLEN, "Black's clock never ran");
  d = event(r, ARB_REF_FLAG, ARB_WHITE, 61001);
  cr_assert_eq(d.status, ARB_OK);
  cr_assert(d.ended);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_BLACK_WINS);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_TIME_FORFEIT);
  cr_assert_eq(d.state.flag_side, ARB_WHITE);
  cr_assert_eq(d.state.flag_reason, ARB_FLAG_LOSS);
  cr_assert_eq(d.state.running, -1, "the clock stopped");
  arb_referee_free(r);
  /* a move completed at the last millisecond is in time, one later is late (and stands) */
  r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, "1m", 1000);
  d = move(r, "e4", 61000);
  cr_assert_eq(d.status, ARB_OK);
  cr_assert_eq(d.late, 0);
  cr_assert_eq(event(r, ARB_REF_FLAG, ARB_WHITE, 61000).refusal, ARB_REF_FLAG_NOT_FALLEN);
  arb_referee_free(r);
  r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, "1m", 1000);
  d = move(r, "e4", 61001);
  cr_assert_eq(d.status, ARB_OK, "an unclaimed flag does not stop play (6.8)");
  cr_assert_eq(d.late, 1);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 0);
  d = move(r, "e5", 62000);
  d = event(r, ARB_REF_FLAG, ARB_WHITE, 62000);
  cr_assert_eq(d.status, ARB_OK, "the flag that fell during 1.e4 is still down");
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_BLACK_WINS);
  arb_referee_free(r);
}

Test(referee_api, flag_when_the_opponent_cannot_mate) {
  /* FIDE 6.9: K+Q v K+N, the queen's side flags — the lone knight can never mate: a draw */
  arb_referee *r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, "8/8/8/4k3/8/8/q7/1N2K3 b - - 0 1", "1m", 0);
  arb_ref_decision d = event(r, ARB_REF_FLAG, ARB_BLACK, 60001);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_DRAW);
  cr_assert_eq(d.state.flag_reason, ARB_FLAG_CANNOT_MATE);
  arb_referee_free(r);
}

Test(referee_api, online_deadline_and_tick) {
  /* lichess: the first move of each side is untimed; White's clock runs from Black's first
   * move (t = 200) and its flag is down from 200 + 60000 + 1 */
  arb_referee *r = fresh(ARB_RULES_ONLINE);
  arb_ref_decision d = start(r, ARB_RULES_ONLINE, NULL, "1+0", 0);
  cr_assert_eq(arb_referee_next_deadline(r), ARB_CLOCK_NEVER, "no clock runs yet");
  MOVES(r, 100, 100, "e4", "e5");
  cr_assert_eq(arb_referee_next_deadline(r), 60201);
  d = event(r, ARB_REF_STATE, -1, 30200);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 30000);
  cr_assert_eq(d.state.deadline, 60201);
  cr_assert_eq(arb_referee_tick(r, 60200, &d), ARB_OK);
  cr_assert_eq(d.ended, 0);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 0);
  uint32_t n = arb_referee_record_count(r);
  cr_assert_eq(arb_referee_tick(r, 60201, &d), ARB_OK);
  cr_assert_eq(d.ended, 1);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_BLACK_WINS);
  cr_assert_eq(d.state.flag_side, ARB_WHITE);
  cr_assert_eq(d.state.deadline, ARB_CLOCK_NEVER);
  cr_assert_eq(arb_referee_record_count(r), n + 1, "the fall is recorded");
  arb_ref_entry e;
  arb_referee_record_at(r, n, &e);
  cr_assert_eq(e.kind, ARB_REF_TICK);
  cr_assert_eq(e.side, ARB_WHITE);
  cr_assert_eq(e.t, 60200, "when the flag fell");
  cr_assert_eq(arb_referee_tick(r, 60100, &d), ARB_ERR_TIME_BACKWARDS);
  arb_referee_free(r);
  /* without a tick, the next event finds the flag down: the move is refused, the game lost */
  r = fresh(ARB_RULES_ONLINE);
  start(r, ARB_RULES_ONLINE, NULL, "1+0", 0);
  MOVES(r, 100, 100, "e4", "e5");
  d = move(r, "Nf3", 70000);
  cr_assert_eq(d.refusal, ARB_REF_GAME_OVER);
  cr_assert(d.ended, "the game ended on time before the move");
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_TIME_FORFEIT);
  arb_referee_free(r);
  /* a draw offer by the player with time saves the flag online (P21) */
  r = fresh(ARB_RULES_ONLINE);
  start(r, ARB_RULES_ONLINE, NULL, "1+0", 0);
  MOVES(r, 100, 100, "e4", "e5");
  event(r, ARB_REF_OFFER_DRAW, ARB_BLACK, 300);
  arb_referee_tick(r, 61000, &d);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_DRAW);
  cr_assert_eq(d.state.flag_reason, ARB_FLAG_DRAW_OFFER);
  arb_referee_free(r);
}

Test(referee_api, pause_resume_and_adjustments) {
  arb_referee *r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, "5+3", 0);
  /* FIDE's model: 303 s each at the start (increments in advance, R25) */
  move(r, "e4", 10000); /* White: 303 - 10 + 3 = 296 s */
  arb_ref_decision d = event(r, ARB_REF_PAUSE, -1, 20000);
  cr_assert_eq(d.status, ARB_OK);
  cr_assert(d.state.paused);
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 293000);
  cr_assert_eq(d.state.deadline, ARB_CLOCK_NEVER);
  cr_assert_eq(d.state.flag_at, ARB_CLOCK_NEVER, "no flag falls while the clocks stand");
  cr_assert_eq(event(r, ARB_REF_PAUSE, -1, 21000).refusal, ARB_REF_CLOCK_STATE);
  cr_assert_eq(move(r, "e5", 30000).refusal, ARB_REF_CLOCK_STATE, "no move while paused");
  d = event(r, ARB_REF_STATE, -1, 500000);
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 293000, "the pause costs nothing");
  /* the arbiter's corrections (6.10.2) */
  d = adjust(r, ARB_BLACK, 30000, 0, 500000);
  cr_assert_eq(d.status, ARB_OK);
  cr_assert_eq(d.time_added_to, ARB_BLACK);
  cr_assert_eq(d.time_added_ms, 30000);
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 323000);
  d = adjust(r, ARB_WHITE, 100000, 1, 500000);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 100000);
  cr_assert_eq(d.time_added_ms, 100000 - 296000);
  cr_assert_eq(adjust(r, -1, 1, 0, 500000).refusal, ARB_REF_BAD_EVENT);
  cr_assert_eq(adjust(r, ARB_WHITE, -1, 1, 500000).refusal, ARB_REF_BAD_EVENT);
  d = event(r, ARB_REF_RESUME, -1, 600000);
  cr_assert_eq(d.status, ARB_OK);
  cr_assert_eq(d.state.paused, 0);
  cr_assert_eq(d.state.flag_at, 600000 + 323000);
  cr_assert_eq(event(r, ARB_REF_RESUME, -1, 600000).refusal, ARB_REF_CLOCK_STATE);
  d = move(r, "e5", 610000); /* Black: 323 - 10 + 3 */
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 316000);
  arb_referee_free(r);
  /* untimed games have no clock to stop */
  r = fresh(ARB_RULES_FIDE);
  cr_assert_eq(event(r, ARB_REF_PAUSE, -1, ARB_REF_NO_TIME).refusal, ARB_REF_NOT_ALLOWED);
  cr_assert_eq(adjust(r, ARB_WHITE, 1, 0, ARB_REF_NO_TIME).refusal, ARB_REF_NOT_ALLOWED);
  cr_assert_eq(event(r, ARB_REF_FLAG, ARB_WHITE, ARB_REF_NO_TIME).refusal, ARB_REF_NOT_ALLOWED);
  arb_referee_free(r);
  /* online: an adjustment that empties the running clock lets the flag fall at once */
  r = fresh(ARB_RULES_ONLINE);
  start(r, ARB_RULES_ONLINE, NULL, "3+0", 0);
  MOVES(r, 100, 100, "e4", "e5");
  d = adjust(r, ARB_WHITE, 0, 1, 1000);
  cr_assert_eq(d.state.deadline, 1001);
  arb_referee_tick(r, 1001, &d);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_BLACK_WINS);
  arb_referee_free(r);
}

Test(referee_api, timed_endings_stop_the_clock) {
  /* resignation, agreement and mate all stop the clock; a mating move gets no increment */
  arb_referee *r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, "5+3", 0);
  MOVES(r, 1000, 1000, "f3", "e5", "g4");
  /* Black: 303 - 1 + 3 after e5, - 7 for the mate, which gets no increment (6.2.1.1) */
  arb_ref_decision d = move(r, "Qh4#", 10000);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_CHECKMATE);
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 298000);
  cr_assert_eq(d.state.running, -1);
  cr_assert_eq(event(r, ARB_REF_FLAG, ARB_WHITE, 900000).refusal, ARB_REF_GAME_OVER);
  arb_referee_free(r);
  r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, "5+3", 0);
  d = event(r, ARB_REF_RESIGN, ARB_WHITE, 4000);
  cr_assert_eq(d.state.running, -1);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 299000);
  d = event(r, ARB_REF_STATE, -1, 90000);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 299000);
  arb_referee_free(r);
}

Test(referee_api, every_rule_set_judges_the_same_flag) {
  /* K+R v K+N, White's rook side flags: the knight has a helpmate — a loss, except US Chess
   * 14E2 (a lone knight cannot win on time unless it has a forced win) */
  static const struct {
    arb_ruleset rules;
    arb_result result;
  } sets[] = {
      {ARB_RULES_FIDE, ARB_RESULT_BLACK_WINS},       {ARB_RULES_FIDE_RAPID, ARB_RESULT_BLACK_WINS},
      {ARB_RULES_FIDE_BLITZ, ARB_RESULT_BLACK_WINS}, {ARB_RULES_USCF, ARB_RESULT_DRAW},
      {ARB_RULES_ONLINE, ARB_RESULT_BLACK_WINS},     {ARB_RULES_CASUAL, ARB_RESULT_BLACK_WINS},
  };
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
    arb_referee *r = fresh(ARB_RULES_FIDE);
    start(r, sets[i].rules, "8/8/8/8/4n3/7k/8/6RK w - - 0 1", "1m", 0);
    MOVES(r, 1000, 1000, "Rg2", "Nf2+");
    arb_ref_decision d = event(r, ARB_REF_FLAG, ARB_WHITE, 200000);
    cr_assert_eq(d.state.outcome.result, sets[i].result, "%s", arb_rules_get(sets[i].rules)->name);
    cr_assert_eq(d.state.outcome.termination, ARB_TERM_TIME_FORFEIT);
    arb_referee_free(r);
  }
}

/* ---- the PGN ---- */

/* What the PGN reader finds in the referee's PGN. */
typedef struct pgn_seen {
  int games, plies, errors, clk;
  arb_result tag_result;
} pgn_seen;

static int seen_comment(void *ctx, const char *text, size_t len, int depth) {
  (void)depth;
  arb_pgn_clock_data cd;
  arb_pgn_comment_clock(text, len, &cd, NULL, 0, NULL);
  if (cd.clk_ms >= 0) ((pgn_seen *)ctx)->clk++;
  return 0;
}
static void seen_end(void *ctx, const arb_pgn_game_end *end) {
  pgn_seen *s = ctx;
  s->games++;
  s->plies = end->plies;
  s->errors += end->errors + end->warnings;
  s->tag_result = end->tag_result;
}

Test(referee_api, pgn_with_clock_comments) {
  arb_referee *r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, "1m+2s", 0);
  MOVES(r, 2000, 3000, "e4", "e5", "Nf3"); /* at 2, 5 and 8 s */
  event(r, ARB_REF_RESIGN, ARB_BLACK, 9000);
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  cr_assert_eq(arb_referee_write_pgn(r, ARB_REF_PGN_EMT, w), ARB_OK);
  size_t len;
  const char *text = arb_pgn_writer_data(w, &len);
  /* FIDE's clock model credits each increment in advance (DGT clocks, RULES.md R25): 62 s at
   * the start; White 62 - 2 + 2 = 62 s after e4, 62 - 3 + 2 = 61 after Nf3; Black 61 */
  cr_assert(strstr(text, "1. e4 { [%clk 0:01:02] [%emt 0:00:02] }"), "%s", text);
  cr_assert(strstr(text, "1... e5\n{ [%clk 0:01:01] [%emt 0:00:03] }"), "%s", text);
  cr_assert(strstr(text, "2. Nf3 { [%clk 0:01:01] [%emt 0:00:03] }"), "%s", text);
  cr_assert(strstr(text, "[White \"Ann\"]"), "%s", text);
  cr_assert(strstr(text, "[Black \"Bo\"]"), "%s", text);
  cr_assert(strstr(text, "[TimeControl \"60+2\"]"), "%s", text);
  cr_assert(strstr(text, "[Termination \"normal\"]"), "%s", text);
  cr_assert(strstr(text, "1-0\n"), "%s", text);
  /* the PGN reader replays it clean, strict */
  pgn_seen seen = {0, 0, 0, 0, ARB_RESULT_NONE};
  arb_pgn_visitor v = {.ctx = &seen, .comment = seen_comment, .end_game = seen_end};
  arb_pgn_options o = {ARB_PGN_STRICT, ARB_RULES_FIDE, 0, 0};
  arb_pgn_reader *rd = arb_pgn_reader_new(&o, &v);
  cr_assert_not_null(rd);
  arb_pgn_reader_feed(rd, text, len);
  arb_pgn_reader_finish(rd);
  arb_pgn_reader_free(rd);
  cr_assert_eq(seen.games, 1);
  cr_assert_eq(seen.plies, 3);
  cr_assert_eq(seen.errors, 0);
  cr_assert_eq(seen.clk, 3);
  cr_assert_eq(seen.tag_result, ARB_RESULT_WHITE_WINS);
  arb_pgn_writer_free(w);
  cr_assert_eq(arb_referee_write_pgn(r, 0, NULL), ARB_ERR_ARGUMENT);
  arb_referee_free(r);
  r = fresh(ARB_RULES_FIDE);
  w = arb_pgn_writer_new(0);
  cr_assert_eq(arb_referee_write_pgn(r, 0, w), ARB_ERR_ARGUMENT, "no game yet");
  /* a game from a position: SetUp and FEN, untimed: no clock comments */
  start(r, ARB_RULES_FIDE, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", NULL, ARB_REF_NO_TIME);
  move(r, "O-O-O", ARB_REF_NO_TIME);
  cr_assert_eq(arb_referee_write_pgn(r, ARB_REF_PGN_EMT, w), ARB_OK);
  text = arb_pgn_writer_data(w, &len);
  cr_assert(strstr(text, "[FEN \"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\"]"), "%s", text);
  cr_assert(strstr(text, "[Termination \"unterminated\"]"), "%s", text);
  cr_assert(strstr(text, "1. O-O-O *"), "%s", text);
  cr_assert_null(strstr(text, "%clk"), "%s", text);
  arb_pgn_writer_free(w);
  arb_referee_free(r);
}

/* ---- the JSON codec prints the C API's decisions ---- */

/* A scripted event, sent both ways. */
typedef struct scripted {
  arb_ref_kind kind;
  int64_t t;
  int by; /* also the side of flags */
  const char *move;
  arb_claim_reason reason;
} scripted;

static const char *opt_color(int c) { return c == ARB_WHITE ? "white" : "black"; }
static int color_of_name(const char *s) { return s && !strcmp(s, "black") ? ARB_BLACK : ARB_WHITE; }

static char *as_json(const scripted *e) {
  json_t *j = json_object();
  json_object_set_new(j, "type", json_string(arb_ref_kind_name(e->kind)));
  if (e->t >= 0) json_object_set_new(j, "t", json_integer(e->t));
  if (e->by >= 0)
    json_object_set_new(j, e->kind == ARB_REF_FLAG ? "side" : "by", json_string(opt_color(e->by)));
  if (e->move) json_object_set_new(j, "move", json_string(e->move));
  if (e->reason)
    json_object_set_new(j, "reason",
                        json_string(e->reason == ARB_CLAIM_THREEFOLD ? "threefold" : "fifty"));
  if (e->kind == ARB_REF_START) {
    json_object_set_new(j, "control", json_string("3+2"));
    json_object_set_new(j, "white", json_string("Ann"));
    json_object_set_new(j, "black", json_string("Bo"));
  }
  char *text = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  return text;
}

static int64_t json_ms(json_t *clock, const char *key) {
  json_t *v = json_object_get(clock, key);
  return json_is_null(v) ? ARB_CLOCK_NEVER : (int64_t)json_integer_value(v);
}

Test(referee_api, the_json_codec_prints_the_same_decisions) {
  /* A whole 3+2 game: moves, an offer declined, a wrong claim with its penalty, an offer
   * accepted too early, refusals, then a flag claimed too soon and at the right time. */
  static const scripted script[] = {
      {ARB_REF_START, 0, -1, NULL, 0},
      {ARB_REF_MOVE, 2000, -1, "Nf3", 0},
      {ARB_REF_OFFER_DRAW, 2500, ARB_WHITE, NULL, 0},
      {ARB_REF_ACCEPT_DRAW, 2600, ARB_WHITE, NULL, 0}, /* not_allowed: his own offer */
      {ARB_REF_MOVE, 5000, -1, "Nf6", 0},
      {ARB_REF_MOVE, 6000, ARB_BLACK, "Ng1", 0}, /* not_your_turn */
      {ARB_REF_MOVE, 9000, -1, "Ng1", 0},
      {ARB_REF_CLAIM_DRAW, 9500, ARB_BLACK, "Ng8", ARB_CLAIM_THREEFOLD}, /* wrong: +2 min */
      {ARB_REF_MOVE, 10000, -1, "Nc6", 0},                               /* must_play */
      {ARB_REF_MOVE, 12000, -1, "Ng8", 0},
      {ARB_REF_DECLINE_DRAW, 13000, ARB_WHITE, NULL, 0}, /* the claim stands as an offer */
      {ARB_REF_OFFER_DRAW, 13500, ARB_WHITE, NULL, 0},
      {ARB_REF_DECLINE_DRAW, 14000, ARB_BLACK, NULL, 0},
      {ARB_REF_MOVE, 15000, -1, "e4", 0},
      {ARB_REF_MOVE, 14000, -1, "e5", 0}, /* time_backwards */
      {ARB_REF_MOVE, 16000, -1, "e4", 0}, /* illegal_move */
      {ARB_REF_MOVE, 17000, -1, "e5", 0},
      {ARB_REF_FLAG, 100000, ARB_WHITE, NULL, 0}, /* flag_not_fallen */
      {ARB_REF_STATE, 300000, -1, NULL, 0},
      {ARB_REF_FLAG, 400000, ARB_WHITE, NULL, 0},   /* 0-1 on time */
      {ARB_REF_RESIGN, 400001, ARB_BLACK, NULL, 0}, /* game_over */
  };
  arb_referee *r = fresh(ARB_RULES_FIDE);
  ref_state *st = ref_state_new(ARB_RULES_FIDE);
  cr_assert_not_null(st);
  static const arb_ref_tag names[2] = {{"White", "Ann"}, {"Black", "Bo"}};
  arb_time_control tc;
  cr_assert_eq(arb_tc_parse("3+2", 3, ARB_TC_AUTO, &tc, NULL), ARB_OK);
  arb_ref_setup su = ARB_REF_SETUP_INIT;
  su.control = &tc;
  su.tags = names;
  su.tag_count = 2;
  int refused = 0;
  for (size_t i = 0; i < sizeof script / sizeof script[0]; i++) {
    const scripted *e = &script[i];
    arb_ref_event ev = ARB_REF_EVENT_INIT(e->kind, e->t);
    ev.by = ev.side = (int8_t)e->by;
    ev.text = e->move;
    ev.text_len = e->move ? strlen(e->move) : 0;
    ev.reason = e->reason;
    ev.setup = e->kind == ARB_REF_START ? &su : NULL;
    arb_ref_decision d;
    arb_referee_event(r, &ev, &d);
    char *line = as_json(e);
    char *ans = referee_answer(st, line, strlen(line), (long)i + 1);
    json_error_t jerr;
    json_t *a = json_loads(ans, 0, &jerr);
    cr_assert_not_null(a, "%s", ans);
    cr_assert_eq(json_is_true(json_object_get(a, "ok")), d.status == ARB_OK, "%s -> %s", line, ans);
    if (d.status != ARB_OK) {
      refused++;
      cr_assert_str_eq(json_string_value(json_object_get(json_object_get(a, "error"), "code")),
                       arb_ref_refusal_name(d.refusal), "%s", line);
      cr_assert_str_eq(json_string_value(json_object_get(json_object_get(a, "error"), "message")),
                       d.message, "%s", line);
    }
    if (d.kind == ARB_REF_MOVE && d.status == ARB_OK)
      cr_assert_str_eq(json_string_value(json_object_get(a, "san")), d.san);
    cr_assert_eq(json_integer_value(json_object_get(a, "ply")), d.state.ply, "%s", line);
    cr_assert_str_eq(json_string_value(json_object_get(a, "result")),
                     arb_result_string(d.state.outcome.result), "%s", line);
    cr_assert_str_eq(json_string_value(json_object_get(a, "termination")),
                     arb_termination_name(d.state.outcome.termination), "%s", line);
    json_t *clock = json_object_get(a, "clock");
    cr_assert_eq(json_ms(clock, "white_ms"), d.state.remaining_ms[ARB_WHITE], "%s", line);
    cr_assert_eq(json_ms(clock, "black_ms"), d.state.remaining_ms[ARB_BLACK], "%s", line);
    cr_assert_eq(json_ms(clock, "flag_at"), d.state.flag_at, "%s", line);
    json_t *offer = json_object_get(a, "draw_offer");
    cr_assert_eq(json_is_null(offer) ? -1 : color_of_name(json_string_value(offer)),
                 d.state.draw_offer, "%s", line);
    cr_assert_eq(json_array_size(json_object_get(a, "claims")),
                 (size_t)__builtin_popcount(d.state.claims), "%s", line);
    if (d.claimed)
      cr_assert_eq(json_integer_value(json_object_get(json_object_get(a, "claim"), "penalty_s")),
                   d.verdict.penalty_s);
    json_decref(a);
    free(ans);
    free(line);
  }
  cr_assert_eq(refused, 7);
  /* White (FIDE: increments in advance, 182 s at the start): 182 - 2 + 2, - 4 + 2, + 120 for
   * the wrong claim, - 3 + 2 for e4 = 299 s, running from 17 s: down after 316 s */
  arb_ref_state s;
  arb_referee_state_of(r, &s);
  cr_assert_eq(s.outcome.result, ARB_RESULT_BLACK_WINS);
  arb_ref_entry e;
  cr_assert_eq(arb_referee_record_at(r, 17, &e), ARB_OK);
  cr_assert_eq(e.kind, ARB_REF_FLAG);
  cr_assert_eq(e.refusal, ARB_REF_FLAG_NOT_FALLEN);
  cr_assert_eq(arb_clock_flag_fell_at(arb_referee_clock(r), ARB_WHITE, 400000), 316000);
  cr_assert_eq(s.flag_side, ARB_WHITE);
  ref_state_free(st);
  arb_referee_free(r);
}

/* ---- online play: premoves, abort, the first-move limit, lag, auto-queen ---- */

static arb_ref_decision premove(arb_referee *r, int by, const char *text, int64_t t) {
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_PREMOVE, t);
  ev.by = (int8_t)by;
  ev.text = text;
  ev.text_len = text ? strlen(text) : 0;
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  return d;
}

static arb_ref_decision start_online(arb_referee *r, const char *control, int lag,
                                     int64_t first_move_ms) {
  arb_time_control tc;
  cr_assert_eq(arb_tc_parse(control, strlen(control), ARB_TC_HUMAN, &tc, NULL), ARB_OK);
  arb_ref_setup su = ARB_REF_SETUP_INIT;
  su.rules = ARB_RULES_ONLINE;
  su.control = &tc;
  su.lag_compensation = (uint8_t)lag;
  su.first_move_ms = first_move_ms;
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_START, 0);
  ev.setup = &su;
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  return d;
}

Test(referee_api, premoves) {
  arb_referee *r = fresh(ARB_RULES_ONLINE);
  start_online(r, "3+0", 0, 0);
  MOVES(r, 100, 100, "e4", "e5"); /* untimed first moves; White's clock runs from 200 */
  arb_ref_decision d = premove(r, ARB_WHITE, "g1f3", 300);
  cr_assert_eq(d.refusal, ARB_REF_NOT_ALLOWED, "White is on move: no premove");
  d = premove(r, ARB_BLACK, "b8c6", 300);
  cr_assert_eq(d.status, ARB_OK);
  cr_assert_str_eq(d.state.premove[ARB_BLACK], "b8c6");
  d = premove(r, ARB_BLACK, "g8f6", 400); /* replaces it */
  cr_assert_str_eq(d.state.premove[ARB_BLACK], "g8f6");
  /* White moves at 5.2 s: Black's premove is played at once, at no cost to Black's clock */
  uint32_t n = arb_referee_record_count(r);
  d = move(r, "Nf3", 5200);
  cr_assert_eq(d.status, ARB_OK);
  cr_assert(d.premove.played);
  cr_assert_str_eq(d.premove.san, "Nf6");
  cr_assert_eq(d.state.ply, 4);
  cr_assert_eq(d.state.turn, ARB_WHITE);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 180000 - 5000);
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 180000, "a premove costs nothing");
  cr_assert_str_eq(d.state.premove[ARB_BLACK], "");
  cr_assert_eq(d.seq, n);
  cr_assert_eq(arb_referee_record_count(r), n + 2, "the move and the premove");
  arb_ref_entry e;
  arb_referee_record_at(r, n + 1, &e);
  cr_assert_eq(e.kind, ARB_REF_MOVE);
  cr_assert(e.flags & ARB_REF_FROM_PREMOVE);
  cr_assert_eq(e.move_ms, 0);
  cr_assert_eq(e.t, 5200);
  /* a premove that is illegal when its turn comes is dropped, and the player is told why */
  premove(r, ARB_BLACK, "f6e4", 5300); /* Nxe4 — but White defends by moving the pawn on */
  d = move(r, "Nc3", 6000);
  cr_assert_eq(d.status, ARB_OK);
  cr_assert(!d.premove.dropped && d.premove.played, "Nxe4 is still legal after Nc3");
  premove(r, ARB_BLACK, "e4d2", 6100); /* no piece can do that after White's next move */
  d = move(r, "Nxe4", 7000);
  cr_assert(d.premove.dropped);
  cr_assert_eq(d.premove.refusal, ARB_REF_ILLEGAL_MOVE);
  cr_assert_eq(d.state.turn, ARB_BLACK, "Black must move itself");
  cr_assert_str_eq(d.state.premove[ARB_BLACK], "");
  /* cancel */
  premove(r, ARB_WHITE, "d2d4", 7100);
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_CANCEL_PREMOVE, 7200);
  ev.by = ARB_WHITE;
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.status, ARB_OK);
  cr_assert_str_eq(d.state.premove[ARB_WHITE], "");
  d = move(r, "d6", 8000);
  cr_assert_eq(d.premove.played + d.premove.dropped, 0);
  cr_assert_eq(d.state.turn, ARB_WHITE);
  cr_assert_eq(premove(r, ARB_BLACK, "", 8100).refusal, ARB_REF_BAD_EVENT);
  cr_assert_eq(premove(r, ARB_BLACK, "zz", 8100).refusal, ARB_REF_BAD_MOVE);
  arb_referee_free(r);
  /* a premove that mates ends the game */
  r = fresh(ARB_RULES_FIDE);
  MOVES(r, ARB_REF_NO_TIME, 0, "f3", "e5");
  premove(r, ARB_BLACK, "Qh4#", ARB_REF_NO_TIME);
  d = move(r, "g4", ARB_REF_NO_TIME);
  cr_assert(d.premove.played);
  cr_assert(d.ended);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_CHECKMATE);
  cr_assert_eq(premove(r, ARB_WHITE, "a3", ARB_REF_NO_TIME).refusal, ARB_REF_GAME_OVER);
  arb_referee_free(r);
}

Test(referee_api, abort_and_the_first_move_limit) {
  arb_referee *r = fresh(ARB_RULES_ONLINE);
  start_online(r, "3+0", 0, 0);
  move(r, "e4", 1000);
  arb_ref_decision d = event(r, ARB_REF_ABORT, ARB_BLACK, 2000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert(d.ended);
  cr_assert(d.state.over);
  cr_assert(d.state.aborted);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_NONE);
  cr_assert_eq(d.state.running, -1);
  cr_assert_eq(move(r, "e5", 3000).refusal, ARB_REF_GAME_OVER);
  cr_assert_eq(event(r, ARB_REF_RESIGN, ARB_WHITE, 3000).refusal, ARB_REF_GAME_OVER);
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  arb_referee_write_pgn(r, 0, w);
  cr_assert(strstr(arb_pgn_writer_data(w, NULL), "[Termination \"abandoned\"]"));
  arb_pgn_writer_free(w);
  arb_referee_free(r);
  /* no abort once each side has moved */
  r = fresh(ARB_RULES_FIDE);
  MOVES(r, ARB_REF_NO_TIME, 0, "e4", "e5");
  cr_assert_eq(event(r, ARB_REF_ABORT, ARB_WHITE, ARB_REF_NO_TIME).refusal, ARB_REF_NOT_ALLOWED);
  arb_referee_free(r);
  /* lichess: a first move not made within the limit aborts the game by itself */
  r = fresh(ARB_RULES_ONLINE);
  d = start_online(r, "3+0", 0, 15000);
  cr_assert_eq(d.state.deadline, 15001);
  arb_referee_tick(r, 15000, &d);
  cr_assert_eq(d.ended, 0);
  move(r, "e4", 10000 + 5000); /* in time, at the limit */
  cr_assert_eq(arb_referee_next_deadline(r), 15000 + 15000 + 1, "Black's limit from White's move");
  arb_referee_tick(r, 30001, &d);
  cr_assert(d.ended && d.state.aborted);
  arb_ref_entry e;
  arb_referee_record_at(r, d.seq, &e);
  cr_assert_eq(e.kind, ARB_REF_TICK);
  cr_assert_eq(e.side, ARB_BLACK);
  cr_assert_eq(e.t, 30000);
  arb_referee_free(r);
  /* the limit stands still while the clocks are paused */
  r = fresh(ARB_RULES_ONLINE);
  start_online(r, "3+0", 0, 15000);
  event(r, ARB_REF_PAUSE, -1, 5000);
  cr_assert_eq(arb_referee_next_deadline(r), ARB_CLOCK_NEVER);
  event(r, ARB_REF_RESUME, -1, 100000);
  cr_assert_eq(arb_referee_next_deadline(r), 110001, "10 s were left when the pause began");
  d = move(r, "e4", 109000);
  cr_assert_eq(d.status, ARB_OK);
  arb_referee_free(r);
}

Test(referee_api, lag_compensation) {
  /* 3+0 online with compensation (K13): each side's quota starts at 2.61 s, gains 0.87 s */
  arb_referee *r = fresh(ARB_RULES_ONLINE);
  start_online(r, "3+0", 1, 0);
  MOVES(r, 100, 100, "e4", "e5"); /* White's clock runs from 200 */
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_MOVE, 10200);
  ev.text = "Nf3";
  ev.text_len = 3;
  ev.lag_ms = 3000; /* more than the quota: 2.61 s forgiven, 0.87 s left in it */
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.comp_ms, 2610);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 180000 - 10000 + 2610);
  arb_ref_entry e;
  arb_referee_record_at(r, d.seq, &e);
  cr_assert_eq(e.lag_ms, 3000);
  cr_assert_eq(e.comp_ms, 2610);
  cr_assert_eq(e.move_ms, 10000 - 2610);
  /* Black's flag: it has 180 s from 10.2 s; its grace is min(quota 2.61 s, 2 s) */
  cr_assert_eq(d.state.flag_at, 190200);
  cr_assert_eq(d.state.deadline, 190200 + 2000 + 1);
  /* Black moves 1.5 s after its flag time, with 1.6 s of lag: in time, 0.1 s left */
  ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_MOVE, 191700);
  ev.text = "Nc6";
  ev.text_len = 3;
  ev.lag_ms = 1600;
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 100);
  /* White's quota is 0.87 s now: grace 0.87 s.  A move 0.5 s after its flag time with no
   * lag claimed is refused and loses on time */
  int64_t white_flag = d.state.flag_at;
  cr_assert_eq(d.state.deadline, white_flag + 870 + 1);
  d = move(r, "Bc4", white_flag + 500);
  cr_assert_eq(d.refusal, ARB_REF_GAME_OVER);
  cr_assert(d.ended);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_BLACK_WINS);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_TIME_FORFEIT);
  arb_referee_free(r);
  /* without compensation the lag is ignored */
  r = fresh(ARB_RULES_ONLINE);
  start_online(r, "3+0", 0, 0);
  MOVES(r, 100, 100, "e4", "e5");
  ev = (arb_ref_event)ARB_REF_EVENT_INIT(ARB_REF_MOVE, 10200);
  ev.text = "Nf3";
  ev.text_len = 3;
  ev.lag_ms = 3000;
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.comp_ms, 0);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 170000);
  arb_referee_free(r);
}

Test(referee_api, a_pause_in_the_flags_grace) {
  /* as above: Black's flag at 190.2 s, its grace 2 s.  The arbiter pauses at 191 s, inside
   * the grace: the flag stays down (a pause lifts no flag) and its grace still ends at
   * 192.2 s, when the server sees it — not at once, as if the paused clock had none */
  arb_referee *r = fresh(ARB_RULES_ONLINE);
  start_online(r, "3+0", 1, 0);
  MOVES(r, 100, 100, "e4", "e5");
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_MOVE, 10200);
  ev.text = "Nf3";
  ev.text_len = 3;
  ev.lag_ms = 3000;
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.state.deadline, 192201);
  d = event(r, ARB_REF_PAUSE, -1, 191000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert(!d.state.over);
  cr_assert_eq(d.state.deadline, 192201);
  d = event(r, ARB_REF_STATE, -1, 192200);
  cr_assert(!d.state.over);
  d = event(r, ARB_REF_STATE, -1, 192201);
  cr_assert(d.state.over);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_TIME_FORFEIT);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_WHITE_WINS);
  arb_referee_free(r);
}

Test(referee_api, a_reinstatement_before_the_second_ply_restarts_the_first_move_limit) {
  /* a 15 s first-move limit: e4 and e5 made, then the position before e4 reinstated at 30 s:
   * White's first move is due by 45 s (not by the old limit, long past), then the game is
   * aborted */
  arb_referee *r = fresh(ARB_RULES_ONLINE);
  start_online(r, "3+0", 0, 15000);
  MOVES(r, 1000, 1000, "e4", "e5");
  arb_ref_decision d = reinstate(r, 1, 30000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.ply, 0);
  cr_assert(!d.state.over);
  cr_assert_eq(d.state.deadline, 45001);
  d = event(r, ARB_REF_STATE, -1, 45000);
  cr_assert(!d.state.over);
  d = event(r, ARB_REF_STATE, -1, 45001);
  cr_assert(d.state.over && d.state.aborted);
  arb_referee_free(r);
}

Test(referee_api, auto_queen) {
  arb_referee *r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, "8/P7/8/8/8/8/8/k6K w - - 0 1", NULL, ARB_REF_NO_TIME);
  arb_ref_decision d = move(r, "a7a8", ARB_REF_NO_TIME);
  cr_assert_eq(d.refusal, ARB_REF_ILLEGAL_MOVE);
  cr_assert(strstr(d.message, "promote"), "%s", d.message);
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_MOVE, ARB_REF_NO_TIME);
  ev.text = "a7a8";
  ev.text_len = 4;
  ev.flags = ARB_REF_AUTO_QUEEN;
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_str_eq(d.uci, "a7a8q");
  arb_referee_free(r);
  /* SAN without the piece, and an underpromotion written out is kept */
  r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, "8/P7/8/8/8/8/8/k6K w - - 0 1", NULL, ARB_REF_NO_TIME);
  ev.text = "a8";
  ev.text_len = 2;
  arb_referee_event(r, &ev, &d);
  cr_assert_str_eq(d.san, "a8=Q+");
  arb_referee_free(r);
  r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, "8/P7/8/8/8/8/8/k6K w - - 0 1", NULL, ARB_REF_NO_TIME);
  ev.text = "a7a8n";
  ev.text_len = 5;
  arb_referee_event(r, &ev, &d);
  cr_assert_str_eq(d.san, "a8=N");
  arb_referee_free(r);
}

/* ---- endings a director reports: forfeits and adjudications (docs/endings.md) ---- */

static arb_ref_decision ending(arb_referee *r, arb_ref_kind kind, int side, arb_termination t,
                               arb_result res, int64_t at) {
  arb_ref_event ev = ARB_REF_EVENT_INIT(kind, at);
  ev.side = (int8_t)side;
  ev.termination = t;
  ev.result = res;
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  return d;
}

static char *pgn_of(const arb_referee *r) {
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  cr_assert_eq(arb_referee_write_pgn(r, 0, w), ARB_OK);
  size_t len;
  const char *text = arb_pgn_writer_data(w, &len);
  char *copy = malloc(len + 1);
  cr_assert_not_null(copy);
  memcpy(copy, text, len + 1);
  arb_pgn_writer_free(w);
  return copy;
}

Test(referee_api, forfeits_lose_or_draw_by_the_laws) {
  char words[192];
  /* an engine that crashed loses (a rule of the match, not of the board) */
  arb_referee *r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, NULL, 0);
  MOVES(r, 0, 0, "e4");
  arb_ref_decision d = ending(r, ARB_REF_FORFEIT, ARB_BLACK, ARB_TERM_CRASH, 0, 0);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert(d.ended && d.state.over);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_WHITE_WINS);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_CRASH);
  cr_assert_eq(d.state.outcome.by, ARB_BLACK);
  arb_referee_end_words(r, words, sizeof words);
  cr_assert_str_eq(words, "Black's engine crashed: White wins");
  char *pgn = pgn_of(r);
  cr_assert(strstr(pgn, "[Termination \"abandoned\"]"), "%s", pgn); /* PGN standard 9.8.1 */
  cr_assert(strstr(pgn, "1-0"), "%s", pgn);
  free(pgn);
  /* the game is over: a second forfeit, a move, an adjudication are refused as game_over */
  cr_assert_eq(ending(r, ARB_REF_FORFEIT, ARB_WHITE, ARB_TERM_STALL, 0, 0).refusal,
               ARB_REF_GAME_OVER);
  cr_assert_eq(move(r, "e5", 0).refusal, ARB_REF_GAME_OVER);
  arb_referee_free(r);

  /* an illegal move against a lone king: the opponent cannot mate, a draw (FIDE 7.5.5) */
  r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, "7k/8/8/8/8/8/8/R3K3 w - - 0 1", NULL, 0);
  d = ending(r, ARB_REF_FORFEIT, ARB_WHITE, ARB_TERM_ILLEGAL_MOVE, 0, 0);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_DRAW);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_ILLEGAL_MOVE);
  arb_referee_end_words(r, words, sizeof words);
  cr_assert_str_eq(words, "Draw: White made an illegal move, but Black cannot checkmate by any "
                          "sequence of legal moves");
  pgn = pgn_of(r);
  cr_assert(strstr(pgn, "[Termination \"rules infraction\"]"), "%s", pgn);
  free(pgn);
  arb_referee_free(r);

  /* ... and by the side with the lone king: the rook side wins */
  r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, "7k/8/8/8/8/8/8/R3K3 b - - 0 1", NULL, 0);
  d = ending(r, ARB_REF_FORFEIT, ARB_BLACK, ARB_TERM_SECOND_ILLEGAL_MOVE, 0, 0);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_WHITE_WINS);
  /* a forfeit names who and why: without them, or with an ending that is not a forfeit, it is
   * refused and changes nothing */
  arb_referee_free(r);
  r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, NULL, 0);
  cr_assert_eq(ending(r, ARB_REF_FORFEIT, -1, ARB_TERM_CRASH, 0, 0).refusal, ARB_REF_BAD_EVENT);
  cr_assert_eq(ending(r, ARB_REF_FORFEIT, ARB_WHITE, ARB_TERM_CHECKMATE, 0, 0).refusal,
               ARB_REF_BAD_EVENT);
  cr_assert_eq(ending(r, ARB_REF_FORFEIT, ARB_WHITE, ARB_TERM_ADJUDICATION, 0, 0).refusal,
               ARB_REF_BAD_EVENT);
  d = ending(r, ARB_REF_FORFEIT, ARB_WHITE, ARB_TERM_NONE, 0, 0);
  cr_assert_eq(d.refusal, ARB_REF_BAD_EVENT);
  cr_assert(!d.state.over);
  /* a device on a player loses even against a lone king (11.3.2.2 says the opponent wins) */
  arb_referee_free(r);
  r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, "7k/8/8/8/8/8/8/R3K3 w - - 0 1", NULL, 0);
  d = ending(r, ARB_REF_FORFEIT, ARB_WHITE, ARB_TERM_ELECTRONIC_DEVICE, 0, 0);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_BLACK_WINS);
  arb_referee_free(r);
}

Test(referee_api, adjudications) {
  /* White's rook against a bare king: a match's adjudication never gives a win the laws could
   * not (Black's is a draw), White's stands; the arbiter's decision stands as ruled */
  static const struct {
    arb_termination why;
    arb_result asked, given;
    const char *words, *pgn;
  } cases[] = {
      {ARB_TERM_ADJUDICATION, ARB_RESULT_BLACK_WINS, ARB_RESULT_DRAW, "Draw by adjudication",
       "[Termination \"adjudication\"]"},
      {ARB_TERM_ADJUDICATION, ARB_RESULT_WHITE_WINS, ARB_RESULT_WHITE_WINS,
       "White wins by adjudication", "1-0"},
      {ARB_TERM_ARBITER, ARB_RESULT_BLACK_WINS, ARB_RESULT_BLACK_WINS,
       "Black wins by the arbiter's decision", "[Termination \"adjudication\"]"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    arb_referee *r = fresh(ARB_RULES_FIDE);
    start(r, ARB_RULES_FIDE, "7k/8/8/8/8/8/8/R3K3 w - - 0 1", NULL, 0);
    arb_ref_decision d = ending(r, ARB_REF_ADJUDICATE, -1, cases[i].why, cases[i].asked, 0);
    cr_assert_eq(d.status, ARB_OK, "%s", d.message);
    cr_assert_eq(d.state.outcome.result, cases[i].given, "case %zu", i);
    cr_assert_eq(d.state.outcome.termination, cases[i].why);
    char words[192];
    arb_referee_end_words(r, words, sizeof words);
    cr_assert_str_eq(words, cases[i].words);
    char *pgn = pgn_of(r);
    cr_assert(strstr(pgn, cases[i].pgn), "%s", pgn);
    free(pgn);
    arb_referee_free(r);
  }
  arb_referee *r;
  /* no result, or an ending that is not an adjudication: refused */
  r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, NULL, 0);
  cr_assert_eq(ending(r, ARB_REF_ADJUDICATE, -1, ARB_TERM_ADJUDICATION, 0, 0).refusal,
               ARB_REF_BAD_EVENT);
  cr_assert_eq(ending(r, ARB_REF_ADJUDICATE, -1, ARB_TERM_CRASH, ARB_RESULT_DRAW, 0).refusal,
               ARB_REF_BAD_EVENT);
  arb_referee_free(r);
}

/* UCI moves from the start position into out[] (a setup's moves) */
static void book_moves(const char *const *uci, int n, arb_move *out) {
  arb_position p;
  arb_position_startpos(&p);
  for (int i = 0; i < n; i++) {
    cr_assert_eq(arb_move_read(&p, uci[i], strlen(uci[i]), 0, &out[i], NULL), ARB_OK, "%s", uci[i]);
    arb_undo u;
    arb_make_move(&p, out[i], &u);
  }
}

Test(referee_api, setup_moves_count_for_repetition_not_on_the_clock) {
  /* Nf3 Nf6 Ng1 Ng8 Nf3 Nf6 Ng1 as the setup's moves (an opening book): Black's Ng8 would
   * bring the start position back a third time (FIDE 9.2.1: a claim with the intended move) —
   * only if the book's moves count for repetitions */
  const char *book[] = {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"};
  arb_move mv[7];
  book_moves(book, 7, mv);
  arb_referee *r = fresh(ARB_RULES_FIDE);
  arb_time_control tc;
  cr_assert_eq(arb_tc_parse("1m", 2, ARB_TC_HUMAN, &tc, NULL), ARB_OK);
  arb_ref_setup su = ARB_REF_SETUP_INIT;
  su.moves = mv;
  su.move_count = 7;
  su.control = &tc;
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_START, 0);
  ev.setup = &su;
  arb_ref_decision d;
  cr_assert_eq(arb_referee_event(r, &ev, &d), ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.ply, 7);
  cr_assert_eq(d.state.turn, ARB_BLACK);
  cr_assert_eq(d.state.running, ARB_BLACK); /* the clock starts with the side to move */
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 60000);
  /* Black's Ng8 would make the start position stand a third time: a claim with it is right */
  d = claim(r, ARB_BLACK, ARB_CLAIM_THREEFOLD, "Ng8", 1000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_THREEFOLD_REPETITION);
  /* the PGN has the book moves, without clock comments for them */
  char *pgn = pgn_of(r);
  cr_assert(strstr(pgn, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1"), "%s", pgn);
  cr_assert(!strstr(pgn, "%clk"), "%s", pgn);
  free(pgn);
  arb_referee_free(r);
  /* a setup move that is not legal refuses the start */
  r = fresh(ARB_RULES_FIDE);
  mv[1] = mv[0];
  su.control = NULL;
  cr_assert_eq(arb_referee_event(r, &ev, &d), ARB_ERR_ARGUMENT);
  cr_assert_eq(d.refusal, ARB_REF_BAD_EVENT);
  arb_referee_free(r);
}

Test(referee_api, one_vocabulary_of_endings) {
  /* every ending has a name that parses back, a PGN Termination value of the PGN standard
   * (9.8.1), and none of the procedure's endings comes from the game layer's play */
  static const char *const pgn_values[] = {"normal",    "time forfeit", "rules infraction",
                                           "abandoned", "adjudication", "unterminated"};
  for (int t = 1; t < ARB_TERM_COUNT; t++) {
    const char *name = arb_termination_name((arb_termination)t);
    cr_assert(name[0], "termination %d has no name", t);
    arb_termination back;
    cr_assert_eq(arb_termination_parse(name, strlen(name), &back), ARB_OK, "%s", name);
    cr_assert_eq((int)back, t);
    const char *pv = arb_termination_pgn((arb_termination)t);
    int known = 0;
    for (size_t k = 0; k < sizeof pgn_values / sizeof *pgn_values; k++)
      known |= !strcmp(pv, pgn_values[k]);
    cr_assert(known, "%s: %s", name, pv);
  }
  cr_assert_str_eq(arb_termination_pgn(ARB_TERM_NONE), "unterminated");
  cr_assert_eq(arb_termination_parse("", 0, &(arb_termination){0}), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_termination_parse("mate", 4, &(arb_termination){0}), ARB_ERR_ARGUMENT);
  /* the names the over-the-board cases use (../shared/data/rules/otb-cases.jsonl) */
  cr_assert_str_eq(arb_termination_name(ARB_TERM_SECOND_ILLEGAL_MOVE), "second_illegal_move");
  cr_assert_str_eq(arb_termination_name(ARB_TERM_ILLEGAL_MOVE_CLAIMANT_LACKS_MATERIAL),
                   "illegal_move_claimant_lacks_mating_material");
  cr_assert_str_eq(arb_termination_name(ARB_TERM_ELECTRONIC_DEVICE), "electronic_device");
  cr_assert_str_eq(arb_termination_article(ARB_TERM_SECOND_ILLEGAL_MOVE), "7.5.5");
  cr_assert_str_eq(arb_termination_article(ARB_TERM_FIVEFOLD_REPETITION), "9.6.1");
  /* arb_game_end refuses the laws' endings and an abort */
  arb_game *g = arb_game_new(NULL, ARB_RULES_FIDE);
  cr_assert_eq(arb_game_end(g, ARB_RESULT_DRAW, ARB_TERM_CHECKMATE, -1), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_game_end(g, ARB_RESULT_NONE, ARB_TERM_ABORTED, -1), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_game_end(g, ARB_RESULT_DRAW, ARB_TERM_ARBITER, -1), ARB_OK);
  cr_assert_eq(arb_game_end(g, ARB_RESULT_DRAW, ARB_TERM_ARBITER, -1), ARB_ERR_GAME_OVER);
  arb_game_free(g);
}

/* ---- over the board: a move made, then its press; the arbiter's reinstatement ---- */

static arb_ref_decision made(arb_referee *r, const char *text, int64_t t) {
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_MOVE, t);
  ev.text = text;
  ev.text_len = strlen(text);
  ev.flags = ARB_REF_MADE_ONLY;
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  return d;
}

Test(referee_api, a_move_made_then_pressed) {
  arb_referee *r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, "1m+2s", 0);
  /* 62 s each at the start (FIDE's model credits the first increment in advance, R25) */
  arb_ref_decision d = made(r, "e4", 2000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.turn, ARB_BLACK);      /* the move is on the board */
  cr_assert_eq(d.state.unpressed, ARB_WHITE); /* its press to come */
  cr_assert_eq(d.state.running, ARB_WHITE);   /* White's clock runs on (6.2.1) */
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 60000);
  /* the press at 3 s: 62 - 3 + 2 = 61 s */
  d = event(r, ARB_REF_PRESS, ARB_WHITE, 3000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.unpressed, -1);
  cr_assert_eq(d.state.running, ARB_BLACK);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 61000);
  /* a press with no move waiting: refused, nothing changes */
  d = event(r, ARB_REF_PRESS, ARB_WHITE, 3500);
  cr_assert_eq(d.refusal, ARB_REF_NOT_ALLOWED);
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 61500);
  /* Black makes e5 at 5 s and White replies d4 at 6 s before Black pressed: the reply
   * completes Black's move then (62 - 3 + 2 = 61 s), and White's clock ran 0 ms: 61 + 2 = 63 */
  made(r, "e5", 5000);
  d = move(r, "d4", 6000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 61000);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 63000);
  cr_assert_eq(event(r, ARB_REF_PRESS, ARB_BLACK, 6500).refusal, ARB_REF_NOT_ALLOWED);
  /* the arbiter reinstates the position before d4 at 7 s: White to move, White's clock runs,
   * Black keeps what its clock showed (61 - 1 = 60 s, no increment for a move taken back) */
  d = reinstate(r, 3, 7000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.ply, 2);
  cr_assert_eq(d.state.turn, ARB_WHITE);
  cr_assert_eq(d.state.running, ARB_WHITE);
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 60000);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 63000);
  cr_assert_eq(arb_clock_moves(arb_referee_clock(r), ARB_WHITE), 1); /* 6.10.2 */
  cr_assert_eq(arb_clock_moves(arb_referee_clock(r), ARB_BLACK), 1);
  /* Nf3 at 8 s: 63 - 1 + 2 = 64 s; the PGN has the game as it stands, d4 not in it */
  d = move(r, "Nf3", 8000);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 64000);
  char *pgn = pgn_of(r);
  cr_assert(strstr(pgn, "1. e4 { [%clk 0:01:01] } 1... e5 { [%clk 0:01:01] } 2. Nf3 "
                        "{ [%clk 0:01:04] }"),
            "%s", pgn);
  cr_assert(!strstr(pgn, "d4"), "%s", pgn);
  free(pgn);
  /* the record keeps d4, marked annulled */
  int annulled = 0;
  for (uint32_t i = 0; i < arb_referee_record_count(r); i++) {
    arb_ref_entry e;
    arb_referee_record_at(r, i, &e);
    if (e.kind == ARB_REF_MOVE && (e.flags & ARB_REF_ANNULLED)) annulled++;
  }
  cr_assert_eq(annulled, 1);
  /* refusals: no ply, a ply not played, after the end */
  cr_assert_eq(reinstate(r, 0, 9000).refusal, ARB_REF_BAD_EVENT);
  cr_assert_eq(reinstate(r, 4, 9000).refusal, ARB_REF_BAD_EVENT);
  event(r, ARB_REF_RESIGN, ARB_BLACK, 9000);
  cr_assert_eq(reinstate(r, 1, 9500).refusal, ARB_REF_GAME_OVER);
  arb_referee_free(r);
}

Test(referee_api, a_made_move_that_ends_the_game_needs_no_press) {
  /* fool's mate made, not pressed: the game is over at once (6.2.1.1), the clock stopped */
  arb_referee *r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, "1m", 0);
  MOVES(r, 1000, 1000, "f3", "e5", "g4");
  arb_ref_decision d = made(r, "Qh4#", 5000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert(d.state.over && d.state.outcome.termination == ARB_TERM_CHECKMATE);
  cr_assert_eq(d.state.unpressed, -1);
  cr_assert_eq(d.state.running, -1);
  arb_referee_free(r);
}

static arb_ref_decision continue_with(arb_referee *r, int by, const char *fen, unsigned flags,
                                      int64_t t) {
  arb_position p;
  cr_assert_eq(arb_fen_read(&p, fen, ARB_FEN_PROBLEMS_ALL, NULL), ARB_OK, "%s", fen);
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_CONTINUE_FROM, t);
  ev.by = (int8_t)by;
  ev.position = &p;
  ev.flags = flags;
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  return d;
}

static arb_ref_decision continue_from(arb_referee *r, int by, const char *fen, int64_t t) {
  return continue_with(r, by, fen, 0, t);
}

Test(referee_api, play_goes_on_from_an_illegal_board_and_is_reinstated) {
  arb_referee *r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, "1m+2s", 0);
  move(r, "e4", 1000); /* White 62 - 1 + 2 = 63 s */
  /* Black's queen jumps d8-h4 over the e7 pawn and Black presses at 3 s (62 - 2 + 2 = 62 s):
   * nobody rules on it yet, play goes on from the board */
  const char *board = "rnb1kbnr/pppppppp/8/8/4P2q/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2";
  arb_ref_decision d = continue_from(r, ARB_BLACK, board, 3000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.turn, ARB_WHITE);
  cr_assert_eq(d.state.running, ARB_WHITE);
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 62000);
  char fen[ARB_FEN_MAX];
  cr_assert_str_eq(fen_of(r, fen), board);
  d = move(r, "d4", 4000); /* legal from that board: 63 - 1 + 2 = 64 s */
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 64000);
  /* steps: e4 (1), the board (2), d4 (3); back to the board itself, then to before it */
  d = reinstate(r, 3, 4500);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_str_eq(fen_of(r, fen), board);
  cr_assert_eq(d.state.running, ARB_WHITE); /* the clock goes back to White, nothing credited */
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 61500);
  d = reinstate(r, 2, 5000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_str_eq(fen_of(r, fen), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  cr_assert_eq(d.state.ply, 1);
  cr_assert_eq(d.state.running, ARB_BLACK);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 63500); /* its clock ran 4.5-5 s */
  cr_assert_eq(arb_clock_moves(arb_referee_clock(r), ARB_WHITE), 1);
  cr_assert_eq(arb_clock_moves(arb_referee_clock(r), ARB_BLACK), 0);
  /* the game goes on: e5 at 6 s, Black's clock ran from 5 s: 61.5 - 1 + 2 = 62.5 s (the PGN
   * writes whole seconds, rounded down) */
  d = move(r, "e5", 6000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 62500);
  char *pgn = pgn_of(r);
  cr_assert(strstr(pgn, "1. e4 { [%clk 0:01:03] } 1... e5 { [%clk 0:01:02] }"), "%s", pgn);
  cr_assert(!strstr(pgn, "FEN"), "%s", pgn);
  free(pgn);
  /* refusals: no board, a step that is not there, a press of a clock that is not running */
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_CONTINUE_FROM, 7000);
  arb_referee_event(r, &ev, &d);
  cr_assert_eq(d.refusal, ARB_REF_BAD_EVENT);
  cr_assert_eq(reinstate(r, 3, 7000).refusal, ARB_REF_BAD_EVENT);
  cr_assert_eq(continue_from(r, ARB_BLACK, board, 7000).refusal, ARB_REF_NOT_YOUR_TURN);
  arb_referee_free(r);
}

static arb_ref_decision continue_made(arb_referee *r, int by, const char *fen, int64_t t) {
  return continue_with(r, by, fen, ARB_REF_MADE_ONLY, t);
}

Test(referee_api, an_illegal_move_made_then_pressed_or_replied_to) {
  /* over the board, an illegal move is made like any move (FIDE 4.7) and completed by its
   * press (6.2.1) or by the opponent's reply; until then the mover's clock runs */
  arb_referee *r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, "1m+2s", 0);
  move(r, "e4", 1000); /* White 62 - 1 + 2 = 63 s */
  const char *board = "rnb1kbnr/pppppppp/8/8/4P2q/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2";
  /* White does not have the move: refused */
  cr_assert_eq(continue_made(r, ARB_WHITE, board, 2000).refusal, ARB_REF_NOT_YOUR_TURN);
  /* Black's queen jumps d8-h4 at 3 s, made only */
  arb_ref_decision d = continue_made(r, ARB_BLACK, board, 3000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.turn, ARB_WHITE);
  cr_assert_eq(d.state.unpressed, ARB_BLACK);
  cr_assert_eq(d.state.running, ARB_BLACK);
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 60000); /* 62 - 2, no increment yet */
  char fen[ARB_FEN_MAX];
  cr_assert_str_eq(fen_of(r, fen), board);
  /* the press at 4 s: 62 - 3 + 2 = 61 s */
  d = event(r, ARB_REF_PRESS, ARB_BLACK, 4000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.unpressed, -1);
  cr_assert_eq(d.state.running, ARB_WHITE);
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 61000);
  /* the arbiter reinstates the position before it (step 2) at 4.5 s: White's clock ran 0.5 s */
  d = reinstate(r, 2, 4500);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.running, ARB_BLACK);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 62500);
  /* the same jump made at 5 s, and White replies d4 at 6 s before Black pressed: the reply
   * completes it then (61 - 1.5 + 2 = 61.5 s) and White's clock ran 0 ms (62.5 + 2) */
  d = continue_made(r, ARB_BLACK, board, 5000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  d = move(r, "d4", 6000);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.remaining_ms[ARB_BLACK], 61500);
  cr_assert_eq(d.state.remaining_ms[ARB_WHITE], 64500);
  cr_assert_eq(d.state.unpressed, -1);
  cr_assert_eq(d.state.running, ARB_BLACK);
  arb_referee_free(r);
}

Test(referee_api, a_board_an_illegal_move_left_ends_nothing_the_arbiters_does) {
  /* Black's queen jumps h6-c2 (no line): White, to move, has no legal move and is not in
   * check.  Stalemate is about the player to move having no *legal* move after a move
   * (5.2.1): a board an illegal move left ends nothing by itself; the arbiter rules on it.
   * The same board set up by the arbiter (no "by") is a stalemate. */
  const char *before = "k7/8/7q/8/8/8/8/K7 b - - 0 1";
  const char *board = "k7/8/8/8/8/8/2q5/K7 w - - 1 2";
  arb_referee *r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, before, NULL, 0);
  arb_ref_decision d = continue_from(r, ARB_BLACK, board, 0);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert(!d.state.over);
  cr_assert_eq(d.state.turn, ARB_WHITE);
  /* the arbiter reinstates the position before the illegal move: play goes on */
  d = reinstate(r, 1, 0);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  char fen[ARB_FEN_MAX];
  cr_assert_str_eq(fen_of(r, fen), before);
  arb_referee_free(r);
  r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, before, NULL, 0);
  d = continue_from(r, -1, board, 0);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert(d.state.over);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_STALEMATE);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_DRAW);
  arb_referee_free(r);
}

/* an event with the over-the-board fields: by (also the side), flags, termination, result */
static arb_ref_decision otb_event(arb_referee *r, arb_ref_kind kind, int by, unsigned flags,
                                  arb_termination t, arb_result res) {
  arb_ref_event ev = ARB_REF_EVENT_INIT(kind, 0);
  ev.by = ev.side = (int8_t)by;
  ev.flags = flags;
  ev.termination = t;
  ev.result = res;
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  return d;
}

static arb_ref_decision flag_seen(arb_referee *r, int side, int seen) {
  return otb_event(r, ARB_REF_FLAG, side, seen ? ARB_REF_FLAG_SEEN : 0, ARB_TERM_NONE,
                   ARB_RESULT_NONE);
}

Test(referee_api, a_flag_seen_on_a_clock_the_referee_does_not_keep) {
  /* over the board without a control given, the clock is the players': a flag counts when the
   * arbiter sees it (6.8); the verdict is 6.9's — a loss, or a draw when the opponent cannot
   * checkmate by any series of legal moves */
  arb_referee *r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, "7k/8/8/8/8/8/8/R3K3 w - - 0 1", NULL, 0);
  arb_ref_decision d = flag_seen(r, ARB_BLACK, 0);
  cr_assert_eq(d.refusal, ARB_REF_NOT_ALLOWED); /* a flag said to fall, not seen: no clock */
  cr_assert(!d.state.over);
  d = flag_seen(r, ARB_BLACK, 1);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_TIME_FORFEIT);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_WHITE_WINS);
  cr_assert_eq(flag_seen(r, ARB_WHITE, 1).refusal, ARB_REF_GAME_OVER);
  arb_referee_free(r);
  r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, "7k/8/8/8/8/8/8/R3K3 w - - 0 1", NULL, 0);
  d = flag_seen(r, ARB_WHITE, 1); /* Black has a bare king */
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_TIME_FORFEIT);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_DRAW);
  arb_referee_free(r);
}

static arb_ref_decision ruling(arb_referee *r, int by, arb_termination t, arb_result res) {
  return otb_event(r, ARB_REF_ADJUDICATE, by, 0, t, res);
}

Test(referee_api, the_arbiters_rulings_and_the_signed_result) {
  arb_referee *r = fresh(ARB_RULES_FIDE);
  /* a dead position (5.2.2) only when it is one: K+R v K is not */
  start(r, ARB_RULES_FIDE, "7k/8/8/8/8/8/8/R3K3 w - - 0 1", NULL, 0);
  arb_ref_decision d = ruling(r, ARB_WHITE, ARB_TERM_DEAD_POSITION, ARB_RESULT_NONE);
  cr_assert_eq(d.refusal, ARB_REF_NOT_ALLOWED);
  cr_assert(!d.state.over);
  arb_referee_free(r);
  /* the online rule set ends only the material classes by itself: a wall of locked pawns no
   * king can pass (nothing can move but the kings, each on its own side) is for a claim */
  r = fresh(ARB_RULES_ONLINE);
  d = start(r, ARB_RULES_ONLINE, "k7/8/1p1p1p1p/pPpPpPpP/P1P1P1P1/8/8/K7 w - - 0 1", NULL, 0);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert(!d.state.over);
  d = ruling(r, ARB_WHITE, ARB_TERM_DEAD_POSITION, ARB_RESULT_NONE);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_DRAW);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_DEAD_POSITION);
  arb_referee_free(r);
  /* an agreement and an illegal position (A.5.4) are draws, a resignation and a claimed
   * illegal move (US Chess blitz) wins: the other results are refused */
  static const struct {
    arb_termination t;
    arb_result bad, good;
  } kinds[] = {
      {ARB_TERM_AGREEMENT, ARB_RESULT_WHITE_WINS, ARB_RESULT_DRAW},
      {ARB_TERM_ILLEGAL_POSITION, ARB_RESULT_BLACK_WINS, ARB_RESULT_DRAW},
      {ARB_TERM_ILLEGAL_MOVE_CLAIMANT_LACKS_MATERIAL, ARB_RESULT_WHITE_WINS, ARB_RESULT_DRAW},
      {ARB_TERM_RESIGNATION, ARB_RESULT_DRAW, ARB_RESULT_WHITE_WINS},
      {ARB_TERM_ILLEGAL_MOVE_CLAIMED, ARB_RESULT_DRAW, ARB_RESULT_BLACK_WINS},
  };
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
    r = fresh(ARB_RULES_FIDE);
    start(r, ARB_RULES_FIDE, NULL, NULL, 0);
    cr_assert_eq(ruling(r, ARB_BLACK, kinds[i].t, kinds[i].bad).refusal, ARB_REF_BAD_EVENT,
                 "case %zu", i);
    d = ruling(r, ARB_BLACK, kinds[i].t, kinds[i].good);
    cr_assert_eq(d.status, ARB_OK, "case %zu: %s", i, d.message);
    cr_assert_eq(d.state.outcome.termination, kinds[i].t);
    cr_assert_eq(d.state.outcome.result, kinds[i].good);
    cr_assert_eq(d.state.outcome.by, ARB_BLACK);
    arb_referee_free(r);
  }
  /* after the end: the players signed 1-0 for Black's resignation; the arbiter changes only
   * the result (the termination stands, 8.7), then decides otherwise (arbiter_decision);
   * another ending is refused */
  r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, NULL, 0);
  event(r, ARB_REF_RESIGN, ARB_BLACK, 0);
  d = ruling(r, -1, ARB_TERM_NONE, ARB_RESULT_BLACK_WINS);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_BLACK_WINS);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_RESIGNATION);
  d = ruling(r, -1, ARB_TERM_ARBITER, ARB_RESULT_DRAW);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_DRAW);
  cr_assert_eq(d.state.outcome.termination, ARB_TERM_ARBITER);
  cr_assert_eq(ruling(r, -1, ARB_TERM_AGREEMENT, ARB_RESULT_DRAW).refusal, ARB_REF_GAME_OVER);
  char *pgn = pgn_of(r);
  cr_assert(strstr(pgn, "[Result \"1/2-1/2\"]"), "%s", pgn);
  free(pgn);
  /* before the end, a result alone is not a ruling */
  arb_referee_free(r);
  r = fresh(ARB_RULES_FIDE);
  start(r, ARB_RULES_FIDE, NULL, NULL, 0);
  cr_assert_eq(ruling(r, -1, ARB_TERM_NONE, ARB_RESULT_DRAW).refusal, ARB_REF_BAD_EVENT);
  arb_referee_free(r);
}

Test(referee_api, reinstated_into_the_setups_moves) {
  /* the setup's moves e4 e5 Nf3, then Nc6: step 1 is Nc6; step 0 is the position before
   * Nf3 (the setup's last move), -2 the start; 1 - 3 - 1 = -3 is refused */
  const char *book[] = {"e2e4", "e7e5", "g1f3"};
  arb_move mv[3];
  book_moves(book, 3, mv);
  arb_referee *r = fresh(ARB_RULES_FIDE);
  arb_ref_setup su = ARB_REF_SETUP_INIT;
  su.moves = mv;
  su.move_count = 3;
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_START, 0);
  ev.setup = &su;
  arb_ref_decision d;
  cr_assert_eq(arb_referee_event(r, &ev, &d), ARB_OK, "%s", d.message);
  cr_assert_eq(move(r, "Nc6", 0).status, ARB_OK);
  cr_assert_eq(reinstate(r, -3, 0).refusal, ARB_REF_BAD_EVENT);
  d = reinstate(r, 0, 0);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  char fen[ARB_FEN_MAX];
  cr_assert_str_eq(fen_of(r, fen), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  cr_assert_eq(d.state.ply, 2);
  /* the game goes on from there: Nc3, and its step is now 1 */
  cr_assert_eq(move(r, "Nc3", 0).status, ARB_OK);
  d = reinstate(r, 1, 0);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.ply, 2);
  d = reinstate(r, -1, 0);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert_eq(d.state.ply, 0);
  cr_assert_str_eq(fen_of(r, fen), FOOLS);
  char *pgn = pgn_of(r);
  cr_assert(!strstr(pgn, "e4"), "%s", pgn);
  free(pgn);
  arb_referee_free(r);
}

/* the codec's words for the over-the-board rulings: a seen flag, a signed result amended,
 * a made-only illegal board, a reinstatement into the setup's moves */
static json_t *answer(ref_state *st, const char *line) {
  char *ans = referee_answer(st, line, strlen(line), 1);
  json_error_t jerr;
  json_t *a = json_loads(ans, 0, &jerr);
  cr_assert_not_null(a, "%s", ans);
  free(ans);
  return a;
}

static void expect(ref_state *st, const char *line, int ok, const char *key, const char *want) {
  json_t *a = answer(st, line);
  cr_assert_eq(json_is_true(json_object_get(a, "ok")), ok, "%s", line);
  if (key) {
    json_t *v = json_object_get(a, key);
    if (!ok) v = json_object_get(json_object_get(a, "error"), "code");
    cr_assert_str_eq(json_string_value(v), want, "%s", line);
  }
  json_decref(a);
}

Test(referee_api, the_json_codec_says_the_arbiters_rulings) {
  ref_state *st = ref_state_new(ARB_RULES_FIDE);
  expect(st, "{\"type\":\"start\",\"fen\":\"7k/8/8/8/8/8/8/R3K3 w - - 0 1\"}", 1, NULL, NULL);
  expect(st, "{\"type\":\"flag\",\"side\":\"black\"}", 0, "", "not_allowed");
  expect(st, "{\"type\":\"flag\",\"side\":\"black\",\"seen\":1}", 0, "", "bad_event");
  expect(st, "{\"type\":\"flag\",\"side\":\"black\",\"seen\":true}", 1, "termination",
         "time_forfeit");
  expect(st, "{\"type\":\"adjudicate\",\"result\":\"1/2-1/2\"}", 1, "result", "1/2-1/2");
  expect(st, "{\"type\":\"state\"}", 1, "termination", "time_forfeit");
  expect(st, "{\"type\":\"adjudicate\",\"result\":\"0-1\",\"termination\":\"arbiter_decision\"}", 1,
         "termination", "arbiter_decision");
  expect(st, "{\"type\":\"start\",\"moves\":[\"e4\",\"e5\"]}", 1, NULL, NULL);
  expect(st,
         "{\"type\":\"continue_from\",\"by\":\"white\",\"made_only\":true,"
         "\"fen\":\"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPQPPP/RNB1KBNR b KQkq - 1 2\"}",
         1, "fen", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPPQPPP/RNB1KBNR b KQkq - 1 2");
  expect(st, "{\"type\":\"reinstate\",\"ply\":-2}", 0, "", "bad_event");
  expect(st, "{\"type\":\"reinstate\",\"ply\":0}", 1, "fen",
         "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  ref_state_free(st);
}
