/* Arbiter — MIT licence, see LICENSE.
 *
 * test_otb.c: the over-the-board referee's C API (arbiter/otb.h): whole games with mistakes
 * under each rule set, the situations the scenario file gives only as prose (schematic cases),
 * the as-played PGN read back by the PGN reader, and the e-board property tests — the snapshot
 * stream of a random legal game with slides, captures in progress and timing noise inside the
 * debounce reproduces exactly that game (500 games), and so does the lift/place stream of a
 * presence-only board.
 */
#include <stdio.h>

#include "test_util.h"

typedef struct drv {
  arb_otb *o;
  arb_otb_decision d;
  arb_otb_decision dm; /* move_press: the answer to the move (the press's is d) */
  int64_t t;
} drv;

static void drv_start(drv *v, const char *fen, arb_otb_rules rules, arb_otb_supervision sup,
                      const char *tc, arb_otb_sensing sensing) {
  v->o = arb_otb_new();
  cr_assert_not_null(v->o);
  static arb_position pos; /* copied by the referee */
  arb_time_control control;
  arb_otb_setup s = ARB_OTB_SETUP_INIT;
  if (fen) {
    pos = test_fen(fen);
    s.start = &pos;
  }
  s.rules = rules;
  s.supervision = sup;
  s.sensing = sensing;
  if (tc) {
    cr_assert_eq(arb_tc_parse(tc, strlen(tc), ARB_TC_PGN, &control, NULL), ARB_OK);
    s.control = &control;
  }
  arb_otb_event ev = ARB_OTB_EVENT_INIT(ARB_OTB_START, 0);
  ev.setup = &s;
  cr_assert_eq(arb_otb_event_apply(v->o, &ev, &v->d), ARB_OK, "%s", v->d.message);
  v->t = 0;
}

static arb_square sq_of(const char *s) { return ARB_SQUARE(s[0] - 'a', s[1] - '1'); }

static const arb_otb_decision *ev_log(drv *v, arb_otb_kind kind, int by, const char *text) {
  v->t += 500;
  arb_otb_event ev = ARB_OTB_EVENT_INIT(kind, v->t);
  ev.by = (int8_t)by;
  if (text && (kind == ARB_OTB_TOUCH || kind == ARB_OTB_LIFT || kind == ARB_OTB_RELEASE)) {
    ev.squares[0] = sq_of(text);
    ev.square_count = 1;
  } else if (text) {
    ev.text = text;
    ev.text_len = strlen(text);
  }
  cr_assert_eq(arb_otb_event_apply(v->o, &ev, &v->d), ARB_OK, "%s %s: %s", arb_otb_kind_name(kind),
               text ? text : "", v->d.message);
  return &v->d;
}

static const arb_otb_decision *move_press(drv *v, int by, const char *uci) {
  ev_log(v, ARB_OTB_MOVE, by, uci);
  v->dm = v->d;
  return ev_log(v, ARB_OTB_PRESS, by, NULL);
}

static const arb_otb_decision *claim(drv *v, int by, arb_otb_matter m, int ply) {
  v->t += 500;
  arb_otb_event ev = ARB_OTB_EVENT_INIT(ARB_OTB_CLAIM, v->t);
  ev.by = (int8_t)by;
  ev.matter = m;
  ev.ply = ply;
  arb_otb_event_apply(v->o, &ev, &v->d);
  return &v->d;
}

/* ---- whole games with mistakes ---- */

Test(otb, fide_game_touch_illegal_second_illegal_bare_king) {
  drv v;
  /* White: king and rook; Black: a bare king.  A touch-move breach claimed, a completed illegal
   * move (+2 min), then White's second one: Black cannot mate, so a draw (7.5.5). */
  drv_start(&v, "7k/8/8/8/8/8/8/R3K3 w Q - 0 1", ARB_OTB_FIDE, ARB_OTB_SUP_DEFAULT, "5400", 0);
  ev_log(&v, ARB_OTB_TOUCH, ARB_WHITE, "a1");
  const arb_otb_decision *d = move_press(&v, ARB_WHITE, "e1e2");
  cr_assert_eq(v.dm.violation, ARB_OTB_V_TOUCH_MOVE,
               "the king moved although the rook was touched");
  cr_assert(!v.dm.restored, "a contact in the log: ruled on a claim");
  d = claim(&v, ARB_BLACK, ARB_OTB_M_TOUCH_MOVE, 0);
  cr_assert_eq(d->claim_valid, 1);
  cr_assert_str_eq(d->restore_fen, "7k/8/8/8/8/8/8/R3K3 w Q - 0 1");
  cr_assert(d->obligation.must_move == ((arb_bitboard)1 << sq_of("a1")));
  d = move_press(&v, ARB_WHITE, "a1a7");
  cr_assert(d->completed && !d->violation);
  d = move_press(&v, ARB_BLACK, "h8g7"); /* into the rook's rank */
  cr_assert_eq(d->violation, ARB_OTB_V_ILLEGAL_MOVE_COMPLETED);
  cr_assert_eq(d->time_added_s[ARB_WHITE], 120);
  cr_assert_eq(d->illegal_count[ARB_BLACK], 1);
  cr_assert_str_eq(d->restore_fen, "7k/R7/8/8/8/8/8/4K3 b - - 1 1");
  cr_assert_eq(d->obligation.allowed_count, 1, "the king touched: only Kg8");
  cr_assert(d->remaining_ms[ARB_WHITE] > 5400000, "the two minutes are on White's clock");
  cr_assert_eq(d->running, ARB_BLACK, "Black's clock runs again");
  d = move_press(&v, ARB_BLACK, "h8g8");
  cr_assert(d->completed && !d->violation);
  d = move_press(&v, ARB_WHITE, "a7b8"); /* a rook moving diagonally */
  cr_assert_eq(d->illegal_count[ARB_WHITE], 1);
  cr_assert_eq(d->time_added_s[ARB_BLACK], 120);
  cr_assert(d->obligation.must_move == ((arb_bitboard)1 << sq_of("a7")));
  d = move_press(&v, ARB_WHITE, "a7b6");
  cr_assert(d->over, "a second illegal move ends the game");
  cr_assert_eq(d->outcome.result, ARB_RESULT_DRAW, "Black cannot mate: a draw");
  cr_assert_eq(d->outcome.termination, ARB_TERM_SECOND_ILLEGAL_MOVE);
  /* the record keeps every move as played; the PGN reads back */
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  cr_assert_eq(arb_otb_write_pgn(v.o, 0, w), ARB_OK);
  size_t len;
  const char *text = arb_pgn_writer_data(w, &len);
  cr_assert(strstr(text, "[Result \"1/2-1/2\"]"), "%s", text);
  arb_pgn_reader *r = arb_pgn_reader_new(NULL, NULL);
  arb_pgn_reader_feed(r, text, len);
  arb_pgn_reader_finish(r);
  arb_pgn_stats st;
  arb_pgn_reader_stats(r, &st);
  cr_assert_eq(st.errors, 0, "%s", text);
  arb_pgn_reader_free(r);
  arb_pgn_writer_free(w);
  arb_otb_free(v.o);
}

