/* Arbiter — MIT licence, see LICENSE.
 *
 * jsonw.c: the JSON writer.  Strings are escaped as RFC 8259 requires: the quote, the
 * backslash and control characters; bytes of 0x80 and above pass through (the server writes
 * only UTF-8 it read or made).
 */
#include "jsonw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void srv_jw_init(srv_jw *w) {
  memset(w, 0, sizeof *w);
  w->first = 1;
}

void srv_jw_init_front(srv_jw *w, size_t front, size_t cap) {
  srv_jw_init(w);
  w->front = front;
  char *base = malloc(front + cap + 1);
  if (!base) {
    w->failed = 1;
    return;
  }
  w->buf = base + front;
  w->cap = cap + 1;
  w->buf[0] = 0;
}

void srv_jw_free(srv_jw *w) {
  free(w->buf ? w->buf - w->front : NULL);
  srv_jw_init(w);
}

char *srv_jw_take(srv_jw *w) {
  if (w->failed || !w->buf || w->front) {
    srv_jw_free(w);
    return NULL;
  }
  char *text = w->buf;
  srv_jw_init(w);
  return text;
}

char *srv_jw_take_whole(srv_jw *w, size_t *len) {
  if (w->failed || !w->buf) {
    srv_jw_free(w);
    return NULL;
  }
  char *base = w->buf - w->front;
  *len = w->len;
  srv_jw_init(w);
  return base;
}

static int room(srv_jw *w, size_t n) {
  if (w->failed) return 0;
  if (w->len + n + 1 <= w->cap) return 1;
  size_t cap = w->cap ? w->cap : 1024;
  while (cap < w->len + n + 1)
    cap *= 2;
  char *b = realloc(w->buf ? w->buf - w->front : NULL, w->front + cap);
  if (!b) {
    w->failed = 1;
    return 0;
  }
  w->buf = b + w->front;
  w->cap = cap;
  return 1;
}

void srv_jw_raw(srv_jw *w, const char *text, size_t len) {
  if (w->len + len + 1 > w->cap && !room(w, len)) return;
  memcpy(w->buf + w->len, text, len);
  w->len += len;
  w->buf[w->len] = 0;
}

/* Bytes a JSON string cannot hold as they are: control characters, the quote, the backslash. */
static const unsigned char needs_escape[256] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                                                1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 1, ['\\'] = 1};

static void comma(srv_jw *w) {
  if (!w->first) srv_jw_raw(w, ",", 1);
  w->first = 0;
}

void srv_jw_open(srv_jw *w, char bracket) {
  comma(w);
  srv_jw_raw(w, &bracket, 1);
  w->first = 1;
}

void srv_jw_close(srv_jw *w, char bracket) {
  srv_jw_raw(w, &bracket, 1);
  w->first = 0;
}

void srv_jw_keyn(srv_jw *w, const char *key, size_t n) {
  /* keys are the protocol's own names: nothing to escape */
  if (w->len + n + 5 > w->cap && !room(w, n + 4)) return;
  char *p = w->buf + w->len;
  if (!w->first) *p++ = ',';
  *p++ = '"';
  memcpy(p, key, n);
  p += n;
  *p++ = '"';
  *p++ = ':';
  *p = 0;
  w->len = (size_t)(p - w->buf);
  w->first = 1; /* the value that follows needs no comma */
}

void srv_jw_plain(srv_jw *w, const char *s, size_t n) {
  comma(w);
  if (w->len + n + 3 > w->cap && !room(w, n + 2)) return;
  char *p = w->buf + w->len;
  *p++ = '"';
  memcpy(p, s, n);
  p += n;
  *p++ = '"';
  *p = 0;
  w->len = (size_t)(p - w->buf);
}

void srv_jw_strn(srv_jw *w, const char *s, size_t n) {
  comma(w);
  if (!room(w, n + 2)) return;
  w->buf[w->len++] = '"';
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!needs_escape[c]) continue; /* most bytes: copied as a run */
    srv_jw_raw(w, s + run, i - run);
    char esc[8];
    int k = c == '"' || c == '\\' ? snprintf(esc, sizeof esc, "\\%c", c)
                                  : snprintf(esc, sizeof esc, "\\u%04x", c);
    srv_jw_raw(w, esc, (size_t)k);
    run = i + 1;
  }
  srv_jw_raw(w, s + run, n - run);
  srv_jw_raw(w, "\"", 1);
}

void srv_jw_str(srv_jw *w, const char *s) { srv_jw_strn(w, s, strlen(s)); }

void srv_jw_int(srv_jw *w, int64_t v) {
  comma(w);
  char n[24], *p = n + sizeof n;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do
    *--p = (char)('0' + u % 10);
  while (u /= 10);
  if (v < 0) *--p = '-';
  srv_jw_raw(w, p, (size_t)(n + sizeof n - p));
}

void srv_jw_bool(srv_jw *w, int v) {
  comma(w);
  srv_jw_raw(w, v ? "true" : "false", v ? 4 : 5);
}

void srv_jw_null(srv_jw *w) {
  comma(w);
  srv_jw_raw(w, "null", 4);
}
