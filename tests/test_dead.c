/* Arbiter — MIT licence, see LICENSE.
 *
 * test_dead.c: "can this side ever checkmate?" — the dead-position and timeout cases of the
 * rules catalogue, each proof class with its mirror image, every helpmate line replayed
 * independently, and random positions where no "unwinnable" may be refuted by a search.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "forfeit.h"
#include "refute.h"
#include "test_util.h"

#ifndef ARB_TEST_DATA
#define ARB_TEST_DATA "tests/data"
#endif

/* Replays a helpmate line with the plain board functions: legal moves, mate of the loser. */
static int line_mates(const arb_position *start, const arb_winnability *w, int winner) {
  arb_position p = *start;
  for (int i = 0; i < w->line_len; i++) {
    if (!arb_is_legal(&p, w->line[i])) return 0;
    arb_undo u;
    arb_make_move(&p, w->line[i], &u);
  }
  return p.turn != winner && arb_in_check(&p) && arb_count_legal(&p) == 0;
}

static arb_win_verdict verdict(const arb_position *p, int side) {
  arb_winnability w;
  arb_winnability_of(p, (arb_color)side, 0, &w);
  if (w.verdict == ARB_WIN_WINNABLE)
    cr_assert(line_mates(p, &w, side), "a helpmate line that does not mate");
  /* the same verdict for the colour-flipped position and the other side */
  arb_position m;
  arb_position_mirror(p, &m);
  arb_winnability wm;
  arb_winnability_of(&m, (arb_color)(side ^ 1), 0, &wm);
  /* a budget-limited search may stop in one orientation and not the other; proofs never
   * contradict each other */
  cr_assert(wm.verdict == w.verdict || wm.verdict == ARB_WIN_UNKNOWN ||
                w.verdict == ARB_WIN_UNKNOWN,
            "the mirror image contradicts the verdict");
  if (wm.verdict == ARB_WIN_WINNABLE) cr_assert(line_mates(&m, &wm, side ^ 1));
  return w.verdict;
}

Test(dead, catalogue_cases) {
  FILE *f = fopen(ARB_TEST_DATA "/rules/cases.jsonl", "r");
  cr_assert_not_null(f);
  char line[8192];
  int checks = 0;
  while (fgets(line, sizeof line, f)) {
    json_error_t e;
    json_t *c = json_loads(line, 0, &e);
    if (!c) continue;
    json_t *expect = json_object_get(c, "expect");
    const char *id = json_string_value(json_object_get(c, "id"));
    json_t *dead = json_object_get(expect, "dead_position");
    json_t *timeout = json_object_get(expect, "timeout_result");
    const char *fen = json_string_value(json_object_get(c, "fen"));
    if ((!dead && !timeout) || !fen || json_object_get(c, "kind")) {
      json_decref(c);
      continue;
    }
    arb_position p = test_fen(fen);
    size_t i;
    json_t *mv;
    json_array_foreach(json_object_get(c, "moves"), i, mv) test_play(&p, json_string_value(mv));
    if (dead) {
      arb_win_verdict w = verdict(&p, ARB_WHITE), b = verdict(&p, ARB_BLACK);
      if (json_is_true(dead)) {
        cr_expect(w == ARB_WIN_UNWINNABLE && b == ARB_WIN_UNWINNABLE, "%s: dead", id);
      } else {
        cr_expect(w == ARB_WIN_WINNABLE || b == ARB_WIN_WINNABLE, "%s: a helpmate exists", id);
      }
      checks++;
    }
    if (timeout) {
      /* FIDE: the flagger draws exactly when the opponent cannot mate */
      const char *flag = json_string_value(json_object_get(c, "flag"));
      int opponent = !strcmp(flag, "white") ? ARB_BLACK : ARB_WHITE;
      const char *fide = json_string_value(json_object_get(timeout, "fide"));
      arb_win_verdict v = verdict(&p, opponent);
      if (!strcmp(fide, "1/2-1/2"))
        cr_expect_eq(v, ARB_WIN_UNWINNABLE, "%s: the opponent cannot mate", id);
      else
        cr_expect_eq(v, ARB_WIN_WINNABLE, "%s: the opponent has a helpmate", id);
      checks++;
    }
    json_decref(c);
  }
  fclose(f);
  cr_assert_geq(checks, 20, "only %d checks", checks);
}

