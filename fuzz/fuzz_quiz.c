/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_quiz.c: libFuzzer target for the rules quiz's item reader and checker (tools/
 * quiz_json.c, arbiter/quiz.h).  Input: one JSON line.  Properties: the reader accepts or names
 * a field; an item read is checked without crashing, and when it derives, deriving it again
 * gives the same answer and explanation, the derived item checks clean, and written to JSON
 * and read back it is the same item.
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"
#include "quiz_json.h"

static arb_quiz_item A, B, C;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 65536) return 0;
  json_t *j = json_loadb((const char *)data, size, 0, NULL);
  if (!j) return 0;
  char why[400];
  if (arb_tool_quiz_item_read(j, &A, why, sizeof why)) {
    FUZZ_CHECK_CTX(why[0], "a refusal names the field");
    json_decref(j);
    return 0;
  }
  json_decref(j);
  (void)arb_quiz_check_item(&A, why, sizeof why);
  B = A;
  if (arb_quiz_derive(&B, why, sizeof why) != ARB_OK) return 0;
  C = B;
  FUZZ_CHECK_CTX(arb_quiz_derive(&C, why, sizeof why) == ARB_OK, why);
  FUZZ_CHECK_CTX(!strcmp(B.answer, C.answer) && !strcmp(B.explanation, C.explanation), B.id);
  if (B.id[0] && B.difficulty >= 1) FUZZ_CHECK_CTX(arb_quiz_check_item(&B, why, sizeof why), why);
  json_t *o = arb_tool_quiz_item_json(&B);
  FUZZ_CHECK_CTX(!arb_tool_quiz_item_read(o, &C, why, sizeof why), why);
  json_decref(o);
  FUZZ_CHECK_CTX(!strcmp(B.answer, C.answer) && B.kind == C.kind && B.nchoices == C.nchoices, why);
  return 0;
}
