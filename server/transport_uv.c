/* Arbiter — MIT licence, see LICENSE.
 *
 * transport_uv.c: the one file that knows sockets.  One libuv loop (epoll), one port:
 *   - HTTP/1.1 (http.c reads the bytes): POST /api/games and GET /api/games/ID[...]
 *     (server.c answers), the page's static files (/ is index.html, /game/ID game.html), every
 *     answer with strict security headers.  Requests on a connection are answered one at a
 *     time, in order: while an answer waits for the store (a new game is acknowledged only once
 *     it is on disk), what the client sent after it waits unread;
 *   - WebSocket (ws.c reads the frames): text messages, stamped with the moment the loop could
 *     first have read them and handed to server.c; what the sessions have queued is written as
 *     the socket takes it;
 *   - timers: one uv_timer per game, armed from its referee's deadline, and a one-second sweep
 *     that also enforces every connection's deadlines;
 *   - the store's writer wakes the loop (uv_async) after each commit.
 *
 * Limits, each closing or refusing with a status or close code that says why: connections at
 * once (in all and per address), a request's head and body within 10 s (slowloris), keep-alive
 * idle 10 s, methods (405, CONNECT at once), the page's files never outside their folder
 * (symbolic links resolved first), POSTs and WebSockets from a foreign Origin (403), a hello
 * within --hello-timeout, silence (pinged after 30 s, dropped after 60 s), outbound queues
 * (1008), the message rate (1008).
 *
 * The loop's own time is nobody's: a message is stamped with the start of the loop iteration
 * that read it, or of the one before when that one ran long (the loop was stalled and the
 * message may have been waiting all along), and a game's timer that fires late lets the
 * messages already waiting be read first.
 */
#define _GNU_SOURCE /* realpath, strcasestr */
#include "transport.h"

#include <uv.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis.h"
#include "http.h"
#include "jsonw.h"
#include "level.h"
#include "pool.h"
#include "protocol.h"
#include "strhash.h"
#include "train.h"
#include "ws.h"

_Static_assert(SRV_WS_MAX_MESSAGE == SRV_MAX_MESSAGE, "one bound for a client message");

#define IDLE_HTTP_MS 10000        /* a kept-alive connection with no request */
#define PING_AFTER_MS 30000       /* a silent WebSocket is pinged */
#define DROP_AFTER_MS 60000       /* ... and dropped without an answer */
#define CLOSING_MS 2000           /* after our close frame, the peer's close is awaited this long */
#define WRITE_WINDOW (256 * 1024) /* bytes handed to the socket and not yet written */
#define PENDING_INPUT_MAX (64 * 1024) /* unread pipelined bytes behind a waiting answer */
#define STALL_MS 50                   /* an iteration longer than this stalled the loop */
#define STATIC_MAX (16 << 20)         /* the largest file served */

/* ---- the server's time ---- */

static int64_t clock_offset_ms; /* set once by srv_clock_init, before the loop starts */

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

typedef struct tconn tconn;

/* Connections per address: open addressing, keys are the address in text. */
typedef struct peer_slot {
  char addr[64];
  int count; /* 0: free (a deleted slot keeps its key with count 0 and tomb 1) */
  int tomb;
} peer_slot;

/* A search asked of the engine pool: for a game's computer seat, or for a connection's
 * POST /api/engine/eval (then conn, NULL once the connection is gone, and the position). */
typedef struct think_entry {
  uint64_t id;
  char game[SRV_GAME_ID_LEN + 1];
  uint64_t seq;
  tconn *conn;
  int keep;
  srv_eval *eval;
  struct think_entry *next;
} think_entry;

typedef struct answer_node {
  eng_answer a;
  struct answer_node *next;
} answer_node;

typedef struct transport {
  uv_loop_t loop;
  /* the engine pool (NULL: no engine) and its answers, handed over from its threads */
  eng_pool *pool;
  uv_async_t engine_wake;
  pthread_mutex_t answers_mu;
  answer_node *answers, *answers_tail;
  think_entry *thinks;
  uint64_t next_job;
  uv_tcp_t listener;
  uv_async_t wake;
  uv_timer_t sweep;
  uv_signal_t sigterm, sigint;
  uv_prepare_t prepare;
  uv_check_t check;
  uv_idle_t idle;
  srv_server *sv;
  srv_trainer *trainer;
  srv_store *store;
  const srv_options *opt;
  srv_config *cfg;
  tconn *conns;            /* every connection */
  tconn *dirty;            /* sessions with messages to write */
  tconn *held;             /* HTTP answers waiting for the store */
  struct game_timer *late; /* game timers that fired late: run after the waiting input */
  size_t nconns;
  peer_slot *peers;
  size_t npeers_cap;
  int stopping;
  int in_poll;             /* between prepare and the first callback after the poll */
  int64_t iter_start;      /* when this iteration's work began */
  int64_t prev_iter_start; /* ... and the previous one's */
  int64_t prev_iter_ms;    /* how long the previous iteration worked */
  int64_t stalled_ms;      /* in all, for the log */
  char static_real[PATH_MAX];
  char readbuf[65536];
} transport;

typedef struct game_timer {
  uv_timer_t timer;
  transport *t;
  struct srv_game *g;
  struct game_timer *late_next;
  int is_late;
  int64_t due; /* when it should fire */
} game_timer;

enum { C_HTTP, C_WS };

struct tconn {
  uv_tcp_t tcp; /* first: the handle's data is the connection */
  transport *t;
  tconn *prev, *next;
  tconn *dirty_next;
  int in_dirty;
  tconn *held_next;
  int kind;
  char peer[64];   /* the TCP peer's address */
  char client[64]; /* the client's address (the peer's, or X-Forwarded-For behind a proxy) */
  int counted;     /* in the peer table */
  srv_http_parser *http;
  int64_t req_start_ms; /* the first byte of the request being read (-1 none) */
  int64_t idle_since_ms;
  /* an answer waiting for the store, and the bytes sent after its request */
  int held;
  uint64_t held_ticket;
  char *held_text;
  size_t held_len;
  int held_keep;
  char *input;
  size_t input_len, input_cap;
  int reading;
  /* WebSocket */
  srv_ws_reader *wsr;
  srv_session *sess;
  int64_t last_rx_ms;
  int pinged;
  size_t inflight;
  int closing; /* our close frame is out (or the connection is being torn down) */
  int64_t closing_ms;
  int close_when_written; /* HTTP: Connection: close, once the answer is written */
  int torn;               /* uv_close called */
  uv_shutdown_t shutdown; /* after our close frame: our side of the TCP connection ends */
  int shut;
};

typedef struct wreq {
  uv_write_t req;
  tconn *c;
  srv_buf *b;  /* a session's message (referenced), or NULL */
  char *owned; /* malloc'd bytes, or NULL */
  size_t bytes;
} wreq;

static volatile sig_atomic_t got_signal;

/* ---- time and stalls ---- */

/* Every callback starts here: the first one after the poll marks the iteration's start. */
static int64_t woke(transport *t) {
  int64_t now = srv_clock_now();
  if (t->in_poll) {
    t->in_poll = 0;
    t->iter_start = now;
  }
  return now;
}

/* When a message read now may have arrived: the start of this iteration, or of the previous one
 * when that one stalled the loop. */
static int64_t stamp(const transport *t) {
  return t->prev_iter_ms > STALL_MS ? t->prev_iter_start : t->iter_start;
}

/* ---- the peer table ---- */

static size_t peer_hash(const char *s, size_t cap) { return (size_t)(srv_strhash(s) & (cap - 1)); }

