/* Arbiter — MIT licence, see LICENSE.
 *
 * test_explain.c: why a move is illegal (explain.h).  Every reason code on a position checked
 * by hand against the Laws (the code, the article, the deciding piece and square, and a part of
 * the sentence that names them), castling in standard chess and Chess960, and the agreement of
 * "legal" with the move generator over random games and random boards: for every from/to pair
 * (and promotion letter) a move is legal exactly when arb_generate_legal has it, and it is the
 * move arb_uci_read returns.
 */
#include "test_util.h"

static arb_position fen_accepting(const char *fen, uint32_t accept) {
  arb_position p;
  arb_fen_report rep;
  arb_status st = arb_fen_read(&p, fen, accept, &rep);
  cr_assert_eq(st, ARB_OK, "FEN %s: %s", fen, rep.message);
  return p;
}

static arb_square square_of(const char *name) { return ARB_SQUARE(name[0] - 'a', name[1] - '1'); }

/* Explains `uci` on pos and checks the code, the article, the deciding square ("" for none)
 * and that the message holds `fragment`. */
static arb_move_explanation check_on(const arb_position *pos, const char *uci, const char *code,
                                     const char *article, const char *square,
                                     const char *fragment) {
  arb_move_explanation e;
  arb_status st = arb_move_explain_uci(pos, uci, strlen(uci), &e);
  cr_assert_eq(st, ARB_OK, "%s: status %s", uci, arb_strerror(st));
  cr_assert_str_eq(arb_illegal_name(e.reason), code, "%s: reason %s, wanted %s (%s)", uci,
                   arb_illegal_name(e.reason), code, e.message);
  cr_assert_str_eq(e.article, article, "%s: article %s, wanted %s", uci, e.article, article);
  if (square && *square) {
    cr_assert_eq(e.square, square_of(square), "%s: square %d, wanted %s (%s)", uci, e.square,
                 square, e.message);
    cr_assert_eq(e.piece, pos->board[e.square], "%s: the piece is the one on the square", uci);
  } else if (square) {
    cr_assert_eq(e.square, ARB_NO_SQUARE, "%s: square %d, wanted none", uci, e.square);
  }
  cr_assert(strstr(e.message, fragment), "%s: message \"%s\" lacks \"%s\"", uci, e.message,
            fragment);
  cr_assert_eq(e.reason == ARB_MOVE_LEGAL, e.move != ARB_MOVE_NONE, "%s: move set iff legal", uci);
  return e;
}

static arb_move_explanation check(const char *fen, const char *uci, const char *code,
                                  const char *article, const char *square, const char *fragment) {
  arb_position p = test_fen(fen);
  return check_on(&p, uci, code, article, square, fragment);
}

#define START ARB_FEN_START

/* ---- 1.1, 1.2: whose move ---- */

Test(explain, not_your_turn) {
  arb_position p = test_fen(START);
  arb_move_explanation e;
  cr_assert_eq(arb_move_explain_for(&p, ARB_BLACK, square_of("e7"), square_of("e5"), 0, &e),
               ARB_OK);
  cr_assert_eq(e.reason, ARB_ILLEGAL_NOT_YOUR_TURN);
  cr_assert_str_eq(arb_illegal_name(e.reason), "not_your_turn");
  cr_assert_str_eq(e.article, "1.2");
  cr_assert(strstr(e.message, "White's turn"), "%s", e.message);
  /* The player to move is judged as usual. */
  cr_assert_eq(arb_move_explain_for(&p, ARB_WHITE, square_of("e2"), square_of("e4"), 0, &e),
               ARB_OK);
  cr_assert_eq(e.reason, ARB_MOVE_LEGAL);
  cr_assert_eq(arb_move_explain_for(&p, (arb_color)2, 12, 28, 0, &e), ARB_ERR_ARGUMENT);
}

Test(explain, no_piece) { check(START, "e3e4", "no_piece", "", "e3", "there is no piece on e3"); }

Test(explain, not_your_piece) {
  check(START, "e7e5", "not_your_piece", "1.1", "e7", "the pawn on e7 is Black's");
}

Test(explain, same_square) {
  check(START, "g1g1", "same_square", "3.6", "g1", "the knight on g1 would stay");
  check(START, "e1e1", "same_square", "3.8", "e1", "the king on e1 would stay");
}

/* ---- 3.2-3.8: the pieces' moves ---- */

