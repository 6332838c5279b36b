/* Arbiter — MIT licence, see LICENSE.
 *
 * text.c: the clock layer's snprintf-style text builder.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "clock/clock_internal.h"

void arb__out_init(arb__out *o, char *buf, size_t size) {
  o->buf = size ? buf : NULL;
  o->size = o->buf ? size : 0;
  o->len = 0;
  if (o->size) o->buf[0] = '\0';
}

void arb__out_bytes(arb__out *o, const char *text, size_t n) {
  if (o->len < o->size) {
    size_t room = o->size - 1 - o->len, k = n < room ? n : room;
    memcpy(o->buf + o->len, text, k);
    o->buf[o->len + k] = '\0';
  }
  o->len += n;
}

void arb__outf(arb__out *o, const char *fmt, ...) {
  /* straight into the caller's buffer (vsnprintf keeps the snprintf convention), so items of
   * any length are counted and written whole */
  int room = o->len < o->size;
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(room ? o->buf + o->len : NULL, room ? o->size - o->len : 0, fmt, ap);
  va_end(ap);
  if (n > 0) o->len += (size_t)n;
}

int arb__out_result(const arb__out *o) { return o->len > INT_MAX ? INT_MAX : (int)o->len; }
