/* Arbiter — MIT licence, see LICENSE.
 *
 * game_internal.h (internal): what the procedure layer (src/referee/) may do to a game beyond
 * the public API — the rulings of an arbiter, which the laws' own endings never need.
 */
#ifndef ARB_GAME_INTERNAL_H
#define ARB_GAME_INTERNAL_H

#include "arbiter/game.h"
#include "board/bitboard.h"

/* The start position's automatic ending is forgotten: play goes on from a board left by an
 * illegal move, which ends nothing by itself (FIDE 5.1.1, 5.2.1, 5.2.2 speak of a move made in
 * accordance with Article 3).  Only a game with no move played: ARB_ERR_ARGUMENT otherwise. */
arb_status arb__game_forget_start_ending(arb_game *game) ARB_HIDDEN;

/* The arbiter ends the game with any ending, a law's too (a dead position claimed, 5.2.2; a
 * result the players signed during play, 8.7): `by` as in arb_game_end.  ARB_ERR_GAME_OVER when
 * the game had ended, ARB_ERR_ARGUMENT for ARB_TERM_NONE, ARB_TERM_ABORTED or a bad result. */
arb_status arb__game_rule_end(arb_game *game, arb_result result, arb_termination termination,
                              int by) ARB_HIDDEN;

/* After the end, the arbiter decides otherwise (FIDE 8.7, 12.9): the result becomes `result`,
 * and the termination `termination` (ARB_TERM_NONE keeps the one recorded), resting on `by`
 * (-1: nobody).  ARB_ERR_ARGUMENT while the game goes on, or for a bad result or colour. */
arb_status arb__game_amend_outcome(arb_game *game, arb_result result, arb_termination termination,
                                   int by) ARB_HIDDEN;

#endif
