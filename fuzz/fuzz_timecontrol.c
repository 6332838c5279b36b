/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_timecontrol.c: libFuzzer target for the clock layer's parsers — time controls
 * (arb_tc_parse, both grammars and AUTO) and PGN clock comments (arb_pgn_comment_clock).
 *
 * Input: the whole input is one time-control string and one comment.  Properties: every status
 * is a documented one; an error leaves *tc untouched and reports a column inside the text and a
 * message; a parsed control validates, prints (human and PGN) within the snprintf convention,
 * and reads back to the same periods (PGN: when arb_tc_pgn_exact, else the same times, moves
 * and increments); a clock on it keeps its remaining times within bounds while a few moves are
 * pressed.  Comments: the text left is never longer than the input, values written read back
 * to the same milliseconds.
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"

static int same_periods(const arb_time_control *a, const arb_time_control *b, int delays) {
  if (a->kind != b->kind || a->nperiods != b->nperiods) return 0;
  for (int i = 0; i < a->nperiods; i++) {
    const arb_tc_period *x = &a->periods[i], *y = &b->periods[i];
    if (x->time_ms != y->time_ms || x->increment_ms != y->increment_ms || x->moves != y->moves)
      return 0;
    if (delays && (x->delay_ms != y->delay_ms || x->delay_kind != y->delay_kind)) return 0;
  }
  return 1;
}

/* Writes tc in a grammar, checks the snprintf convention (also with a short buffer), and
 * parses the text back with the same grammar. */
static void round_trip(const arb_time_control *tc, arb_tc_syntax syntax, const char *ctx) {
  char buf[512], small[7];
  int n = arb_tc_write(tc, syntax, buf, sizeof buf);
  FUZZ_CHECK_CTX(n > 0 && (size_t)n < sizeof buf && strlen(buf) == (size_t)n, ctx);
  int m = arb_tc_write(tc, syntax, small, sizeof small);
  FUZZ_CHECK_CTX(m == n, ctx);
  FUZZ_CHECK_CTX(strlen(small) == ((size_t)n < sizeof small ? (size_t)n : sizeof small - 1), ctx);
  FUZZ_CHECK_CTX(memcmp(small, buf, strlen(small)) == 0, ctx);
  arb_time_control back;
  arb_tc_report rep;
  arb_status st = arb_tc_parse(buf, (size_t)n, syntax, &back, &rep);
  FUZZ_CHECK_CTX(st == ARB_OK, buf);
  int exact = syntax == ARB_TC_HUMAN || arb_tc_pgn_exact(tc);
  FUZZ_CHECK_CTX(same_periods(tc, &back, exact), buf);
}

static void exercise_clock(const arb_time_control *tc, const uint8_t *data, size_t size) {
  arb_clock c;
  FUZZ_CHECK(arb_clock_init(&c, tc) == ARB_OK);
  FUZZ_CHECK(arb_clock_start(&c, ARB_WHITE, 0) == ARB_OK);
  int64_t t = 0;
  for (size_t i = 0; i < size && i < 64; i++) {
    t += (int64_t)data[i] * 997;
    arb_color side = arb_clock_turn(&c);
    int64_t f = arb_clock_flag_time(&c);
    arb_press_info in;
    FUZZ_CHECK(arb_clock_press(&c, side, t, 0, &in) == ARB_OK);
    /* late exactly when past the flag time (a side already down is not late again) */
    if (in.late) FUZZ_CHECK(f != ARB_CLOCK_NEVER && t > f);
    if (t <= f) FUZZ_CHECK(!in.late && !in.flag_down);
    for (int s = 0; s < 2; s++) {
      int64_t r = arb_clock_remaining(&c, (arb_color)s, t);
      FUZZ_CHECK(r >= 0);
      FUZZ_CHECK(r <= ARB_CLOCK_MS_MAX || r == ARB_CLOCK_NEVER);
    }
    FUZZ_CHECK(arb_clock_press(&c, side, t, 0, NULL) == ARB_ERR_NOT_YOUR_TURN);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  char ctx[80];
  snprintf(ctx, sizeof ctx, "%.*s", (int)(size < 60 ? size : 60), text);

  static const arb_tc_syntax syntaxes[3] = {ARB_TC_PGN, ARB_TC_HUMAN, ARB_TC_AUTO};
  for (int k = 0; k < 3; k++) {
    arb_time_control tc;
    memset(&tc, 0xa5, sizeof tc);
    const arb_time_control before = tc;
    arb_tc_report rep;
    arb_status st = arb_tc_parse(text, size, syntaxes[k], &tc, &rep);
    FUZZ_CHECK_CTX(st == ARB_OK || st == ARB_ERR_TC_SYNTAX, ctx);
    if (st != ARB_OK) {
      FUZZ_CHECK_CTX(memcmp(&tc, &before, sizeof tc) == 0, ctx);
      FUZZ_CHECK_CTX(rep.column >= 0 && (size_t)rep.column <= size, ctx);
      FUZZ_CHECK_CTX(rep.message[0] != '\0', ctx);
      FUZZ_CHECK_CTX(memchr(rep.message, '\0', sizeof rep.message) != NULL, ctx);
      continue;
    }
    FUZZ_CHECK_CTX(rep.column == -1 && rep.message[0] == '\0', ctx);
    FUZZ_CHECK_CTX(arb_tc_validate(&tc) == ARB_OK, ctx);
    round_trip(&tc, ARB_TC_HUMAN, ctx);
    round_trip(&tc, ARB_TC_PGN, ctx);
    for (int m = 0; m < ARB_MODEL_COUNT; m++) {
      tc.model = (uint8_t)m;
      exercise_clock(&tc, data, size);
    }
  }

  arb_pgn_clock_data d;
  char rest[256];
  size_t rest_len = 0;
  FUZZ_CHECK_CTX(arb_pgn_comment_clock(text, size, &d, rest, sizeof rest, &rest_len) == ARB_OK,
                 ctx);
  FUZZ_CHECK_CTX(rest_len <= size, ctx);
  /* (the text is passed through, NUL bytes included) */
  if (!memchr(text, '\0', size))
    FUZZ_CHECK_CTX(strlen(rest) == (rest_len < sizeof rest ? rest_len : sizeof rest - 1), ctx);
  char out[160];
  int n = arb_pgn_comment_clock_write(&d, out, sizeof out);
  FUZZ_CHECK_CTX(n >= 0 && (size_t)n < sizeof out, ctx);
  arb_pgn_clock_data e;
  FUZZ_CHECK_CTX(arb_pgn_comment_clock(out, (size_t)n, &e, NULL, 0, &rest_len) == ARB_OK, ctx);
  FUZZ_CHECK_CTX(rest_len == 0, out);
  FUZZ_CHECK_CTX(e.clk_ms == d.clk_ms && e.emt_ms == d.emt_ms && e.egt_ms == d.egt_ms &&
                     e.mct_ms == d.mct_ms,
                 out);
  return 0;
}
