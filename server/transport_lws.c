/* Arbiter — MIT licence, see LICENSE.
 *
 * transport_lws.c: the one file that knows libwebsockets.  One event loop, one port:
 *   - HTTP: POST /api/games, GET /api/games/ID[.pgn] (server.c answers), and the page's
 *     static files (/ is index.html, /game/ID is game.html), every answer with strict security
 *     headers (a content security policy of 'self' only, no framing, nosniff, no referrer);
 *   - WebSocket: text messages of at most SRV_MAX_MESSAGE bytes, gathered from their fragments
 *     and stamped with the server time the moment they are complete, then handed to server.c;
 *     what the sessions have queued is written one message per writeable callback;
 *   - timers: one lws_sul per game, armed from its referee's deadline, and a one-second sweep;
 *   - the store's writer wakes the loop (lws_cancel_service) after each commit.
 * Connections are checked here: Origin, binary frames (closed 1003), oversized messages
 * (1009), the rate limit (1008), overflowing outbound queues (1008), no hello in time, and idle
 * or half-open ones (pinged after 30 s, dropped after 60 s without an answer).
 */
#define _POSIX_C_SOURCE 200809L
#include "transport.h"

#include <uv.h> /* the event loop: libuv (epoll), run here, so thousands of sockets stay cheap */

#include <libwebsockets.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "protocol.h"

_Static_assert(LWS_PRE <= SRV_PRE, "SRV_PRE must leave room for libwebsockets' header");

/* ---- the server's time ---- */

static int64_t clock_offset_ms; /* set once by srv_clock_init */

static int64_t mono_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void srv_clock_init(int64_t floor_ms) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  int64_t wall = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
  int64_t base = wall > floor_ms ? wall : floor_ms + 1;
  clock_offset_ms = base - mono_ms();
}

int64_t srv_clock_now(void) { return mono_ms() + clock_offset_ms; }

/* ---- state ---- */

typedef struct transport {
  struct lws_context *ctx;
  srv_server *sv;
  srv_store *store;
  const srv_options *opt;
  srv_config *cfg;
  lws_sorted_usec_list_t sweep;
} transport;

typedef struct game_timer {
  lws_sorted_usec_list_t sul;
  transport *t;
  struct srv_game *g;
} game_timer;

/* Per connection: HTTP request and response, or a WebSocket session. */
typedef struct conn {
  srv_session *ws;
  char *rx; /* a message arriving in fragments, gathered (most come whole) */
  size_t rx_len;
  /* Over its rate: what it still sends is read and dropped, and once it has been quiet for a
   * moment (or after 2 s) the close goes out — closing with unread data would reset the
   * connection instead of saying why. */
  int kicked, kick_due;
  int64_t kicked_at;
  lws_sorted_usec_list_t kick_sul;
  struct lws *wsi;
  char path[256];
  char *req;
  size_t req_len;
  int req_too_big;
  unsigned char *out; /* LWS_PRE + body */
  size_t out_len;
} conn;

static volatile sig_atomic_t stopping;
static struct lws_context *signal_ctx;

static void on_signal(int sig) {
  (void)sig;
  stopping = 1;
  if (signal_ctx) lws_cancel_service(signal_ctx);
}

/* ---- what server.c asks of us ---- */

static void io_writable(void *ctx, srv_session *s) {
  (void)ctx;
  if (s->conn) lws_callback_on_writable((struct lws *)s->conn);
}

static void on_game_timer(lws_sorted_usec_list_t *sul) {
  game_timer *gt = lws_container_of(sul, game_timer, sul);
  srv_server_timer(gt->t->sv, gt->g, srv_clock_now());
}

static void io_arm(void *ctx, struct srv_game *g, int64_t at_ms) {
  transport *t = ctx;
  void **slot = srv_game_timer_slot(g);
  game_timer *gt = *slot;
  if (at_ms == ARB_CLOCK_NEVER) {
    if (gt) lws_sul_cancel(&gt->sul);
    return;
  }
  if (!gt) {
    if (!(gt = calloc(1, sizeof *gt))) return;
    gt->t = t;
    gt->g = g;
    *slot = gt;
  }
  int64_t delay = at_ms - srv_clock_now();
  lws_sul_schedule(t->ctx, 0, &gt->sul, on_game_timer,
                   (lws_usec_t)(delay > 0 ? delay : 0) * LWS_US_PER_MS);
}

