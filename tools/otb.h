/* Arbiter — MIT licence, see LICENSE.
 *
 * otb.h: the event handler behind `arbiter referee --otb` (also driven by the fuzz target and
 * the scenario tests): JSON lines in the vocabulary of docs/otb.md over arbiter/otb.h.
 */
#ifndef ARB_TOOLS_OTB_H
#define ARB_TOOLS_OTB_H

#include <stddef.h>
#include <stdio.h>

#include "arbiter/otb.h"

/* The state of one event stream (opaque). */
typedef struct otb_state otb_state;

/* A new stream; starts that name no rules use default_rules.  NULL when out of memory. */
otb_state *otb_state_new(arb_otb_rules default_rules);
/* Every game is written to out (not owned) as PGN when the next start replaces it and when the
 * stream is freed: as played, or with legal_only the corrected legal game. */
void otb_state_set_pgn(otb_state *st, FILE *out, int legal_only);
void otb_state_free(otb_state *st);

/* Answers one event line (len bytes) with a malloc'd JSON object (no newline) the caller frees;
 * NULL only when memory ran out.  Never aborts on bad input. */
char *otb_answer(otb_state *st, const char *line, size_t len, long lineno);

#endif
