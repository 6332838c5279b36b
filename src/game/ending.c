/* Arbiter — MIT licence, see LICENSE.
 *
 * ending.c: the automatic endings (RULES.md R21), one function for the game and the PGN replay.
 */
#include "game/ending.h"

#include "board/zobrist.h"
#include "rules/reach.h"

uint64_t arb__repetition_key(const arb_position *p) {
  uint64_t k = p->key;
  if (p->ep_square != ARB_NO_SQUARE && !arb_ep_legal(p)) k ^= arb__zob_ep(p->ep_square);
  return k;
}

arb_termination arb__automatic_ending(const arb_rules *rules, const arb_position *p, int check,
                                      int mobile, int reps, arb_result *result,
                                      arb__dead_memo *dead_memo) {
  *result = ARB_RESULT_DRAW;
  if (!mobile) {
    if (!check) return ARB_TERM_STALEMATE;
    *result = p->turn == ARB_WHITE ? ARB_RESULT_BLACK_WINS : ARB_RESULT_WHITE_WINS;
    return ARB_TERM_CHECKMATE;
  }
  if (arb_is_insufficient_material(p)) return ARB_TERM_INSUFFICIENT_MATERIAL;
  if (rules->auto_dead_position && arb__is_dead_position_memo(p, dead_memo))
    return ARB_TERM_DEAD_POSITION;
  if (rules->auto_fivefold && reps >= 5) return ARB_TERM_FIVEFOLD_REPETITION;
  if (rules->auto_seventyfive && p->halfmove_clock >= 150) return ARB_TERM_SEVENTYFIVE_MOVES;
  if (rules->auto_threefold && reps >= 3) return ARB_TERM_THREEFOLD_REPETITION;
  if (rules->auto_fifty && p->halfmove_clock >= 100) return ARB_TERM_FIFTY_MOVES;
  *result = ARB_RESULT_NONE;
  return ARB_TERM_NONE;
}
