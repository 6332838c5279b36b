/* Arbiter — MIT licence, see LICENSE.
 *
 * commands.c: the comment commands of PGN movetext in structured form — [%clk] and [%emt] (the
 * clock layer's time format), [%eval] (lichess and chessops: pawns or #mate, ",depth"), [%csl]
 * and [%cal] (coloured squares and arrows).  What is not read exactly stays in the text.
 */
#include <string.h>

#include "arbiter/tree.h"
#include "clock/clock_internal.h"

void arb_pgn_commands_clear(arb_pgn_commands *c) {
  c->clk_ms = c->emt_ms = -1;
  c->has_eval = c->eval_mate = 0;
  c->eval = 0;
  c->eval_depth = -1;
  c->nshapes = 0;
}

/* An unsigned number of 1 to max digits at s[*i], stored in *v. */
static int number(const char *s, size_t n, size_t *i, int max, int32_t *v) {
  int k = 0;
  int32_t x = 0;
  while (*i < n && arb__is_digit(s[*i]) && k < max)
    x = x * 10 + (s[(*i)++] - '0'), k++;
  if (k == 0 || (*i < n && arb__is_digit(s[*i]))) return 0;
  *v = x;
  return 1;
}

/* "[%eval" value: "#-3", "0.17", "-1.5", "3", then ",22" optionally (chessops's grammar). */
static int read_eval(const char *s, size_t n, arb_pgn_commands *c) {
  size_t i = 0;
  int mate = 0, neg = 0;
  int32_t whole = 0, frac = 0, depth = -1;
  if (i < n && s[i] == '#') mate = 1, i++;
  if (i < n && (s[i] == '+' || s[i] == '-')) neg = s[i] == '-', i++;
  if (mate) {
    if (!number(s, n, &i, 5, &whole)) return 0;
  } else {
    int have = i < n && arb__is_digit(s[i]);
    if (have && !number(s, n, &i, 5, &whole)) return 0;
    if (i < n && s[i] == '.') {
      i++;
      size_t b = i;
      if (!number(s, n, &i, 2, &frac)) return 0;
      if (i - b == 1) frac *= 10;
    } else if (!have) {
      return 0;
    }
  }
  if (i < n && s[i] == ',') {
    i++;
    if (!number(s, n, &i, 5, &depth)) return 0;
  }
  if (i != n) return 0;
  c->has_eval = 1;
  c->eval_mate = (uint8_t)mate;
  c->eval = (mate ? whole : whole * 100 + frac) * (neg ? -1 : 1);
  c->eval_depth = depth;
  return 1;
}

/* "Ga1,Rb2b5": appended to c's shapes, all or none. */
static int read_shapes(const char *s, size_t n, arb_pgn_commands *c) {
  int k = c->nshapes;
  size_t i = 0;
  for (;;) {
    if (n - i < 3 || !strchr("RGYB", s[i]) || !s[i]) return 0;
    arb_pgn_shape sh;
    sh.color = s[i];
    if (s[i + 1] < 'a' || s[i + 1] > 'h' || s[i + 2] < '1' || s[i + 2] > '8') return 0;
    sh.from = sh.to = ARB_SQUARE(s[i + 1] - 'a', s[i + 2] - '1');
    i += 3;
    if (n - i >= 2 && s[i] >= 'a' && s[i] <= 'h' && s[i + 1] >= '1' && s[i + 1] <= '8') {
      sh.to = ARB_SQUARE(s[i] - 'a', s[i + 1] - '1');
      i += 2;
    }
    if (k == ARB_PGN_MAX_SHAPES) return 0;
    c->shapes[k++] = sh;
    if (i == n) break;
    if (s[i++] != ',') return 0;
  }
  c->nshapes = k;
  return 1;
}

/* The command at s[0, n) ("[%name value]"), if it is one read here and its slot is free: its
 * length, with the value stored in c; else 0. */
