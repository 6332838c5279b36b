/* Arbiter — MIT licence, see LICENSE.
 *
 * referee.h: the event handler behind `arbiter referee` (also driven by the fuzz target).
 */
#ifndef ARB_TOOLS_REFEREE_H
#define ARB_TOOLS_REFEREE_H

#include <stddef.h>
#include <stdio.h>

#include "arbiter/game.h"

/* The state of one event stream: the game under way (opaque). */
typedef struct ref_state ref_state;

/* A new stream; games without a start event use default_rules.  NULL when out of memory. */
ref_state *ref_state_new(arb_ruleset default_rules);
/* Every game of the stream is written to out (not owned) in PGN export format, with its
 * TimeControl tag and a [%clk] comment after each move of a timed game: a game when the next
 * start event replaces it, the last one when the stream is freed. */
void ref_state_set_pgn(ref_state *st, FILE *out);
/* Frees the stream and its game, writing the game first when a PGN output is set (NULL is a
 * no-op). */
void ref_state_free(ref_state *st);

/* Answers one event line (JSON text of len bytes, not necessarily NUL-terminated) with a
 * malloc'd JSON object without a newline, which the caller frees; NULL only when memory ran
 * out.  lineno (1-based) is echoed in error answers.  Never aborts on bad input. */
char *referee_answer(ref_state *st, const char *line, size_t len, long lineno);

#endif