static peer_slot *peer_find(transport *t, const char *addr, int create) {
  if (!t->peers) {
    if (!create) return NULL;
    t->npeers_cap = 1024;
    if (!(t->peers = calloc(t->npeers_cap, sizeof *t->peers))) return NULL;
  }
  size_t k = peer_hash(addr, t->npeers_cap), first_free = (size_t)-1;
  for (size_t i = 0; i < t->npeers_cap; i++, k = (k + 1) & (t->npeers_cap - 1)) {
    peer_slot *p = &t->peers[k];
    if (!p->addr[0]) {
      if (!create) return NULL;
      if (first_free == (size_t)-1) first_free = k;
      break;
    }
    if (!strcmp(p->addr, addr) && (p->count || !p->tomb)) return p;
    if (p->tomb && first_free == (size_t)-1) first_free = k;
  }
  if (!create || first_free == (size_t)-1) return NULL;
  peer_slot *p = &t->peers[first_free];
  snprintf(p->addr, sizeof p->addr, "%s", addr);
  p->count = 0;
  p->tomb = 0;
  return p;
}

static void peer_rehash(transport *t) {
  size_t live = 0;
  for (size_t i = 0; i < t->npeers_cap; i++)
    live += t->peers[i].count > 0;
  size_t cap = t->npeers_cap;
  while (live * 2 >= cap)
    cap *= 2;
  peer_slot *old = t->peers;
  size_t ocap = t->npeers_cap;
  peer_slot *n = calloc(cap, sizeof *n);
  if (!n) return;
  t->peers = n;
  t->npeers_cap = cap;
  for (size_t i = 0; i < ocap; i++)
    if (old[i].count > 0) {
      peer_slot *p = peer_find(t, old[i].addr, 1);
      if (p) p->count = old[i].count;
    }
  free(old);
}

/* ---- writing ---- */

static void conn_teardown(tconn *c);
static void resume_reading(tconn *c);
static void on_idle(uv_idle_t *h);

static void on_written(uv_write_t *req, int status) {
  wreq *w = (wreq *)req;
  tconn *c = w->c;
  c->inflight -= w->bytes;
  if (w->b) srv_buf_unref(w->b);
  free(w->owned);
  free(w);
  if (c->torn) return;
  if (status < 0) {
    conn_teardown(c);
    return;
  }
  if (!c->inflight && c->close_when_written) {
    conn_teardown(c);
    return;
  }
  if (c->sess && !c->in_dirty) { /* room again: more of the session's queue */
    c->in_dirty = 1;
    c->dirty_next = c->t->dirty;
    c->t->dirty = c;
  }
}

/* Writes owned bytes (taken: freed here, also on failure). */
static int write_owned(tconn *c, char *bytes, size_t len) {
  if (c->torn) {
    free(bytes);
    return -1;
  }
  wreq *w = calloc(1, sizeof *w);
  if (!w) {
    free(bytes);
    return -1;
  }
  w->c = c;
  w->owned = bytes;
  w->bytes = len;
  uv_buf_t buf = uv_buf_init(bytes, (unsigned)len);
  if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &buf, 1, on_written)) {
    free(bytes);
    free(w);
    return -1;
  }
  c->inflight += len;
  return 0;
}

static int write_copy(tconn *c, const void *bytes, size_t len) {
  char *p = malloc(len ? len : 1);
  if (!p) return -1;
  memcpy(p, bytes, len);
  return write_owned(c, p, len);
}

/* A session's message as one text frame: the frame's header is written in place, in the room
 * the buffer keeps before its text (the same bytes for every recipient of a shared buffer).
 * Returns where the frame begins; *len is its length. */
static char *framed(srv_buf *b, size_t *len) {
  uint8_t hdr[10];
  size_t h = srv_ws_header(hdr, SRV_WS_OP_TEXT, b->len);
  unsigned char *at = b->data + SRV_PRE - h;
  memcpy(at, hdr, h);
  *len = h + b->len;
  return (char *)at;
}

/* The frame of a session's message from byte `from` on, through libuv's queue (the socket did
 * not take it all at once). */
static int write_message(tconn *c, srv_buf *b, size_t from) {
  wreq *w = calloc(1, sizeof *w);
  if (!w) return -1;
  size_t len;
  char *frame = framed(b, &len);
  w->c = c;
  w->b = b;
  srv_buf_ref(b);
  w->bytes = len - from;
  uv_buf_t buf = uv_buf_init(frame + from, (unsigned)(len - from));
  if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &buf, 1, on_written)) {
    srv_buf_unref(b);
    free(w);
    return -1;
  }
  c->inflight += w->bytes;
  return 0;
}

/* ---- tearing down ---- */

static void on_closed(uv_handle_t *h) {
  tconn *c = h->data;
  free(c->http);
  free(c->wsr);
  free(c->input);
  free(c->held_text);
  free(c);
}

/* Leaves the game (if any) and the lists; the handle closes and frees the connection. */
static void conn_teardown(tconn *c) {
  if (c->torn) return;
  c->torn = 1;
  transport *t = c->t;
  if (c->sess) {
    srv_server_closed(t->sv, c->sess, srv_clock_now());
    free(c->sess);
    c->sess = NULL;
  }
  if (c->prev)
    c->prev->next = c->next;
  else
    t->conns = c->next;
  if (c->next) c->next->prev = c->prev;
  t->nconns--;
  for (tconn **p = &t->dirty; *p; p = &(*p)->dirty_next)
    if (*p == c) {
      *p = c->dirty_next;
      break;
    }
  for (tconn **p = &t->held; *p; p = &(*p)->held_next)
    if (*p == c) {
      *p = c->held_next;
      break;
    }
  for (think_entry *e = t->thinks; e; e = e->next)
    if (e->conn == c) e->conn = NULL; /* its evaluation goes nowhere */
  if (c->counted) {
    peer_slot *p = peer_find(t, c->peer, 0);
    if (p && p->count > 0 && --p->count == 0) p->tomb = 1;
  }
  uv_close((uv_handle_t *)&c->tcp, on_closed);
}

/* WebSocket: our close frame goes out now (what was queued is dropped); the session leaves at
 * once, and the peer's answering close (or 2 s) ends the connection. */
static void ws_close(tconn *c, int code, const char *why) {
  if (c->closing || c->torn) return;
  c->closing = 1;
  c->closing_ms = srv_clock_now();
  if (c->sess) {
    srv_server_closed(c->t->sv, c->sess, c->closing_ms);
    free(c->sess);
    c->sess = NULL;
  }
  uint8_t f[127];
  size_t n = srv_ws_close_frame(f, code, why);
  if (write_copy(c, f, n)) {
    conn_teardown(c);
    return;
  }
  /* then our half of the connection ends (once the frame is written): the peer sees the end
   * and closes its half; what it still sends meanwhile is read and dropped, so nothing unread
   * turns the close into a reset */
  if (!c->shut && uv_shutdown(&c->shutdown, (uv_stream_t *)&c->tcp, NULL) == 0) c->shut = 1;
}

/* ---- HTTP answers ---- */

/* The security headers of every answer.  The policy allows the one inline style the board
 * writes (chessground sets style="color-scheme:light only" on its SVG layers), by its hash
 * and nothing else; and the compiling of WebAssembly ('wasm-unsafe-eval': the page's rules
 * module, /wasm/arbiter.wasm, never JavaScript's eval). */
#define SECURITY_HEADERS                                                                           \
  "Content-Security-Policy: default-src 'none'; img-src 'self' data:; "                            \
  "script-src 'self' 'wasm-unsafe-eval'; "                                                         \
  "font-src 'self'; style-src 'self' 'unsafe-hashes' "                                             \
  "'sha256-SyXRxMCl6H7Kgy9uTmu1UZqVBsRmMBF4sHRiTO3FQc0='; connect-src 'self' ws: wss:; "           \
  "media-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'\r\n"              \
  "X-Content-Type-Options: nosniff\r\n"                                                            \
  "X-Frame-Options: DENY\r\n"                                                                      \
  "Referrer-Policy: no-referrer\r\n"

