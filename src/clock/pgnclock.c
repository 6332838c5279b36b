/* Arbiter — MIT licence, see LICENSE.
 *
 * pgnclock.c: the clock commands of PGN comments (PGN supplement 2001, RULES.md Part VII):
 * [%clk h:mm:ss], [%emt ...], [%egt ...], [%mct ...] in and out.
 */
#include <string.h>

#include "clock/clock_internal.h"

/* Reads digits (min..max of them) into *v; returns the count read, or 0 on failure. */
static size_t digits(const char *s, size_t len, size_t min, size_t max, int64_t *v) {
  size_t n = 0;
  int64_t x = 0;
  while (n < len && n < max && arb__is_digit(s[n]))
    x = x * 10 + (s[n++] - '0');
  if (n < min || (n < len && arb__is_digit(s[n]))) return 0;
  *v = x;
  return n;
}

arb_status arb_pgn_clock_read(const char *text, size_t len, int64_t *ms) {
  if (!text || !ms) return ARB_ERR_ARGUMENT;
  int64_t h, m, s, f = 0;
  size_t i = 0, n;
  if (!(n = digits(text, len, 1, 5, &h))) return ARB_ERR_ARGUMENT;
  i += n;
  if (i >= len || text[i++] != ':') return ARB_ERR_ARGUMENT;
  if (!(n = digits(text + i, len - i, 1, 2, &m))) return ARB_ERR_ARGUMENT;
  i += n;
  if (i >= len || text[i++] != ':') return ARB_ERR_ARGUMENT;
  if (!(n = digits(text + i, len - i, 1, 2, &s))) return ARB_ERR_ARGUMENT;
  i += n;
  if (i < len && text[i] == '.') {
    i++;
    int k = 0;
    while (i < len && k < 3 && arb__is_digit(text[i])) {
      f = f * 10 + (text[i++] - '0');
      k++;
    }
    for (; k < 3; k++)
      f *= 10;
  }
  if (i != len) return ARB_ERR_ARGUMENT;
  /* Minutes and seconds may exceed 59 (read leniently, as chessops); the total must still
   * be writable with at most 5 hour digits. */
  int64_t v = ((h * 60 + m) * 60 + s) * 1000 + f;
  if (v > ARB_PGN_CLOCK_MAX_MS) return ARB_ERR_ARGUMENT;
  *ms = v;
  return ARB_OK;
}

int arb_pgn_clock_write(int64_t ms, char *buf, size_t size) {
  arb__out o;
  arb__out_init(&o, buf, size);
  if (ms < 0) ms = 0;
  int64_t s = ms / 1000;
  int frac = (int)(ms % 1000);
  arb__outf(&o, "%lld:%02d:%02d", (long long)(s / 3600), (int)(s / 60 % 60), (int)(s % 60));
  if (frac) {
    char d[4] = {(char)('0' + frac / 100), (char)('0' + frac / 10 % 10), (char)('0' + frac % 10),
                 '\0'};
    int n = 3;
    while (d[n - 1] == '0')
      n--;
    arb__outf(&o, ".%.*s", n, d);
  }
  return arb__out_result(&o);
}

/* The clock command at s[0..len) ("[%name value]"), if it is one we read and its value reads:
 * its length, with the value stored in data. */
static size_t clock_command(const char *s, size_t len, arb_pgn_clock_data *data) {
  static const char *const names[4] = {"clk", "emt", "egt", "mct"};
  if (len < 4 || s[0] != '[' || s[1] != '%') return 0;
  const char *close = memchr(s, ']', len);
  if (!close) return 0;
  size_t end = (size_t)(close - s), i = 2;
  for (int k = 0; k < 4; k++) {
    if (end - i < 3 || memcmp(s + i, names[k], 3) != 0) continue;
    size_t v = i + 3;
    if (v >= end || !arb__is_blank(s[v])) return 0;
    while (v < end && arb__is_blank(s[v]))
      v++;
    size_t ve = end;
    while (ve > v && arb__is_blank(s[ve - 1]))
      ve--;
    int64_t ms;
    if (arb_pgn_clock_read(s + v, ve - v, &ms) != ARB_OK) return 0;
    int64_t *slot[4] = {&data->clk_ms, &data->emt_ms, &data->egt_ms, &data->mct_ms};
    *slot[k] = ms;
    return end + 1;
  }
  return 0;
}

static size_t clock_command_fn(void *ctx, const char *s, size_t n) {
  return clock_command(s, n, ctx);
}

void arb__strip_commands(const char *text, size_t len, arb__command_fn command, void *ctx,
                         arb__out *o) {
  /* Kept text runs between removed commands; blanks next to a removal (and at both ends) are
   * dropped, and two non-empty runs are joined by one blank. */
  size_t seg = 0, i = 0;
  int wrote = 0;
  for (;;) {
    size_t cmd = 0;
    while (i < len && !(text[i] == '[' && (cmd = command(ctx, text + i, len - i))))
      i++;
    size_t a = seg, b = i;
    while (a < b && arb__is_blank(text[a]))
      a++;
    while (b > a && arb__is_blank(text[b - 1]))
      b--;
    if (b > a) {
      if (wrote) arb__out_bytes(o, " ", 1);
      arb__out_bytes(o, text + a, b - a);
      wrote = 1;
    }
    if (i >= len) break;
    i += cmd;
    seg = i;
  }
}

arb_status arb_pgn_comment_clock(const char *comment, size_t len, arb_pgn_clock_data *data,
                                 char *rest, size_t rest_size, size_t *rest_len) {
  arb__out o;
  arb__out_init(&o, rest, rest_size);
  if (rest_len) *rest_len = 0;
  if ((!comment && len) || !data) return ARB_ERR_ARGUMENT;
  data->clk_ms = data->emt_ms = data->egt_ms = data->mct_ms = -1;
  if (!comment) return ARB_OK;
  if (len >= 2 && comment[0] == '{' && comment[len - 1] == '}') {
    comment++;
    len -= 2;
  }
  arb__strip_commands(comment, len, clock_command_fn, data, &o);
  if (rest_len) *rest_len = o.len;
  return ARB_OK;
}

int arb_pgn_comment_clock_write(const arb_pgn_clock_data *data, char *buf, size_t size) {
  arb__out o;
  arb__out_init(&o, buf, size);
  if (!data) return 0;
  static const char *const names[4] = {"clk", "emt", "egt", "mct"};
  const int64_t v[4] = {data->clk_ms, data->emt_ms, data->egt_ms, data->mct_ms};
  int n = 0;
  for (int k = 0; k < 4; k++) {
    if (v[k] < 0) continue;
    char t[32];
    arb_pgn_clock_write(v[k], t, sizeof t);
    arb__outf(&o, "%s[%%%s %s]", n++ ? " " : "", names[k], t);
  }
  return arb__out_result(&o);
}