Test(otb, second_illegal_loses_when_opponent_can_mate) {
  drv v;
  drv_start(&v, "4k3/4q3/8/8/8/8/8/4K3 w - - 0 1", ARB_OTB_FIDE, ARB_OTB_SUP_DEFAULT, NULL, 0);
  const arb_otb_decision *d = move_press(&v, ARB_WHITE, "e1e2"); /* into the queen's file */
  cr_assert_eq(d->illegal_count[ARB_WHITE], 1);
  cr_assert_eq(d->time_added_s[ARB_BLACK], 120);
  d = ev_log(&v, ARB_OTB_PRESS, ARB_WHITE, NULL); /* a press without a move: 7.5.3 */
  cr_assert_eq(d->violation, ARB_OTB_V_PRESS_WITHOUT_MOVE);
  cr_assert(d->over);
  cr_assert_eq(d->outcome.result, ARB_RESULT_BLACK_WINS);
  arb_otb_free(v.o);
}

Test(otb, rapid_illegal_move_stands_after_the_reply) {
  drv v;
  drv_start(&v, "4r1k1/8/8/8/8/8/8/R3K3 w Q - 0 1", ARB_OTB_FIDE_RAPID, ARB_OTB_SUP_A5, "900+10",
            0);
  const arb_otb_decision *d = move_press(&v, ARB_WHITE, "a1a4"); /* leaves the king in check */
  cr_assert(!d->restored, "A.5: the referee does not act by itself");
  cr_assert_eq(d->illegal_count[ARB_WHITE], 0);
  d = move_press(&v, ARB_BLACK, "g8h8");
  cr_assert(v.dm.stands, "Black made his move: the illegal move stands (A.5.2)");
  d = claim(&v, ARB_BLACK, ARB_OTB_M_ILLEGAL_MOVE, 1);
  cr_assert_eq(d->claim_valid, 0, "too late");
  /* play goes on from the real board: White is still in check and must answer it */
  d = move_press(&v, ARB_WHITE, "e1d2");
  cr_assert(d->completed && !d->violation);
  arb_otb_record_entry e;
  cr_assert_eq(arb_otb_record_at(v.o, 0, &e), ARB_OK);
  cr_assert(!e.legal && e.stood);
  cr_assert_str_eq(e.uci, "a1a4");
  /* the as-played PGN reads back with warnings only */
  arb_pgn_writer *w = arb_pgn_writer_new(0);
  cr_assert_eq(arb_otb_write_pgn(v.o, 0, w), ARB_OK);
  size_t len;
  const char *text = arb_pgn_writer_data(w, &len);
  cr_assert(strstr(text, "[%illegal a1a4 "), "%s", text);
  arb_pgn_reader *r = arb_pgn_reader_new(NULL, NULL);
  cr_assert_not_null(r);
  cr_assert_eq(arb_pgn_reader_feed(r, text, len), ARB_OK);
  cr_assert_eq(arb_pgn_reader_finish(r), ARB_OK);
  arb_pgn_stats st;
  arb_pgn_reader_stats(r, &st);
  cr_assert_eq(st.errors, 0, "%s", text);
  cr_assert_eq(st.warnings, 1);
  cr_assert_eq(st.plies, 3);
  arb_pgn_reader_free(r);
  /* the legal game only: from the position the illegal move left */
  arb_pgn_writer_clear(w);
  cr_assert_eq(arb_otb_write_pgn(v.o, ARB_OTB_PGN_LEGAL_ONLY, w), ARB_OK);
  text = arb_pgn_writer_data(w, &len);
  cr_assert(strstr(text, "stood here and the game went on"), "%s", text);
  cr_assert(!strstr(text, "%illegal"), "%s", text);
  cr_assert(strstr(text, "[Result \"*\"]"), "%s", text);
  arb_pgn_writer_free(w);
  arb_otb_free(v.o);
}

Test(otb, rapid_full_supervision_reinstates_later) {
  drv v;
  drv_start(&v, NULL, ARB_OTB_FIDE_RAPID, ARB_OTB_SUP_A4, "900", 0);
  const arb_otb_decision *d = move_press(&v, ARB_WHITE, "e2e5"); /* three squares */
  cr_assert(!d->restored, "A.4: found when the arbiter sees it");
  move_press(&v, ARB_BLACK, "d7d6");
  move_press(&v, ARB_WHITE, "g1f3");
  v.t += 500;
  arb_otb_event ev = ARB_OTB_EVENT_INIT(ARB_OTB_ARBITER_OBSERVES, v.t);
  ev.matter = ARB_OTB_M_ILLEGAL_MOVE;
  ev.ply = 1;
  cr_assert_eq(arb_otb_event_apply(v.o, &ev, &v.d), ARB_OK, "%s", v.d.message);
  cr_assert(v.d.restored);
  cr_assert_str_eq(v.d.restore_fen, ARB_FEN_START);
  cr_assert_eq(v.d.annulled_count, 3);
  cr_assert_eq(v.d.time_added_s[ARB_BLACK], 60, "A.3: one minute in rapid");
  cr_assert_eq(v.d.illegal_count[ARB_WHITE], 1);
  cr_assert(v.d.obligation.must_move == ((arb_bitboard)1 << sq_of("e2")), "the e2 pawn must move");
  cr_assert_eq(v.d.running, ARB_WHITE);
  arb_otb_free(v.o);
}

