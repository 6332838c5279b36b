/* Arbiter — MIT licence, see LICENSE.
 *
 * test_notation.c: FEN/EPD reading, validation and writing; SAN and UCI in and out.
 */
#include <stdio.h>

#include "test_util.h"

#ifndef ARB_TEST_DATA
#define ARB_TEST_DATA "tests/data"
#endif

static arb_status read_fen(const char *fen, uint32_t accept, arb_fen_report *rep) {
  arb_position p;
  return arb_fen_read(&p, fen, accept, rep);
}

Test(fen, syntax_errors_say_where) {
  static const struct {
    const char *fen;
    int field;
    int column;
  } cases[] = {
      {"", 1, 0},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", 1, 34},
      {"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1, 18},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", 1, 42},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", 2, 44},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", 3, 49},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", 4, 51},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", 5, 53},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 y", 6, 55},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", 6, 57},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", 3, 45},
      {"rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1, 19},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKQkq - 0 1", 3, 47},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arb_fen_report rep;
    cr_expect_eq(read_fen(cases[i].fen, 0, &rep), ARB_ERR_FEN_SYNTAX, "'%s'", cases[i].fen);
    cr_expect_eq(rep.field, cases[i].field, "'%s': field %d", cases[i].fen, rep.field);
    cr_expect_eq(rep.column, cases[i].column, "'%s': column %d (%s)", cases[i].fen, rep.column,
                 rep.message);
    cr_expect_neq(rep.message[0], '\0');
  }
}

Test(fen, epd_four_fields_and_blanks) {
  arb_position p;
  cr_assert_eq(
      arb_fen_read(&p, "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR   w KQkq -  ", 0, NULL),
      ARB_OK);
  char out[ARB_FEN_MAX];
  arb_fen_write(&p, out, sizeof out, 0);
  cr_assert_str_eq(out, ARB_FEN_START);
  arb_fen_write(&p, out, sizeof out, ARB_FEN_OUT_EPD);
  cr_assert_str_eq(out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
}

/* Every problem is reported, not just the first. */
Test(fen, all_problems_reported) {
  arb_fen_report rep;
  /* no black king, white pawn on rank 8, black pawn on rank 1, castling without rooks */
  cr_assert_eq(read_fen("P7/8/8/8/8/8/8/p3K3 w Kk - 0 1", 0, &rep), ARB_ERR_FEN_INVALID);
  cr_expect(rep.problems & ARB_FEN_NO_BLACK_KING);
  cr_expect(rep.problems & ARB_FEN_PAWN_ON_BACK_RANK);
  cr_expect(rep.problems & ARB_FEN_BAD_CASTLING);
  /* fatal problems cannot be accepted */
  cr_expect_eq(read_fen("P7/8/8/8/8/8/8/p3K3 w Kk - 0 1", ARB_FEN_PROBLEMS_ALL, &rep),
               ARB_ERR_FEN_INVALID);
}

Test(fen, validity_cases) {
  static const struct {
    const char *fen;
    uint32_t problem;
  } bad[] = {
      {"6rk/8/6K1/4N3/8/8/8/8 b - - 0 1", ARB_FEN_OPPONENT_IN_CHECK},
      {"4k3/8/8/8/8/8/8/P3K3 w - - 0 1", ARB_FEN_PAWN_ON_BACK_RANK},
      {"4k3/8/8/8/8/8/8/K3K3 w - - 0 1", ARB_FEN_TOO_MANY_KINGS},
      {"4r2k/8/3n1n2/8/4K3/8/8/8 w - - 0 1", ARB_FEN_TOO_MANY_CHECKERS},
      {"8/8/8/8/8/5k2/8/K3N1N1 b - - 0 1", ARB_FEN_IMPOSSIBLE_CHECK},  /* two knights */
      {"B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1", ARB_FEN_IMPOSSIBLE_CHECK}, /* aligned */
      {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", ARB_FEN_BAD_EN_PASSANT},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", ARB_FEN_BAD_EN_PASSANT},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", ARB_FEN_BAD_CASTLING},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQQBNR w kq - 0 1", ARB_FEN_NO_WHITE_KING},
      {"QQQQQQQQ/QQQQQQQQ/8/8/8/8/8/K6k w - - 0 1", ARB_FEN_TOO_MUCH_MATERIAL},
      {"8/8/8/8/8/8/8/Kk6 w - - 0 1", ARB_FEN_KINGS_ADJACENT},
      /* check by a piece the double step could not have uncovered */
      {"b7/8/8/rPpK4/8/5k2/6p1/7Q w - c6 0 1", ARB_FEN_IMPOSSIBLE_CHECK},
      /* ... also when no pawn could take en passant (the square is still evidence) */
      {"4k3/8/3N4/8/4P3/8/8/4K3 b - e3 0 1", ARB_FEN_IMPOSSIBLE_CHECK},
      /* two rights on one side of the king */
      {"4k3/8/8/8/8/8/8/R2RK3 w QD - 0 1", ARB_FEN_BAD_CASTLING},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    arb_fen_report rep;
    cr_expect_eq(read_fen(bad[i].fen, 0, &rep), ARB_ERR_FEN_INVALID, "%s", bad[i].fen);
    cr_expect(rep.problems & bad[i].problem, "%s: problems %#x", bad[i].fen, rep.problems);
    if (rep.problems)
      cr_expect_str_eq(rep.message, arb_fen_problem_message(rep.problems & (0u - rep.problems)));
  }
  static const char *const good[] = {
      "4r2k/8/8/8/8/3n4/8/3QK3 w - - 0 1",                        /* V05 double check */
      "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",                        /* check by the pawn */
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", /* start */
  };
  for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
    arb_fen_report rep;
    cr_expect_eq(read_fen(good[i], 0, &rep), ARB_OK, "%s: %s", good[i], rep.message);
    cr_expect_eq(rep.problems, 0u);
  }
}

