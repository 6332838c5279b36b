/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_winnable.c: libFuzzer target for "can this side ever checkmate?" (arb_winnability_of).
 *
 * The input bytes are one FEN (not NUL-terminated), read accepting every non-fatal problem, so
 * odd positions (nine queens, a king left in check, impossible castling rooks) reach the search
 * too.  For each side, with a small node budget:
 *  - the verdict and proof are in range and agree (a helpmate proves WINNABLE, every other proof
 *    UNWINNABLE), the node count stays within the budget plus the mate-in-one tries of a node;
 *  - a WINNABLE line is at most ARB_WIN_MAX_LINE plies, every move of it is legal, and it ends
 *    with the other side checkmated;
 *  - an UNWINNABLE side — every proof, the exhaustive search ("search") and the fixed pawns
 *    ("fixed_pawns") included — has no mate within three plies (every line tried, no ordering),
 *    four when the side to move has at most eight moves (forced lines, where search proofs are);
 *  - the colour-flipped position never contradicts the verdict (one side WINNABLE where the other
 *    is UNWINNABLE);
 *  - arb_is_dead_position implies both sides UNWINNABLE.
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"
#include "refute.h"

#define BUDGET 3000

static arb_win_verdict check_side(const arb_position *pos, int side, const char *fen) {
  arb_winnability w;
  arb_win_verdict v = arb_winnability_of(pos, (arb_color)side, BUDGET, &w);
  FUZZ_CHECK_CTX(v == w.verdict, fen);
  FUZZ_CHECK_CTX(v == ARB_WIN_UNKNOWN || v == ARB_WIN_WINNABLE || v == ARB_WIN_UNWINNABLE, fen);
  FUZZ_CHECK_CTX(w.nodes <= BUDGET + ARB_MAX_MOVES + 2, fen); /* one mate-in-one scan over */
  FUZZ_CHECK_CTX(*arb_win_verdict_name(v), fen);
  if (v == ARB_WIN_WINNABLE) {
    FUZZ_CHECK_CTX(w.proof == ARB_PROOF_HELPMATE, fen);
    FUZZ_CHECK_CTX(w.line_len >= 0 && w.line_len <= ARB_WIN_MAX_LINE, fen);
    arb_position p = *pos;
    for (int i = 0; i < w.line_len; i++) {
      FUZZ_CHECK_CTX(arb_is_legal(&p, w.line[i]), fen);
      arb_undo u;
      arb_make_move(&p, w.line[i], &u);
    }
    FUZZ_CHECK_CTX(p.turn != side && arb_is_checkmate(&p), fen);
  } else if (v == ARB_WIN_UNWINNABLE) {
    FUZZ_CHECK_CTX(w.proof == ARB_PROOF_MATERIAL || w.proof == ARB_PROOF_LOCKED_WALLS ||
                       w.proof == ARB_PROOF_GAME_OVER || w.proof == ARB_PROOF_FIXED_PAWNS ||
                       w.proof == ARB_PROOF_SEARCH || w.proof == ARB_PROOF_PAWN_LANES ||
                       w.proof == ARB_PROOF_PAWN_STRUCTURES,
                   fen);
    FUZZ_CHECK_CTX(*arb_win_proof_name(w.proof), fen);
    FUZZ_CHECK_CTX(!refute_any_mate(pos, side, arb_count_legal(pos) <= 8 ? 4 : 3), fen);
  } else {
    FUZZ_CHECK_CTX(w.proof == ARB_PROOF_NONE, fen);
  }
  return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char fen[256];
  if (size >= sizeof fen) return 0;
  memcpy(fen, data, size);
  fen[size] = '\0';
  arb_position pos;
  if (arb_fen_read_n(&pos, fen, size, ARB_FEN_PROBLEMS_ALL, NULL) != ARB_OK) return 0;
  arb_win_verdict v[2];
  for (int side = 0; side < 2; side++)
    v[side] = check_side(&pos, side, fen);
  if (arb_is_dead_position(&pos))
    FUZZ_CHECK_CTX(v[0] == ARB_WIN_UNWINNABLE && v[1] == ARB_WIN_UNWINNABLE, fen);
  arb_position m;
  arb_position_mirror(&pos, &m);
  for (int side = 0; side < 2; side++) {
    arb_win_verdict vm = check_side(&m, side ^ 1, fen);
    FUZZ_CHECK_CTX(!(vm == ARB_WIN_WINNABLE && v[side] == ARB_WIN_UNWINNABLE) &&
                       !(vm == ARB_WIN_UNWINNABLE && v[side] == ARB_WIN_WINNABLE),
                   fen);
  }
  return 0;
}