static void io_forget(void *ctx, struct srv_game *g) {
  (void)ctx;
  void **slot = srv_game_timer_slot(g);
  game_timer *gt = *slot;
  if (!gt) return;
  lws_sul_cancel(&gt->sul);
  free(gt);
  *slot = NULL;
}

static void on_sweep(lws_sorted_usec_list_t *sul) {
  transport *t = lws_container_of(sul, transport, sweep);
  srv_server_sweep(t->sv, srv_clock_now());
  lws_sul_schedule(t->ctx, 0, &t->sweep, on_sweep, LWS_US_PER_SEC);
}

static void store_woke(void *ctx) { lws_cancel_service(ctx); }

/* ---- HTTP ---- */

static const char *mime_of(const char *path) {
  static const struct {
    const char *ext, *type;
  } types[] = {{".html", "text/html; charset=utf-8"},
               {".js", "text/javascript"},
               {".mjs", "text/javascript"},
               {".css", "text/css"},
               {".svg", "image/svg+xml"},
               {".png", "image/png"},
               {".ico", "image/x-icon"},
               {".json", "application/json"},
               {".woff2", "font/woff2"},
               {".txt", "text/plain; charset=utf-8"},
               {".webmanifest", "application/manifest+json"}};
  const char *dot = strrchr(path, '.');
  for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
    if (!strcmp(dot, types[i].ext)) return types[i].type;
  return "application/octet-stream";
}

/* The security headers of every answer.  The policy is lws's "best practices" one but for
 * style-src, which also allows the one inline style the board writes (chessground sets
 * style="color-scheme:light only" on its SVG layers), by its hash and nothing else. */
#define CSP                                                                                        \
  "default-src 'none'; img-src 'self' data:; script-src 'self'; font-src 'self'; "                 \
  "style-src 'self' 'unsafe-hashes' 'sha256-SyXRxMCl6H7Kgy9uTmu1UZqVBsRmMBF4sHRiTO3FQc0='; "       \
  "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
static const struct {
  const char *name, *value;
} security_headers[] = {{"content-security-policy:", CSP},
                        {"x-content-type-options:", "nosniff"},
                        {"x-frame-options:", "deny"},
                        {"referrer-policy:", "no-referrer"}};

static int add_security_headers(struct lws *wsi, unsigned char **p, unsigned char *end) {
  for (size_t i = 0; i < sizeof security_headers / sizeof security_headers[0]; i++)
    if (lws_add_http_header_by_name(wsi, (const unsigned char *)security_headers[i].name,
                                    (const unsigned char *)security_headers[i].value,
                                    (int)strlen(security_headers[i].value), p, end))
      return -1;
  return 0;
}

/* Writes the headers now and the body at the next writeable callback. */
static int respond(struct lws *wsi, conn *c, int status, const char *type, const char *body,
                   size_t len) {
  unsigned char buf[LWS_PRE + 1024], *start = buf + LWS_PRE, *p = start, *end = buf + sizeof buf;
  if (lws_add_http_common_headers(wsi, (unsigned)status, type, len, &p, end) ||
      lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
                                  (const unsigned char *)"no-store", 8, &p, end) ||
      add_security_headers(wsi, &p, end) || lws_finalize_write_http_header(wsi, start, &p, end))
    return -1;
  free(c->out);
  c->out = malloc(LWS_PRE + len + 1);
  if (!c->out) return -1;
  memcpy(c->out + LWS_PRE, body, len);
  c->out_len = len;
  lws_callback_on_writable(wsi);
  return 0;
}

static int respond_taken(struct lws *wsi, conn *c, int status, const char *type, char *body) {
  if (!body) return -1;
  int rc = respond(wsi, c, status, type, body, strlen(body));
  free(body);
  return rc;
}

static int serve_static(struct lws *wsi, const transport *t, const char *uri) {
  const char *dir = t->opt->static_dir;
  char path[1024];
  struct stat st;
  if (!dir || strstr(uri, "..") || strchr(uri, '\\'))
    return lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL) ? -1 : 0;
  if (!strcmp(uri, "/")) uri = "/index.html";
  if (!strncmp(uri, "/game/", 6)) uri = "/game.html";
  snprintf(path, sizeof path, "%s%s", dir, uri);
  if (stat(path, &st) || !S_ISREG(st.st_mode))
    return lws_return_http_status(wsi, HTTP_STATUS_NOT_FOUND, NULL) ? -1 : 0;
  unsigned char extra[1024], *p = extra;
  if (add_security_headers(wsi, &p, extra + sizeof extra)) return -1;
  int rc = lws_serve_http_file(wsi, path, mime_of(path), (const char *)extra, (int)(p - extra));
  if (rc < 0) return -1;
  if (rc > 0 && lws_http_transaction_completed(wsi)) return -1;
  return 0;
}

