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
#include "rules/reach.h"
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

/* The squares a king, or a knight, steps to from sq (computed here, not by the library). */
static arb_bitboard steps_from(arb_square sq, const int (*d)[2], int nd) {
  arb_bitboard b = 0;
  for (int i = 0; i < nd; i++) {
    const int f = (sq & 7) + d[i][0], r = (sq >> 3) + d[i][1];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) b |= UINT64_C(1) << (r * 8 + f);
  }
  return b;
}
static arb_bitboard arb_test_king_moves(arb_square sq) {
  static const int d[8][2] = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
  return steps_from(sq, d, 8);
}
static arb_bitboard arb_test_knight_moves(arb_square sq) {
  static const int d[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                              {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  return steps_from(sq, d, 8);
}

/* A FEN of the 64 characters of board (0 for an empty square, a1 first), `turn` to move. */
static void test_board_fen(const char board[64], const char *turn, char *fen) {
  int o = 0;
  for (int r = 7; r >= 0; r--) {
    int empty = 0;
    for (int f = 0; f < 8; f++) {
      const char c = board[r * 8 + f];
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
  sprintf(fen + o, " %s - - 0 1", turn);
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

/* The long helpmates of real games lost on time that took the phases hundreds of thousands of
 * nodes (a lone bishop or knight whose mate needs the loser's own men on its king's flights; a
 * queen or rook whose king walk went astray): the enumeration, heading for the mate pictures,
 * finds each within a small budget, and its line (the moves that led to the mate it met) is
 * replayed with the plain board functions. */
Test(dead, mate_pictures_find_long_helpmates_within_a_small_budget) {
  static const char *const fens[] = {
      "8/P7/8/1b6/k7/3Q4/3K4/8 w - - 1 63",  /* K+B against K+Q+P: 379,923 nodes before */
      "8/8/8/8/3nk3/8/PP4K1/8 w - - 0 43",   /* K+N against K+2P: 230,348 */
      "8/8/5k2/3K4/4B2p/8/8/8 b - - 0 58",   /* K+B against K+P: 220,468 */
      "8/6b1/4k1P1/8/8/5K2/8/8 w - - 10 57", /* K+B against K+P: 193,704 */
      "8/8/8/6K1/8/6Q1/7k/8 b - - 30 80",    /* K+Q against K: 62,846 */
      "7K/6r1/8/8/1k6/8/7P/8 w - - 0 58",    /* K+R against K+P: 57,683 */
  };
  for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
    arb_position p = test_fen(fens[i]);
    const int side = p.turn ^ 1; /* the side with time */
    arb_winnability w;
    arb_winnability_of(&p, (arb_color)side, 25000, &w);
    cr_expect_eq(w.verdict, ARB_WIN_WINNABLE, "%s: %s after %llu nodes", fens[i],
                 arb_win_verdict_name(w.verdict), (unsigned long long)w.nodes);
    if (w.verdict != ARB_WIN_WINNABLE) continue;
    cr_expect_leq(w.line_len, ARB_WIN_MAX_LINE, "%s", fens[i]);
    cr_expect(line_mates(&p, &w, side), "%s: the line does not mate", fens[i]);
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
          test_board_fen(board, "b", fen);
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

/* Issue 19: two final positions of lichess games lost on time.  8/8/8/8/8/8/1Q2K3/1k6 b: every
 * king move but Kxb2 is attacked, and after it kings alone remain; qK6/3k4 w: Kxa8 is White's
 * only move.  The side with the queen can never mate (confirmed by a search of every line into
 * insufficient material, refute.h), found by the exhaustive search in a node or two; the game
 * layer and the flag verdict see it. */
Test(dead, forced_lines_are_proven_by_search) {
  static const struct {
    const char *fen;
    int side;
  } cases[] = {{"8/8/8/8/8/8/1Q2K3/1k6 b - - 0 81", ARB_WHITE},
               {"qK6/3k4/8/8/8/8/8/8 w - - 0 60", ARB_BLACK}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arb_position p = test_fen(cases[i].fen);
    cr_assert(forced_into_insufficient(&p, 2), "%s: not forced, the test is wrong", cases[i].fen);
    arb_winnability w;
    cr_expect_eq(arb_winnability_of(&p, (arb_color)cases[i].side, 0, &w), ARB_WIN_UNWINNABLE, "%s",
                 cases[i].fen);
    cr_expect_eq(w.proof, ARB_PROOF_SEARCH, "%s: proof %s", cases[i].fen,
                 arb_win_proof_name(w.proof));
    cr_expect_leq(w.nodes, 4, "%s: %llu nodes for a forced line", cases[i].fen,
                  (unsigned long long)w.nodes);
    cr_expect_eq(verdict(&p, cases[i].side), ARB_WIN_UNWINNABLE, "%s (mirror)", cases[i].fen);
    cr_expect(arb_cannot_mate(&p, (arb_color)cases[i].side), "%s", cases[i].fen);
    cr_expect(arb_is_dead_position(&p), "%s: dead", cases[i].fen);
    arb_flag_verdict f =
        arb_flag_fall(&p, (arb_color)(cases[i].side ^ 1), ARB_RULES_FIDE, -1, ARB_RESULT_NONE);
    cr_expect_eq(f.result, ARB_RESULT_DRAW, "%s: a flag there is a draw (6.9)", cases[i].fen);
  }
  cr_expect_str_eq(arb_win_proof_name(ARB_PROOF_SEARCH), "search");
  /* The game layer: dead the moment Qb2 is played (5.2.2). */
  arb_position start = test_fen("8/6Q1/8/8/8/8/4K3/1k6 w - - 0 80");
  arb_game *g = arb_game_new(&start, ARB_RULES_FIDE);
  cr_assert_not_null(g);
  cr_assert_eq(arb_game_play_text(g, "Qb2+", 4, NULL), ARB_OK);
  cr_expect_eq(arb_game_outcome(g).termination, ARB_TERM_DEAD_POSITION, "%s",
               arb_termination_name(arb_game_outcome(g).termination));
  cr_expect_eq(arb_game_outcome(g).result, ARB_RESULT_DRAW);
  arb_game_free(g);
}

/* Fixed pawns (walls.c).  White's pawns a4 c4 e4 g4 stand on light squares, Black's a5 c5 e5 g5
 * on dark ones, head-on.  White's king can never set foot on rank 4 (b4 d4 f4 h4 are attacked by
 * Black's pawns, the rest are White's own), Black's never on rank 5; White's bishops are light
 * and every light square of rank 4 holds a White pawn, Black's are dark and every dark square of
 * rank 5 holds a Black pawn: nobody crosses, nobody captures, so no side can ever give check.
 * Too many positions behind the walls for the locked-wall enumeration. */
Test(dead, fixed_pawns_proof) {
  arb_position p = test_fen("4k3/2b1b3/8/p1p1p1p1/P1P1P1P1/8/4B3/4KB2 w - - 0 1");
  for (int side = 0; side < 2; side++) {
    arb_winnability w;
    cr_expect_eq(arb_winnability_of(&p, (arb_color)side, 0, &w), ARB_WIN_UNWINNABLE);
    cr_expect_eq(w.proof, ARB_PROOF_FIXED_PAWNS, "proof %s", arb_win_proof_name(w.proof));
    cr_expect_eq(verdict(&p, side), ARB_WIN_UNWINNABLE, "mirror");
    cr_expect(!refute_any_mate(&p, side, 4));
  }
  cr_expect(arb_is_dead_position(&p));
  cr_expect_str_eq(arb_win_proof_name(ARB_PROOF_FIXED_PAWNS), "fixed_pawns");
  /* Head-on but not fixed: a4xb5 or b4xa5 opens the files, and a pawn queens. */
  p = test_fen("4k3/8/8/pp6/PP6/8/8/4K3 w - - 0 1");
  for (int side = 0; side < 2; side++)
    cr_expect_eq(verdict(&p, side), ARB_WIN_WINNABLE, "pawns that can take are not fixed");
  cr_expect(!arb_is_dead_position(&p));
  /* A bishop that can cross the wall and take a pawn: not proven by fixed pawns. */
  p = test_fen("4k3/8/8/p1p1p1p1/P1P1P1P1/8/3B4/4K3 w - - 0 1");
  arb_winnability w;
  arb_winnability_of(&p, ARB_WHITE, 0, &w);
  cr_expect_neq(w.proof, ARB_PROOF_FIXED_PAWNS);
}

/* Both sides of p are UNWINNABLE by `proof` at the default budget, the mirror image agrees,
 * and no mate is found within four plies (every line, refute.h). */
static void expect_proof_both_sides(const arb_position *p, const char *fen, arb_win_proof proof) {
  for (int side = 0; side < 2; side++) {
    arb_winnability w;
    cr_expect_eq(arb_winnability_of(p, (arb_color)side, 0, &w), ARB_WIN_UNWINNABLE, "%s", fen);
    cr_expect_eq(w.proof, proof, "%s: proof %s", fen, arb_win_proof_name(w.proof));
    cr_expect_eq(verdict(p, side), ARB_WIN_UNWINNABLE, "mirror");
    cr_expect(!refute_any_mate(p, side, 4), "%s", fen);
  }
}

/* Pawn lanes (walls.c).  Every pawn is head-on (b3/b4, b6/b7, c5/c6, d3/d4, e4/e5, g3/g4)
 * except on the a-file, where White's a4 and Black's a6 can each still step to a5 — and to
 * nothing else, and nothing can ever take them.  A position of the community set labelled "--"
 * (dead) by its contributors: Black's king is shut in on a8/b8, White's behind its chain.  And
 * two more of the set labelled "--": White's a2 c2 e2 g2 can walk up to rank 5 behind their own
 * a6 c6 e6 g6; Black's king never leaves rank 8, the light bishop can never take a Black pawn
 * (all on dark squares) nor cover the dark flights of that king.  It
 * must be proven by the lanes for both sides, with no mate within four plies either way (every
 * line, refute.h).  Pawns that can meet a capture (a2/a7 beside b2/b7) have no lanes: a pawn
 * takes and queens, and a helpmate exists. */
Test(dead, pawn_lanes_proof) {
  static const char *const lanes[] = {"k7/1p6/pPp5/2P1p3/Pp1pP1p1/1P1P2P1/8/3K4 w - - 0 1",
                                      "3k4/p1p1p1p1/P1P1P1P1/8/8/8/P1P1P1P1/3K1B2 w - - 0 1",
                                      "3k4/p1p1pBp1/P1P1P1P1/8/8/8/P1P1P1P1/3K4 w - - 0 1"};
  arb_position p;
  for (int i = 0; i < 3; i++) {
    p = test_fen(lanes[i]);
    expect_proof_both_sides(&p, lanes[i], ARB_PROOF_PAWN_LANES);
    cr_expect(arb_is_dead_position(&p), "%s", lanes[i]);
  }
  cr_expect_str_eq(arb_win_proof_name(ARB_PROOF_PAWN_LANES), "pawn_lanes");
  p = test_fen("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
  for (int side = 0; side < 2; side++) {
    arb_winnability w;
    cr_expect_eq(arb_winnability_of(&p, (arb_color)side, 0, &w), ARB_WIN_WINNABLE);
    cr_expect(line_mates(&p, &w, side));
  }
}

/* Every placement of White's king and a queen or rook next to Black's king (on a quarter of the
 * board), Black to move:
 * White cannot mate exactly when every Black move takes the piece (bare kings) or there is no
 * move (stalemate) — computed independently by forced_into_insufficient (refute.h); otherwise
 * the piece survives and a helpmate exists.  The search must find exactly those, with proof
 * "search" (or "game_over" for the stalemates), and never call the others unwinnable; the game
 * layer's dead-position test must see exactly those dead. */
Test(dead, search_finds_every_forced_capture) {
  int searched = 0;
  for (int piece = 0; piece < 2; piece++)
    for (int bk = 0; bk < 64; bk++) /* one quarter of the board: the rest by symmetry */
      for (int wq = 0; wq < 64 && (bk & 7) < 4 && bk < 32; wq++) {
        int df = (wq & 7) - (bk & 7), dr = (wq >> 3) - (bk >> 3);
        if (wq == bk || df < -1 || df > 1 || dr < -1 || dr > 1) continue;
        for (int wk = 0; wk < 64; wk++) {
          if (wk == bk || wk == wq) continue;
          arb_position p;
          memset(&p, 0, sizeof p);
          char fen[96], board[64] = {0};
          board[bk] = 'k', board[wq] = piece ? 'R' : 'Q', board[wk] = 'K';
          int o = 0;
          for (int r = 7; r >= 0; r--) {
            for (int f = 0, empty = 0; f < 8; f++) {
              char c = board[r * 8 + f];
              if (c && empty) fen[o++] = (char)('0' + empty);
              if (c)
                fen[o++] = c, empty = 0;
              else if (++empty && f == 7)
                fen[o++] = (char)('0' + empty);
            }
            if (r) fen[o++] = '/';
          }
          strcpy(fen + o, " b - - 0 1");
          if (arb_fen_read(&p, fen, 0, NULL) != ARB_OK) continue; /* kings touching */
          const int cannot = forced_into_insufficient(&p, 1);
          /* the game layer's dead position too (5.2.2): its enumeration of 64 nodes, not cut
           * short by its test of how far the kings alone can walk */
          cr_assert_eq(arb_is_dead_position(&p), cannot, "%s: dead position", fen);
          arb_winnability w;
          arb_winnability_of(&p, ARB_WHITE, 0, &w);
          if (cannot) {
            cr_assert_eq(w.verdict, ARB_WIN_UNWINNABLE, "%s", fen);
            cr_assert(w.proof == ARB_PROOF_SEARCH || w.proof == ARB_PROOF_GAME_OVER, "%s: %s", fen,
                      arb_win_proof_name(w.proof));
            searched += w.proof == ARB_PROOF_SEARCH;
          } else {
            cr_assert_eq(w.verdict, ARB_WIN_WINNABLE, "%s: %s", fen,
                         arb_win_verdict_name(w.verdict));
            cr_assert(line_mates(&p, &w, ARB_WHITE), "%s", fen);
          }
        }
      }
  cr_expect_gt(searched, 100, "%d positions proven by search", searched);
}

/* Every new "unwinnable" — search and fixed_pawns — on positions from random play out of
 * starts where forced captures, locked pawns and trapped bishops are common, refuted by no
 * exhaustive search of four plies (refute.h). */
Test(dead, search_and_fixed_pawns_are_never_refuted) {
  static const char *const starts[] = {"4k3/2b1b3/8/p1p1p1p1/P1P1P1P1/8/4B3/4KB2 w - - 0 1",
                                       "2k5/8/8/1p1p1p1p/1P1P1P1P/8/8/2K1B1N1 w - - 0 1",
                                       "8/8/3k4/8/8/3K4/2Q5/8 w - - 0 1",
                                       "4k3/8/8/3q4/8/8/3Q4/4K3 w - - 0 1",
                                       "4k3/pp4pp/8/PP4PP/8/8/8/4K2B w - - 0 1",
                                       "k7/p1p5/P1P5/8/8/8/2B5/K7 w - - 0 1",
                                       "1k6/8/1p1p1p2/1P1P1P2/8/8/3B4/3K4 w - - 0 1",
                                       "4k3/3r4/8/8/8/8/3R4/4K3 w - - 0 1",
                                       "k7/1p6/pPp5/2P1p3/Pp1pP1p1/1P1P2P1/8/3K4 w - - 0 1",
                                       "k7/1p6/pPp5/2P5/Pp1pp1p1/1P1P2P1/4P3/3K4 w - - 0 1",
                                       "3k4/p1p1p1p1/P1P1P1P1/8/8/8/P1P1P1P1/3K1B2 w - - 0 1"};
  const int nstarts = (int)(sizeof starts / sizeof starts[0]);
  uint64_t seed = 19;
  int proofs[ARB_PROOF_PAWN_STRUCTURES + 1] = {0};
  for (int g = 0; g < 4 * nstarts; g++) {
    arb_position p = test_fen(starts[g % nstarts]);
    for (int ply = 0; ply < 24; ply++) {
      arb_move moves[ARB_MAX_MOVES];
      int n = arb_generate_legal(&p, moves);
      if (!n) break;
      arb_undo u;
      arb_make_move(&p, moves[test_rand(&seed) % (uint64_t)n], &u);
      if (ply % 3) continue;
      for (int side = 0; side < 2; side++) {
        arb_winnability w;
        arb_winnability_of(&p, (arb_color)side, 20000, &w);
        if (w.verdict == ARB_WIN_WINNABLE) cr_assert(line_mates(&p, &w, side));
        if (w.verdict != ARB_WIN_UNWINNABLE) continue;
        proofs[w.proof]++;
        if (w.proof != ARB_PROOF_SEARCH && w.proof != ARB_PROOF_FIXED_PAWNS &&
            w.proof != ARB_PROOF_PAWN_LANES && w.proof != ARB_PROOF_PAWN_STRUCTURES)
          continue;
        char fen[ARB_FEN_MAX];
        arb_fen_write(&p, fen, sizeof fen, 0);
        cr_assert(!refute_any_mate(&p, side, 4), "%s: a mate within 4 plies for %s (%s)", fen,
                  side ? "black" : "white", arb_win_proof_name(w.proof));
        if (arb_is_dead_position(&p)) cr_assert(!refute_any_mate(&p, side ^ 1, 4), "%s", fen);
      }
    }
  }
  cr_expect_gt(proofs[ARB_PROOF_FIXED_PAWNS], 20, "%d fixed_pawns proofs",
               proofs[ARB_PROOF_FIXED_PAWNS]);
  cr_expect_gt(proofs[ARB_PROOF_PAWN_LANES], 5, "%d pawn_lanes proofs",
               proofs[ARB_PROOF_PAWN_LANES]);
}

/* Pawn structures (structures.c).  Two positions of the community set labelled "--" by their
 * contributors: White's a2 c2 e2 g2 walk up to rank 5 and may take Black's rank-5 pawns with the
 * king, but Black's king never leaves rank 8 and nothing of White's can ever check it there; and
 * a locked chain where White's knight and Black's bishop can never move (nor be taken), so that
 * f7 never promotes.  Proven for both sides, no mate within four plies (every line, refute.h).
 * The third position (labelled "WB": both can mate) has a bishop that cannot move but can be
 * taken, after which the king takes the pawn it guarded: it must never be proven. */
Test(dead, pawn_structures_proof) {
  static const char *const dead[] = {"1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1",
                                     "k4bBN/b3pPp1/3pP1Pp/2pP3P/BpP5/1P6/K7/8 b - - 0 1"};
  for (int i = 0; i < 2; i++) {
    arb_position p = test_fen(dead[i]);
    expect_proof_both_sides(&p, dead[i], ARB_PROOF_PAWN_STRUCTURES);
  }
  cr_expect_str_eq(arb_win_proof_name(ARB_PROOF_PAWN_STRUCTURES), "pawn_structures");
  arb_position p = test_fen("k1bK4/1p1p4/1PpPp3/2P1Pp2/2p1pP2/2p1P3/2P5/8 w - - 0 1");
  for (int side = 0; side < 2; side++)
    cr_expect_neq(verdict(&p, side), ARB_WIN_UNWINNABLE, "a bishop that can be taken");
}

/* Men that can neither move nor be taken while the pawns stand: in the first, White's king,
 * rook and bishop in the a1 corner box one another in (no one of them could move first); in
 * the second, White's king on a1 never moves although Black's king could reach b1's
 * neighbourhood (a king is never taken), so a2 never promotes; in the third, the bishops inside
 * the chains are guarded by their pawns, and no king may take them.  Labelled "cannot mate"
 * for both sides in the community set (chasolver); proven for both, mirror image too, and no
 * mate within four plies. */
Test(dead, pawn_structures_men_in_place) {
  static const char *const fens[] = {"B2b4/8/8/4k2B/1p1p1p1p/1PpP1P1P/K1P5/RB6 b - - 0 1",
                                     "2b1k3/1p6/pPp5/p1Pp4/P1pP4/1pP5/pP6/K1B5 w - - 0 1",
                                     "1k6/8/1p1p1p2/bP1PbP2/Bp1pBp2/1P1P1P2/4B3/3K4 w - - 0 1"};
  for (int i = 0; i < 3; i++) {
    arb_position p = test_fen(fens[i]);
    expect_proof_both_sides(&p, fens[i], ARB_PROOF_PAWN_STRUCTURES);
  }
}

/* White has only its king (h3/h4, in check on h4 now) and pawns that never move unless Black's
 * king takes one: it can take g2 only when White's king is on h4, and h5 only when it is on h3,
 * and either capture leaves White without a legal move — a stalemate (the bishop that checks
 * now has gone elsewhere by then), which the positions below confirm with the board alone.  So
 * White can never mate.  Nor can Black (the tempo rule): a mate on h4 needs h3 covered, and no
 * Black bishop (all on dark squares) can; the only Black man that could, its king, would have
 * had to stand next to h3 already when White's king last moved, from h3.  With a free a-pawn
 * for White the same position is winnable (the helpmate line replays to mate). */
Test(dead, pawn_structures_capture_stalemates) {
  const char *fen = "8/4b3/7p/5p1P/3b1p1K/5Pp1/6P1/5kb1 w - - 0 1";
  arb_position p = test_fen(fen);
  expect_proof_both_sides(&p, fen, ARB_PROOF_PAWN_STRUCTURES);
  static const char *const taken[] = {"8/8/7p/2b2p1P/3b1p1K/5Pp1/6k1/6b1 w - - 0 1",
                                      "8/4b3/7p/5p1k/3b1p2/5PpK/6P1/6b1 w - - 0 1"};
  for (int i = 0; i < 2; i++) {
    arb_position q = test_fen(taken[i]);
    cr_expect(!arb_in_check(&q) && !arb_has_legal_move(&q), "%s: a stalemate", taken[i]);
  }
  arb_position free_pawn = test_fen("8/4b3/7p/5p1P/3b1p1K/5Pp1/P5P1/5kb1 w - - 0 1");
  cr_expect_eq(verdict(&free_pawn, ARB_WHITE), ARB_WIN_WINNABLE);
}

/* The tempo rule: Black has only its king, on a5 or a6, and pawns that never move.  A mate on
 * a5 needs a6 covered, by White's king (the bishops are on dark squares) — but
 * Black's king came to a5 from a6, where it stood with White's king not next to it, and
 * White's last move cannot be a king move that checks.  Labelled "cannot mate" for both sides
 * in the community set.  Give Black a free h-pawn to spend the tempo, and White mates (the
 * helpmate line replays to mate). */
Test(dead, pawn_structures_tempo) {
  const char *fen = "8/1p2B3/1PpB4/k1P5/p1P5/P7/5K2/8 w - - 0 1";
  arb_position p = test_fen(fen);
  expect_proof_both_sides(&p, fen, ARB_PROOF_PAWN_STRUCTURES);
  arb_position spare = test_fen("8/1p2B2p/1PpB4/k1P5/p1P5/P7/5K2/8 w - - 0 1");
  cr_expect_eq(verdict(&spare, ARB_WHITE), ARB_WIN_WINNABLE);
}

/* A budget smaller than one expansion of the enumeration still bounds the whole search (it once
 * wrapped around to "no limit" when the enumeration passed it). */
Test(dead, tiny_budget_holds) {
  arb_position p = test_fen("8/b1b5/k6p/2b2p1P/1b3p2/5PpK/6P1/8 w - - 0 1");
  for (uint64_t budget = 1; budget <= 64; budget *= 2)
    for (int side = 0; side < 2; side++) {
      arb_winnability w;
      arb_winnability_of(&p, (arb_color)side, budget, &w);
      cr_expect_leq(w.nodes, budget + ARB_MAX_MOVES + 2, "budget %llu: %llu nodes",
                    (unsigned long long)budget, (unsigned long long)w.nodes);
    }
}

/* The community positions (../shared/data/dead/community-positions.txt, labelled by chasolver's
 * users and CHA, an independent implementation; skipped when absent): at a tenth of the default
 * budget every
 * verdict Arbiter reaches agrees with the label — every proof of "unwinnable" included — and
 * every helpmate line mates. */
Test(dead, community_labels_agree, .timeout = 600) {
  FILE *f = fopen(ARB_TEST_DATA "/../../../shared/data/dead/community-positions.txt", "r");
  if (!f) cr_skip_test("../shared/data/dead/community-positions.txt not found");
  char line[256];
  int decided = 0, unwinnable = 0, structures = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#' || strlen(line) < 4) continue;
    line[strcspn(line, "\r\n")] = '\0';
    arb_position p;
    if (arb_fen_read(&p, line + 3, ARB_FEN_PROBLEMS_ALL, NULL) != ARB_OK) continue;
    for (int side = 0; side < 2; side++) {
      const int can = line[side] != '-';
      arb_winnability w;
      arb_winnability_of(&p, (arb_color)side, 50000, &w);
      if (w.verdict == ARB_WIN_UNKNOWN) continue;
      decided++;
      structures += w.proof == ARB_PROOF_PAWN_STRUCTURES;
      unwinnable += w.verdict == ARB_WIN_UNWINNABLE;
      cr_assert_eq(w.verdict == ARB_WIN_WINNABLE, can, "%s for %s: %s (%s) against the label",
                   line + 3, side ? "black" : "white", arb_win_verdict_name(w.verdict),
                   arb_win_proof_name(w.proof));
      if (can) cr_assert(line_mates(&p, &w, side), "%s", line + 3);
    }
  }
  fclose(f);
  cr_expect_gt(decided, 2500, "%d sides decided", decided);
  cr_expect_gt(unwinnable, 1000, "%d unwinnable", unwinnable);
  cr_expect_gt(structures, 20, "%d pawn_structures proofs", structures);
}

/* One knight against king and queens (status.c, RULES.md R22 (b)): every placement where the
 * knight checks Black's king, White's king stands anywhere, and one to three Black queens stand
 * on the king's flights (a queen elsewhere can only take the knight), Black to move: never a
 * checkmate.  So the material rule may say "cannot mate" for any number of queens. */
Test(dead, knight_never_mates_queens) {
  long legal = 0;
  for (int k = 0; k < 64; k++) {
    const arb_bitboard flights = arb_test_king_moves((arb_square)k);
    for (arb_bitboard ns = arb_test_knight_moves((arb_square)k); ns; ns &= ns - 1) {
      const int n = __builtin_ctzll(ns);
      for (int kw = 0; kw < 64; kw++) {
        if (kw == k || kw == n || (flights >> kw & 1)) continue;
        const arb_bitboard free = flights & ~(UINT64_C(1) << n) & ~(UINT64_C(1) << kw);
        /* every subset of the flights, of one to three queens */
        for (arb_bitboard q = free; q; q = (q - 1) & free) {
          if (__builtin_popcountll(q) > 3) continue;
          char board[64] = {0};
          board[k] = 'k', board[n] = 'N', board[kw] = 'K';
          for (arb_bitboard b = q; b; b &= b - 1)
            board[__builtin_ctzll(b)] = 'q';
          char fen[96];
          test_board_fen(board, "b", fen);
          arb_position p;
          if (arb_fen_read(&p, fen, 0, NULL) != ARB_OK) continue;
          legal++;
          cr_assert(!arb_is_checkmate(&p), "%s is a mate", fen);
        }
      }
    }
  }
  cr_expect_gt(legal, 100000, "%ld positions", legal);
  arb_position p = test_fen("1q1q1q2/1k2q1q1/8/8/8/8/2N5/1K6 b - - 0 1");
  arb_winnability w;
  cr_expect_eq(arb_winnability_of(&p, ARB_WHITE, 0, &w), ARB_WIN_UNWINNABLE);
  cr_expect_eq(w.proof, ARB_PROOF_MATERIAL);
}

/* The memo a game keeps between its dead-position tests (arb__is_dead_position_memo): along
 * random walks behind locked pawns — quiet moves of pieces one at a time, now and then a pawn
 * move or a capture that changes the structure — the answer with the memo is the answer without
 * it at every step, and the memo spares enumerations where the walls are open.  Starts: two
 * boards of real games (lichess, knights and bishops behind locked chains), a bishop that can
 * cross a wall, and two dead walls (locked walls; fixed pawns). */
Test(dead, memo_between_moves_answers_the_same) {
  static const char *const starts[] = {
      "8/p2n1k2/Pp4p1/1Pp1p1Pp/2P1P2P/3N1K2/8/8 w - - 0 41",
      "1B6/3kb3/6p1/3p2P1/3PpK2/4P3/8/8 b - - 10 59",
      "4k3/8/8/p1p1p1p1/P1P1P1P1/8/3B4/4K3 w - - 0 1",
      "k7/2b5/8/p1p1p1p1/P1P1P1P1/8/4B3/K7 w - - 0 1",
      "4k3/2b1b3/8/p1p1p1p1/P1P1P1P1/8/4B3/4KB2 w - - 0 1",
  };
  uint64_t seed = 12345, reused = 0;
  long steps = 0, dead = 0;
  for (size_t k = 0; k < sizeof starts / sizeof starts[0]; k++) {
    for (int walk = 0; walk < 4; walk++) {
      arb_position p = test_fen(starts[k]);
      arb__dead_memo memo;
      memset(&memo, 0, sizeof memo);
      for (int ply = 0; ply < 120; ply++) {
        const int plain = arb_is_dead_position(&p);
        cr_assert_eq(arb__is_dead_position_memo(&p, &memo), plain, "start %zu walk %d ply %d", k,
                     walk, ply);
        steps++;
        dead += plain;
        arb_move moves[ARB_MAX_MOVES], quiet[ARB_MAX_MOVES], other[ARB_MAX_MOVES];
        const int n = arb_generate_legal(&p, moves);
        int nq = 0, no = 0;
        for (int i = 0; i < n; i++) {
          const arb_square from = ARB_MOVE_FROM(moves[i]), to = ARB_MOVE_TO(moves[i]);
          const int pawn = ARB_PIECE_TYPE(p.board[from]) == ARB_PAWN;
          if (!pawn && !p.board[to] && ARB_MOVE_KIND(moves[i]) == ARB_MOVE_NORMAL)
            quiet[nq++] = moves[i];
          else
            other[no++] = moves[i];
        }
        seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        const unsigned r = (unsigned)(seed >> 33);
        arb_move m;
        if (nq && (r % 16 || !no))
          m = quiet[(r / 16) % (unsigned)nq];
        else if (no)
          m = other[(r / 16) % (unsigned)no];
        else
          break;
        arb_undo u;
        arb_make_move(&p, m, &u);
      }
      reused += memo.reused;
    }
  }
  cr_expect_gt(steps, 1500, "%ld steps", steps);
  cr_expect_gt(dead, 100, "dead positions on the walks: %ld", dead);
  cr_expect_gt(reused, 150, "enumerations spared: %llu", (unsigned long long)reused);
}