/* The whole answer as one malloc'd text in *out (NULL without memory). */
static size_t answer_text(char **out, int status, const char *type, const char *extra,
                          const char *body, size_t len, int keep, int head_only) {
  size_t cap = 1024 + strlen(SECURITY_HEADERS) + (extra ? strlen(extra) : 0) + len;
  char *p = malloc(cap);
  *out = p;
  if (!p) return 0;
  int n =
      snprintf(p, cap,
               "HTTP/1.1 %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n"
               "Cache-Control: %s\r\n" SECURITY_HEADERS "%s%s\r\n",
               status, srv_http_reason(status), type ? type : "application/json", len,
               extra && strstr(extra, "Last-Modified") ? "no-cache" : "no-store",
               keep ? "Connection: keep-alive\r\n" : "Connection: close\r\n", extra ? extra : "");
  size_t total = (size_t)n;
  if (!head_only && len) {
    memcpy(p + total, body, len);
    total += len;
  }
  return total;
}

static void answer(tconn *c, int status, const char *type, const char *extra, const char *body,
                   size_t len, int keep, int head_only) {
  char *text;
  size_t n = answer_text(&text, status, type, extra, body, len, keep, head_only);
  if (!text) {
    conn_teardown(c);
    return;
  }
  if (!keep) c->close_when_written = 1;
  if (write_owned(c, text, n)) conn_teardown(c);
}

static void answer_error(tconn *c, int status, const char *code, const char *message, int keep,
                         int head_only) {
  char *body = srv_write_http_error(code, message);
  if (!body) {
    conn_teardown(c);
    return;
  }
  answer(c, status, "application/json", status == 405 ? "Allow: GET, HEAD, POST\r\n" : NULL, body,
         strlen(body), keep, head_only);
  free(body);
}

/* A JSON answer from a body the caller made (malloc'd, freed here).  No body (out of memory):
 * a 500, and the connection is closed.  Returns what handle_request returns: 1 when the
 * connection is gone, else 0. */
static int answer_json(tconn *c, int status, char *body, int keep, int head_only) {
  if (!body) {
    answer_error(c, 500, "no_resources", "out of memory", 0, head_only);
    return c->torn;
  }
  answer(c, status, "application/json", NULL, body, strlen(body), keep, head_only);
  free(body);
  return 0;
}

static const char *mime_of(const char *path) {
  static const struct {
    const char *ext, *type;
  } types[] = {{".html", "text/html; charset=utf-8"},
               {".js", "text/javascript; charset=utf-8"},
               {".mjs", "text/javascript; charset=utf-8"},
               {".css", "text/css; charset=utf-8"},
               {".svg", "image/svg+xml"},
               {".png", "image/png"},
               {".ico", "image/x-icon"},
               {".json", "application/json"},
               {".wasm", "application/wasm"},
               {".woff2", "font/woff2"},
               {".ogg", "audio/ogg"},
               {".mp3", "audio/mpeg"},
               {".txt", "text/plain; charset=utf-8"},
               {".webmanifest", "application/manifest+json"}};
  const char *dot = strrchr(path, '.');
  for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
    if (!strcmp(dot, types[i].ext)) return types[i].type;
  return "application/octet-stream";
}

/* A static file: the path is refused unless it names a regular file inside the folder once
 * every symbolic link is resolved. */