Test(explain, piece_does_not_move_so) {
  check(START, "b1b3", "piece_does_not_move_so", "3.6", "b1", "the knight on b1 cannot move to b3");
  check(START, "c1c3", "piece_does_not_move_so", "3.2", "c1", "a bishop moves along a diagonal");
  check("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", "a1b2", "piece_does_not_move_so", "3.3", "a1",
        "a rook moves along a file or a rank");
  check("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "d1e3", "piece_does_not_move_so", "3.4", "d1",
        "a queen moves along a file, a rank or a diagonal");
  check("4k3/8/8/8/8/8/8/4K3 w - - 0 1", "e1e3", "piece_does_not_move_so", "3.8.1", "e1",
        "the king moves one square");
}

Test(explain, pawn_moves) {
  const char *fen = "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1";
  check(fen, "e4e3", "piece_does_not_move_so", "3.7", "e4", "never back");
  check(fen, "e4f4", "piece_does_not_move_so", "3.7", "e4", "never back or sideways");
  check(fen, "e4e6", "piece_does_not_move_so", "3.7.2", "e4", "only on its first move");
  check(fen, "e4d5", "piece_does_not_move_so", "3.7.3", "e4", "diagonally only to capture");
  check(fen, "e4g5", "piece_does_not_move_so", "3.7", "e4", "captures one square diagonally");
  check(fen, "e4e5", "legal", "3.10.1", "e4", "the pawn on e4 may move to e5");
  /* Black's pawns go down the board. */
  check("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1", "d7d5", "legal", "3.10.1", "d7", "d5");
  check("4k3/3p4/8/8/8/8/8/4K3 b - - 0 1", "d7d8", "piece_does_not_move_so", "3.7", "d7",
        "never back");
}

Test(explain, own_piece_on_target) {
  check(START, "g1e2", "own_piece_on_target", "3.1", "e2", "White's own pawn stands on e2");
  check(START, "d1d2", "own_piece_on_target", "3.1", "d2", "own colour");
  check(START, "e2f3", "piece_does_not_move_so", "3.7.3", "e2", "f3 is empty");
}

Test(explain, path_blocked) {
  check(START, "c1e3", "path_blocked", "3.5", "d2",
        "the pawn on d2 stands between the bishop on c1");
  check(START, "a1a3", "path_blocked", "3.5", "a2", "the pawn on a2");
  check(START, "d1d4", "path_blocked", "3.5", "d2", "may not move over another piece");
  /* The nearest blocker is named, whichever way the piece goes. */
  check("4k3/r7/8/p7/8/p7/8/4K3 b - - 0 1", "a7a1", "path_blocked", "3.5", "a5",
        "the pawn on a5 stands between the rook on a7 and a1");
  check("4k3/8/8/8/8/8/8/R1b1nK2 w - - 0 1", "a1e1", "path_blocked", "3.5", "c1",
        "the bishop on c1 stands between the rook on a1 and e1");
  /* A pawn's double step: both squares must be empty (3.7.2). */
  check("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", "e2e4", "path_blocked", "3.7.2", "e3",
        "the knight on e3 stands in the way");
}

Test(explain, pawn_blocked) {
  check("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1", "e2e3", "pawn_blocked", "3.7.1", "e3",
        "the knight on e3 stands in front of the pawn on e2");
  check("4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1", "e2e4", "pawn_blocked", "3.7.2", "e4",
        "the knight on e4 stands on e4");
}

Test(explain, king_capture) {
  /* Black is in check with White to move: only a position read with that problem accepted. */
  arb_position p = fen_accepting("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", ARB_FEN_OPPONENT_IN_CHECK);
  check_on(&p, "e1e8", "king_capture", "1.4.1", "e8", "the king on e8 may not be captured");
  check_on(&p, "e1e7", "legal", "3.10.1", "e1", "the rook on e1 may move to e7");
}

/* ---- 3.7.3: promotion and en passant ---- */

Test(explain, promotion_needs_piece) {
  check("8/P7/8/8/8/8/8/k6K w - - 0 1", "a7a8", "promotion_needs_piece", "3.7.3.3", "a7",
        "must become a queen, rook, bishop or knight");
  check("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8", "promotion_needs_piece", "3.7.3.3", "a7",
        "a7b8q");
  check("8/P7/8/8/8/8/8/k6K w - - 0 1", "a7a8n", "legal", "3.10.1", "a7", "become a knight");
  check("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7b8r", "legal", "3.10.1", "a7",
        "may take the rook on b8 and become a rook");
}

