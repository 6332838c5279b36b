/* Arbiter — MIT licence, see LICENSE.
 *
 * refute.h: an independent refutation of "this side can never mate", shared by the winnability
 * tests (tests/test_dead.c) and fuzz target (fuzz/fuzz_winnable.c): every line of up to `depth`
 * plies, no ordering, no table, nothing from the search it checks.
 */
#ifndef ARB_TESTS_REFUTE_H
#define ARB_TESTS_REFUTE_H

#include "arbiter/arbiter.h"

/* 1 if `winner` checkmates its opponent within `depth` plies from p, by any moves of both. */
static inline int refute_any_mate(const arb_position *p, int winner, int depth) {
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(p, moves);
  if (n == 0) return p->turn != winner && arb_in_check(p);
  if (depth == 0) return 0;
  for (int i = 0; i < n; i++) {
    arb_position q = *p;
    arb_undo u;
    arb_make_move(&q, moves[i], &u);
    if (refute_any_mate(&q, winner, depth - 1)) return 1;
  }
  return 0;
}

/* 1 if p is dead within `depth` plies by force: insufficient material on the board (R13, both
 * sides), or a move on the board and every move leads to such a position (never to a mate).
 * The independent confirmation of a forced dead position (a queen that must be taken). */
static inline int forced_into_insufficient(const arb_position *p, int depth) {
  if (arb_is_insufficient_material(p)) return 1;
  arb_move moves[ARB_MAX_MOVES];
  int n = arb_generate_legal(p, moves);
  if (n == 0) return !arb_in_check(p); /* stalemate: no mate ever */
  if (depth == 0) return 0;
  for (int i = 0; i < n; i++) {
    arb_position q = *p;
    arb_undo u;
    arb_make_move(&q, moves[i], &u);
    if (!forced_into_insufficient(&q, depth - 1)) return 0;
  }
  return 1;
}

#endif
