/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_protocol.c: libFuzzer target for the play server's message parser (srv_parse_client,
 * server/protocol.c).  The input is one text frame.  Checks: a parse either succeeds with a
 * known type and fields in their ranges (a game id of the right shape for hello, a token of 22
 * characters or none, a UCI move of 4-5 characters or none, ids and versions not negative
 * unless absent) or fails with one of the documented codes and a message; frames over the
 * size limit or nested too deeply never parse; an error answer written for the frame's own
 * text is valid JSON; the move message's short way (read without the JSON library) gives what
 * the JSON library's reading gives (srv_parse_client_json).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "protocol.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *text = (const char *)data;
  srv_msg m;
  srv_parse_error e;
  int rc = srv_parse_client(text, size, &m, &e);
  /* The move message's short way (no JSON library) agrees with the JSON library's reading:
   * the same answer, the same fields, the same refusal word for word. */
  srv_msg mj;
  srv_parse_error ej;
  int rcj = srv_parse_client_json(text, size, &mj, &ej);
  FUZZ_CHECK(rc == rcj);
  if (rc == 0) {
    FUZZ_CHECK(m.type == mj.type && m.id == mj.id && m.version == mj.version);
    FUZZ_CHECK(m.lag_ms == mj.lag_ms && m.auto_queen == mj.auto_queen);
    FUZZ_CHECK(!strcmp(m.uci, mj.uci) && !strcmp(m.san, mj.san) && !strcmp(m.game, mj.game));
    FUZZ_CHECK(!strcmp(m.token, mj.token) && !strcmp(m.name, mj.name));
    if (m.type == SRV_MSG_CLAIM_DRAW) FUZZ_CHECK(m.reason == mj.reason);
  } else {
    FUZZ_CHECK(!strcmp(e.code, ej.code) && !strcmp(e.message, ej.message));
  }
  if (rc == 0) {
    FUZZ_CHECK(size <= SRV_MAX_MESSAGE);
    FUZZ_CHECK((unsigned)m.type < SRV_MSG_COUNT);
    FUZZ_CHECK(m.id >= -1 && m.version >= -1 && m.lag_ms >= -1 && m.lag_ms <= 60000);
    size_t u = strlen(m.uci);
    FUZZ_CHECK(u == 0 || u == 4 || u == 5);
    if (m.type == SRV_MSG_HELLO) FUZZ_CHECK(srv_game_id_valid(m.game, strlen(m.game)));
    FUZZ_CHECK(m.token[0] == 0 || strlen(m.token) == SRV_TOKEN_LEN);
    if (m.type == SRV_MSG_MOVE || m.type == SRV_MSG_PREMOVE) FUZZ_CHECK(u >= 4);
    if (m.type == SRV_MSG_CLAIM_DRAW)
      FUZZ_CHECK(m.reason == ARB_CLAIM_THREEFOLD || m.reason == ARB_CLAIM_FIFTY);
    if (m.type == SRV_MSG_SETTINGS) FUZZ_CHECK(m.auto_queen == 0 || m.auto_queen == 1);
  } else {
    FUZZ_CHECK(rc == -1 && e.code && e.message[0]);
    static const char *const codes[] = {"too_big", "json", "too_deep", "bad_message",
                                        "unknown_type"};
    int known = 0;
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
      known |= !strcmp(e.code, codes[i]);
    FUZZ_CHECK_CTX(known, e.code);
    /* the error answer, with the frame's text as its message, is valid JSON */
    char msg[64];
    size_t n = size < sizeof msg - 1 ? size : sizeof msg - 1;
    memcpy(msg, text, n);
    msg[n] = 0;
    char *answer = srv_write_error(e.code, msg, 7);
    FUZZ_CHECK(answer != NULL);
    json_t *j = json_loads(answer, 0, NULL);
    FUZZ_CHECK_CTX(j != NULL, answer);
    json_decref(j);
    free(answer);
  }
  return 0;
}
