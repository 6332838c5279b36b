/* Arbiter — MIT licence, see LICENSE.
 *
 * consumer.c: a tiny program built against the *installed* library (pkg-config), to prove the
 * headers, the shared library and arbiter.pc work outside the source tree.
 */
#include <arbiter/arbiter.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  arb_position pos;
  arb_fen_report rep;
  if (arb_fen_read(&pos, ARB_FEN_START, 0, &rep) != ARB_OK) return 1;
  arb_move m;
  if (arb_san_read(&pos, "e4", 2, 0, &m, NULL) != ARB_OK) return 1;
  arb_undo u;
  arb_make_move(&pos, m, &u);
  char fen[ARB_FEN_MAX];
  arb_fen_write(&pos, fen, sizeof fen, 0);
  /* published values: perft(3) from the start, Polyglot key after 1.e4 */
  if (arb_perft(&pos, 2) != 600 || pos.key != UINT64_C(0x823c9b50fd114196)) return 1;
  if (strcmp(fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1") != 0) return 1;
  printf("consumer ok: %s\n", fen);
  return 0;
}