Test(dead, proof_classes) {
  static const struct {
    const char *fen;
    int side;
    arb_win_verdict v;
    arb_win_proof proof;
  } cases[] = {
      {"8/8/8/4k3/8/8/8/3QK3 w - - 0 1", ARB_BLACK, ARB_WIN_UNWINNABLE, ARB_PROOF_MATERIAL},
      {"5b2/8/8/4k3/8/8/8/2B1K3 w - - 0 1", ARB_WHITE, ARB_WIN_UNWINNABLE, ARB_PROOF_MATERIAL},
      {"8/8/8/4k3/8/8/q7/1N2K3 b - - 0 1", ARB_WHITE, ARB_WIN_UNWINNABLE, ARB_PROOF_MATERIAL},
      {"k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1", ARB_WHITE, ARB_WIN_UNWINNABLE,
       ARB_PROOF_LOCKED_WALLS},
      {"k7/2b5/8/p1p1p1p1/P1P1P1P1/8/4B3/K7 w - - 0 1", ARB_BLACK, ARB_WIN_UNWINNABLE,
       ARB_PROOF_LOCKED_WALLS},
      {"7k/8/6K1/8/4N3/8/8/5N2 w - - 0 1", ARB_WHITE, ARB_WIN_WINNABLE, ARB_PROOF_HELPMATE},
      {"8/8/8/4k3/8/8/8/R3K3 b - - 0 1", ARB_WHITE, ARB_WIN_WINNABLE, ARB_PROOF_HELPMATE},
      {ARB_FEN_START, ARB_BLACK, ARB_WIN_WINNABLE, ARB_PROOF_HELPMATE},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arb_position p = test_fen(cases[i].fen);
    arb_winnability w;
    arb_winnability_of(&p, (arb_color)cases[i].side, 0, &w);
    cr_expect_eq(w.verdict, cases[i].v, "%s", cases[i].fen);
    cr_expect_eq(w.proof, cases[i].proof, "%s: proof %s", cases[i].fen,
                 arb_win_proof_name(w.proof));
    cr_expect_eq(verdict(&p, cases[i].side), cases[i].v, "%s (mirror)", cases[i].fen);
  }
}

Test(dead, game_over_on_the_board) {
  /* stalemate: neither side can ever mate */
  arb_position p = test_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  for (int side = 0; side < 2; side++) {
    arb_winnability w;
    cr_expect_eq(arb_winnability_of(&p, (arb_color)side, 0, &w), ARB_WIN_UNWINNABLE);
    cr_expect_eq(w.proof, ARB_PROOF_GAME_OVER, "proof %s", arb_win_proof_name(w.proof));
    cr_expect_eq(verdict(&p, side), ARB_WIN_UNWINNABLE, "mirror");
  }
  cr_expect_str_eq(arb_win_proof_name(ARB_PROOF_GAME_OVER), "game_over");
  /* a mate on the board: the mating side has a helpmate of no moves, the mated side none */
  p = test_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  arb_winnability w;
  cr_expect_eq(arb_winnability_of(&p, ARB_BLACK, 0, &w), ARB_WIN_WINNABLE);
  cr_expect_eq(w.proof, ARB_PROOF_HELPMATE);
  cr_expect_eq(w.line_len, 0);
  cr_expect_eq(verdict(&p, ARB_BLACK), ARB_WIN_WINNABLE);
  cr_expect_eq(arb_winnability_of(&p, ARB_WHITE, 0, &w), ARB_WIN_UNWINNABLE);
  cr_expect_eq(w.proof, ARB_PROOF_GAME_OVER);
  cr_expect_eq(verdict(&p, ARB_WHITE), ARB_WIN_UNWINNABLE);
}

/* Final positions of lichess games lost on time (the 14k-game file of the shared corpus) whose
 * helpmates are long endgame manoeuvres — a lone bishop or knight mating in a corner with the
 * loser's own men as the net, a pawn that must stop short of the corner, a blocker captured
 * before a pawn can run.  Each was "unknown" at the default budget before the corner orderings;
 * each must now be proved, by a line that replays to mate. */
