/* Arbiter — MIT licence, see LICENSE.
 *
 * test_train.c: the trainer's library pieces (arbiter/train.h) — lichess's puzzle CSV read and
 * written back exactly (the sample row of lichess's database page), quoting by RFC 4180, refusals
 * naming the field, and the proof of a puzzle: lichess's own sample (a mate in two) proven, a
 * second solution and a move that forces nothing found, a line ending in neither mate nor a draw
 * left unchecked.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "arbiter/arbiter.h"

static const char *sample =
    "00sHx,q3k1nr/1pp1nQpp/3p4/1P2p3/4P3/B1PP1b2/B5PP/5K2 b k - 0 17,e8d7 a2e6 d7d8 f7f8,1760,80,"
    "83,72,mate mateIn2 middlegame short,https://lichess.org/yyznGmXs/black#34,"
    "Italian_Game Italian_Game_Classical_Variation";

Test(train, lichess_sample_row_reads_and_writes_back) {
  arb_puzzle p;
  char err[128], out[1024];
  cr_assert_eq(arb_puzzle_csv_read(sample, strlen(sample), &p, err, sizeof err), ARB_OK, "%s", err);
  cr_assert_str_eq(p.id, "00sHx");
  cr_assert_eq(p.nmoves, 4);
  cr_assert_str_eq(p.moves[0], "e8d7");
  cr_assert_str_eq(p.moves[3], "f7f8");
  cr_assert_eq(p.rating, 1760);
  cr_assert_eq(p.rating_deviation, 80);
  cr_assert_eq(p.popularity, 83);
  cr_assert_eq(p.plays, 72);
  cr_assert(arb_puzzle_has_theme(&p, "mateIn2"));
  cr_assert_not(arb_puzzle_has_theme(&p, "mate mateIn2"));
  cr_assert_not(arb_puzzle_has_theme(&p, "mateIn"));
  int n = arb_puzzle_csv_write(&p, out, sizeof out);
  cr_assert_eq(n, (int)strlen(sample));
  cr_assert_str_eq(out, sample);
  /* snprintf convention: the length needed, the buffer cut */
  char small[10];
  cr_assert_eq(arb_puzzle_csv_write(&p, small, sizeof small), n);
  cr_assert_eq(strlen(small), 9);
}

