/* Arbiter — MIT licence, see LICENSE.
 *
 * ruleset.c: every difference between the rule sets, in one table.
 */
#include <string.h>

#include "arbiter/game.h"

/* name, auto: fivefold 75 threefold fifty dead-position, claims, intended-move claims, claim by
 * either, resign-draw-if-cannot-mate, agreement needs a move each, wrong-claim penalty (s).
 * - FIDE 9.6 makes fivefold and 75 moves automatic; threefold and 50 moves are claims (9.2,
 *   9.3) by the side to move, also with an intended move; a wrong claim gives the opponent
 *   2 minutes (9.5.3), 1 minute in rapid and blitz (A.3); 5.1.2 (2023) and 5.2.3.
 * - US Chess 14K: fivefold and 75 moves are for the director to declare, so only reported.
 * - online (lichess): the server ends the game at threefold, 50 moves and fivefold itself; no
 *   claims and no penalties; resigning always loses (lila's resign handler); only the
 *   material classes are detected, not other dead positions.
 * - casual: FIDE's automatic endings, claims without penalties. */
static const arb_rules table[ARB_RULES_COUNT] = {
    [ARB_RULES_FIDE] = {"fide", 1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 120},
    [ARB_RULES_FIDE_RAPID] = {"fide-rapid", 1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 60},
    [ARB_RULES_FIDE_BLITZ] = {"fide-blitz", 1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 60},
    [ARB_RULES_USCF] = {"uscf", 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 120},
    [ARB_RULES_ONLINE] = {"online", 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 0},
    [ARB_RULES_CASUAL] = {"casual", 1, 1, 0, 0, 1, 1, 1, 0, 1, 0, 0},
};

const arb_rules *arb_rules_get(arb_ruleset rules) {
  return (unsigned)rules < ARB_RULES_COUNT ? &table[rules] : NULL;
}

arb_status arb_rules_parse(const char *name, arb_ruleset *out) {
  if (!name || !out) return ARB_ERR_ARGUMENT;
  for (int i = 0; i < ARB_RULES_COUNT; i++)
    if (!strcmp(name, table[i].name)) {
      *out = (arb_ruleset)i;
      return ARB_OK;
    }
  return ARB_ERR_ARGUMENT;
}
