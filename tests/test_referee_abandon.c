/* Arbiter — MIT licence, see LICENSE.
 *
 * test_referee_abandon.c: the referee's view of a player who left (online rules): the
 * server's away/back events, the abandonment claim after the wait (a win, or a draw when the
 * claimant could not win on time — lichess's material rule for `online`), its refusals, the
 * wait standing still during a pause, the words and the PGN; and the first-move limit's
 * deadline in the state.  Expected results come from the rules as written (lichess: a player
 * left may be claimed against; a lone king cannot win on time), not from the code under test.
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "test_util.h"

static arb_time_control tc_of(const char *text) {
  arb_time_control tc;
  cr_assert_eq(arb_tc_parse(text, strlen(text), ARB_TC_HUMAN, &tc, NULL), ARB_OK);
  return tc;
}

/* A game under rules with control (NULL untimed) from fen (NULL start), begun at t 0. */
static arb_referee *begin(arb_ruleset rules, const char *control, const char *fen,
                          int64_t abandon_ms, int64_t first_move_ms) {
  arb_referee *r = arb_referee_new(rules);
  cr_assert_not_null(r);
  arb_ref_setup su = ARB_REF_SETUP_INIT;
  su.rules = rules;
  arb_time_control tc;
  if (control) {
    tc = tc_of(control);
    su.control = &tc;
  }
  arb_position pos;
  if (fen) {
    pos = test_fen(fen);
    su.start = &pos;
  }
  su.abandon_ms = abandon_ms;
  su.first_move_ms = first_move_ms;
  arb_ref_event ev = ARB_REF_EVENT_INIT(ARB_REF_START, 0);
  ev.setup = &su;
  arb_ref_decision d;
  cr_assert_eq(arb_referee_event(r, &ev, &d), ARB_OK, "%s", d.message);
  return r;
}

static arb_ref_decision act(arb_referee *r, arb_ref_kind kind, int by, int64_t t,
                            const char *move) {
  arb_ref_event ev = ARB_REF_EVENT_INIT(kind, t);
  ev.by = (int8_t)by;
  if (move) {
    ev.text = move;
    ev.text_len = strlen(move);
  }
  arb_ref_decision d;
  arb_referee_event(r, &ev, &d);
  return d;
}

static void ok(arb_referee *r, arb_ref_kind kind, int by, int64_t t, const char *move) {
  arb_ref_decision d = act(r, kind, by, t, move);
  cr_assert_eq(d.status, ARB_OK, "%s at %lld: %s", arb_ref_kind_name(kind), (long long)t,
               d.message);
}

static void words_are(const arb_referee *r, const char *want) {
  char buf[256];
  arb_referee_end_words(r, buf, sizeof buf);
  cr_assert_str_eq(buf, want);
}

Test(abandon, names_parse_and_the_wait_by_speed) {
  arb_ref_kind k;
  cr_assert_eq(arb_ref_kind_parse("away", 4, &k), ARB_OK);
  cr_assert_eq(k, ARB_REF_AWAY);
  cr_assert_eq(arb_ref_kind_parse("back", 4, &k), ARB_OK);
  cr_assert_eq(k, ARB_REF_BACK);
  cr_assert_eq(arb_ref_kind_parse("claim_abandoned", 15, &k), ARB_OK);
  cr_assert_eq(k, ARB_REF_CLAIM_ABANDONED);
  cr_assert_neq(arb_ref_kind_parse("tick", 4, &k), ARB_OK, "still not an event a caller sends");
  /* 3+2 is blitz (180 + 80 s): 30 s; 1+0 is bullet (60 s): 15 s; untimed: 30 s */
  arb_referee *r = begin(ARB_RULES_ONLINE, "3+2", NULL, 0, 0);
  cr_assert_eq(arb_referee_abandon_ms(r), 30000);
  arb_referee_free(r);
  r = begin(ARB_RULES_ONLINE, "1+0", NULL, 0, 0);
  cr_assert_eq(arb_referee_abandon_ms(r), 15000);
  arb_referee_free(r);
  r = begin(ARB_RULES_ONLINE, NULL, NULL, 0, 0);
  cr_assert_eq(arb_referee_abandon_ms(r), 30000);
  arb_referee_free(r);
  r = begin(ARB_RULES_ONLINE, "3+2", NULL, 5000, 0);
  cr_assert_eq(arb_referee_abandon_ms(r), 5000);
  arb_referee_free(r);
  r = begin(ARB_RULES_ONLINE, "3+2", NULL, -1, 0);
  cr_assert_eq(arb_referee_abandon_ms(r), 0, "turned off by the setup");
  arb_referee_free(r);
  /* only online has the claim: FIDE leaves a player who does not come back to the arbiter */
  r = begin(ARB_RULES_FIDE, "3+2", NULL, 0, 0);
  cr_assert_eq(arb_referee_abandon_ms(r), 0);
  arb_ref_decision d = act(r, ARB_REF_AWAY, ARB_BLACK, 10, NULL);
  cr_assert_eq(d.refusal, ARB_REF_NOT_ALLOWED);
  d = act(r, ARB_REF_CLAIM_ABANDONED, ARB_WHITE, 20, NULL);
  cr_assert_eq(d.refusal, ARB_REF_NOT_ALLOWED);
  cr_assert(strstr(d.message, "online"), "%s", d.message);
  arb_referee_free(r);
}

