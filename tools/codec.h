/* Arbiter — MIT licence, see LICENSE.
 *
 * codec.h: what the JSON event codecs (referee.c, otb.c) share — colours in JSON and the
 * error the codec answers itself before an event reaches the library.
 */
#ifndef ARB_TOOLS_CODEC_H
#define ARB_TOOLS_CODEC_H

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "arbiter/common.h"

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

#endif
