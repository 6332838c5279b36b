/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_query.c: libFuzzer target for the `arbiter query` request handler (arb_query_answer).
 *
 * The input bytes are one request line.  The answer must exist (the handler never aborts on
 * bad input), be a JSON object that jansson reads back, and carry either "fen" (an answer) or
 * "error" (a rejected request) — exactly one of them.
 */
#include <jansson.h>
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"
#include "query.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *answer = arb_query_answer((const char *)data, size, 1);
  FUZZ_CHECK(answer != NULL);
  FUZZ_CHECK(strchr(answer, '\n') == NULL); /* one answer is one output line */

  json_error_t jerr;
  json_t *obj = json_loads(answer, 0, &jerr);
  FUZZ_CHECK_CTX(obj != NULL, answer);
  FUZZ_CHECK_CTX(json_is_object(obj), answer);
  json_t *fen = json_object_get(obj, "fen"), *error = json_object_get(obj, "error");
  FUZZ_CHECK_CTX((fen != NULL) != (error != NULL), answer);
  if (fen) {
    FUZZ_CHECK_CTX(json_is_string(fen), answer);
    FUZZ_CHECK_CTX(json_is_array(json_object_get(obj, "legal_uci")), answer);
    FUZZ_CHECK_CTX(json_array_size(json_object_get(obj, "legal_uci")) ==
                       json_array_size(json_object_get(obj, "legal_san")),
                   answer);
  } else {
    FUZZ_CHECK_CTX(json_is_object(error), answer);
    FUZZ_CHECK_CTX(json_is_string(json_object_get(error, "code")), answer);
    FUZZ_CHECK_CTX(json_is_string(json_object_get(error, "message")), answer);
  }
  json_decref(obj);
  free(answer);
  return 0;
}
