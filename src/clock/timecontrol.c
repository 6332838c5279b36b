/* Arbiter — MIT licence, see LICENSE.
 *
 * timecontrol.c: time controls — validation, the PGN TimeControl tag and the human grammar in
 * and out (grammars in clock.h), model names, the period of a move, lichess lag quotas and
 * speed categories.
 *
 * Both parsers share one cursor (tc_parser) and one number reader: a NUMBER is digits with an
 * optional fraction, turned into milliseconds exactly (integer arithmetic; a value that is not a
 * whole number of milliseconds is an error, never rounded).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "clock/clock_internal.h"

#define MS_SECOND INT64_C(1000)
#define MS_MINUTE INT64_C(60000)
#define MS_HOUR INT64_C(3600000)

/* ---- validation ---- */

static int period_ok(const arb_tc_period *p) {
  if (p->time_ms < 0 || p->time_ms > ARB_TC_MAX_MS) return 0;
  if (p->increment_ms < 0 || p->increment_ms > ARB_TC_MAX_MS) return 0;
  if (p->delay_ms < 0 || p->delay_ms > ARB_TC_MAX_MS) return 0;
  if (p->delay_kind > ARB_DELAY_BRONSTEIN) return 0;
  if ((p->delay_kind == ARB_DELAY_NONE) != (p->delay_ms == 0)) return 0;
  return p->moves <= ARB_TC_MAX_MOVES;
}

arb_status arb_tc_validate(const arb_time_control *tc) {
  if (!tc || tc->model >= ARB_MODEL_COUNT || tc->bronstein_flag_at_main > 1)
    return ARB_ERR_ARGUMENT;
  switch (tc->kind) {
  case ARB_TC_UNKNOWN:
  case ARB_TC_NONE: return tc->nperiods == 0 ? ARB_OK : ARB_ERR_ARGUMENT;
  case ARB_TC_SANDCLOCK: {
    const arb_tc_period *p = &tc->periods[0];
    return tc->nperiods == 1 && p->time_ms > 0 && p->time_ms <= ARB_TC_MAX_MS && !p->moves &&
                   !p->increment_ms && !p->delay_ms && !p->delay_kind
               ? ARB_OK
               : ARB_ERR_ARGUMENT;
  }
  case ARB_TC_PERIODS:
    if (tc->nperiods < 1 || tc->nperiods > ARB_TC_MAX_PERIODS) return ARB_ERR_ARGUMENT;
    for (int i = 0; i < tc->nperiods; i++) {
      if (!period_ok(&tc->periods[i])) return ARB_ERR_ARGUMENT;
      if (i + 1 < tc->nperiods && tc->periods[i].moves == 0) return ARB_ERR_ARGUMENT;
    }
    return ARB_OK;
  default: return ARB_ERR_ARGUMENT;
  }
}

int arb_tc_period_of_move(const arb_time_control *tc, uint32_t move) {
  if (!tc || tc->kind != ARB_TC_PERIODS || tc->nperiods < 1 || move == 0) return 0;
  int n = tc->nperiods > ARB_TC_MAX_PERIODS ? ARB_TC_MAX_PERIODS : tc->nperiods;
  uint64_t first = 1; /* first move number of period i */
  for (int i = 0; i < n; i++) {
    uint32_t m = tc->periods[i].moves;
    if (m == 0 || move < first + m) return i;
    if (i == n - 1) return i; /* the last period repeats */
    first += m;
  }
  return n - 1;
}

/* ---- model names ---- */

static const char *const model_names[ARB_MODEL_COUNT] = {"after_move", "before_move", "online"};

const char *arb_clock_model_name(arb_clock_model model) {
  return (unsigned)model < ARB_MODEL_COUNT ? model_names[model] : "";
}

