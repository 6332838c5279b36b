/* Arbiter — MIT licence, see LICENSE.
 *
 * test_game.c: the game layer — repetitions (against an independent counter), the move-count
 * rules, endings, offers, claims, resignation and rule sets; the procedure cases of the rules
 * catalogue (P09, P11, P13, P14, P15).
 */
#include <stdio.h>
#include <stdlib.h>

#include "refute.h"
#include "test_util.h"

static arb_game *game_from(const char *fen, const char *moves, arb_ruleset rules) {
  arb_position p = test_fen(fen);
  arb_game *g = arb_game_new(&p, rules);
  cr_assert_not_null(g);
  char buf[4096];
  snprintf(buf, sizeof buf, "%s", moves);
  for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
    arb_status st = arb_game_play_text(g, t, strlen(t), NULL);
    cr_assert_eq(st, ARB_OK, "%s: %s", t, arb_strerror(st));
  }
  return g;
}

static const char *result_of(const arb_game *g) {
  return arb_result_string(arb_game_outcome(g).result);
}

/* ---- the procedure cases of the catalogue ---- */

Test(game, P09_incorrect_claim_penalty) {
  arb_game *g = game_from(ARB_FEN_START, "g1f3 g8f6 f3g1", ARB_RULES_FIDE);
  arb_claim_verdict v;
  arb_move m = test_uci(arb_game_position(g), "f6g8");
  cr_assert_eq(arb_game_claim(g, ARB_BLACK, ARB_CLAIM_THREEFOLD, m, &v), ARB_OK);
  cr_assert_eq(v.correct, 0, "the start position would only occur for the 2nd time");
  cr_assert_eq(v.penalty_s, 120);
  cr_assert_eq(v.must_play, 1);
  cr_assert_str_eq(result_of(g), "*");
  /* black must now play the written move */
  arb_move other = test_uci(arb_game_position(g), "b8c6");
  cr_assert_eq(arb_game_play(g, other), ARB_ERR_MUST_PLAY);
  cr_assert_eq(arb_game_play(g, m), ARB_OK);
  arb_game_free(g);
  /* rapid and blitz: one minute (A.3) */
  g = game_from(ARB_FEN_START, "g1f3 g8f6 f3g1", ARB_RULES_FIDE_BLITZ);
  cr_assert_eq(
      arb_game_claim(g, ARB_BLACK, ARB_CLAIM_THREEFOLD, test_uci(arb_game_position(g), "f6g8"), &v),
      ARB_OK);
  cr_assert_eq(v.penalty_s, 60);
  arb_game_free(g);
}

Test(game, P11_claim_is_draw_offer) {
  arb_game *g = game_from(ARB_FEN_START, "e2e4 e7e5", ARB_RULES_FIDE);
  arb_claim_verdict v;
  cr_assert_eq(arb_game_claim(g, ARB_WHITE, ARB_CLAIM_FIFTY, ARB_MOVE_NONE, &v), ARB_OK);
  cr_assert_eq(v.correct, 0);
  cr_assert_eq(v.became_offer, 1);
  cr_assert_eq(arb_game_draw_offer(g), ARB_WHITE);
  cr_assert_eq(arb_game_accept_draw(g, ARB_BLACK), ARB_OK);
  cr_assert_str_eq(result_of(g), "1/2-1/2");
  cr_assert_eq(arb_game_outcome(g).termination, ARB_TERM_AGREEMENT);
  arb_game_free(g);
}