Test(dead, long_endgame_helpmates) {
  static const char *const fens[] = {
      "1k6/7p/8/5p2/8/5K1P/5P2/5r2 b - - 1 51",
      "2Q5/3R3p/8/8/8/kP6/7P/5K2 w - - 5 56",
      "4B3/8/8/8/p7/1kn5/8/2K5 b - - 5 58",
      "6k1/4K1P1/6bP/8/8/8/8/8 w - - 9 65",
      "7b/8/8/7P/6K1/1Pk5/P4N2/8 w - - 1 64",
      "8/1kp2p1p/5Pp1/p7/K7/8/7r/8 b - - 1 47",
      "8/2B3p1/5pk1/8/5p2/4r1bK/8/8 b - - 0 48",
      "8/3K4/8/4kPp1/6P1/b7/8/8 w - - 13 66",
      "8/4k1b1/6PB/3K4/P7/8/8/8 w - - 3 46",
      "8/4k3/5p2/3K1P2/8/8/8/8 w - - 12 55",
      "8/4k3/7p/5K2/8/7P/8/8 b - - 0 59",
      "8/7K/7p/5kbP/8/8/8/8 w - - 9 69",
      "8/7p/5p2/2k5/2P5/P7/1K3P1P/8 w - - 1 47",
      "8/7p/7P/6p1/5kP1/8/4p1K1/8 b - - 1 51",
      "8/7p/p1p4P/6p1/2k3b1/P3p3/1K6/8 b - - 1 55",
      "8/8/1K6/2Q5/8/8/5q2/5k2 w - - 8 53",
      "8/8/1k6/p7/PP6/2KP4/2P5/8 w - - 0 54",
      "8/8/2K1N3/6p1/8/6k1/5p2/8 b - - 1 63",
      "8/8/2P5/R2R2P1/1k3P2/4P1n1/3P4/3K4 w - - 1 67",
      "8/8/3k3Q/8/5p2/1r5p/5K2/8 b - - 7 59",
      "8/8/4k3/5p2/5P2/5K2/3B4/8 w - - 1 54",
      "8/8/5k2/6p1/4K1P1/8/8/8 w - - 8 86",
      "8/8/7p/2kn1p2/5P2/7P/1K6/8 b - - 0 53",
      "8/8/7p/4bk1P/8/8/6K1/8 b - - 1 57",
      "8/8/8/3K4/1k6/2bB4/8/8 b - - 0 81",
      "8/8/8/4k3/8/6p1/n1B3Kp/8 b - - 0 70",
      "8/8/8/4kP1p/4P2P/4K3/8/8 w - - 0 44",
      "8/8/8/4p1p1/5p1p/5P1P/2k3K1/3q4 b - - 3 55",
      "8/8/8/5p2/1pk2Pp1/6K1/8/8 b - - 1 63",
      "8/8/8/6K1/3k1p2/4bB2/8/8 b - - 4 58",
      "8/8/p7/8/1p2N3/6K1/k7/8 b - - 1 57",
      "8/k7/P1K5/b7/8/8/8/8 w - - 11 56",
      "8/p1k5/4pb1p/7P/5K2/8/8/8 b - - 0 59",
      "8/p5pk/1p1q3p/8/8/2B5/2K5/8 b - - 1 46",
      "K7/P1k5/7p/7P/4B3/8/8/8 w - - 1 75",
  };
  for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
    arb_position p = test_fen(fens[i]);
    const int side = p.turn ^ 1; /* the side with time */
    arb_winnability w;
    arb_winnability_of(&p, (arb_color)side, 0, &w);
    cr_expect_eq(w.verdict, ARB_WIN_WINNABLE, "%s: %s after %llu nodes", fens[i],
                 arb_win_verdict_name(w.verdict), (unsigned long long)w.nodes);
    if (w.verdict == ARB_WIN_WINNABLE) cr_assert(line_mates(&p, &w, side), "%s", fens[i]);
  }
}

/* Every placement of white K+B against black K+X, black to move and checked by the bishop:
 * the number of checkmates. */
static long bishop_mates(char x) {
  long mates = 0;
  for (int bk = 0; bk < 64; bk++)
    for (int wb = 0; wb < 64; wb++) {
      int df = (wb & 7) - (bk & 7), dr = (wb >> 3) - (bk >> 3);
      if (wb == bk || (df != dr && df != -dr)) continue; /* the bishop on the king's diagonal */
      for (int wk = 0; wk < 64; wk++) {
        int kf = (wk & 7) - (bk & 7), kr = (wk >> 3) - (bk >> 3);
        if (wk == wb || wk == bk || (kf >= -1 && kf <= 1 && kr >= -1 && kr <= 1)) continue;
        for (int bx = 0; bx < 64; bx++) {
          if (bx == wk || bx == wb || bx == bk) continue;
          char board[64] = {0}, fen[96];
          board[wk] = 'K', board[wb] = 'B', board[bk] = 'k', board[bx] = x;
          int o = 0;
          for (int r = 7; r >= 0; r--) {
            int empty = 0;
            for (int f = 0; f < 8; f++) {
              char c = board[r * 8 + f];
              if (!c) {
                empty++;
                continue;
              }
              if (empty) fen[o++] = (char)('0' + empty);
              empty = 0;
              fen[o++] = c;
            }
            if (empty) fen[o++] = (char)('0' + empty);
            if (r) fen[o++] = '/';
          }
          strcpy(fen + o, " b - - 0 1");
          arb_position p;
          if (arb_fen_read(&p, fen, 0, NULL) == ARB_OK && arb_is_checkmate(&p)) mates++;
        }
      }
    }
  return mates;
}

/* The material rule for bishops (status.c): a lone bishop cannot mate a king with a rook or a
 * queen, because no mate position exists; a knight, for contrast, is a blocker it can use. */
