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

#include "arbiter/arbiter.h"
#include "fuzz.h"
#include "referee.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ref_state *st = ref_state_new(ARB_RULES_FIDE);
  FUZZ_CHECK(st != NULL);
  const char *text = (const char *)data;
  size_t start = 0;
  long lineno = 0;
  int lines = 0;
  while (start < size && lines < 256) {
    const char *nl = memchr(text + start, '\n', size - start);
    size_t len = nl ? (size_t)(nl - (text + start)) : size - start;
    lineno++;
    lines++;
    char *answer = referee_answer(st, text + start, len, lineno);
    FUZZ_CHECK(answer != NULL);
    FUZZ_CHECK(strchr(answer, '\n') == NULL);
    json_error_t jerr;
    json_t *obj = json_loads(answer, 0, &jerr);
    FUZZ_CHECK_CTX(obj != NULL && json_is_object(obj), answer);
    json_t *ok = json_object_get(obj, "ok"), *error = json_object_get(obj, "error");
    FUZZ_CHECK_CTX(json_is_boolean(ok), answer);
    FUZZ_CHECK_CTX(json_is_true(ok) == (error == NULL), answer);
    if (error) {
      FUZZ_CHECK_CTX(json_is_string(json_object_get(error, "code")), answer);
      FUZZ_CHECK_CTX(json_is_string(json_object_get(error, "message")), answer);
    }
    json_t *fen = json_object_get(obj, "fen");
    if (fen) {
      FUZZ_CHECK_CTX(json_is_string(json_object_get(obj, "status")), answer);
      FUZZ_CHECK_CTX(json_is_string(json_object_get(obj, "result")), answer);
      arb_position pos;
      FUZZ_CHECK_CTX(
          arb_fen_read(&pos, json_string_value(fen), ARB_FEN_PROBLEMS_ALL, NULL) == ARB_OK, answer);
    }
    json_decref(obj);
    free(answer);
    start += len + 1;
  }
  ref_state_free(st);
  return 0;
}
