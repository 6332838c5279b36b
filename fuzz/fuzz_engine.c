/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_engine.c: libFuzzer target for what a UCI engine says (engine/uci.c): `info` lines and
 * `bestmove` lines, the parsers `arbiter match` and `arbiter play` run on every line an engine
 * prints.
 *
 * Input: the first line is a FEN (every non-fatal problem accepted; the start position when it
 * does not read); each further line is given to uci_parse_info (after "info ") and to
 * uci_read_bestmove, with chess960 0 and 1.  Properties: no crash; the status is a documented
 * one with a message unless it is UCI_OK; an UCI_OK move is legal and its UCI text is the text
 * the engine sent (castling in the notation of the mode); the pv kept is a prefix of what was
 * sent, and uci_pv_legal counts at most its moves.
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"
#include "uci.h"

#define MAX_LINES 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  arb_position pos;
  const char *next = fuzz_start_position(data, size, &pos), *end = (const char *)data + size, *p;
  size_t len;
  int count = 0;
  if (!arb_has_legal_move(&pos)) arb_position_startpos(&pos);
  while ((p = fuzz_next_line(&next, end, &len, &count, MAX_LINES))) {
    char line[512];
    if (len >= sizeof line) len = sizeof line - 1;
    memcpy(line, p, len);
    line[len] = 0;
    for (size_t i = 0; i < len; i++)
      if (!line[i]) line[i] = ' ';
    uci_result r;
    memset(&r, 0, sizeof r);
    uci_parse_info(line, &r);
    FUZZ_CHECK_CTX(strlen(r.pv) < sizeof r.pv, line);
    if (r.pv[0]) {
      FUZZ_CHECK_CTX(strstr(line, r.pv) != NULL, line);
      int words = 0;
      for (const char *c = r.pv; *c; c++)
        if (*c != ' ' && (c == r.pv || c[-1] == ' ')) words++;
      FUZZ_CHECK_CTX(uci_pv_legal(&pos, r.pv) <= words, line);
    }
    for (int c960 = 0; c960 < 2; c960++) {
      uci_result b;
      memset(&b, 0, sizeof b);
      uci_status st = uci_read_bestmove(&pos, c960, line, &b);
      FUZZ_CHECK_CTX(st == UCI_OK || st == UCI_NO_MOVE || st == UCI_MALFORMED || st == UCI_ILLEGAL,
                     line);
      FUZZ_CHECK_CTX(st == UCI_OK || b.message[0], line);
      if (st != UCI_OK) continue;
      FUZZ_CHECK_CTX(arb_is_legal(&pos, b.move), line);
      char u[8];
      arb_uci_write(&pos, b.move, u, sizeof u);
      FUZZ_CHECK_CTX(strlen(u) == strlen(b.text), line);
    }
  }
  return 0;
}