arb_status arb_clock_model_parse(const char *name, arb_clock_model *out) {
  if (!name || !out) return ARB_ERR_ARGUMENT;
  for (int i = 0; i < ARB_MODEL_COUNT; i++)
    if (!strcmp(name, model_names[i])) {
      *out = (arb_clock_model)i;
      return ARB_OK;
    }
  return ARB_ERR_ARGUMENT;
}

/* ---- lag quota (scalachess LagTracker.init) ---- */

arb_lag_quota arb_tc_lag_quota(const arb_time_control *tc) {
  arb_lag_quota q = {0, 0, 0};
  if (!tc || tc->nperiods < 1 || (tc->kind != ARB_TC_PERIODS && tc->kind != ARB_TC_SANDCLOCK))
    return q;
  /* Clock.Config.estimateTotalSeconds = limitSeconds + 40 * incrementSeconds (whole seconds). */
  int64_t est = tc->periods[0].time_ms / 1000 + 40 * (tc->periods[0].increment_ms / 1000);
  int64_t gain = est * 2 / 5 + 15;
  if (gain > 100) gain = 100;
  q.gain_cs = (int32_t)gain;
  q.initial_cs = q.gain_cs * 3;
  q.max_cs = q.gain_cs * 7;
  return q;
}

arb_lag_tracker arb_lag_tracker_init(const arb_time_control *tc) {
  arb_lag_quota q = arb_tc_lag_quota(tc);
  arb_lag_tracker t = {(int64_t)q.initial_cs * 10, (int64_t)q.gain_cs * 10, (int64_t)q.max_cs * 10};
  return t;
}

int64_t arb_lag_credit(arb_lag_tracker *t, int64_t lag_ms) {
  int64_t comp = lag_ms < 0 ? 0 : lag_ms < t->quota_ms ? lag_ms : t->quota_ms;
  int64_t q = t->quota_ms + t->gain_ms - comp;
  t->quota_ms = q < t->max_ms ? q : t->max_ms;
  return comp;
}

int64_t arb_lag_grace(const arb_lag_tracker *t) { return t->quota_ms < 2000 ? t->quota_ms : 2000; }

/* ---- speed category (lichess: initial + 40 x increment; clock.h) ---- */

int64_t arb_tc_estimated_seconds(const arb_time_control *tc) {
  if (arb_tc_validate(tc) != ARB_OK || tc->kind == ARB_TC_NONE || tc->kind == ARB_TC_UNKNOWN)
    return -1;
  const arb_tc_period *p = &tc->periods[0];
  /* whole seconds of each amount, as lichess keeps them; a delay is an increment here */
  return p->time_ms / 1000 + 40 * ((p->increment_ms + p->delay_ms) / 1000);
}

arb_speed arb_tc_speed(const arb_time_control *tc) {
  if (tc && tc->kind == ARB_TC_NONE && arb_tc_validate(tc) == ARB_OK)
    return ARB_SPEED_CORRESPONDENCE;
  int64_t e = arb_tc_estimated_seconds(tc);
  if (e < 0) return ARB_SPEED_UNKNOWN;
  static const int64_t below[] = {30, 180, 480, 1500, 21600};
  for (int i = 0; i < 5; i++)
    if (e < below[i]) return (arb_speed)(ARB_SPEED_ULTRABULLET + i);
  return ARB_SPEED_CORRESPONDENCE;
}

const char *arb_speed_name(arb_speed speed) {
  static const char *const names[ARB_SPEED_COUNT] = {
      "unknown", "ultrabullet", "bullet", "blitz", "rapid", "classical", "correspondence"};
  return (unsigned)speed < ARB_SPEED_COUNT ? names[speed] : "unknown";
}

/* ---- parsing ---- */

typedef struct tc_parser {
  const char *s;
  size_t len, pos;
  arb_tc_report *rep;
} tc_parser;