static size_t command_at(const char *s, size_t n, arb_pgn_commands *c) {
  if (n < 4 || s[0] != '[' || s[1] != '%') return 0;
  const char *close = memchr(s, ']', n);
  if (!close) return 0;
  size_t end = (size_t)(close - s);
  static const char *const names[5] = {"clk", "emt", "eval", "csl", "cal"};
  for (int k = 0; k < 5; k++) {
    size_t nl = strlen(names[k]), v = 2 + nl;
    if (end < v + 1 || memcmp(s + 2, names[k], nl) != 0 || !arb__is_blank(s[v])) continue;
    while (v < end && arb__is_blank(s[v]))
      v++;
    size_t ve = end;
    while (ve > v && arb__is_blank(s[ve - 1]))
      ve--;
    int ok = 0;
    if (k < 2) {
      int64_t *slot = k == 0 ? &c->clk_ms : &c->emt_ms, ms;
      ok = *slot < 0 && arb_pgn_clock_read(s + v, ve - v, &ms) == ARB_OK;
      if (ok) *slot = ms;
    } else if (k == 2) {
      ok = !c->has_eval && read_eval(s + v, ve - v, c);
    } else {
      ok = read_shapes(s + v, ve - v, c);
    }
    return ok ? end + 1 : 0;
  }
  return 0;
}

static size_t command_fn(void *ctx, const char *s, size_t n) { return command_at(s, n, ctx); }

arb_status arb_pgn_commands_read(const char *text, size_t len, arb_pgn_commands *c, char *rest,
                                 size_t rest_size, size_t *rest_len) {
  arb__out o;
  arb__out_init(&o, rest, rest_size);
  if (rest_len) *rest_len = 0;
  if (!c || (!text && len)) return ARB_ERR_ARGUMENT;
  arb__strip_commands(text, len, command_fn, c, &o);
  if (rest_len) *rest_len = o.len;
  return ARB_OK;
}

static void put_shapes(arb__out *o, const arb_pgn_commands *c, int arrows, int *n) {
  int first = 1;
  for (int i = 0; i < c->nshapes; i++) {
    const arb_pgn_shape *s = &c->shapes[i];
    if ((s->from != s->to) != arrows) continue;
    if (first) arb__outf(o, "%s[%%%s ", (*n)++ ? " " : "", arrows ? "cal" : "csl");
    arb__outf(o, "%s%c%c%c", first ? "" : ",", s->color, 'a' + ARB_FILE_OF(s->from),
              '1' + ARB_RANK_OF(s->from));
    if (arrows) arb__outf(o, "%c%c", 'a' + ARB_FILE_OF(s->to), '1' + ARB_RANK_OF(s->to));
    first = 0;
  }
  if (!first) arb__out_bytes(o, "]", 1);
}

int arb_pgn_commands_write(const arb_pgn_commands *c, char *buf, size_t size) {
  arb__out o;
  arb__out_init(&o, buf, size);
  if (!c) return 0;
  int n = 0;
  put_shapes(&o, c, 0, &n);
  put_shapes(&o, c, 1, &n);
  if (c->has_eval) {
    int32_t v = c->eval, a = v < 0 ? -v : v;
    if (c->eval_mate)
      arb__outf(&o, "%s[%%eval #%d", n++ ? " " : "", (int)v);
    else
      arb__outf(&o, "%s[%%eval %s%d.%02d", n++ ? " " : "", v < 0 ? "-" : "", (int)(a / 100),
                (int)(a % 100));
    if (c->eval_depth >= 0) arb__outf(&o, ",%d", (int)c->eval_depth);
    arb__out_bytes(&o, "]", 1);
  }
  const int64_t t[2] = {c->emt_ms, c->clk_ms};
  for (int k = 0; k < 2; k++) {
    if (t[k] < 0) continue;
    char clk[32];
    arb_pgn_clock_write(t[k], clk, sizeof clk);
    arb__outf(&o, "%s[%%%s %s]", n++ ? " " : "", k == 0 ? "emt" : "clk", clk);
  }
  return arb__out_result(&o);
}