static void serve_static(tconn *c, const srv_http_request *r, int keep, int head_only) {
  transport *t = c->t;
  const char *uri = r->path;
  if (!t->opt->static_dir || !t->static_real[0] || uri[0] != '/' || strstr(uri, "..") ||
      strchr(uri, '\\') || strchr(uri, '%') || strstr(uri, "//")) {
    answer_error(c, 404, "not_found", "no such page", keep, head_only);
    return;
  }
  if (!strcmp(uri, "/")) uri = "/index.html";
  if (!strncmp(uri, "/game/", 6)) uri = "/game.html";
  if (!strcmp(uri, "/train") || !strncmp(uri, "/train/", 7)) uri = "/train.html";
  if (!strcmp(uri, "/analysis") || !strncmp(uri, "/analysis/", 10)) uri = "/analysis.html";
  char path[PATH_MAX], real[PATH_MAX];
  struct stat st;
  int fd = -1;
  if ((size_t)snprintf(path, sizeof path, "%s%s", t->opt->static_dir, uri) >= sizeof path ||
      !realpath(path, real) || strncmp(real, t->static_real, strlen(t->static_real)) ||
      real[strlen(t->static_real)] != '/' || (fd = open(real, O_RDONLY | O_CLOEXEC)) < 0 ||
      fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > STATIC_MAX) {
    if (fd >= 0) close(fd);
    answer_error(c, 404, "not_found", "no such page", keep, head_only);
    return;
  }
  char modified[64], extra[128];
  struct tm tm;
  gmtime_r(&st.st_mtime, &tm);
  strftime(modified, sizeof modified, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  snprintf(extra, sizeof extra, "Last-Modified: %s\r\n", modified);
  if (r->if_modified_since[0] && !strcmp(r->if_modified_since, modified)) {
    close(fd);
    answer(c, 304, mime_of(real), extra, "", 0, keep, 1);
    return;
  }
  size_t size = (size_t)st.st_size, got = 0;
  char *body = malloc(size ? size : 1);
  while (body && got < size) {
    ssize_t n = read(fd, body + got, size - got);
    if (n <= 0) break;
    got += (size_t)n;
  }
  close(fd);
  if (!body || got != size) {
    free(body);
    answer_error(c, 500, "io", "the file could not be read", 0, head_only);
    return;
  }
  answer(c, 200, mime_of(real), extra, body, size, keep, head_only);
  free(body);
}

/* Does the request's Origin (if any) name this page?  Browsers send Origin with every POST and
 * WebSocket; a client without one is not a browser and is judged by what it sends. */
static int origin_ok(const transport *t, const srv_http_request *r) {
  if (!r->origin[0]) return strcmp(r->fetch_site, "cross-site") != 0;
  if (t->opt->origin) return !strcmp(r->origin, t->opt->origin);
  char want[300];
  snprintf(want, sizeof want, "http://%s", r->host);
  if (!strcmp(r->origin, want)) return 1;
  snprintf(want, sizeof want, "https://%s", r->host);
  return !strcmp(r->origin, want);
}

/* The client's address: behind a trusted proxy on loopback, the last X-Forwarded-For entry. */
static void client_of(tconn *c, const srv_http_request *r) {
  snprintf(c->client, sizeof c->client, "%s", c->peer);
  if (!c->t->opt->trust_proxy || !r->forwarded_for[0] ||
      (strcmp(c->peer, "127.0.0.1") && strcmp(c->peer, "::1")))
    return;
  const char *last = strrchr(r->forwarded_for, ',');
  last = last ? last + 1 : r->forwarded_for;
  while (*last == ' ')
    last++;
  snprintf(c->client, sizeof c->client, "%.63s", last);
}

static void start_ws(tconn *c, const srv_http_request *r, const char *rest, size_t rest_len);

/* An answer that goes out once the store has `ticket` on disk (at once when it has); the body
 * is taken.  Returns 1 when it waits (what the client sends meanwhile waits unread), else 0. */
static int answer_after(tconn *c, uint64_t ticket, int status, char *body, int keep) {
  transport *t = c->t;
  if (!ticket || ticket <= srv_store_durable(t->store)) {
    answer(c, status, "application/json", NULL, body, strlen(body), keep, 0);
    free(body);
    return 0;
  }
  c->held = 1;
  c->held_ticket = ticket;
  c->held_len =
      answer_text(&c->held_text, status, "application/json", NULL, body, strlen(body), keep, 0);
  c->held_keep = keep;
  free(body);
  if (!c->held_text) {
    conn_teardown(c);
    return 1;
  }
  c->held_next = t->held;
  t->held = c;
  return 1;
}

/* ---- the engine pool ---- */

static void release_held(transport *t);

/* On a pool thread: the answer is queued for the loop. */
static void pool_done(void *ctx, const eng_answer *a) {
  transport *t = ctx;
  answer_node *n = malloc(sizeof *n);
  if (!n) return; /* the game's clock decides; an evaluation's connection times out */
  n->a = *a;
  n->next = NULL;
  pthread_mutex_lock(&t->answers_mu);
  if (t->answers_tail)
    t->answers_tail->next = n;
  else
    t->answers = n;
  t->answers_tail = n;
  pthread_mutex_unlock(&t->answers_mu);
  uv_async_send(&t->engine_wake);
}

/* A search that could not be queued is answered at once, through the same way back. */
static void refuse_job(transport *t, uint64_t id, const char *why) {
  eng_answer a;
  memset(&a, 0, sizeof a);
  a.id = id;
  a.status = UCI_START_FAILED;
  snprintf(a.message, sizeof a.message, "%s", why);
  pool_done(t, &a);
}

static think_entry *new_think(transport *t) {
  think_entry *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->id = ++t->next_job;
  e->next = t->thinks;
  t->thinks = e;
  return e;
}

static void io_think(void *ctx, const srv_think *th) {
  transport *t = ctx;
  think_entry *e = new_think(t);
  if (!e) return;
  snprintf(e->game, sizeof e->game, "%s", th->game);
  e->seq = th->seq;
  eng_job j;
  memset(&j, 0, sizeof j);
  j.id = e->id;
  j.game = th->key;
  j.start = *th->start;
  j.moves = th->moves;
  j.nmoves = th->nmoves;
  j.level = th->level;
  j.lim.timed = th->timed;
  j.lim.wtime = th->wtime;
  j.lim.btime = th->btime;
  j.lim.winc = th->winc;
  j.lim.binc = th->binc;
  j.lim.deadline_ms = th->deadline_ms;
  if (!t->pool || eng_pool_submit(t->pool, &j))
    refuse_job(t, e->id, t->pool ? "every engine is busy" : "no engine");
}

static void thought_of(const eng_answer *a, srv_thought *th) {
  memset(th, 0, sizeof *th);
  th->ok = a->status == UCI_OK;
  snprintf(th->uci, sizeof th->uci, "%s", a->result.text);
  th->has_score = a->result.has_score;
  th->mate = a->result.mate;
  th->score = a->result.score;
  th->depth = a->result.depth;
  snprintf(th->pv, sizeof th->pv, "%s", a->result.pv);
  snprintf(th->message, sizeof th->message, "%s",
           a->message[0] ? a->message : uci_status_name(a->status));
}

/* An evaluation's answer to its connection, which waited for it (held, as for the store). */
static void eval_answer(transport *t, think_entry *e, const srv_thought *th) {
  tconn *c = e->conn;
  if (!c || c->torn) return;
  int status;
  char *body = srv_eval_write(e->eval, th, &status);
  if (!body) body = srv_write_http_error("no_resources", "out of memory");
  if (!body) {
    conn_teardown(c);
    return;
  }
  c->held_ticket = 0;
  c->held_len =
      answer_text(&c->held_text, status, "application/json", NULL, body, strlen(body), e->keep, 0);
  c->held_keep = e->keep;
  free(body);
  if (!c->held_text) {
    conn_teardown(c);
    return;
  }
  c->held_next = t->held;
  t->held = c;
  release_held(t);
}

static void on_engine_wake(uv_async_t *h) {
  transport *t = h->data;
  int64_t now = woke(t);
  pthread_mutex_lock(&t->answers_mu);
  answer_node *list = t->answers;
  t->answers = t->answers_tail = NULL;
  pthread_mutex_unlock(&t->answers_mu);
  while (list) {
    answer_node *n = list;
    list = n->next;
    think_entry **pp = &t->thinks, *e;
    while ((e = *pp) && e->id != n->a.id)
      pp = &e->next;
    if (e) {
      *pp = e->next;
      srv_thought th;
      thought_of(&n->a, &th);
      if (e->eval) {
        eval_answer(t, e, &th);
        free(e->eval);
      } else {
        snprintf(th.game, sizeof th.game, "%s", e->game);
        th.seq = e->seq;
        srv_server_thought(t->sv, &th, now);
      }
      free(e);
    }
    free(n);
  }
}

/* GET /api/computer: whether the server has an engine, and its levels. */
static char *computer_json(transport *t) {
  srv_jw w;
  srv_jw_init(&w);
  srv_jw_open(&w, '{');
  srv_jw_key(&w, "engine");
  if (t->opt->engine) {
    const char *slash = strrchr(t->opt->engine, '/');
    srv_jw_str(&w, slash ? slash + 1 : t->opt->engine);
  } else {
    srv_jw_null(&w);
    srv_jw_key(&w, "how");
    srv_jw_str(&w, "This server has no chess engine. Install Stockfish (on Debian: sudo apt "
                   "install stockfish) and start the server again, or start it with "
                   "arbiter serve --engine PATH.");
  }
  srv_jw_key(&w, "levels");
  srv_jw_open(&w, '[');
  for (int l = ENG_LEVEL_MIN; l <= ENG_LEVEL_MAX; l++) {
    const eng_level *lv = eng_level_get(l);
    srv_jw_open(&w, '{');
    srv_jw_key(&w, "level");
    srv_jw_int(&w, l);
    srv_jw_key(&w, "elo");
    srv_jw_int(&w, lv->elo);
    srv_jw_key(&w, "what");
    srv_jw_str(&w, lv->what);
    srv_jw_close(&w, '}');
  }
  srv_jw_close(&w, ']');
  srv_jw_close(&w, '}');
  return srv_jw_take(&w);
}

/* POST /api/engine/eval: the position is read here, searched by the pool (a second, depth 18
 * at most), and the connection waits for the answer. */
static int engine_eval(tconn *c, const srv_http_request *r, int keep) {
  transport *t = c->t;
  srv_eval *ev = malloc(sizeof *ev);
  char *err = NULL;
  if (!ev) {
    answer_error(c, 500, "no_resources", "out of memory", 0, 0);
    return 0;
  }
  int status = srv_eval_read(r->body, r->body_len, ev, &err);
  if (status || ev->over || !t->pool) {
    char *body = status ? err : srv_eval_write(ev, NULL, &status);
    free(ev);
    return answer_json(c, status, body, keep, 0);
  }
  think_entry *e = new_think(t);
  if (!e) {
    free(ev);
    answer_error(c, 500, "no_resources", "out of memory", 0, 0);
    return 0;
  }
  e->conn = c;
  e->keep = keep;
  e->eval = ev;
  eng_job j;
  memset(&j, 0, sizeof j);
  j.id = e->id;
  j.game = 0; /* analysis: a position of its own */
  j.start = ev->start;
  j.moves = ev->moves;
  j.nmoves = ev->nmoves;
  j.level = 0;
  j.lim.movetime = 1000;
  j.lim.depth = 18;
  j.lim.deadline_ms = 5000;
  c->held = 1; /* what the client sends next waits behind the answer */
  c->held_ticket = UINT64_MAX;
  if (eng_pool_submit(t->pool, &j)) refuse_job(t, e->id, "every engine is busy: try again");
  return 1;
}

/* The analysis board's {"game": ID}: the stored game's PGN, as GET /api/games/ID.pgn has it. */
typedef struct analysis_ctx {
  transport *t;
  int64_t now;
} analysis_ctx;

static int analysis_load(void *ctx, const char *id, char **pgn) {
  const analysis_ctx *x = ctx;
  char path[64];
  const char *type;
  snprintf(path, sizeof path, "/api/games/%s.pgn", id);
  *pgn = NULL;
  int status = srv_server_get(x->t->sv, path, x->now, pgn, &type);
  if (status != 200) {
    free(*pgn);
    *pgn = NULL;
  }
  return status;
}

/* One whole request.  Returns 1 when the connection must wait (an answer held for the store,
 * or it became a WebSocket and took the rest), else 0. */
static int handle_request(tconn *c, const srv_http_request *r, int64_t now, const char *rest,
                          size_t rest_len) {
  transport *t = c->t;
  int keep = r->keep_alive && !t->stopping;
  int head = r->method == SRV_HTTP_HEAD;
  client_of(c, r);
  if (r->upgrade) {
    if (r->method != SRV_HTTP_GET) {
      answer_error(c, 400, "bad_request", "a WebSocket opens with GET", 0, 0);
    } else if (r->ws_version != 13) {
      answer(c, 426, "application/json", "Sec-WebSocket-Version: 13\r\n",
             "{\"error\":{\"code\":\"ws_version\",\"message\":\"WebSocket version 13 only\"}}", 70,
             0, 0);
    } else if (!origin_ok(t, r)) {
      answer_error(c, 403, "origin", "a WebSocket from another site's page", 0, 0);
    } else if (t->stopping) {
      answer_error(c, 503, "stopping", "the server is stopping", 0, 0);
    } else {
      start_ws(c, r, rest, rest_len);
      return 1;
    }
    return 0;
  }
  if (!strncmp(r->path, "/api/train/", 11) &&
      (r->method == SRV_HTTP_GET || r->method == SRV_HTTP_POST)) {
    if (r->method == SRV_HTTP_POST && !origin_ok(t, r)) {
      answer_error(c, 403, "origin", "the trainer answers this server's own page", keep, 0);
      return 0;
    }
    char *body = NULL;
    uint64_t ticket = 0;
    int status = t->trainer
                     ? srv_trainer_http(t->trainer, r->method == SRV_HTTP_POST, r->path, r->query,
                                        r->learner, r->body, r->body_len, now, &body, &ticket)
                     : 503;
    if (!body) body = srv_write_http_error("no_trainer", "the trainer is not running");
    if (!body) {
      conn_teardown(c);
      return 1;
    }
    return answer_after(c, ticket, status, body, keep);
  }
  if (!strncmp(r->path, "/api/analysis", 13) && (!r->path[13] || r->path[13] == '/')) {
    /* the analysis board (analysis.c): the laws position by position, the annotated PGN */
    if (r->method != SRV_HTTP_POST) {
      answer_error(c, 405, "method", "POST only", keep, 0);
      return 0;
    }
    if (!origin_ok(t, r)) {
      answer_error(c, 403, "origin", "the analysis board answers this server's own page", keep, 0);
      return 0;
    }
    analysis_ctx ax = {t, now};
    char *body = NULL;
    int status = srv_analysis_http(r->path, r->body, r->body_len, now, analysis_load, &ax, &body);
    return answer_json(c, status, body, keep, 0);
  }
  if (!strcmp(r->path, "/api/lobby") && (r->method == SRV_HTTP_GET || r->method == SRV_HTTP_HEAD)) {
    char *body = NULL;
    int status = srv_lobby_get(t->sv, now, &body);
    return answer_json(c, status, body, keep, head);
  }
  if (!strcmp(r->path, "/api/computer") &&
      (r->method == SRV_HTTP_GET || r->method == SRV_HTTP_HEAD)) {
    return answer_json(c, 200, computer_json(t), keep, head);
  }
  if (!strcmp(r->path, "/api/engine/eval") && r->method == SRV_HTTP_POST) {
    if (!origin_ok(t, r)) {
      answer_error(c, 403, "origin", "the engine answers this server's own page", keep, 0);
      return 0;
    }
    return engine_eval(c, r, keep);
  }
  switch (r->method) {
  case SRV_HTTP_OTHER:
    /* CONNECT, PUT, DELETE...: refused at once; CONNECT's connection is not kept */
    answer_error(c, 405, "method", "GET, HEAD and POST only",
                 keep && strcmp(r->method_text, "CONNECT"), 0);
    return 0;
  case SRV_HTTP_OPTIONS:
    answer(c, 204, "text/plain", "Allow: GET, HEAD, POST\r\n", "", 0, keep, 1);
    return 0;
  case SRV_HTTP_POST: {
    size_t plen = strlen(r->path);
    int join = plen == 11 + SRV_GAME_ID_LEN + 5 && !strncmp(r->path, "/api/games/", 11) &&
               !strcmp(r->path + plen - 5, "/join");
    int cancel = plen == 11 + SRV_GAME_ID_LEN + 7 && !strncmp(r->path, "/api/games/", 11) &&
                 !strcmp(r->path + plen - 7, "/cancel");
    if (join || cancel) {
      if (!origin_ok(t, r)) {
        answer_error(c, 403, "origin", "games are joined from this server's own page", keep, 0);
        return 0;
      }
      char id[SRV_GAME_ID_LEN + 1], *body = NULL;
      memcpy(id, r->path + 11, SRV_GAME_ID_LEN);
      id[SRV_GAME_ID_LEN] = 0;
      int status = join ? srv_lobby_join(t->sv, id, now, &body)
                        : srv_lobby_cancel(t->sv, id, r->body, r->body_len, now, &body);
      return answer_json(c, status, body, keep, 0);
    }
    if (strcmp(r->path, "/api/games")) {
      answer_error(
          c, 404, "not_found",
          "POST /api/games, /api/games/ID/join or /cancel, /api/engine/eval, /api/train/... only",
          keep, 0);
      return 0;
    }
    if (!origin_ok(t, r)) {
      answer_error(c, 403, "origin", "games are made from this server's own page", keep, 0);
      return 0;
    }
    char *body = NULL;
    uint64_t ticket = 0;
    int status = srv_server_create(t->sv, r->body, r->body_len, now, c->client, &body, &ticket);
    if (!body) {
      conn_teardown(c);
      return 1;
    }
    if (status == 201 && ticket > srv_store_durable(t->store)) {
      /* the links are handed out once the game is on disk */
      c->held = 1;
      c->held_ticket = ticket;
      c->held_len =
          answer_text(&c->held_text, status, "application/json", NULL, body, strlen(body), keep, 0);
      c->held_keep = keep;
      free(body);
      if (!c->held_text) {
        conn_teardown(c);
        return 1;
      }
      c->held_next = t->held;
      t->held = c;
      return 1;
    }
    answer(c, status, "application/json", status == 429 ? "Retry-After: 60\r\n" : NULL, body,
           strlen(body), keep, 0);
    free(body);
    return 0;
  }
  default: break;
  }
  /* GET and HEAD */
  if (t->opt->debug_stall_ms > 0 && !strcmp(r->path, "/api/debug/stall")) {
    /* tests only (--debug-stall MS): the loop does nothing else for a while */
    struct timespec ts = {t->opt->debug_stall_ms / 1000,
                          (t->opt->debug_stall_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    answer(c, 200, "application/json", NULL, "{}", 2, keep, head);
    return 0;
  }
  if (!strncmp(r->path, "/api/", 5)) {
    char *body = NULL;
    const char *type = "application/json";
    int status = srv_server_get(t->sv, r->path, now, &body, &type);
    if (!body) {
      answer_error(c, 500, "no_resources", "out of memory", 0, head);
      return 0;
    }
    answer(c, status, type, NULL, body, strlen(body), keep, head);
    free(body);
    return 0;
  }
  serve_static(c, r, keep, head);
  return 0;
}

/* Reads requests from data while none waits; what is left behind a waiting one is kept. */
static void http_input(tconn *c, const char *data, size_t len, int64_t now) {
  while (len && !c->torn && !c->closing && !c->close_when_written) {
    if (c->held) { /* behind an answer that waits: kept, bounded */
      if (c->input_len + len > PENDING_INPUT_MAX) {
        uv_read_stop((uv_stream_t *)&c->tcp);
        c->reading = 0;
        if (c->input_len + len > 2 * PENDING_INPUT_MAX) return; /* more than asked for */
      }
      if (c->input_len + len > c->input_cap) {
        size_t cap = c->input_cap ? c->input_cap : 4096;
        while (cap < c->input_len + len)
          cap *= 2;
        char *in = realloc(c->input, cap);
        if (!in) {
          conn_teardown(c);
          return;
        }
        c->input = in;
        c->input_cap = cap;
      }
      memcpy(c->input + c->input_len, data, len);
      c->input_len += len;
      return;
    }
    if (!srv_http_started(c->http)) c->req_start_ms = now;
    size_t used = 0;
    srv_http_result rc = srv_http_feed(c->http, data, len, &used);
    data += used;
    len -= used;
    if (rc == SRV_HTTP_MORE) return;
    if (rc == SRV_HTTP_ERROR) {
      /* the stream cannot be trusted to be in step after this: answered, then closed */
      answer_error(c, c->http->status,
                   c->http->status == 431   ? "header_too_big"
                   : c->http->status == 413 ? "too_big"
                                            : "bad_request",
                   c->http->error, 0, 0);
      return;
    }
    c->req_start_ms = -1;
    c->idle_since_ms = now;
    int waits = handle_request(c, &c->http->req, now, data, len);
    if (c->torn || c->kind == C_WS) return;
    srv_http_next(c->http);
    if (waits) continue; /* held: the rest is kept above */
  }
}

/* An answer held for the store can go: written, and what waited behind it is read. */
static void release_held(transport *t) {
  uint64_t durable = srv_store_durable(t->store);
  for (tconn **p = &t->held; *p;) {
    tconn *c = *p;
    if (c->held_ticket > durable) {
      p = &c->held_next;
      continue;
    }
    *p = c->held_next;
    c->held = 0;
    char *text = c->held_text;
    c->held_text = NULL;
    if (!c->held_keep) c->close_when_written = 1;
    if (write_owned(c, text, c->held_len)) {
      conn_teardown(c);
      continue;
    }
    if (c->input_len) {
      char *in = c->input;
      size_t n = c->input_len;
      c->input = NULL;
      c->input_len = c->input_cap = 0;
      http_input(c, in, n, stamp(t));
      free(in);
    }
    if (!c->torn && !c->reading && c->kind == C_HTTP && !c->close_when_written) resume_reading(c);
  }
}

/* ---- WebSocket ---- */

static void ws_input(tconn *c, const uint8_t *data, size_t len, int64_t now) {
  transport *t = c->t;
  c->last_rx_ms = now;
  c->pinged = 0;
  while (len && !c->torn) {
    if (c->closing) return; /* after our close, only the peer's close matters */
    size_t used;
    srv_ws_event ev;
    srv_ws_feed(c->wsr, data, len, &used, &ev);
    data += used;
    len -= used;
    switch (ev.kind) {
    case SRV_WS_NONE: return;
    case SRV_WS_FAIL: ws_close(c, ev.code, ev.why); return;
    case SRV_WS_CLOSE: {
      /* answered with the same code, then the connection ends once that is written */
      uint8_t f[127];
      size_t n = srv_ws_close_frame(f, ev.code == SRV_WS_NO_STATUS ? SRV_WS_NORMAL : ev.code, "");
      if (c->sess) {
        srv_server_closed(t->sv, c->sess, now);
        free(c->sess);
        c->sess = NULL;
      }
      c->closing = 1;
      c->closing_ms = now;
      c->close_when_written = 1;
      if (write_copy(c, f, n)) conn_teardown(c);
      return;
    }
    case SRV_WS_PING: {
      uint8_t f[10 + 125];
      size_t h = srv_ws_header(f, SRV_WS_OP_PONG, ev.len);
      memcpy(f + h, ev.data, ev.len);
      if (write_copy(c, f, h + ev.len)) conn_teardown(c);
      break;
    }
    case SRV_WS_PONG: break;
    case SRV_WS_TEXT:
      if (t->stopping || !c->sess) break;
      if (srv_server_message(t->sv, c->sess, ev.data, ev.len, stamp(t)) < 0) {
        ws_close(c, SRV_WS_POLICY, "too many messages");
        return;
      }
      if (c->sess->overflow) {
        ws_close(c, SRV_WS_POLICY, "not reading fast enough");
        return;
      }
      break;
    }
  }
}

static void start_ws(tconn *c, const srv_http_request *r, const char *rest, size_t rest_len) {
  transport *t = c->t;
  char accept[SRV_WS_ACCEPT_LEN + 1];
  if (srv_ws_accept(r->ws_key, accept)) {
    answer_error(c, 400, "bad_request", "Sec-WebSocket-Key is not 16 bytes in base64", 0, 0);
    return;
  }
  char head[256];
  int n =
      snprintf(head, sizeof head,
               "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Accept: %s\r\n\r\n",
               accept);
  if (!(c->wsr = malloc(sizeof *c->wsr)) || !(c->sess = malloc(sizeof *c->sess))) {
    conn_teardown(c);
    return;
  }
  if (write_copy(c, head, (size_t)n)) {
    conn_teardown(c);
    return;
  }
  srv_ws_init(c->wsr);
  int64_t now = srv_clock_now();
  srv_session_init(c->sess, c, now, &t->cfg->limits);
  c->kind = C_WS;
  c->last_rx_ms = now;
  free(c->http);
  c->http = NULL;
  /* the rest of what was read is the first frames (a copy: it points into a buffer that goes) */
  if (rest_len) {
    char *copy = malloc(rest_len);
    if (!copy) {
      conn_teardown(c);
      return;
    }
    memcpy(copy, rest, rest_len);
    ws_input(c, (const uint8_t *)copy, rest_len, stamp(t));
    free(copy);
  }
}

/* ---- reading ---- */

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  (void)suggested;
  tconn *c = h->data;
  *buf = uv_buf_init(c->t->readbuf, sizeof c->t->readbuf);
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf) {
  tconn *c = s->data;
  transport *t = c->t;
  int64_t now = woke(t);
  (void)buf;
  if (n < 0) { /* EOF or an error: the peer is gone */
    conn_teardown(c);
    return;
  }
  if (!n || c->torn) return;
  if (c->kind == C_HTTP)
    http_input(c, t->readbuf, (size_t)n, stamp(t));
  else
    ws_input(c, (const uint8_t *)t->readbuf, (size_t)n, now);
}

static void resume_reading(tconn *c) {
  if (c->torn || c->reading) return;
  if (uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) == 0) c->reading = 1;
}

static void on_connection(uv_stream_t *server, int status) {
  transport *t = server->data;
  int64_t now = woke(t);
  if (status < 0) return;
  tconn *c = calloc(1, sizeof *c);
  if (!c) return;
  c->t = t;
  uv_tcp_init(&t->loop, &c->tcp);
  c->tcp.data = c;
  if (uv_accept(server, (uv_stream_t *)&c->tcp)) {
    uv_close((uv_handle_t *)&c->tcp, on_closed);
    return;
  }
  uv_tcp_nodelay(&c->tcp, 1);
  struct sockaddr_storage ss;
  int len = sizeof ss;
  c->peer[0] = 0;
  if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&ss, &len) == 0) {
    if (ss.ss_family == AF_INET)
      uv_ip4_name((struct sockaddr_in *)&ss, c->peer, sizeof c->peer);
    else if (ss.ss_family == AF_INET6)
      uv_ip6_name((struct sockaddr_in6 *)&ss, c->peer, sizeof c->peer);
  }
  c->next = t->conns;
  if (t->conns) t->conns->prev = c;
  t->conns = c;
  t->nconns++;
  c->req_start_ms = -1;
  c->idle_since_ms = now;
  c->kind = C_HTTP;
  /* limits: in all, and per address (not for a trusted proxy's loopback connections) */
  int loopback_proxy =
      t->opt->trust_proxy && (!strcmp(c->peer, "127.0.0.1") || !strcmp(c->peer, "::1"));
  peer_slot *p = NULL;
  if (!loopback_proxy && t->opt->max_conns_per_ip > 0) {
    if (t->npeers_cap && t->nconns * 2 > t->npeers_cap) peer_rehash(t);
    p = peer_find(t, c->peer, 1);
  }
  static const char busy[] =
      "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
      "Content-Length: 76\r\nConnection: close\r\nRetry-After: 10\r\n\r\n"
      "{\"error\":{\"code\":\"busy\",\"message\":\"too many connections at once\"}}";
  if ((t->opt->max_conns > 0 && t->nconns > (size_t)t->opt->max_conns) ||
      (p && p->count >= t->opt->max_conns_per_ip) || t->stopping) {
    c->close_when_written = 1;
    if (write_copy(c, busy, sizeof busy - 1)) conn_teardown(c);
    return;
  }
  if (p) {
    p->count++;
    p->tomb = 0;
    c->counted = 1;
  }
  if (!(c->http = malloc(sizeof *c->http))) {
    conn_teardown(c);
    return;
  }
  srv_http_init(c->http);
  resume_reading(c);
}

