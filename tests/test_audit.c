/* Arbiter — MIT licence, see LICENSE.
 *
 * test_audit.c: the review of played games (arbiter/audit.h) through its C API: the contract
 * (bad arguments, findings beyond cap counted but not written, a game that does not replay),
 * and two findings the Laws settle — the start position on the board a third time after
 * 1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1 Ng8, so White, who then lost, could claim (FIDE 9.2.1),
 * and Black one move earlier by writing 4...Ng8;
 * a lone king's win on time is a draw (6.9).  The PGN cases are in tests/cli/review.sh.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "arbiter/arbiter.h"

static int line(const char *const *san, int n, arb_position *start, arb_move *out) {
  arb_position p = *start;
  for (int i = 0; i < n; i++) {
    if (arb_san_read(&p, san[i], strlen(san[i]), 0, &out[i], NULL) != ARB_OK) return -1;
    arb_undo u;
    arb_make_move(&p, out[i], &u);
  }
  return n;
}

Test(audit, the_contract) {
  arb_audit_finding f[2];
  cr_assert_eq(arb_audit(NULL, NULL, 0, f, 2), -1);
  arb_audit_game g;
  memset(&g, 0, sizeof g);
  cr_assert_eq(arb_fen_read(&g.start, ARB_FEN_START, 0, NULL), ARB_OK);
  g.nmoves = 1;
  g.moves = NULL;
  cr_assert_eq(arb_audit(&g, NULL, 0, f, 2), -1, "moves missing");
  arb_move bad = ARB_MOVE_MAKE(ARB_SQUARE(4, 1), ARB_SQUARE(4, 4)); /* e2e5 */
  g.moves = &bad;
  cr_assert_eq(arb_audit(&g, NULL, 0, f, 2), -1, "a move that does not replay");
  g.nmoves = 0;
  cr_assert_eq(arb_audit(&g, NULL, 0, f, 0), 0, "no moves, no findings");
  cr_assert_str_eq(arb_audit_kind_name(ARB_AUDIT_CLAIM_FIFTY), "claim_fifty");
  cr_assert_str_eq(arb_audit_kind_name(ARB_AUDIT_KIND_COUNT), "");
}

Test(audit, a_threefold_claim_missed_then_mated) {
  static const char *const san[] = {"Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6",
                                    "Ng1", "Ng8", "f3",  "e5",  "g4",  "Qh4#"};
  arb_audit_game g;
  memset(&g, 0, sizeof g);
  arb_fen_read(&g.start, ARB_FEN_START, 0, NULL);
  arb_move ms[12];
  cr_assert_eq(line(san, 12, &g.start, ms), 12);
  g.moves = ms;
  g.nmoves = 12;
  g.result = ARB_RESULT_BLACK_WINS;
  arb_audit_finding f[4];
  cr_assert_eq(arb_audit(&g, NULL, 0, f, 4), 1);
  cr_assert_eq(f[0].kind, ARB_AUDIT_CLAIM_THREEFOLD);
  cr_assert_eq(f[0].ply, 8);
  cr_assert_eq(f[0].side, ARB_WHITE);
  cr_assert_str_eq(f[0].article, "FIDE 9.2.1");
  cr_assert_eq(arb_audit(&g, NULL, 0, f, 0), 1, "counted beyond cap");
  g.result = ARB_RESULT_DRAW; /* drawn: nobody lost anything */
  cr_assert_eq(arb_audit(&g, NULL, 0, f, 4), 0);
  /* had White won, Black could have claimed before 4...Ng8 by writing it (9.2.1): the start
   * position would stand a third time */
  g.result = ARB_RESULT_WHITE_WINS;
  cr_assert_eq(arb_audit(&g, NULL, 0, f, 4), 1);
  cr_assert_eq(f[0].ply, 7);
  cr_assert_eq(f[0].side, ARB_BLACK);
  cr_assert_str_eq(f[0].san, "Ng8");
}

Test(audit, a_lone_king_wins_on_time_is_a_draw) {
  static const char *const san[] = {"Ke2", "Qa6+", "Ke1"};
  arb_audit_game g;
  memset(&g, 0, sizeof g);
  arb_fen_read(&g.start, "q3k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, NULL);
  arb_move ms[3];
  cr_assert_eq(line(san, 3, &g.start, ms), 3);
  g.moves = ms;
  g.nmoves = 3;
  g.result = ARB_RESULT_WHITE_WINS;
  g.ending = ARB_AUDIT_END_TIME;
  arb_audit_finding f[2];
  cr_assert_eq(arb_audit(&g, NULL, 0, f, 2), 1);
  cr_assert_eq(f[0].kind, ARB_AUDIT_RESULT_NOT_LAWFUL);
  cr_assert_str_eq(f[0].article, "FIDE 6.9");
  g.ending = ARB_AUDIT_END_OTHER; /* abandoned: not judged */
  cr_assert_eq(arb_audit(&g, NULL, 0, f, 2), 0);
}