Test(explain, promotion_not_allowed) {
  check(START, "e2e4q", "promotion_not_allowed", "3.7.3.3", "e2", "only on reaching the last rank");
  check(START, "g1f3q", "promotion_not_allowed", "3.7.3.3", "g1", "the knight on g1 is not a pawn");
  check("4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1q", "promotion_not_allowed", "3.7.3.3", "e1",
        "not a pawn");
}

Test(explain, promotion_wrong_piece) {
  check("8/P7/8/8/8/8/8/k6K w - - 0 1", "a7a8k", "promotion_wrong_piece", "3.7.3.3", "a7",
        "never a king");
  check("8/P7/8/8/8/8/8/k6K w - - 0 1", "a7a8p", "promotion_wrong_piece", "3.7.3.3", "a7",
        "may not stay a pawn");
  arb_position p = test_fen("8/P7/8/8/8/8/8/k6K w - - 0 1");
  arb_move_explanation e;
  cr_assert_eq(arb_move_explain(&p, square_of("a7"), square_of("a8"), ARB_KING, &e), ARB_OK);
  cr_assert_eq(e.reason, ARB_ILLEGAL_PROMOTION_WRONG_PIECE);
  cr_assert_eq(arb_move_explain(&p, square_of("a7"), square_of("a8"), (arb_piece_type)7, &e),
               ARB_ERR_ARGUMENT);
}

Test(explain, en_passant) {
  /* RULES.md C02/C03: available on the very next move, gone after it (3.7.3.2). */
  arb_position p = test_fen(START);
  const char *line[] = {"e2e4", "a7a6", "e4e5", "d7d5"};
  for (int i = 0; i < 4; i++)
    test_play(&p, line[i]);
  arb_move_explanation e =
      check_on(&p, "e5d6", "legal", "3.10.1", "e5", "may take the pawn on d5 en passant");
  cr_assert_eq(ARB_MOVE_KIND(e.move), ARB_MOVE_EN_PASSANT);
  test_play(&p, "g1f3");
  test_play(&p, "a6a5");
  check_on(&p, "e5d6", "en_passant_expired", "3.7.3.2", "d5",
           "the pawn on d5 could be taken en passant only on the move right after its "
           "two-square advance, and that was not the last move");
  /* A FEN without the en passant square: the double step was not the last move. */
  check("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", "e5d6", "en_passant_expired",
        "3.7.3.2", "d5", "that was not the last move");
  /* RULES.md C01: f7-f5 was the last move, so only that pawn may be taken. */
  check("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5d6",
        "en_passant_expired", "3.7.3.2", "d5", "only the pawn on f5 has just made one");
  check("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", "legal", "3.10.1",
        "e5", "en passant");
  /* A pawn on d5 that cannot have just made a double step (a bishop on d7): no en passant story. */
  check("rn1qkbnr/pppbpppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3", "e5d6",
        "piece_does_not_move_so", "3.7.3", "e5", "diagonally only to capture");
}

/* ---- 3.9: the king's safety ---- */

Test(explain, leaves_king_in_check) {
  check("4k3/8/8/8/1b6/8/6P1/4K3 w - - 0 1", "g2g3", "leaves_king_in_check", "3.9.2", "b4",
        "the king is in check from the bishop on b4 and this move does not stop it");
  check("4k3/8/8/1b6/8/8/4K1P1/8 w - - 0 1", "g2g4", "leaves_king_in_check", "3.9.2", "b5",
        "the king is in check from the bishop on b5 and this move does not stop it");
  /* RULES.md A12: a double check is answered only by a king move (3.9.2). */
  check("4r2k/8/8/8/8/3n4/8/3QK3 w - - 0 1", "d1d3", "leaves_king_in_check", "3.9.2", "e8",
        "double check, from the rook on e8 and the knight on d3");
  /* Capturing or blocking answers a single check. */
  check("4k3/8/8/8/1b6/8/8/1N2K3 w - - 0 1", "b1a3", "leaves_king_in_check", "3.9.2", "b4",
        "does not stop it");
  check("4k3/8/8/8/1b6/8/8/1N2K3 w - - 0 1", "b1d2", "legal", "3.10.1", "b1", "d2");
  /* A knight in front of the king is not a check but a pin. */
  check("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1", "d2b3", "pinned", "3.9.2", "b4",
        "the knight on d2 is pinned");
  check("4k3/8/8/8/1b6/8/8/3QK3 w - - 0 1", "d1d2", "legal", "3.10.1", "d1", "d2");
}