Test(abandon, a_win_after_the_wait_and_not_before) {
  arb_referee *r = begin(ARB_RULES_ONLINE, "3+2", NULL, 0, 0);
  ok(r, ARB_REF_MOVE, ARB_WHITE, 1000, "e4");
  ok(r, ARB_REF_MOVE, ARB_BLACK, 2000, "e5");
  ok(r, ARB_REF_AWAY, ARB_BLACK, 3000, NULL);
  arb_ref_state s;
  arb_referee_state_of(r, &s);
  cr_assert_eq(s.away_since[ARB_BLACK], 3000);
  cr_assert_eq(s.away_since[ARB_WHITE], -1);
  cr_assert_eq(s.abandon_claim_at[ARB_BLACK], 33000);
  cr_assert_eq(s.abandon_claim_at[ARB_WHITE], ARB_CLOCK_NEVER);
  cr_assert_eq(s.abandon_result, ARB_RESULT_WHITE_WINS);
  /* a second "away" for a player already away is refused */
  cr_assert_eq(act(r, ARB_REF_AWAY, ARB_BLACK, 3500, NULL).refusal, ARB_REF_NOT_ALLOWED);
  /* too early: 29.999 s after */
  arb_ref_decision d = act(r, ARB_REF_CLAIM_ABANDONED, ARB_WHITE, 32999, NULL);
  cr_assert_eq(d.refusal, ARB_REF_NOT_ALLOWED);
  cr_assert(strstr(d.message, "Black left 29 s ago"), "%s", d.message);
  cr_assert_not(d.state.over);
  /* the one who left cannot claim */
  cr_assert_eq(act(r, ARB_REF_CLAIM_ABANDONED, ARB_BLACK, 33000, NULL).refusal,
               ARB_REF_NOT_ALLOWED);
  d = act(r, ARB_REF_CLAIM_ABANDONED, ARB_WHITE, 33000, NULL);
  cr_assert_eq(d.status, ARB_OK, "%s", d.message);
  cr_assert(d.ended);
  cr_assert(d.state.over);
  cr_assert_eq(d.state.outcome.result, ARB_RESULT_WHITE_WINS);
  cr_assert_eq(d.state.abandoned, ARB_BLACK);
  cr_assert_eq(d.state.flag_side, -1, "nobody's flag fell");
  cr_assert_eq(d.state.running, -1, "the clock stopped");
  words_are(r, "Black left the game: White wins by the abandonment claim (online rules)");
  /* the PGN says the game was abandoned, 1-0 */
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  cr_assert_eq(arb_referee_write_pgn(r, 0, w), ARB_OK);
  size_t len;
  const char *pgn = arb_pgn_writer_data(w, &len);
  cr_assert(strstr(pgn, "[Termination \"abandoned\"]"), "%s", pgn);
  cr_assert(strstr(pgn, "[Result \"1-0\"]"), "%s", pgn);
  arb_pgn_writer_free(w);
  /* over: nothing more */
  cr_assert_eq(act(r, ARB_REF_BACK, ARB_BLACK, 34000, NULL).refusal, ARB_REF_GAME_OVER);
  arb_referee_free(r);
}

Test(abandon, coming_back_cancels_and_the_wait_starts_again) {
  arb_referee *r = begin(ARB_RULES_ONLINE, "5+0", NULL, 0, 0);
  ok(r, ARB_REF_MOVE, ARB_WHITE, 1000, "d4");
  ok(r, ARB_REF_MOVE, ARB_BLACK, 2000, "d5");
  ok(r, ARB_REF_AWAY, ARB_WHITE, 3000, NULL);
  ok(r, ARB_REF_BACK, ARB_WHITE, 20000, NULL);
  cr_assert_eq(act(r, ARB_REF_BACK, ARB_WHITE, 20001, NULL).refusal, ARB_REF_NOT_ALLOWED);
  arb_ref_decision d = act(r, ARB_REF_CLAIM_ABANDONED, ARB_BLACK, 40000, NULL);
  cr_assert_eq(d.refusal, ARB_REF_NOT_ALLOWED);
  cr_assert(strstr(d.message, "has not left"), "%s", d.message);
  ok(r, ARB_REF_AWAY, ARB_WHITE, 50000, NULL);
  cr_assert_eq(act(r, ARB_REF_CLAIM_ABANDONED, ARB_BLACK, 79999, NULL).refusal,
               ARB_REF_NOT_ALLOWED);
  ok(r, ARB_REF_CLAIM_ABANDONED, ARB_BLACK, 80000, NULL);
  arb_ref_state s;
  arb_referee_state_of(r, &s);
  cr_assert_eq(s.outcome.result, ARB_RESULT_BLACK_WINS);
  arb_referee_free(r);
}

