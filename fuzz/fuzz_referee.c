/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_referee.c: libFuzzer target for the `arbiter referee` event handler (referee_answer).
 *
 * The input bytes are an event stream, one event per line, fed to one referee state.  Every
 * line must get an answer that is a JSON object with "ok" (a boolean), an "error" object with
 * code and message exactly when ok is false, and the game's state ("fen", "status", "result")
 * once a game exists.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "arbiter/arbiter.h"
#include "fuzz.h"
#include "referee.h"

static char *answer(void *ctx, const char *line, size_t len, long lineno) {
  return referee_answer(ctx, line, len, lineno);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ref_state *st = ref_state_new(ARB_RULES_FIDE);
  FUZZ_CHECK(st != NULL);
  fuzz_json_lines(data, size, answer, st);
  ref_state_free(st);
  return 0;
}