Test(game, P13_offer_cannot_be_withdrawn_and_lapses) {
  arb_game *g = game_from(ARB_FEN_START, "e2e4 e7e5", ARB_RULES_FIDE);
  cr_assert_eq(arb_game_offer_draw(g, ARB_WHITE), ARB_OK);
  /* there is no withdrawal; the offering side's own move keeps it open */
  cr_assert_eq(arb_game_play_text(g, "Nf3", 3, NULL), ARB_OK);
  cr_assert_eq(arb_game_draw_offer(g), ARB_WHITE);
  cr_assert_eq(arb_game_accept_draw(g, ARB_BLACK), ARB_OK);
  cr_assert_str_eq(result_of(g), "1/2-1/2");
  arb_game_free(g);
  /* the opponent's move ends it */
  g = game_from(ARB_FEN_START, "e2e4 e7e5 g1f3", ARB_RULES_FIDE);
  cr_assert_eq(arb_game_offer_draw(g, ARB_WHITE), ARB_OK);
  cr_assert_eq(arb_game_play_text(g, "Nc6", 3, NULL), ARB_OK);
  cr_assert_eq(arb_game_draw_offer(g), -1);
  cr_assert_eq(arb_game_accept_draw(g, ARB_BLACK), ARB_ERR_NO_OFFER);
  /* nor can one accept one's own offer, or decline what was not offered */
  cr_assert_eq(arb_game_offer_draw(g, ARB_WHITE), ARB_OK);
  cr_assert_eq(arb_game_accept_draw(g, ARB_WHITE), ARB_ERR_NO_OFFER);
  cr_assert_eq(arb_game_decline_draw(g, ARB_WHITE), ARB_ERR_NO_OFFER);
  cr_assert_eq(arb_game_decline_draw(g, ARB_BLACK), ARB_OK);
  cr_assert_eq(arb_game_draw_offer(g), -1);
  arb_game_free(g);
}

