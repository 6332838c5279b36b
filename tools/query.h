/* Arbiter — MIT licence, see LICENSE.
 *
 * query.h: the request handler behind `arbiter query` (also driven by the fuzz target).
 */
#ifndef ARB_TOOLS_QUERY_H
#define ARB_TOOLS_QUERY_H

#include <jansson.h>
#include <stddef.h>

#include "arbiter/position.h"

/* Answers one request line (JSON text of len bytes, not necessarily NUL-terminated).
 * line_number (1-based) is echoed in error answers.  Returns a malloc'd NUL-terminated JSON
 * object without a newline, which the caller frees; NULL only when memory ran out.
 * Never aborts on bad input: every fault becomes {"error": {...}}. */
char *arb_query_answer(const char *line, size_t len, long line_number);

/* {"white": V, "black": V} with V = {"verdict", "proof", "line" (UCI, for a helpmate), "nodes"}:
 * can each side ever checkmate (arb_winnability_of with the given node budget, 0 = default). */
struct json_t *arb_query_winnability(const arb_position *position, unsigned long long budget);

/* The FEN problem bit (ARB_FEN_*) named e.g. "too_much_material"; 0 for an unknown name. */
uint32_t arb_query_problem_bit(const char *name);

/* [{"problem": NAME, "message": TEXT}, ...] for every bit set in problems (a new array). */
struct json_t *arb_query_problems(uint32_t problems);

/* The error answer for a request line longer than the limit. */
char *arb_query_too_long(long line_number, size_t limit);

#endif