Test(otb, uscf_penalties_never_forfeit_and_ten_moves) {
  drv v;
  drv_start(&v, "4k3/p7/8/8/8/8/3r4/4K3 w - - 0 1", ARB_OTB_USCF, ARB_OTB_SUP_DEFAULT, "3600", 0);
  const arb_otb_decision *d = move_press(&v, ARB_WHITE, "e1e2"); /* into the rook */
  cr_assert(!d->restored, "US Chess: on a claim");
  d = claim(&v, ARB_BLACK, ARB_OTB_M_ILLEGAL_MOVE, 0);
  cr_assert_eq(d->claim_valid, 1);
  cr_assert_eq(d->time_added_s[ARB_BLACK], 120, "a timely claim gets the 2 minutes (11D)");
  d = move_press(&v, ARB_WHITE, "e1d2"); /* illegal again: the rook is there... e1xd2 captures */
  cr_assert(v.dm.made_legal, "Kxd2 is legal");
  d = move_press(&v, ARB_BLACK, "e8e7");
  d = move_press(&v, ARB_WHITE, "d2d3");
  d = move_press(&v, ARB_BLACK, "e7e8");
  /* a second illegal move: a penalty again, never a forfeit outside blitz */
  d = move_press(&v, ARB_WHITE, "d3d5");
  d = claim(&v, ARB_BLACK, ARB_OTB_M_ILLEGAL_MOVE, 0);
  cr_assert_eq(d->claim_valid, 1);
  cr_assert(!d->over);
  cr_assert_eq(d->illegal_count[ARB_WHITE], 2);
  arb_otb_free(v.o);
}

Test(otb, uscf_illegal_found_after_ten_moves_stands) {
  /* the schematic case OTB-I17: an illegal move at ply 1, found after more than ten moves */
  drv v;
  drv_start(&v, NULL, ARB_OTB_USCF, ARB_OTB_SUP_DEFAULT, NULL, 0);
  move_press(&v, ARB_WHITE, "e2e5"); /* a pawn jumping three squares */
  static const char *const shuffle[] = {"g8f6", "g1f3", "f6g8", "f3g1"};
  for (int i = 0; i < 22; i++)
    move_press(&v, i % 2 ? ARB_WHITE : ARB_BLACK, shuffle[i % 4]);
  const arb_otb_decision *d = claim(&v, ARB_BLACK, ARB_OTB_M_ILLEGAL_MOVE, 1);
  cr_assert(d->stands, "older than ten moves: it stands (11B)");
  cr_assert(!d->restored);
  /* the same within ten moves is reinstated */
  arb_otb_free(v.o);
  drv_start(&v, NULL, ARB_OTB_USCF, ARB_OTB_SUP_DEFAULT, NULL, 0);
  move_press(&v, ARB_WHITE, "e2e5");
  for (int i = 0; i < 6; i++)
    move_press(&v, i % 2 ? ARB_WHITE : ARB_BLACK, shuffle[i % 4]);
  d = claim(&v, ARB_BLACK, ARB_OTB_M_ILLEGAL_MOVE, 1);
  cr_assert(d->restored);
  cr_assert_str_eq(d->restore_fen, ARB_FEN_START);
  cr_assert_eq(d->annulled_count, 7);
  cr_assert_eq(d->time_added_s[ARB_BLACK], 0, "the claimant had completed his next move");
  arb_otb_free(v.o);
}

Test(otb, quickplay_no_normal_means_needs_the_arbiter) {
  /* the schematic case OTB-C07 with the clock really under two minutes */
  drv v;
  v.o = arb_otb_new();
  arb_time_control tc;
  cr_assert_eq(arb_tc_parse("3600", 4, ARB_TC_PGN, &tc, NULL), ARB_OK);
  arb_otb_setup s = ARB_OTB_SETUP_INIT;
  s.control = &tc;
  s.guidelines_iii = 1;
  arb_otb_event ev = ARB_OTB_EVENT_INIT(ARB_OTB_START, 0);
  ev.setup = &s;
  cr_assert_eq(arb_otb_event_apply(v.o, &ev, &v.d), ARB_OK);
  v.t = 0;
  const arb_otb_decision *d = claim(&v, ARB_WHITE, ARB_OTB_M_NO_NORMAL_MEANS, 0);
  cr_assert_neq(d->status, ARB_OK, "with an hour left the claim is not allowed");
  v.t = 3600000 - 90000; /* 1:30 left */
  d = claim(&v, ARB_WHITE, ARB_OTB_M_NO_NORMAL_MEANS, 0);
  cr_assert_eq(d->status, ARB_OK, "%s", d->message);
  cr_assert(d->needs & ARB_OTB_NEEDS_ARBITER);
  ev = (arb_otb_event)ARB_OTB_EVENT_INIT(ARB_OTB_ARBITER_RULES, v.t += 500);
  ev.ruling = ARB_OTB_R_REJECT;
  cr_assert_eq(arb_otb_event_apply(v.o, &ev, &v.d), ARB_OK);
  cr_assert_eq(v.d.time_added_s[ARB_BLACK], 120);
  arb_otb_free(v.o);
}

/* Blitz 3+2, White's rook against the bare king: Rh7 made at white_at, Kd8 at black_at (each
 * pressed half a second later) */