static int http_request(struct lws *wsi, transport *t, conn *c, const char *uri) {
  snprintf(c->path, sizeof c->path, "%s", uri);
  int post = lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0;
  if (post) {
    if (strcmp(uri, "/api/games") != 0)
      return respond_taken(wsi, c, 404, "application/json",
                           srv_write_error("not_found", "POST /api/games only", -1));
    c->req_len = 0;
    c->req_too_big = 0;
    return 0; /* the body follows */
  }
  if (!strncmp(uri, "/api/", 5)) {
    char *body;
    const char *type;
    int status = srv_server_get(t->sv, uri, srv_clock_now(), &body, &type);
    return respond_taken(wsi, c, status, type, body);
  }
  return serve_static(wsi, t, uri);
}

/* ---- the callback ---- */

static int check_origin(struct lws *wsi, const transport *t) {
  char origin[256], host[256], want[300];
  int n = lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN);
  if (n <= 0) return 0; /* not a browser: its seat token is what counts */
  if (t->opt->origin) return strcmp(origin, t->opt->origin) ? -1 : 0;
  if (lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) <= 0) return -1;
  snprintf(want, sizeof want, "http://%s", host);
  if (!strcmp(origin, want)) return 0;
  snprintf(want, sizeof want, "https://%s", host);
  return strcmp(origin, want) ? -1 : 0;
}

static void on_kick(lws_sorted_usec_list_t *sul) {
  conn *c = lws_container_of(sul, conn, kick_sul);
  c->kick_due = 1;
  lws_callback_on_writable(c->wsi);
}

/* (Re)schedules the close of a kicked connection. */
static void kick(struct lws *wsi, conn *c) {
  int64_t now = srv_clock_now();
  while (c->ws && srv_session_peek(c->ws)) /* it gets nothing more but the close */
    srv_session_pop(c->ws);
  if (!c->kicked) c->kicked_at = now;
  c->kicked = 1;
  c->wsi = wsi;
  if (now - c->kicked_at < 2000 || !c->kick_sul.cb)
    lws_sul_schedule(lws_get_context(wsi), 0, &c->kick_sul, on_kick, 100 * LWS_US_PER_MS);
}

