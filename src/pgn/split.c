/* Arbiter — MIT licence, see LICENSE.
 *
 * split.c: a PGN stream cut into pieces at game boundaries (arbiter/pgn.h).  The bytes not yet
 * given out wait in one buffer; a piece is a slice of it, valid until the next call, after which
 * the buffer is compacted.  Where a piece ends is decided from the stream alone: the first
 * boundary at or after `target` bytes, else (none up to `max`) the last line end before `max`.
 */
#include <stdlib.h>
#include <string.h>

#include "arbiter/pgn.h"

struct arb_pgn_splitter {
  size_t target, max;
  char *buf;
  size_t n, cap;  /* buf[0, n): bytes fed and not yet given out, from head on */
  size_t head;    /* buf[0, head): the piece given out last (compacted away at the next call) */
  size_t scanned; /* bytes after head already searched for a boundary without one */
  uint64_t line, offset; /* of buf[head] */
};

arb_pgn_splitter *arb_pgn_splitter_new(size_t target, size_t max) {
  arb_pgn_splitter *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->target = target ? target : ARB_PGN_PIECE_TARGET;
  s->max = max ? max : ARB_PGN_PIECE_MAX;
  if (s->max < s->target) s->max = s->target;
  s->line = 1;
  return s;
}

void arb_pgn_splitter_free(arb_pgn_splitter *s) {
  if (!s) return;
  free(s->buf);
  free(s);
}

/* Forgets the piece given out last. */
static void compact(arb_pgn_splitter *s) {
  if (!s->head) return;
  memmove(s->buf, s->buf + s->head, s->n - s->head);
  s->n -= s->head;
  s->head = 0;
}

arb_status arb_pgn_splitter_feed(arb_pgn_splitter *s, const void *data, size_t len) {
  compact(s);
  if (s->n + len > s->cap) {
    size_t cap = s->cap ? s->cap : 1u << 16;
    while (cap < s->n + len)
      cap *= 2;
    char *b = realloc(s->buf, cap);
    if (!b) return ARB_ERR_NO_MEMORY;
    s->buf = b;
    s->cap = cap;
  }
  if (len) memcpy(s->buf + s->n, data, len);
  s->n += len;
  return ARB_OK;
}

/* A game boundary at p[k]: "[Event " at the start of a line that follows a blank line (LF or
 * CRLF line ends).  p[k, k + 7) must be there. */
static int boundary_at(const char *p, size_t k) {
  return k >= 2 && p[k - 1] == '\n' && memcmp(p + k, "[Event ", 7) == 0 &&
         (p[k - 2] == '\n' || (k >= 3 && p[k - 2] == '\r' && p[k - 3] == '\n'));
}

static uint64_t count_lines(const char *p, size_t n) {
  uint64_t c = 0;
  const char *e = p + n;
  while ((p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
    c++;
    p++;
  }
  return c;
}

int arb_pgn_splitter_next(arb_pgn_splitter *s, int end, arb_pgn_piece *out) {
  compact(s);
  const char *p = s->buf;
  size_t avail = s->n, cut = 0;
  int forced = 0;
  if (avail == 0) return 0;
  if (!end && avail < s->target) return 0;
  /* the first boundary in [target, max] whose "[Event " is all there */
  size_t from = s->scanned > s->target ? s->scanned : s->target;
  size_t last = avail >= 7 ? avail - 7 : 0; /* the last k whose seven bytes are there */
  size_t limit = last < s->max ? last : s->max;
  for (size_t k = from; k <= limit && !cut;) {
    const char *q = memchr(p + k, '[', limit - k + 1);
    if (!q) break;
    k = (size_t)(q - p);
    if (boundary_at(p, k))
      cut = k;
    else
      k++;
  }
  if (!cut) {
    if (!end && last < s->max) { /* more input may bring a boundary within max */
      s->scanned = limit + 1 > from ? limit + 1 : from;
      return 0;
    }
    if (avail <= s->max) {
      cut = avail; /* the end: the rest is the last piece */
    } else {
      forced = 1; /* no boundary: after the last line end in (target, max], or at max */
      cut = s->max;
      for (size_t k = s->max; k > s->target; k--)
        if (p[k - 1] == '\n') {
          cut = k;
          break;
        }
    }
  }
  out->data = p;
  out->len = cut;
  out->first_line = s->line;
  out->offset = s->offset;
  out->forced = (uint8_t)forced;
  s->line += count_lines(p, cut);
  s->offset += cut;
  s->head = cut;
  s->scanned = 0;
  return 1;
}
