/* Arbiter — MIT licence, see LICENSE.
 *
 * test_edit.c: board editing and the move and board queries (pins, attackers, pseudo-legal
 * moves, move info, Chess960 numbers, FEN with the en passant square always written).
 * Expected values come from python-chess's test.py (test_pin, test_attackers, test_move_info,
 * test_is_irreversible, test_chess960_pos, test_fen_en_passant, test_move_count, ...) or from
 * the rules; the FEN reader's report is the reference for the validation of edited boards.
 */
#include <stdio.h>

#include "test_util.h"

#define SQ(name) ((arb_square)(((name)[1] - '1') * 8 + ((name)[0] - 'a')))
#define BB(name) ((arb_bitboard)1 << SQ(name))

/* Sets up the placement, side and castling of a FEN through the editing functions only: the
 * test's own reading of the text, so the FEN reader is not involved. */
static void edit_from_fen(arb_position *p, const char *fen) {
  arb_position_clear(p);
  int rank = 7, file = 0;
  const char *s = fen;
  for (; *s != ' '; s++) {
    if (*s == '/') {
      rank--;
      file = 0;
    } else if (*s >= '1' && *s <= '8') {
      file += *s - '0';
    } else {
      const char *w = strchr("PNBRQK", *s), *b = strchr("pnbrqk", *s);
      arb_piece pc = w ? ARB_MAKE_PIECE(ARB_WHITE, w - "PNBRQK" + 1)
                       : ARB_MAKE_PIECE(ARB_BLACK, b - "pnbrqk" + 1);
      cr_assert_eq(arb_position_put(p, ARB_SQUARE(file, rank), pc), ARB_OK);
      file++;
    }
  }
  s++;
  cr_assert_eq(arb_position_set_turn(p, *s == 'w' ? ARB_WHITE : ARB_BLACK), ARB_OK);
  s += 2;
  arb_bitboard rooks = 0;
  for (; *s != ' '; s++) {
    if (*s == 'K') rooks |= BB("h1");
    if (*s == 'Q') rooks |= BB("a1");
    if (*s == 'k') rooks |= BB("h8");
    if (*s == 'q') rooks |= BB("a8");
  }
  cr_assert_eq(arb_position_set_castling(p, rooks), ARB_OK);
  s++;
  if (*s != '-') cr_assert_eq(arb_position_set_ep(p, SQ(s)), ARB_OK);
}

static const char *fen_of(const arb_position *p, unsigned flags, char *buf) {
  arb_fen_write(p, buf, ARB_FEN_MAX, flags);
  return buf;
}

Test(edit, builds_the_start_position) {
  arb_position p, start;
  edit_from_fen(&p, ARB_FEN_START);
  cr_assert_eq(arb_position_validate(&p, 0, NULL), ARB_OK);
  char buf[ARB_FEN_MAX];
  cr_assert_str_eq(fen_of(&p, 0, buf), ARB_FEN_START);
  /* The Polyglot key of the start position, from the book format's published examples. */
  cr_assert_eq(p.key, UINT64_C(0x463b96181691fc9c));
  arb_position_startpos(&start);
  cr_assert_eq(arb_count_legal(&p), 20);
  cr_assert_eq(memcmp(p.board, start.board, sizeof p.board), 0);
}

