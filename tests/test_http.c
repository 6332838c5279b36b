/* Arbiter — MIT licence, see LICENSE.
 *
 * test_http.c: the HTTP/1.1 request parser (server/http.c) — requests whole, pipelined and cut
 * at every byte, chunked bodies (RFC 9112 section 7.1's example), and each refusal with the
 * status RFC 9110/9112 give it (400, 413, 414, 431, 501, 505).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "http.h"

/* Feeds text in pieces of `step` bytes; returns the number of whole requests, calling back
 * for each; the parser's status on an error. */
typedef struct seen {
  int n;
  srv_http_request req[8];
  int status;
} seen;

static void run(const char *text, size_t step, seen *out) {
  static srv_http_parser p; /* 20 KB: not on the stack of Criterion's worker */
  memset(out, 0, sizeof *out);
  srv_http_init(&p);
  size_t len = strlen(text), at = 0;
  while (at < len) {
    size_t n = len - at < step ? len - at : step, used = 0;
    const char *d = text + at;
    while (n) {
      srv_http_result rc = srv_http_feed(&p, d, n, &used);
      d += used, n -= used, at += used;
      if (rc == SRV_HTTP_ERROR) {
        out->status = p.status;
        return;
      }
      if (rc == SRV_HTTP_DONE) {
        if (out->n < 8) out->req[out->n] = p.req;
        out->n++;
        srv_http_next(&p);
      } else {
        break;
      }
    }
  }
}

Test(http, a_get_whole_and_cut_at_every_byte) {
  const char *req = "GET /api/games/abc?x=1 HTTP/1.1\r\nHost: example.org:8080\r\n"
                    "Origin: http://example.org:8080\r\nConnection: keep-alive\r\n\r\n";
  for (size_t step = 1; step <= strlen(req); step++) {
    seen s;
    run(req, step, &s);
    cr_assert_eq(s.n, 1, "step %zu", step);
    cr_assert_eq(s.req[0].method, SRV_HTTP_GET);
    cr_assert_str_eq(s.req[0].path, "/api/games/abc");
    cr_assert_str_eq(s.req[0].query, "x=1");
    cr_assert_str_eq(s.req[0].host, "example.org:8080");
    cr_assert_str_eq(s.req[0].origin, "http://example.org:8080");
    cr_assert(s.req[0].keep_alive);
    cr_assert_eq(s.req[0].minor, 1);
  }
}

Test(http, pipelined_requests_come_one_at_a_time_in_order) {
  const char *req = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"
                    "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"
                    "GET /b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
  for (size_t step = 1; step <= strlen(req); step++) {
    seen s;
    run(req, step, &s);
    cr_assert_eq(s.n, 3, "step %zu: %d", step, s.n);
    cr_assert_str_eq(s.req[0].path, "/a");
    cr_assert_eq(s.req[1].method, SRV_HTTP_POST);
    cr_assert_str_eq(s.req[1].body, "{}");
    cr_assert_eq(s.req[1].body_len, 2);
    cr_assert_str_eq(s.req[2].path, "/b");
    cr_assert_not(s.req[2].keep_alive, "Connection: close");
  }
}

Test(http, chunked_bodies_are_decoded) {
  /* RFC 9112 7.1: chunk sizes in hex, extensions ignored, trailer fields after the last */
  const char *req = "POST /api/games HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    "4\r\nWiki\r\n6;name=value\r\npedia \r\nE\r\nin \r\n\r\nchunks.\r\n0\r\n"
                    "Trailer: yes\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n";
  for (size_t step = 1; step <= strlen(req); step++) {
    seen s;
    run(req, step, &s);
    cr_assert_eq(s.n, 2, "step %zu", step);
    cr_assert_str_eq(s.req[0].body, "Wikipedia in \r\n\r\nchunks.");
  }
}

