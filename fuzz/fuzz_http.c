/* Arbiter — MIT licence, see LICENSE.
 *
 * fuzz_http.c: libFuzzer target for the play server's HTTP/1.1 request parser (server/http.c).
 * The input is what a client sends on one connection.  Checks: the parser never takes more
 * than it is given; a whole request has a path, a version of 1.0 or 1.1 and a body within the
 * bound; a refusal carries one of the statuses the parser documents and its words; and the
 * requests (and the refusal) are the same whether the bytes come all at once or one at a time
 * — pipelining does not depend on how the network cut the stream.
 */
#include <string.h>

#include "fuzz.h"
#include "http.h"

typedef struct outcome {
  int n;                /* whole requests */
  unsigned long digest; /* of their methods, paths and bodies */
  int status;           /* of the refusal, 0 none */
} outcome;

static srv_http_parser P;

static void run(const uint8_t *data, size_t size, size_t step, outcome *o) {
  memset(o, 0, sizeof *o);
  o->digest = FUZZ_MIX_START;
  srv_http_init(&P);
  size_t at = 0;
  while (at < size && !o->status) {
    size_t n = size - at < step ? size - at : step;
    while (n && !o->status) {
      size_t used = 0;
      srv_http_result rc = srv_http_feed(&P, (const char *)data + at, n, &used);
      FUZZ_CHECK(used <= n);
      at += used, n -= used;
      if (rc == SRV_HTTP_MORE) {
        FUZZ_CHECK(n == 0);
        break;
      }
      if (rc == SRV_HTTP_ERROR) {
        static const int ok[] = {400, 413, 414, 431, 501, 505};
        int known = 0;
        for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
          known |= P.status == ok[i];
        FUZZ_CHECK(known && P.error && P.error[0]);
        o->status = P.status;
        break;
      }
      const srv_http_request *r = &P.req;
      FUZZ_CHECK(r->path[0] == '/' || r->method == SRV_HTTP_OTHER || r->method == SRV_HTTP_OPTIONS);
      FUZZ_CHECK(r->minor == 0 || r->minor == 1);
      FUZZ_CHECK(r->body_len <= SRV_HTTP_MAX_BODY && r->body[r->body_len] == 0);
      FUZZ_CHECK(strlen(r->path) <= SRV_HTTP_MAX_TARGET);
      o->n++;
      o->digest = fuzz_mix(o->digest, r->method_text, strlen(r->method_text));
      o->digest = fuzz_mix(o->digest, r->path, strlen(r->path));
      o->digest = fuzz_mix(o->digest, r->body, r->body_len);
      srv_http_next(&P);
    }
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  outcome whole, bytes;
  run(data, size, size ? size : 1, &whole);
  run(data, size, 1, &bytes);
  FUZZ_CHECK(whole.n == bytes.n && whole.digest == bytes.digest && whole.status == bytes.status);
  return 0;
}