Test(edit, put_remove_and_arguments) {
  arb_position p;
  arb_position_clear(&p);
  cr_assert_eq(arb_position_put(&p, SQ("e4"), ARB_MAKE_PIECE(ARB_WHITE, ARB_QUEEN)), ARB_OK);
  cr_assert_eq(arb_position_put(&p, SQ("e4"), ARB_MAKE_PIECE(ARB_BLACK, ARB_KNIGHT)), ARB_OK);
  cr_assert_eq(p.by_type[0], BB("e4"), "a put replaces what stood there");
  cr_assert_eq(p.by_type[ARB_QUEEN], 0);
  cr_assert_eq(arb_position_remove(&p, SQ("e4")), ARB_MAKE_PIECE(ARB_BLACK, ARB_KNIGHT));
  cr_assert_eq(arb_position_remove(&p, SQ("e4")), ARB_NO_PIECE);
  cr_assert_eq(p.by_type[0], 0);
  cr_assert_eq(arb_position_put(&p, 64, ARB_MAKE_PIECE(ARB_WHITE, ARB_KING)), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_position_put(&p, 0, 7), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_position_put(&p, 0, ARB_MAKE_PIECE(ARB_BLACK, 0)), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_position_set_turn(&p, (arb_color)2), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_position_set_castling(&p, BB("e4")), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_position_set_ep(&p, SQ("e4")), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_position_set_counters(&p, 65536, 1), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_position_set_counters(&p, 0, 0), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_position_set_counters(&p, 12, 40), ARB_OK);
  cr_assert_eq(p.halfmove_clock, 12);
  cr_assert_eq(p.fullmove_number, 40);
  /* An empty board has neither king: both fatal, reported together as by the FEN reader. */
  arb_fen_report rep;
  cr_assert_eq(arb_position_validate(&p, ARB_FEN_PROBLEMS_ALL, &rep), ARB_ERR_FEN_INVALID);
  cr_assert_eq(rep.problems, ARB_FEN_NO_WHITE_KING | ARB_FEN_NO_BLACK_KING);
  cr_assert_str_eq(rep.message, "White has no king");
}

/* Edited boards get exactly the report the FEN reader gives for the same position. */
Test(edit, validation_is_the_fen_readers) {
  static const struct {
    const char *fen;
    uint32_t expect; /* the problems the rules name */
  } cases[] = {
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0},
      {"4k3/8/8/8/8/8/8/8 w - - 0 1", ARB_FEN_NO_WHITE_KING},
      {"4k3/8/8/8/8/8/8/3KK3 w - - 0 1", ARB_FEN_TOO_MANY_KINGS},
      {"4k3/8/8/8/8/8/8/P3K3 w - - 0 1", ARB_FEN_PAWN_ON_BACK_RANK},
      {"4k3/8/8/8/8/8/8/4K3 w K - 0 1", ARB_FEN_BAD_CASTLING},
      {"4k3/8/8/8/8/8/4K3/7R w K - 0 1", ARB_FEN_BAD_CASTLING},
      {"4k3/8/8/8/8/8/8/K3R3 w - - 0 1", ARB_FEN_OPPONENT_IN_CHECK},
      {"3k4/3K4/8/8/8/8/8/8 w - - 0 1", ARB_FEN_KINGS_ADJACENT | ARB_FEN_OPPONENT_IN_CHECK},
      /* python-chess test_impossible_en_passant: STATUS_INVALID_EP_SQUARE */
      {"1b1b4/8/b1P5/2kP4/8/2b4K/8/8 w - c6 0 1", ARB_FEN_BAD_EN_PASSANT},
      {"5K2/8/2pp2Pp/2PP4/P5Pp/2pP1Ppp/P6p/7k b - g3 0 1", ARB_FEN_BAD_EN_PASSANT},
      {"8/7k/8/7p/8/8/8/K7 w - h6 0 1", ARB_FEN_BAD_EN_PASSANT},
      /* python-chess: multiple stepping checkers, STATUS_IMPOSSIBLE_CHECK */
      {"8/8/N7/2k5/N7/8/8/3K4 b - - 0 1", ARB_FEN_IMPOSSIBLE_CHECK},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arb_position a, b;
    arb_fen_report ra, rb;
    arb_status sa = arb_fen_read(&a, cases[i].fen, 0, &ra);
    edit_from_fen(&b, cases[i].fen);
    arb_status sb = arb_position_validate(&b, 0, &rb);
    cr_assert_eq(rb.problems & cases[i].expect, cases[i].expect, "%s: problems %#x", cases[i].fen,
                 rb.problems);
    if (!cases[i].expect) cr_assert_eq(rb.problems, 0, "%s", cases[i].fen);
    cr_assert_eq(sb, sa, "%s", cases[i].fen);
    cr_assert_eq(rb.problems, ra.problems, "%s: edit %#x, FEN %#x", cases[i].fen, rb.problems,
                 ra.problems);
    cr_assert_str_eq(rb.message, ra.message, "%s", cases[i].fen);
    /* Accepting everything that is not fatal drops the bad rights and squares, as reading does. */
    sa = arb_fen_read(&a, cases[i].fen, ARB_FEN_PROBLEMS_ALL, &ra);
    sb = arb_position_validate(&b, ARB_FEN_PROBLEMS_ALL, &rb);
    cr_assert_eq(sb, sa, "%s", cases[i].fen);
    if (sa == ARB_OK) {
      char fa[ARB_FEN_MAX], fb[ARB_FEN_MAX];
      cr_assert_str_eq(fen_of(&b, ARB_FEN_OUT_EP_ALWAYS, fb),
                       fen_of(&a, ARB_FEN_OUT_EP_ALWAYS, fa));
      cr_assert_eq(b.key, a.key, "%s", cases[i].fen);
      cr_assert_eq(b.castling_rooks, a.castling_rooks, "%s", cases[i].fen);
    }
  }
}