static arb_status fail(tc_parser *p, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static arb_status fail(tc_parser *p, size_t col, const char *fmt, ...) {
  if (p->rep) {
    p->rep->column = (int)(col > (size_t)INT32_MAX ? INT32_MAX : col);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->rep->message, sizeof p->rep->message, fmt, ap);
    va_end(ap);
  }
  return ARB_ERR_TC_SYNTAX;
}

static int at_end(const tc_parser *p) { return p->pos >= p->len; }
static char peek(const tc_parser *p) { return p->pos < p->len ? p->s[p->pos] : '\0'; }
static char peek_at(const tc_parser *p, size_t k) {
  return p->pos + k < p->len ? p->s[p->pos + k] : '\0';
}
static void skip_blanks(tc_parser *p) {
  while (p->pos < p->len && arb__is_blank(p->s[p->pos]))
    p->pos++;
}

/* Describes the character at pos for an error message. */
static const char *char_desc(const tc_parser *p, char *buf, size_t size) {
  if (at_end(p)) return "the end of the text";
  unsigned char c = (unsigned char)p->s[p->pos];
  if (c >= 0x20 && c < 0x7f)
    snprintf(buf, size, "'%c'", (char)c);
  else
    snprintf(buf, size, "byte 0x%02x", c);
  return buf;
}

/* A NUMBER: digits [ "." digits ].  *ip = integer part, *fp / *fscale = fraction (fscale a power
 * of ten, 1 when there is none).  Leading zeros are fine; at most 15 integer digits and 9
 * fraction digits (beyond that the amount is too large or too precise anyway). */
static arb_status read_number(tc_parser *p, int64_t *ip, int64_t *fp, int64_t *fscale,
                              const char *what) {
  size_t start = p->pos;
  int64_t v = 0;
  int digits = 0;
  while (arb__is_digit(peek(p))) {
    if (++digits > 15) return fail(p, start, "%s is too large", what);
    v = v * 10 + (peek(p) - '0');
    p->pos++;
  }
  int64_t f = 0, scale = 1;
  if (peek(p) == '.' && arb__is_digit(peek_at(p, 1))) {
    if (!digits) return fail(p, p->pos, "expected a digit before '.'");
    p->pos++;
    int fd = 0;
    while (arb__is_digit(peek(p))) {
      if (++fd > 9) return fail(p, p->pos, "too many decimals in %s", what);
      f = f * 10 + (peek(p) - '0');
      scale *= 10;
      p->pos++;
    }
  }
  if (!digits) {
    char b[16];
    return fail(p, start, "expected %s, found %s", what, char_desc(p, b, sizeof b));
  }
  *ip = v;
  *fp = f;
  *fscale = scale;
  return ARB_OK;
}

/* ip + fp/fscale units of unit_ms, exactly, bounded by ARB_TC_MAX_MS. */
static arb_status to_ms(tc_parser *p, size_t col, int64_t ip, int64_t fp, int64_t fscale,
                        int64_t unit_ms, const char *what, int64_t *out) {
  if (ip > ARB_TC_MAX_MS / unit_ms) return fail(p, col, "%s is too large", what);
  int64_t frac = fp * unit_ms; /* < 10^9 * 3.6 * 10^6: no overflow */
  if (frac % fscale) return fail(p, col, "%s is not a whole number of milliseconds", what);
  int64_t v = ip * unit_ms + frac / fscale;
  if (v > ARB_TC_MAX_MS) return fail(p, col, "%s is too large", what);
  *out = v;
  return ARB_OK;
}

/* An optional unit at pos (blanks before it allowed): its length in ms, or 0 (pos unchanged). */
static int64_t read_unit(tc_parser *p) {
  size_t save = p->pos;
  skip_blanks(p);
  char a = arb__lower(peek(p)), b = arb__lower(peek_at(p, 1)), c = arb__lower(peek_at(p, 2));
  if (a == 'h') {
    p->pos += 1;
    return MS_HOUR;
  }
  if (a == 'm' && b == 's') {
    p->pos += 2;
    return 1;
  }
  if (a == 'm' && b == 'i' && c == 'n') {
    p->pos += 3;
    return MS_MINUTE;
  }
  if (a == 'm') {
    p->pos += 1;
    return MS_MINUTE;
  }
  if (a == 's') {
    p->pos += 1;
    return MS_SECOND;
  }
  p->pos = save;
  return 0;
}

