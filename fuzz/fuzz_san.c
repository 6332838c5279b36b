/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_san.c: libFuzzer target for the SAN reader (arb_san_read, arb_move_read).
 *
 * Input: the first line is a FEN (every non-fatal problem accepted; the start position when it
 * does not read), each further line is move text, parsed against the current position with
 * the lenient and strict flags (with and without ARB_SAN_ALLOW_NULL) and with arb_move_read.
 * Properties: every status is a documented one and matches err->code; a move read with
 * ARB_OK is in arb_generate_legal's list (or is the null move when allowed); strict success
 * implies lenient success with the same move; ambiguity names legal candidates.  A line that
 * reads as a legal move is played, so later lines are parsed in the position after it.
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"

#define MAX_LINES 32

static int documented(arb_status st) {
  return st == ARB_OK || st == ARB_ERR_MOVE_SYNTAX || st == ARB_ERR_MOVE_ILLEGAL ||
         st == ARB_ERR_MOVE_AMBIGUOUS || st == ARB_ERR_NULL_MOVE;
}

/* Checks one parse result; returns the move when it is a legal (non-null) one, else NONE. */
static arb_move check_result(const arb_position *pos, const arb_move *legal, int n, unsigned flags,
                             arb_status st, arb_move m, const arb_san_error *err, const char *ctx) {
  FUZZ_CHECK_CTX(documented(st), ctx);
  FUZZ_CHECK_CTX(err->code == st, ctx);
  FUZZ_CHECK_CTX(memchr(err->message, '\0', sizeof err->message) != NULL, ctx);
  if (st == ARB_ERR_MOVE_AMBIGUOUS) {
    FUZZ_CHECK_CTX(err->candidates_count >= 2, ctx);
    for (int k = 0; k < err->candidates_count && k < 8; k++)
      FUZZ_CHECK_CTX(fuzz_in_list(legal, n, err->candidates[k]), ctx);
  }
  if (st != ARB_OK) return ARB_MOVE_NONE;
  if (m == ARB_MOVE_NULL) {
    FUZZ_CHECK_CTX(flags & ARB_SAN_ALLOW_NULL, ctx);
    return ARB_MOVE_NONE;
  }
  FUZZ_CHECK_CTX(fuzz_in_list(legal, n, m), ctx);
  FUZZ_CHECK_CTX(arb_is_legal(pos, m), ctx);
  return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const unsigned flag_sets[4] = {0u, ARB_SAN_STRICT, ARB_SAN_ALLOW_NULL,
                                        ARB_SAN_STRICT | ARB_SAN_ALLOW_NULL};
  arb_position pos;
  const char *next = fuzz_start_position(data, size, &pos), *end = (const char *)data + size, *p;
  size_t len;
  int count = 0;
  while ((p = fuzz_next_line(&next, end, &len, &count, MAX_LINES))) {
    char ctx[FUZZ_CTX_MAX];
    fuzz_line_context(&pos, p, len, ctx);

    arb_move legal[ARB_MAX_MOVES];
    int n = arb_generate_legal(&pos, legal);
    arb_move results[4], play = ARB_MOVE_NONE;
    arb_status status[4];
    for (int f = 0; f < 4; f++) {
      arb_san_error err;
      arb_move m = (arb_move)0xbeef;
      status[f] = arb_san_read(&pos, p, len, flag_sets[f], &m, &err);
      results[f] = m;
      arb_move got = check_result(&pos, legal, n, flag_sets[f], status[f], m, &err, ctx);
      if (got != ARB_MOVE_NONE && play == ARB_MOVE_NONE) play = got;

      m = (arb_move)0xbeef;
      arb_status st = arb_move_read(&pos, p, len, flag_sets[f], &m, &err);
      got = check_result(&pos, legal, n, flag_sets[f], st, m, &err, ctx);
      if (got != ARB_MOVE_NONE && play == ARB_MOVE_NONE) play = got;
    }
    /* Strict is a subset of lenient. */
    for (int f = 0; f < 4; f += 2)
      if (status[f + 1] == ARB_OK) {
        FUZZ_CHECK_CTX(status[f] == ARB_OK, ctx);
        FUZZ_CHECK_CTX(results[f] == results[f + 1], ctx);
      }

    if (play != ARB_MOVE_NONE) {
      arb_undo undo;
      arb_make_move(&pos, play, &undo);
    }
  }
  return 0;
}
