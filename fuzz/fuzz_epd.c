/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_epd.c: libFuzzer target for the EPD reader and writer.
 *
 * The input bytes are one EPD line (not NUL-terminated), read with accept 0 and with every
 * non-fatal problem accepted.  A refusal has a documented status, a message, an operation index
 * in range and a column inside the line.  A record that reads:
 *  - every operation's opcode and text lie inside the line, its moves inside epd->moves, and
 *    each move of a set is legal in the position (a line: legal move after move);
 *  - hmvc and fmvn, when present, are the position's counters;
 *  - the written record reads back with the same opcodes, kinds, integers, decoded strings,
 *    moves and position, and writing that gives the same text again.
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"

static int inside(const char *p, size_t n, const char *base, size_t size) {
  return n == 0 || (p >= base && p + n <= base + size);
}

static void check_record(const arb_epd *epd, const char *text, size_t size) {
  FUZZ_CHECK(epd->op_count >= 0 && epd->op_count <= ARB_EPD_MAX_OPS);
  FUZZ_CHECK(epd->move_count >= 0 && epd->move_count <= ARB_EPD_MAX_MOVES);
  for (int k = 0; k < epd->op_count; k++) {
    const arb_epd_op *op = &epd->ops[k];
    FUZZ_CHECK(op->opcode_len >= 1 && op->opcode_len <= ARB_EPD_OPCODE_MAX);
    FUZZ_CHECK(inside(op->opcode, op->opcode_len, text, size));
    FUZZ_CHECK(inside(op->text, op->text_len, text, size));
    if (op->kind != ARB_EPD_MOVES) continue;
    FUZZ_CHECK(op->first_move >= 0 && op->move_count >= 1 &&
               op->first_move + op->move_count <= epd->move_count);
    arb_position pos = epd->position;
    const int line = op->opcode_len == 2 && !memcmp(op->opcode, "pv", 2);
    for (int i = 0; i < op->move_count; i++) {
      arb_move m = epd->moves[op->first_move + i];
      FUZZ_CHECK(arb_is_legal(&pos, m));
      if (line) {
        arb_undo u;
        arb_make_move(&pos, m, &u);
      }
    }
  }
  const arb_epd_op *h = arb_epd_find(epd, "hmvc"), *f = arb_epd_find(epd, "fmvn");
  if (h) FUZZ_CHECK(h->kind == ARB_EPD_INTEGER && h->integer == epd->position.halfmove_clock);
  if (f) FUZZ_CHECK(f->kind == ARB_EPD_INTEGER && f->integer == epd->position.fullmove_number);
}

static void check_same(const arb_epd *a, const arb_epd *b, const char *ctx) {
  FUZZ_CHECK_CTX(a->op_count == b->op_count, ctx);
  /* The same position, but for an en passant square that no pawn could legally use: the
   * writer leaves that out, as FEN output does. */
  const arb_position *p = &a->position, *q = &b->position;
  FUZZ_CHECK_CTX(!memcmp(p->board, q->board, sizeof p->board) && p->turn == q->turn &&
                     p->castling_rooks == q->castling_rooks && p->chess960 == q->chess960 &&
                     p->halfmove_clock == q->halfmove_clock &&
                     p->fullmove_number == q->fullmove_number,
                 ctx);
  FUZZ_CHECK_CTX(arb_ep_legal(p) == arb_ep_legal(q), ctx);
  if (arb_ep_legal(p)) FUZZ_CHECK_CTX(p->ep_square == q->ep_square && p->key == q->key, ctx);
  for (int k = 0; k < a->op_count; k++) {
    const arb_epd_op *x = &a->ops[k], *y = &b->ops[k];
    FUZZ_CHECK_CTX(x->opcode_len == y->opcode_len && !memcmp(x->opcode, y->opcode, x->opcode_len),
                   ctx);
    FUZZ_CHECK_CTX(x->kind == y->kind && x->integer == y->integer, ctx);
    FUZZ_CHECK_CTX(x->move_count == y->move_count, ctx);
    for (int i = 0; i < x->move_count; i++)
      FUZZ_CHECK_CTX(a->moves[x->first_move + i] == b->moves[y->first_move + i], ctx);
    if (x->kind != ARB_EPD_STRING && x->kind != ARB_EPD_TEXT) continue;
    char s1[512], s2[512];
    int n1 = arb_epd_string(x, s1, sizeof s1), n2 = arb_epd_string(y, s2, sizeof s2);
    FUZZ_CHECK_CTX(n1 == n2 && !strcmp(s1, s2), ctx);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t accepts[2] = {0u, ARB_FEN_PROBLEMS_ALL};
  if (size > 8192) return 0;
  const char *text = (const char *)data;
  for (int a = 0; a < 2; a++) {
    arb_epd epd;
    arb_epd_error err;
    memset(&err, 0x55, sizeof err); /* the reader must fill it in whatever happens */
    arb_status st = arb_epd_read(text, size, accepts[a], &epd, &err);
    FUZZ_CHECK(err.code == st);
    FUZZ_CHECK(memchr(err.message, '\0', sizeof err.message) != NULL);
    if (st != ARB_OK) {
      FUZZ_CHECK(st == ARB_ERR_FEN_SYNTAX || st == ARB_ERR_FEN_INVALID ||
                 st == ARB_ERR_EPD_SYNTAX || st == ARB_ERR_MOVE_SYNTAX ||
                 st == ARB_ERR_MOVE_ILLEGAL || st == ARB_ERR_MOVE_AMBIGUOUS ||
                 st == ARB_ERR_NULL_MOVE || st == ARB_ERR_BUFFER);
      FUZZ_CHECK(err.message[0] != '\0');
      FUZZ_CHECK(err.op_index >= -1 && err.op_index <= ARB_EPD_MAX_OPS);
      FUZZ_CHECK(err.column >= 0 && (size_t)err.column <= size);
      continue;
    }
    check_record(&epd, text, size);
    char out[16384], again[16384];
    int n = arb_epd_write(&epd, out, sizeof out);
    FUZZ_CHECK(n > 0 && (size_t)n < sizeof out && strlen(out) == (size_t)n);
    arb_epd back;
    st = arb_epd_read(out, (size_t)n, accepts[a], &back, &err);
    FUZZ_CHECK_CTX(st == ARB_OK, out);
    check_record(&back, out, (size_t)n);
    check_same(&epd, &back, out);
    int n2 = arb_epd_write(&back, again, sizeof again);
    FUZZ_CHECK_CTX(n2 == n && !strcmp(out, again), out);
  }
  return 0;
}