/* More men than a chess set has is refused even when every problem is accepted: with 29 queens
 * this position would have 277 legal moves, more than a move list had room for. */
Test(fen, too_many_men_is_fatal) {
  arb_position p;
  arb_fen_report rep;
  const char *fen = "QQQQQQQK/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/kQQQQQQQ w - - 0 1";
  cr_assert_eq(arb_fen_read(&p, fen, ARB_FEN_PROBLEMS_ALL, &rep), ARB_ERR_FEN_INVALID);
  cr_assert(rep.problems & ARB_FEN_TOO_MANY_MEN);
  cr_assert(rep.problems & ARB_FEN_TOO_MUCH_MATERIAL);
  cr_assert_str_eq(arb_fen_problem_name(ARB_FEN_TOO_MANY_MEN), "too_many_men");
  /* 16 men are still accepted as too much material: a king and 15 queens with 245 moves, more
   * than any position of a game (218) */
  const char *most = "1Q4QK/4Q3/Q1Q4Q/Q4Q2/3Q4/1Q4Q1/Q3Q3/k1Q4Q w - - 0 1";
  cr_assert_eq(arb_fen_read(&p, most, ARB_FEN_PROBLEMS_ALL, &rep), ARB_OK);
  cr_assert_eq(rep.problems & ARB_FEN_TOO_MANY_MEN, 0u);
  arb_move moves[ARB_MAX_MOVES];
  const int n = arb_generate_legal(&p, moves);
  cr_assert_eq(n, arb_count_legal(&p));
  cr_assert_gt(n, 218);
  for (int i = 0; i < n; i++)
    cr_assert(arb_is_legal(&p, moves[i]));
}

Test(fen, accept_chosen_problems) {
  arb_position p;
  arb_fen_report rep;
  const char *fen = "6rk/8/6K1/4N3/8/8/8/8 b - - 0 1";
  cr_assert_eq(arb_fen_read(&p, fen, ARB_FEN_OPPONENT_IN_CHECK, &rep), ARB_OK);
  cr_assert(rep.problems & ARB_FEN_OPPONENT_IN_CHECK, "still reported when accepted");
  /* the king that stands in check can never be captured */
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(&p, moves);
  for (int i = 0; i < n; i++)
    cr_assert_neq(ARB_MOVE_TO(moves[i]), ARB_SQUARE(6, 5), "king capture generated");
}

