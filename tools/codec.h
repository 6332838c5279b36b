/* Arbiter — MIT licence, see LICENSE.
 *
 * codec.h: what the JSON event codecs (referee.c, otb.c) share — colours in JSON, the error the
 * codec answers itself before an event reaches the library, and the frame of every answer.
 */
#ifndef ARB_TOOLS_CODEC_H
#define ARB_TOOLS_CODEC_H

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arbiter/common.h"
#include "arbiter/notation.h"
#include "arbiter/position.h"

static inline const char *codec_color_name(int c) { return c == ARB_WHITE ? "white" : "black"; }

/* "white" / "black" → arb_color, else -1. */
static inline int codec_color_of(json_t *v) {
  const char *s = json_string_value(v);
  if (!s) return -1;
  return !strcmp(s, "white") ? ARB_WHITE : !strcmp(s, "black") ? ARB_BLACK : -1;
}

/* What a codec refuses itself: a code and a message. */
typedef struct codec_error {
  const char *code;
  char message[256];
} codec_error;

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline int
codec_fail(codec_error *err, const char *code, const char *fmt, ...) {
  err->code = code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
  return 0;
}

/* The answer's echo of the event: its "type" and "id". */
static inline void codec_echo(json_t *answer, json_t *event) {
  json_t *type = json_object_get(event, "type");
  json_object_set_new(answer, "type",
                      json_string(json_is_string(type) ? json_string_value(type) : ""));
  json_t *id = json_object_get(event, "id");
  if (id) json_object_set(answer, "id", id);
}

/* "ok", and when not ok the "error" {code, message, line}. */
static inline void codec_status(json_t *answer, int ok, const codec_error *err, long lineno) {
  json_object_set_new(answer, "ok", json_boolean(ok));
  if (ok) return;
  json_t *e = json_object();
  json_object_set_new(e, "code", json_string(err->code ? err->code : "bad_event"));
  json_t *m = json_string(err->message);
  json_object_set_new(e, "message", m ? m : json_string("invalid text in the event"));
  json_object_set_new(e, "line", json_integer(lineno));
  json_object_set_new(answer, "error", e);
}

/* A start's "moves" (SAN or UCI, played from `from`) into out[0, cap): their count in *n, or 0
 * with *err set when the list is not one or a move is not legal where it stands. */
#define CODEC_MOVES_MAX 1024
static inline int codec_read_moves(json_t *moves, const arb_position *from, arb_move *out,
                                   size_t *n, codec_error *err) {
  if (!json_is_array(moves) || json_array_size(moves) > CODEC_MOVES_MAX)
    return codec_fail(err, "bad_event", "\"moves\" must be a list of at most %d moves",
                      CODEC_MOVES_MAX);
  arb_position p = *from;
  for (size_t i = 0; i < json_array_size(moves); i++) {
    json_t *m = json_array_get(moves, i);
    if (!json_is_string(m) ||
        arb_move_read(&p, json_string_value(m), json_string_length(m), 0, &out[i], NULL))
      return codec_fail(err, "illegal_move", "\"moves\"[%zu] is not a legal move", i);
    arb_undo u;
    arb_make_move(&p, out[i], &u);
  }
  *n = json_array_size(moves);
  return 1;
}

#endif
