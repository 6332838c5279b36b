/* Arbiter — MIT licence, see LICENSE.
 *
 * jsonw.h: a small JSON writer into a growing buffer, for the messages the server sends with
 * every move (writing them through a DOM library cost most of a move's time: bench/serve).
 * The caller writes the structure (keys, commas, braces) in order; strings are escaped here.
 *
 * Ownership: the buffer is the writer's until srv_jw_take hands it over (malloc'd, NUL-
 * terminated).  Without memory the writer notes it and srv_jw_take returns NULL.
 */
#ifndef ARB_SERVER_JSONW_H
#define ARB_SERVER_JSONW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct srv_jw {
  char *buf; /* the text: `front` bytes into the allocation */
  size_t len, cap;
  int failed;
  int first;    /* nothing written yet in the current object or array (no comma needed) */
  size_t front; /* bytes kept before the text (srv_jw_init_front) */
} srv_jw;

void srv_jw_init(srv_jw *w);
/* A writer whose allocation keeps `front` bytes before the text (for a header the taker puts
 * there: session.h's srv_buf), with room for `cap` bytes of text to begin with. */
void srv_jw_init_front(srv_jw *w, size_t front, size_t cap);
void srv_jw_free(srv_jw *w);
/* The text written (the writer is empty afterwards); NULL when memory ran out.  For a writer
 * without front bytes. */
char *srv_jw_take(srv_jw *w);
/* The whole allocation (the text `front` bytes into it, *len bytes and a NUL), the writer
 * empty afterwards; NULL when memory ran out. */
char *srv_jw_take_whole(srv_jw *w, size_t *len);

void srv_jw_raw(srv_jw *w, const char *text, size_t len);
/* "{" / "}" / "[" / "]" */
void srv_jw_open(srv_jw *w, char bracket);
void srv_jw_close(srv_jw *w, char bracket);
/* A key (with the comma before it when needed; a plain name, not escaped) — then exactly one
 * value.  The key functions are inline: a literal key's length is known where it is written. */
void srv_jw_keyn(srv_jw *w, const char *key, size_t n);
static inline void srv_jw_key(srv_jw *w, const char *key) { srv_jw_keyn(w, key, strlen(key)); }
/* Values (with the comma before them inside arrays). */
void srv_jw_str(srv_jw *w, const char *s);
void srv_jw_strn(srv_jw *w, const char *s, size_t n);
/* A string known to need no escaping (FEN, SAN, UCI, ids, the protocol's words), copied. */
void srv_jw_plain(srv_jw *w, const char *s, size_t n);
void srv_jw_int(srv_jw *w, int64_t v);
void srv_jw_bool(srv_jw *w, int v);
void srv_jw_null(srv_jw *w);
/* key + value in one call */
static inline void srv_jw_kstr(srv_jw *w, const char *key, const char *s) {
  srv_jw_key(w, key);
  srv_jw_str(w, s);
}
static inline void srv_jw_kint(srv_jw *w, const char *key, int64_t v) {
  srv_jw_key(w, key);
  srv_jw_int(w, v);
}
static inline void srv_jw_kbool(srv_jw *w, const char *key, int v) {
  srv_jw_key(w, key);
  srv_jw_bool(w, v);
}
/* a string, or null when s is NULL */
static inline void srv_jw_kstr_or_null(srv_jw *w, const char *key, const char *s) {
  srv_jw_key(w, key);
  if (s)
    srv_jw_str(w, s);
  else
    srv_jw_null(w);
}

#endif
