/* Arbiter — MIT licence, see LICENSE.
 *
 * test_epd.c: EPD records.  The lines are published test-suite records (Bratko-Kopec, Win at
 * Chess, ERET) with their published best moves, and python-chess's test_epd cases with its
 * expected operations and output; the moves are given here in UCI as those sources state them.
 */
#include <stdio.h>

#include "test_util.h"

static arb_epd read_ok(const char *line) {
  arb_epd epd;
  arb_epd_error err;
  arb_status st = arb_epd_read(line, strlen(line), 0, &epd, &err);
  cr_assert_eq(st, ARB_OK, "%s: %s", line, err.message);
  return epd;
}

static void assert_moves(const arb_epd *epd, const char *opcode, const char *const *uci, int n) {
  const arb_epd_op *op = arb_epd_find(epd, opcode);
  cr_assert_not_null(op, "no %s", opcode);
  cr_assert_eq(op->kind, ARB_EPD_MOVES);
  cr_assert_eq(op->move_count, n, "%s: %d moves", opcode, op->move_count);
  arb_position pos = epd->position;
  for (int i = 0; i < n; i++) {
    arb_move m = epd->moves[op->first_move + i];
    char u[8];
    arb_uci_write(&pos, m, u, sizeof u);
    cr_assert_str_eq(u, uci[i], "%s move %d", opcode, i + 1);
    if (!strcmp(opcode, "pv")) {
      arb_undo undo;
      arb_make_move(&pos, m, &undo);
    }
  }
}

static void assert_string(const arb_epd *epd, const char *opcode, const char *expect) {
  const arb_epd_op *op = arb_epd_find(epd, opcode);
  cr_assert_not_null(op, "no %s", opcode);
  cr_assert_eq(op->kind, ARB_EPD_STRING);
  char buf[128];
  cr_assert_eq(arb_epd_string(op, buf, sizeof buf), (int)strlen(expect));
  cr_assert_str_eq(buf, expect);
}

static void assert_writes(const arb_epd *epd, const char *expect) {
  char buf[512];
  int n = arb_epd_write(epd, buf, sizeof buf);
  cr_assert_str_eq(buf, expect);
  cr_assert_eq(n, (int)strlen(expect));
}

