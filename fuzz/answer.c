/* Arbiter — MIT licence, see LICENSE.
 *
 * answer.c: the contract every JSON-lines event handler of `arbiter` keeps (referee, referee
 * --otb), checked for the fuzz targets: fuzz_json_lines feeds the input line by line (at most
 * 256) to a handler and checks each answer.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "arbiter/arbiter.h"

void fuzz_json_lines(const uint8_t *data, size_t size, fuzz_answer_fn answer_fn, void *ctx) {
  const char *text = (const char *)data;
  size_t start = 0;
  long lineno = 0;
  while (start < size && lineno < 256) {
    const char *nl = memchr(text + start, '\n', size - start);
    size_t len = nl ? (size_t)(nl - (text + start)) : size - start;
    char *answer = answer_fn(ctx, text + start, len, ++lineno);
    /* one JSON object, without a newline; "ok" a boolean; "error" {code, message} exactly
     * when not ok; once a game exists a readable "fen", with "status" and "result" */
    FUZZ_CHECK(answer != NULL);
    FUZZ_CHECK(strchr(answer, '\n') == NULL);
    json_t *obj = json_loads(answer, 0, NULL);
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
}