/* ---- what server.c asks of us ---- */

static void io_writable(void *ctx, srv_session *s) {
  transport *t = ctx;
  tconn *c = s->conn;
  if (!c || c->in_dirty || c->torn) return;
  c->in_dirty = 1;
  c->dirty_next = t->dirty;
  t->dirty = c;
}

/* Messages handed to the socket in one writev. */
#define GATHER 64

/* Writes a session's queue.  While nothing of the connection waits in libuv's queue, the
 * messages go straight to the socket, several in one writev (uv_try_write): no write request,
 * no callback, and no change to what the loop polls for — a write through libuv's queue that
 * completes at once still stops its POLLOUT afterwards, and on Linux that costs an epoll_ctl
 * per message even though nothing changed.  What the socket does not take goes through libuv's
 * queue, bounded by the window, and the rest of the queue waits for on_written. */
static void pump_conn(tconn *c) {
  srv_session *s = c->sess;
  while (s->count && c->inflight == 0) {
    uv_buf_t bufs[GATHER];
    size_t n = 0;
    for (; n < GATHER && n < s->count; n++) {
      size_t len;
      char *frame = framed(srv_session_at(s, n), &len);
      bufs[n] = uv_buf_init(frame, (unsigned)len);
    }
    int w = uv_try_write((uv_stream_t *)&c->tcp, bufs, (unsigned)n);
    if (w < 0 && w != UV_EAGAIN) {
      conn_teardown(c);
      return;
    }
    size_t done = w > 0 ? (size_t)w : 0, i = 0;
    for (; i < n && done >= bufs[i].len; i++) {
      done -= bufs[i].len;
      srv_session_pop(s);
    }
    if (i < n) { /* the socket is full: the rest of this one through libuv's queue */
      if (write_message(c, srv_session_peek(s), done)) {
        conn_teardown(c);
        return;
      }
      srv_session_pop(s);
      break;
    }
  }
  srv_buf *b;
  while (c->inflight && c->inflight < WRITE_WINDOW && (b = srv_session_peek(s))) {
    if (write_message(c, b, 0)) {
      conn_teardown(c);
      return;
    }
    srv_session_pop(s);
  }
}