Test(game, P14_agreement_needs_a_move_each) {
  arb_game *g =
      game_from("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "", ARB_RULES_FIDE);
  cr_assert_eq(arb_game_offer_draw(g, ARB_WHITE), ARB_OK);
  cr_assert_eq(arb_game_accept_draw(g, ARB_BLACK), ARB_ERR_NOT_ALLOWED);
  cr_assert_str_eq(result_of(g), "*");
  arb_game_free(g);
  /* an event rule: no agreed draw before move 30 (FIDE 9.1.1) */
  g = game_from(ARB_FEN_START, "e2e4 e7e5", ARB_RULES_FIDE);
  arb_game_set_no_draw_before(g, 30);
  cr_assert_eq(arb_game_offer_draw(g, ARB_WHITE), ARB_OK);
  cr_assert_eq(arb_game_accept_draw(g, ARB_BLACK), ARB_ERR_NOT_ALLOWED);
  arb_game_free(g);
}

Test(game, P15_resign_when_opponent_cannot_mate) {
  const char *fen = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1";
  arb_game *g = game_from(fen, "", ARB_RULES_FIDE);
  cr_assert_eq(arb_game_resign(g, ARB_WHITE), ARB_OK);
  cr_assert_str_eq(result_of(g), "1/2-1/2", "FIDE 5.1.2: a lone king cannot mate");
  cr_assert_eq(arb_game_outcome(g).termination, ARB_TERM_RESIGNATION);
  arb_game_free(g);
  g = game_from(fen, "", ARB_RULES_ONLINE);
  cr_assert_eq(arb_game_resign(g, ARB_WHITE), ARB_OK);
  cr_assert_str_eq(result_of(g), "0-1", "lichess awards the win regardless");
  arb_game_free(g);
  /* the ordinary case, and resigning out of turn */
  g = game_from(ARB_FEN_START, "e2e4", ARB_RULES_FIDE);
  cr_assert_eq(arb_game_resign(g, ARB_WHITE), ARB_OK);
  cr_assert_str_eq(result_of(g), "0-1");
  cr_assert_eq(arb_game_resign(g, ARB_BLACK), ARB_ERR_GAME_OVER);
  arb_game_free(g);
}

/* ---- rule sets ---- */

Test(game, rule_sets_differ_as_tabled) {
  /* G03: 50 moves reached — a claim under FIDE, automatic online */
  const char *fen = "8/8/8/4k3/8/8/7P/R3K3 w - - 99 80";
  arb_game *g = game_from(fen, "a1a2", ARB_RULES_FIDE);
  cr_assert_str_eq(result_of(g), "*");
  arb_claim_verdict v;
  cr_assert_eq(arb_game_claim(g, ARB_WHITE, ARB_CLAIM_FIFTY, ARB_MOVE_NONE, &v),
               ARB_ERR_NOT_YOUR_TURN, "only the side to move claims");
  cr_assert_eq(arb_game_claim(g, ARB_BLACK, ARB_CLAIM_FIFTY, ARB_MOVE_NONE, &v), ARB_OK);
  cr_assert(v.correct);
  cr_assert_eq(arb_game_outcome(g).termination, ARB_TERM_FIFTY_MOVES);
  cr_assert_eq(arb_game_outcome(g).automatic, 0);
  arb_game_free(g);
  g = game_from(fen, "a1a2", ARB_RULES_ONLINE);
  cr_assert_str_eq(result_of(g), "1/2-1/2");
  cr_assert_eq(arb_game_outcome(g).termination, ARB_TERM_FIFTY_MOVES);
  cr_assert_eq(arb_game_outcome(g).automatic, 1);
  arb_game_free(g);
  /* G05: 75 moves — automatic under FIDE, only reported under US Chess */
  fen = "8/8/8/4k3/8/8/7P/R3K3 w - - 149 120";
  g = game_from(fen, "a1a2", ARB_RULES_FIDE);
  cr_assert_eq(arb_game_outcome(g).termination, ARB_TERM_SEVENTYFIVE_MOVES);
  arb_game_free(g);
  g = game_from(fen, "a1a2", ARB_RULES_USCF);
  cr_assert_str_eq(result_of(g), "*");
  arb_game_facts f;
  arb_game_facts_of(g, &f);
  cr_assert(f.seventyfive, "reported for the director");
  arb_game_free(g);
  /* online: no claims at all */
  g = game_from(ARB_FEN_START, "e2e4", ARB_RULES_ONLINE);
  cr_assert_eq(arb_game_claim(g, ARB_BLACK, ARB_CLAIM_THREEFOLD, ARB_MOVE_NONE, &v),
               ARB_ERR_NOT_ALLOWED);
  arb_game_free(g);
  /* names */
  for (int r = 0; r < ARB_RULES_COUNT; r++) {
    arb_ruleset back;
    cr_assert_eq(arb_rules_parse(arb_rules_get((arb_ruleset)r)->name, &back), ARB_OK);
    cr_assert_eq((int)back, r);
  }
  arb_ruleset dummy;
  cr_assert_eq(arb_rules_parse("fischer", &dummy), ARB_ERR_ARGUMENT);
}

Test(game, mate_on_the_150th_ply_wins) {
  arb_game *g = game_from("k7/8/1K6/8/8/8/8/7R w - - 149 120", "h1h8", ARB_RULES_FIDE);
  cr_assert_str_eq(result_of(g), "1-0");
  cr_assert_eq(arb_game_outcome(g).termination, ARB_TERM_CHECKMATE);
  arb_game_free(g);
  /* and online, mate on the 100th ply beats the automatic 50-move draw */
  g = game_from("k7/8/1K6/8/8/8/8/7R w - - 99 80", "h1h8", ARB_RULES_ONLINE);
  cr_assert_str_eq(result_of(g), "1-0");
  arb_game_free(g);
}

Test(game, undo_and_history) {
  arb_game *g = game_from(ARB_FEN_START, "e4 e5 Nf3 Nc6 Bb5", ARB_RULES_FIDE);
  cr_assert_eq(arb_game_ply_count(g), 5);
  cr_assert_str_eq(arb_game_san_at(g, 5), "Bb5");
  cr_assert_str_eq(arb_game_san_at(g, 6), "");
  cr_assert_eq(arb_game_undo(g), ARB_OK);
  cr_assert_eq(arb_game_ply_count(g), 4);
  char fen[ARB_FEN_MAX];
  arb_fen_write(arb_game_position(g), fen, sizeof fen, 0);
  cr_assert_str_eq(fen, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
  /* undo after mate re-opens the game */
  arb_game_free(g);
  g = game_from(ARB_FEN_START, "f3 e5 g4 Qh4#", ARB_RULES_FIDE);
  cr_assert_str_eq(result_of(g), "0-1");
  cr_assert_eq(arb_game_play_text(g, "a3", 2, NULL), ARB_ERR_GAME_OVER);
  cr_assert_eq(arb_game_undo(g), ARB_OK);
  cr_assert_str_eq(result_of(g), "*");
  for (int i = 0; i < 3; i++)
    cr_assert_eq(arb_game_undo(g), ARB_OK);
  cr_assert_eq(arb_game_undo(g), ARB_ERR_ARGUMENT);
  arb_game_free(g);
}

/* ---- repetitions against an independent counter ---- */

/* The oracle: FIDE identity = the first four FEN fields as arb_fen_write prints them (en passant
 * only when legal).  Counted by comparing strings over the whole history, no keys. */
typedef struct oracle {
  char (*epd)[ARB_FEN_MAX];
  int n;
  int halfmove; /* counted from the moves: reset by captures and pawn moves */
} oracle;

static void oracle_push(oracle *o, const arb_position *p) {
  arb_fen_write(p, o->epd[o->n], ARB_FEN_MAX, ARB_FEN_OUT_EPD);
  o->n++;
}

static int oracle_reps(const oracle *o) {
  int c = 0;
  for (int i = 0; i < o->n; i++)
    c += strcmp(o->epd[i], o->epd[o->n - 1]) == 0;
  return c;
}

static void random_games(arb_ruleset rules, int games, uint64_t seed, int *max_reps_seen,
                         int *endings) {
  static const char *const starts[] = {
      "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1",  "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1",
      "4k3/8/3n4/8/8/4N3/8/4K3 w - - 0 1", "8/5k2/8/3p4/3P4/8/5K2/8 w - - 0 1",
      "4k3/pp6/8/8/8/8/6PP/4K3 w - - 0 1", ARB_FEN_START,
      "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"};
  oracle o;
  o.epd = malloc(sizeof *o.epd * 2000);
  cr_assert_not_null(o.epd);
  for (int gi = 0; gi < games; gi++) {
    arb_position start = test_fen(starts[gi % (int)(sizeof starts / sizeof starts[0])]);
    arb_game *g = arb_game_new(&start, rules);
    cr_assert_not_null(g);
    o.n = 0;
    o.halfmove = start.halfmove_clock;
    oracle_push(&o, &start);
    arb_move last[2] = {ARB_MOVE_NONE, ARB_MOVE_NONE};
    for (int ply = 0; ply < 1500 && arb_game_outcome(g).result == ARB_RESULT_NONE; ply++) {
      const arb_position *p = arb_game_position(g);
      arb_move moves[ARB_MAX_MOVES];
      int n = arb_generate_legal(p, moves);
      cr_assert_gt(n, 0, "no legal move but the game goes on");
      /* shuffle: often go back to where the piece came from, so positions repeat */
      arb_move m = moves[test_rand(&seed) % (uint64_t)n];
      if (last[1] != ARB_MOVE_NONE && test_rand(&seed) % 4 != 0) {
        arb_move back = ARB_MOVE_MAKE(ARB_MOVE_TO(last[1]), ARB_MOVE_FROM(last[1]));
        for (int i = 0; i < n; i++)
          if (moves[i] == back) m = back;
      }
      int irreversible = ARB_PIECE_TYPE(p->board[ARB_MOVE_FROM(m)]) == ARB_PAWN ||
                         (p->board[ARB_MOVE_TO(m)] && ARB_MOVE_KIND(m) != ARB_MOVE_CASTLING) ||
                         ARB_MOVE_KIND(m) == ARB_MOVE_EN_PASSANT;
      int predicted = arb_game_repetitions_after(g, m);
      char san[ARB_SAN_MAX];
      arb_san_write(p, m, san, sizeof san);
      cr_assert_eq(arb_game_play(g, m), ARB_OK);
      cr_assert_str_eq(arb_game_san_at(g, arb_game_ply_count(g)), san, "the game's SAN");
      last[1] = last[0];
      last[0] = m;
      o.halfmove = irreversible ? 0 : o.halfmove + 1;
      oracle_push(&o, arb_game_position(g));
      int reps = oracle_reps(&o);
      cr_assert_eq(arb_game_repetitions(g), reps, "game %d ply %d: %s", gi, ply, o.epd[o.n - 1]);
      cr_assert_eq(predicted, reps, "repetitions_after");
      cr_assert_eq(arb_game_position(g)->halfmove_clock, o.halfmove);
      if (reps > *max_reps_seen) *max_reps_seen = reps;
      /* the ending the rules demand, in the order of R21 */
      const arb_position *q = arb_game_position(g);
      arb_outcome out = arb_game_outcome(g);
      const arb_rules *r = arb_rules_get(rules);
      arb_termination want = ARB_TERM_NONE;
      int legal = arb_count_legal(q);
      if (!legal)
        want = arb_in_check(q) ? ARB_TERM_CHECKMATE : ARB_TERM_STALEMATE;
      else if (arb_is_insufficient_material(q))
        want = ARB_TERM_INSUFFICIENT_MATERIAL;
      else if (out.termination == ARB_TERM_DEAD_POSITION && forced_into_insufficient(q, 4))
        want = ARB_TERM_DEAD_POSITION; /* forced into a dead position, confirmed independently */
      else if (r->auto_fivefold && reps >= 5)
        want = ARB_TERM_FIVEFOLD_REPETITION;
      else if (r->auto_seventyfive && o.halfmove >= 150)
        want = ARB_TERM_SEVENTYFIVE_MOVES;
      else if (r->auto_threefold && reps >= 3)
        want = ARB_TERM_THREEFOLD_REPETITION;
      else if (r->auto_fifty && o.halfmove >= 100)
        want = ARB_TERM_FIFTY_MOVES;
      cr_assert_eq(out.termination, want, "game %d ply %d: termination %s, want %s", gi, ply,
                   arb_termination_name(out.termination), arb_termination_name(want));
      if (want != ARB_TERM_NONE) endings[want]++;
    }
    arb_game_free(g);
  }
  free(o.epd);
}

Test(game, repetitions_and_counts_match_an_independent_counter) {
  int max_reps = 0, endings[ARB_TERM_COUNT] = {0};
  random_games(ARB_RULES_FIDE, 300, 42, &max_reps, endings);
  cr_assert_geq(max_reps, 5, "the shuffling games must reach fivefold");
  cr_assert_gt(endings[ARB_TERM_FIVEFOLD_REPETITION], 10);
  random_games(ARB_RULES_ONLINE, 200, 43, &max_reps, endings);
  cr_assert_gt(endings[ARB_TERM_THREEFOLD_REPETITION], 10);
  /* US Chess never ends a game by fivefold or 75 moves: long games, high counts */
  int us_max = 0;
  random_games(ARB_RULES_USCF, 60, 44, &us_max, endings);
  cr_assert_gt(us_max, 5);
}

/* A 600-ply shuffling game keeps exact counts (US Chess rules, so nothing ends it). */
Test(game, long_shuffling_game) {
  arb_position start = test_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
  arb_game *g = arb_game_new(&start, ARB_RULES_USCF);
  const char *cycle[4] = {"a1a2", "e8d8", "a2a1", "d8e8"};
  for (int ply = 0; ply < 600; ply++) {
    const char *t = cycle[ply % 4];
    cr_assert_eq(arb_game_play_text(g, t, 4, NULL), ARB_OK);
  }
  /* a1a2 gave up the queen-side right: the start position never recurs; the position after
   * a2a1 d8e8 (rook back, right gone) recurs every 4 plies from ply 4 on */
  cr_assert_eq(arb_game_repetitions(g), 150);
  cr_assert_eq(arb_game_position(g)->halfmove_clock, 600);
  arb_game_facts f;
  arb_game_facts_of(g, &f);
  cr_assert(f.fivefold && f.seventyfive && f.can_claim_threefold && f.can_claim_fifty);
  cr_assert_str_eq(result_of(g), "*");
  arb_game_free(g);
}

/* Locked pawn walls: dead only when no mate exists anywhere behind them (RULES.md H10, H11). */
Test(game, locked_pawns) {
  static const struct {
    const char *fen;
    int dead, white_cannot, black_cannot;
  } cases[] = {
      {"k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1", 1, 1, 1},
      {"k7/2b5/8/p1p1p1p1/P1P1P1P1/8/4B3/K7 w - - 0 1", 1, 1, 1},
      /* a queen crosses the open files and can take pawns: nothing is proven */
      {"k7/8/8/p1p1p1p1/P1P1P1P1/8/8/KQ6 w - - 0 1", 0, 0, 0},
      /* the same, colours flipped */
      {"kq6/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 b - - 0 1", 0, 0, 0},
      /* an unlocked pawn: not proven, whatever the material */
      {"k7/8/8/p1p1p1p1/P1P1P1P1/8/7P/K7 w - - 0 1", 0, 0, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arb_position p = test_fen(cases[i].fen);
    cr_expect_eq(arb_is_dead_position(&p), cases[i].dead, "%s: dead", cases[i].fen);
    cr_expect_eq(arb_cannot_mate(&p, ARB_WHITE), cases[i].white_cannot, "%s: white", cases[i].fen);
    cr_expect_eq(arb_cannot_mate(&p, ARB_BLACK), cases[i].black_cannot, "%s: black", cases[i].fen);
    arb_position m;
    arb_position_mirror(&p, &m);
    cr_expect_eq(arb_is_dead_position(&m), cases[i].dead, "%s mirrored", cases[i].fen);
  }
  /* the game ends at once under FIDE, goes on online (lichess inspects material only) */
  arb_position p = test_fen("k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1");
  arb_game *g = arb_game_new(&p, ARB_RULES_FIDE);
  cr_assert_eq(arb_game_outcome(g).termination, ARB_TERM_DEAD_POSITION);
  arb_game_free(g);
  g = arb_game_new(&p, ARB_RULES_ONLINE);
  cr_assert_eq(arb_game_outcome(g).result, ARB_RESULT_NONE);
  arb_game_free(g);
}

/* ---- null moves ---- */

Test(game, null_move_played_and_undone) {
  /* python-chess test_null_moves: the FEN after "--" and after taking it back. */
  const char *fen = "rnbqkbnr/ppp1pppp/8/2Pp4/8/8/PP1PPPPP/RNBQKBNR w KQkq d6 0 2";
  arb_position p = test_fen(fen);
  arb_game *g = arb_game_new(&p, ARB_RULES_FIDE);
  cr_assert_eq(arb_game_play(g, ARB_MOVE_NULL), ARB_ERR_NULL_MOVE, "off by default");
  cr_assert_eq(arb_game_play_text(g, "--", 2, NULL), ARB_ERR_NULL_MOVE);
  arb_game_set_null_moves(g, 1);
  cr_assert_eq(arb_game_play_text(g, "--", 2, NULL), ARB_OK);
  char buf[ARB_FEN_MAX], uci[8];
  arb_fen_write(arb_game_position(g), buf, sizeof buf, 0);
  cr_assert_str_eq(buf, "rnbqkbnr/ppp1pppp/8/2Pp4/8/8/PP1PPPPP/RNBQKBNR b KQkq - 1 2");
  cr_assert_eq(arb_game_move_at(g, 1), ARB_MOVE_NULL);
  cr_assert_str_eq(arb_game_san_at(g, 1), "--");
  arb_uci_write(arb_game_position_at(g, 0), arb_game_move_at(g, 1), uci, sizeof uci);
  cr_assert_str_eq(uci, "0000");
  cr_assert_eq(arb_game_undo(g), ARB_OK);
  arb_fen_write(arb_game_position(g), buf, sizeof buf, 0);
  cr_assert_str_eq(buf, fen);
  /* The other spellings. */
  cr_assert_eq(arb_game_play_text(g, "Z0", 2, NULL), ARB_OK);
  cr_assert_eq(arb_game_play_text(g, "0000", 4, NULL), ARB_OK);
  cr_assert_eq(arb_game_ply_count(g), 2);
  arb_game_free(g);
}

Test(game, null_move_refused_in_check) {
  arb_game *g = game_from("4k3/8/8/8/8/8/8/4K2r w - - 0 1", "", ARB_RULES_FIDE);
  arb_game_set_null_moves(g, 1);
  cr_assert_eq(arb_game_play(g, ARB_MOVE_NULL), ARB_ERR_NULL_IN_CHECK);
  arb_san_error err;
  cr_assert_eq(arb_game_play_text(g, "--", 2, &err), ARB_ERR_NULL_IN_CHECK);
  cr_assert_eq(err.code, ARB_ERR_NULL_IN_CHECK);
  cr_assert_str_eq(err.message, "a null move is not allowed while in check");
  cr_assert_eq(arb_game_ply_count(g), 0);
  cr_assert_str_eq(arb_status_name(ARB_ERR_NULL_IN_CHECK), "null_in_check");
  arb_game_free(g);
}

/* Null moves count as arb_game_set_null_moves documents: the clock goes up, the positions
 * across them are compared.  Nf3 -- Ng1 -- is the start position again, White to move. */
Test(game, null_moves_in_repetitions_and_counters) {
  arb_game *g = game_from(ARB_FEN_START, "", ARB_RULES_FIDE);
  arb_game_set_null_moves(g, 1);
  const char *cycle[] = {"Nf3", "--", "Ng1", "--"};
  for (int round = 1; round <= 2; round++)
    for (int i = 0; i < 4; i++)
      cr_assert_eq(arb_game_play_text(g, cycle[i], strlen(cycle[i]), NULL), ARB_OK);
  cr_assert_eq(arb_game_repetitions(g), 3);
  arb_game_facts f;
  arb_game_facts_of(g, &f);
  cr_assert(f.can_claim_threefold);
  cr_assert_eq(arb_game_position(g)->halfmove_clock, 8);
  cr_assert_eq(arb_game_position(g)->fullmove_number, 5);
  /* Two more rounds: the fifth occurrence ends the game (FIDE 9.6.1). */
  for (int round = 3; round <= 4; round++)
    for (int i = 0; i < 4; i++)
      cr_assert_eq(arb_game_play_text(g, cycle[i], strlen(cycle[i]), NULL), ARB_OK);
  cr_assert_eq(arb_game_outcome(g).termination, ARB_TERM_FIVEFOLD_REPETITION);
  arb_game_free(g);
}

/* ---- play on (analysis boards, python-chess's Board) ---- */

Test(game, play_on_moves_past_an_automatic_ending) {
  /* Kxh2 leaves two bare kings (FIDE 5.2.2, insufficient material); without play-on the game is
   * over, with it the kings may walk on, and the outcome is always the current position's. */
  arb_game *g = game_from("7k/8/8/8/8/8/6Kr/8 w - - 0 1", "Kxh2", ARB_RULES_FIDE);
  cr_assert_eq(arb_game_outcome(g).termination, ARB_TERM_INSUFFICIENT_MATERIAL);
  cr_assert_eq(arb_game_play_text(g, "Kg8", 3, NULL), ARB_ERR_GAME_OVER, "off by default");
  arb_game_set_play_on(g, 1);
  cr_assert_eq(arb_game_play_text(g, "Kg8", 3, NULL), ARB_OK);
  cr_assert_eq(arb_game_outcome(g).termination, ARB_TERM_INSUFFICIENT_MATERIAL, "still bare kings");
  cr_assert_eq(arb_game_undo(g), ARB_OK);
  cr_assert_eq(arb_game_outcome(g).termination, ARB_TERM_INSUFFICIENT_MATERIAL, "judged afresh");
  cr_assert_eq(arb_game_undo(g), ARB_OK);
  cr_assert_eq(arb_game_outcome(g).result, ARB_RESULT_NONE, "the rook is back: play goes on");
  /* A player's ending still ends play. */
  cr_assert_eq(arb_game_resign(g, ARB_WHITE), ARB_OK);
  cr_assert_eq(arb_game_play_text(g, "Kg3", 3, NULL), ARB_ERR_GAME_OVER);
  arb_game_free(g);
}

Test(game, play_on_after_mate_taken_back) {
  /* Fool's mate, then the mate taken back: the position before it goes on. */
  arb_game *g = game_from(ARB_FEN_START, "f3 e5 g4 Qh4#", ARB_RULES_FIDE);
  arb_game_set_play_on(g, 1);
  cr_assert_eq(arb_game_outcome(g).termination, ARB_TERM_CHECKMATE);
  cr_assert_eq(arb_game_undo(g), ARB_OK);
  cr_assert_eq(arb_game_outcome(g).result, ARB_RESULT_NONE);
  cr_assert_eq(arb_game_play_text(g, "Nc6", 3, NULL), ARB_OK);
  arb_game_free(g);
}