Test(epd, suite_lines) {
  static const struct {
    const char *line, *bm, *id;
  } cases[] = {
      /* Bratko-Kopec 1 and 24 (python-chess test_epd) */
      {"1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";", "d6d1", "BK.01"},
      {"r2qnrnk/p2b2b1/1p1p2pp/2pPpp2/1PP1P3/PRNBB3/3QNPPP/5RK1 w - - bm f4; id \"BK.24\";", "f2f4",
       "BK.24"},
      /* Win at Chess 1, 2 and 4 */
      {"2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";", "g3g6",
       "WAC.001"},
      {"8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - bm Rxb2; id \"WAC.002\";", "b3b2", "WAC.002"},
      {"r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm Qxh7+; id \"WAC.004\";", "h6h7",
       "WAC.004"},
      /* ERET 001, with its fifth dash (python-chess test_eret_epd) */
      {"r1bqk1r1/1p1p1n2/p1n2pN1/2p1b2Q/2P1Pp2/1PN5/PB4PP/R4RK1 w q - - bm Rxf4; id \"ERET 001 - "
       "Entlastung\";",
       "f1f4", "ERET 001 - Entlastung"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arb_epd epd = read_ok(cases[i].line);
    cr_assert_eq(epd.op_count, 2);
    assert_moves(&epd, "bm", &cases[i].bm, 1);
    assert_string(&epd, "id", cases[i].id);
    cr_assert_eq(epd.position.halfmove_clock, 0);
    cr_assert_eq(epd.position.fullmove_number, 1);
  }
  /* Written back as python-chess writes BK.01. */
  arb_epd epd = read_ok(cases[0].line);
  assert_writes(&epd, "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";");
  epd = read_ok(cases[5].line);
  assert_writes(&epd, "r1bqk1r1/1p1p1n2/p1n2pN1/2p1b2Q/2P1Pp2/1PN5/PB4PP/R4RK1 w q - bm Rxf4; id "
                      "\"ERET 001 - Entlastung\";");
}

/* python-chess test_epd: reading. */
Test(epd, operations) {
  arb_epd epd = read_ok("4k3/8/8/8/8/8/8/4K3 b - - fmvn 17; hmvc 13");
  char fen[ARB_FEN_MAX];
  arb_fen_write(&epd.position, fen, sizeof fen, 0);
  cr_assert_str_eq(fen, "4k3/8/8/8/8/8/8/4K3 b - - 13 17");
  cr_assert_eq(arb_epd_find(&epd, "fmvn")->integer, 17);
  cr_assert_eq(arb_epd_find(&epd, "hmvc")->kind, ARB_EPD_INTEGER);

  epd = read_ok("4k3/8/3QK3/8/8/8/8/8 w - - bm Qe7# Qb8#;");
  static const char *const two[] = {"d6e7", "d6b8"};
  assert_moves(&epd, "bm", two, 2);

  epd = read_ok("6k1/1p6/6K1/8/8/8/8/7Q w - - pv Qh7+ Kf8 Qf7#;");
  static const char *const pv[] = {"h1h7", "g8f8", "h7f7"};
  assert_moves(&epd, "pv", pv, 3);
  assert_writes(&epd, "6k1/1p6/6K1/8/8/8/8/7Q w - - pv Qh7+ Kf8 Qf7#;");

  epd = read_ok("r2qk2r/ppp1b1pp/2n1p3/3pP1n1/3P2b1/2PB1NN1/PP4PP/R1BQK2R w KQkq - bm Nxg5; c0 "
                "\"ERET.095; Queen sacrifice\";");
  static const char *const nxg5[] = {"f3g5"};
  assert_moves(&epd, "bm", nxg5, 1);
  assert_string(&epd, "c0", "ERET.095; Queen sacrifice");

  epd = read_ok("4k3/8/8/8/8/8/8/4K3 w - - a \"foo\\\"bar\";; ; b \"foo\\\\\\\\\";");
  cr_assert_eq(epd.op_count, 2);
  assert_string(&epd, "a", "foo\"bar");
  assert_string(&epd, "b", "foo\\\\");
  /* Escapes are written back as they were read. */
  assert_writes(&epd, "4k3/8/8/8/8/8/8/4K3 w - - a \"foo\\\"bar\"; b \"foo\\\\\\\\\";");

  /* Other opcodes are kept as text; one without operands has none. */
  epd = read_ok("4k3/8/8/8/8/8/8/4K3 w - - pi 3.14; noop; ce -120; acd 20\n");
  const arb_epd_op *pi = arb_epd_find(&epd, "pi");
  cr_assert_eq(pi->kind, ARB_EPD_TEXT);
  cr_assert_eq(pi->text_len, 4);
  cr_assert_eq(memcmp(pi->text, "3.14", 4), 0);
  cr_assert_eq(arb_epd_find(&epd, "noop")->kind, ARB_EPD_NONE);
  cr_assert_eq(arb_epd_find(&epd, "ce")->integer, -120);
  cr_assert_eq(arb_epd_find(&epd, "acd")->integer, 20);
  cr_assert_null(arb_epd_find(&epd, "bm"));
  assert_writes(&epd, "4k3/8/8/8/8/8/8/4K3 w - - pi 3.14; noop; ce -120; acd 20;");
}

/* python-chess test_epd: writing records made from scratch. */
Test(epd, writing) {
  arb_position p = test_fen("1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1");
  arb_epd epd;
  arb_epd_init(&epd, &p);
  arb_move m = test_uci(&p, "d6d1");
  cr_assert_eq(arb_epd_add_moves(&epd, "bm", &m, 1), ARB_OK);
  cr_assert_eq(arb_epd_add_string(&epd, "id", "BK.01"), ARB_OK);
  assert_writes(&epd, "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd1+; id \"BK.01\";");
  cr_assert_eq(arb_epd_add_string(&epd, "id", "again"), ARB_ERR_EPD_SYNTAX, "once per record");

  p = test_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  arb_epd_init(&epd, &p);
  cr_assert_eq(arb_epd_add_text(&epd, "noop", NULL), ARB_OK);
  assert_writes(&epd, "4k3/8/8/8/8/8/8/4K3 w - - noop;");
  arb_epd_init(&epd, &p);
  cr_assert_eq(arb_epd_add_text(&epd, "pi", "3.14"), ARB_OK);
  assert_writes(&epd, "4k3/8/8/8/8/8/8/4K3 w - - pi 3.14;");
  cr_assert_eq(arb_epd_add_text(&epd, "9x", NULL), ARB_ERR_ARGUMENT);
  arb_epd_init(&epd, &p);
  cr_assert_eq(arb_epd_add_string(&epd, "c1", "say \"hi\" \\o/"), ARB_OK);
  assert_writes(&epd, "4k3/8/8/8/8/8/8/4K3 w - - c1 \"say \\\"hi\\\" \\\\o/\";");
  char round[128];
  arb_epd_write(&epd, round, sizeof round);
  arb_epd back = read_ok(round);
  assert_string(&back, "c1", "say \"hi\" \\o/");

  p = test_fen("k7/8/8/8/8/8/4PPPP/4K1NR w K - 0 1");
  arb_epd_init(&epd, &p);
  arb_move line[3];
  arb_position q = p;
  const char *uci[3] = {"g1f3", "a8a7", "e1g1"};
  for (int i = 0; i < 3; i++) {
    line[i] = test_uci(&q, uci[i]);
    arb_undo u;
    arb_make_move(&q, line[i], &u);
  }
  cr_assert_eq(arb_epd_add_moves(&epd, "bm", line, 3), ARB_ERR_MOVE_ILLEGAL, "a set, not a line");
  cr_assert_eq(arb_epd_add_moves(&epd, "pv", line, 3), ARB_OK);
  assert_writes(&epd, "k7/8/8/8/8/8/4PPPP/4K1NR w K - pv Nf3 Ka7 O-O;");

  p = test_fen("8/8/8/4k3/8/1K6/8/8 b - - 0 1");
  arb_epd_init(&epd, &p);
  arb_move set[2] = {test_uci(&p, "e5e4"), test_uci(&p, "e5e6")};
  cr_assert_eq(arb_epd_add_moves(&epd, "bm", set, 2), ARB_OK);
  cr_assert_eq(arb_epd_add_integer(&epd, "hmvc", 7), ARB_OK);
  cr_assert_eq(epd.position.halfmove_clock, 7);
  cr_assert_eq(arb_epd_add_integer(&epd, "fmvn", 0), ARB_ERR_ARGUMENT);
  assert_writes(&epd, "8/8/8/4k3/8/1K6/8/8 b - - bm Ke4 Ke6; hmvc 7;");
  /* snprintf convention */
  char small[10];
  int need = arb_epd_write(&epd, small, sizeof small);
  cr_assert_eq(need, (int)strlen("8/8/8/4k3/8/1K6/8/8 b - - bm Ke4 Ke6; hmvc 7;"));
  cr_assert_str_eq(small, "8/8/8/4k3");
}

/* Every refusal names what and where. */
Test(epd, errors) {
  static const struct {
    const char *line;
    arb_status code;
    int op_index, column;
    const char *words;
  } cases[] = {
      /* python-chess test_set_fen_as_epd: move numbers are no opcodes */
      {ARB_FEN_START, ARB_ERR_EPD_SYNTAX, 0, 53, "starts with a letter"},
      {"1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - bm Qd7; id \"BK.01\";",
       ARB_ERR_MOVE_ILLEGAL, 0, 52, "operation 1 (bm): move 1 \"Qd7\""},
      {"6k1/1p6/6K1/8/8/8/8/7Q w - - pv Qh7+ Kf7 Qf7#;", ARB_ERR_MOVE_ILLEGAL, 0, 37, "move 2"},
      {"4k3/8/8/8/8/8/8/4K3 w - - bm Kz9;", ARB_ERR_MOVE_SYNTAX, 0, 30, "(bm)"},
      {"4k3/8/8/8/8/8/8/4K3 w - - id \"open;", ARB_ERR_EPD_SYNTAX, 0, 29, "not closed"},
      {"4k3/8/8/8/8/8/8/4K3 w - - id BK.01;", ARB_ERR_EPD_SYNTAX, 0, 26, "double quotes"},
      {"4k3/8/8/8/8/8/8/4K3 w - - id \"a\"; id \"b\";", ARB_ERR_EPD_SYNTAX, 1, 34, "twice"},
      {"4k3/8/8/8/8/8/8/4K3 w - - hmvc 70000;", ARB_ERR_EPD_SYNTAX, 0, 31, "out of range"},
      {"4k3/8/8/8/8/8/8/4K3 w - - acd -3;", ARB_ERR_EPD_SYNTAX, 0, 26, "acd"},
      {"4k3/8/8/8/8/8/8/4K3 w - - bm \"Ke2\";", ARB_ERR_EPD_SYNTAX, 0, 26, "moves in SAN"},
      {"4k3/8/8/8/8/8/8/4K3 w - - abcdefghijklmnop 1;", ARB_ERR_EPD_SYNTAX, 0, 26, "longer"},
      {"4k3/8/8/8/8/8/8/4K3 w - - b@d 1;", ARB_ERR_EPD_SYNTAX, 0, 27, "'@'"},
      {"4k3/8/8/8/8/8/8/4K3 w", ARB_ERR_FEN_SYNTAX, -1, 21, "position: missing field 3"},
      {"4k3/8/8/8/8/8/8/4K4 w - - bm Ke2;", ARB_ERR_FEN_SYNTAX, -1, 18, "position: rank 1"},
      {"4k3/8/8/8/8/8/8/8 w - - bm Ke2;", ARB_ERR_FEN_INVALID, -1, 0, "White has no king"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    arb_epd epd;
    arb_epd_error err;
    arb_status st = arb_epd_read(cases[i].line, strlen(cases[i].line), 0, &epd, &err);
    cr_assert_eq(st, cases[i].code, "%s: %s (%s)", cases[i].line, arb_status_name(st), err.message);
    cr_assert_eq(err.code, st);
    cr_assert_eq(err.op_index, cases[i].op_index, "%s: op %d", cases[i].line, err.op_index);
    cr_assert_eq(err.column, cases[i].column, "%s: column %d (%s)", cases[i].line, err.column,
                 err.message);
    cr_assert(strstr(err.message, cases[i].words), "%s: %s", cases[i].line, err.message);
  }
  /* Too many operations for the caller's record. */
  char line[1024] = "4k3/8/8/8/8/8/8/4K3 w - -";
  for (int k = 0; k <= ARB_EPD_MAX_OPS; k++)
    snprintf(line + strlen(line), sizeof line - strlen(line), " x%d;", k);
  arb_epd epd;
  arb_epd_error err;
  cr_assert_eq(arb_epd_read(line, strlen(line), 0, &epd, &err), ARB_ERR_BUFFER);
  cr_assert_eq(err.op_index, ARB_EPD_MAX_OPS);
  cr_assert_eq(arb_epd_read(NULL, 3, 0, &epd, NULL), ARB_ERR_ARGUMENT);
}
