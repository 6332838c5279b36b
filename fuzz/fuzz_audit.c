/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_audit.c: libFuzzer target for the review of played games (arbiter/audit.h).  Input: a
 * PGN text (byte 0 picks the chunk size).  Fed to arb_audit_reader in chunks, with a solver and
 * a small budget; properties: the callback comes once per game, numbered in order; a game that
 * is not readable has an error and no findings; every finding has a known kind, a ply within
 * the game, a FEN that reads, its move and the move played legal there (when given), a
 * non-empty text and article, 0 to 1 points; a claim, rescue or result finding concerns the
 * player who lost; the same text fed whole gives the same findings.
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"

typedef struct seen {
  uint64_t games;
  unsigned long sum; /* a digest of the findings, to compare two feedings */
} seen;

static arb_solver *S;

static void check_move(const arb_position *p, const char *uci, const char *ctx) {
  if (!uci[0]) return;
  arb_move m;
  FUZZ_CHECK_CTX(arb_uci_read(p, uci, strlen(uci), 0, &m) == ARB_OK, ctx);
}

static int on_game(void *ctx, const arb_audit_info *i, const arb_audit_finding *f, int n) {
  seen *s = ctx;
  FUZZ_CHECK_CTX(i->game == ++s->games, "games in order");
  FUZZ_CHECK_CTX(n >= 0 && n <= ARB_AUDIT_MAX_FINDINGS, "finding count");
  if (!i->readable) FUZZ_CHECK_CTX(i->error[0] && n == 0, "an unread game has an error only");
  for (int k = 0; k < n; k++) {
    const char *c = f[k].text;
    FUZZ_CHECK_CTX(arb_audit_kind_name(f[k].kind)[0], c);
    FUZZ_CHECK_CTX(f[k].ply >= 0 && f[k].ply <= i->plies, c);
    FUZZ_CHECK_CTX(f[k].text[0] && f[k].article[0], "text and article");
    FUZZ_CHECK_CTX(f[k].points >= 0 && f[k].points <= 1, c);
    arb_position p;
    FUZZ_CHECK_CTX(arb_fen_read(&p, f[k].fen, 0, NULL) == ARB_OK, f[k].fen);
    check_move(&p, f[k].move, f[k].fen);
    check_move(&p, f[k].played, f[k].fen);
    int lost = (f[k].side == ARB_WHITE && !strcmp(i->result, "0-1")) ||
               (f[k].side == ARB_BLACK && !strcmp(i->result, "1-0"));
    if (f[k].kind == ARB_AUDIT_CLAIM_THREEFOLD || f[k].kind == ARB_AUDIT_CLAIM_FIFTY ||
        f[k].kind == ARB_AUDIT_MISSED_RESCUE || f[k].kind == ARB_AUDIT_RESULT_NOT_LAWFUL)
      FUZZ_CHECK_CTX(lost, c);
    s->sum = s->sum * 31 + (unsigned long)f[k].kind * 7 + (unsigned long)f[k].ply;
  }
  return 0;
}

static seen feed(const uint8_t *data, size_t size, size_t chunk) {
  seen s = {0, 0};
  arb_audit_reader *r = arb_audit_reader_new(S, 2000, on_game, &s);
  if (!r) return s;
  for (size_t at = 0; at < size; at += chunk)
    arb_audit_reader_feed(r, data + at, size - at < chunk ? size - at : chunk);
  arb_audit_reader_finish(r);
  arb_audit_reader_free(r);
  return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1 || size > 20000) return 0;
  if (!S) S = arb_solver_new(1 << 16);
  size_t chunk = 1 + data[0] % 17;
  seen a = feed(data + 1, size - 1, chunk), b = feed(data + 1, size - 1, size);
  FUZZ_CHECK_CTX(a.games == b.games && a.sum == b.sum, "chunking changes nothing");
  return 0;
}