static const arb_otb_decision *rook_blitz(drv *v, int64_t white_at, int64_t black_at) {
  drv_start(v, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", ARB_OTB_FIDE_BLITZ, ARB_OTB_SUP_B3, "180+2", 0);
  v->t = white_at - 500;
  const arb_otb_decision *d = move_press(v, ARB_WHITE, "h1h7");
  cr_assert_eq(d->running, ARB_BLACK);
  v->t = black_at - 500;
  return move_press(v, ARB_BLACK, "e8d8");
}

Test(otb, flag_only_when_called) {
  drv v;
  /* Black's flag is long down at 400 s: an unclaimed flag does not stop play (6.8) */
  const arb_otb_decision *d = rook_blitz(&v, 170000, 400000);
  cr_assert(d->completed && !d->over);
  d = claim(&v, ARB_BLACK, ARB_OTB_M_FLAG, 0); /* Black claims White's flag: not down */
  cr_assert_eq(d->claim_valid, 0);
  v.t = 600000;
  /* Now White's is down too — but Black's fell first (at 350.5 s; White's, 180 - 170.5 + 2 =
   * 11.5 s left from 400.5 s, at 412 s): a clock knows the order, and the flag that fell first
   * decides (the referee's rule for both flags; Guidelines III.3.1 draws only when the order
   * cannot be told, and a FIDE-mode clock freezes the other side at the first flag).  White has
   * a rook: 1-0 on Black's flag. */
  d = claim(&v, ARB_BLACK, ARB_OTB_M_FLAG, 0);
  cr_assert_eq(d->claim_valid, 1);
  cr_assert(d->over);
  cr_assert_eq(d->outcome.termination, ARB_TERM_TIME_FORFEIT);
  cr_assert_eq(d->outcome.result, ARB_RESULT_WHITE_WINS);
  arb_otb_free(v.o);
}

Test(otb, every_answer_shows_the_clock_at_its_time) {
  /* a touch goes no further than the board and the hands, but its answer shows the clock at
   * the touch's time: 300 s, White's running from 0, touched at 10.5 s */
  drv v;
  drv_start(&v, NULL, ARB_OTB_FIDE, ARB_OTB_SUP_DEFAULT, "300", 0);
  v.t = 10000;
  const arb_otb_decision *d = ev_log(&v, ARB_OTB_TOUCH, ARB_WHITE, "e2");
  cr_assert_eq(d->remaining_ms[ARB_WHITE], 289500);
  cr_assert_eq(d->remaining_ms[ARB_BLACK], 300000);
  d = ev_log(&v, ARB_OTB_MOVE, ARB_WHITE, "e2e4"); /* made at 11 s, its press to come */
  cr_assert_eq(d->remaining_ms[ARB_WHITE], 289000);
  d = ev_log(&v, ARB_OTB_PRESS, ARB_WHITE, NULL); /* pressed at 11.5 s */
  cr_assert_eq(d->remaining_ms[ARB_WHITE], 288500);
  d = ev_log(&v, ARB_OTB_TOUCH, ARB_BLACK, "e7"); /* Black's clock from 11.5 s, at 12 s */
  cr_assert_eq(d->remaining_ms[ARB_BLACK], 299500);
  cr_assert_eq(d->remaining_ms[ARB_WHITE], 288500);
  arb_otb_free(v.o);
}

Test(otb, flag_claimed_draws_when_the_claimant_cannot_mate) {
  drv v;
  rook_blitz(&v, 1500, 2500);
  v.t =
      200000; /* White's flag is down, Black's is not: Black, with a bare king, cannot win (6.9) */
  const arb_otb_decision *d = claim(&v, ARB_BLACK, ARB_OTB_M_FLAG, 0);
  cr_assert_eq(d->claim_valid, 1);
  cr_assert_eq(d->outcome.termination, ARB_TERM_TIME_FORFEIT);
  cr_assert_eq(d->outcome.result, ARB_RESULT_DRAW);
  arb_otb_free(v.o);
}

Test(otb, flag_seen_in_an_untimed_game) {
  drv v;
  drv_start(&v, "4k3/8/8/8/8/8/8/4K2R w K - 0 1", ARB_OTB_FIDE, ARB_OTB_SUP_DEFAULT, NULL, 0);
  const arb_otb_decision *d = claim(&v, ARB_WHITE, ARB_OTB_M_FLAG, 0);
  cr_assert_eq(d->claim_valid, 0, "no flag shown: nothing to claim");
  cr_assert(!d->over);
  arb_otb_event ev = ARB_OTB_EVENT_INIT(ARB_OTB_FLAG_SHOWN, v.t += 100);
  ev.side = ARB_BLACK;
  cr_assert_eq(arb_otb_event_apply(v.o, &ev, &v.d), ARB_OK);
  d = claim(&v, ARB_WHITE, ARB_OTB_M_FLAG, 0);
  cr_assert_eq(d->claim_valid, 1);
  cr_assert_eq(d->outcome.termination, ARB_TERM_TIME_FORFEIT);
  cr_assert_eq(d->outcome.result, ARB_RESULT_WHITE_WINS);
  arb_otb_free(v.o);
}

Test(otb, casual_has_no_penalties_and_takebacks) {
  drv v;
  drv_start(&v, NULL, ARB_OTB_CASUAL, ARB_OTB_SUP_DEFAULT, NULL, 0);
  ev_log(&v, ARB_OTB_TOUCH, ARB_WHITE, "g1");
  const arb_otb_decision *d = move_press(&v, ARB_WHITE, "e2e4");
  cr_assert(!d->violation);
  d = move_press(&v, ARB_BLACK, "e8e6"); /* illegal: corrected without a penalty */
  cr_assert(d->restored);
  cr_assert_eq(d->time_added_s[ARB_WHITE], 0);
  cr_assert_eq(d->illegal_count[ARB_BLACK], 0);
  arb_otb_free(v.o);
}

/* ---- e-board property tests ---- */

static void placement_of(const arb_piece *b, char *out) {
  static const char letters[] = " pnbrqk";
  size_t n = 0;
  for (int rank = 7; rank >= 0; rank--) {
    int empty = 0;
    for (int file = 0; file < 8; file++) {
      arb_piece p = b[ARB_SQUARE(file, rank)];
      if (!p) {
        empty++;
        continue;
      }
      if (empty) out[n++] = (char)('0' + empty), empty = 0;
      char c = letters[ARB_PIECE_TYPE(p)];
      out[n++] = ARB_PIECE_COLOR(p) == ARB_WHITE ? (char)(c - 32) : c;
    }
    if (empty) out[n++] = (char)('0' + empty);
    if (rank) out[n++] = '/';
  }
  out[n] = 0;
}

static void snap(drv *v, const arb_piece *b, int64_t dt, int64_t stable) {
  char text[96];
  placement_of(b, text);
  v->t += dt;
  arb_otb_event ev = ARB_OTB_EVENT_INIT(ARB_OTB_BOARD, v->t);
  ev.text = text;
  ev.text_len = strlen(text);
  ev.source = ARB_OTB_SRC_EBOARD;
  ev.stable_ms = stable;
  cr_assert_eq(arb_otb_event_apply(v->o, &ev, &v->d), ARB_OK, "board %s: %s", text, v->d.message);
  cr_assert(!v->d.violation, "board %s: %s", text, arb_otb_violation_name(v->d.violation));
}

/* Emits the snapshots of one move: the piece lifted, a slide's squares, a capture in either
 * order, castling king first, the en passant pawn removed late.  Each change comes within the
 * debounce (30-200 ms) except the last one. */
static void snapshots_of_move(drv *v, const arb_position *p, arb_move m, uint64_t *seed) {
  arb_piece b[64];
  memcpy(b, p->board, sizeof b);
  arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
  arb_piece pc = b[from];
  int64_t quick = 30 + (int64_t)(test_rand(seed) % 170);
  arb_position after = *p;
  arb_undo u;
  arb_make_move(&after, m, &u);
  unsigned kind = ARB_MOVE_KIND(m);
  if (kind == ARB_MOVE_CASTLING) {
    arb_square kto = ARB_SQUARE(ARB_FILE_OF(to) > ARB_FILE_OF(from) ? 6 : 2, ARB_RANK_OF(from));
    b[from] = 0;
    snap(v, b, quick, 0);
    b[kto] = pc;
    snap(v, b, 30 + (int64_t)(test_rand(seed) % 170), 0);
  } else if (b[to] && test_rand(seed) % 2) { /* the captured piece first */
    b[to] = 0;
    snap(v, b, quick, 0);
    b[from] = 0;
    snap(v, b, 30 + (int64_t)(test_rand(seed) % 170), 0);
  } else {
    b[from] = 0;
    snap(v, b, quick, 0);
    int t = ARB_PIECE_TYPE(pc);
    if ((t == ARB_BISHOP || t == ARB_ROOK || t == ARB_QUEEN) && test_rand(seed) % 2) {
      /* a slide: the piece touches the squares between */
      int df = (ARB_FILE_OF(to) > ARB_FILE_OF(from)) - (ARB_FILE_OF(to) < ARB_FILE_OF(from));
      int dr = (ARB_RANK_OF(to) > ARB_RANK_OF(from)) - (ARB_RANK_OF(to) < ARB_RANK_OF(from));
      int f = ARB_FILE_OF(from) + df, r = ARB_RANK_OF(from) + dr;
      while (ARB_SQUARE(f, r) != to) {
        arb_square s = ARB_SQUARE(f, r);
        b[s] = pc;
        snap(v, b, 30 + (int64_t)(test_rand(seed) % 120), 0);
        b[s] = 0;
        f += df, r += dr;
      }
    }
    if (kind == ARB_MOVE_EN_PASSANT && test_rand(seed) % 2) {
      b[to] = pc; /* the pawn is there, the captured one not yet removed */
      snap(v, b, 30 + (int64_t)(test_rand(seed) % 170), 0);
    }
  }
  /* the final placement: stable for a while, or pressed at once (a move that ends the game
   * is completed without a press) */
  int64_t rest = test_rand(seed) % 3 == 0 ? 10 + (int64_t)(test_rand(seed) % 100)
                                          : 300 + (int64_t)(test_rand(seed) % 3000);
  snap(v, after.board, 30 + (int64_t)(test_rand(seed) % 170), 0);
  if (test_rand(seed) % 4 == 0) snap(v, after.board, rest / 2, rest / 2); /* a repeated frame */
  if (v->d.over) return;
  v->t += rest;
  arb_otb_event ev = ARB_OTB_EVENT_INIT(ARB_OTB_PRESS, v->t);
  ev.by = (int8_t)p->turn;
  ev.source = ARB_OTB_SRC_CLOCK;
  cr_assert_eq(arb_otb_event_apply(v->o, &ev, &v->d), ARB_OK, "%s", v->d.message);
  char uci[8];
  arb_uci_write(p, m, uci, sizeof uci);
  cr_assert(v->d.completed, "the press completes %s (%s) in %s: %s %s", uci,
            arb_otb_violation_name(v->d.violation), v->d.fen, v->d.message, v->d.made_uci);
  cr_assert(!v->d.violation, "%s: %s (%s)", uci, arb_otb_violation_name(v->d.violation),
            v->d.article);
}

static int random_game(const arb_position *start, uint64_t *seed, arb_move *moves, int max) {
  arb_game *g = arb_game_new(start, ARB_RULES_FIDE);
  int n = 0;
  while (n < max && arb_game_outcome(g).result == ARB_RESULT_NONE) {
    arb_move legal[ARB_MAX_MOVES];
    int k = arb_generate_legal(arb_game_position(g), legal);
    if (!k) break;
    moves[n] = legal[test_rand(seed) % (uint64_t)k];
    arb_game_play(g, moves[n++]);
  }
  arb_game_free(g);
  return n;
}

Test(otb, eboard_snapshot_stream_reproduces_the_game) {
  uint64_t seed = 20261201;
  int games = 0, plies = 0;
  for (int gi = 0; gi < 500; gi++) {
    const char *fen = test_starts[gi % 7]; /* the standard-chess starts */
    arb_position start = test_fen(fen);
    arb_move moves[80];
    int n = random_game(&start, &seed, moves, 80);
    drv v;
    drv_start(&v, fen, ARB_OTB_FIDE, ARB_OTB_SUP_DEFAULT, NULL, ARB_OTB_BOARD_IDENTITY);
    arb_position p = start;
    for (int i = 0; i < n; i++) {
      snapshots_of_move(&v, &p, moves[i], &seed);
      arb_undo u;
      arb_make_move(&p, moves[i], &u);
      if (v.d.over) {
        n = i + 1;
        break;
      }
    }
    cr_assert_eq(arb_otb_record_count(v.o), (uint32_t)n, "game %d", gi);
    arb_position q = start;
    for (int i = 0; i < n; i++) {
      arb_otb_record_entry e;
      arb_otb_record_at(v.o, (uint32_t)i, &e);
      char uci[8];
      arb_uci_write(&q, moves[i], uci, sizeof uci);
      cr_assert(e.legal && !e.annulled, "game %d ply %d", gi, i + 1);
      cr_assert_str_eq(e.uci, uci, "game %d ply %d", gi, i + 1);
      arb_undo u;
      arb_make_move(&q, moves[i], &u);
    }
    char fen_end[ARB_FEN_MAX];
    arb_fen_write(&q, fen_end, sizeof fen_end, 0);
    cr_assert_str_eq(v.d.fen, fen_end, "game %d", gi);
    games++;
    plies += n;
    arb_otb_free(v.o);
  }
  cr_log_info("%d games, %d plies reproduced from snapshots", games, plies);
}

/* The lift/place stream of a presence-only board: pieces followed from square to square, the
 * promotion piece named. */
Test(otb, presence_board_lift_place_stream_reproduces_the_game) {
  uint64_t seed = 7;
  for (int gi = 0; gi < 200; gi++) {
    const char *fen = test_starts[gi % 7];
    arb_position start = test_fen(fen);
    arb_move moves[80];
    int n = random_game(&start, &seed, moves, 80);
    drv v;
    drv_start(&v, fen, ARB_OTB_FIDE, ARB_OTB_SUP_DEFAULT, NULL, ARB_OTB_BOARD_PRESENCE);
    arb_position p = start;
    for (int i = 0; i < n && !v.d.over; i++) {
      arb_move m = moves[i];
      arb_square from = ARB_MOVE_FROM(m), to = ARB_MOVE_TO(m);
      unsigned kind = ARB_MOVE_KIND(m);
      arb_otb_event ev;
#define EMIT(k, s)                                                                                 \
  do {                                                                                             \
    ev = (arb_otb_event)ARB_OTB_EVENT_INIT(k, v.t += 40 + (int64_t)(test_rand(&seed) % 100));      \
    ev.squares[0] = (s);                                                                           \
    ev.square_count = 1;                                                                           \
    ev.source = ARB_OTB_SRC_EBOARD;                                                                \
    cr_assert_eq(arb_otb_event_apply(v.o, &ev, &v.d), ARB_OK, "%s", v.d.message);                  \
  } while (0)
      if (kind == ARB_MOVE_CASTLING) {
        int h = ARB_FILE_OF(to) > ARB_FILE_OF(from);
        arb_square kto = ARB_SQUARE(h ? 6 : 2, ARB_RANK_OF(from)),
                   rto = ARB_SQUARE(h ? 5 : 3, ARB_RANK_OF(from));
        EMIT(ARB_OTB_LIFT, from);
        EMIT(ARB_OTB_PLACE, kto);
        EMIT(ARB_OTB_LIFT, to);
        EMIT(ARB_OTB_PLACE, rto);
      } else {
        arb_square cap = kind == ARB_MOVE_EN_PASSANT
                             ? ARB_SQUARE(ARB_FILE_OF(to), ARB_RANK_OF(from))
                         : p.board[to] ? to
                                       : ARB_NO_SQUARE;
        int first = test_rand(&seed) % 2;
        if (cap != ARB_NO_SQUARE && first) EMIT(ARB_OTB_LIFT, cap);
        EMIT(ARB_OTB_LIFT, from);
        if (cap != ARB_NO_SQUARE && !first) EMIT(ARB_OTB_LIFT, cap);
        EMIT(ARB_OTB_PLACE, to);
        if (kind == ARB_MOVE_PROMOTION) {
          ev = (arb_otb_event)ARB_OTB_EVENT_INIT(ARB_OTB_PROMOTE_CHOICE, v.t += 50);
          ev.by = (int8_t)p.turn;
          ev.piece = ARB_MAKE_PIECE(p.turn, ARB_MOVE_PROMO(m));
          cr_assert_eq(arb_otb_event_apply(v.o, &ev, &v.d), ARB_OK, "%s", v.d.message);
        }
      }
#undef EMIT
      ev = (arb_otb_event)ARB_OTB_EVENT_INIT(ARB_OTB_PRESS, v.t += 100);
      ev.by = (int8_t)p.turn;
      cr_assert_eq(arb_otb_event_apply(v.o, &ev, &v.d), ARB_OK, "%s", v.d.message);
      char uci[8];
      arb_uci_write(&p, m, uci, sizeof uci);
      cr_assert(v.d.completed, "game %d ply %d: %s not completed", gi, i + 1, uci);
      cr_assert(!v.d.violation, "game %d ply %d %s: %s", gi, i + 1, uci,
                arb_otb_violation_name(v.d.violation));
      arb_otb_record_entry e;
      arb_otb_record_at(v.o, (uint32_t)i, &e);
      cr_assert_str_eq(e.uci, uci, "game %d ply %d", gi, i + 1);
      arb_undo u;
      arb_make_move(&p, m, &u);
    }
    arb_otb_free(v.o);
  }
}

/* A released move changed on the board is a violation under FIDE, a takeback when casual. */
Test(otb, eboard_return_to_earlier_position) {
  for (int casual = 0; casual < 2; casual++) {
    drv v;
    drv_start(&v, NULL, casual ? ARB_OTB_CASUAL : ARB_OTB_FIDE, ARB_OTB_SUP_DEFAULT, NULL,
              ARB_OTB_BOARD_IDENTITY);
    arb_position p = test_fen(ARB_FEN_START), a = p;
    test_play(&a, "e2e4");
    arb_piece b[64];
    memcpy(b, p.board, sizeof b);
    b[sq_of("e2")] = 0;
    snap(&v, b, 100, 0);
    snap(&v, a.board, 100, 0);
    snap(&v, a.board, 1000, 900); /* released */
    cr_assert(v.d.made, "e4 made");
    v.t += 500;
    arb_otb_event ev = ARB_OTB_EVENT_INIT(ARB_OTB_BOARD, v.t);
    char text[96];
    placement_of(p.board, text);
    ev.text = text;
    ev.text_len = strlen(text);
    ev.stable_ms = 400;
    cr_assert_eq(arb_otb_event_apply(v.o, &ev, &v.d), ARB_OK);
    if (casual) {
      cr_assert(v.d.takeback);
      cr_assert_str_eq(v.d.fen, ARB_FEN_START);
    } else {
      cr_assert_eq(v.d.violation, ARB_OTB_V_RELEASED_MOVE_CHANGED);
      cr_assert(v.d.needs_confirmation);
      cr_assert_str_neq(v.d.fen, ARB_FEN_START);
    }
    arb_otb_free(v.o);
  }
}

Test(otb, bad_events_are_refused_not_fatal) {
  arb_otb *o = arb_otb_new();
  arb_otb_decision d;
  arb_otb_event ev = ARB_OTB_EVENT_INIT(ARB_OTB_PRESS, 10);
  cr_assert_neq(arb_otb_event_apply(o, &ev, &d), ARB_OK, "no game yet");
  ev = (arb_otb_event)ARB_OTB_EVENT_INIT(ARB_OTB_START, 0);
  cr_assert_eq(arb_otb_event_apply(o, &ev, &d), ARB_OK);
  ev = (arb_otb_event)ARB_OTB_EVENT_INIT(ARB_OTB_BOARD, 100);
  ev.text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN";
  ev.text_len = strlen(ev.text);
  cr_assert_eq(arb_otb_event_apply(o, &ev, &d), ARB_ERR_FEN_SYNTAX);
  cr_assert(strstr(d.message, "column"), "%s", d.message);
  cr_assert_str_eq(d.fen, ARB_FEN_START, "nothing changed");
  ev = (arb_otb_event)ARB_OTB_EVENT_INIT(ARB_OTB_MOVE, 150);
  ev.text = "e2e4";
  ev.text_len = 4;
  cr_assert_eq(arb_otb_event_apply(o, &ev, &d), ARB_OK);
  ev.t = 40;
  cr_assert_eq(arb_otb_event_apply(o, &ev, &d), ARB_ERR_TIME_BACKWARDS);
  ev.kind = (arb_otb_kind)99;
  cr_assert_neq(arb_otb_event_apply(o, &ev, &d), ARB_OK);
  arb_otb_free(o);
  arb_otb_free(NULL);
}

static void field(drv *v, arb_otb_kind kind, const char *sq, arb_piece piece, int64_t dt) {
  arb_otb_event ev = ARB_OTB_EVENT_INIT(kind, v->t += dt);
  ev.squares[0] = sq_of(sq);
  ev.square_count = 1;
  ev.piece = piece;
  ev.source = ARB_OTB_SRC_EBOARD;
  cr_assert_eq(arb_otb_event_apply(v->o, &ev, &v->d), ARB_OK, "%s %s: %s", arb_otb_kind_name(kind),
               sq, v->d.message);
}

/* An opponent's piece that vanishes is a misread or a displacement (7.4), never part of an
 * illegal move (OTB.md, E06/C10). */
Test(otb, eboard_vanished_opponent_piece_is_a_misread) {
  drv v;
  drv_start(&v, NULL, ARB_OTB_FIDE, ARB_OTB_SUP_DEFAULT, NULL, ARB_OTB_BOARD_IDENTITY);
  field(&v, ARB_OTB_LIFT, "h7", 0, 500); /* a black pawn's sensor drops out */
  field(&v, ARB_OTB_LIFT, "e2", 0, 500);
  field(&v, ARB_OTB_PLACE, "e4", ARB_MAKE_PIECE(ARB_WHITE, ARB_PAWN), 200);
  cr_assert(v.d.warnings & ARB_OTB_WARN_SENSOR_MISREAD);
  const arb_otb_decision *d = ev_log(&v, ARB_OTB_PRESS, ARB_WHITE, NULL);
  cr_assert(d->completed, "%s", arb_otb_violation_name(d->violation));
  cr_assert(!d->violation && !d->illegal_count[ARB_WHITE]);
  cr_assert_str_eq(d->fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  arb_otb_free(v.o);
}

/* A reply that starts inside the debounce: the opponent's first lift releases the move
 * (picochess #267). */
Test(otb, eboard_quick_reply_is_not_lost) {
  drv v;
  drv_start(&v, NULL, ARB_OTB_FIDE, ARB_OTB_SUP_DEFAULT, NULL, ARB_OTB_BOARD_IDENTITY);
  field(&v, ARB_OTB_LIFT, "e2", 0, 500);
  field(&v, ARB_OTB_PLACE, "e4", ARB_MAKE_PIECE(ARB_WHITE, ARB_PAWN), 100);
  field(&v, ARB_OTB_LIFT, "e7", 0, 60); /* Black starts before White pressed, within 60 ms */
  cr_assert(v.d.made, "e4 released by Black's first lift");
  cr_assert_eq(v.d.having_move, ARB_BLACK);
  cr_assert(v.d.obligation.must_move == ((arb_bitboard)1 << sq_of("e7")));
  field(&v, ARB_OTB_PLACE, "e5", ARB_MAKE_PIECE(ARB_BLACK, ARB_PAWN), 80);
  ev_log(&v, ARB_OTB_PRESS, ARB_WHITE, NULL); /* White's press after Black replied (6.2.2) */
  const arb_otb_decision *d = ev_log(&v, ARB_OTB_PRESS, ARB_BLACK, NULL);
  cr_assert(d->completed && !d->violation);
  cr_assert_eq(arb_otb_record_count(v.o), 2);
  cr_assert_str_eq(d->fen, "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  arb_otb_free(v.o);
}

/* Both kings on the centre squares signal a result; they are never read as a move. */
Test(otb, eboard_result_gesture) {
  drv v;
  drv_start(&v, "4k3/p7/8/8/8/8/P7/4K3 w - - 0 1", ARB_OTB_CASUAL, ARB_OTB_SUP_DEFAULT, NULL,
            ARB_OTB_BOARD_IDENTITY);
  field(&v, ARB_OTB_LIFT, "e1", 0, 500);
  field(&v, ARB_OTB_PLACE, "e4", ARB_MAKE_PIECE(ARB_WHITE, ARB_KING), 100); /* light */
  field(&v, ARB_OTB_LIFT, "e8", 0, 100);
  field(&v, ARB_OTB_PLACE, "d5", ARB_MAKE_PIECE(ARB_BLACK, ARB_KING), 100); /* light */
  cr_assert(v.d.warnings & ARB_OTB_WARN_RESULT_GESTURE);
  cr_assert_eq(v.d.signal, ARB_RESULT_WHITE_WINS);
  cr_assert_eq(arb_otb_record_count(v.o), 0, "no move read");
  arb_otb_free(v.o);
}

/* 4.4.4: the first piece put on the promotion square is the choice (identity boards). */
Test(otb, promotion_choice_is_final_once_on_the_square) {
  for (int uscf = 0; uscf < 2; uscf++) {
    drv v;
    drv_start(&v, "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", uscf ? ARB_OTB_USCF : ARB_OTB_FIDE,
              ARB_OTB_SUP_DEFAULT, NULL, ARB_OTB_BOARD_IDENTITY);
    field(&v, ARB_OTB_LIFT, "e7", 0, 500);
    field(&v, ARB_OTB_PLACE, "e8", ARB_MAKE_PIECE(ARB_WHITE, ARB_ROOK), 200);
    field(&v, ARB_OTB_LIFT, "e8", 0, 100);
    field(&v, ARB_OTB_PLACE, "e8", ARB_MAKE_PIECE(ARB_WHITE, ARB_QUEEN), 100);
    const arb_otb_decision *d = ev_log(&v, ARB_OTB_PRESS, ARB_WHITE, NULL);
    if (uscf) { /* 9D: decided on release */
      cr_assert(!d->violation);
      cr_assert_str_eq(d->fen, "4Q3/8/8/8/8/8/k7/4K3 b - - 0 1");
    } else {
      cr_assert_eq(d->violation, ARB_OTB_V_PROMOTION_CHOICE_CHANGED);
      cr_assert_str_eq(d->fen, "4R3/8/8/8/8/8/k7/4K3 b - - 0 1");
    }
    arb_otb_free(v.o);
  }
}

/* 7.4 and the quick reply (OTB-G09, decided otherwise): the black f6 knight leaves its square
 * 50 ms after White's knight was put on g5.  The board cannot tell a piece knocked over from
 * Black's first lift; an opponent's lift releases the move, so Ng5 is made and completed
 * without a violation, and the lift is Black's touch, which binds him only on confirmation. */
Test(otb, opponent_piece_gone_after_the_placement_is_the_quick_reply) {
  drv v;
  drv_start(&v, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", ARB_OTB_FIDE,
            ARB_OTB_SUP_DEFAULT, NULL, ARB_OTB_BOARD_IDENTITY);
  field(&v, ARB_OTB_LIFT, "f3", 0, 500);
  field(&v, ARB_OTB_PLACE, "g5", ARB_MAKE_PIECE(ARB_WHITE, ARB_KNIGHT), 300);
  field(&v, ARB_OTB_LIFT, "f6", 0, 50);
  cr_assert(v.d.made && !strcmp(v.d.made_uci, "f3g5"), "the placement released: %s", v.d.made_uci);
  cr_assert(v.d.needs_confirmation, "Black's lift binds only on confirmation");
  cr_assert(v.d.obligation.must_move == ((arb_bitboard)1 << sq_of("f6")));
  const arb_otb_decision *d = ev_log(&v, ARB_OTB_PRESS, ARB_WHITE, NULL);
  cr_assert(d->completed && !d->violation && !d->time_added_s[0] && !d->time_added_s[1]);
  arb_otb_free(v.o);
}

/* 7.4: the same knight knocked over, seen in the snapshot the press comes with (a board polled
 * in snapshots: nothing released the move before) — the move stands, piece_displaced. */
Test(otb, opponent_piece_knocked_over_in_the_pressed_snapshot) {
  drv v;
  drv_start(&v, "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4", ARB_OTB_FIDE,
            ARB_OTB_SUP_DEFAULT, NULL, ARB_OTB_BOARD_IDENTITY);
  arb_otb_event ev = ARB_OTB_EVENT_INIT(ARB_OTB_BOARD, v.t += 1000);
  static const char placement[] = "r1bqkb1r/pppp1ppp/2n5/4p1N1/2B1P3/8/PPPP1PPP/RNBQK2R";
  ev.text = placement;
  ev.text_len = strlen(placement);
  ev.source = ARB_OTB_SRC_EBOARD;
  cr_assert_eq(arb_otb_event_apply(v.o, &ev, &v.d), ARB_OK, "%s", v.d.message);
  cr_assert(v.d.warnings & ARB_OTB_WARN_DISPLACED);
  const arb_otb_decision *d = ev_log(&v, ARB_OTB_PRESS, ARB_WHITE, NULL);
  cr_assert(d->completed && !d->violation, "%s", arb_otb_violation_name(d->violation));
  cr_assert_str_eq(d->fen, "r1bqkb1r/pppp1ppp/2n2n2/4p1N1/2B1P3/8/PPPP1PPP/RNBQK2R b KQkq - 5 4");
  arb_otb_free(v.o);
}