/* Writes what the sessions queued, as far as each socket takes it. */
static void pump(transport *t) {
  while (t->dirty) {
    tconn *c = t->dirty;
    t->dirty = c->dirty_next;
    c->in_dirty = 0;
    if (c->torn || !c->sess || c->closing) continue;
    if (c->sess->overflow) {
      ws_close(c, SRV_WS_POLICY, "not reading fast enough");
      continue;
    }
    pump_conn(c);
  }
}

static void on_game_timer(uv_timer_t *h) {
  game_timer *gt = h->data;
  transport *t = gt->t;
  int64_t now = woke(t);
  /* late (the loop was busy): the messages already waiting may come before the deadline, so
   * they are read first; the timer runs after them, in this iteration's check */
  if (t->prev_iter_ms > STALL_MS || now - gt->due > STALL_MS / 2) {
    if (!gt->is_late) {
      gt->is_late = 1;
      gt->late_next = t->late;
      t->late = gt;
      uv_idle_start(&t->idle, on_idle);
    }
    return;
  }
  srv_server_timer(t->sv, gt->g, now);
}

static void io_arm(void *ctx, struct srv_game *g, int64_t at_ms) {
  transport *t = ctx;
  void **slot = srv_game_timer_slot(g);
  game_timer *gt = *slot;
  if (at_ms == ARB_CLOCK_NEVER) {
    if (gt) uv_timer_stop(&gt->timer);
    return;
  }
  if (!gt) {
    if (!(gt = calloc(1, sizeof *gt))) return;
    gt->t = t;
    gt->g = g;
    uv_timer_init(&t->loop, &gt->timer);
    gt->timer.data = gt;
    *slot = gt;
  }
  gt->due = at_ms;
  int64_t delay = at_ms - srv_clock_now();
  uv_timer_start(&gt->timer, on_game_timer, (uint64_t)(delay > 0 ? delay : 0), 0);
}

