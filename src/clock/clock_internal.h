/* Arbiter — MIT licence, see LICENSE.
 *
 * clock_internal.h (internal): helpers shared by the clock layer's files — an snprintf-style
 * text builder and ASCII character classes that ignore the locale.
 */
#ifndef ARB_CLOCK_INTERNAL_H
#define ARB_CLOCK_INTERNAL_H

#include "arbiter/clock.h"
#include "board/bitboard.h"

/* Text written into a caller's buffer, snprintf convention: `len` counts every byte the full
 * text needs; the buffer always holds a NUL-terminated prefix (when size > 0). */
typedef struct arb__out {
  char *buf;
  size_t size;
  size_t len;
} arb__out;

/* Starts a builder on buf/size (buf may be NULL when size is 0). */
void arb__out_init(arb__out *o, char *buf, size_t size) ARB_HIDDEN;
/* Appends printf-formatted text. */
void arb__outf(arb__out *o, const char *fmt, ...) ARB_HIDDEN __attribute__((format(printf, 2, 3)));
/* Appends n bytes of text. */
void arb__out_bytes(arb__out *o, const char *text, size_t n) ARB_HIDDEN;
/* The length to return (clamped to INT32_MAX-ish int range). */
int arb__out_result(const arb__out *o) ARB_HIDDEN;

/* The text of a comment with its recognised commands taken out: command(ctx, s, n) gives the
 * length of a command it reads at s[0, n) (storing its value), or 0.  The runs of text between
 * removed commands are trimmed of blanks and joined by one blank into o. */
typedef size_t (*arb__command_fn)(void *ctx, const char *s, size_t n);
void arb__strip_commands(const char *text, size_t len, arb__command_fn command, void *ctx,
                         arb__out *o) ARB_HIDDEN;

static inline int arb__is_digit(char c) { return c >= '0' && c <= '9'; }
static inline int arb__is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
static inline char arb__lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

#endif
