/* Arbiter — MIT licence, see LICENSE.
 *
 * perft.c: leaf-node counts of the legal move tree.  The last ply is counted, not made.
 */
#include "board/board_internal.h"

static uint64_t perft_rec(arb_position *p, int depth) {
  if (depth == 1) return (uint64_t)arb_count_legal(p);
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(p, moves);
  uint64_t total = 0;
  arb_undo u;
  for (int i = 0; i < n; i++) {
    arb_position child = *p; /* copy-make: cheaper here than unmake */
    if (depth == 2) {        /* the child is only counted: its key is never read */
      arb__make_move_unkeyed(&child, moves[i]);
      total += (uint64_t)arb_count_legal(&child);
      continue;
    }
    arb_make_move(&child, moves[i], &u);
    total += perft_rec(&child, depth - 1);
  }
  return total;
}

uint64_t arb_perft(const arb_position *pos, int depth) {
  if (depth <= 0) return 1;
  arb_position p = *pos;
  return perft_rec(&p, depth);
}