/* Human DURATION := NUMBER [ UNIT { NUMBER UNIT } ]; a bare NUMBER is in default_ms units. */
static arb_status read_duration(tc_parser *p, int64_t default_ms, const char *what, int64_t *out) {
  size_t col = p->pos;
  int64_t ip = 0, fp = 0, sc = 1, v = 0;
  arb_status st = read_number(p, &ip, &fp, &sc, what);
  if (st != ARB_OK) return st;
  int64_t unit = read_unit(p);
  if (!unit) return to_ms(p, col, ip, fp, sc, default_ms, what, out);
  if ((st = to_ms(p, col, ip, fp, sc, unit, what, &v)) != ARB_OK) return st;
  int64_t total = v;
  for (;;) {
    size_t save = p->pos;
    skip_blanks(p);
    if (!arb__is_digit(peek(p))) {
      p->pos = save;
      break;
    }
    size_t part = p->pos;
    if ((st = read_number(p, &ip, &fp, &sc, what)) != ARB_OK) return st;
    if (!(unit = read_unit(p)))
      return fail(p, part, "a unit (h, m, s or ms) must follow each number in %s", what);
    if ((st = to_ms(p, part, ip, fp, sc, unit, what, &v)) != ARB_OK) return st;
    if (v > ARB_TC_MAX_MS - total) return fail(p, col, "%s is too large", what);
    total += v;
  }
  *out = total;
  return ARB_OK;
}

/* A move count: 1 .. ARB_TC_MAX_MOVES, no fraction. */
static arb_status read_moves(tc_parser *p, uint32_t *out) {
  size_t col = p->pos;
  int64_t v = 0;
  int digits = 0;
  while (arb__is_digit(peek(p))) {
    if (++digits > 9)
      return fail(p, col, "too many moves in a period (at most %u)", ARB_TC_MAX_MOVES);
    v = v * 10 + (peek(p) - '0');
    p->pos++;
  }
  if (!digits) return fail(p, col, "expected a number of moves");
  if (v == 0) return fail(p, col, "a period needs at least one move");
  if (v > ARB_TC_MAX_MOVES)
    return fail(p, col, "too many moves in a period (at most %u)", ARB_TC_MAX_MOVES);
  *out = (uint32_t)v;
  return ARB_OK;
}

/* 1 if the text from pos is digits, optional blanks, then '/'. */
static int moves_prefix_ahead(const tc_parser *p) {
  size_t i = p->pos;
  if (i >= p->len || !arb__is_digit(p->s[i])) return 0;
  while (i < p->len && arb__is_digit(p->s[i]))
    i++;
  while (i < p->len && arb__is_blank(p->s[i]))
    i++;
  return i < p->len && p->s[i] == '/';
}

/* Case-insensitive keyword at pos. */
static int keyword_ahead(const tc_parser *p, const char *kw) {
  size_t n = strlen(kw);
  if (p->len - p->pos < n) return 0;
  for (size_t i = 0; i < n; i++)
    if (arb__lower(p->s[p->pos + i]) != kw[i]) return 0;
  return 1;
}

static arb_status check_no_nul(tc_parser *p) {
  const char *z = memchr(p->s, '\0', p->len);
  return z ? fail(p, (size_t)(z - p->s), "NUL byte in the time control") : ARB_OK;
}