static int close_with(struct lws *wsi, enum lws_close_status code, const char *why) {
  unsigned char text[64];
  size_t n = strlen(why) < sizeof text ? strlen(why) : sizeof text;
  memcpy(text, why, n);
  lws_close_reason(wsi, code, text, n);
  return -1;
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in,
                    size_t len) {
  struct lws_context *ctx = lws_get_context(wsi);
  transport *t = ctx ? lws_context_user(ctx) : NULL;
  conn *c = user;
  switch (reason) {
  case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
    if (t && t->sv) srv_server_release(t->sv);
    return 0;

  case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION: return check_origin(wsi, t) || stopping ? -1 : 0;

  case LWS_CALLBACK_ESTABLISHED: {
    if (!(c->ws = malloc(sizeof *c->ws))) return -1;
    srv_session_init(c->ws, wsi, srv_clock_now(), &t->cfg->limits);
    c->rx_len = 0;
    lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, t->opt->hello_timeout_s);
    return 0;
  }

  case LWS_CALLBACK_RECEIVE: {
    if (!c->ws) return -1;
    if (lws_frame_is_binary(wsi))
      return close_with(wsi, LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE, "text frames only");
    if (c->rx_len + len > SRV_MAX_MESSAGE)
      return close_with(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, "message too big");
    int whole = !c->rx_len && lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi);
    if (!whole) {
      if (!c->rx && !(c->rx = malloc(SRV_MAX_MESSAGE))) return -1;
      memcpy(c->rx + c->rx_len, in, len);
      c->rx_len += len;
      if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi)) return 0;
    }
    int64_t now = srv_clock_now(); /* the moment the whole message is here */
    const char *text = whole ? (const char *)in : c->rx;
    size_t n = whole ? len : c->rx_len;
    c->rx_len = 0;
    if (c->kicked) kick(wsi, c);
    if (stopping || c->kicked) return 0;
    if (srv_server_message(t->sv, c->ws, text, n, now) < 0) {
      kick(wsi, c);
      return 0;
    }
    if (c->ws->game) lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0);
    if (c->ws->overflow)
      return close_with(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, "not reading fast enough");
    return 0;
  }

  case LWS_CALLBACK_SERVER_WRITEABLE: {
    if (!c->ws) return 0;
    if (c->kicked) {
      if (!c->kick_due) return 0;
      /* the close frame written here, as the event loop may drop one left to lws */
      static const char why[] = "too many messages";
      unsigned char frame[LWS_PRE + 4 + sizeof why], *f = frame + LWS_PRE;
      f[0] = 0x88; /* FIN, close */
      f[1] = (unsigned char)(2 + sizeof why - 1);
      f[2] = (unsigned char)(LWS_CLOSE_STATUS_POLICY_VIOLATION >> 8);
      f[3] = (unsigned char)(LWS_CLOSE_STATUS_POLICY_VIOLATION & 0xff);
      memcpy(f + 4, why, sizeof why - 1);
      lws_write(wsi, f, 4 + sizeof why - 1, LWS_WRITE_RAW);
      return -1;
    }
    if (c->ws->overflow)
      return close_with(wsi, LWS_CLOSE_STATUS_POLICY_VIOLATION, "not reading fast enough");
    srv_buf *b = srv_session_peek(c->ws);
    if (!b) return 0;
    if (lws_write(wsi, b->data + SRV_PRE, b->len, LWS_WRITE_TEXT) < (int)b->len) return -1;
    srv_session_pop(c->ws);
    if (srv_session_peek(c->ws)) lws_callback_on_writable(wsi);
    return 0;
  }

  case LWS_CALLBACK_CLOSED:
    lws_sul_cancel(&c->kick_sul);
    free(c->rx);
    c->rx = NULL;
    if (c->ws) {
      srv_server_closed(t->sv, c->ws, srv_clock_now());
      free(c->ws);
      c->ws = NULL;
    }
    return 0;

  case LWS_CALLBACK_HTTP: return http_request(wsi, t, c, (const char *)in);

  case LWS_CALLBACK_HTTP_BODY:
    if (c->req_len + len > SRV_MAX_MESSAGE) {
      c->req_too_big = 1;
      return 0;
    }
    if (!c->req && !(c->req = malloc(SRV_MAX_MESSAGE))) return -1;
    memcpy(c->req + c->req_len, in, len);
    c->req_len += len;
    return 0;

  case LWS_CALLBACK_HTTP_BODY_COMPLETION: {
    char *body;
    if (c->req_too_big)
      return respond_taken(wsi, c, 413, "application/json",
                           srv_write_error("too_big", "the request is too big", -1));
    int status = srv_server_create(t->sv, c->req ? c->req : "", c->req_len, srv_clock_now(), &body);
    return respond_taken(wsi, c, status, "application/json", body);
  }

  case LWS_CALLBACK_HTTP_WRITEABLE:
    if (!c->out) return 0;
    if (lws_write(wsi, c->out + LWS_PRE, c->out_len, LWS_WRITE_HTTP_FINAL) < 0) return -1;
    free(c->out);
    c->out = NULL;
    return lws_http_transaction_completed(wsi) ? -1 : 0;

  case LWS_CALLBACK_HTTP_FILE_COMPLETION: return lws_http_transaction_completed(wsi) ? -1 : 0;

  case LWS_CALLBACK_WSI_DESTROY:
    /* a WebSocket lws destroyed without saying it closed: its session must still leave */
    if (c && c->ws) {
      fprintf(stderr, "arbiter serve: a connection went without a close\n");
      lws_sul_cancel(&c->kick_sul);
      srv_server_closed(t->sv, c->ws, srv_clock_now());
      free(c->ws);
      c->ws = NULL;
    }
    return 0;

  case LWS_CALLBACK_HTTP_DROP_PROTOCOL:
  case LWS_CALLBACK_CLOSED_HTTP:
    free(c ? c->req : NULL);
    free(c ? c->out : NULL);
    if (c) c->req = NULL, c->out = NULL;
    return 0;

  default: return lws_callback_http_dummy(wsi, reason, user, in, len);
  }
}