Test(abandon, a_draw_when_the_claimant_could_not_win_on_time) {
  /* White has a lone king: under lichess's rule a lone king cannot win on time, so White's
   * claim against Black, who left, is a draw */
  arb_referee *r = begin(ARB_RULES_ONLINE, "3+2", "8/8/4k3/8/8/3K4/5r2/8 w - - 0 60", 0, 0);
  ok(r, ARB_REF_MOVE, ARB_WHITE, 1000, "Ke3");
  ok(r, ARB_REF_MOVE, ARB_BLACK, 2000, "Rf1");
  ok(r, ARB_REF_AWAY, ARB_BLACK, 2500, NULL);
  arb_ref_state s;
  arb_referee_state_of(r, &s);
  cr_assert_eq(s.abandon_result, ARB_RESULT_DRAW);
  ok(r, ARB_REF_CLAIM_ABANDONED, ARB_WHITE, 32500, NULL);
  arb_referee_state_of(r, &s);
  cr_assert_eq(s.outcome.result, ARB_RESULT_DRAW);
  cr_assert_eq(s.abandoned, ARB_BLACK);
  words_are(r, "Draw by the abandonment claim (online rules): Black left the game, but White has "
               "too little material to win");
  arb_referee_free(r);
}

Test(abandon, not_before_each_side_has_moved) {
  arb_referee *r = begin(ARB_RULES_ONLINE, NULL, NULL, 0, 0);
  ok(r, ARB_REF_MOVE, ARB_WHITE, 1000, "e4");
  ok(r, ARB_REF_AWAY, ARB_BLACK, 1500, NULL);
  arb_ref_state s;
  arb_referee_state_of(r, &s);
  cr_assert_eq(s.abandon_claim_at[ARB_BLACK], ARB_CLOCK_NEVER, "one ply: abort, not a claim");
  arb_ref_decision d = act(r, ARB_REF_CLAIM_ABANDONED, ARB_WHITE, 90000, NULL);
  cr_assert_eq(d.refusal, ARB_REF_NOT_ALLOWED);
  cr_assert(strstr(d.message, "abort"), "%s", d.message);
  ok(r, ARB_REF_ABORT, ARB_WHITE, 90001, NULL);
  arb_referee_free(r);
}

Test(abandon, a_pause_does_not_count_as_time_away) {
  /* a server down from 10 s to 110 s: Black, away from 5 s, has been away 5 + 20 s at 130 s */
  arb_referee *r = begin(ARB_RULES_ONLINE, "10+0", NULL, 0, 0);
  ok(r, ARB_REF_MOVE, ARB_WHITE, 1000, "e4");
  ok(r, ARB_REF_MOVE, ARB_BLACK, 2000, "c5");
  ok(r, ARB_REF_AWAY, ARB_BLACK, 5000, NULL);
  ok(r, ARB_REF_PAUSE, -1, 10000, NULL);
  arb_ref_decision d = act(r, ARB_REF_CLAIM_ABANDONED, ARB_WHITE, 50000, NULL);
  cr_assert_eq(d.refusal, ARB_REF_CLOCK_STATE, "%s", d.message);
  ok(r, ARB_REF_RESUME, -1, 110000, NULL);
  arb_ref_state s;
  arb_referee_state_of(r, &s);
  cr_assert_eq(s.away_since[ARB_BLACK], 105000);
  cr_assert_eq(s.abandon_claim_at[ARB_BLACK], 135000);
  cr_assert_eq(act(r, ARB_REF_CLAIM_ABANDONED, ARB_WHITE, 134999, NULL).refusal,
               ARB_REF_NOT_ALLOWED);
  ok(r, ARB_REF_CLAIM_ABANDONED, ARB_WHITE, 135000, NULL);
  arb_referee_free(r);
}

Test(abandon, the_first_move_deadline_is_in_the_state) {
  arb_referee *r = begin(ARB_RULES_ONLINE, "3+2", NULL, 0, 20000);
  arb_ref_state s;
  arb_referee_state_of(r, &s);
  cr_assert_eq(s.first_move_by, 20000, "White from the start, 20 s");
  ok(r, ARB_REF_MOVE, ARB_WHITE, 7000, "e4");
  arb_referee_state_of(r, &s);
  cr_assert_eq(s.first_move_by, 27000, "Black from White's first move");
  ok(r, ARB_REF_MOVE, ARB_BLACK, 9000, "e5");
  arb_referee_state_of(r, &s);
  cr_assert_eq(s.first_move_by, ARB_CLOCK_NEVER, "both have moved");
  arb_referee_free(r);
  /* no limit: never */
  r = begin(ARB_RULES_ONLINE, "3+2", NULL, 0, 0);
  arb_referee_state_of(r, &s);
  cr_assert_eq(s.first_move_by, ARB_CLOCK_NEVER);
  arb_referee_free(r);
  /* a missed first move: aborted, and no deadline shown after */
  r = begin(ARB_RULES_ONLINE, "3+2", NULL, 0, 20000);
  arb_ref_decision d;
  arb_referee_tick(r, 20001, &d);
  cr_assert(d.ended && d.state.aborted);
  cr_assert_eq(d.state.first_move_by, ARB_CLOCK_NEVER);
  arb_referee_free(r);
}
