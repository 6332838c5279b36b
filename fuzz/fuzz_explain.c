/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_explain.c: libFuzzer target for "why a move is illegal" (arb_move_explain_uci and
 * friends, explain.h).
 *
 * Input: the first line is a FEN (every non-fatal problem accepted; the start position when it
 * does not read), each further line a move in UCI, legal or not.  Properties: the status is
 * ARB_OK or ARB_ERR_MOVE_SYNTAX, and syntax exactly when arb_uci_read_squares refuses the text;
 * an explanation has a name, an article, a NUL-terminated non-empty message, the piece of its
 * square and a move exactly when legal; legal exactly when arb_uci_read accepts the text, with
 * the same move; the same for every other target square of the line's from-square (agreement
 * with the move generator); the player not to move always gets "not_your_turn" and the player
 * to move the plain answer; the colour-flipped position gives the same reason.  A legal move is
 * played, so later lines are explained in the position after it.
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"

#define MAX_LINES 32

static void check_explanation(const arb_position *pos, const arb_move_explanation *e,
                              const char *ctx) {
  FUZZ_CHECK_CTX(arb_illegal_name(e->reason) != NULL, ctx);
  FUZZ_CHECK_CTX(e->article != NULL, ctx);
  FUZZ_CHECK_CTX(memchr(e->message, '\0', sizeof e->message) != NULL, ctx);
  FUZZ_CHECK_CTX(e->message[0] != '\0', ctx);
  FUZZ_CHECK_CTX(e->square <= 64 && e->attacked <= 64, ctx);
  FUZZ_CHECK_CTX(e->piece == (e->square < 64 ? pos->board[e->square] : ARB_NO_PIECE), ctx);
  FUZZ_CHECK_CTX((e->reason == ARB_MOVE_LEGAL) == (e->move != ARB_MOVE_NONE), ctx);
  if (e->move != ARB_MOVE_NONE) FUZZ_CHECK_CTX(arb_is_legal(pos, e->move), ctx);
}

/* Explains from -> to (promotion as given) and checks it against arb_uci_read of its text. */
static void agree(const arb_position *pos, arb_square from, arb_square to, arb_piece_type promo,
                  const char *ctx) {
  arb_move_explanation e;
  FUZZ_CHECK_CTX(arb_move_explain(pos, from, to, promo, &e) == ARB_OK, ctx);
  check_explanation(pos, &e, ctx);
  char uci[6] = {(char)('a' + ARB_FILE_OF(from)), (char)('1' + ARB_RANK_OF(from)),
                 (char)('a' + ARB_FILE_OF(to)),   (char)('1' + ARB_RANK_OF(to)),
                 promo ? " pnbrqk"[promo] : '\0', '\0'};
  arb_move m = ARB_MOVE_NONE;
  arb_status st = arb_uci_read(pos, uci, promo ? 5 : 4, 0, &m);
  FUZZ_CHECK_CTX((st == ARB_OK) == (e.reason == ARB_MOVE_LEGAL), ctx);
  FUZZ_CHECK_CTX(st != ARB_OK || m == e.move, ctx);

  arb_position mirror;
  arb_position_mirror(pos, &mirror);
  arb_move_explanation me;
  FUZZ_CHECK_CTX(arb_move_explain(&mirror, (arb_square)(from ^ 56), (arb_square)(to ^ 56), promo,
                                  &me) == ARB_OK,
                 ctx);
  FUZZ_CHECK_CTX(me.reason == e.reason, ctx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  arb_position pos;
  const char *next = fuzz_start_position(data, size, &pos), *end = (const char *)data + size, *p;
  size_t len;
  int count = 0;
  while ((p = fuzz_next_line(&next, end, &len, &count, MAX_LINES))) {
    char ctx[FUZZ_CTX_MAX];
    fuzz_line_context(&pos, p, len, ctx);

    arb_move_explanation e;
    arb_status st = arb_move_explain_uci(&pos, p, len, &e);
    FUZZ_CHECK_CTX(st == ARB_OK || st == ARB_ERR_MOVE_SYNTAX, ctx);
    arb_square from = ARB_NO_SQUARE, to = ARB_NO_SQUARE;
    arb_piece_type promo = ARB_NO_TYPE;
    arb_status sst = arb_uci_read_squares(p, len, &from, &to, &promo);
    FUZZ_CHECK_CTX(sst == st, ctx);
    arb_move m = ARB_MOVE_NONE;
    arb_status ust = arb_uci_read(&pos, p, len, 0, &m);
    if (st != ARB_OK) {
      FUZZ_CHECK_CTX(ust != ARB_OK, ctx);
      continue;
    }
    FUZZ_CHECK_CTX(from < 64 && to < 64 && promo <= ARB_KING, ctx);
    check_explanation(&pos, &e, ctx);
    FUZZ_CHECK_CTX((ust == ARB_OK) == (e.reason == ARB_MOVE_LEGAL) || ust == ARB_ERR_MOVE_SYNTAX,
                   ctx);
    if (ust == ARB_OK) FUZZ_CHECK_CTX(m == e.move, ctx);

    /* Whose turn: the other player is always refused, the player to move judged as usual. */
    arb_move_explanation ef;
    FUZZ_CHECK_CTX(
        arb_move_explain_for(&pos, (arb_color)(pos.turn ^ 1), from, to, promo, &ef) == ARB_OK, ctx);
    FUZZ_CHECK_CTX(ef.reason == ARB_ILLEGAL_NOT_YOUR_TURN, ctx);
    check_explanation(&pos, &ef, ctx);
    FUZZ_CHECK_CTX(arb_move_explain_for(&pos, (arb_color)pos.turn, from, to, promo, &ef) == ARB_OK,
                   ctx);
    FUZZ_CHECK_CTX(ef.reason == e.reason && ef.move == e.move, ctx);
    FUZZ_CHECK_CTX(strcmp(ef.message, e.message) == 0, ctx);

    /* Every target of this from-square, and this target with every promotion letter. */
    for (int t = 0; t < 64; t++)
      agree(&pos, from, (arb_square)t, ARB_NO_TYPE, ctx);
    for (int k = ARB_PAWN; k <= ARB_KING; k++)
      agree(&pos, from, to, (arb_piece_type)k, ctx);

    if (e.reason == ARB_MOVE_LEGAL) {
      arb_undo undo;
      arb_make_move(&pos, e.move, &undo);
    }
  }
  return 0;
}
