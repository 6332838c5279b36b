/* Arbiter — MIT licence, see LICENSE.
 *
 * quiz_json.h: rules-quiz items as JSON (quiz_json.c).  Ownership: arb_tool_quiz_item_json
 * returns a new reference the caller decrefs; the reader fills the caller's item and keeps no
 * reference to the JSON.
 */
#ifndef ARB_TOOLS_QUIZ_JSON_H
#define ARB_TOOLS_QUIZ_JSON_H

#include <jansson.h>

#include "arbiter/arbiter.h"

/* The item as a JSON object (the fields `arbiter quiz --help` lists). */
json_t *arb_tool_quiz_item_json(const arb_quiz_item *it);

/* Reads an item from a JSON object: 0, or -1 with the first wrong field named in why. */
int arb_tool_quiz_item_read(json_t *o, arb_quiz_item *it, char *why, size_t why_size);

#endif
