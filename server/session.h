/* Arbiter — MIT licence, see LICENSE.
 *
 * session.h: one WebSocket connection as the game logic sees it — its seat, a token-bucket
 * rate limit and a bounded queue of outbound messages (shared, reference-counted buffers with
 * room in front for the transport's frame header).  No socket in here: the transport owns the
 * connection and drains the queue when it may write.
 */
#ifndef ARB_SERVER_SESSION_H
#define ARB_SERVER_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "jsonw.h"
#include "ratelimit.h"

/* Room before a message's text for the transport's header (libwebsockets' LWS_PRE). */
#define SRV_PRE 32

/* An outbound message shared by every recipient: text at data + SRV_PRE, len bytes. */
typedef struct srv_buf {
  int refs;
  size_t len;
  unsigned char data[];
} srv_buf;

/* Where a buffer's text begins in its allocation. */
#define SRV_BUF_FRONT (offsetof(srv_buf, data) + SRV_PRE)

/* A buffer holding text (len bytes), one reference; NULL without memory. */
srv_buf *srv_buf_new(const char *text, size_t len);
/* A writer begun with srv_jw_init_front(w, SRV_BUF_FRONT, ...) becomes a buffer in place (no
 * copy), one reference; the writer is empty afterwards.  NULL without memory.  (Inline: the
 * protocol's writers use it without the rest of this module.) */
static inline srv_buf *srv_buf_of_jw(srv_jw *w) {
  size_t len;
  if (w->front != SRV_BUF_FRONT) {
    srv_jw_free(w);
    return NULL;
  }
  srv_buf *b = (srv_buf *)(void *)srv_jw_take_whole(w, &len);
  if (!b) return NULL;
  b->refs = 1;
  b->len = len;
  return b;
}
/* Takes malloc'd NUL-terminated text (freed here, also on failure). */
srv_buf *srv_buf_take(char *text);
void srv_buf_ref(srv_buf *b);
void srv_buf_unref(srv_buf *b);

typedef struct srv_limits {
  double rate;        /* messages per second a connection may send on average */
  double burst;       /* ... and at once */
  size_t queue_max;   /* outbound messages waiting; beyond that the connection is closed */
  size_t queue_bytes; /* outbound bytes waiting; likewise */
} srv_limits;

struct srv_game;

#define SRV_SEAT_NONE (-2)       /* before hello */
#define SRV_SESSION_TOKEN_MAX 22 /* SRV_TOKEN_LEN */
#define SRV_SEAT_SPECTATOR (-1)  /* hello without a seat token */

typedef struct srv_session {
  void *conn; /* the transport's handle */
  struct srv_game *game;
  int seat;                        /* SRV_SEAT_NONE, SRV_SEAT_SPECTATOR, or arb_color */
  struct srv_session *prev, *next; /* in the game's list */
  srv_bucket bucket;               /* the message rate */
  srv_buf **q;                     /* ring of outbound messages */
  size_t head, count, cap, bytes;
  int overflow; /* the queue overflowed: the transport closes the connection */
  int64_t opened_ms;
  char token[SRV_SESSION_TOKEN_MAX + 1]; /* the seat's token from hello (memory only) */
} srv_session;

void srv_session_init(srv_session *s, void *conn, int64_t now_ms, const srv_limits *lim);
/* Frees the queued messages (the session itself is the transport's). */
void srv_session_clear(srv_session *s);
/* 1 if one more message may be taken now (and takes a token), 0 if over the rate. */
int srv_session_allow(srv_session *s, int64_t now_ms, const srv_limits *lim);
/* Queues b (taking a reference).  0, or -1 when over the limits (then overflow is set and b is
 * not queued). */
int srv_session_push(srv_session *s, srv_buf *b, const srv_limits *lim);
/* The next message to write, or NULL; pop drops it (and its reference). */
srv_buf *srv_session_peek(const srv_session *s);
/* The i-th message waiting (0 is the next), or NULL. */
srv_buf *srv_session_at(const srv_session *s, size_t i);
void srv_session_pop(srv_session *s);

#endif