Test(explain, king_into_check) {
  /* RULES.md A10: the king cannot step back along the line of the rook that checks it. */
  check("R3k3/8/8/8/8/8/8/4K3 b - - 0 1", "e8f8", "king_into_check", "3.9.2", "a8",
        "the king would still be in check on f8, from the rook on a8");
  check("4k3/8/8/8/8/8/5r2/4K3 w - - 0 1", "e1d2", "king_into_check", "3.9.2", "f2",
        "the king would be in check on d2 from the rook on f2");
  /* RULES.md A09: a pinned knight still protects (3.1.3). */
  check("4r3/2k5/3R4/8/4N3/8/8/4K3 b - - 0 1", "c7d6", "king_into_check", "3.9.2", "e4",
        "the knight on e4");
  check("4k3/8/8/8/8/8/5r2/4K3 w - - 0 1", "e1f2", "legal", "3.10.1", "e1",
        "may take the rook on f2");
}

Test(explain, king_next_to_king) {
  check("8/8/8/4k3/8/4K3/8/8 w - - 0 1", "e3e4", "king_next_to_king", "3.9.2", "e5",
        "in check from the king on e5");
  check("8/8/8/3k4/8/3K4/8/8 w - - 0 1", "d3c4", "king_next_to_king", "3.9.2", "d5",
        "the king on d5");
}

Test(explain, pinned) {
  check("4r1k1/8/8/8/4N3/8/8/4K3 w - - 0 1", "e4f6", "pinned", "3.9.2", "e8",
        "the knight on e4 is pinned: moving it would expose the king to check from the rook on e8");
  /* RULES.md A07: a pinned rook may still move along the pin, and take the pinner. */
  check("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1", "e2d2", "pinned", "3.9.2", "e7", "the rook on e2");
  check("4k3/4r3/8/8/8/8/4R3/4K3 w - - 0 1", "e2e7", "legal", "3.10.1", "e2", "may take");
  /* In check from a knight, the pinned bishop taking it would expose the king to the rook. */
  check("4k3/4r3/8/8/8/3n4/4B3/4K3 w - - 0 1", "e2d3", "pinned", "3.9.2", "e7",
        "the bishop on e2 is pinned");
}

