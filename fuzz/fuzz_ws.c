/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_ws.c: libFuzzer target for the play server's WebSocket frame reader (server/ws.c).  The
 * input is what a client sends after the handshake.  Checks: the reader never takes more than
 * it is given, nor anything after a failure or a close; a text message is UTF-8 and within the
 * bound; a ping's payload is at most 125 bytes; a failure's code is one RFC 6455 lets a server
 * send (1002, 1003, 1007, 1009) with words; and the events are the same whether the bytes come
 * all at once or one at a time.
 */
#include <string.h>

#include "arbiter/arbiter.h"
#include "fuzz.h"
#include "ws.h"

typedef struct outcome {
  int events;
  unsigned long digest;
  int code; /* of the failure or the close, 0 none */
} outcome;

static srv_ws_reader R;

static void run(const uint8_t *data, size_t size, size_t step, outcome *o) {
  memset(o, 0, sizeof *o);
  o->digest = FUZZ_MIX_START;
  srv_ws_init(&R);
  size_t at = 0;
  while (at < size && !o->code) {
    size_t n = size - at < step ? size - at : step;
    while (n && !o->code) {
      size_t used;
      srv_ws_event ev;
      srv_ws_feed(&R, data + at, n, &used, &ev);
      FUZZ_CHECK(used <= n);
      at += used, n -= used;
      if (ev.kind == SRV_WS_NONE) {
        FUZZ_CHECK(n == 0);
        break;
      }
      o->events++;
      o->digest = fuzz_mix(o->digest, &ev.kind, sizeof ev.kind);
      switch (ev.kind) {
      case SRV_WS_TEXT:
        FUZZ_CHECK(ev.len <= SRV_WS_MAX_MESSAGE && arb_utf8_valid(ev.data, ev.len));
        o->digest = fuzz_mix(o->digest, ev.data, ev.len);
        break;
      case SRV_WS_PING:
      case SRV_WS_PONG:
        FUZZ_CHECK(ev.len <= 125);
        o->digest = fuzz_mix(o->digest, ev.data, ev.len);
        break;
      case SRV_WS_CLOSE: o->code = ev.code; break;
      case SRV_WS_FAIL:
        FUZZ_CHECK((ev.code == 1002 || ev.code == 1003 || ev.code == 1007 || ev.code == 1009) &&
                   ev.why && ev.why[0]);
        o->code = ev.code;
        break;
      default: FUZZ_CHECK(0);
      }
    }
  }
  if (o->code) { /* over: it takes nothing more */
    size_t used;
    srv_ws_event ev;
    static const uint8_t more[] = {0x81, 0x80, 0, 0, 0, 0};
    srv_ws_feed(&R, more, sizeof more, &used, &ev);
    FUZZ_CHECK(used == 0 && ev.kind == SRV_WS_NONE);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  outcome whole, bytes;
  run(data, size, size ? size : 1, &whole);
  run(data, size, 1, &bytes);
  FUZZ_CHECK(whole.events == bytes.events && whole.digest == bytes.digest &&
             whole.code == bytes.code);
  return 0;
}
