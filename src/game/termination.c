/* Arbiter — MIT licence, see LICENSE.
 *
 * termination.c: the one vocabulary of endings (game.h, docs/endings.md) — each termination's
 * name (the JSON codecs', the server's, the page's and PGN ArbiterTermination's), its PGN
 * Termination value and the article it rests on, in one table.
 */
#include <string.h>

#include "arbiter/game.h"

static const struct {
  const char *name, *pgn, *article;
} terms[ARB_TERM_COUNT] = {
    [ARB_TERM_NONE] = {"", "unterminated", ""},
    [ARB_TERM_CHECKMATE] = {"checkmate", "normal", "5.1.1"},
    [ARB_TERM_STALEMATE] = {"stalemate", "normal", "5.2.1"},
    [ARB_TERM_INSUFFICIENT_MATERIAL] = {"insufficient_material", "normal", "5.2.2"},
    [ARB_TERM_DEAD_POSITION] = {"dead_position", "normal", "5.2.2"},
    [ARB_TERM_FIVEFOLD_REPETITION] = {"fivefold_repetition", "normal", "9.6.1"},
    [ARB_TERM_SEVENTYFIVE_MOVES] = {"seventyfive_moves", "normal", "9.6.2"},
    [ARB_TERM_THREEFOLD_REPETITION] = {"threefold_repetition", "normal", "9.2"},
    [ARB_TERM_FIFTY_MOVES] = {"fifty_moves", "normal", "9.3"},
    [ARB_TERM_AGREEMENT] = {"agreement", "normal", "5.2.3"},
    [ARB_TERM_RESIGNATION] = {"resignation", "normal", "5.1.2"},
    [ARB_TERM_TIME_FORFEIT] = {"time_forfeit", "time forfeit", "6.9"},
    [ARB_TERM_ABORTED] = {"aborted", "abandoned", ""},
    [ARB_TERM_ABANDONMENT] = {"abandonment", "abandoned", ""},
    [ARB_TERM_ILLEGAL_MOVE] = {"illegal_move", "rules infraction", ""},
    [ARB_TERM_SECOND_ILLEGAL_MOVE] = {"second_illegal_move", "rules infraction", "7.5.5"},
    [ARB_TERM_ILLEGAL_MOVE_CLAIMED] = {"illegal_move_claimed", "rules infraction", "US blitz 7c"},
    [ARB_TERM_ILLEGAL_MOVE_CLAIMANT_LACKS_MATERIAL] =
        {"illegal_move_claimant_lacks_mating_material", "rules infraction", "US blitz 7d"},
    [ARB_TERM_ILLEGAL_POSITION] = {"illegal_position", "rules infraction", "A.5.4"},
    [ARB_TERM_ELECTRONIC_DEVICE] = {"electronic_device", "rules infraction", "11.3.2.2"},
    [ARB_TERM_CRASH] = {"crash", "abandoned", ""},
    [ARB_TERM_STALL] = {"stall", "abandoned", ""},
    [ARB_TERM_ADJUDICATION] = {"adjudication", "adjudication", ""},
    [ARB_TERM_ARBITER] = {"arbiter_decision", "adjudication", ""},
};

const char *arb_termination_name(arb_termination t) {
  return (unsigned)t < ARB_TERM_COUNT ? terms[t].name : "";
}

const char *arb_termination_pgn(arb_termination t) {
  return (unsigned)t < ARB_TERM_COUNT ? terms[t].pgn : "unterminated";
}

const char *arb_termination_article(arb_termination t) {
  return (unsigned)t < ARB_TERM_COUNT ? terms[t].article : "";
}

arb_status arb_termination_parse(const char *name, size_t len, arb_termination *out) {
  if (!name || !out) return ARB_ERR_ARGUMENT;
  for (int t = 1; t < ARB_TERM_COUNT; t++)
    if (strlen(terms[t].name) == len && memcmp(terms[t].name, name, len) == 0) {
      *out = (arb_termination)t;
      return ARB_OK;
    }
  return ARB_ERR_ARGUMENT;
}