/* "-" or "?" as the whole (trimmed) text: sets kind and returns 1. */
static int special_form(tc_parser *p, arb_time_control *tc) {
  char c = peek(p);
  if (c != '-' && c != '?') return 0;
  size_t save = p->pos;
  p->pos++;
  skip_blanks(p);
  if (!at_end(p)) {
    p->pos = save;
    return 0;
  }
  tc->kind = c == '-' ? ARB_TC_NONE : ARB_TC_UNKNOWN;
  return 1;
}

static arb_status check_last_only(tc_parser *p, const arb_time_control *tc, const size_t *cols) {
  for (int i = 0; i + 1 < tc->nperiods; i++)
    if (tc->periods[i].moves == 0)
      return fail(p, cols[i],
                  "period %d has no move count, so it never ends: only the last period may "
                  "be without one",
                  i + 1);
  return ARB_OK;
}

static arb_status parse_human(tc_parser *p, arb_time_control *tc) {
  arb_status st;
  char b[16];
  if (special_form(p, tc)) return ARB_OK;
  if (peek(p) == '*') {
    p->pos++;
    skip_blanks(p);
    size_t col = p->pos;
    if ((st = read_duration(p, MS_MINUTE, "the sand clock time", &tc->periods[0].time_ms)) !=
        ARB_OK)
      return st;
    if (tc->periods[0].time_ms == 0) return fail(p, col, "a sand clock needs some time");
    skip_blanks(p);
    if (!at_end(p))
      return fail(p, p->pos, "unexpected %s after the sand clock time (it is the whole control)",
                  char_desc(p, b, sizeof b));
    tc->kind = ARB_TC_SANDCLOCK;
    tc->nperiods = 1;
    return ARB_OK;
  }
  size_t cols[ARB_TC_MAX_PERIODS];
  tc->kind = ARB_TC_PERIODS;
  for (;;) {
    skip_blanks(p);
    if (tc->nperiods == ARB_TC_MAX_PERIODS)
      return fail(p, p->pos, "more than %d periods", ARB_TC_MAX_PERIODS);
    arb_tc_period *per = &tc->periods[tc->nperiods];
    cols[tc->nperiods] = p->pos;
    if (keyword_ahead(p, "g/"))
      p->pos += 2;
    else if (keyword_ahead(p, "sd/"))
      p->pos += 3;
    else if (moves_prefix_ahead(p)) {
      if ((st = read_moves(p, &per->moves)) != ARB_OK) return st;
      skip_blanks(p);
      p->pos++; /* '/' */
    }
    skip_blanks(p);
    if ((st = read_duration(p, MS_MINUTE, "the period's time", &per->time_ms)) != ARB_OK) return st;
    int have_inc = 0;
    for (;;) {
      skip_blanks(p);
      size_t col = p->pos;
      char c = arb__lower(peek(p));
      if (c == '+' || c == ';') {
        p->pos++;
        skip_blanks(p);
        char k = arb__lower(peek(p));
        if (k != 'd' && k != 'b') {
          if (c == ';')
            return fail(p, p->pos, "expected 'd' (delay) or 'b' (Bronstein) after ';', found %s",
                        char_desc(p, b, sizeof b));
          if (have_inc) return fail(p, col, "a second increment in one period");
          if ((st = read_duration(p, MS_SECOND, "the increment", &per->increment_ms)) != ARB_OK)
            return st;
          have_inc = 1;
          continue;
        }
        c = k;
        col = p->pos;
      }
      if (c == 'd' || c == 'b') {
        if (per->delay_kind != ARB_DELAY_NONE) return fail(p, col, "a second delay in one period");
        p->pos++;
        skip_blanks(p);
        if ((st = read_duration(p, MS_SECOND, "the delay", &per->delay_ms)) != ARB_OK) return st;
        if (per->delay_ms == 0)
          per->delay_kind = ARB_DELAY_NONE; /* "d0": no delay */
        else
          per->delay_kind = c == 'd' ? ARB_DELAY_SIMPLE : ARB_DELAY_BRONSTEIN;
        continue;
      }
      break;
    }
    tc->nperiods++;
    if (at_end(p)) break;
    if (peek(p) != ',')
      return fail(p, p->pos, "unexpected %s (periods are separated by ',')",
                  char_desc(p, b, sizeof b));
    p->pos++;
  }
  return check_last_only(p, tc, cols);
}