Test(http, http_1_0_closes_unless_asked_and_needs_no_host) {
  seen s;
  run("GET / HTTP/1.0\r\n\r\n", 100, &s);
  cr_assert_eq(s.n, 1);
  cr_assert_not(s.req[0].keep_alive);
  run("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", 100, &s);
  cr_assert(s.req[0].keep_alive);
  run("\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n", 3, &s);
  cr_assert_eq(s.n, 1, "blank lines before a request are ignored (RFC 9112 2.2)");
}

Test(http, the_websocket_upgrade_is_read) {
  seen s;
  run("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n"
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
      5, &s);
  cr_assert_eq(s.n, 1);
  cr_assert(s.req[0].upgrade);
  cr_assert_eq(s.req[0].ws_version, 13);
  cr_assert_str_eq(s.req[0].ws_key, "dGhlIHNhbXBsZSBub25jZQ==");
}

static int status_of(const char *req) {
  seen s;
  run(req, 1000000, &s);
  return s.status;
}

Test(http, what_cannot_be_read_gets_its_status) {
  cr_assert_eq(status_of("GET / HTTP/1.1\r\n\r\n"), 400, "no Host");
  cr_assert_eq(status_of("GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"), 400, "two Hosts");
  cr_assert_eq(status_of("GET / HTTP/2.0\r\nHost: a\r\n\r\n"), 505);
  cr_assert_eq(status_of("GET /\r\nHost: a\r\n\r\n"), 400, "HTTP/0.9");
  cr_assert_eq(status_of("G(T / HTTP/1.1\r\nHost: a\r\n\r\n"), 400, "a method that is no token");
  cr_assert_eq(status_of("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n"
                         "Transfer-Encoding: chunked\r\n\r\n"),
               400, "both lengths (smuggling)");
  cr_assert_eq(
      status_of("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n"),
      400, "two lengths");
  cr_assert_eq(status_of("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: -1\r\n\r\n"), 400);
  cr_assert_eq(status_of("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"),
               501);
  cr_assert_eq(status_of("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 9000\r\n\r\n"), 413);
  cr_assert_eq(status_of("GET / HTTP/1.1\r\nHost: a\r\nX: 1\r\n folded\r\n\r\n"), 400,
               "obsolete line folding");
  cr_assert_eq(status_of("GET / HTTP/1.1\r\nHost : a\r\n\r\n"), 400, "space before the colon");
  cr_assert_eq(status_of("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
               400, "a chunk size that is no number");
  cr_assert_eq(status_of("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                         "3\r\nabcX\r\n"),
               400, "a chunk longer than its size");
  char big[10000];
  snprintf(big, sizeof big, "GET / HTTP/1.1\r\nHost: a\r\nX: %09000d\r\n\r\n", 0);
  cr_assert_eq(status_of(big), 431);
  char target[3000];
  memset(target, 'a', sizeof target);
  memcpy(target, "GET /", 5);
  strcpy(target + 2500, " HTTP/1.1\r\nHost: a\r\n\r\n");
  cr_assert_eq(status_of(target), 414);
  static char chunks[20000];
  size_t n = (size_t)snprintf(chunks, sizeof chunks,
                              "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n");
  for (int i = 0; i < 9; i++) { /* nine chunks of 1,000 bytes */
    n += (size_t)snprintf(chunks + n, sizeof chunks - n, "3e8\r\n");
    memset(chunks + n, 'x', 1000);
    n += 1000;
    n += (size_t)snprintf(chunks + n, sizeof chunks - n, "\r\n");
  }
  cr_assert_eq(status_of(chunks), 413, "chunks adding up to more than 8 KB");
}

Test(http, other_methods_are_read_for_the_server_to_refuse) {
  seen s;
  run("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 7, &s);
  cr_assert_eq(s.n, 1);
  cr_assert_eq(s.req[0].method, SRV_HTTP_OTHER);
  cr_assert_str_eq(s.req[0].method_text, "CONNECT");
  run("GET http://example.com/api/x HTTP/1.1\r\nHost: example.com\r\n\r\n", 100, &s);
  cr_assert_str_eq(s.req[0].path, "/api/x", "the absolute form is read as its path");
}
