/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_fen.c: libFuzzer target for the FEN reader, with FEN, SAN and UCI round trips.
 *
 * The input bytes are one FEN (not NUL-terminated).  It is read twice, strictly (accept = 0)
 * and accepting every non-fatal problem (accept = ARB_FEN_PROBLEMS_ALL).  For each position that
 * reads:
 *  - the key equals the key recomputed from scratch;
 *  - its FEN (plain, Shredder, EPD and en-passant-always output) reads back with the same
 *    Polyglot key (minus the en passant file when the capture is only pseudo-legal: FEN output
 *    writes the square only when the capture is legal, unless always) and the FEN text is a
 *    fixed point;
 *  - every legal move writes as SAN and UCI that read back (strict and lenient SAN, UCI) to the
 *    same move; make/unmake restores the position and keeps the key incremental;
 *  - arb_count_legal, arb_has_legal_move and arb_is_legal agree with arb_generate_legal;
 *  - arb_perft to depth 2 (the moves made in place on a scratch copy and the children counted by
 *    the generator's perft-only copies) equals the sum of arb_count_legal over the children that
 *    arb_make_move makes (n == 0: 0).
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"

/* The key a re-read of pos's FEN must produce: the en passant file only counts when the
 * capture is legal, because only then does FEN output write the square. */
static uint64_t written_key(const arb_position *pos, unsigned flags) {
  /* ARB_FEN_OUT_EP_ALWAYS writes the square as read (ep_target): the key comes back whole. */
  if (pos->ep_square == ARB_NO_SQUARE || arb_ep_legal(pos) || (flags & ARB_FEN_OUT_EP_ALWAYS))
    return pos->key;
  arb_position copy = *pos;
  copy.ep_square = ARB_NO_SQUARE;
  return arb_zobrist_compute(&copy);
}

/* Writes pos with the given output flags, reads it back and checks the key. */
static void check_fen_round_trip(const arb_position *pos, uint32_t accept, unsigned flags,
                                 const char *orig) {
  char fen[ARB_FEN_MAX], fen2[ARB_FEN_MAX];
  int n = arb_fen_write(pos, fen, sizeof fen, flags);
  FUZZ_CHECK_CTX(n > 0 && n < (int)sizeof fen, orig);
  FUZZ_CHECK_CTX(strlen(fen) == (size_t)n, orig);

  arb_position back;
  arb_fen_report rep;
  arb_status st = arb_fen_read(&back, fen, accept, &rep);
  FUZZ_CHECK_CTX(st == ARB_OK, fen);
  FUZZ_CHECK_CTX(back.key == written_key(pos, flags), fen);
  if (flags & ARB_FEN_OUT_EP_ALWAYS) FUZZ_CHECK_CTX(back.ep_target == pos->ep_target, fen);
  FUZZ_CHECK_CTX(back.key == arb_zobrist_compute(&back), fen);

  /* Writing the re-read position gives the same text again. */
  int n2 = arb_fen_write(&back, fen2, sizeof fen2, flags);
  FUZZ_CHECK_CTX(n2 == n && strcmp(fen, fen2) == 0, fen);
}

static void check_moves(const arb_position *pos, const char *fen) {
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(pos, moves);
  FUZZ_CHECK_CTX(n >= 0 && n <= ARB_MAX_MOVES, fen);
  FUZZ_CHECK_CTX(arb_count_legal(pos) == n, fen);
  FUZZ_CHECK_CTX(arb_has_legal_move(pos) == (n > 0), fen);
  FUZZ_CHECK_CTX(arb_perft(pos, 1) == (uint64_t)n, fen);
  uint64_t two = 0;
  for (int i = 0; i < n; i++) {
    arb_position child = *pos;
    arb_undo u;
    arb_make_move(&child, moves[i], &u);
    two += (uint64_t)arb_count_legal(&child);
  }
  FUZZ_CHECK_CTX(arb_perft(pos, 2) == two, fen);

  for (int i = 0; i < n; i++) {
    arb_move m = moves[i], got;
    char san[ARB_SAN_MAX], uci[8], ctx[ARB_FEN_MAX + 32];
    arb_san_error err;

    FUZZ_CHECK_CTX(m != ARB_MOVE_NONE && m != ARB_MOVE_NULL, fen);
    FUZZ_CHECK_CTX(arb_is_legal(pos, m) == 1, fen);
    for (int j = 0; j < i; j++)
      FUZZ_CHECK_CTX(moves[j] != m, fen); /* no duplicates */

    int sn = arb_san_write(pos, m, san, sizeof san);
    FUZZ_CHECK_CTX(sn > 0 && sn < (int)sizeof san, fen);
    int un = arb_uci_write(pos, m, uci, sizeof uci);
    FUZZ_CHECK_CTX(un >= 4 && un <= 5, fen);
    snprintf(ctx, sizeof ctx, "%s | %s %s", fen, san, uci);

    FUZZ_CHECK_CTX(arb_san_read(pos, san, (size_t)sn, ARB_SAN_STRICT, &got, &err) == ARB_OK, ctx);
    FUZZ_CHECK_CTX(got == m, ctx);
    FUZZ_CHECK_CTX(arb_san_read(pos, san, (size_t)sn, 0, &got, &err) == ARB_OK, ctx);
    FUZZ_CHECK_CTX(got == m, ctx);
    FUZZ_CHECK_CTX(arb_uci_read(pos, uci, (size_t)un, 0, &got) == ARB_OK, ctx);
    FUZZ_CHECK_CTX(got == m, ctx);
    FUZZ_CHECK_CTX(arb_move_read(pos, uci, (size_t)un, 0, &got, &err) == ARB_OK, ctx);
    FUZZ_CHECK_CTX(got == m, ctx);

    /* make/unmake: incremental key, check flag and SAN suffix agree, exact restore. */
    arb_position next = *pos;
    arb_undo undo;
    int gives = arb_gives_check(pos, m);
    arb_make_move(&next, m, &undo);
    FUZZ_CHECK_CTX(next.key == arb_zobrist_compute(&next), ctx);
    FUZZ_CHECK_CTX(next.turn != pos->turn, ctx);
    FUZZ_CHECK_CTX(arb_in_check(&next) == gives, ctx);
    char last = san[sn - 1];
    if (!gives) {
      FUZZ_CHECK_CTX(last != '+' && last != '#', ctx);
    } else {
      FUZZ_CHECK_CTX(last == (arb_has_legal_move(&next) ? '+' : '#'), ctx);
    }
    arb_unmake_move(&next, m, &undo);
    FUZZ_CHECK_CTX(fuzz_same_position(&next, pos), ctx);
  }
}

/* Probes arb_is_legal with 16-bit values taken from the input: it must never accept a move
 * that arb_generate_legal does not list. */
static void check_is_legal(const arb_position *pos, const uint8_t *data, size_t size,
                           const char *fen) {
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(pos, moves);
  for (size_t i = 0; i + 1 < size && i < 64; i += 2) {
    arb_move m = (arb_move)(data[i] | (data[i + 1] << 8));
    if (!arb_is_legal(pos, m)) continue;
    int found = 0;
    for (int j = 0; j < n && !found; j++)
      found = moves[j] == m;
    FUZZ_CHECK_CTX(found, fen);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const uint32_t accepts[3] = {0u, ARB_FEN_PROBLEMS_ALL,
                                      ARB_FEN_PROBLEMS_ALL | ARB_FEN_READ_CHESS960};
  if (size > 4096) return 0; /* a FEN is short; longer inputs only exercise the blank skipper */
  const char *text = (const char *)data;

  for (int a = 0; a < 3; a++) {
    arb_position pos;
    arb_fen_report rep;
    memset(&rep, 0x55, sizeof rep); /* the reader must fill it in whatever happens */
    arb_status st = arb_fen_read_n(&pos, text, size, accepts[a], &rep);
    FUZZ_CHECK(memchr(rep.message, '\0', sizeof rep.message) != NULL);
    if (st != ARB_OK) {
      FUZZ_CHECK(st == ARB_ERR_FEN_SYNTAX || st == ARB_ERR_FEN_INVALID);
      if (st == ARB_ERR_FEN_SYNTAX) {
        FUZZ_CHECK(rep.field >= 1 && rep.field <= 6);
        FUZZ_CHECK(rep.column >= 0 && (size_t)rep.column <= size);
      }
      FUZZ_CHECK(rep.message[0] != '\0');
      continue;
    }
    FUZZ_CHECK((rep.problems & ARB_FEN_FATAL) == 0);
    FUZZ_CHECK((rep.problems & ~accepts[a]) == 0);

    char fen[ARB_FEN_MAX];
    arb_fen_write(&pos, fen, sizeof fen, 0);
    FUZZ_CHECK_CTX(pos.key == arb_zobrist_compute(&pos), fen);
    FUZZ_CHECK_CTX(pos.turn <= 1 && pos.fullmove_number >= 1, fen);

    check_fen_round_trip(&pos, accepts[a], 0, fen);
    check_fen_round_trip(&pos, accepts[a], ARB_FEN_OUT_SHREDDER, fen);
    check_fen_round_trip(&pos, accepts[a], ARB_FEN_OUT_EPD, fen);
    check_fen_round_trip(&pos, accepts[a], ARB_FEN_OUT_EP_ALWAYS, fen);
    check_moves(&pos, fen);
    check_is_legal(&pos, data, size, fen);
  }
  return 0;
}
