/* Arbiter — MIT licence, see LICENSE.
 *
 * ending.h (internal): the automatic endings of RULES.md R21, shared by the game layer and the
 * PGN reader's replay.
 */
#ifndef ARB_GAME_ENDING_H
#define ARB_GAME_ENDING_H

#include "arbiter/game.h"
#include "board/bitboard.h"

/* The automatic ending of position p under `rules`, in the order of R21, given whether the side
 * to move is in check, whether it has a legal move, and how often p has occurred (counting
 * now).  Returns ARB_TERM_NONE when the game goes on; *result gets the result otherwise.
 * dead_memo: the game's memo for the dead-position test (rules/reach.h), or NULL. */
struct arb__dead_memo;
arb_termination arb__automatic_ending(const arb_rules *rules, const arb_position *p, int check,
                                      int mobile, int reps, arb_result *result,
                                      struct arb__dead_memo *dead_memo) ARB_HIDDEN;

/* The repetition identity of p (FIDE 9.2.3): its Polyglot key, with the en passant file only
 * when the capture is legal.  Equal positions have equal keys; the game layer then compares
 * the positions themselves. */
uint64_t arb__repetition_key(const arb_position *p) ARB_HIDDEN;

#endif