static void free_handle(uv_handle_t *h) { free(h->data); }

static void io_forget(void *ctx, struct srv_game *g) {
  transport *t = ctx;
  void **slot = srv_game_timer_slot(g);
  game_timer *gt = *slot;
  if (!gt) return;
  for (game_timer **p = &t->late; *p; p = &(*p)->late_next)
    if (*p == gt) {
      *p = gt->late_next;
      break;
    }
  uv_timer_stop(&gt->timer);
  uv_close((uv_handle_t *)&gt->timer, free_handle);
  *slot = NULL;
}

/* ---- the loop's own callbacks ---- */

static void on_prepare(uv_prepare_t *h) {
  transport *t = h->data;
  int64_t now = woke(t);
  pump(t);
  /* about to wait: this iteration's work is done */
  t->prev_iter_ms = now - t->iter_start;
  t->prev_iter_start = t->iter_start;
  if (t->prev_iter_ms > STALL_MS) t->stalled_ms += t->prev_iter_ms;
  t->in_poll = 1;
}

static void on_idle(uv_idle_t *h) { (void)h; /* only keeps the poll from blocking */ }

static void on_check(uv_check_t *h) {
  transport *t = h->data;
  int64_t now = woke(t);
  if (!t->late) return;
  uv_idle_stop(&t->idle);
  while (t->late) {
    game_timer *gt = t->late;
    t->late = gt->late_next;
    gt->is_late = 0;
    srv_server_timer(t->sv, gt->g, now);
  }
}

static void on_wake(uv_async_t *h) {
  transport *t = h->data;
  woke(t);
  srv_server_release(t->sv);
  release_held(t);
}

/* Every second: the store's heartbeat and eviction (server.c), and every connection's
 * deadlines. */
static void on_sweep(uv_timer_t *h) {
  transport *t = h->data;
  int64_t now = woke(t);
  srv_server_sweep(t->sv, now);
  for (tconn *c = t->conns, *next; c; c = next) {
    next = c->next;
    if (c->torn) continue;
    if (c->kind == C_HTTP) {
      if (c->held) continue; /* waiting for the store, not for the client */
      if (c->req_start_ms >= 0 && now - c->req_start_ms > t->opt->request_timeout_s * 1000LL) {
        char why[96];
        snprintf(why, sizeof why, "the request did not arrive whole within %d s",
                 t->opt->request_timeout_s);
        answer_error(c, 408, "timeout", why, 0, 0);
        c->req_start_ms = -1;
        c->idle_since_ms = now;
      } else if ((c->req_start_ms < 0 && now - c->idle_since_ms > IDLE_HTTP_MS && !c->inflight) ||
                 (c->close_when_written && now - c->idle_since_ms > IDLE_HTTP_MS + CLOSING_MS)) {
        conn_teardown(c);
      }
      continue;
    }
    if (c->closing) {
      if (now - c->closing_ms > CLOSING_MS) conn_teardown(c);
      continue;
    }
    if (c->sess && !c->sess->game && now - c->sess->opened_ms > t->opt->hello_timeout_s * 1000LL) {
      ws_close(c, SRV_WS_POLICY, "say hello first");
      continue;
    }
    if (now - c->last_rx_ms > DROP_AFTER_MS) {
      conn_teardown(c);
    } else if (now - c->last_rx_ms > PING_AFTER_MS && !c->pinged) {
      uint8_t f[2] = {0x80 | SRV_WS_OP_PING, 0};
      c->pinged = 1;
      if (write_copy(c, f, 2)) conn_teardown(c);
    }
  }
  release_held(t);
}