/* PGN seconds: NUMBER, no units. */
static arb_status read_seconds(tc_parser *p, const char *what, int64_t *out) {
  size_t col = p->pos;
  int64_t ip = 0, fp = 0, sc = 1;
  arb_status st = read_number(p, &ip, &fp, &sc, what);
  if (st != ARB_OK) return st;
  return to_ms(p, col, ip, fp, sc, MS_SECOND, what, out);
}

static arb_status parse_pgn(tc_parser *p, arb_time_control *tc) {
  arb_status st;
  char b[16];
  if (special_form(p, tc)) return ARB_OK;
  size_t cols[ARB_TC_MAX_PERIODS];
  for (;;) {
    size_t col = p->pos;
    if (peek(p) == '*') {
      if (tc->nperiods) return fail(p, col, "a sand clock (*) must be the whole time control");
      p->pos++;
      if ((st = read_seconds(p, "the sand clock seconds", &tc->periods[0].time_ms)) != ARB_OK)
        return st;
      if (tc->periods[0].time_ms == 0) return fail(p, col + 1, "a sand clock needs some time");
      if (!at_end(p))
        return fail(p, p->pos, "unexpected %s: a sand clock (*) must be the whole time control",
                    char_desc(p, b, sizeof b));
      tc->kind = ARB_TC_SANDCLOCK;
      tc->nperiods = 1;
      return ARB_OK;
    }
    if (tc->nperiods == ARB_TC_MAX_PERIODS)
      return fail(p, col, "more than %d periods", ARB_TC_MAX_PERIODS);
    arb_tc_period *per = &tc->periods[tc->nperiods];
    cols[tc->nperiods] = col;
    if (moves_prefix_ahead(p)) {
      if ((st = read_moves(p, &per->moves)) != ARB_OK) return st;
      if (peek(p) != '/')
        return fail(p, p->pos, "expected '/' after the move count, found %s",
                    char_desc(p, b, sizeof b));
      p->pos++;
    }
    if ((st = read_seconds(p, "a number of seconds", &per->time_ms)) != ARB_OK) return st;
    if (peek(p) == '+') {
      p->pos++;
      if ((st = read_seconds(p, "the increment in seconds", &per->increment_ms)) != ARB_OK)
        return st;
    }
    tc->nperiods++;
    tc->kind = ARB_TC_PERIODS;
    if (at_end(p)) break;
    if (peek(p) != ':')
      return fail(p, p->pos, "unexpected %s (descriptors are separated by ':')",
                  char_desc(p, b, sizeof b));
    p->pos++;
  }
  return check_last_only(p, tc, cols);
}

arb_status arb_tc_parse(const char *text, size_t len, arb_tc_syntax syntax, arb_time_control *tc,
                        arb_tc_report *report) {
  if (report) {
    report->column = -1;
    report->message[0] = '\0';
  }
  if ((!text && len) || !tc || (unsigned)syntax > ARB_TC_AUTO) {
    if (report) snprintf(report->message, sizeof report->message, "invalid argument");
    return ARB_ERR_ARGUMENT;
  }
  tc_parser p = {text ? text : "", len, 0, report};
  arb_status st = check_no_nul(&p);
  if (st != ARB_OK) return st;
  if (syntax == ARB_TC_AUTO) syntax = memchr(p.s, ':', len) ? ARB_TC_PGN : ARB_TC_HUMAN;
  /* Blanks around the whole text are ignored in both grammars. */
  while (p.len > 0 && arb__is_blank(p.s[p.len - 1]))
    p.len--;
  skip_blanks(&p);
  if (at_end(&p)) return fail(&p, p.pos, "empty time control");
  arb_time_control t;
  memset(&t, 0, sizeof t);
  st = syntax == ARB_TC_PGN ? parse_pgn(&p, &t) : parse_human(&p, &t);
  if (st != ARB_OK) return st;
  if (arb_tc_validate(&t) != ARB_OK) return fail(&p, 0, "inconsistent time control");
  *tc = t;
  return ARB_OK;
}

