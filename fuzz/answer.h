/* Arbiter — MIT licence, see LICENSE.
 *
 * answer.h: the JSON-lines answer contract shared by the codec fuzz targets (answer.c).
 */
#ifndef ARB_FUZZ_ANSWER_H
#define ARB_FUZZ_ANSWER_H

#include "fuzz.h"

/* A handler: answers one line (len bytes) with a malloc'd JSON text the caller frees. */
typedef char *(*fuzz_answer_fn)(void *ctx, const char *line, size_t len, long lineno);

/* Feeds data line by line to answer_fn and aborts (FUZZ_CHECK) on an answer that breaks the
 * contract. */
void fuzz_json_lines(const uint8_t *data, size_t size, fuzz_answer_fn answer_fn, void *ctx);

#endif