static void on_signal(uv_signal_t *h, int sig) {
  transport *t = h->data;
  (void)sig;
  got_signal = 1;
  t->stopping = 1;
  uv_stop(&t->loop);
}

static void store_woke(void *ctx) { uv_async_send(ctx); }

static void close_walk(uv_handle_t *h, void *arg) {
  (void)arg;
  if (!uv_is_closing(h)) uv_close(h, NULL);
}

/* ---- running ---- */

static int listen_on(transport *t) {
  const srv_options *opt = t->opt;
  struct sockaddr_storage addr;
  if (uv_ip4_addr(opt->host, opt->port, (struct sockaddr_in *)&addr) &&
      uv_ip6_addr(opt->host, opt->port, (struct sockaddr_in6 *)&addr)) {
    fprintf(stderr, "arbiter serve: --host %s is not an IPv4 or IPv6 address\n", opt->host);
    return -1;
  }
  uv_tcp_init(&t->loop, &t->listener);
  t->listener.data = t;
  int rc = uv_tcp_bind(&t->listener, (const struct sockaddr *)&addr, 0);
  if (!rc) rc = uv_listen((uv_stream_t *)&t->listener, 1024, on_connection);
  if (rc) {
    fprintf(stderr, "arbiter serve: cannot listen on %s:%d: %s%s\n", opt->host, opt->port,
            uv_strerror(rc),
            rc == UV_EADDRINUSE ? " (another program, perhaps another arbiter serve, has the port;"
                                  " choose another with --port)"
                                : "");
    return -1;
  }
  return 0;
}

int srv_transport_run(const srv_options *opt, srv_config *cfg, srv_store *store) {
  transport *t = calloc(1, sizeof *t);
  if (!t) return 1;
  t->opt = opt;
  t->cfg = cfg;
  t->store = store;
  int rc = 1;
  if (opt->static_dir && !realpath(opt->static_dir, t->static_real)) t->static_real[0] = 0;
  if (uv_loop_init(&t->loop)) {
    fprintf(stderr, "arbiter serve: no event loop\n");
    free(t);
    return 1;
  }
  if (listen_on(t)) goto out;
  pthread_mutex_init(&t->answers_mu, NULL);
  uv_async_init(&t->loop, &t->engine_wake, on_engine_wake);
  t->engine_wake.data = t;
  if (opt->engine) {
    eng_pool_config pc;
    memset(&pc, 0, sizeof pc);
    pc.engine.cmd = opt->engine;
    pc.size = opt->engines > 0 ? opt->engines : 2;
    char err[200];
    t->pool = eng_pool_new(&pc, pool_done, t, err, sizeof err);
    if (!t->pool) fprintf(stderr, "arbiter serve: no computer opponent: %s\n", err);
  }
  srv_io io = {t, io_writable, io_arm, io_forget, t->pool ? io_think : NULL};
  if (!t->pool) cfg->engine = NULL;
  t->sv = srv_server_new(cfg, &io, store);
  if (!t->sv) goto out;
  long npuzzles = 0, nquiz = 0;
  t->trainer = srv_trainer_new(store, opt->puzzles, opt->quiz, &npuzzles, &nquiz);
  uv_async_init(&t->loop, &t->wake, on_wake);
  t->wake.data = t;
  srv_store_set_wake(store, store_woke, &t->wake);
  uv_prepare_init(&t->loop, &t->prepare);
  t->prepare.data = t;
  uv_prepare_start(&t->prepare, on_prepare);
  uv_check_init(&t->loop, &t->check);
  t->check.data = t;
  uv_check_start(&t->check, on_check);
  uv_idle_init(&t->loop, &t->idle);
  t->idle.data = t;
  uv_timer_init(&t->loop, &t->sweep);
  t->sweep.data = t;
  uv_signal_init(&t->loop, &t->sigterm);
  uv_signal_init(&t->loop, &t->sigint);
  t->sigterm.data = t->sigint.data = t;
  uv_signal_start(&t->sigterm, on_signal, SIGTERM);
  uv_signal_start(&t->sigint, on_signal, SIGINT);
  signal(SIGPIPE, SIG_IGN);
  signal(SIGXFSZ, SIG_IGN); /* a file size limit makes the write fail (and the store says so) */
  long loaded = srv_server_load(t->sv, srv_clock_now());
  if (loaded < 0) {
    fprintf(stderr, "arbiter serve: the stored games cannot be read\n");
    goto out;
  }
  struct sockaddr_storage ss;
  int len = sizeof ss, port = opt->port;
  if (!uv_tcp_getsockname(&t->listener, (struct sockaddr *)&ss, &len))
    port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                          : ((struct sockaddr_in *)&ss)->sin_port);
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
  fprintf(stderr,
          "arbiter serve: listening on http://%s:%d/ (%ld unfinished games resumed; the trainer: "
          "%ld puzzles, %ld quiz items)\n",
          opt->host, port, loaded, npuzzles, nquiz);
  /* the clocks paused while the games loaded run again from now */
  srv_server_resume(t->sv, srv_clock_now());
  uv_timer_start(&t->sweep, on_sweep, 1000, 1000);
  t->in_poll = 1;
  uv_run(&t->loop, UV_RUN_DEFAULT);
  /* stopping: no new connections, no new messages; commit what is queued (a few seconds at
   * most: a disk that refuses leaves those writes unacknowledged), send what waited for it */
  t->stopping = 1;
  uv_close((uv_handle_t *)&t->listener, NULL);
  int stored = srv_store_flush_within(store, 10000) == 0;
  srv_server_release(t->sv);
  release_held(t);
  pump(t);
  for (int i = 0; i < 100; i++) {
    int busy = 0;
    for (tconn *c = t->conns; c; c = c->next)
      busy |= c->inflight > 0;
    if (!busy) break;
    uv_run(&t->loop, UV_RUN_NOWAIT);
    struct timespec ts = {0, 10 * 1000000L};
    nanosleep(&ts, NULL);
  }
  if (stored)
    fprintf(stderr, "arbiter serve: stopped; everything acknowledged is stored\n");
  else
    fprintf(stderr, "arbiter serve: stopped; the database did not take the last writes (they were"
                    " never acknowledged to anyone)\n");
  if (t->stalled_ms > 1000)
    fprintf(stderr,
            "arbiter serve: the loop was stalled for %lld ms in all (given back to the"
            " players)\n",
            (long long)t->stalled_ms);
  rc = stored ? 0 : 1;
  srv_store_set_wake(store, NULL, NULL);
  /* timers first, then the connections (their sessions leave their games), then the games */
  srv_server_forget_timers(t->sv);
  while (t->conns)
    conn_teardown(t->conns);
out:
  eng_pool_free(t->pool); /* its threads end: no answer comes after this */
  t->pool = NULL;
  while (t->answers) {
    answer_node *n = t->answers;
    t->answers = n->next;
    free(n);
  }
  while (t->thinks) {
    think_entry *e = t->thinks;
    t->thinks = e->next;
    free(e->eval);
    free(e);
  }
  uv_walk(&t->loop, close_walk, NULL);
  for (int i = 0; i < 1000 && uv_run(&t->loop, UV_RUN_NOWAIT); i++)
    ;
  srv_server_free(t->sv);
  srv_trainer_free(t->trainer);
  uv_loop_close(&t->loop);
  free(t->peers);
  free(t);
  return rc;
}