Test(train, quoting_and_refusals) {
  arb_puzzle p;
  char err[128], out[1024];
  const char *q =
      "id1,8/8/8/8/8/8/8/K6k w - - 0 1,a1a2 h1h2,1500,500,0,0,\"a, b\",\"say \"\"hi\"\"\",";
  cr_assert_eq(arb_puzzle_csv_read(q, strlen(q), &p, err, sizeof err), ARB_OK, "%s", err);
  cr_assert_str_eq(p.themes, "a, b");
  cr_assert_str_eq(p.game_url, "say \"hi\"");
  arb_puzzle_csv_write(&p, out, sizeof out);
  cr_assert_str_eq(out, q);
  const char *h = arb_puzzle_csv_header();
  cr_assert_eq(arb_puzzle_csv_read(h, strlen(h), &p, err, sizeof err), ARB_ERR_ARGUMENT);
  cr_assert_str_eq(err, "the header");
  const char *bad[][2] = {{"x,fen,e2e4 e7e5,12a,1,1,1,,,", "Rating"},
                          {"x,fen,e2e4,1,1,1,1,,,", "Moves"},
                          {"x,fen,e2e4 banana,1,1,1,1,,,", "Moves"},
                          {"x,fen,e2e4 e7e5,1,1,1,1,\"open,,", "Themes"},
                          {",fen,e2e4 e7e5,1,1,1,1,,,", "PuzzleId"},
                          {"x,fen,e2e4 e7e5,1,1,1,1,,,,extra", "more than 10"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cr_assert_eq(arb_puzzle_csv_read(bad[i][0], strlen(bad[i][0]), &p, err, sizeof err),
                 ARB_ERR_ARGUMENT, "%s", bad[i][0]);
    cr_assert(strstr(err, bad[i][1]), "%s: %s", bad[i][0], err);
  }
}

static arb_puzzle_check check(const char *row) {
  arb_puzzle p;
  char err[128];
  cr_assert_eq(arb_puzzle_csv_read(row, strlen(row), &p, err, sizeof err), ARB_OK, "%s", err);
  arb_solver *s = arb_solver_new(1 << 20);
  arb_puzzle_check c;
  cr_assert_eq(arb_puzzle_check_record(s, &p, 0, &c), ARB_OK);
  arb_solver_free(s);
  return c;
}

Test(train, puzzles_are_proven_or_their_fault_found) {
  /* lichess's sample: after ...Kd7, Be6+ Kd8 Qf8# — a mate in two with one key */
  arb_puzzle_check c = check(sample);
  cr_assert_eq(c.verdict, ARB_PUZZLE_OK, "%s", c.message);
  cr_assert_eq(c.goal, ARB_SOLVE_MATE);
  cr_assert_eq(c.length, 2);
  /* after ...Ka7, 1.Qb6+ Ka8 2.Qb7# — but 1.Kc7 (Ka8 forced, then Qb7# or Qb8#) mates in two
   * as well: a second solution */
  c = check("x2,k7/8/2K5/1Q6/8/8/8/8 b - - 0 1,a8a7 b5b6 a7a8 b6b7,1500,500,0,0,,,");
  cr_assert_eq(c.verdict, ARB_PUZZLE_SECOND, "%s", c.message);
  cr_assert_str_eq(c.other, "c6c7");
  c = check("x3,1k6/8/2K5/1Q6/8/8/8/8 b - - 0 1,b8a8 b5b1 a8a7 b1b7,1500,500,0,0,,,");
  cr_assert_eq(c.verdict, ARB_PUZZLE_SECOND, "%s", c.message);
  cr_assert_eq(c.ply, 1);
  /* a move that forces nothing, though the defence then blunders into a mate: after ...Qc3,
   * Popeye's only key for a mate in two is Nxc3; 1.Re3 h5?? 2.Qg5# does not make Re3 one */
  c = check(
      "x4,8/p3R2p/p2p1Qpk/3P4/N4PbP/P5K1/3q4/8 b - - 6 36,d2c3 e7e3 h6h5 f6g5,1500,500,0,0,,,");
  cr_assert_eq(c.verdict, ARB_PUZZLE_NO_SOLUTION, "%s", c.message);
  cr_assert_eq(c.ply, 1);
  /* Qb7+ leaves only Kxb7: a dead position the line reaches by force, so the puzzle's goal is a
   * draw, and Kc5 forces one as well: a second solution */
  c = check("x4b,1k6/8/2K5/1Q6/8/8/8/8 b - - 0 1,b8a8 c6d6 a8a7 b5b7,1500,500,0,0,,,");
  cr_assert_eq(c.goal, ARB_SOLVE_DRAW);
  cr_assert_eq(c.verdict, ARB_PUZZLE_SECOND, "%s", c.message);
  /* a line that ends in neither mate nor a draw */
  c = check(
      "x5,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,e2e4 e7e5,1500,500,0,0,,,");
  cr_assert_eq(c.verdict, ARB_PUZZLE_UNCHECKED);
  /* an illegal move */
  c = check(
      "x6,rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1,e2e5 e7e5,1500,500,0,0,,,");
  cr_assert_eq(c.verdict, ARB_PUZZLE_BAD);
  cr_assert_eq(c.ply, 0);
  /* a rescue: the king takes the last pawn (a dead position), one key */
  c = check("x7,8/8/8/3k4/8/3P4/8/6K1 w - - 0 1,d3d4 d5d4,1500,500,0,0,,,");
  cr_assert_eq(c.verdict, ARB_PUZZLE_OK, "%s", c.message);
  cr_assert_eq(c.goal, ARB_SOLVE_DRAW);
}
