/* Arbiter — MIT licence, see LICENSE.
 *
 * test_uci.c: what the UCI client (engine/uci.c) makes of an engine's lines, against the UCI
 * protocol's own definitions (the "Description of the universal chess interface", April 2006):
 * `info` fields (a multipv line other than the first ignored, a bound score only a fallback),
 * `bestmove` with the reason for each refusal, and the legal prefix of a PV.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "uci.h"

Test(uci, info_fields) {
  uci_result r;
  memset(&r, 0, sizeof r);
  uci_parse_info("depth 12 seldepth 18 multipv 1 score cp 31 nodes 100000 nps 900000 hashfull 12 "
                 "tbhits 3 time 111 wdl 100 800 100 pv e2e4 e7e5 g1f3",
                 &r);
  cr_assert_eq(r.depth, 12);
  cr_assert_eq(r.seldepth, 18);
  cr_assert(r.has_score && !r.mate && r.score == 31);
  cr_assert_eq(r.nodes, 100000);
  cr_assert_eq(r.nps, 900000);
  cr_assert_eq(r.hashfull, 12);
  cr_assert_eq(r.tbhits, 3);
  cr_assert_eq(r.engine_ms, 111);
  cr_assert(r.has_wdl && r.wdl[0] == 100 && r.wdl[1] == 800 && r.wdl[2] == 100);
  cr_assert_str_eq(r.pv, "e2e4 e7e5 g1f3");
  /* the second line of a multipv search does not replace the first */
  uci_parse_info("depth 13 multipv 2 score cp -50 pv d2d4", &r);
  cr_assert(r.depth == 12 && r.score == 31);
  cr_assert_str_eq(r.pv, "e2e4 e7e5 g1f3");
  /* mate scores are in moves, signed; a bound does not replace an exact score */
  uci_parse_info("depth 14 score mate -3", &r);
  cr_assert(r.mate && r.score == -3);
  uci_parse_info("depth 15 score cp 500 lowerbound", &r);
  cr_assert(r.mate && r.score == -3);
  /* `string` ends the line: nothing after it is a field */
  memset(&r, 0, sizeof r);
  uci_parse_info("string depth 99 pv e2e4", &r);
  cr_assert(r.depth == 0 && !r.pv[0]);
}

Test(uci, bestmove) {
  arb_position start;
  arb_position_startpos(&start);
  uci_result r;
  memset(&r, 0, sizeof r);
  cr_assert_eq(uci_read_bestmove(&start, 0, "bestmove e2e4 ponder e7e5", &r), UCI_OK);
  char u[8];
  arb_uci_write(&start, r.move, u, sizeof u);
  cr_assert_str_eq(u, "e2e4");
  static const char *const none[] = {"bestmove (none)", "bestmove 0000", "bestmove a1a1",
                                     "bestmove NULL", "bestmove"};
  for (size_t i = 0; i < sizeof none / sizeof *none; i++)
    cr_assert_eq(uci_read_bestmove(&start, 0, none[i], &r), UCI_NO_MOVE, "%s", none[i]);
  cr_assert_eq(uci_read_bestmove(&start, 0, "bestmove banana", &r), UCI_MALFORMED);
  cr_assert_eq(uci_read_bestmove(&start, 0, "bestmove e2e5", &r), UCI_ILLEGAL);
  cr_assert(strstr(r.message, "is not legal in rnbqkbnr/pppppppp"), "%s", r.message);
  cr_assert_eq(uci_read_bestmove(&start, 0, "bestmovee2e4", &r), UCI_MALFORMED);
  /* castling: e1g1 in standard chess, king takes rook (e1h1) in Chess960 mode */
  arb_position c;
  cr_assert_eq(arb_fen_read(&c, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 0, NULL), ARB_OK);
  cr_assert_eq(uci_read_bestmove(&c, 0, "bestmove e1g1", &r), UCI_OK);
  cr_assert_eq(ARB_MOVE_KIND(r.move), ARB_MOVE_CASTLING);
  cr_assert_eq(uci_read_bestmove(&c, 0, "bestmove e1h1", &r), UCI_ILLEGAL);
  /* the promotion letter in either case */
  arb_position p;
  cr_assert_eq(arb_fen_read(&p, "8/P7/8/8/8/8/8/k1K5 w - - 0 1", 0, NULL), ARB_OK);
  cr_assert_eq(uci_read_bestmove(&p, 0, "bestmove a7a8Q", &r), UCI_OK);
  cr_assert_eq(uci_read_bestmove(&p, 0, "bestmove a7a8", &r), UCI_ILLEGAL);
}

Test(uci, pv_legal_prefix) {
  arb_position start;
  arb_position_startpos(&start);
  cr_assert_eq(uci_pv_legal(&start, "e2e4 e7e5 g1f3 b8c6"), 4);
  cr_assert_eq(uci_pv_legal(&start, "e2e4 e2e4 g1f3"), 1);
  cr_assert_eq(uci_pv_legal(&start, ""), 0);
}