Test(explain, exposes_king) {
  /* RULES.md C04: both pawns leave the fifth rank. */
  check("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1", "b5c6", "exposes_king", "3.9.2", "h5",
        "removes the pawn on c5 as well and would expose the king to check from the rook on h5");
  /* RULES.md C05: en passant takes the checking pawn. */
  check("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "e4d3", "legal", "3.10.1", "e4", "en passant");
}

/* ---- 3.8.2: castling ---- */

Test(explain, castling_legal) {
  const char *fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
  arb_move_explanation e = check(fen, "e1g1", "legal", "3.10.1", "e1", "White may castle kingside");
  cr_assert_eq(ARB_MOVE_KIND(e.move), ARB_MOVE_CASTLING);
  cr_assert_eq(ARB_MOVE_TO(e.move), square_of("h1"));
  e = check(fen, "e1h1", "legal", "3.10.1", "e1", "the rook from h1 to f1");
  cr_assert_eq(ARB_MOVE_TO(e.move), square_of("h1"));
  check(fen, "e1c1", "legal", "3.10.1", "e1", "queenside");
  check(fen, "e1a1", "legal", "3.10.1", "e1", "queenside");
  /* RULES.md B05, B06: an attacked rook, or an attacked b1 the rook crosses, is no bar. */
  check("4k2r/8/8/8/8/8/8/4K2R w Kk - 0 1", "e1g1", "legal", "3.10.1", "e1", "kingside");
  check("1r2k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "legal", "3.10.1", "e1", "queenside");
  check("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "legal", "3.10.1", "e8",
        "Black may castle queenside");
}

Test(explain, castling_king_moved) {
  /* RULES.md B10: the king went to f1 and back. */
  arb_position p = test_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const char *line[] = {"e1f1", "e8f8", "f1e1", "f8e8"};
  for (int i = 0; i < 4; i++)
    test_play(&p, line[i]);
  check_on(&p, "e1g1", "castling_king_moved", "3.8.2.1", "e1", "the king has already moved");
  check_on(&p, "e1c1", "castling_king_moved", "3.8.2.1", "e1", "White may no longer castle");
  check_on(&p, "e1h1", "castling_king_moved", "3.8.2.1", "e1", "no castling right is left");
}

Test(explain, castling_rook_moved) {
  /* RULES.md B11: the h1 rook went to h2 and back; the queenside right stays. */
  arb_position p = test_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  const char *line[] = {"h1h2", "h8h7", "h2h1", "h7h8"};
  for (int i = 0; i < 4; i++)
    test_play(&p, line[i]);
  check_on(&p, "e1g1", "castling_rook_moved", "3.8.2.1", "h1",
           "White's rook from h1 has moved or been captured, so White may no longer castle "
           "kingside");
  check_on(&p, "e1c1", "legal", "3.10.1", "e1", "queenside");
  /* RULES.md B12: the h1 rook was captured on its square. */
  check("r3k2r/8/8/8/8/8/8/R3K3 w Qkq - 0 1", "e1g1", "castling_rook_moved", "3.8.2.1", "",
        "rook from h1 has moved or been captured");
}

Test(explain, castling_path_occupied) {
  check("4k3/8/8/8/8/8/8/RN2K3 w Q - 0 1", "e1c1", "castling_path_occupied", "3.8.2.2", "b1",
        "the knight on b1 stands between the king and the rook on a1");
  check(START, "e1g1", "castling_path_occupied", "3.8.2.2", "f1", "the bishop on f1");
  check(START, "e8g8", "not_your_piece", "1.1", "e8", "Black's");
}

Test(explain, castling_out_of_check) {
  check("r3k2r/8/8/8/4r3/8/8/R3K2R w KQkq - 0 1", "e1g1", "castling_out_of_check", "3.8.2.2", "e4",
        "in check from the rook on e4");
}

Test(explain, castling_through_check) {
  arb_move_explanation e =
      check("4kr2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "castling_through_check", "3.8.2.2", "f8",
            "the king would pass through f1, which the rook on f8 attacks");
  cr_assert_eq(e.attacked, square_of("f1"));
  check("3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "castling_through_check", "3.8.2.2", "d8",
        "through d1");
}

Test(explain, castling_into_check) {
  arb_move_explanation e =
      check("4k1r1/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "castling_into_check", "3.8.2.2", "g8",
            "the king would land on g1, which the rook on g8 attacks");
  cr_assert_eq(e.attacked, square_of("g1"));
  check("2r1k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "castling_into_check", "3.8.2.2", "c8",
        "land on c1");
}

/* Chess960 (Guidelines II): the king and rook end where they do in standard castling; e1g1
 * and king-takes-rook both name it. */
Test(explain, chess960_castling) {
  const char *fen = "4k3/8/8/8/8/8/8/RK5R w AH - 0 1"; /* king b1, rooks a1 and h1 */
  arb_move_explanation e = check(fen, "b1h1", "legal", "3.10.1", "b1", "kingside");
  cr_assert_eq(e.move, ARB_MOVE_MAKE_SPECIAL(1, 7, ARB_MOVE_CASTLING, ARB_KNIGHT));
  check(fen, "b1g1", "legal", "3.10.1", "b1", "the king goes to g1 and the rook from h1 to f1");
  check(fen, "b1a1", "legal", "3.10.1", "b1", "queenside");
  /* b1c1 is also a plain king step, and that reading comes first (as arb_uci_read). */
  e = check(fen, "b1c1", "legal", "3.10.1", "b1", "the king on b1 may move to c1");
  cr_assert_eq(e.move, ARB_MOVE_MAKE(1, 2));
  check("3rk3/8/8/8/8/8/8/RK5R w AH - 0 1", "b1g1", "castling_through_check", "3.8.2.2", "d8",
        "pass through d1");
  check("3rk3/8/8/8/8/8/8/RK5R w AH - 0 1", "b1a1", "legal", "3.10.1", "b1", "queenside");
  check("4k3/8/8/8/8/8/8/RK3B1R w AH - 0 1", "b1h1", "castling_path_occupied", "3.8.2.2", "f1",
        "the bishop on f1 stands between the king and the rook on h1");
  /* A destination beyond the rook: g1 is not between b1 and c1, but the king must go there. */
  check("4k3/8/8/8/8/8/8/1KR3N1 w C - 0 1", "b1c1", "castling_path_occupied", "3.8.2.2", "g1",
        "the knight on g1 stands on a square the king or the rook must move to");
  /* f1g1 is a step and castling at once; both illegal, the castling is explained. */
  check("4k1r1/8/8/8/8/8/8/5K1R w H - 0 1", "f1g1", "castling_into_check", "3.8.2.2", "g8",
        "land on g1");
  check("4k1r1/8/8/8/8/8/8/5K1R w H - 0 1", "f1h1", "castling_into_check", "3.8.2.2", "g8",
        "land on g1");
  e = check("4k3/8/8/8/8/8/8/5K1R w H - 0 1", "f1g1", "legal", "3.10.1", "f1", "move to g1");
  cr_assert_eq(e.move, ARB_MOVE_MAKE(5, 6));
  /* The king already on g1: castling moves only the rook (g1h1, and g1g1 as arb_uci_read). */
  e = check("4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1h1", "legal", "3.10.1", "g1", "rook from h1 to f1");
  cr_assert_eq(ARB_MOVE_KIND(e.move), ARB_MOVE_CASTLING);
  check("4k3/8/8/8/8/8/8/6KR w H - 0 1", "g1g1", "legal", "3.10.1", "g1", "kingside");
  /* The king stays on c1, which the a1 rook sees once the b1 rook has gone. */
  e = check("4k3/8/8/8/8/8/8/rRK5 w B - 0 1", "c1b1", "castling_into_check", "3.8.2.2", "a1",
            "the king would stay on c1, which the rook on a1 attacks once the rook has moved");
  cr_assert_eq(e.attacked, square_of("c1"));
  /* Rights lost. */
  check("4k3/8/8/8/8/8/8/RK5R w A - 0 1", "b1h1", "castling_rook_moved", "3.8.2.1", "h1",
        "White's kingside rook has already moved");
  check("4k3/8/8/8/8/8/8/RK5R w A - 0 1", "b1g1", "castling_rook_moved", "3.8.2.1", "",
        "kingside rook");
  arb_position p = fen_accepting("4k3/8/8/8/8/8/8/RK5R w - - 0 1", ARB_FEN_READ_CHESS960);
  check_on(&p, "b1h1", "castling_king_moved", "3.8.2.1", "b1", "the king has already moved");
  /* A Chess960 start: no castling yet, the pieces are in the way. */
  arb_position s;
  cr_assert_eq(arb_position_chess960(&s, 0), ARB_OK); /* BBQNNRKR */
  check_on(&s, "g1h1", "castling_path_occupied", "3.8.2.2", "f1", "the rook on f1");
}

Test(explain, legal_messages) {
  arb_move_explanation e =
      check(START, "g1f3", "legal", "3.10.1", "g1", "the knight on g1 may move to f3");
  cr_assert_eq(e.move, ARB_MOVE_MAKE(6, 21));
  cr_assert_eq(e.piece, ARB_MAKE_PIECE(ARB_WHITE, ARB_KNIGHT));
}

Test(explain, uci_text) {
  arb_position p = test_fen(START);
  arb_move_explanation e;
  static const char *const bad[] = {"", "e2", "e2e", "e2e4qq", "i2e4", "e9e4", "0000", "e2e4x"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    cr_assert_eq(arb_move_explain_uci(&p, bad[i], strlen(bad[i]), &e), ARB_ERR_MOVE_SYNTAX, "%s",
                 bad[i]);
  cr_assert_eq(arb_move_explain_uci(&p, "E2E4", 4, &e), ARB_OK);
  cr_assert_eq(e.reason, ARB_MOVE_LEGAL);
  arb_square f, t;
  arb_piece_type pr;
  cr_assert_eq(arb_uci_read_squares("a7a8Q", 5, &f, &t, &pr), ARB_OK);
  cr_assert(f == square_of("a7") && t == square_of("a8") && pr == ARB_QUEEN);
  cr_assert_eq(arb_uci_read_squares("a7a8kX", 5, &f, &t, &pr), ARB_OK); /* only len bytes read */
  cr_assert_eq(pr, ARB_KING);
  cr_assert_eq(arb_move_explain(NULL, 0, 0, 0, &e), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_move_explain(&p, 64, 0, 0, &e), ARB_ERR_ARGUMENT);
  cr_assert_eq(arb_move_explain(&p, 0, 0, 0, NULL), ARB_ERR_ARGUMENT);
}

Test(explain, names) {
  cr_assert_str_eq(arb_illegal_name(ARB_MOVE_LEGAL), "legal");
  cr_assert_str_eq(arb_illegal_name(ARB_ILLEGAL_CASTLING_INTO_CHECK), "castling_into_check");
  cr_assert_null(arb_illegal_name((arb_illegal)ARB_ILLEGAL_COUNT));
  for (int i = 0; i < ARB_ILLEGAL_COUNT; i++) {
    const char *a = arb_illegal_name((arb_illegal)i);
    cr_assert_not_null(a, "%d", i);
    for (int j = 0; j < i; j++)
      cr_assert_str_neq(a, arb_illegal_name((arb_illegal)j));
  }
}

/* ---- agreement with the move generator ---- */

/* For every from/to pair and promotion letter on pos: legal exactly when some generated move
 * has that from, that to (castling: the rook's square or the king's destination) and that
 * promotion; the move is arb_uci_read's; an illegal move has a message and an article; the
 * colour-flipped position gives the same reason.  Returns how many reasons were seen (bits). */
static uint32_t agree(const arb_position *pos, int *legal_seen) {
  static const char promos[] = {0, 'q', 'r', 'b', 'n', 'k'};
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(pos, moves);
  arb_position mirror;
  arb_position_mirror(pos, &mirror);
  uint32_t seen = 0;
  char fen[ARB_FEN_MAX];
  arb_fen_write(pos, fen, sizeof fen, 0);
  for (int from = 0; from < 64; from++) {
    int pawn = ARB_PIECE_TYPE(pos->board[from]) == ARB_PAWN;
    for (int to = 0; to < 64; to++) {
      for (int k = 0; k < (pawn ? 6 : 1); k++) {
        char uci[6] = {(char)('a' + from % 8),
                       (char)('1' + from / 8),
                       (char)('a' + to % 8),
                       (char)('1' + to / 8),
                       promos[k],
                       0};
        size_t len = k ? 5 : 4;
        int expect = 0;
        for (int i = 0; i < n && !expect; i++) {
          arb_move m = moves[i];
          if (ARB_MOVE_FROM(m) != from) continue;
          if (ARB_MOVE_KIND(m) == ARB_MOVE_CASTLING) {
            arb_square dest =
                (arb_square)((pos->turn == ARB_WHITE ? 0 : 56) + (ARB_MOVE_TO(m) > from ? 6 : 2));
            expect = !k && (ARB_MOVE_TO(m) == to || dest == to);
          } else if (ARB_MOVE_TO(m) == to) {
            expect = ARB_MOVE_KIND(m) == ARB_MOVE_PROMOTION
                         ? k && "nbrq"[ARB_MOVE_PROMO(m) - ARB_KNIGHT] == promos[k]
                         : !k;
          }
        }
        arb_move_explanation e;
        cr_assert_eq(arb_move_explain_uci(pos, uci, len, &e), ARB_OK);
        seen |= 1u << e.reason;
        cr_assert_eq(e.reason == ARB_MOVE_LEGAL, expect, "%s %s: explain says %s (%s)", fen, uci,
                     arb_illegal_name(e.reason), e.message);
        arb_move um = ARB_MOVE_NONE;
        arb_uci_read(pos, uci, len, 0, &um);
        cr_assert_eq(e.move, um, "%s %s: move %04x, arb_uci_read %04x", fen, uci, e.move, um);
        cr_assert(e.article != NULL && e.message[0], "%s %s", fen, uci);
        cr_assert(strlen(e.message) < sizeof e.message - 1, "%s %s: message cut: %s", fen, uci,
                  e.message);
        cr_assert(e.reason == ARB_ILLEGAL_NO_PIECE || e.article[0], "%s %s: article", fen, uci);
        if (e.square < 64) cr_assert_eq(e.piece, pos->board[e.square], "%s %s", fen, uci);
        if (expect) (*legal_seen)++;

        static const arb_piece_type promo_types[6] = {ARB_NO_TYPE, ARB_QUEEN,  ARB_ROOK,
                                                      ARB_BISHOP,  ARB_KNIGHT, ARB_KING};
        arb_move_explanation me;
        cr_assert_eq(arb_move_explain(&mirror, (arb_square)(from ^ 56), (arb_square)(to ^ 56),
                                      promo_types[k], &me),
                     ARB_OK);
        cr_assert_eq(me.reason, e.reason, "%s %s: mirrored %s, here %s", fen, uci,
                     arb_illegal_name(me.reason), arb_illegal_name(e.reason));
      }
    }
  }
  return seen;
}

Test(explain, agrees_with_the_generator_in_random_games, .timeout = 600) {
  uint64_t rng = 20240917;
  uint32_t seen = 0;
  int positions = 0, legal_seen = 0;
  for (int game = 0; game < 40; game++) {
    arb_position p;
    if (game % 4 == 3) {
      cr_assert_eq(arb_position_chess960(&p, (int)(test_rand(&rng) % 960)), ARB_OK);
    } else {
      p = test_fen(test_starts[game % TEST_STARTS]);
    }
    for (int ply = 0; ply < 120; ply++) {
      if (test_rand(&rng) % 10 == 0) {
        seen |= agree(&p, &legal_seen);
        positions++;
      }
      arb_move moves[ARB_MAX_MOVES];
      int n = arb_generate_legal(&p, moves);
      if (!n) break;
      arb_undo u;
      arb_make_move(&p, moves[test_rand(&rng) % (unsigned)n], &u);
    }
  }
  cr_assert_gt(positions, 100);
  cr_assert_gt(legal_seen, 1000);
  cr_log_info("random games: %d positions, %d legal moves, reasons seen %08x", positions,
              legal_seen, seen);
}

/* Random boards, read with every non-fatal problem accepted: the side not to move in check,
 * three checkers, kings side by side, pawns on the back rank, odd castling rights. */
Test(explain, agrees_with_the_generator_on_random_boards, .timeout = 600) {
  uint64_t rng = 7;
  uint32_t seen = 0;
  int positions = 0, legal_seen = 0;
  static const arb_piece_type types[] = {ARB_PAWN,   ARB_PAWN, ARB_PAWN, ARB_KNIGHT,
                                         ARB_BISHOP, ARB_ROOK, ARB_ROOK, ARB_QUEEN};
  while (positions < 300) {
    arb_position p;
    arb_position_clear(&p);
    arb_square wk = (arb_square)(test_rand(&rng) % 64), bk;
    do
      bk = (arb_square)(test_rand(&rng) % 64);
    while (bk == wk);
    /* Kings often on their home squares and rooks in the corners, so castling comes up. */
    if (test_rand(&rng) % 2) wk = 4, bk = 60;
    arb_position_put(&p, wk, ARB_MAKE_PIECE(ARB_WHITE, ARB_KING));
    arb_position_put(&p, bk, ARB_MAKE_PIECE(ARB_BLACK, ARB_KING));
    int men = 2 + (int)(test_rand(&rng) % 14);
    for (int i = 0; i < men; i++) {
      arb_square s = (arb_square)(test_rand(&rng) % 64);
      if (i < 4 && test_rand(&rng) % 2) s = (arb_square)((i & 1 ? 7 : 0) + (i & 2 ? 56 : 0));
      if (p.board[s]) continue;
      arb_color c = (arb_color)(i < 4 ? (i >> 1) : (int)(test_rand(&rng) % 2));
      arb_piece_type t = i < 4 ? ARB_ROOK : types[test_rand(&rng) % 8];
      arb_position_put(&p, s, ARB_MAKE_PIECE(c, t));
    }
    arb_position_set_turn(&p, (arb_color)(test_rand(&rng) % 2));
    arb_position_set_castling(&p, p.by_type[ARB_ROOK] & UINT64_C(0xFF000000000000FF) &
                                      (arb_bitboard)test_rand(&rng));
    if (test_rand(&rng) % 3 == 0) {
      int file = (int)(test_rand(&rng) % 8);
      arb_position_set_ep(&p, ARB_SQUARE(file, p.turn == ARB_WHITE ? 5 : 2));
    }
    if (arb_position_validate(&p, ARB_FEN_PROBLEMS_ALL, NULL) != ARB_OK) continue;
    seen |= agree(&p, &legal_seen);
    positions++;
  }
  cr_log_info("random boards: %d positions, %d legal moves, reasons seen %08x", positions,
              legal_seen, seen);
}