Test(fen, en_passant_written_only_when_legal) {
  char out[ARB_FEN_MAX];
  /* legal capture: kept */
  arb_position p = test_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  arb_fen_write(&p, out, sizeof out, 0);
  cr_assert_str_eq(out, "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  /* no pawn can take: dropped (input accepts any valid square) */
  p = test_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  arb_fen_write(&p, out, sizeof out, 0);
  cr_assert_str_eq(out, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  /* C04: capture exposes the king on the rank: dropped */
  p = test_fen("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1");
  arb_fen_write(&p, out, sizeof out, 0);
  cr_assert_str_eq(out, "8/8/8/KPp4r/8/8/8/4k3 w - - 0 1");
}

Test(fen, castling_notations) {
  char out[ARB_FEN_MAX];
  arb_position p = test_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
  arb_fen_write(&p, out, sizeof out, 0);
  cr_assert_str_eq(out, ARB_FEN_START);
  cr_assert_eq(p.chess960, 0);
  arb_fen_write(&p, out, sizeof out, ARB_FEN_OUT_SHREDDER);
  cr_assert_str_eq(out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
  p = test_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
  cr_assert_eq(p.chess960, 1);
  arb_fen_write(&p, out, sizeof out, 0);
  cr_assert_str_eq(out, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
}

Test(fen, standard_or_chess960_on_request) {
  arb_position p;
  arb_fen_report rep;
  const char *fen = "4k3/8/8/8/8/8/8/3K3R w K - 0 1";
  cr_assert_eq(arb_fen_read(&p, fen, 0, &rep), ARB_OK);
  cr_assert_eq(p.chess960, 1, "inferred: the king is not on e1");
  cr_assert_eq(arb_fen_read(&p, fen, ARB_FEN_READ_STANDARD, &rep), ARB_ERR_FEN_INVALID);
  cr_assert(rep.problems & ARB_FEN_BAD_CASTLING);
  cr_assert_eq(arb_fen_read(&p, ARB_FEN_START, ARB_FEN_READ_CHESS960, &rep), ARB_OK);
  cr_assert_eq(p.chess960, 1);
  char uci[8];
  arb_uci_write(&p, test_uci(&p, "e2e4"), uci, sizeof uci);
  cr_assert_str_eq(uci, "e2e4");
}

Test(fen, halfmove_clock_saturates) {
  arb_position p = test_fen("4k3/8/8/8/8/8/8/4K3 w - - 65535 1");
  test_play(&p, "e1d1");
  cr_assert_eq(p.halfmove_clock, 65535, "never wraps to 0");
}

Test(fen, snprintf_convention) {
  arb_position p;
  arb_position_startpos(&p);
  char small[10];
  int need = arb_fen_write(&p, small, sizeof small, 0);
  cr_assert_eq(need, (int)strlen(ARB_FEN_START));
  cr_assert_str_eq(small, "rnbqkbnr/");
  cr_assert_eq(arb_fen_write(&p, NULL, 0, 0), need);
}

/* ---- SAN ---- */

static void expect_san(const char *fen, const char *uci, const char *san) {
  arb_position p = test_fen(fen);
  arb_move m = test_uci(&p, uci);
  char out[ARB_SAN_MAX];
  arb_san_write(&p, m, out, sizeof out);
  cr_expect_str_eq(out, san, "%s %s", fen, uci);
  arb_move back;
  cr_expect_eq(arb_san_read(&p, san, strlen(san), ARB_SAN_STRICT, &back, NULL), ARB_OK, "%s", san);
  cr_expect_eq(back, m, "%s", san);
}

Test(san, writing) {
  expect_san(ARB_FEN_START, "g1f3", "Nf3");
  expect_san(ARB_FEN_START, "e2e4", "e4");
  /* disambiguation: file first, then rank, then both */
  expect_san("k7/8/8/8/8/8/8/1N1N3K w - - 0 1", "b1c3", "Nbc3");
  expect_san("k7/8/8/1N6/8/8/8/1N5K w - - 0 1", "b1c3", "N1c3");
  expect_san("7k/8/8/8/Q1Q5/8/Q7/K7 w - - 0 1", "a4b3", "Qa4b3");
  /* a pinned piece does not count for disambiguation */
  expect_san("k7/8/8/4b1N1/8/2N5/8/K7 w - - 0 1", "g5e4", "Ne4");
  expect_san("k7/8/8/6N1/8/2N5/8/K7 w - - 0 1", "g5e4", "Nge4");
  /* promotion, capture-promotion, check and mate marks, castling, en passant */
  expect_san("8/P7/8/8/8/8/8/k6K w - - 0 1", "a7a8q", "a8=Q+");
  expect_san("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8n", "axb8=N");
  expect_san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "O-O");
  expect_san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "O-O-O");
  expect_san("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", "exf6");
  expect_san("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#");
  expect_san("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O+");
}

static arb_status san_in(const char *fen, const char *text, unsigned flags, arb_move *m,
                         arb_san_error *err) {
  arb_position p = test_fen(fen);
  return arb_san_read(&p, text, strlen(text), flags, m, err);
}

Test(san, lenient_input) {
  static const struct {
    const char *fen, *text, *uci;
  } cases[] = {
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0", "e1g1"},
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0-0", "e1c1"},
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O+!?", "e1g1"},
      {"8/P7/8/8/8/8/8/k6K w - - 0 1", "a8Q", "a7a8q"},
      {"8/P7/8/8/8/8/8/k6K w - - 0 1", "a8=Q", "a7a8q"},
      {"8/P7/8/8/8/8/8/k6K w - - 0 1", "a8=N", "a7a8n"},
      {"8/P7/8/8/8/8/8/k6K w - - 0 1", "a8(R)", "a7a8r"},
      {"8/P7/8/8/8/8/8/k6K w - - 0 1", "a7a8q", "a7a8q"},
      {ARB_FEN_START, "Ng1f3", "g1f3"},
      {ARB_FEN_START, "Ng1-f3", "g1f3"},
      {ARB_FEN_START, "Nf3!!", "g1f3"},
      {ARB_FEN_START, "Nf3??", "g1f3"},
      {ARB_FEN_START, "Pe4", "e2e4"},
      {ARB_FEN_START, "e2e4", "e2e4"},
      {ARB_FEN_START, "e2-e4", "e2e4"},
      {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6 e.p.", "e5f6"},
      {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "exf6ep", "e5f6"},
      {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "ef6", "e5f6"},
      /* "b" is always a file: bxc3 is a pawn capture even with a bishop able to take */
      {"4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1", "bxc3", "b2c3"},
      {"4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1", "Bxc3", "d2c3"},
      {"4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "Nxf3", "g1f3"}, /* wrong capture mark, lenient */
      /* annotations, check marks and "e.p." in any order */
      {ARB_FEN_START, "e4!+", "e2e4"},
      {ARB_FEN_START, "e4 !?", "e2e4"},
      {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6+ e.p.", "e5d6"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arb_move m;
    arb_san_error err;
    arb_status st = san_in(cases[i].fen, cases[i].text, 0, &m, &err);
    cr_expect_eq(st, ARB_OK, "'%s': %s", cases[i].text, err.message);
    if (st != ARB_OK) continue;
    arb_position p = test_fen(cases[i].fen);
    char uci[8];
    arb_uci_write(&p, m, uci, sizeof uci);
    cr_expect_str_eq(uci, cases[i].uci, "'%s'", cases[i].text);
  }
}

Test(san, strict_rejects_what_lenient_accepts) {
  static const struct {
    const char *fen, *text;
  } cases[] = {
      {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "0-0"},
      {"8/P7/8/8/8/8/8/k6K w - - 0 1", "a8Q"},
      {ARB_FEN_START, "Ng1f3"},
      {ARB_FEN_START, "Nxf3"},
      {ARB_FEN_START, "Nf3+"}, /* wrong check mark */
      {"8/P7/8/8/8/8/8/k6K w - - 0 1", "a8=Q#"},
      {"k7/8/8/8/8/8/8/1N1N3K w - - 0 1", "Nb1c3"}, /* over-disambiguation */
      {ARB_FEN_START, "e2e4"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arb_move m;
    arb_san_error err;
    cr_expect_eq(san_in(cases[i].fen, cases[i].text, 0, &m, &err), ARB_OK, "'%s' lenient",
                 cases[i].text);
    cr_expect_eq(san_in(cases[i].fen, cases[i].text, ARB_SAN_STRICT, &m, &err), ARB_ERR_MOVE_SYNTAX,
                 "'%s' strict", cases[i].text);
    cr_expect_neq(err.message[0], '\0');
  }
}

Test(san, errors_are_classified) {
  arb_move m;
  arb_san_error err;
  cr_expect_eq(san_in(ARB_FEN_START, "Nf4", 0, &m, &err), ARB_ERR_MOVE_ILLEGAL);
  cr_expect_eq(san_in(ARB_FEN_START, "e5", 0, &m, &err), ARB_ERR_MOVE_ILLEGAL);
  cr_expect_eq(san_in(ARB_FEN_START, "O-O", 0, &m, &err), ARB_ERR_MOVE_ILLEGAL);
  cr_expect_eq(san_in(ARB_FEN_START, "Zz9", 0, &m, &err), ARB_ERR_MOVE_SYNTAX);
  cr_expect_eq(san_in(ARB_FEN_START, "", 0, &m, &err), ARB_ERR_MOVE_SYNTAX);
  cr_expect_eq(san_in(ARB_FEN_START, "N", 0, &m, &err), ARB_ERR_MOVE_SYNTAX);
  cr_expect_eq(san_in(ARB_FEN_START, "--", 0, &m, &err), ARB_ERR_NULL_MOVE);
  /* a pawn capture always names the pawn's file: "e4" is never dxe4, "d6" never exd6 e.p. */
  cr_expect_eq(san_in("4k3/8/8/8/4n3/3P4/8/4K3 w - - 0 1", "e4", 0, &m, &err),
               ARB_ERR_MOVE_ILLEGAL);
  cr_expect_eq(san_in("4k3/8/8/8/4n3/3P4/8/4K3 w - - 0 1", "xe4", 0, &m, &err),
               ARB_ERR_MOVE_ILLEGAL);
  cr_expect_eq(san_in("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "d6", 0, &m, &err),
               ARB_ERR_MOVE_ILLEGAL);
  cr_expect_eq(san_in(ARB_FEN_START, "--", ARB_SAN_ALLOW_NULL, &m, &err), ARB_OK);
  cr_expect_eq(m, ARB_MOVE_NULL);
  /* a pawn on the seventh must say what it becomes */
  cr_expect_eq(san_in("8/P7/8/8/8/8/8/k6K w - - 0 1", "a8", 0, &m, &err), ARB_ERR_MOVE_ILLEGAL);
  /* ambiguity names the candidates */
  cr_assert_eq(san_in("k7/8/8/8/8/8/8/1N1N3K w - - 0 1", "Nc3", 0, &m, &err),
               ARB_ERR_MOVE_AMBIGUOUS);
  cr_assert_eq(err.candidates_count, 2);
  cr_expect(strstr(err.message, "b1") && strstr(err.message, "d1"), "%s", err.message);
}

Test(san, writing_an_illegal_move_fails_cleanly) {
  arb_position p;
  arb_position_startpos(&p);
  char out[ARB_SAN_MAX] = "x";
  cr_assert_eq(arb_san_write(&p, ARB_MOVE_MAKE(28, 36), out, sizeof out), ARB_ERR_MOVE_ILLEGAL);
  cr_assert_str_eq(out, "");
  cr_assert_eq(arb_san_write(&p, ARB_MOVE_NONE, out, sizeof out), ARB_ERR_MOVE_ILLEGAL);
  cr_assert_eq(arb_lan_write(&p, ARB_MOVE_MAKE(28, 36), out, sizeof out), ARB_ERR_MOVE_ILLEGAL);
  cr_assert_eq(arb_gives_check(&p, ARB_MOVE_MAKE(28, 36)), 0);
  /* the special-move constructor ignores the piece for other kinds */
  cr_assert_eq(ARB_MOVE_KIND(ARB_MOVE_MAKE_SPECIAL(12, 28, ARB_MOVE_NORMAL, 0)), ARB_MOVE_NORMAL);
}

Test(uci, in_and_out) {
  arb_position p = test_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  arb_move a, b;
  cr_assert_eq(arb_uci_read(&p, "e1g1", 4, 0, &a), ARB_OK);
  cr_assert_eq(arb_uci_read(&p, "e1h1", 4, 0, &b), ARB_OK, "king takes rook accepted");
  cr_assert_eq(a, b);
  cr_assert_eq(ARB_MOVE_KIND(a), ARB_MOVE_CASTLING);
  char out[8];
  arb_uci_write(&p, a, out, sizeof out);
  cr_assert_str_eq(out, "e1g1");
  cr_expect_eq(arb_uci_read(&p, "0000", 4, 0, &a), ARB_ERR_NULL_MOVE);
  cr_expect_eq(arb_uci_read(&p, "0000", 4, 1, &a), ARB_OK);
  cr_expect_eq(a, ARB_MOVE_NULL);
  cr_expect_eq(arb_uci_read(&p, "e1e3", 4, 0, &a), ARB_ERR_MOVE_ILLEGAL);
  cr_expect_eq(arb_uci_read(&p, "e1", 2, 0, &a), ARB_ERR_MOVE_SYNTAX);
  cr_expect_eq(arb_uci_read(&p, "e1e2x", 5, 0, &a), ARB_ERR_MOVE_SYNTAX);
  p = test_fen("8/P7/8/8/8/8/8/k6K w - - 0 1");
  cr_expect_eq(arb_uci_read(&p, "a7a8", 4, 0, &a), ARB_ERR_MOVE_ILLEGAL, "promotion needs a piece");
  cr_expect_eq(arb_uci_read(&p, "a7a8N", 5, 0, &a), ARB_OK);
  cr_expect_eq(ARB_MOVE_PROMO(a), ARB_KNIGHT);
  /* Chess960 writes king-takes-rook */
  p = test_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
  arb_lan_write(&p, test_uci(&p, "e2e4"), out, sizeof out);
  cr_expect_str_eq(out, "e2-e4");
}

/* A move from its squares, as the Python package and the page give it. */
Test(uci, from_squares) {
  arb_position p = test_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  arb_move a, b;
  cr_assert_eq(arb_move_from_squares(&p, 4, 6, 0, &a), ARB_OK, "e1g1");
  cr_assert_eq(arb_move_from_squares(&p, 4, 7, 0, &b), ARB_OK, "e1h1, king takes rook");
  cr_assert_eq(a, b);
  cr_assert_eq(ARB_MOVE_KIND(a), ARB_MOVE_CASTLING);
  cr_expect_eq(arb_move_from_squares(&p, 4, 20, 0, &a), ARB_ERR_MOVE_ILLEGAL, "e1e3");
  cr_expect_eq(a, ARB_MOVE_NONE);
  cr_expect_eq(arb_move_from_squares(&p, 4, 64, 0, &a), ARB_ERR_ARGUMENT);
  cr_expect_eq(arb_move_from_squares(&p, 4, 5, ARB_PAWN, &a), ARB_ERR_ARGUMENT);
  cr_expect_eq(arb_move_from_squares(&p, 4, 5, ARB_KING, &a), ARB_ERR_ARGUMENT);
  cr_expect_eq(arb_move_from_squares(&p, 4, 6, ARB_QUEEN, &a), ARB_ERR_MOVE_ILLEGAL,
               "castling takes no promotion piece");
  p = test_fen("8/P7/8/8/8/8/8/k6K w - - 0 1");
  cr_expect_eq(arb_move_from_squares(&p, 48, 56, 0, &a), ARB_ERR_MOVE_ILLEGAL);
  cr_expect_eq(arb_move_from_squares(&p, 48, 56, ARB_ROOK, &a), ARB_OK);
  cr_expect_eq(ARB_MOVE_PROMO(a), ARB_ROOK);
  /* en passant: the capture's squares */
  p = test_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
  cr_expect_eq(arb_move_from_squares(&p, 36, 43, 0, &a), ARB_OK);
  cr_expect_eq(ARB_MOVE_KIND(a), ARB_MOVE_EN_PASSANT);
}

/* SAN and UCI round trips over random games. */
Test(san, round_trips_random_games) {
  uint64_t seed = 99;
  for (int game = 0; game < 200; game++) {
    arb_position p = test_fen(test_starts[game % TEST_STARTS]);
    for (int ply = 0; ply < 120; ply++) {
      arb_move moves[ARB_MAX_MOVES];
      int n = arb_generate_legal(&p, moves);
      if (!n) break;
      for (int i = 0; i < n; i++) {
        char san[ARB_SAN_MAX], uci[8];
        arb_move back;
        arb_san_error err;
        arb_san_write(&p, moves[i], san, sizeof san);
        cr_assert_eq(arb_san_read(&p, san, strlen(san), ARB_SAN_STRICT, &back, &err), ARB_OK,
                     "%s: %s", san, err.message);
        cr_assert_eq(back, moves[i], "%s", san);
        arb_uci_write(&p, moves[i], uci, sizeof uci);
        cr_assert_eq(arb_uci_read(&p, uci, strlen(uci), 0, &back), ARB_OK, "%s", uci);
        cr_assert_eq(back, moves[i], "%s", uci);
      }
      arb_undo u;
      arb_make_move(&p, moves[test_rand(&seed) % (uint64_t)n], &u);
    }
  }
}

/* What a lenient SAN text means, worked out here independently of san.c from the grammar:
 * [piece] [from file] [from rank] [x] file rank [=piece] [+#] [!?...].  A pawn without a from
 * file, or with its destination's file, pushes; a pawn reaching the last rank must name its
 * piece.  Fills fits with the legal moves the text names; -1 for a text outside this grammar or
 * UCI-shaped (e2e4, which the reader takes as UCI). */
static int san_reference(const arb_position *p, const char *t, arb_move *fits) {
  const char *pieces = "NBRQK";
  size_t i = 0, n = strlen(t);
  int type = ARB_PAWN;
  if (n && strchr(pieces, t[0])) type = (int)(strchr(pieces, t[0]) - pieces) + ARB_KNIGHT, i = 1;
  int sq[2][2] = {{-1, -1}, {-1, -1}}, k = 0, x = 0;
  for (; i < n && k < 2; k++) {
    if (t[i] == 'x' && !x) x = 1, i++;
    if (i < n && t[i] >= 'a' && t[i] <= 'h') sq[k][0] = t[i++] - 'a';
    if (i < n && t[i] >= '1' && t[i] <= '8') sq[k][1] = t[i++] - '1';
    if (sq[k][0] < 0 && sq[k][1] < 0) break;
  }
  int ff = -1, fr = -1, df, dr;
  if (k == 2 && sq[1][0] >= 0 && sq[1][1] >= 0)
    ff = sq[0][0], fr = sq[0][1], df = sq[1][0], dr = sq[1][1];
  else if (sq[0][0] >= 0 && sq[0][1] >= 0 && sq[1][0] < 0 && sq[1][1] < 0)
    df = sq[0][0], dr = sq[0][1];
  else
    return -1;
  if (type == ARB_PAWN && !x && ff >= 0 && fr >= 0) return -1; /* UCI-shaped */
  int promo = 0;
  if (i + 1 < n && t[i] == '=' && strchr("NBRQ", t[i + 1]))
    promo = (int)(strchr(pieces, t[i + 1]) - pieces) + ARB_KNIGHT, i += 2;
  if (i < n && (t[i] == '+' || t[i] == '#')) i++;
  while (i < n && (t[i] == '!' || t[i] == '?'))
    i++;
  if (i != n) return -1;
  if (type == ARB_PAWN && ff < 0) ff = df;
  arb_move moves[ARB_MAX_MOVES];
  int nm = arb_generate_legal(p, moves), found = 0;
  for (int m = 0; m < nm; m++) {
    arb_square from = ARB_MOVE_FROM(moves[m]), to = ARB_MOVE_TO(moves[m]);
    if (ARB_MOVE_KIND(moves[m]) == ARB_MOVE_CASTLING) continue;
    if ((int)ARB_PIECE_TYPE(p->board[from]) != type || to != ARB_SQUARE(df, dr)) continue;
    if ((ff >= 0 && (int)ARB_FILE_OF(from) != ff) || (fr >= 0 && (int)ARB_RANK_OF(from) != fr))
      continue;
    if (type == ARB_PAWN && (ff == df) != (ARB_FILE_OF(from) == ARB_FILE_OF(to))) continue;
    int mp = ARB_MOVE_KIND(moves[m]) == ARB_MOVE_PROMOTION ? (int)ARB_MOVE_PROMO(moves[m]) : 0;
    if (mp != promo) continue;
    fits[found++] = moves[m];
  }
  return found;
}

/* Lenient reading of texts near the real SAN (over- and under-disambiguated, capture marks
 * added or dropped, annotations, a wrong piece or square) agrees with the grammar worked out by
 * san_reference: read when exactly one legal move fits, refused otherwise. */
Test(san, lenient_reading_matches_the_grammar) {
  uint64_t seed = 7;
  int checked = 0;
  for (int game = 0; game < 120; game++) {
    arb_position p = test_fen(test_starts[game % TEST_STARTS]);
    for (int ply = 0; ply < 100; ply++) {
      arb_move moves[ARB_MAX_MOVES];
      int n = arb_generate_legal(&p, moves);
      if (!n) break;
      for (int i = 0; i < n; i++) {
        arb_square from = ARB_MOVE_FROM(moves[i]), to = ARB_MOVE_TO(moves[i]);
        if (ARB_MOVE_KIND(moves[i]) == ARB_MOVE_CASTLING) {
          /* O-O when the king takes the rook towards the h-file, O-O-O otherwise, with the
           * marks that may follow (the refusals: below, after the moves). */
          for (int v = 0; v < 4; v++) {
            char t[16];
            uint64_t r = test_rand(&seed);
            snprintf(t, sizeof t, "%s%s%s", to > from ? "O-O" : "O-O-O",
                     v & 1 ? ((r & 1) ? "+" : "#") : "", v & 2 ? ((r & 2) ? "!?" : "?") : "");
            arb_move got;
            cr_assert_eq(arb_san_read(&p, t, strlen(t), 0, &got, NULL), ARB_OK, "%s", t);
            cr_assert_eq(got, moves[i], "%s", t);
            checked++;
          }
          continue;
        }
        for (int v = 0; v < 6; v++) {
          uint64_t r = test_rand(&seed);
          char t[24];
          size_t k = 0;
          int type = (int)ARB_PIECE_TYPE(p.board[from]);
          if (r % 11 == 0) type = 1 + (int)((r >> 8) % 6); /* a wrong piece, sometimes */
          if (type != ARB_PAWN) t[k++] = " PNBRQK"[type];
          if ((r >> 4) & 1) t[k++] = (char)('a' + ARB_FILE_OF(from));
          if ((r >> 5) & 1) t[k++] = (char)('1' + ARB_RANK_OF(from));
          if ((r >> 6) & 1) t[k++] = 'x';
          int df = ARB_FILE_OF(to), dr = ARB_RANK_OF(to);
          if (r % 13 == 0) df = (df + 1) % 8;
          t[k++] = (char)('a' + df);
          t[k++] = (char)('1' + dr);
          if (ARB_MOVE_KIND(moves[i]) == ARB_MOVE_PROMOTION && (r >> 7) % 4) {
            t[k++] = '=';
            t[k++] = " PNBRQK"[(r >> 9) % 5 ? ARB_MOVE_PROMO(moves[i]) : ARB_QUEEN];
          }
          if ((r >> 12) % 3 == 0) t[k++] = (r >> 14) & 1 ? '+' : '#';
          if ((r >> 15) % 4 == 0) t[k++] = '!';
          if ((r >> 17) % 4 == 0) t[k++] = '?';
          t[k] = '\0';
          arb_move fits[ARB_MAX_MOVES], got;
          int expect = san_reference(&p, t, fits);
          if (expect < 0) continue;
          arb_status st = arb_san_read(&p, t, k, 0, &got, NULL);
          if (expect == 1) {
            cr_assert_eq(st, ARB_OK, "%s should read", t);
            cr_assert_eq(got, fits[0], "%s", t);
          } else {
            cr_assert_neq(st, ARB_OK, "%s fits %d moves", t, expect);
          }
          checked++;
        }
      }
      /* Castling text reads exactly when such a castling move is legal. */
      for (int side = 0; side < 2; side++) {
        int legal = 0;
        for (int i = 0; i < n; i++)
          if (ARB_MOVE_KIND(moves[i]) == ARB_MOVE_CASTLING &&
              (ARB_MOVE_TO(moves[i]) > ARB_MOVE_FROM(moves[i])) == (side == 0))
            legal = 1;
        const char *t = side == 0 ? "O-O+" : "O-O-O";
        arb_move got;
        cr_assert_eq(arb_san_read(&p, t, strlen(t), 0, &got, NULL) == ARB_OK, legal, "%s", t);
      }
      arb_undo u;
      arb_make_move(&p, moves[test_rand(&seed) % (uint64_t)n], &u);
    }
  }
  cr_assert_gt(checked, 50000);
}

/* Chess960 FENs (tests/data/perft/chess960.epd) round-trip in both castling notations, and
 * keep their move lists. */
Test(fen, chess960_round_trips) {
  FILE *f = fopen(ARB_TEST_DATA "/perft/chess960.epd", "r");
  cr_assert_not_null(f);
  char line[512];
  int n = 0;
  while (fgets(line, sizeof line, f)) {
    char *semi = strchr(line, ';');
    if (semi) *semi = '\0';
    arb_position p;
    arb_fen_report rep;
    cr_assert_eq(arb_fen_read(&p, line, 0, &rep), ARB_OK, "%s: %s", line, rep.message);
    for (unsigned flags = 0; flags <= ARB_FEN_OUT_SHREDDER; flags += ARB_FEN_OUT_SHREDDER) {
      char out[ARB_FEN_MAX], again[ARB_FEN_MAX];
      arb_fen_write(&p, out, sizeof out, flags);
      arb_position q;
      cr_assert_eq(arb_fen_read(&q, out, ARB_FEN_READ_CHESS960, &rep), ARB_OK, "%s", out);
      cr_assert_eq(q.castling_rooks, p.castling_rooks, "%s: castling rights", out);
      cr_assert_eq(q.key, p.key, "%s: key", out);
      arb_fen_write(&q, again, sizeof again, flags);
      cr_assert_str_eq(again, out);
      cr_assert_eq(arb_perft(&q, 2), arb_perft(&p, 2), "%s", out);
    }
    n++;
  }
  fclose(f);
  cr_assert_eq(n, 120);
}