Test(dead, bishop_against_rook_or_queen_has_no_mate_position) {
  cr_expect_eq(bishop_mates('r'), 0);
  cr_expect_eq(bishop_mates('q'), 0);
  cr_expect_gt(bishop_mates('n'), 0, "the enumeration finds the knight-blocked mates");
  arb_position p = test_fen("8/8/8/4k3/8/2r5/8/2B1K3 b - - 0 1");
  arb_winnability w;
  cr_expect_eq(arb_winnability_of(&p, ARB_WHITE, 0, &w), ARB_WIN_UNWINNABLE);
  cr_expect_eq(w.proof, ARB_PROOF_MATERIAL);
  p = test_fen("8/8/8/4k3/8/2r5/4n3/2B1K3 b - - 0 1");
  cr_expect_eq(verdict(&p, ARB_WHITE), ARB_WIN_WINNABLE, "a knight to block with");
}

Test(dead, unwinnable_is_never_refuted) {
  uint64_t seed = 7;
  int unwinnable = 0, positions = 0;
  static const char *const starts[] = {
      "4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1",          "4k3/8/3n4/8/8/8/8/1N2K3 w - - 0 1",
      "k7/8/8/p1p1p1p1/P1P1P1P1/8/8/K7 w - - 0 1", "4k3/8/8/8/8/8/8/4K1N1 w - - 0 1",
      "1b2k3/8/8/8/8/8/8/2B1K3 w - - 0 1",         "3qk2r/8/8/8/8/8/8/2B1K3 w - - 0 1"};
  for (int g = 0; g < 60; g++) {
    arb_position p = test_fen(starts[g % 6]);
    for (int ply = 0; ply < 30; ply++) {
      arb_move moves[ARB_MAX_MOVES];
      int n = arb_generate_legal(&p, moves);
      if (!n) break;
      arb_undo u;
      arb_make_move(&p, moves[test_rand(&seed) % (uint64_t)n], &u);
      if (ply % 5) continue;
      for (int side = 0; side < 2; side++) {
        arb_winnability w;
        arb_winnability_of(&p, (arb_color)side, 20000, &w);
        positions++;
        if (w.verdict == ARB_WIN_UNWINNABLE) {
          unwinnable++;
          arb_position q = p;
          cr_assert(!refute_any_mate(&q, side, 3), "an 'unwinnable' position has a short mate");
        } else if (w.verdict == ARB_WIN_WINNABLE) {
          cr_assert(line_mates(&p, &w, side));
        }
      }
    }
  }
  cr_assert_gt(unwinnable, 50, "%d of %d", unwinnable, positions);
}

/* The vector code of winnable.c (AVX-512, when the library is built for such a CPU) against its
 * scalar code (tests/winnable_scalar.c): the same verdict, proof, node count and line, for both
 * sides of positions from random games and of the final positions of real games lost on time. */
extern const int arb_test_vector_code;
arb_win_verdict arb_test_scalar_winnability_of(const arb_position *pos, arb_color side,
                                               uint64_t budget, arb_winnability *out);

static int compared;

static void same_search(const arb_position *p) {
  for (int side = 0; side < 2; side++) {
    arb_winnability v, s;
    arb_winnability_of(p, (arb_color)side, 5000, &v);
    arb_test_scalar_winnability_of(p, (arb_color)side, 5000, &s);
    char fen[128];
    arb_fen_write(p, fen, sizeof fen, 0);
    cr_assert_eq(v.verdict, s.verdict, "%s, side %d", fen, side);
    cr_assert_eq(v.proof, s.proof, "%s, side %d", fen, side);
    cr_assert_eq(v.nodes, s.nodes, "%s, side %d", fen, side);
    cr_assert_eq(v.line_len, s.line_len, "%s, side %d", fen, side);
    cr_assert(!memcmp(v.line, s.line, (size_t)v.line_len * sizeof v.line[0]), "%s", fen);
    compared++;
  }
}

static void compare_final(void *ctx, const arb_position *p) {
  (void)ctx;
  same_search(p);
}

Test(dead, vector_and_scalar_code_agree) {
  if (!arb_test_vector_code) cr_skip_test("the library runs its scalar code only (no AVX-512)");
  uint64_t seed = 11;
  for (int g = 0; g < 40; g++) { /* random games: castling, en passant, promotions, checks */
    arb_position p;
    arb_position_startpos(&p);
    for (int ply = 0; ply < 160; ply++) {
      arb_move moves[ARB_MAX_MOVES];
      int n = arb_generate_legal(&p, moves);
      if (!n) break;
      arb_undo u;
      arb_make_move(&p, moves[test_rand(&seed) % (uint64_t)n], &u);
      if (ply % 9 == 0) same_search(&p);
    }
  }
  cr_assert(forfeit_positions(ARB_TEST_DATA "/pgn/real/lichess-jishanshaikh4-standard-first300.pgn",
                              compare_final, NULL));
  cr_assert_gt(compared, 800, "%d searches compared", compared);
}
