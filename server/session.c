/* Arbiter — MIT licence, see LICENSE.
 *
 * session.c: outbound buffers, the per-connection queue and the token bucket.
 */
#include "session.h"

#include <stdlib.h>
#include <string.h>

srv_buf *srv_buf_new(const char *text, size_t len) {
  srv_buf *b = malloc(sizeof *b + SRV_PRE + len + 1);
  if (!b) return NULL;
  b->refs = 1;
  b->len = len;
  memcpy(b->data + SRV_PRE, text, len);
  b->data[SRV_PRE + len] = 0;
  return b;
}

srv_buf *srv_buf_take(char *text) {
  if (!text) return NULL;
  srv_buf *b = srv_buf_new(text, strlen(text));
  free(text);
  return b;
}

void srv_buf_ref(srv_buf *b) { b->refs++; }

void srv_buf_unref(srv_buf *b) {
  if (b && --b->refs == 0) free(b);
}

void srv_session_init(srv_session *s, void *conn, int64_t now_ms, const srv_limits *lim) {
  memset(s, 0, sizeof *s);
  s->conn = conn;
  s->seat = SRV_SEAT_NONE;
  srv_bucket_init(&s->bucket, lim->burst, now_ms);
  s->opened_ms = now_ms;
}

void srv_session_clear(srv_session *s) {
  while (s->count)
    srv_session_pop(s);
  free(s->q);
  s->q = NULL;
  s->cap = 0;
}

int srv_session_allow(srv_session *s, int64_t now_ms, const srv_limits *lim) {
  return srv_bucket_take(&s->bucket, now_ms, lim->rate, lim->burst);
}

int srv_session_push(srv_session *s, srv_buf *b, const srv_limits *lim) {
  if (s->count >= lim->queue_max || s->bytes + b->len > lim->queue_bytes) {
    s->overflow = 1;
    return -1;
  }
  if (s->count == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 8;
    srv_buf **q = malloc(cap * sizeof *q);
    if (!q) {
      s->overflow = 1;
      return -1;
    }
    for (size_t i = 0; i < s->count; i++)
      q[i] = s->q[(s->head + i) % s->cap];
    free(s->q);
    s->q = q;
    s->cap = cap;
    s->head = 0;
  }
  srv_buf_ref(b);
  s->q[(s->head + s->count++) % s->cap] = b;
  s->bytes += b->len;
  return 0;
}

srv_buf *srv_session_peek(const srv_session *s) { return s->count ? s->q[s->head] : NULL; }

srv_buf *srv_session_at(const srv_session *s, size_t i) {
  return i < s->count ? s->q[(s->head + i) % s->cap] : NULL;
}

void srv_session_pop(srv_session *s) {
  if (!s->count) return;
  srv_buf *b = s->q[s->head];
  s->head = (s->head + 1) % s->cap;
  s->count--;
  s->bytes -= b->len;
  srv_buf_unref(b);
}
