/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_uci.c: libFuzzer target for the UCI move reader (arb_uci_read).
 *
 * Input: the first line is a FEN (every non-fatal problem accepted; the start position when it
 * does not read), each further line is a UCI move parsed against the current position with
 * allow_null 0 and 1.  Properties: every status is a documented one; both calls agree except
 * on the null move; an ARB_OK non-null move is legal, and its arb_uci_write text reads back to
 * the same move (as does arb_move_read of that text).  A legal move is played, so later lines
 * are parsed in the position after it.
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"

#define MAX_LINES 32

static int documented(arb_status st) {
  return st == ARB_OK || st == ARB_ERR_MOVE_SYNTAX || st == ARB_ERR_MOVE_ILLEGAL ||
         st == ARB_ERR_NULL_MOVE;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  arb_position pos;
  const char *next = fuzz_start_position(data, size, &pos), *end = (const char *)data + size, *p;
  size_t len;
  int count = 0;
  while ((p = fuzz_next_line(&next, end, &len, &count, MAX_LINES))) {
    char ctx[FUZZ_CTX_MAX];
    fuzz_line_context(&pos, p, len, ctx);

    arb_move legal[ARB_MAX_MOVES];
    int n = arb_generate_legal(&pos, legal);
    arb_move m0 = (arb_move)0xbeef, m1 = (arb_move)0xbeef;
    arb_status st0 = arb_uci_read(&pos, p, len, 0, &m0);
    arb_status st1 = arb_uci_read(&pos, p, len, 1, &m1);
    FUZZ_CHECK_CTX(documented(st0) && documented(st1), ctx);

    int is_null_text = len == 4 && memcmp(p, "0000", 4) == 0;
    if (is_null_text) {
      FUZZ_CHECK_CTX(st0 == ARB_ERR_NULL_MOVE, ctx);
      FUZZ_CHECK_CTX(st1 == ARB_OK && m1 == ARB_MOVE_NULL, ctx);
    } else {
      FUZZ_CHECK_CTX(st0 == st1, ctx);
      FUZZ_CHECK_CTX(st0 != ARB_ERR_NULL_MOVE, ctx);
    }

    if (st0 == ARB_OK) {
      FUZZ_CHECK_CTX(m0 == m1, ctx);
      FUZZ_CHECK_CTX(m0 != ARB_MOVE_NULL && m0 != ARB_MOVE_NONE, ctx);
      FUZZ_CHECK_CTX(fuzz_in_list(legal, n, m0), ctx);
      FUZZ_CHECK_CTX(len == 4 || len == 5, ctx);

      char uci[8];
      int un = arb_uci_write(&pos, m0, uci, sizeof uci);
      FUZZ_CHECK_CTX(un >= 4 && un <= 5 && strlen(uci) == (size_t)un, ctx);
      arb_move back = ARB_MOVE_NONE;
      FUZZ_CHECK_CTX(arb_uci_read(&pos, uci, (size_t)un, 0, &back) == ARB_OK, ctx);
      FUZZ_CHECK_CTX(back == m0, ctx);
      arb_san_error err;
      back = ARB_MOVE_NONE;
      FUZZ_CHECK_CTX(arb_move_read(&pos, uci, (size_t)un, 0, &back, &err) == ARB_OK, ctx);
      FUZZ_CHECK_CTX(back == m0, ctx);

      arb_undo undo;
      arb_make_move(&pos, m0, &undo);
    }
  }
  return 0;
}