static const struct lws_protocols protocols[] = {
    {"arbiter", callback, sizeof(conn), SRV_MAX_MESSAGE, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* Pinged after 30 s of silence, dropped after 60 s without an answer. */
static const lws_retry_bo_t idle_policy = {
    .secs_since_valid_ping = 30,
    .secs_since_valid_hangup = 60,
};

int srv_transport_run(const srv_options *opt, srv_config *cfg, srv_store *store) {
  transport t;
  memset(&t, 0, sizeof t);
  t.opt = opt;
  t.cfg = cfg;
  t.store = store;
  lws_set_log_level(LLL_ERR, NULL);
  /* lws's own poll() loop scans every socket on every wakeup: the least work per message for
   * hundreds of connections, far too much for 20,000; libuv waits with epoll.  The libuv loop
   * is ours (a "foreign" loop to lws). */
  uv_loop_t loop;
  int uv = !opt->poll_loop;
  if (uv && uv_loop_init(&loop)) {
    fprintf(stderr, "arbiter serve: no event loop\n");
    return 1;
  }
  void *foreign[] = {&loop};
  struct lws_context_creation_info info;
  memset(&info, 0, sizeof info);
  if (uv) info.foreign_loops = foreign;
  info.port = opt->port;
  info.iface = opt->host;
  info.protocols = protocols;
  info.user = &t;
  info.options = LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_DISABLE_IPV6 |
                 (uv ? LWS_SERVER_OPTION_LIBUV : 0);
  info.retry_and_idle_policy = &idle_policy;
  info.timeout_secs = 10;
  info.keepalive_timeout = 10;
  info.vhost_name = "arbiter";
  t.ctx = lws_create_context(&info);
  if (!t.ctx) {
    fprintf(stderr, "arbiter serve: cannot listen on %s:%d\n", opt->host, opt->port);
    if (uv) uv_loop_close(&loop);
    return 1;
  }
  srv_io io = {&t, io_writable, io_arm, io_forget};
  t.sv = srv_server_new(cfg, &io, store);
  if (!t.sv) {
    lws_context_destroy(t.ctx);
    return 1;
  }
  srv_store_set_wake(store, store_woke, t.ctx);
  long loaded = srv_server_load(t.sv, srv_clock_now());
  struct lws_vhost *vh = lws_get_vhost_by_name(t.ctx, "arbiter");
  int port = vh ? lws_get_vhost_listen_port(vh) : opt->port;
  if (opt->port_file) {
    /* Written beside and renamed into place: a script polling for the file never reads it
     * half written. */
    char tmp[4096];
    FILE *f = NULL;
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", opt->port_file) < sizeof tmp)
      f = fopen(tmp, "w");
    int ok = f && fprintf(f, "%d\n", port) > 0;
    if (f) ok = fclose(f) == 0 && ok;
    if (!ok || rename(tmp, opt->port_file) != 0)
      fprintf(stderr, "arbiter serve: cannot write the port file %s\n", opt->port_file);
  }
  fprintf(stderr, "arbiter serve: listening on http://%s:%d/ (%ld unfinished games resumed)\n",
          opt->host, port, loaded < 0 ? 0 : loaded);
  signal_ctx = t.ctx;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  lws_sul_schedule(t.ctx, 0, &t.sweep, on_sweep, LWS_US_PER_SEC);
  while (!stopping)
    if (uv ? (uv_run(&loop, UV_RUN_ONCE), 0) : lws_service(t.ctx, 0) < 0) break;
  /* commit what is queued, then let the answers that waited for it go out */
  srv_store_flush(store);
  srv_server_release(t.sv);
  for (int i = 0; i < 200; i++)
    if (uv)
      uv_run(&loop, UV_RUN_NOWAIT);
    else
      lws_service(t.ctx, 1);
  fprintf(stderr, "arbiter serve: stopped; everything acknowledged is stored\n");
  signal_ctx = NULL;
  srv_store_set_wake(store, NULL, NULL);
  lws_sul_cancel(&t.sweep);
  /* timers first, then the connections (their sessions leave their games), then the games */
  srv_server_forget_timers(t.sv);
  lws_context_destroy(t.ctx);
  /* lws closes its libuv handles asynchronously: let the loop finish them */
  for (int i = 0; uv && i < 1000 && uv_run(&loop, UV_RUN_NOWAIT); i++)
    ;
  srv_server_free(t.sv);
  if (uv) uv_loop_close(&loop);
  return 0;
}