/* ---- writing ---- */

/* PGN seconds: whole seconds, or the shortest exact fraction. */
static void put_seconds(arb__out *o, int64_t ms) {
  arb__outf(o, "%lld", (long long)(ms / 1000));
  int frac = (int)(ms % 1000);
  if (frac) {
    char d[4] = {(char)('0' + frac / 100), (char)('0' + frac / 10 % 10), (char)('0' + frac % 10),
                 '\0'};
    int n = 3;
    while (n > 1 && d[n - 1] == '0')
      n--;
    arb__outf(o, ".%.*s", n, d);
  }
}

/* Human amounts always carry a unit: whole minutes as "m", whole seconds as "s", else "ms". */
static void put_amount(arb__out *o, int64_t ms, int prefer_minutes) {
  if (prefer_minutes && ms % MS_MINUTE == 0)
    arb__outf(o, "%lldm", (long long)(ms / MS_MINUTE));
  else if (ms % MS_SECOND == 0)
    arb__outf(o, "%llds", (long long)(ms / MS_SECOND));
  else
    arb__outf(o, "%lldms", (long long)ms);
}

int arb_tc_write(const arb_time_control *tc, arb_tc_syntax syntax, char *buf, size_t size) {
  arb__out o;
  arb__out_init(&o, buf, size);
  if (arb_tc_validate(tc) != ARB_OK || (unsigned)syntax > ARB_TC_AUTO) return ARB_ERR_ARGUMENT;
  int pgn = syntax == ARB_TC_PGN;
  switch (tc->kind) {
  case ARB_TC_UNKNOWN: arb__outf(&o, "?"); return arb__out_result(&o);
  case ARB_TC_NONE: arb__outf(&o, "-"); return arb__out_result(&o);
  case ARB_TC_SANDCLOCK:
    arb__outf(&o, "*");
    if (pgn)
      put_seconds(&o, tc->periods[0].time_ms);
    else
      put_amount(&o, tc->periods[0].time_ms, 1);
    return arb__out_result(&o);
  default: break;
  }
  for (int i = 0; i < tc->nperiods; i++) {
    const arb_tc_period *per = &tc->periods[i];
    if (i) arb__outf(&o, pgn ? ":" : ",");
    if (per->moves) arb__outf(&o, "%u/", (unsigned)per->moves);
    if (pgn) {
      put_seconds(&o, per->time_ms);
      if (per->increment_ms) {
        arb__outf(&o, "+");
        put_seconds(&o, per->increment_ms);
      }
      continue;
    }
    put_amount(&o, per->time_ms, 1);
    if (per->increment_ms) {
      arb__outf(&o, "+");
      put_amount(&o, per->increment_ms, 0);
    }
    if (per->delay_kind != ARB_DELAY_NONE) {
      arb__outf(&o, " %c", per->delay_kind == ARB_DELAY_SIMPLE ? 'd' : 'b');
      put_amount(&o, per->delay_ms, 0);
    }
  }
  return arb__out_result(&o);
}

int arb_tc_pgn_exact(const arb_time_control *tc) {
  if (arb_tc_validate(tc) != ARB_OK) return 0;
  for (int i = 0; i < tc->nperiods; i++) {
    const arb_tc_period *per = &tc->periods[i];
    if (per->delay_kind != ARB_DELAY_NONE || per->time_ms % MS_SECOND ||
        per->increment_ms % MS_SECOND)
      return 0;
  }
  return 1;
}