Test(edit, refused_validation_leaves_the_position) {
  arb_position p;
  edit_from_fen(&p, "4k3/8/8/8/8/8/8/4K3 w K - 0 1");
  arb_position before = p;
  cr_assert_eq(arb_position_validate(&p, 0, NULL), ARB_ERR_FEN_INVALID);
  cr_assert_eq(memcmp(&p, &before, sizeof p), 0);
  /* Putting the rook back makes the right good. */
  cr_assert_eq(arb_position_put(&p, SQ("h1"), ARB_MAKE_PIECE(ARB_WHITE, ARB_ROOK)), ARB_OK);
  cr_assert_eq(arb_position_validate(&p, 0, NULL), ARB_OK);
  char buf[ARB_FEN_MAX];
  cr_assert_str_eq(fen_of(&p, 0, buf), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
}

/* Chess960 rights by rook squares: python-chess test_from_chess960_pos gives position 909. */
Test(edit, chess960_rook_files) {
  arb_position p, ref;
  edit_from_fen(&p, "rkqbrnbn/pppppppp/8/8/8/8/PPPPPPPP/RKQBRNBN w - - 0 1");
  cr_assert_eq(arb_position_set_castling(&p, BB("a1") | BB("e1") | BB("a8") | BB("e8")), ARB_OK);
  cr_assert(p.chess960, "a king off the e-file makes the rights Chess960");
  cr_assert_eq(arb_position_validate(&p, 0, NULL), ARB_OK);
  char buf[ARB_FEN_MAX];
  cr_assert_str_eq(fen_of(&p, 0, buf), "rkqbrnbn/pppppppp/8/8/8/8/PPPPPPPP/RKQBRNBN w KQkq - 0 1");
  cr_assert_eq(arb_position_chess960_number(&p), 909);
  cr_assert_eq(arb_position_chess960(&ref, 909), ARB_OK);
  cr_assert_eq(p.key, ref.key);
  /* Both castlings of the 909 position once the way is clear (queenside with the a-rook). */
  cr_assert_eq(arb_position_remove(&p, SQ("c1")), ARB_MAKE_PIECE(ARB_WHITE, ARB_QUEEN));
  cr_assert_eq(arb_position_remove(&p, SQ("d1")), ARB_MAKE_PIECE(ARB_WHITE, ARB_BISHOP));
  cr_assert_eq(arb_position_validate(&p, 0, NULL), ARB_OK);
  cr_assert(
      arb_is_legal(&p, ARB_MOVE_MAKE_SPECIAL(SQ("b1"), SQ("a1"), ARB_MOVE_CASTLING, ARB_KNIGHT)));
  /* An inner rook's right is written with its file letter (X-FEN). */
  edit_from_fen(&p, "4k3/8/8/8/8/8/8/RR2K3 w - - 0 1");
  cr_assert_eq(arb_position_set_castling(&p, BB("b1")), ARB_OK);
  cr_assert(p.chess960);
  cr_assert_eq(arb_position_validate(&p, 0, NULL), ARB_OK);
  cr_assert_str_eq(fen_of(&p, 0, buf), "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1");
}

Test(edit, en_passant_and_counters) {
  arb_position p;
  edit_from_fen(&p, "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
  cr_assert_eq(arb_position_set_counters(&p, 0, 33), ARB_OK);
  cr_assert_eq(arb_position_validate(&p, 0, NULL), ARB_OK);
  char buf[ARB_FEN_MAX];
  cr_assert_str_eq(fen_of(&p, 0, buf), "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 33");
  cr_assert(
      arb_is_legal(&p, ARB_MOVE_MAKE_SPECIAL(SQ("d4"), SQ("e3"), ARB_MOVE_EN_PASSANT, ARB_KNIGHT)));
  arb_position q = test_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 33");
  cr_assert_eq(p.key, q.key, "the key includes the en passant file, as after the double step");
}

/* ---- queries ---- */

Test(query_api, pins) {
  /* python-chess test_pin */
  arb_position p = test_fen("rnb1k1nr/2pppppp/3P4/8/1b5q/8/PPPNPBPP/RNBQKB1R w KQkq - 0 1");
  arb_bitboard pinned = arb_pinned(&p, ARB_WHITE);
  cr_assert(pinned & BB("f2"));
  cr_assert(pinned & BB("d2"));
  cr_assert_eq(pinned, BB("f2") | BB("d2"));
  cr_assert_eq(arb_pinned(&p, ARB_BLACK) & (BB("h4") | BB("e8")), 0);
  cr_assert_eq(arb_pin_ray(&p, ARB_WHITE, SQ("b1")), ~(arb_bitboard)0);
  cr_assert_eq(arb_pin_ray(&p, ARB_WHITE, SQ("e1")), ~(arb_bitboard)0);
  cr_assert_eq(arb_pin_ray(&p, ARB_WHITE, SQ("f2")), BB("e1") | BB("f2") | BB("g3") | BB("h4"));
  cr_assert_eq(arb_pin_ray(&p, ARB_WHITE, SQ("d2")),
               BB("e1") | BB("d2") | BB("c3") | BB("b4") | BB("a5"));
  /* python-chess test_pin_in_check: the knight beyond the checking rook is not pinned, the
   * empty square between rook and king would be. */
  p = test_fen("1n1R2k1/2b1qpp1/p3p2p/1p6/1P2Q2P/4PNP1/P4PB1/6K1 b - - 0 1");
  cr_assert_eq(arb_pin_ray(&p, ARB_BLACK, SQ("b8")), ~(arb_bitboard)0);
  cr_assert_neq(arb_pin_ray(&p, ARB_BLACK, SQ("e8")), ~(arb_bitboard)0);
  cr_assert_eq(arb_pinned(&p, ARB_BLACK) & BB("b8"), 0);
}

Test(query_api, attackers) {
  /* python-chess test_attackers */
  arb_position p =
      test_fen("r1b1k2r/pp1n1ppp/2p1p3/q5B1/1b1P4/P1n1PN2/1P1Q1PPP/2R1KB1R b Kkq - 3 10");
  cr_assert_eq(arb_attackers(&p, SQ("c3"), ARB_WHITE, p.by_type[0]),
               BB("c1") | BB("d2") | BB("b2"));
  /* python-chess test_en_passant_attackers */
  p = test_fen("4k3/8/8/8/4pPp1/8/8/4K3 b - f3 0 1");
  cr_assert_eq(arb_attackers(&p, SQ("f3"), ARB_BLACK, p.by_type[0]), BB("e4") | BB("g4"));
  cr_assert_eq(arb_attackers(&p, SQ("f4"), ARB_BLACK, p.by_type[0]), 0);
}

static int has_move(const arb_move *moves, int n, arb_move m) {
  for (int i = 0; i < n; i++)
    if (moves[i] == m) return 1;
  return 0;
}

Test(query_api, pseudo_legal_moves) {
  arb_move moves[ARB_MAX_MOVES];
  /* python-chess test_move_count and test_pawn_move_generation */
  arb_position p = test_fen("1N2k3/P7/8/8/3n4/8/2PP4/R3K2R w KQ - 0 1");
  cr_assert_eq(arb_generate_pseudo_legal(&p, moves), 8 + 4 + 3 + 2 + 1 + 6 + 9);
  p = test_fen("8/2R1P3/8/2pp4/2k1r3/P7/8/1K6 w - - 1 55");
  cr_assert_eq(arb_generate_pseudo_legal(&p, moves), 16);
  /* python-chess test_horizontally_skewered_en_passant: pseudo-legal, not legal */
  p = test_fen("8/8/8/r2Pp2K/8/8/4k3/8 w - e6 0 1");
  arb_move ep = ARB_MOVE_MAKE_SPECIAL(SQ("d5"), SQ("e6"), ARB_MOVE_EN_PASSANT, ARB_KNIGHT);
  int n = arb_generate_pseudo_legal(&p, moves);
  cr_assert(has_move(moves, n, ep));
  cr_assert(!arb_is_legal(&p, ep));
  /* python-chess test_file_pinned_en_passant */
  p = test_fen("8/5K2/8/3k4/3pP3/8/8/3R4 b - e3 0 1");
  ep = ARB_MOVE_MAKE_SPECIAL(SQ("d4"), SQ("e3"), ARB_MOVE_EN_PASSANT, ARB_KNIGHT);
  n = arb_generate_pseudo_legal(&p, moves);
  cr_assert(has_move(moves, n, ep));
  cr_assert(!arb_is_legal(&p, ep));
  /* Every legal move is pseudo-legal. */
  arb_move legal[ARB_MAX_MOVES];
  for (size_t s = 0; s < TEST_STARTS; s++) {
    p = test_fen(test_starts[s]);
    n = arb_generate_pseudo_legal(&p, moves);
    int nl = arb_generate_legal(&p, legal);
    for (int i = 0; i < nl; i++)
      cr_assert(has_move(moves, n, legal[i]), "%s", test_starts[s]);
  }
}

static arb_move san(const arb_position *p, const char *text) {
  arb_move m;
  cr_assert_eq(arb_san_read(p, text, strlen(text), 0, &m, NULL), ARB_OK, "%s", text);
  return m;
}

Test(query_api, move_info) {
  /* python-chess test_move_info */
  arb_position p =
      test_fen("r1bqkb1r/p3np2/2n1p2p/1p4pP/2pP4/4PQ1N/1P2BPP1/RNB1K2R w KQkq g6 0 11");
  unsigned i = arb_move_info(&p, san(&p, "Qxf7+"));
  cr_assert(i & ARB_MOVE_IS_CAPTURE);
  cr_assert(!(i & (ARB_MOVE_IS_EN_PASSANT | ARB_MOVE_IS_CASTLING)));
  cr_assert(i & ARB_MOVE_GIVES_CHECK);
  i = arb_move_info(&p, san(&p, "hxg6"));
  cr_assert(i & ARB_MOVE_IS_CAPTURE);
  cr_assert(i & ARB_MOVE_IS_EN_PASSANT);
  cr_assert(!(i & ARB_MOVE_IS_CASTLING));
  i = arb_move_info(&p, san(&p, "b3"));
  cr_assert(!(i & (ARB_MOVE_IS_CAPTURE | ARB_MOVE_IS_EN_PASSANT | ARB_MOVE_IS_CASTLING)));
  cr_assert(i & ARB_MOVE_IS_ZEROING);
  i = arb_move_info(&p, san(&p, "Ra6"));
  cr_assert(!(i & (ARB_MOVE_IS_CAPTURE | ARB_MOVE_IS_EN_PASSANT | ARB_MOVE_IS_CASTLING)));
  i = arb_move_info(&p, san(&p, "O-O"));
  cr_assert(!(i & (ARB_MOVE_IS_CAPTURE | ARB_MOVE_IS_EN_PASSANT)));
  cr_assert(i & ARB_MOVE_IS_CASTLING);
  cr_assert_eq(arb_move_info(&p, ARB_MOVE_MAKE(SQ("a1"), SQ("a8"))), 0, "not legal: no info");
  /* python-chess test_is_irreversible */
  p = test_fen("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
  cr_assert(arb_move_info(&p, san(&p, "Ra2")) & ARB_MOVE_IS_IRREVERSIBLE);
  cr_assert(arb_move_info(&p, san(&p, "O-O-O")) & ARB_MOVE_IS_IRREVERSIBLE);
  cr_assert(arb_move_info(&p, san(&p, "Kd1")) & ARB_MOVE_IS_IRREVERSIBLE);
  cr_assert(arb_move_info(&p, san(&p, "Rxa8")) & ARB_MOVE_IS_IRREVERSIBLE);
  cr_assert(arb_move_info(&p, san(&p, "Rxh8")) & ARB_MOVE_IS_IRREVERSIBLE);
  cr_assert(!(arb_move_info(&p, san(&p, "Rf1")) & ARB_MOVE_IS_IRREVERSIBLE));
  /* Gives check, by the rules: mate (Scholar's), a discovered check, a promotion's. */
  p = test_fen("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
  cr_assert(arb_move_info(&p, san(&p, "Qxf7#")) & ARB_MOVE_GIVES_CHECK);
  cr_assert(!(arb_move_info(&p, san(&p, "Qh4")) & ARB_MOVE_GIVES_CHECK));
  p = test_fen("4k3/8/8/8/4N3/8/8/K3R3 w - - 0 1");
  cr_assert(arb_move_info(&p, san(&p, "Nc3")) & ARB_MOVE_GIVES_CHECK);
  p = test_fen("4k3/1P6/8/8/8/8/8/K7 w - - 0 1");
  cr_assert(arb_move_info(&p, san(&p, "b8=Q+")) & ARB_MOVE_GIVES_CHECK);
  cr_assert(arb_move_info(&p, san(&p, "b8=R+")) & ARB_MOVE_GIVES_CHECK);
  cr_assert(!(arb_move_info(&p, san(&p, "b8=N")) & ARB_MOVE_GIVES_CHECK));
}

Test(query_api, chess960_number) {
  /* python-chess test_chess960_pos: number <-> placement */
  static const struct {
    int number;
    const char *board;
  } cases[] = {{0, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR"},
               {631, "rnbkqrnb/pppppppp/8/8/8/8/PPPPPPPP/RNBKQRNB"},
               {518, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"},
               {959, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB"}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char fen[128];
    snprintf(fen, sizeof fen, "%s w KQkq - 0 1", cases[i].board);
    arb_position p = test_fen(fen);
    cr_assert_eq(arb_position_chess960_number(&p), cases[i].number, "%s", fen);
  }
  arb_position p;
  for (int n = 0; n < 960; n++) {
    arb_position_chess960(&p, n);
    cr_assert_eq(arb_position_chess960_number(&p), n);
  }
  /* Not a start position: a move made, Black to move, a right missing. */
  arb_position_startpos(&p);
  test_play(&p, "g1f3");
  cr_assert_eq(arb_position_chess960_number(&p), -1);
  p = test_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
  cr_assert_eq(arb_position_chess960_number(&p), -1);
  p = test_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1");
  cr_assert_eq(arb_position_chess960_number(&p), -1);
  p = test_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w KQkq - 0 1");
  cr_assert_eq(arb_position_chess960_number(&p), -1, "king and queen swapped on one side only");
}

Test(query_api, fen_en_passant_always) {
  /* python-chess test_fen_en_passant */
  arb_position p;
  arb_position_startpos(&p);
  test_play(&p, "e2e4");
  char buf[ARB_FEN_MAX];
  cr_assert_str_eq(fen_of(&p, ARB_FEN_OUT_EP_ALWAYS, buf),
                   "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  cr_assert_str_eq(fen_of(&p, 0, buf),
                   "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  /* The next move forgets it; taking the move back brings it back. */
  arb_undo u;
  arb_move m = test_uci(&p, "g8f6");
  arb_make_move(&p, m, &u);
  cr_assert_str_eq(fen_of(&p, ARB_FEN_OUT_EP_ALWAYS, buf),
                   "rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2");
  arb_unmake_move(&p, m, &u);
  cr_assert_str_eq(fen_of(&p, ARB_FEN_OUT_EP_ALWAYS | ARB_FEN_OUT_EPD, buf),
                   "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3");
  /* Read from a FEN, kept as written. */
  p = test_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  cr_assert_str_eq(fen_of(&p, ARB_FEN_OUT_EP_ALWAYS, buf),
                   "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  /* The null move gives it up (python-chess test_null_moves). */
  p = test_fen("rnbqkbnr/ppp1pppp/8/2Pp4/8/8/PP1PPPPP/RNBQKBNR w KQkq d6 0 2");
  arb_make_move(&p, ARB_MOVE_NULL, &u);
  cr_assert_str_eq(fen_of(&p, ARB_FEN_OUT_EP_ALWAYS, buf),
                   "rnbqkbnr/ppp1pppp/8/2Pp4/8/8/PP1PPPPP/RNBQKBNR b KQkq - 1 2");
}
