/* Arbiter — MIT licence, see LICENSE.
 *
 * http.h: HTTP/1.1 requests as `arbiter serve` reads them (RFC 9112) — an incremental parser
 * that takes bytes as they arrive and yields one whole request at a time (request line,
 * the headers the server uses, the body by Content-Length or chunked), so that pipelined
 * requests are answered once each, in order.  Pure: no sockets, no allocation, no clock; the
 * fuzz target fuzz_http drives it.
 *
 * Bounds: the request line and headers together at most SRV_HTTP_MAX_HEAD bytes (else 431),
 * the target at most SRV_HTTP_MAX_TARGET (414), a body at most SRV_HTTP_MAX_BODY (413).  A
 * request that cannot be read answers a status; after it the connection cannot be trusted to
 * be in step, so the transport answers and closes.
 *
 * Ownership: the parser is a caller-owned value (srv_http_init); the request it fills lives in
 * it until the next srv_http_next.
 */
#ifndef ARB_SERVER_HTTP_H
#define ARB_SERVER_HTTP_H

#include <stddef.h>
#include <stdint.h>

#define SRV_HTTP_MAX_HEAD 8192
#define SRV_HTTP_MAX_TARGET 2048
#define SRV_HTTP_MAX_BODY 8192

typedef enum srv_http_method {
  SRV_HTTP_GET,
  SRV_HTTP_HEAD,
  SRV_HTTP_POST,
  SRV_HTTP_OPTIONS,
  SRV_HTTP_OTHER /* PUT, DELETE, CONNECT, ...: answered 405 */
} srv_http_method;

typedef struct srv_http_request {
  srv_http_method method;
  char method_text[16];
  char path[SRV_HTTP_MAX_TARGET + 1]; /* the target up to '?' (origin form) */
  char query[SRV_HTTP_MAX_TARGET + 1];
  int minor;      /* HTTP/1.minor: 0 or 1 */
  int keep_alive; /* the connection stays open after the answer */
  int upgrade;    /* "Upgrade: websocket" with "Connection: upgrade" */
  int ws_version; /* Sec-WebSocket-Version, 0 none */
  char ws_key[64];
  char host[256];
  char origin[256];
  char fetch_site[32];     /* Sec-Fetch-Site */
  char forwarded_for[256]; /* X-Forwarded-For, as sent */
  char if_modified_since[64];
  char learner[64];       /* X-Learner: the trainer's learner token */
  int64_t content_length; /* -1 none */
  int chunked;
  char body[SRV_HTTP_MAX_BODY + 1]; /* NUL-terminated for convenience */
  size_t body_len;
} srv_http_request;

typedef enum srv_http_result {
  SRV_HTTP_MORE = 0,  /* every byte given was taken; more are needed */
  SRV_HTTP_DONE = 1,  /* a whole request is in p->req; *used bytes were taken */
  SRV_HTTP_ERROR = 2, /* p->status (400, 413, 414, 431, 501, 505) and p->error say why */
} srv_http_result;

typedef struct srv_http_parser {
  int state;
  char head[SRV_HTTP_MAX_HEAD];
  size_t head_len;
  int64_t body_left;     /* of the Content-Length, or of the current chunk */
  size_t chunk_line_len; /* a chunk-size line being read */
  char chunk_line[64];
  int status;        /* on SRV_HTTP_ERROR */
  const char *error; /* on SRV_HTTP_ERROR: words (static) */
  srv_http_request req;
} srv_http_parser;

/* Ready for the first request of a connection. */
void srv_http_init(srv_http_parser *p);
/* Ready for the next request (after SRV_HTTP_DONE). */
void srv_http_next(srv_http_parser *p);
/* Takes up to len bytes; *used says how many were taken (always all on SRV_HTTP_MORE; up to
 * the end of the request on SRV_HTTP_DONE, the rest being the next request's). */
srv_http_result srv_http_feed(srv_http_parser *p, const char *data, size_t len, size_t *used);
/* 1 once some bytes of a request have been taken (for timeouts: a request is under way). */
int srv_http_started(const srv_http_parser *p);

/* The reason phrase of a status ("Not Found"), "" if unknown. */
const char *srv_http_reason(int status);

#endif
